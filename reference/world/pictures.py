"""Pictures of searches and of what the agent knows, drawn the way the handout draws them.

Two kinds of picture, both for any trace (the reference's or a student's) on its true grid:

* :func:`draw_search` - the handout's search figure (Figures 5-7): known-blocked cells black,
  every generated cell with its g-value top-left, f-value top-right and h-value bottom-left
  (h in every presumed-unblocked cell, as the handout does), expanded cells grey, tree-pointer
  arrows, the agent ``A`` and the target ``T``, and the path found. For Adaptive A* the
  bottom-right corner of each expanded cell shows its updated h-value (Figure 7). On a big grid
  the numbers are dropped and the expansion order becomes a colour ramp; ``window`` zooms in.
  A legend under the grid says what each colour, line, mark and corner means.
* :func:`draw_knowledge_views` - the true world, what the agent knows, and the freespace view
  it plans on, side by side at any step of the run (the handout's Figures 2 and 3).

Every number comes from :mod:`reference.world.replay` (the recorded expansion order re-read on
the true grid), never from an A* implementation. The drawn text of each cell is returned as plain
data, so tests and notebooks can read what the picture says.

>>> from reference.world.grid import Gridworld
>>> from reference.world.trace import SearchRecord, Trace
>>> grid = Gridworld.from_strings(["...", ".@."])
>>> trace = Trace("forward", "larger_g", True, [(1, 0), (0, 0), (0, 1), (0, 2), (1, 2)],
...               [SearchRecord((1, 0), (1, 2), [(1, 0), (0, 0), (0, 1), (0, 2)],
...                             [(1, 0), (0, 0), (0, 1), (0, 2), (1, 2)])])
>>> drawn = draw_search(search_view(grid, trace, 0))
>>> drawn.cell_text[(0, 1)]
{'g': '2', 'f': '4', 'h': '2'}
>>> cell_name((1, 2))
'B3'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Iterator, Sequence

import numpy as np
from matplotlib.artist import Artist
from matplotlib.axes import Axes
from matplotlib.lines import Line2D
from matplotlib.patches import Patch, Rectangle

from .grid import Cell, Gridworld, as_cell
from .replay import SearchAnnotation, SearchContext, annotate_search, heuristic_for, search_contexts
from .sensing import Knowledge
from .trace import ALGORITHMS, SearchRecord, Trace

#: Colours (RGB in 0..1) shared by every picture of the kit.
WHITE = (1.0, 1.0, 1.0)
BLACK = (0.0, 0.0, 0.0)
EXPANDED_GREY = (0.72, 0.72, 0.72)      # the handout's grey for expanded cells
UNKNOWN_GREY = (0.55, 0.55, 0.55)       # Figure 2 (right): cells whose status the agent does not know
HIDDEN_WALL = (0.6, 0.67, 0.88)         # blocked on the true grid, not yet seen by the agent
HIDDEN_HATCH = (0.25, 0.3, 0.55)        # ... and the hatching drawn over it on small grids
NEW_WALL = (0.85, 0.1, 0.1)             # a blocked cell the agent has just seen
TRAIL = (1.0, 0.87, 0.55)               # cells the agent has stood in
PATH_COLOUR = "tab:red"
AGENT_COLOUR = "tab:blue"
TARGET_COLOUR = "tab:red"

#: Above this many rows or columns in view, a search figure drops its numbers (they would not fit).
MAX_CELLS_WITH_NUMBERS = 16
#: Above this many rows or columns in view, cells are a few pixels: lines and marks are drawn bolder.
MAX_CELLS_WITH_GRID_LINES = 40

Window = tuple[Cell, Cell]  # (top-left cell, bottom-right cell), both inside the view


def cell_name(cell: Cell) -> str:
    """The handout's name of a cell: row letter (A at the top), column number (1 at the left).

    >>> cell_name((4, 2))
    'E3'
    """
    row, col = cell
    if not 0 <= row < 26:
        return f"({row},{col})"
    return f"{chr(ord('A') + row)}{col + 1}"


def observed_cells(grid: Gridworld, visited: Sequence[Cell]) -> set[Cell]:
    """Cells whose blockage status the agent has observed after standing in ``visited`` (SPEC §4):
    the cells it stood in and their neighbours.

    >>> sorted(observed_cells(Gridworld(2, 3), [(0, 0)]))
    [(0, 0), (0, 1), (1, 0)]
    """
    seen = set()
    for cell in visited:
        seen.add(as_cell(cell))
        seen.update(grid.neighbours(as_cell(cell)))
    return seen


def knowledge_after(grid: Gridworld, visited: Sequence[Cell]) -> Knowledge:
    """What the agent knows to be blocked after standing in ``visited`` (SPEC §4).

    >>> knowledge_after(Gridworld.from_strings(["..", "@."]), [(0, 0)]).known_blocked()
    [(1, 0)]
    """
    knowledge = Knowledge(grid.height, grid.width)
    for cell in visited:
        knowledge.observe(n for n in grid.neighbours(as_cell(cell)) if grid.blocked[n])
    return knowledge


def known_array(knowledge: Knowledge) -> np.ndarray:
    """What ``knowledge`` holds as a ``(height, width)`` boolean array: True where known blocked.

    >>> known_array(knowledge_after(Gridworld.from_strings(["..", "@."]), [(0, 0)])).tolist()
    [[False, False], [True, False]]
    """
    flat = np.frombuffer(bytes(knowledge.blocked), dtype=np.uint8)
    return flat.reshape(knowledge.height, knowledge.width).astype(bool)


def target_of(trace: Trace) -> Cell | None:
    """The target of a run: the end of its first search that is not the agent's start (the goal of
    a search from the agent, the start of one from the target, as Backward A* and D* Lite search)."""
    if not trace.searches:
        return as_cell(trace.trajectory[-1]) if trace.reached else None
    first = trace.searches[0]
    return as_cell(first.goal) if as_cell(first.start) == as_cell(trace.trajectory[0]) else as_cell(first.start)


# -- one search, as numbers ----------------------------------------------------------------------

@dataclass
class SearchView:
    """Everything the handout's figure of one search shows, before any drawing.

    ``h_updated`` holds Adaptive A*'s new h-value ``g(s_goal) - g(s)`` of every expanded cell
    (empty for other algorithms, or when the search found no path).
    """

    index: int
    algorithm: str
    grid: Gridworld
    knowledge: Knowledge
    agent: Cell
    target: Cell | None         # None only for a run with no search that never reached its target
    record: SearchRecord
    annotation: SearchAnnotation
    heuristic: Callable[[Cell], int]
    h_updated: dict[Cell, int] = field(default_factory=dict)


def _search_view(grid: Gridworld, trace: Trace, context: SearchContext, target: Cell | None) -> SearchView:
    record = trace.searches[context.index]
    heuristic = heuristic_for(trace, context.index, context)
    annotation = annotate_search(record, context.knowledge, heuristic)
    goal = as_cell(record.goal)
    h_updated = {}
    if trace.algorithm == "adaptive" and record.path and goal in annotation.g:
        # Figure 7: h(s) := g(s_goal) - g(s) for every expanded state
        h_updated = {s: annotation.g[goal] - annotation.g[s] for s in annotation.expanded if s in annotation.g}
    return SearchView(context.index, trace.algorithm, grid, context.knowledge, context.agent, target, record,
                      annotation, heuristic, h_updated)


def search_views(grid: Gridworld, trace: Trace) -> Iterator[SearchView]:
    """One :class:`SearchView` per search of ``trace``, in order, lazily."""
    target = target_of(trace)
    for context in search_contexts(grid, trace):
        yield _search_view(grid, trace, context, target)


def search_view(grid: Gridworld, trace: Trace, index: int) -> SearchView:
    """The :class:`SearchView` of search ``index`` (0 = the first search; negative counts from the end)."""
    count = len(trace.searches)
    if not -count <= index < count:
        raise IndexError(f"the trace has {count} searches; search {index} does not exist")
    index %= count
    for context in search_contexts(grid, trace):  # annotate only the search asked for
        if context.index == index:
            return _search_view(grid, trace, context, target_of(trace))
    raise AssertionError("unreachable: search_contexts yields every search")


# -- drawing helpers shared by every picture -----------------------------------------------------

def window_or_whole(window: Window | None, height: int, width: int) -> Window:
    """``window`` clipped to a ``height`` x ``width`` grid (the whole grid for None), or a
    ValueError if no cell of it lies inside.

    >>> window_or_whole(((-2, 3), (1, 9)), 4, 5)
    ((0, 3), (1, 4))
    """
    if window is None:
        return ((0, 0), (height - 1, width - 1))
    (top, left), (bottom, right) = window
    top, left = max(0, top), max(0, left)
    bottom, right = min(height - 1, bottom), min(width - 1, right)
    if top > bottom or left > right:
        raise ValueError(f"the window {window} holds no cell of the {height} x {width} grid")
    return ((top, left), (bottom, right))


def window_around(cell: Cell, radius: int, grid: Gridworld) -> Window:
    """The square window of cells within ``radius`` rows and columns of ``cell``, clipped to the grid.

    >>> window_around((0, 5), 2, Gridworld(10, 10))
    ((0, 3), (2, 7))
    """
    return window_or_whole(((cell[0] - radius, cell[1] - radius), (cell[0] + radius, cell[1] + radius)),
                            grid.height, grid.width)


def _style_axes(ax: Axes, height: int, width: int, window: Window, grid_lines: bool) -> None:
    """Cells as unit squares centred on (col, row), row 0 at the top; handout names on small grids."""
    (top, left), (bottom, right) = window
    ax.set_xlim(left - 0.5, right + 0.5)
    ax.set_ylim(bottom + 0.5, top - 0.5)
    ax.set_aspect("equal")
    rows, cols = bottom - top + 1, right - left + 1
    if height <= 26 and rows <= MAX_CELLS_WITH_NUMBERS and cols <= MAX_CELLS_WITH_NUMBERS:
        ax.set_yticks(range(top, bottom + 1), [chr(ord("A") + r) for r in range(top, bottom + 1)])
        ax.set_xticks(range(left, right + 1), [str(c + 1) for c in range(left, right + 1)])
        ax.xaxis.tick_top()
    elif rows <= 40 and cols <= 40:
        ax.set_yticks(range(-(-top // 5) * 5, bottom + 1, 5))  # the multiples of 5 in view
        ax.set_xticks(range(-(-left // 5) * 5, right + 1, 5))
    ax.tick_params(length=0, labelsize=8)
    if grid_lines:
        ax.set_xticks(np.arange(left - 0.5, right + 1), minor=True)
        ax.set_yticks(np.arange(top - 0.5, bottom + 1), minor=True)
        ax.grid(which="minor", color="0.2", linewidth=0.8)
        ax.tick_params(which="minor", length=0)


def _show_cells(ax: Axes, colours: np.ndarray) -> None:
    """Paint an ``(height, width, 3)`` RGB array, one pixel per cell."""
    height, width, _ = colours.shape
    ax.imshow(colours, extent=(-0.5, width - 0.5, height - 0.5, -0.5), interpolation="nearest", zorder=0)


def _mark_agent_and_target(ax: Axes, agent: Cell | None, target: Cell | None, letters: bool, window: Window,
                           marker_size: float = 60) -> dict[Cell, str]:
    """``A`` and ``T`` in the cells' centres (small grids), or a dot and a star (big grids)."""
    (top, left), (bottom, right) = window
    marks = {}
    for cell, letter, colour, marker in ((agent, "A", AGENT_COLOUR, "o"), (target, "T", TARGET_COLOUR, "*")):
        if cell is None or not (top <= cell[0] <= bottom and left <= cell[1] <= right):
            continue
        marks[cell] = marks.get(cell, "") + letter
        if letters:
            ax.text(cell[1], cell[0], marks[cell], ha="center", va="center", fontsize=13, fontweight="bold",
                    color=colour, zorder=6, bbox={"boxstyle": "round,pad=0.15", "facecolor": "white",
                                                  "edgecolor": "none", "alpha": 0.85})
        else:  # a white ring inside a black one: visible on white, black, grey and every ramp colour
            ax.scatter([cell[1]], [cell[0]], s=marker_size * (2 if marker == "*" else 1), marker=marker,
                       color=colour, edgecolor="black", linewidth=1.6, zorder=6)
            ax.scatter([cell[1]], [cell[0]], s=marker_size * (2 if marker == "*" else 1), marker=marker,
                       color=colour, edgecolor="white", linewidth=0.6, zorder=6)
    return marks


