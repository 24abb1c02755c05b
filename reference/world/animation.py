"""A whole run as an animation: every search, every move, every newly seen wall.

:func:`run_frames` turns a trace into a list of :class:`Frame` (plain data, one per event);
:func:`animate_run` draws them as a Matplotlib animation, which :func:`save_gif` writes as a GIF
and :func:`show_inline` shows in a notebook (a JavaScript player with its own controls).
:func:`step_slider` gives a slider over the frames when ipywidgets is installed.

What a frame shows, on the agent's freespace view of the true grid:

* black: cells the agent knows to be blocked; red: walls it saw in this very step;
* blue-grey: walls it has not seen yet (it plans as if they were free);
* blue: the cells the latest search expanded (bright in the search's own frame, faint after);
* yellow: the cells the agent has stood in; the red line: the path it is following;
* the blue dot is the agent, the red star the target (a legend under the grid says the same).

"moves to go" in a caption counts the moves the agent will still walk in this run (the rest of
its trajectory), not the length of the path it has just planned, which a newly seen wall can cut
short.

A run on a known game map (``known_map=True``: A*, LRTA*, LRTA* with subgoaling, four- or
eight-connected) has no fog: its frames are drawn over the terrain in colour
(:func:`~reference.world.map_pictures.terrain_colours`), one "episode" frame per planning episode,
with the goal's subgoal tree if given; nothing is black or red, since every wall is known.

>>> from reference.world.grid import Gridworld
>>> from reference.world.trace import SearchRecord, Trace
>>> grid = Gridworld.from_strings(["...", ".@."])
>>> trace = Trace("forward", "larger_g", True, [(1, 0), (0, 0), (0, 1), (0, 2), (1, 2)],
...               [SearchRecord((1, 0), (1, 2), [(1, 0), (0, 0), (0, 1), (0, 2)],
...                             [(1, 0), (0, 0), (0, 1), (0, 2), (1, 2)])])
>>> [frame.kind for frame in run_frames(grid, trace)]
['search', 'move', 'move', 'move', 'move', 'end']
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Sequence

import numpy as np
from matplotlib.animation import FuncAnimation
from matplotlib.axes import Axes
from matplotlib.colors import to_rgb

from .fileio import atomic_write_bytes
from .grid import Cell, Gridworld, as_cell
from .map_pictures import TERRAIN_COLOURS, TRAIL_COLOUR, draw_tree_arcs, terrain_colours, terrain_of
from .pictures import (AGENT_COLOUR, BLACK, HIDDEN_WALL, NEW_WALL, PATH_COLOUR, TARGET_COLOUR, TRAIL, WHITE,
                       add_legend, known_array, legend_handle, target_of)
from .replay import search_contexts
from .sensing import Knowledge
from .terrain import TERRAIN_NAMES
from .trace import ALGORITHMS, Trace

if TYPE_CHECKING:
    from matplotlib.figure import Figure

SEARCHED = (0.45, 0.7, 1.0)         # cells the current search expanded, in its own frame
SEARCHED_FAINT = (0.82, 0.9, 1.0)   # ... and while the agent walks the path it found
TRAIL_ON_TERRAIN = to_rgb(TRAIL_COLOUR)   # cells stood in, on a game map (yellow would vanish on sand)
LEGEND_INCHES = 1.0                 # the band under the grid that holds the legend


@dataclass
class Frame:
    """One picture of the run. ``kind`` is ``"search"``, ``"move"`` or ``"end"``; ``step`` is the
    agent's place in the trajectory (0 = start); ``known_blocked`` the agent's knowledge as a
    boolean array; ``path`` the rest of the path it is following."""

    kind: str                                          # "search" is a planning episode on a known map
    step: int
    agent: Cell
    known_blocked: np.ndarray
    caption: str
    search: int = -1                                   # index of the latest search
    expanded: list[Cell] = field(default_factory=list)
    new_walls: list[Cell] = field(default_factory=list)
    path: list[Cell] = field(default_factory=list)
    trail: list[Cell] = field(default_factory=list)    # the cells the agent has stood in so far


def run_frames(grid: Gridworld, trace: Trace, moves_per_frame: int = 1, max_frames: int | None = None,
               connectivity: int = 4, known_map: bool = False, target: Cell | None = None) -> list[Frame]:
    """The frames of a run: one per search, one per ``moves_per_frame`` moves (and always one
    after a move that reveals walls, and after a search's last move), one at the end.

    With ``max_frames``, a long run keeps that many evenly spaced frames (the first and the last
    among them); each kept frame shows in red every wall seen since the previous kept one.
    ``connectivity`` and ``known_map``: the world the trace is replayed in
    (:func:`~reference.world.replay.search_contexts`); ``target``: the run's goal (default
    :func:`~reference.world.pictures.target_of`, which for subgoaling is the first subgoal).
    """
    if moves_per_frame < 1:
        raise ValueError(f"moves_per_frame must be at least 1, got {moves_per_frame}")
    contexts = search_contexts(grid, trace, connectivity, known_map)
    agent = as_cell(trace.trajectory[0])
    if known_map:  # every wall known from the start, none to see: one array serves every frame
        known = grid.blocked.copy()

        def look(cell: Cell) -> list[Cell]:
            return []

        def known_now() -> np.ndarray:
            return known
    else:
        knowledge = Knowledge(grid.height, grid.width)

        def look(cell: Cell) -> list[Cell]:
            """Sense from ``cell`` (SPEC §4); return the walls seen for the first time."""
            return knowledge.observe(n for n in grid.neighbours(cell) if grid.blocked[n])

        def known_now() -> np.ndarray:
            return known_array(knowledge)

        look(agent)
    searches = "planning episode" if known_map else "search"
    trail = [agent]
    total_moves = len(trace.trajectory) - 1
    frames: list[Frame] = []
    # a frame's trail is trail[:step + 1]; it is filled in for the frames kept (a copy for every
    # frame of a long LRTA* run would take memory quadratic in its length)
    for context in contexts:
        record = trace.searches[context.index]
        number = context.index + 1
        path = [as_cell(c) for c in record.path]
        to_go = total_moves - (len(trail) - 1)  # what the agent will walk, not what it planned
        found = (f"path {_count(len(path) - 1, 'move')}; {to_go} moves to go" if path
                 else "no path: the target cannot be reached")
        frames.append(Frame("search", len(trail) - 1, agent, known_now(),
                            f"{searches} {number}: {_count(len(record.expanded), 'expansion')}, {found}",
                            context.index, list(record.expanded), path=path))
        for walked, cell in enumerate(context.moves, start=1):
            agent = cell
            trail.append(cell)
            step = len(trail) - 1
            new_walls = look(agent)
            if walked % moves_per_frame == 0 or new_walls or walked == len(context.moves):
                seen = f", sees {len(new_walls)} new wall{'s' * (len(new_walls) != 1)}" if new_walls else ""
                frames.append(Frame("move", step, agent, known_now(),
                                    f"move {step}, {total_moves - step} to go{seen}",
                                    context.index, list(record.expanded), new_walls, path[walked:]))
    target = target_of(trace) if target is None else target
    outcome = "reached the target" if trace.reached else "cannot reach the target"
    moves = len(trail) - 1
    frames.append(Frame("end", moves, agent, known_now(),
                        f"{outcome}: {len(trace.searches)} {searches}s, {trace.expansions} expansions, {moves} moves",
                        len(trace.searches) - 1))
    if target is not None and trace.reached and agent != target:
        frames[-1].caption += f" (but the agent stands in {agent}, not {target})"
    kept = frames if max_frames is None else thin_frames(frames, max_frames)
    for frame in kept:
        frame.trail = trail[: frame.step + 1]
    return kept


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'s' * (number != 1)}"


def thin_frames(frames: list[Frame], max_frames: int) -> list[Frame]:
    """At most ``max_frames`` evenly spaced frames, first and last kept; walls seen in dropped
    frames are shown as new in the next kept frame.

    >>> blank = np.zeros((1, 1), dtype=bool)
    >>> frames = [Frame("move", i, (0, 0), blank, str(i), new_walls=[(i, 0)]) for i in range(5)]
    >>> [(f.caption, f.new_walls) for f in thin_frames(frames, 3)]
    [('0', [(0, 0)]), ('2', [(1, 0), (2, 0)]), ('4', [(3, 0), (4, 0)])]
    """
    if max_frames < 2:
        raise ValueError(f"max_frames must be at least 2, got {max_frames}")
    if len(frames) <= max_frames:
        return frames
    keep = sorted(set(np.linspace(0, len(frames) - 1, max_frames).round().astype(int).tolist()))
    thinned, previous = [], -1
    for index in keep:
        walls = [wall for skipped in frames[previous + 1: index + 1] for wall in skipped.new_walls]
        thinned.append(replace(frames[index], new_walls=walls))
        previous = index
    return thinned


def frame_colours(grid: Gridworld, frame: Frame, terrain: np.ndarray | None = None) -> np.ndarray:
    """The RGB colour of every cell in ``frame`` (see the module docstring for the key); with
    ``terrain`` (a known map), the search and the trail over the terrain's colours."""
    searched = SEARCHED if frame.kind == "search" else SEARCHED_FAINT
    if terrain is not None:  # the search over the trail: a real-time episode expands the agent's own cell
        colours = terrain_colours(terrain)
        for cell in frame.trail:
            colours[cell] = TRAIL_ON_TERRAIN
        for cell in frame.expanded if frame.kind != "end" else ():
            colours[cell] = searched
        return colours
    colours = np.ones((grid.height, grid.width, 3))
    if frame.kind != "end":
        for cell in frame.expanded:
            colours[cell] = searched
    # a wall the agent has not seen stays visible, mixed with the search colour if it was searched
    colours[grid.blocked] = unseen_wall(colours[grid.blocked])
    for cell in frame.trail:
        colours[cell] = TRAIL
    colours[frame.known_blocked] = BLACK
    for cell in frame.new_walls:
        colours[cell] = NEW_WALL
    return colours


