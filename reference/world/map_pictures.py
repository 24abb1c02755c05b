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

A run of a known-map planner (one planning episode per search record) is drawn one episode at a
time: :func:`episode_view` replays the trace up to it on the map (``reference.world.replay``, so an
illegal step is a :class:`~reference.world.replay.ReplayError`), :func:`draw_episode` draws the
path so far, the agent, the cells the episode expanded, its plan and, for subgoaling, the subgoal
tree (:func:`draw_tree_arcs`).

>>> from reference.world.grid import Gridworld
>>> from reference.world.trace import SearchRecord, Trace
>>> grid = Gridworld.from_strings(["...", "..@"])
>>> trace = Trace("lrta", "larger_g", True, [(1, 0), (0, 1), (0, 2)],
...               [SearchRecord((1, 0), (0, 2), [(1, 0)], [(1, 0), (0, 1)]),
...                SearchRecord((0, 1), (0, 2), [(0, 1)], [(0, 1), (0, 2)])])
>>> view = episode_view(grid, trace, 1, connectivity=8)
>>> view.trail, view.agent, view.plan
([(1, 0), (0, 1)], (0, 1), [(0, 1), (0, 2)])
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np
from matplotlib.artist import Artist
from matplotlib.axes import Axes
from matplotlib.patches import Patch
from matplotlib.ticker import MaxNLocator

