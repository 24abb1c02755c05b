"""Twin of ``realtime/agent.py``: the run loop every real-time planner shares (sense, plan, walk),
compiled, and :class:`RealtimeRun`, the run it returns; :func:`run_compiled` calls it from Python.

The planners' episodes are the twins of their readable modules (:mod:`.lrta`, :mod:`.lookahead`,
:mod:`.dstar_lite`); see the package's docstring for what differs in form from the readable code.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from reference.world.grid import Cell, Gridworld
from reference.world.sensing import Knowledge
from reference.world.trace import TIE_BREAKS, SearchRecord, Trace

from ...realtime.heuristics import check_heuristic
from ..heap import heap_new
from .dstar_lite import G_NOT_DESCENDING, OK, TOO_MANY_EXPANSIONS, _plan_dstar
from .heuristics import INFINITY, _neighbour
from .lookahead import _plan_lookahead
from .lrta import _plan_korf

#: Planner name -> the number the compiled loop dispatches on.
PLANNERS: dict[str, int] = {"lrta": 0, "lrta_astar": 1, "lrta_bfs": 2, "dstar_lite": 3}
KORF, ASTAR, BFS, DSTAR = 0, 1, 2, 3


@intrinsic
def _ticks(typingctx):
    """The processor's cycle counter (x86 ``rdtsc``): a clock read of ~25 ns inside compiled code."""
    def codegen(context, builder, signature, args):
        counter = cgutils.get_or_insert_function(builder.module, ir.FunctionType(ir.IntType(64), []),
                                                 "llvm.readcyclecounter")
        return builder.call(counter, [])
    return types.int64(), codegen


@njit(cache=True)
def _grown(buffer, needed):
    """A copy of ``buffer`` with room for at least ``needed`` items (at least twice as long).

    The run loop checks the room itself and calls this only when a buffer is full: a compiled
    function that returns an array costs ~80 ns (reference counting), more than a whole move.
    """
    larger = np.empty(max(2 * buffer.shape[0], needed) + 16, buffer.dtype)
    larger[:buffer.shape[0]] = buffer
    return larger


# -- the agent (agent.py: EpisodicAgent.run, observe and walk) --------------------------------------------


@njit(cache=True, inline="always")
def _observe(cell, blocked, known, width, cells, row, column, newly, n_newly):
    """EpisodicAgent.observe: sense the four neighbours; remember the newly seen blocked ones, append
    them to ``newly`` after its first ``n_newly`` and return how many there were.

    ``newly`` has room for every cell: a cell is newly seen at most once in a run.
    """
    found = np.int64(0)  # not a literal 0: see km and last in _run
    for direction in range(4):
        t = _neighbour(cell, direction, width, cells, row, column)
        if t >= 0 and blocked[t] and not known[t]:
            known[t] = 1
            newly[n_newly + found] = t
            found += 1
    return found