def unseen_wall(colour: np.ndarray | tuple) -> np.ndarray:
    """How a wall the agent has not seen is painted over ``colour`` (white, or a search's blue)."""
    return (np.asarray(colour) + HIDDEN_WALL) / 2 * 0.9


class RunPlayer:
    """Draws frames of one run on one axes, updating the same artists from frame to frame.

    ``terrain`` (a known map): draw over the terrain, with a terrain legend; ``target``: the goal
    (default :func:`~reference.world.pictures.target_of`); ``tree_arcs``: a subgoal tree to draw.
    """

    def __init__(self, grid: Gridworld, trace: Trace, frames: list[Frame], ax: Axes,
                 terrain: np.ndarray | None = None, target: Cell | None = None,
                 tree_arcs: Sequence[tuple[Cell, Cell]] = ()) -> None:
        self.grid, self.trace, self.frames, self.ax, self.terrain = grid, trace, frames, ax, terrain
        height, width = grid.height, grid.width
        self.image = ax.imshow(frame_colours(grid, frames[0], terrain), extent=(-0.5, width - 0.5, height - 0.5, -0.5),
                               interpolation="nearest")
        tree = draw_tree_arcs(ax, tree_arcs, label="subgoal tree")
        small = max(height, width) <= 40
        (self.path_line,) = ax.plot([], [], color=PATH_COLOUR, linewidth=2.5 if small else 2.2,
                                    alpha=0.8, solid_capstyle="round")
        size = 80 if small else 60
        self.agent_marker = ax.scatter([frames[0].agent[1]], [frames[0].agent[0]], s=size, color=AGENT_COLOUR,
                                       edgecolor="black", linewidth=1.2, zorder=5)
        target = target_of(trace) if target is None else target
        if target is not None:
            ax.scatter([target[1]], [target[0]], s=size * 2.5, marker="*", color=TARGET_COLOUR,
                       edgecolor="black", linewidth=1.0, zorder=5)
        if max(height, width) <= 40:
            ax.set_xticks(np.arange(-0.5, width), minor=True)
            ax.set_yticks(np.arange(-0.5, height), minor=True)
            ax.grid(which="minor", color="0.6", linewidth=0.4)
            ax.tick_params(which="both", length=0)
        ax.set_xticks([])
        ax.set_yticks([])
        self.title = ax.set_title("", fontsize=9)
        if terrain is None:
            walls = [("known blocked", legend_handle("cell", BLACK)),
                     ("seen just now", legend_handle("cell", NEW_WALL)),
                     ("blocked, not seen yet", legend_handle("cell", tuple(unseen_wall(WHITE))))]
            searched, trail = "expanded by the latest search", TRAIL
        else:
            walls = [(TERRAIN_NAMES[code], legend_handle("cell", TERRAIN_COLOURS[code]))
                     for code in sorted(np.unique(terrain).tolist())]
            searched, trail = "expanded by the latest episode", TRAIL_ON_TERRAIN
        add_legend(ax, [*walls, (searched, legend_handle("cell", SEARCHED)),
                        ("cells stood in", legend_handle("cell", trail)), ("path it follows", legend_handle("path")),
                        ("agent", legend_handle("agent")), ("target", legend_handle("target")),
                        *([("subgoal tree", tree)] if tree else [])],
                   columns=2, fontsize=7)

    def draw(self, index: int) -> list[Any]:
        """Show frame ``index``; return the artists that changed (FuncAnimation's contract)."""
        frame = self.frames[index]
        self.image.set_data(frame_colours(self.grid, frame, self.terrain))
        if len(frame.path) >= 2:
            rows, cols = zip(*frame.path)
            self.path_line.set_data(cols, rows)
        else:
            self.path_line.set_data([], [])
        self.agent_marker.set_offsets([[frame.agent[1], frame.agent[0]]])
        self.title.set_text(f"{ALGORITHMS.get(self.trace.algorithm, self.trace.algorithm)}\n{frame.caption}")
        return [self.image, self.path_line, self.agent_marker, self.title]