def _marker_size(rows: int, cols: int) -> float:
    """Agent and target marks: a cell's size on small grids, several cells wide on big ones."""
    return 60 if max(rows, cols) <= MAX_CELLS_WITH_GRID_LINES else 140


def _path_width(numbers: bool, rows: int, cols: int) -> float:
    """The path's line width in points: thick enough to follow on a 101 x 101 maze."""
    return 3.0 if numbers or max(rows, cols) <= MAX_CELLS_WITH_GRID_LINES else 2.6


def _draw_path(ax: Axes, path: Sequence[Cell], width: float = 3.0) -> None:
    if len(path) >= 2:
        rows, cols = zip(*path)
        ax.plot(cols, rows, color=PATH_COLOUR, linewidth=width, alpha=0.8, solid_capstyle="round", zorder=4)


def add_legend(ax: Axes, entries: Sequence[tuple[str, Artist]], title: str | None = None, columns: int = 3,
               fontsize: float = 8) -> None:
    """A legend under ``ax`` with one entry per ``(label, handle)`` (see :func:`legend_handle`)."""
    handles = [handle for _, handle in entries]
    labels = [label for label, _ in entries]
    legend = ax.legend(handles, labels, loc="upper center", bbox_to_anchor=(0.5, -0.03), ncol=columns,
                       fontsize=fontsize, title=title, title_fontsize=fontsize, frameon=False, handlelength=1.6,
                       columnspacing=1.2)
    legend.set_zorder(10)


