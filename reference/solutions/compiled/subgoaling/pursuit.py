"""The compiled twins of kNN LRTA* and D LRTA* (SPEC §16): their preprocessing and their online part.

**Preprocessing.** :func:`compress_path_compiled` returns what
:func:`reference.solutions.subgoaling.knn_lrta.compress_path` returns, and
:func:`hill_climb_reaches` says what the first half of
:func:`reference.solutions.subgoaling.pursuit.hill_climb` says: the same successor order (the
world's move table and :func:`..shortest_paths.move_rule`), the same strict ``<`` among successors
(the first in successor order wins a tie), and the same doubles (``a + b * SQRT2`` from the exact
pairs, as :func:`~reference.world.grid.cost_value` computes them), so every choice is the readable
code's. They serve :func:`build_knn_database`, the twin of the readable builder of that name (the
engine switch lives here, on the twins' side: the readable builders never import compiled code).
D LRTA*'s preprocessing is the dynamic-control pattern database, compiled in :mod:`..dynamic`
(:func:`build_d_lrta_database`).

**Online.** :func:`knn_lrta_star` takes the readable function's arguments and walks the same
trajectory. The readable agent pursues a list of goals in turn, switching on arrival
(:class:`~reference.solutions.subgoaling.pursuit.SubgoalPursuit`), and that list is fixed in the
first episode (a record's start, its subgoals, the goal): the twin computes it first (the k nearest
records and the hill-climbing checks in one compiled call, :func:`_knn_choice`), then walks it with
the compiled known-map LRTA* of :mod:`.lrta` (:func:`~.lrta.lrta_arrays` with the list
as a "next goal" table and the switch on arrival). A run is :mod:`.lrta`'s
:class:`KnownMapRun` plus the checks' expanded states, which the first episode's record lists before
the agent's state, as the readable record does. :func:`d_lrta_star` is the dynamic-control module's
compiled general LRTA* (:func:`..dynamic.run_database`) with D LRTA*'s goal selection: the same
trajectory, goals and expansions per action as the readable agent. The readable code is the one to
read.

>>> from reference.world.grid import Gridworld
>>> grid = Gridworld.from_strings(["....", ".@@.", "...."])
>>> compress_path_compiled(grid, [(0, 1), (0, 2), (0, 3), (1, 3), (2, 3), (2, 2)], 4)
[(2, 3), (2, 2)]
>>> hill_climb_reaches(grid, (0, 1), (0, 3), 8), hill_climb_reaches(grid, (0, 1), (2, 2), 8)
(True, False)
>>> from reference.solutions.subgoaling.knn_lrta import KnnDatabase, KnnRecord
>>> database = KnnDatabase([KnnRecord((0, 0), (2, 2), [(2, 0), (2, 2)])], connectivity=4)
>>> run = knn_lrta_star(grid, (0, 1), (2, 3), database, connectivity=4)
>>> [record.goal for record in run.trace.searches]     # the record's start, its subgoals, then the goal
[(0, 0), (2, 0), (2, 0), (2, 2), (2, 2), (2, 3)]
>>> run.cost, run.expansions                           # 6 episodes and the checks' 2 expansions
((6, 0), 8)
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np
from numba import njit

from reference.solutions.shortest_paths import blocked_array
from reference.solutions.dynamic.lrta import Neighbours
from reference.solutions.dynamic.pattern_database import GOAL_RULES, PatternDatabase
from reference.solutions.subgoaling import knn_lrta
from reference.solutions.subgoaling.d_lrta import (DEFAULT_CAP, DEFAULT_MAX_MOVES, GOAL_SELECTION,
                                                   check_database_settings)
from reference.solutions.subgoaling.knn_lrta import DEFAULT_K, KnnDatabase, KnnRecord
from reference.solutions.subgoaling.lrta import check_ends
from reference.solutions.subgoaling.pursuit import CLIMB_LIMIT
from reference.world.grid import MOVES, SQRT2, Cell, Gridworld
from reference.world.trace import Trace

from reference.solutions.compiled.subgoaling import lrta as lookahead
from ..shortest_paths import astar as compiled_astar, move_rule

#: The move tables of each connectivity as arrays Numba can index, in successor order.
MOVE_TABLES = {c: (np.array([m[0] for m in moves], np.int64), np.array([m[1] for m in moves], np.int64))
               for c, moves in MOVES.items()}


@njit(cache=True)
def _h(row, col, target_row, target_col, connectivity):
    """The exact heuristic pair: Manhattan ``(d, 0)`` or octile ``(|dr - dc|, min(dr, dc))``."""
    d_row, d_col = abs(row - target_row), abs(col - target_col)
    if connectivity == 4:
        return d_row + d_col, 0
    return abs(d_row - d_col), min(d_row, d_col)


@njit(cache=True)
def _climbs(blocked, start, target, connectivity, limit, move_rows, move_cols, sqrt2, expanded, count):
    """``hill_climb`` from cell index ``start`` to ``target``: ``(reached, count)``. The states it
    expands go to ``expanded[count:]`` (an empty ``expanded``: nowhere) and ``count`` moves past them."""
    height, width = blocked.shape
    row, col = start // width, start % width
    target_row, target_col = target // width, target % width
    steps = 0
    while row != target_row or col != target_col:
        if steps >= limit:
            return False, count + steps
        if expanded.shape[0] > 0:
            expanded[count + steps] = row * width + col
        steps += 1
        h_a, h_b = _h(row, col, target_row, target_col, connectivity)
        here = h_a + h_b * sqrt2
        found, best_row, best_col, best_value = False, 0, 0, 0.0
        for k in range(move_rows.shape[0]):
            r, c, diagonal, allowed = move_rule(blocked, height, width, row, col, move_rows[k], move_cols[k])
            if not allowed:
                continue
            y_a, y_b = _h(r, c, target_row, target_col, connectivity)
            if diagonal:
                y_b += 1
            else:
                y_a += 1
            value = y_a + y_b * sqrt2
            if not found or value < best_value:
                found, best_row, best_col, best_value = True, r, c, value
        if not found:
            return False, count + steps
        b_a, b_b = _h(best_row, best_col, target_row, target_col, connectivity)
        if b_a + b_b * sqrt2 >= here:
            return False, count + steps
        row, col = best_row, best_col
    return True, count + steps


@njit(cache=True)
def _compress(blocked, path, connectivity, limit, move_rows, move_cols, sqrt2):
    """``compress_path`` over cell indices: the indices into ``path`` of its subgoals."""
    chosen = np.empty(path.shape[0], np.int64)
    unrecorded = np.empty(0, np.int64)
    count, i = 0, 0
    while i < path.shape[0] - 1:
        j = i + 1
        while j + 1 < path.shape[0] and _climbs(blocked, path[i], path[j + 1], connectivity, limit,
                                                move_rows, move_cols, sqrt2, unrecorded, 0)[0]:
            j += 1
        chosen[count] = j
        count += 1
        i = j
    return chosen[:count]


def _blocked(grid: Gridworld | np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(blocked_array(grid), dtype=np.bool_)


def hill_climb_reaches(grid: Gridworld | np.ndarray, start: Cell, target: Cell, connectivity: int = 8,
                       limit: int = CLIMB_LIMIT) -> bool:
    """Whether ``target`` is hill-climbing reachable from ``start`` (``pursuit.hill_climb(...)[0]``)."""
    blocked = _blocked(grid)
    width = blocked.shape[1]
    rows, cols = MOVE_TABLES[connectivity]
    return bool(_climbs(blocked, start[0] * width + start[1], target[0] * width + target[1], connectivity, limit,
                        rows, cols, SQRT2, np.empty(0, np.int64), 0)[0])


def compress_path_compiled(grid: Gridworld | np.ndarray, path: list[Cell], connectivity: int = 8,
                           limit: int = CLIMB_LIMIT) -> list[Cell]:
    """The compiled twin of ``knn_lrta.compress_path``: same arguments, same subgoals."""
    blocked = _blocked(grid)
    width = blocked.shape[1]
    rows, cols = MOVE_TABLES[connectivity]
    indices = np.array([r * width + c for r, c in path], np.int64)
    return [path[j] for j in _compress(blocked, indices, connectivity, limit, rows, cols, SQRT2).tolist()]


def build_knn_database(grid: Gridworld, records: int = 1000, seed: int = 0, connectivity: int = 8,
                       limit: int = CLIMB_LIMIT) -> KnnDatabase:
    """Twin of :func:`reference.solutions.subgoaling.knn_lrta.build_knn_database`: the readable
    builder with the compiled A* and :func:`compress_path_compiled`; the same records."""
    return knn_lrta.build_knn_database(grid, records, seed, connectivity, limit, search=compiled_astar,
                                       compress=compress_path_compiled)


def build_d_lrta_database(grid: Gridworld, level: int = 3, cap: int = DEFAULT_CAP) -> PatternDatabase:
    """Twin of :func:`reference.solutions.subgoaling.d_lrta.build_d_lrta_database`: the dynamic-control
    pattern database built by its compiled twin; the same tables."""
    from reference.solutions.compiled.dynamic import build_pattern_database_compiled

    check_database_settings(level, cap)
    return build_pattern_database_compiled(Neighbours(grid.blocked), level, cap)


# --- the online part -------------------------------------------------------------------------------

@njit(cache=True)
def _knn_choice(blocked, start, goal, record_starts, record_goals, tried, connectivity, limit, move_rows, move_cols,
                sqrt2, checked):
    """``knn_lrta.choose_record`` over cell indices: the index of the record chosen (-1: none) and how
    many states the checks expanded (written to ``checked``, room for ``2 * limit * tried``).

    The ``tried`` nearest records by ``h(start, record start) + h(record goal, goal)``, ties to the
    smaller index (the readable ``sorted`` on ``(value, index)``), kept by insertion into a short
    sorted list: one pass over the records, where sorting them all would cost n log n."""
    width = blocked.shape[1]
    start_row, start_col, goal_row, goal_col = start // width, start % width, goal // width, goal % width
    nearest = np.empty(tried, np.int64)
    distance = np.empty(tried, np.float64)
    size = 0
    for i in range(record_starts.shape[0] if tried > 0 else 0):
        a, b = _h(start_row, start_col, record_starts[i] // width, record_starts[i] % width, connectivity)
        c, d = _h(record_goals[i] // width, record_goals[i] % width, goal_row, goal_col, connectivity)
        value = (a + b * sqrt2) + (c + d * sqrt2)
        if size == tried and value >= distance[size - 1]:
            continue
        j = size if size < tried else tried - 1   # a full list drops its last entry
        while j > 0 and distance[j - 1] > value:  # after every entry at most as far: ties keep index order
            nearest[j], distance[j] = nearest[j - 1], distance[j - 1]
            j -= 1
        nearest[j], distance[j] = i, value
        size = min(size + 1, tried)
    count = 0
    for j in range(size):
        i = nearest[j]
        there, count = _climbs(blocked, start, record_starts[i], connectivity, limit, move_rows, move_cols, sqrt2,
                               checked, count)
        if not there:
            continue
        back, count = _climbs(blocked, record_goals[i], goal, connectivity, limit, move_rows, move_cols, sqrt2,
                              checked, count)
        if back:
            return i, count
    return -1, count


@dataclass
class KnownMapRun(lookahead.KnownMapRun):
    """:mod:`.lrta`'s run (the twin of the readable ``KnownMapRun``) plus ``checked``: the cells
    (indices) the goal policy expanded in the first episode, kNN LRTA*'s hill-climbing checks. The
    first record lists them before the agent's state, and ``expansions`` counts them, as the readable
    run does."""

    checked: np.ndarray = field(default_factory=lambda: np.empty(0, np.int64))

    @property
    def expansions(self) -> int:
        return super().expansions + len(self.checked)

    @property
    def trace(self) -> Trace:
        if self._trace is None:
            trace = super().trace   # builds and keeps self._trace
            if len(self.checked):
                rows, cols = np.divmod(self.checked, self.width)
                trace.searches[0].expanded[:0] = list(zip(rows.tolist(), cols.tolist()))
        assert self._trace is not None
        return self._trace


_NONE = np.empty(0, np.int64)

#: The "next goal" table handed to ``lrta_arrays`` (-1: none), one per map size, reused: a run
#: writes its goals' entries and clears them after.
_NEXT_GOAL: dict[int, np.ndarray] = {}


def _episodes_ahead(grid: Gridworld, start: Cell, goal: Cell, max_moves: int | None) -> bool:
    """Will the readable agent plan at all? Not from the goal, not with no moves allowed, not toward
    an unreachable goal (the known map tells at once; untimed, as the readable check)."""
    width = grid.width
    return start != goal and (max_moves is None or max_moves > 0) and bool(
        lookahead.reachable(grid.blocked, start[0] * width + start[1], goal[0] * width + goal[1]))


def _no_episodes(algorithm: str, grid: Gridworld, start: Cell, goal: Cell) -> KnownMapRun:
    return KnownMapRun(algorithm, grid.width, np.array([start[0] * grid.width + start[1]]), _NONE, start == goal,
                       (0, 0) if start == goal else None, 0.0, 0.0, 0)


def _pursue(algorithm: str, grid: Gridworld, start: Cell, goals: list[Cell], connectivity: int,
            max_moves: int | None, first_seconds: float, seconds: float, checked: np.ndarray) -> KnownMapRun:
    """LRTA* (lookahead one) toward ``goals[0]``, then, on arrival, ``goals[1]``, ..., ending at
    ``goals[-1]``: ``lrta_arrays`` with a next-goal table and the switch on arrival. The times add the
    goal policy's (``first_seconds`` to the first episode, ``seconds`` to the whole run).

    The table maps each goal to the next, so a goal may appear only once; the run ends on the last
    goal, so the list is cut at its first appearance. The readable agents' lists keep that (cells of
    an optimal path; subgoals taken once)."""
    width = grid.width
    indices = [row * width + col for row, col in goals]
    start_index, goal_index = start[0] * width + start[1], indices[-1]
    indices = indices[:indices.index(goal_index) + 1]
    if len(set(indices)) < len(indices):
        raise ValueError(f"the goals to pursue repeat a cell: {goals}")
    workspace = lookahead._workspace(grid.size)
    rows = workspace.h_straight.shape[0]
    if rows < len(indices):   # room for every goal's h table before the clock starts (D LRTA* (3): some 40)
        lookahead.reserve(grid.size, max(len(indices), 2 * rows), workspace.trajectory.shape[0])
        workspace = lookahead._workspace(grid.size)
    if grid.size not in _NEXT_GOAL:
        _NEXT_GOAL[grid.size] = np.full(grid.size, -1, np.int64)
    next_goal = _NEXT_GOAL[grid.size]
    limit = -1 if max_moves is None else max(max_moves, 0)
    try:
        for here, after in zip(indices, indices[1:]):
            next_goal[here] = after
        arguments = (grid.blocked, start_index, goal_index, connectivity, next_goal, _NONE, lookahead.SUB, indices[0],
                     True)
        began = time.process_time()   # the first episode alone: a run stopped after one move
        workspace.run(*arguments, 1)
        first = time.process_time() - began
        began = time.process_time()
        moves, straight, diagonal, slots = workspace.run(*arguments, limit)
        total = time.process_time() - began
    finally:
        next_goal[indices] = -1
    reached = int(workspace.trajectory[moves]) == goal_index
    return KnownMapRun(algorithm, width, workspace.trajectory[:moves + 1].copy(), workspace.goals[:moves].copy(),
                       reached, (int(straight), int(diagonal)) if reached else None, first_seconds + first,
                       seconds + total, slots, checked=checked)


#: The record ends of the last kNN database used, as cell indices (a map's runs share one database;
#: laying it out is preprocessing, so untimed): ``(database, width, starts, goals)``.
_RECORD_ENDS: list[tuple[KnnDatabase, int, np.ndarray, np.ndarray]] = []


def _record_ends(database: KnnDatabase, width: int) -> tuple[np.ndarray, np.ndarray]:
    if not _RECORD_ENDS or _RECORD_ENDS[0][0] is not database or _RECORD_ENDS[0][1] != width:
        starts = np.array([r.start[0] * width + r.start[1] for r in database.records], np.int64)
        goals = np.array([r.goal[0] * width + r.goal[1] for r in database.records], np.int64)
        _RECORD_ENDS[:] = [(database, width, starts, goals)]
    return _RECORD_ENDS[0][2], _RECORD_ENDS[0][3]


@lru_cache(maxsize=1)
def _warm_up() -> None:
    """Compile (or load from Numba's cache) the online twins' functions on a tiny map, once per
    process, before any run's clock starts."""
    grid = Gridworld.from_strings(["....", ".@@.", "...."])
    _knn(grid, (0, 1), (2, 3), KnnDatabase([KnnRecord((0, 0), (2, 2), [(2, 0), (2, 2)])]), 8, DEFAULT_K, None,
         CLIMB_LIMIT)


def _knn(grid: Gridworld, start: Cell, goal: Cell, database: KnnDatabase, connectivity: int, k: int,
         max_moves: int | None, limit: int) -> KnownMapRun:
    if not _episodes_ahead(grid, start, goal, max_moves):
        return _no_episodes("knn_lrta", grid, start, goal)
    width = grid.width
    record_starts, record_goals = _record_ends(database, width)
    tried = len(range(len(database.records))[:k])   # as the readable slice nearest[:k], negative k too
    checked = np.empty(2 * max(limit, 0) * tried, np.int64)
    rows, cols = MOVE_TABLES[connectivity]
    began = time.process_time()
    chosen, count = _knn_choice(grid.blocked, start[0] * width + start[1], goal[0] * width + goal[1], record_starts,
                                record_goals, tried, connectivity, limit, rows, cols, SQRT2, checked)
    record = database.records[chosen] if chosen >= 0 else None
    goals = [goal] if record is None else [record.start, *record.subgoals, goal]
    seconds = time.process_time() - began
    return _pursue("knn_lrta", grid, start, goals, connectivity, max_moves, seconds, seconds, checked[:count].copy())


def knn_lrta_star(grid: Gridworld, start: Cell, goal: Cell, database: KnnDatabase, connectivity: int = 8,
                  k: int = DEFAULT_K, max_moves: int | None = None, limit: int = CLIMB_LIMIT) -> KnownMapRun:
    """kNN LRTA* on a known map, compiled: the arguments and the walk of
    :func:`reference.solutions.subgoaling.knn_lrta.knn_lrta_star` (trace name ``knn_lrta``).

    Times: the first episode is the record choice (the nearest records and their checks) and one
    move; the whole run, the choice and every move. Raises ValueError as the readable function does,
    and for a record whose start and subgoals repeat a cell (the database's never do).
    """
    if database.connectivity != connectivity:
        raise ValueError(f"the database is {database.connectivity}-connected, the run {connectivity}-connected")
    check_ends(grid, start, goal)
    _warm_up()
    return _knn(grid, start, goal, database, connectivity, k, max_moves, limit)


@dataclass
class DLrtaRun:
    """A compiled D LRTA* run: what the experiment reads of the readable ``KnownMapRun`` (the
    trajectory, each action's goal and expansions; no expanded states), and the CPU times."""

    trajectory: list[Cell]
    goals: list[Cell]
    expansions_per_action: list[int]
    reached: bool
    cost: tuple[int, int] | None
    first_episode_seconds: float
    total_seconds: float

    @property
    def moves(self) -> int:
        return len(self.trajectory) - 1

    @property
    def episodes(self) -> int:
        return len(self.goals)

    @property
    def expansions(self) -> int:
        return sum(self.expansions_per_action)

    @property
    def first_goal(self) -> Cell | None:
        return self.goals[0] if self.goals else None


#: The compiled lookahead's workspace of the last map run (a map's runs share it): ``(blocked, Lookahead)``.
_LOOKAHEAD: list = []


def d_lrta_star(grid: Gridworld, start: Cell, goal: Cell, database: PatternDatabase, rule: str = "paper",
                max_moves: int | None = None) -> DLrtaRun:
    """D LRTA* on a known map, eight-connected, compiled: the arguments and the walk of
    :func:`reference.solutions.subgoaling.d_lrta.d_lrta_star` (the whole run in one compiled call,
    :func:`..dynamic.run_database` with goal selection I). Times: a run stopped after one action (the
    first episode), then the whole run."""
    from ..dynamic import Lookahead, run_database

    if rule not in GOAL_RULES:
        raise ValueError(f"goal rule must be one of {GOAL_RULES}, not {rule!r}")
    check_ends(grid, start, goal)
    limit = DEFAULT_MAX_MOVES if max_moves is None else max_moves
    if not _episodes_ahead(grid, start, goal, limit):
        return DLrtaRun([start], [], [], start == goal, (0, 0) if start == goal else None, 0.0, 0.0)
    if not _LOOKAHEAD or _LOOKAHEAD[0] is not grid.blocked:
        _LOOKAHEAD[:] = [grid.blocked, Lookahead(grid.blocked)]
    look = _LOOKAHEAD[1]
    run_database(grid.blocked, start, goal, database, GOAL_SELECTION, max_actions=1, lookahead=look, rule=rule)  # compiles
    began = time.process_time()
    run_database(grid.blocked, start, goal, database, GOAL_SELECTION, max_actions=1, lookahead=look, rule=rule)
    first = time.process_time() - began
    began = time.process_time()
    run = run_database(grid.blocked, start, goal, database, GOAL_SELECTION, max_actions=limit, lookahead=look, rule=rule)
    total = time.process_time() - began
    return DLrtaRun(run.path, run.goals, run.expansions, run.reached, run.cost if run.reached else None, first, total)