@njit(cache=True)
def _run(planner, blocked, known, width, start, target, weak, larger_g, lookahead, record, shuffle, seed):
    """EpisodicAgent.run for every planner: plan an episode, record it, walk (SPEC §6), repeat.

    ``shuffle``: the lookahead searches generate successors in the random order of ``seed``.

    ``record=False`` keeps counts only (no trace arrays): what a comparison of many long runs needs.
    """
    cells = blocked.shape[0]
    run_began = _ticks()
    row = np.empty(cells, np.int32)  # the coordinates of every cell (see _neighbour)
    column = np.empty(cells, np.int32)
    for s in range(cells):
        row[s], column[s] = s // width, s % width
    known_count = 0
    for s in range(cells):
        known_count += known[s]
    # The trace (when recorded): the trajectory, and every episode's agent cell, expanded cells and
    # path end to end, with where each episode's part ends.
    trajectory = np.empty(1024 if record else 0, np.int32)
    trace_expanded = np.empty(1024 if record else 0, np.int32)
    trace_path = np.empty(1024 if record else 0, np.int32)
    agents = np.empty(256 if record else 0, np.int32)
    expanded_end = np.empty(256 if record else 0, np.int64)
    path_end = np.empty(256 if record else 0, np.int64)
    ticks = np.empty(256 if record else 0, np.int64)
    moves = expansions = path_cells = episodes = max_expanded = planning_ticks = 0
    # One episode's expanded cells and path (D* Lite expands a state at most twice in an episode).
    expanded = np.empty(2 * cells + 8, np.int32)
    path = np.empty(cells + 1, np.int32)
    # The planners' state (each planner reads only its own).
    value = np.full(cells, -1, np.int64)
    g = np.full(cells, INFINITY, np.int64)
    rhs = np.full(cells, INFINITY, np.int64)
    tree = np.full(cells, -1, np.int32)
    generated_in = np.zeros(cells, np.int32)
    expanded_in = np.zeros(cells, np.int32)
    generated = np.empty(4 * lookahead + 4, np.int32)
    queue = np.empty(4 * lookahead + 4, np.int32)
    heap = heap_new(cells)
    u_cells = cells if planner == DSTAR else 0  # D* Lite's U (see _plan_dstar)
    u_queue = (np.empty(u_cells, np.int32), np.empty(u_cells, np.int64), np.empty(u_cells, np.int64),
               np.empty(u_cells, np.int64), np.full(u_cells, -1, np.int32), np.zeros(2, np.int64))
    rng = np.full(1, seed, np.uint64)   # the SuccessorOrder stream
    order = np.arange(4)               # the directions of one expansion (east, south, west, north unshuffled)
    # Typed, not literal: while Numba types this loop, a call whose arguments are still literals (0, -1)
    # compiles D* Lite's episode for them, and again for int64 once the types settle. np.int64 here and
    # in _observe saves that second compile (about 60 of 150 CPU s for every planner, cold).
    km, last = np.int64(0), np.int64(-1)
    # Walking: which cells are on the path being walked, and where (stamped with the episode: no clearing).
    on_walk = np.zeros(cells, np.int32)
    index_on_path = np.zeros(cells, np.int32)
    newly = np.empty(cells, np.int32)  # blocked cells seen since the last planning episode (for D* Lite)

    agent = start
    if record:
        trajectory[0] = agent
    n_newly = _observe(agent, blocked, known, width, cells, row, column, newly, 0)  # look before the first episode
    known_count += n_newly
    reached, status = True, OK
    while agent != target:
        episode = episodes + 1
        free_cells = cells - known_count
        began = _ticks()
        if planner == KORF:
            n_expanded, length = _plan_korf(agent, target, width, cells, row, column, weak, known, free_cells, value,
                                            expanded, path)
        elif planner == DSTAR:
            n_expanded, length, km, status = _plan_dstar(agent, target, width, cells, row, column, weak, known, last, km,
                                                         newly, n_newly, g, rhs, u_queue, expanded, path)
            last = agent
        else:
            n_expanded, length = _plan_lookahead(planner == BFS, agent, target, width, cells, row, column, weak, larger_g,
                                                 lookahead, known, free_cells, episode, value, g, tree,
                                                 generated_in, expanded_in, generated, queue, heap, expanded, path,
                                                 shuffle, rng, order)
        spent = _ticks() - began
        planning_ticks += spent
        n_newly = 0
        if record:
            if episodes == ticks.shape[0]:  # the per-episode arrays grow together
                ticks, agents = _grown(ticks, 0), _grown(agents, 0)
                expanded_end, path_end = _grown(expanded_end, 0), _grown(path_end, 0)
            if expansions + n_expanded > trace_expanded.shape[0]:
                trace_expanded = _grown(trace_expanded, expansions + n_expanded)
            if path_cells + length > trace_path.shape[0]:
                trace_path = _grown(trace_path, path_cells + length)
            ticks[episodes], agents[episodes] = spent, agent
            trace_expanded[expansions:expansions + n_expanded] = expanded[:n_expanded]
            trace_path[path_cells:path_cells + length] = path[:length]
            expanded_end[episodes], path_end[episodes] = expansions + n_expanded, path_cells + length
        expansions += n_expanded
        path_cells += length
        max_expanded = max(max_expanded, n_expanded)
        episodes += 1
        if status != OK or length == 0:
            reached = False
            break
        # EpisodicAgent.walk: follow the path to its end, or until a cell ahead on it is seen blocked.
        for i in range(length):
            on_walk[path[i]] = episode
            index_on_path[path[i]] = i
        for step in range(1, length):
            agent = path[step]
            moves += 1
            if record:
                if moves == trajectory.shape[0]:
                    trajectory = _grown(trajectory, 0)
                trajectory[moves] = agent
            found = _observe(agent, blocked, known, width, cells, row, column, newly, n_newly)
            blocked_ahead = False
            for i in range(n_newly, n_newly + found):
                if on_walk[newly[i]] == episode and index_on_path[newly[i]] > step:
                    blocked_ahead = True
            n_newly += found
            known_count += found
            if blocked_ahead:
                break
    run_ticks = _ticks() - run_began
    counts = np.array([moves, expansions, episodes, max_expanded, planning_ticks, run_ticks], np.int64)
    if not record:
        return reached, status, counts, trajectory, agents, trace_expanded, expanded_end, trace_path, path_end, ticks
    return (reached, status, counts, trajectory[:moves + 1].copy(), agents[:episodes].copy(),
            trace_expanded[:expansions].copy(), expanded_end[:episodes].copy(), trace_path[:path_cells].copy(),
            path_end[:episodes].copy(), ticks[:episodes].copy())