def legend_handle(kind: str, colour=None) -> Artist:
    """A legend handle: ``"cell"`` (a square of ``colour``), ``"hatched"`` (a hidden wall), ``"path"``,
    ``"agent"``, ``"target"``, ``"arrow"`` (a tree pointer)."""
    if kind == "cell":
        return Patch(facecolor=colour, edgecolor="0.3", linewidth=0.5)
    if kind == "hatched":
        return Patch(facecolor=HIDDEN_WALL, edgecolor=HIDDEN_HATCH, hatch="///", linewidth=0.5)
    if kind == "path":
        return Line2D([], [], color=PATH_COLOUR, linewidth=3.0, alpha=0.8)
    if kind == "agent":
        return Line2D([], [], marker="o", linestyle="", markersize=8, color=AGENT_COLOUR, markeredgecolor="black")
    if kind == "target":
        return Line2D([], [], marker="*", linestyle="", markersize=11, color=TARGET_COLOUR, markeredgecolor="black")
    if kind == "arrow":
        return Line2D([], [], marker=r"$\leftarrow$", linestyle="", markersize=10, color="0.15")
    raise ValueError(f"unknown legend handle {kind!r}")


#: What the four corners of a cell hold in the handout's search figures.
CORNERS = "in a cell: g top-left, f top-right, h bottom-left"
CORNER_UPDATED_H = "; green, bottom-right: the h Adaptive A* learns from this search"


