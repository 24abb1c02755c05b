"""Pictures of game maps: terrain in colour, the cells a search expanded, the path it found.

For any connectivity: a path is drawn through the centres of its cells, so diagonal moves show as
diagonal segments. Expanded cells are tinted by expansion order (early light, late dark, with a
colour bar), so a picture shows where a search spent its effort; a terrain legend names every
colour.

>>> import matplotlib
>>> matplotlib.use("Agg")
>>> from reference.world.terrain import terrain_from_strings
>>> terrain = terrain_from_strings(["..T.", ".WW.", "...."])
>>> colours = terrain_colours(terrain)
>>> colours.shape, tuple(colours[0, 2]) == TERRAIN_COLOURS[1]
((3, 4, 3), True)
>>> ax = draw_game_map(terrain, path=[(0, 0), (1, 0), (2, 1), (2, 2)], expanded=[(0, 0), (1, 0)])
>>> [text.get_text() for text in ax.get_legend().get_texts()]
['ground', 'trees', 'water', 'out of bounds', 'path', 'start', 'goal']
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
from matplotlib.axes import Axes
from matplotlib.patches import Patch

from .grid import Cell, Gridworld
from .terrain import GROUND, OUT_OF_BOUNDS, TERRAIN_NAMES, TREES, WATER

#: The colour (RGB in 0..1) of each terrain code.
TERRAIN_COLOURS: dict[int, tuple[float, float, float]] = {
    GROUND: (0.96, 0.93, 0.84),          # sand
    TREES: (0.30, 0.60, 0.30),           # forest green
    WATER: (0.35, 0.60, 0.90),           # lake blue
    OUT_OF_BOUNDS: (0.15, 0.15, 0.15),   # near black
}
EXPANDED_RAMP = "plasma_r"   # early expansions light yellow, late ones dark purple
EXPANDED_ALPHA = 0.75        # how strongly an expanded cell's colour covers its terrain
PATH_COLOUR = "red"
START_COLOUR = "tab:blue"
GOAL_COLOUR = "white"


def terrain_of(world: np.ndarray | Gridworld) -> np.ndarray:
    """The terrain array to draw: a terrain array itself, or a :class:`Gridworld` as ground and out of bounds."""
    if isinstance(world, Gridworld):
        return np.where(world.blocked, OUT_OF_BOUNDS, GROUND).astype(np.uint8)
    return np.asarray(world, dtype=np.uint8)


def terrain_colours(terrain: np.ndarray) -> np.ndarray:
    """An RGB image (height x width x 3) of the terrain, one pixel per cell."""
    palette = np.zeros((256, 3))
    for code, colour in TERRAIN_COLOURS.items():
        palette[code] = colour
    return palette[terrain]


def draw_game_map(
    world: np.ndarray | Gridworld,
    path: Sequence[Cell] = (),
    expanded: Sequence[Cell] = (),
    start: Cell | None = None,
    goal: Cell | None = None,
    title: str | None = None,
    ax: Axes | None = None,
    legend: bool = True,
    zoom: int | None = None,
) -> Axes:
    """Draw a terrain array (or a :class:`Gridworld`) with expanded cells, a path, start and goal.

    ``start`` and ``goal`` default to the path's ends. ``zoom`` shows only the cells within
    ``zoom`` rows and columns of the search (path, expanded cells, start, goal). Returns the axes
    (a new figure when ``ax`` is None), ready for ``ax.figure.savefig``.
    """
    import matplotlib.pyplot as plt
    from matplotlib import colormaps
    from matplotlib.cm import ScalarMappable
    from matplotlib.colors import Normalize

    terrain = terrain_of(world)
    height, width = terrain.shape
    start = start if start is not None else (path[0] if len(path) else None)
    goal = goal if goal is not None else (path[-1] if len(path) else None)
    top, left, bottom, right = 0, 0, height - 1, width - 1
    shown = [cell for cell in (*path, *expanded, start, goal) if cell is not None]
    if zoom is not None and shown:
        rows, cols = np.array(shown).T
        top, bottom = max(0, rows.min() - zoom), min(height - 1, rows.max() + zoom)
        left, right = max(0, cols.min() - zoom), min(width - 1, cols.max() + zoom)
    view_height, view_width = bottom - top + 1, right - left + 1
    if ax is None:
        scale = 9.0 / max(view_height, view_width)
        _figure, ax = plt.subplots(figsize=(max(3.5, view_width * scale + 2.5), max(3.0, view_height * scale + 0.8)))
    image = terrain_colours(terrain)
    if len(expanded):
        ramp = colormaps[EXPANDED_RAMP]
        order = np.linspace(0.0, 1.0, len(expanded))
        rows, cols = np.array(expanded).T
        image[rows, cols] = (1 - EXPANDED_ALPHA) * image[rows, cols] + EXPANDED_ALPHA * ramp(order)[:, :3]
        bar = ax.figure.colorbar(ScalarMappable(Normalize(1, len(expanded)), ramp), ax=ax, orientation="horizontal",
                                 fraction=0.04, pad=0.1)
        bar.set_label(f"expansion order ({len(expanded):,} expanded)")
    ax.imshow(image, interpolation="nearest")
    if len(path) >= 2:
        rows, cols = zip(*path)
        ax.plot(cols, rows, color=PATH_COLOUR, linewidth=max(1.0, min(3.0, 300 / max(view_height, view_width))),
                solid_capstyle="round", label="path", zorder=3)
    marker_size = max(4.0, min(10.0, 400 / max(view_height, view_width)))
    if start is not None:
        ax.plot(start[1], start[0], "o", color=START_COLOUR, markeredgecolor="black", markersize=marker_size,
                label="start", zorder=4)
    if goal is not None:
        ax.plot(goal[1], goal[0], "*", color=GOAL_COLOUR, markeredgecolor="black", markersize=marker_size * 1.6,
                label="goal", zorder=4)
    ax.set_xlim(left - 0.5, right + 0.5)
    ax.set_ylim(bottom + 0.5, top - 0.5)
    ax.set_xlabel("column (x)")
    ax.set_ylabel("row (y)")
    if title:
        ax.set_title(title)
    if legend:
        handles = [Patch(facecolor=TERRAIN_COLOURS[code], edgecolor="grey", label=TERRAIN_NAMES[code])
                   for code in (GROUND, TREES, WATER, OUT_OF_BOUNDS)]
        handles += ax.get_legend_handles_labels()[0]
        ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.02, 1.0),
                  fontsize="small", framealpha=0.9)
    return ax
