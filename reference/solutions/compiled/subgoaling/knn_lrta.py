"""The compiled twin of :mod:`reference.solutions.subgoaling.knn_lrta` (SPEC §16): its preprocessing and its online part.

**Preprocessing.** :func:`compress_path_compiled` returns what
:func:`reference.solutions.subgoaling.knn_lrta.compress_path` returns, with :mod:`.pursuit`'s
compiled hill-climbing; it serves :func:`build_knn_database`, the twin of the readable builder of
that name (the engine switch lives here, on the twins' side: the readable builders never import
compiled code).

**Online.** :func:`knn_lrta_star` takes the readable function's arguments and walks the same
trajectory. The readable agent pursues a list of goals in turn, and that list is fixed in the first
episode (a record's start, its subgoals, the goal): the twin computes it first (the k nearest
records and the hill-climbing checks in one compiled call, :func:`_knn_choice`), then walks it with
:func:`.pursuit.pursue_in_turn`. The readable code is the one to read.

>>> from reference.world.grid import Gridworld
>>> grid = Gridworld.from_strings(["....", ".@@.", "...."])
>>> compress_path_compiled(grid, [(0, 1), (0, 2), (0, 3), (1, 3), (2, 3), (2, 2)], 4)
[(2, 3), (2, 2)]
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
from functools import lru_cache

import numpy as np
from numba import njit

from reference.solutions.subgoaling import knn_lrta
from reference.solutions.subgoaling.knn_lrta import DEFAULT_K, KnnDatabase, KnnRecord
from reference.solutions.subgoaling.lrta import check_ends
from reference.solutions.subgoaling.pursuit import CLIMB_LIMIT
from reference.world.grid import SQRT2, Cell, Gridworld

from ..shortest_paths import astar as compiled_astar
from .pursuit import (MOVE_TABLES, KnownMapRun, blocked_cells, climb, episodes_ahead, exact_h, no_episodes_run,
                      pursue_in_turn)

@njit(cache=True)
def _compress(blocked, path, connectivity, limit, move_rows, move_cols, sqrt2):
    """``compress_path`` over cell indices: the indices into ``path`` of its subgoals."""
    chosen = np.empty(path.shape[0], np.int64)
    unrecorded = np.empty(0, np.int64)
    count, i = 0, 0
    while i < path.shape[0] - 1:
        j = i + 1
        while j + 1 < path.shape[0] and climb(blocked, path[i], path[j + 1], connectivity, limit,
                                                move_rows, move_cols, sqrt2, unrecorded, 0)[0]:
            j += 1
        chosen[count] = j
        count += 1
        i = j
    return chosen[:count]


def compress_path_compiled(grid: Gridworld | np.ndarray, path: list[Cell], connectivity: int = 8,
                           limit: int = CLIMB_LIMIT) -> list[Cell]:
    """The compiled twin of ``knn_lrta.compress_path``: same arguments, same subgoals."""
    blocked = blocked_cells(grid)
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
        a, b = exact_h(start_row, start_col, record_starts[i] // width, record_starts[i] % width, connectivity)
        c, d = exact_h(record_goals[i] // width, record_goals[i] % width, goal_row, goal_col, connectivity)
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
        there, count = climb(blocked, start, record_starts[i], connectivity, limit, move_rows, move_cols, sqrt2,
                               checked, count)
        if not there:
            continue
        back, count = climb(blocked, record_goals[i], goal, connectivity, limit, move_rows, move_cols, sqrt2,
                              checked, count)
        if back:
            return i, count
    return -1, count


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
    if not episodes_ahead(grid, start, goal, max_moves):
        return no_episodes_run("knn_lrta", grid, start, goal)
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
    return pursue_in_turn("knn_lrta", grid, start, goals, connectivity, max_moves, seconds, seconds,
                          checked[:count].copy())


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