def search_legend_entries(numbers: bool, hidden_walls: bool, updated_h: bool,
                          ramp: str = "viridis") -> tuple[str | None, list[tuple[str, Artist]]]:
    """The key of :func:`draw_search`: a title (what the corners hold, with numbers) and the entries."""
    import matplotlib

    expanded = EXPANDED_GREY if numbers else matplotlib.colormaps[ramp](0.5)
    entries = [("expanded" if numbers else "expanded (colour: order)", legend_handle("cell", expanded)),
               ("known blocked", legend_handle("cell", BLACK))]
    if hidden_walls:
        entries.append(("blocked, not seen yet (planned through)",
                        legend_handle("hatched" if numbers else "cell", HIDDEN_WALL)))
    entries += [("path found", legend_handle("path"))]
    if numbers:
        entries += [("A agent, T target", legend_handle("cell", WHITE)), ("tree pointer", legend_handle("arrow"))]
    else:
        entries += [("agent", legend_handle("agent")), ("target", legend_handle("target"))]
    title = (CORNERS + (CORNER_UPDATED_H if updated_h else "")) if numbers else None
    return title, entries


def search_legend(ax: Axes, numbers: bool, hidden_walls: bool, updated_h: bool, ramp: str = "viridis") -> list[str]:
    """Put the key of :func:`draw_search` under ``ax``; return its title (if any) and labels."""
    title, entries = search_legend_entries(numbers, hidden_walls, updated_h, ramp)
    add_legend(ax, entries, title=title)
    return ([title] if title else []) + [label for label, _ in entries]