def animate_run(grid: Gridworld, trace: Trace, moves_per_frame: int = 1, max_frames: int | None = 300,
                interval: int = 250, size: float = 5.0, connectivity: int = 4,
                terrain: np.ndarray | Gridworld | None = None, target: Cell | None = None,
                tree_arcs: Sequence[tuple[Cell, Cell]] = ()) -> RunAnimation:
    """A :class:`matplotlib.animation.FuncAnimation` of the whole run, ``interval`` ms per frame
    (frames as :func:`run_frames` makes them; ``max_frames=None`` keeps every one).

    With ``terrain`` (a terrain array, or a :class:`Gridworld` drawn as ground and out of bounds),
    the run is one of a planner that knows the map ``grid`` (``connectivity`` 4 or 8): it is
    replayed without fog and drawn over the terrain, with ``target`` (the run's goal) and the
    subgoal tree ``tree_arcs`` if given.

    The figure is built without pyplot, so nothing pops up; show it with :func:`show_inline`
    or write it with :func:`save_gif`.
    """
    from matplotlib.figure import Figure

    terrain_codes = None if terrain is None else terrain_of(terrain)
    frames = run_frames(grid, trace, moves_per_frame, max_frames, connectivity, terrain_codes is not None, target)
    aspect = grid.height / grid.width
    height = size * aspect + LEGEND_INCHES + 0.55
    figure = Figure(figsize=(size, height))
    ax = figure.add_subplot()
    player = RunPlayer(grid, trace, frames, ax, terrain_codes, target, tree_arcs)
    # the grid on top, the legend in the band of LEGEND_INCHES under it, the title above
    figure.subplots_adjust(left=0.03, right=0.97, top=1 - 0.5 / height, bottom=LEGEND_INCHES / height)
    return RunAnimation(figure, player, interval)