from .grid import Cell, Gridworld, as_cell
from .pictures import Window, window_or_whole
from .replay import search_contexts
from .terrain import GROUND, OUT_OF_BOUNDS, TERRAIN_NAMES, TREES, WATER
from .trace import ALGORITHMS, Trace

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
TRAIL_COLOUR = "darkorange"     # the path the agent has walked so far
AGENT_COLOUR = "magenta"
SUBGOAL_COLOUR = "gold"         # the subgoal an episode pursues
TREE_COLOUR = "teal"            # subgoal tree arcs


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
    window: Window | None = None,
) -> Axes:
    """Draw a terrain array (or a :class:`Gridworld`) with expanded cells, a path, start and goal.

    ``start`` and ``goal`` default to the path's ends. ``zoom`` shows only the cells within
    ``zoom`` rows and columns of the search (path, expanded cells, start, goal); ``window``
    ((top, left), (bottom, right), clipped to the map) shows just those cells. Returns the axes
    (a new figure when ``ax`` is None), ready for ``ax.figure.savefig``. The expansion order gets
    a colour bar when more than one cell was expanded (one cell: a legend entry).
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
    if window is not None:
        (top, left), (bottom, right) = window_or_whole(window, height, width)
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
        if len(expanded) > 1:
            bar = ax.figure.colorbar(ScalarMappable(Normalize(1, len(expanded)), ramp), ax=ax,
                                     orientation="horizontal", fraction=0.04, pad=0.1)
            bar.set_label(f"expansion order ({len(expanded):,} expanded)")
        else:  # one expansion (a real-time episode): no order to show
            ax.plot([], [], "s", color=image[rows[0], cols[0]], markeredgecolor="grey", markersize=8, label="expanded")
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
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))   # cells, not half cells, on small maps
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("column (x)")
    ax.set_ylabel("row (y)")
    if title:
        ax.set_title(title)
    if legend:
        handles: list[Artist] = [Patch(facecolor=TERRAIN_COLOURS[code], edgecolor="grey", label=TERRAIN_NAMES[code])
                                 for code in (GROUND, TREES, WATER, OUT_OF_BOUNDS)]
        handles += ax.get_legend_handles_labels()[0]
        ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.02, 1.0),
                  fontsize="small", framealpha=0.9)
    return ax


# -- runs of known-map planners, one planning episode at a time ------------------------------------

@dataclass
class EpisodeView:
    """What :func:`draw_episode` shows of planning episode ``index`` (0 = the first) of a run.

    ``trail``: the cells the agent stood in before the episode, start first, ``agent`` last (from
    the replay, not from the trace's own trajectory); ``expanded`` and ``plan``: the episode's
    record (``plan`` is the path it found, agent first); ``pursued``: the goal of the episode (for
    subgoaling, the subgoal it pursued); ``goal``: the run's goal.
    """

    algorithm: str
    index: int
    episodes: int
    agent: Cell
    trail: list[Cell]
    expanded: list[Cell]
    plan: list[Cell]
    pursued: Cell
    goal: Cell


def episode_view(grid: Gridworld, trace: Trace, index: int, connectivity: int = 8,
                 goal: Cell | None = None) -> EpisodeView:
    """Replay ``trace`` on the known map ``grid`` up to episode ``index`` (negative: from the end).

    ``goal`` is the run's goal (default: the goal of the last episode, which for subgoaling is the
    real goal once the agent has reached it). Raises ``IndexError`` for an episode the trace does
    not have and :class:`~reference.world.replay.ReplayError` for a step that is not a legal move.
    """
    count = len(trace.searches)
    if not -count <= index < count:
        raise IndexError(f"the trace has {count} planning episodes; episode {index} does not exist")
    index %= count
    trail = [as_cell(trace.trajectory[0])]
    for context in search_contexts(grid, trace, connectivity, known_map=True):
        if context.index == index:
            record = trace.searches[index]
            final = goal if goal is not None else trace.searches[-1].goal
            return EpisodeView(trace.algorithm, index, count, context.agent, trail,
                               [as_cell(c) for c in record.expanded], [as_cell(c) for c in record.path],
                               as_cell(record.goal), as_cell(final))
        trail.extend(context.moves)
    raise AssertionError("unreachable: search_contexts yields every search")


def _moves(count: int) -> str:
    return f"{count:,} move{'s' * (count != 1)}"


def draw_tree_arcs(ax: Axes, arcs: Sequence[tuple[Cell, Cell]], label: str | None = None):
    """A subgoal tree over a map: an arrow from each child to its parent (``arcs``: ``(parent, child)``
    pairs, as :class:`reference.solutions.subgoaling.SubgoalTree` keeps them) and a dot on each child.
    Returns the dots (a legend handle), or None for a tree without arcs."""
    if not arcs:
        return None
    parents, children = np.array([parent for parent, _ in arcs]), np.array([child for _, child in arcs])
    # one quiver for all arcs: clipped to the axes (a zoomed picture), and fast for thousands of arcs
    ax.quiver(children[:, 1], children[:, 0], parents[:, 1] - children[:, 1], parents[:, 0] - children[:, 0],
              angles="xy", scale_units="xy", scale=1, color=TREE_COLOUR, alpha=0.8, width=0.0025,
              headwidth=5, headlength=6, headaxislength=5, zorder=2)
    (dots,) = ax.plot([child[1] for _, child in arcs], [child[0] for _, child in arcs], "o", color=TREE_COLOUR,
                      markersize=3, zorder=2,
                      label=label or f"subgoal tree ({len(arcs)} subgoals; arrows point to the next)")
    return dots


def draw_episode(
    world: np.ndarray | Gridworld,
    view: EpisodeView,
    tree_arcs: Sequence[tuple[Cell, Cell]] = (),
    window: Window | None = None,
    ax: Axes | None = None,
    title: str | None = None,
) -> Axes:
    """Draw one planning episode on the map: terrain (``world``: a terrain array or a
    :class:`Gridworld`), the subgoal tree if ``tree_arcs`` are given, the path walked so far, the
    cells the episode expanded (coloured by order), its plan, the agent, the subgoal it pursues
    (when that is not the goal), start and goal, and a legend that names every mark.

    ``window`` ((top, left), (bottom, right)) shows part of the map. Returns the axes.
    """
    start = view.trail[0]
    ax = draw_game_map(world, expanded=view.expanded, start=start, goal=view.goal, ax=ax, legend=False,
                       window=window)
    size = max(ax.get_xlim()[1] - ax.get_xlim()[0], ax.get_ylim()[0] - ax.get_ylim()[1])
    width = max(1.0, min(2.5, 200 / size))
    marker_size = max(7.0, min(11.0, 450 / size))
    draw_tree_arcs(ax, tree_arcs)
    if len(view.trail) >= 2:
        rows, cols = zip(*view.trail)
        ax.plot(cols, rows, color=TRAIL_COLOUR, linewidth=width, solid_capstyle="round", zorder=3,
                label=f"walked so far ({_moves(len(view.trail) - 1)})")
    if len(view.plan) >= 2:
        rows, cols = zip(*view.plan)
        ax.plot(cols, rows, color=PATH_COLOUR, linewidth=width, linestyle=(0, (2, 1)), zorder=3,
                label=f"plan of this episode ({_moves(len(view.plan) - 1)})")
    if view.pursued != view.goal:
        ax.plot(view.pursued[1], view.pursued[0], "D", color=SUBGOAL_COLOUR, markeredgecolor="black",
                markersize=marker_size, zorder=4, label="subgoal pursued in this episode")
    ax.plot(view.agent[1], view.agent[0], "o", color=AGENT_COLOUR, markeredgecolor="black",
            markersize=marker_size * 1.1, zorder=5, label="agent")
    expansions = len(view.expanded)
    ax.set_title(title if title is not None else
                 f"{ALGORITHMS.get(view.algorithm, view.algorithm)}, episode {view.index + 1} of {view.episodes:,}: "
                 f"{expansions:,} expansion{'s' * (expansions != 1)}", fontsize=10)
    terrain = terrain_of(world)
    handles: list[Artist] = [Patch(facecolor=TERRAIN_COLOURS[code], edgecolor="grey", label=TERRAIN_NAMES[code])
                             for code in (GROUND, TREES, WATER, OUT_OF_BOUNDS) if (terrain == code).any()]
    handles += ax.get_legend_handles_labels()[0]
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.02, 1.0), fontsize="small", framealpha=0.9)
    return ax