def _new_axes(ax: Axes | None, rows: int, cols: int, inch_per_cell: float, max_inches: float = 10.0) -> Axes:
    if ax is not None:
        return ax
    import matplotlib.pyplot as plt

    scale = min(inch_per_cell, max_inches / max(rows, cols))
    _figure, ax = plt.subplots(figsize=(max(2.5, cols * scale + 0.8), max(2.5, rows * scale + 0.8)))
    return ax


# -- the handout's search figure -----------------------------------------------------------------

@dataclass
class DrawnSearch:
    """What :func:`draw_search` put on the axes, as data.

    ``cell_text[cell]`` maps a corner (``"g"`` top-left, ``"f"`` top-right, ``"h"`` bottom-left,
    ``"h_new"`` bottom-right) to the text drawn there; ``marks[cell]`` is ``"A"``, ``"T"`` or both.
    ``colours`` is the RGB colour of every cell of the grid (``colours[row, col]``).
    """

    axes: Axes
    cell_text: dict[Cell, dict[str, str]]
    shaded: list[Cell]
    arrows: dict[Cell, Cell]
    marks: dict[Cell, str]
    colours: np.ndarray
    window: Window
    numbers: bool
    legend: list[str] = field(default_factory=list)  # the legend's title and labels ([] without one)


def search_colours(view: SearchView, ramp: str | None = None, hidden_walls: bool = True) -> np.ndarray:
    """The colour of every cell in the search figure: white presumed unblocked, black known blocked,
    pale blue-grey blocked but not yet seen (white if not ``hidden_walls``), grey expanded (or the
    ``ramp`` colour map over the expansion order: early cells at its start, late cells at its end)."""
    grid = view.grid
    colours = np.ones((grid.height, grid.width, 3))
    if hidden_walls:
        colours[grid.blocked] = HIDDEN_WALL
    colours[known_array(view.knowledge)] = BLACK
    expanded = view.annotation.expanded
    if ramp is None:
        for cell in expanded:
            colours[cell] = EXPANDED_GREY
    else:
        import matplotlib

        colour_map = matplotlib.colormaps[ramp]
        for order, cell in enumerate(expanded):
            colours[cell] = colour_map(order / max(1, len(expanded) - 1))[:3]
    return colours