# -- from Python ----------------------------------------------------------------------------------------


@dataclass
class RealtimeRun:
    """The twin of :class:`reference.solutions.realtime.RealtimeRun`: a compiled run, with the same properties.

    With a recorded trace, episode ``i`` planned from ``agents[i]``, expanded
    ``expanded[expanded_offsets[i]:expanded_offsets[i + 1]]`` and chose the path
    ``path[path_offsets[i]:path_offsets[i + 1]]`` (flat cell indices); ``trajectory`` holds every
    cell the agent stood in, and ``trace`` builds the kit's :class:`~reference.world.trace.Trace` on
    demand. A counts-only run (``record=False``) has the counts and the total planning time only.
    """

    algorithm: str
    tie_break: str
    heuristic: str
    lookahead: int | None
    width: int
    target: int
    reached: bool
    moves: int
    expansions: int
    episodes: int
    max_expansions_per_episode: int
    planning_time: float  # seconds
    planning_seconds: np.ndarray | None = None  # per episode (recorded runs)
    trajectory: np.ndarray | None = None
    agents: np.ndarray | None = None
    expanded: np.ndarray | None = None
    expanded_offsets: np.ndarray | None = None
    path: np.ndarray | None = None
    path_offsets: np.ndarray | None = None

    @cached_property
    def trace(self) -> Trace:
        """The SPEC §8 trace, with the records the reference planner writes (built on first use)."""
        if self.trajectory is None:
            raise ValueError("this run kept counts only (record=False): it has no trace")
        # a recorded run has every array (run_compiled sets them together)
        assert self.agents is not None and self.expanded is not None and self.path is not None
        assert self.expanded_offsets is not None and self.path_offsets is not None
        expanded_offsets, path_offsets = self.expanded_offsets, self.path_offsets
        width = self.width

        def cells(flat: np.ndarray) -> list[Cell]:
            rows, cols = np.divmod(flat, width)
            return list(zip(rows.tolist(), cols.tolist()))

        target = divmod(self.target, width)
        expanded, paths = cells(self.expanded), cells(self.path)
        records = []
        for i, agent in enumerate(cells(self.agents)):
            # D* Lite searches from the target toward the agent; LRTA* from the agent.
            start, goal = (target, agent) if self.algorithm == "dstar_lite" else (agent, target)
            records.append(SearchRecord(start, goal, expanded[expanded_offsets[i]:expanded_offsets[i + 1]],
                                        paths[path_offsets[i]:path_offsets[i + 1]]))
        return Trace(self.algorithm, self.tie_break, self.reached, cells(self.trajectory), records)

    def summary(self) -> dict[str, Any]:
        """The paper's columns, as :meth:`RealtimeRun.summary` gives them (times in microseconds)."""
        microseconds = self.planning_time * 1e6
        episodes, moves = self.episodes, self.moves
        return {
            "algorithm": self.algorithm, "heuristic": self.heuristic, "lookahead": self.lookahead,
            "reached": self.reached, "expansions": self.expansions, "episodes": episodes, "moves": moves,
            "expansions_per_episode": self.expansions / episodes if episodes else 0.0,
            "max_expansions_per_episode": self.max_expansions_per_episode,
            "moves_per_episode": moves / episodes if episodes else 0.0,
            "planning_us": microseconds,
            "planning_us_per_episode": microseconds / episodes if episodes else 0.0,
            "planning_us_per_move": microseconds / moves if moves else 0.0,
        }


