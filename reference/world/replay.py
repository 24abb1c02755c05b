"""Re-walking a trace on the true grid, and reading each search's numbers off its expansion order.

Pictures and checks need to know, for every search of a trace, what the agent knew when it began
and the g-, h- and f-values and tree pointers the handout's figures show. None of that needs an A*:

* :class:`AgentReplay` walks the agent along the paths it is given with the walking rule every planner
  uses (:class:`~reference.world.sensing.AgentBody`: §4 sensing, §6 walking), so the knowledge before
  each search follows from the paths alone. Two worlds: the handout's fog of war (four-connected,
  the default), and a map the agent knows in full
  (:class:`~reference.world.sensing.KnownMapWorld`, four- or
  eight-connected: the known-map planners A*, LRTA*, LRTA* with subgoaling), where every step must
  be a move the world's rules allow (:func:`reference.world.grid.successors`: diagonals only
  without cutting a corner).
* :func:`annotate_search` derives g-values and tree pointers from the recorded expansion order: an
  expansion of ``s`` sets ``g(t) = g(s) + 1`` and ``tree(t) = s`` for every presumed-unblocked
  neighbour ``t`` (east, south, west, north) that this lowers, exactly as ComputePath's lines 9-11 do.

>>> from reference.world.grid import Gridworld
>>> from reference.world.trace import SearchRecord, Trace
>>> grid = Gridworld.from_strings(["...", ".@."])
>>> replay = AgentReplay(grid, (1, 0))
>>> replay.knowledge.known_blocked()
[(1, 1)]
>>> replay.walk([(1, 0), (0, 0), (0, 1)])
[(0, 0), (0, 1)]
>>> annotation = annotate_search(SearchRecord((1, 0), (0, 2), [(1, 0), (0, 0)], []), replay.knowledge,
...                              h=lambda cell: abs(cell[0]) + abs(cell[1] - 2))
>>> annotation.g[(0, 1)], annotation.f[(0, 1)], annotation.tree[(0, 1)]
(2, 3, (0, 0))

On a known eight-connected map a diagonal step is one move, unless it cuts a corner:

>>> known = AgentReplay(Gridworld.from_strings(["...", ".@."]), (0, 0), connectivity=8, known_map=True)
>>> known.walk([(0, 0), (0, 1), (1, 2)])
Traceback (most recent call last):
...
reference.world.replay.ReplayError: path step 2: the agent moved diagonally from (0, 1) to (1, 2), cutting the corner of the blocked cell (1, 1)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Iterator

from .grid import Cell, Gridworld, as_cell, check_connectivity, manhattan
from .sensing import AgentBody, FogOfWarWorld, IllegalMoveError, Knowledge, KnownMapWorld, illegal_move
from .trace import SearchRecord, Trace


class ReplayError(ValueError):
    """A path that the agent could not walk (it does not start where the agent stands, or a step is
    not a move to an adjacent unblocked cell, or on a known map a diagonal that cuts a corner).
    The message says which step and why."""


__all__ = ["AgentReplay", "KnownMapWorld", "ReplayError", "SearchAnnotation", "SearchContext", "annotate_search",
           "first_difference", "heuristic_for", "illegal_move", "search_contexts", "walked_trajectory"]


class AgentReplay:
    """The agent's body and memory on the true grid, moved along recorded paths by the caller.

    It is the :class:`~reference.world.sensing.AgentBody` every planner walks with: in a
    :class:`~reference.world.sensing.FogOfWarWorld` by default (the handout's agent: the same sensing,
    SPEC §4, and the same walking rule, SPEC §6, so a replay re-walks a trace exactly as the agent
    did), or with ``known_map`` in a :class:`~reference.world.sensing.KnownMapWorld` that the agent knows in full from the
    start, four- or eight-connected. The fog-of-war agent senses and moves four-connected only.
    """

    def __init__(self, grid: Gridworld, start: Cell, connectivity: int = 4, known_map: bool = False) -> None:
        if check_connectivity(connectivity) != 4 and not known_map:
            raise ValueError("the fog-of-war agent senses and moves four-connected (SPEC §4): "
                             "an eight-connected replay needs known_map=True")
        self.grid = grid
        self.connectivity = connectivity
        self.known_map = known_map
        try:
            if known_map:
                world = KnownMapWorld(grid, start, connectivity)
                self.body = AgentBody(world, start, world.knowledge())
            else:
                self.body = AgentBody(FogOfWarWorld(grid, start), start)
        except (ValueError, IllegalMoveError) as error:
            raise ReplayError(str(error)) from None

    @property
    def agent(self) -> Cell:
        """The cell the agent stands in."""
        return self.body.cell

    @property
    def knowledge(self) -> Knowledge:
        return self.body.knowledge

    @property
    def trajectory(self) -> list[Cell]:
        return self.body.trajectory

    def walk(self, path: list[Cell]) -> list[Cell]:
        """Follow ``path`` (its first cell is the agent's) by SPEC §6; return the cells moved into."""
        if path and (int(path[0][0]), int(path[0][1])) != self.agent:
            raise ReplayError(f"the path starts at {tuple(path[0])} but the agent stands at {self.agent}")
        if self.known_map:
            # the body would stop short of a blocked cell on the path without a word (an agent in
            # the fog may plan through one); on a known map such a path is wrong: name its first
            # illegal step (the world checks each move again as the body makes it)
            cells = [(int(row), int(col)) for row, col in path]
            for step in range(1, len(cells)):
                if cells[step] != cells[step - 1]:
                    reason = illegal_move(self.grid.blocked, cells[step - 1], cells[step], self.connectivity)
                    if reason:
                        raise ReplayError(f"path step {step}: {reason}")
        try:
            return self.body.walk(path)
        except IllegalMoveError as error:
            raise ReplayError(str(error)) from None


@dataclass
class SearchContext:
    """What held when search ``index`` of a trace began, and what the SPEC says happened after it."""

    index: int
    agent: Cell                 # where the agent stood
    trajectory_index: int       # its place in the trajectory
    knowledge: Knowledge        # what it knew (a snapshot)
    learned_h: dict[Cell, int] = field(default_factory=dict)  # Adaptive A*'s h-values learned so far
    moves: list[Cell] = field(default_factory=list)           # cells walked after this search


@dataclass
class SearchAnnotation:
    """The numbers of one search, as the handout's figures show them."""

    expanded: list[Cell]
    generated: list[Cell]          # in the order first generated, the search's start first
    g: dict[Cell, int]
    h: dict[Cell, int]
    f: dict[Cell, int]
    tree: dict[Cell, Cell]         # tree pointer of every generated cell except the start


def annotate_search(record: SearchRecord, knowledge: Knowledge, h: Callable[[Cell], int]) -> SearchAnnotation:
    """Derive g, h, f and tree pointers of every generated cell from ``record.expanded``.

    An expanded cell that was never generated (impossible in a correct search) gets no numbers and
    generates nothing.
    """
    start = as_cell(record.start)
    g: dict[Cell, int] = {start: 0}
    tree: dict[Cell, Cell] = {}
    generated: list[Cell] = [start]
    for s in record.expanded:
        s = as_cell(s)
        if s not in g:
            continue
        g_next = g[s] + 1
        for t in knowledge.successors(s):
            if t not in g:
                generated.append(t)
            if g.get(t, g_next + 1) > g_next:  # ComputePath lines 9-11
                g[t] = g_next
                tree[t] = s
    h_values = {cell: h(cell) for cell in generated}
    f_values = {cell: g[cell] + h_values[cell] for cell in generated}
    return SearchAnnotation([as_cell(c) for c in record.expanded], generated, g, h_values, f_values, tree)


def heuristic_for(trace: Trace, search_index: int, context: SearchContext) -> Callable[[Cell], int]:
    """The h-values search ``search_index`` used: Manhattan to its goal, or for Adaptive A* the values
    learned by the earlier searches where there are any (SPEC §7)."""
    goal = as_cell(trace.searches[search_index].goal)
    learned = context.learned_h if trace.algorithm == "adaptive" else {}

    def h(cell: Cell) -> int:
        return learned.get(cell, manhattan(cell, goal))

    return h


def search_contexts(grid: Gridworld, trace: Trace, connectivity: int = 4,
                    known_map: bool = False) -> Iterator[SearchContext]:
    """One :class:`SearchContext` per search of ``trace``, lazily, trusting each recorded path.

    By default the handout's fog-of-war agent; ``known_map`` for a planner that knows the map (one
    planning episode per search record), four- or eight-connected (see :class:`AgentReplay`).
    Raises :class:`ReplayError` when a recorded path cannot be walked from where the agent stands.
    """
    replay = AgentReplay(grid, trace.trajectory[0], connectivity, known_map)
    # on a known map the knowledge never changes: one snapshot serves every search (a copy per
    # planning episode would cost a map's worth of bytes per move of an LRTA* run)
    known = replay.knowledge.copy() if known_map else None
    learned: dict[Cell, int] = {}
    for index, record in enumerate(trace.searches):
        knowledge = known if known is not None else replay.knowledge.copy()
        context = SearchContext(index, replay.agent, len(replay.trajectory) - 1, knowledge, dict(learned))
        if trace.algorithm == "adaptive" and record.path:
            annotation = annotate_search(record, context.knowledge, heuristic_for(trace, index, context))
            goal = as_cell(record.goal)
            if goal in annotation.g:
                for cell in annotation.expanded:
                    if cell in annotation.g:
                        learned[cell] = annotation.g[goal] - annotation.g[cell]
        try:
            context.moves = replay.walk(record.path)
        except ReplayError as error:
            raise ReplayError(f"search {index}: {error}") from None
        yield context


def walked_trajectory(grid: Gridworld, trace: Trace, connectivity: int = 4, known_map: bool = False) -> list[Cell]:
    """The trajectory the agent walks along every recorded path of ``trace`` (see :func:`search_contexts`).

    A faithful trace records this very trajectory; :func:`first_difference` says where one does not.
    Raises :class:`ReplayError` for a path that cannot be walked.
    """
    walked = [as_cell(trace.trajectory[0])]
    for context in search_contexts(grid, trace, connectivity, known_map):
        walked.extend(context.moves)
    return walked


def first_difference(walked: list[Cell], recorded: list[Cell]) -> str | None:
    """Where a recorded trajectory leaves the walked one, in words; None if they agree.

    >>> first_difference([(0, 0), (0, 1)], [(0, 0), (1, 0)])
    'at step 1 the trajectory says (1, 0), the paths walk to (0, 1)'
    >>> first_difference([(0, 0), (0, 1)], [(0, 0)])
    'the trajectory ends after 0 moves, the paths walk 1'
    """
    recorded = [as_cell(cell) for cell in recorded]
    for step, (mine, theirs) in enumerate(zip(walked, recorded)):
        if mine != theirs:
            return f"at step {step} the trajectory says {theirs}, the paths walk to {mine}"
    if len(walked) != len(recorded):
        return f"the trajectory ends after {len(recorded) - 1} moves, the paths walk {len(walked) - 1}"
    return None