def draw_search(
    view: SearchView,
    ax: Axes | None = None,
    numbers: bool | None = None,
    window: Window | None = None,
    show_updated_h: bool | None = None,
    ramp: str = "viridis",
    title: str | None = None,
    hidden_walls: bool = True,
    legend: bool = True,
) -> DrawnSearch:
    """Draw one search the way the handout's Figures 5-7 do.

    ``numbers`` (default: only if at most 16 rows and columns are in view) writes g, f, h (and
    Adaptive A*'s updated h when ``show_updated_h``, default on for Adaptive A*) into the cells
    and draws the tree pointers as arrows from each generated cell to its parent; without numbers
    the expanded cells are coloured by expansion order with ``ramp``. ``window`` ((top, left),
    (bottom, right)) zooms in on part of the grid. ``hidden_walls`` marks the blocked cells the
    agent has not seen yet (blue-grey, hatched when numbered); without it the picture shows only
    what the agent knows, as the handout's figures do. ``legend`` puts the key under the grid.

    >>> from reference.world.grid import Gridworld
    >>> grid = Gridworld.from_strings([".."])
    >>> view = search_view(grid, Trace("forward", "larger_g", True, [(0, 0), (0, 1)],
    ...     [SearchRecord((0, 0), (0, 1), [(0, 0)], [(0, 0), (0, 1)])]), 0)
    >>> draw_search(view).cell_text
    {(0, 0): {'g': '0', 'f': '1', 'h': '1'}, (0, 1): {'g': '1', 'f': '1', 'h': '0'}}
    """
    grid = view.grid
    window = window_or_whole(window, grid.height, grid.width)
    (top, left), (bottom, right) = window
    rows, cols = bottom - top + 1, right - left + 1
    if numbers is None:
        numbers = rows <= MAX_CELLS_WITH_NUMBERS and cols <= MAX_CELLS_WITH_NUMBERS
    if show_updated_h is None:
        show_updated_h = view.algorithm == "adaptive"
    ax = _new_axes(ax, rows, cols, inch_per_cell=1.0 if numbers else 0.08)

    colours = search_colours(view, ramp=None if numbers else ramp, hidden_walls=hidden_walls)
    _show_cells(ax, colours)
    _style_axes(ax, grid.height, grid.width, window, grid_lines=numbers or max(rows, cols) <= MAX_CELLS_WITH_GRID_LINES)

    def in_view(cell: Cell) -> bool:
        return top <= cell[0] <= bottom and left <= cell[1] <= right

    annotation = view.annotation
    cell_text: dict[Cell, dict[str, str]] = {}
    arrows: dict[Cell, Cell] = {}
    if numbers:
        # each corner's text in points: a cell is `size` points wide on the figure (the root figure:
        # a subfigure has no size of its own)
        size = ax.figure.figure.get_size_inches()[0] * ax.get_position().width * 72 / cols
        fontsize = max(5.0, min(9.0, size / 5.5))
        corner = 0.44
        places = {"g": (-corner, -corner, "left", "top"), "f": (corner, -corner, "right", "top"),
                  "h": (-corner, corner, "left", "bottom"), "h_new": (corner, corner, "right", "bottom")}
        for row in range(top, bottom + 1):
            for col in range(left, right + 1):
                cell = (row, col)
                if view.knowledge.is_blocked(cell):
                    continue
                text = {}
                if cell in annotation.g:
                    text["g"] = str(annotation.g[cell])
                    text["f"] = str(annotation.f[cell])
                text["h"] = str(view.heuristic(cell))  # the handout writes h in every cell
                if show_updated_h and cell in view.h_updated:
                    text["h_new"] = str(view.h_updated[cell])
                for key, value in text.items():
                    dx, dy, ha, va = places[key]
                    ax.text(col + dx, row + dy, value, ha=ha, va=va, fontsize=fontsize, zorder=5,
                            color="tab:green" if key == "h_new" else "black")
                cell_text[cell] = text
        if hidden_walls:  # a hatch on top of their colour, so they show even when expanded
            for row, col in zip(*np.nonzero(grid.blocked)):
                if in_view((row, col)) and not view.knowledge.is_blocked((row, col)):
                    ax.add_patch(Rectangle((col - 0.5, row - 0.5), 1, 1, fill=False, hatch="///",
                                           edgecolor=HIDDEN_HATCH, linewidth=0, zorder=1))
        for child, parent in annotation.tree.items():
            if in_view(child) and in_view(parent):
                arrows[child] = parent
                d_row, d_col = parent[0] - child[0], parent[1] - child[1]
                ax.annotate("", xy=(child[1] + 0.62 * d_col, child[0] + 0.62 * d_row),
                            xytext=(child[1] + 0.22 * d_col, child[0] + 0.22 * d_row),
                            arrowprops={"arrowstyle": "-|>", "color": "0.15", "linewidth": 1.1,
                                        "shrinkA": 0, "shrinkB": 0, "mutation_scale": 10}, zorder=5)
    else:
        import matplotlib
        from matplotlib.cm import ScalarMappable
        from matplotlib.colors import Normalize

        if annotation.expanded:
            mappable = ScalarMappable(Normalize(1, max(2, len(annotation.expanded))), matplotlib.colormaps[ramp])
            ax.figure.colorbar(mappable, ax=ax, shrink=0.7, label="expansion order")
    _draw_path(ax, view.record.path, width=_path_width(numbers, rows, cols))
    marks = _mark_agent_and_target(ax, view.agent, view.target, letters=numbers, window=window,
                                   marker_size=_marker_size(rows, cols))
    labels = search_legend(ax, numbers, hidden_walls, show_updated_h and bool(view.h_updated), ramp) if legend else []
    expanded = len(annotation.expanded)
    ax.set_title(title if title is not None else
                 f"{ALGORITHMS.get(view.algorithm, view.algorithm)}, search {view.index + 1}: "
                 f"{expanded} expansion{'s' * (expanded != 1)}",
                 fontsize=10)
    return DrawnSearch(ax, cell_text, list(annotation.expanded), arrows, marks, colours, window, numbers, labels)


# -- knowledge views -----------------------------------------------------------------------------

@dataclass
class KnowledgeViews:
    """The three panels of :func:`draw_knowledge_views` and the colours painted in each
    (``colours[panel][row, col]``, panels ``"true"``, ``"known"``, ``"freespace"``)."""

    axes: list[Axes]
    colours: dict[str, np.ndarray]
    step: int
    agent: Cell
    plan: list[Cell]