_ready = False


def warm_up() -> None:
    """Compile (or load from Numba's cache) every planner once, so that no run's time includes it."""
    global _ready
    if not _ready:
        blocked = np.zeros(4, np.uint8)
        for planner in PLANNERS.values():
            for record in (True, False):
                _run(planner, blocked, blocked.copy(), 2, 0, 3, False, True, 1, record, False, np.uint64(0))
        _ready = True


def run_compiled(grid: Gridworld, start: Cell, target: Cell, algorithm: str = "lrta_astar", *,
                 heuristic: str = "strong", lookahead: int = 1, knowledge: Knowledge | None = None,
                 tie_break: str = "larger_g", record: bool = True, successors: str = "fixed",
                 seed: int = 0) -> RealtimeRun:
    """Run the compiled twin of ``algorithm`` on the true ``grid``, seen through the fog of war.

    The settings are :func:`~reference.solutions.realtime.run_algorithm`'s, with the grid in place
    of the world object; a planner ignores those it does not take (``lookahead``, ``successors`` and
    ``seed`` matter to ``lrta_astar`` and ``lrta_bfs`` only; D* Lite always breaks ties toward the
    smaller g, as the reference does).

    Parameters
    ----------
    grid : Gridworld
        The true grid; the agent senses it exactly as ``FogOfWarWorld`` does.
    start, target : Cell
        ``(row, col)`` of the agent's first cell (free) and of the target.
    algorithm : {"lrta_astar", "lrta", "lrta_bfs", "dstar_lite"}
        A key of :data:`ALGORITHMS` (default ``lrta_astar``, the command line's).
    heuristic : {"strong", "weak"}
        Manhattan distance, or max(|dx|, |dy|).
    lookahead : int
        Expansions per planning episode (at least 1) for ``lrta_astar`` and ``lrta_bfs``.
    knowledge : Knowledge, optional
        What the agent knows before it starts (``knowledge_of(grid)``: known terrain).
    tie_break : {"larger_g", "smaller_g"}
        The lookahead searches' tie rule.
    record : bool
        False keeps the counts and the total planning time only, no trace (long runs: a trace holds
        ~30 bytes per move).
    successors : {"fixed", "random"}
        The lookahead searches' successor order (``LookaheadLRTA``'s); ``seed`` seeds the random one.
    seed : int

    Returns
    -------
    RealtimeRun
        The counts, the planning time and (``record=True``) the trace as arrays; ``run.trace`` builds
        the kit's :class:`~reference.world.trace.Trace`, equal to the readable planner's.

    Raises
    ------
    ValueError
        An unknown algorithm, heuristic, tie rule or successor order; a lookahead below 1; a start
        or target outside the grid, a blocked start; knowledge of another size.
    RuntimeError
        A D* Lite invariant broken inside the compiled code (a bug, never a property of the input).

    See Also
    --------
    reference.solutions.realtime.run_algorithm : the readable reference this twin mirrors.
    reference.solutions.realtime.ALGORITHMS : the readable planners by the same names.

    Examples
    --------
    >>> from reference.world import Gridworld
    >>> grid = Gridworld.from_strings(["....", ".@@.", "...."])
    >>> run = run_compiled(grid, (2, 0), (0, 3), "lrta_astar", lookahead=3, heuristic="weak")
    >>> run.reached, run.moves, run.trace.trajectory[-1]
    (True, 5, (0, 3))
    """
    if algorithm not in PLANNERS:
        raise ValueError(f"unknown algorithm {algorithm!r}; choose one of {', '.join(PLANNERS)}")
    check_heuristic(heuristic)
    if tie_break not in TIE_BREAKS:
        raise ValueError(f"tie_break must be 'larger_g' or 'smaller_g', got {tie_break!r}")
    if successors not in ("fixed", "random"):
        raise ValueError(f"successors must be 'fixed' or 'random', got {successors!r}")
    if algorithm in ("lrta_astar", "lrta_bfs") and int(lookahead) < 1:
        raise ValueError(f"the lookahead must be at least 1, got {lookahead}")
    height, width = grid.height, grid.width
    for label, cell in (("start", start), ("target", target)):
        if not (0 <= cell[0] < height and 0 <= cell[1] < width):
            raise ValueError(f"the {label} {(int(cell[0]), int(cell[1]))} lies outside the {height} x {width} grid")
    if grid.is_blocked((int(start[0]), int(start[1]))):
        raise ValueError(f"the start {(int(start[0]), int(start[1]))} is a blocked cell")
    known = np.zeros(height * width, np.uint8)
    if knowledge is not None:
        if (knowledge.height, knowledge.width) != (height, width):
            raise ValueError("the knowledge given does not have the grid's size")
        known[:] = np.frombuffer(bytes(knowledge.blocked), np.uint8)
    blocked = np.ascontiguousarray(grid.blocked, dtype=np.uint8).ravel()
    depth: int | None = lookahead   # what the run reports: D* Lite has no lookahead, Korf's is one
    if algorithm == "dstar_lite":
        tie_break, depth = "smaller_g", None
    elif algorithm == "lrta":
        depth = 1
    target_index = int(target[0]) * width + int(target[1])
    warm_up()
    cpu_began = time.process_time()
    reached, status, counts, *trace = _run(PLANNERS[algorithm], blocked, known, width, int(start[0]) * width + int(start[1]),
                                           target_index, heuristic == "weak", tie_break == "larger_g",
                                           int(depth or 1), record, successors == "random",
                                           np.uint64(int(seed) & ((1 << 64) - 1)))
    cpu_seconds = time.process_time() - cpu_began
    if status == G_NOT_DESCENDING:
        raise RuntimeError("D* Lite's g-values do not descend along the path (compiled twin)")
    if status == TOO_MANY_EXPANSIONS:
        raise RuntimeError("D* Lite expanded more than twice the cells in one episode (compiled twin)")
    moves, expansions, episodes, max_expanded, planning_ticks, run_ticks = counts.tolist()
    seconds_per_tick = cpu_seconds / run_ticks if run_ticks > 0 else 0.0  # see the module docstring
    run = RealtimeRun(algorithm, tie_break, heuristic, depth, width, target_index, bool(reached), moves, expansions,
                      episodes, max_expanded, planning_ticks * seconds_per_tick)
    if record:
        trajectory, agents, expanded, expanded_end, path, path_end, ticks = trace
        zero = np.zeros(1, np.int64)
        run.planning_seconds = ticks * seconds_per_tick
        run.trajectory, run.agents, run.expanded, run.path = trajectory, agents, expanded, path
        run.expanded_offsets = np.concatenate([zero, expanded_end])
        run.path_offsets = np.concatenate([zero, path_end])
    return run