class RunAnimation(FuncAnimation):
    """The animation :func:`animate_run` returns: a :class:`~matplotlib.animation.FuncAnimation` that keeps
    its :class:`RunPlayer` at hand as ``player`` (the frames and the axes, for callers and tests)."""

    def __init__(self, figure: Figure, player: RunPlayer, interval: int) -> None:
        super().__init__(figure, player.draw, frames=len(player.frames), interval=interval, blit=False, repeat=False)
        self.player = player


def save_gif(animation, path: str | os.PathLike, fps: int = 4, dpi: int = 80, progress: bool = False) -> Path:
    """Write ``animation`` as a GIF (Pillow) atomically; return the path. ``progress`` shows a
    progress bar on stderr while the frames are drawn."""
    from matplotlib.animation import PillowWriter
    from tqdm import tqdm

    path = Path(path)
    frames = len(animation.player.frames) if hasattr(animation, "player") else None
    with tempfile.TemporaryDirectory() as folder, tqdm(total=frames, desc="drawing frames", unit="frame",
                                                       disable=not progress) as bar:
        temporary = Path(folder) / path.name
        animation.save(temporary, writer=PillowWriter(fps=fps), dpi=dpi,
                       progress_callback=lambda _index, _total: bar.update(1))
        atomic_write_bytes(path, temporary.read_bytes())
    return path


def show_inline(animation):
    """The animation as a JavaScript player (play, step, slider) for a notebook cell."""
    from IPython.display import HTML

    return HTML(animation.to_jshtml())


def step_slider(grid: Gridworld, trace: Trace, moves_per_frame: int = 1, max_frames: int | None = 300,
                size: float = 5.0, connectivity: int = 4, terrain: np.ndarray | None = None,
                target: Cell | None = None, tree_arcs: Sequence[tuple[Cell, Cell]] = ()):
    """A widget with a slider over the run's frames (ipywidgets; show it as a cell's last expression),
    or the JavaScript player when ipywidgets is not installed. ``terrain`` and the rest: a known-map
    run, as :func:`animate_run` takes it."""
    try:
        import ipywidgets
    except ImportError:
        return show_inline(animate_run(grid, trace, moves_per_frame, max_frames, size=size, connectivity=connectivity,
                                       terrain=terrain, target=target, tree_arcs=tree_arcs))
    import matplotlib.pyplot as plt

    if terrain is not None:
        terrain = terrain_of(terrain)
    frames = run_frames(grid, trace, moves_per_frame, max_frames, connectivity, terrain is not None, target)

    def show(frame: int) -> None:
        height = size * grid.height / grid.width + LEGEND_INCHES + 0.55
        figure, ax = plt.subplots(figsize=(size, height))
        figure.subplots_adjust(left=0.03, right=0.97, top=1 - 0.5 / height, bottom=LEGEND_INCHES / height)
        RunPlayer(grid, trace, frames, ax, terrain, target, tree_arcs).draw(frame)
        plt.show()

    return ipywidgets.interactive(show, frame=ipywidgets.IntSlider(min=0, max=len(frames) - 1, step=1, value=0))