def current_plan(grid: Gridworld, trace: Trace, step: int) -> list[Cell]:
    """The rest of the path the agent is following at trajectory ``step`` (agent first), from the
    latest search made at or before that step; [] if there is none."""
    plan: list[Cell] = []
    for context in search_contexts(grid, trace):
        if context.trajectory_index > step:
            break
        path = [as_cell(c) for c in trace.searches[context.index].path]
        plan = path[step - context.trajectory_index:] if path else []
    return plan


def draw_knowledge_views(grid: Gridworld, trace: Trace, step: int = 0, axes: Sequence[Axes] | None = None,
                         window: Window | None = None) -> KnowledgeViews:
    """The true world, what the agent knows, and the freespace view, at trajectory ``step``
    (0 = before the first move; negative counts from the end).

    Panel 1 (true world): blocked cells black. Panel 2 (knowledge, the handout's Figure 2 right):
    known-blocked black, known-unblocked white, not yet observed grey. Panel 3 (freespace view):
    the agent presumes every cell unblocked unless it knows better; the path it is following is
    drawn. The agent's trail so far is shaded in all three.
    """
    steps = len(trace.trajectory)
    if not -steps <= step < steps:
        raise IndexError(f"the trajectory has {steps} cells (steps 0..{steps - 1}); step {step} does not exist")
    step %= steps
    visited = [as_cell(c) for c in trace.trajectory[: step + 1]]
    agent = visited[-1]
    target = target_of(trace)
    knowledge = knowledge_after(grid, visited)
    known = known_array(knowledge)
    observed = np.zeros((grid.height, grid.width), dtype=bool)
    for cell in observed_cells(grid, visited):
        observed[cell] = True

    true_world = np.ones((grid.height, grid.width, 3))
    true_world[grid.blocked] = BLACK
    knows = np.ones((grid.height, grid.width, 3))
    knows[~observed] = UNKNOWN_GREY
    knows[known] = BLACK
    freespace = np.ones((grid.height, grid.width, 3))
    freespace[known] = BLACK
    for panel in (true_world, knows, freespace):
        for cell in visited:
            panel[cell] = TRAIL
    colours = {"true": true_world, "known": knows, "freespace": freespace}

    window = window_or_whole(window, grid.height, grid.width)
    (top, left), (bottom, right) = window
    rows, cols = bottom - top + 1, right - left + 1
    small = rows <= MAX_CELLS_WITH_NUMBERS and cols <= MAX_CELLS_WITH_NUMBERS
    if axes is None:
        import matplotlib.pyplot as plt

        scale = min(0.6, 4.0 / max(rows, cols))
        _figure, axes = plt.subplots(1, 3, figsize=(3 * (cols * scale + 0.6), rows * scale + 1.0))
    axes = list(axes)
    plan = current_plan(grid, trace, step)
    titles = {"true": "true world", "known": "what the agent knows", "freespace": "freespace view (plans on this)"}
    for ax, (name, panel) in zip(axes, colours.items()):
        _show_cells(ax, panel)
        _style_axes(ax, grid.height, grid.width, window, grid_lines=small or max(rows, cols) <= MAX_CELLS_WITH_GRID_LINES)
        _mark_agent_and_target(ax, agent, target, letters=small, window=window, marker_size=_marker_size(rows, cols))
        if name == "freespace":
            _draw_path(ax, plan, width=_path_width(small, rows, cols))
        ax.set_title(titles[name], fontsize=10)
    marks = ([("A agent, T target", legend_handle("cell", WHITE))] if small else
             [("agent", legend_handle("agent")), ("target", legend_handle("target"))])
    add_legend(axes[1], [("blocked (known, in the middle and right)", legend_handle("cell", BLACK)),
                         ("not observed yet", legend_handle("cell", UNKNOWN_GREY)),
                         ("cells the agent stood in", legend_handle("cell", TRAIL)),
                         ("the path it follows", legend_handle("path")), *marks], columns=3)
    axes[0].figure.suptitle(f"step {step}: the agent stands in "
                                  f"{cell_name(agent) if grid.height <= 26 else agent}", fontsize=11)
    return KnowledgeViews(axes, colours, step, agent, plan)
