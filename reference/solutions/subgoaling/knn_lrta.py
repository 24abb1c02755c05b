"""kNN LRTA* (Bulitko and Björnsson 2009; Bulitko, Björnsson and Lawrence 2010): subgoals from a
database of solved problems.

**Preprocessing** (:func:`build_knn_database`): solve ``records`` random problems of the map
optimally (A*) and *compress* each optimal path into subgoals: from the path's start, the next
subgoal is the farthest state along the path that is hill-climbing reachable from the current one
(:func:`~.pursuit.hill_climb`), and so on to the path's end. A record keeps the problem's start,
its goal and those subgoals.

**Online** (:func:`knn_lrta_star`), in the first planning episode: the ``k`` records nearest the
problem, by ``h(start, record start) + h(record goal, goal)``, are tried nearest first; the first
whose start is hill-climbing reachable from the agent's start and from whose goal the agent's goal
is hill-climbing reachable is used: the agent pursues the record's start, its subgoals in turn, the
record's goal, then its own goal, each with LRTA* (lookahead one) and switching when it stands on
the goal pursued. No record fits: plain LRTA* toward the goal. The checks are planning: their
expansions belong to the first episode.

Choices the papers leave to the implementer (the kit's): ties among records at the same distance
go to the one drawn first; a hill-climbing check gives up after :data:`~.pursuit.CLIMB_LIMIT` moves.

>>> from reference.world.grid import Gridworld
>>> grid = Gridworld.from_strings(["....", ".@@.", "...."])
>>> compress_path(grid, [(0, 1), (0, 2), (0, 3), (1, 3), (2, 3), (2, 2)], 4)
[(2, 3), (2, 2)]
>>> database = KnnDatabase([KnnRecord((0, 0), (2, 2), [(2, 0), (2, 2)])], connectivity=4)
>>> run = knn_lrta_star(grid, (0, 1), (2, 3), database, connectivity=4)
>>> [record.goal for record in run.trace.searches]     # the record's start, its subgoals, then the goal
[(0, 0), (2, 0), (2, 0), (2, 2), (2, 2), (2, 3)]
>>> run.cost                                           # round the wall's left end; optimal is 4, by the right
(6, 0)
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from reference.solutions.shortest_paths import PathResult, astar
from reference.world.grid import Cell, Gridworld, cost_value, heuristic_cost
from reference.world.sensing import KnownMapWorld

from .lrta import KnownMapRun
from .pursuit import CLIMB_LIMIT, SubgoalPursuit, hill_climb

#: The number of nearest records tried (Bulitko et al.'s k).
DEFAULT_K = 10


@dataclass
class KnnRecord:
    """One solved problem: ``start``, ``goal``, and the compressed path's subgoals (the last is ``goal``)."""

    start: Cell
    goal: Cell
    subgoals: list[Cell]


@dataclass
class KnnDatabase:
    """The records of one map, and the CPU seconds and A* expansions it took to build them."""

    records: list[KnnRecord]
    connectivity: int = 8
    seconds: float = 0.0
    expansions: int = 0
    subgoal_count: int = field(init=False)

    def __post_init__(self) -> None:
        self.subgoal_count = sum(len(record.subgoals) for record in self.records)


def compress_path(grid: Gridworld, path: list[Cell], connectivity: int = 8, limit: int = CLIMB_LIMIT) -> list[Cell]:
    """The subgoals of ``path`` (its start excluded, its end included): each the farthest state along
    the path hill-climbing reachable from the previous one (the first, from the path's start).

    Each next state is always reachable (one move, and h drops to 0), so every step makes progress.
    """
    subgoals: list[Cell] = []
    i = 0
    while i < len(path) - 1:
        j = i + 1
        while j + 1 < len(path) and hill_climb(grid, path[i], path[j + 1], connectivity, limit)[0]:
            j += 1
        subgoals.append(path[j])
        i = j
    return subgoals


def random_problems(grid: Gridworld, count: int, seed: int) -> list[tuple[Cell, Cell]]:
    """``count`` problems, start and goal uniform among the free cells, redrawn until they differ and
    are connected (four-connected components: without corner cutting they are the eight-connected ones)."""
    from scipy.ndimage import label

    components, _ = label(~grid.blocked)
    if count > 0 and np.bincount(components.ravel())[1:].max(initial=0) < 2:
        raise ValueError("the map has no two connected free cells to make a problem of")
    free = np.flatnonzero(~grid.blocked.ravel())
    rng = np.random.default_rng(seed)
    problems: list[tuple[Cell, Cell]] = []
    while len(problems) < count:
        start, goal = (divmod(int(i), grid.width) for i in rng.choice(free, 2))
        if start != goal and components[start] == components[goal]:
            problems.append((start, goal))
    return problems


def build_knn_database(grid: Gridworld, records: int = 1000, seed: int = 0, connectivity: int = 8,
                       limit: int = CLIMB_LIMIT, *, search: Callable[..., PathResult] = astar,
                       compress: Callable[..., list[Cell]] | None = None) -> KnnDatabase:
    """Solve ``records`` random problems (seeded) with A* and store their compressed paths.

    ``search`` and ``compress``: the A* and the path compression (default: :func:`astar` and
    :func:`compress_path`); the compiled twin
    :func:`reference.solutions.compiled.subgoaling.knn_lrta.build_knn_database` passes its own: the
    same records (tests compare them), some 50 times sooner.

    >>> from reference.world.grid import Gridworld
    >>> database = build_knn_database(Gridworld.from_strings(["....", "...."]), records=3, seed=1)
    >>> [len(record.subgoals) for record in database.records]   # an open room: one subgoal, the goal
    [1, 1, 1]
    """
    compress = compress or compress_path
    began = time.process_time()
    stored, expansions = [], 0
    for start, goal in random_problems(grid, records, seed):
        result = search(grid, start, goal, connectivity=connectivity)
        expansions += len(result.expanded)
        stored.append(KnnRecord(start, goal, compress(grid, result.path, connectivity, limit)))
    return KnnDatabase(stored, connectivity, time.process_time() - began, expansions)


def nearest_records(database: KnnDatabase, start: Cell, goal: Cell, k: int = DEFAULT_K) -> list[int]:
    """The indices of the ``k`` records nearest the problem, nearest first: by ``h(start, record
    start) + h(record goal, goal)``, ties to the record drawn first.

    >>> database = KnnDatabase([KnnRecord((0, 3), (2, 3), [(2, 3)]), KnnRecord((0, 0), (2, 0), [(2, 0)])], 4)
    >>> nearest_records(database, (0, 1), (2, 0), k=2)     # 1 + 0 beats 2 + 3
    [1, 0]
    """
    def h(a: Cell, b: Cell) -> float:
        return cost_value(heuristic_cost(a, b, database.connectivity))

    records = database.records
    return sorted(range(len(records)), key=lambda i: (h(start, records[i].start) + h(records[i].goal, goal), i))[:k]


def choose_record(grid: Gridworld, start: Cell, goal: Cell, database: KnnDatabase, k: int = DEFAULT_K,
                  limit: int = CLIMB_LIMIT) -> tuple[KnnRecord | None, list[Cell]]:
    """The first episode's choice: the first of the :func:`nearest_records` whose start is
    hill-climbing reachable from ``start`` and from whose goal ``goal`` is (None: none is), and the
    states the checks expanded, in the order they ran.

    >>> grid = Gridworld.from_strings(["....", ".@@.", "...."])
    >>> database = KnnDatabase([KnnRecord((0, 0), (2, 2), [(2, 0), (2, 2)])], connectivity=4)
    >>> choose_record(grid, (0, 1), (2, 3), database)     # (0, 1) W to (0, 0); (2, 2) E to (2, 3)
    (KnnRecord(start=(0, 0), goal=(2, 2), subgoals=[(2, 0), (2, 2)]), [(0, 1), (2, 2)])
    """
    checked: list[Cell] = []
    for record in (database.records[i] for i in nearest_records(database, start, goal, k)):
        there, expanded = hill_climb(grid, start, record.start, database.connectivity, limit)
        checked += expanded
        if not there:
            continue
        back, expanded = hill_climb(grid, record.goal, goal, database.connectivity, limit)
        checked += expanded
        if back:
            return record, checked
    return None, checked


def knn_lrta_star(grid: Gridworld, start: Cell, goal: Cell, database: KnnDatabase, connectivity: int = 8,
                  k: int = DEFAULT_K, max_moves: int | None = None, limit: int = CLIMB_LIMIT) -> KnownMapRun:
    """kNN LRTA* on a known map (trace name ``knn_lrta``); ``database`` from :func:`build_knn_database`."""
    if database.connectivity != connectivity:
        raise ValueError(f"the database is {database.connectivity}-connected, the run {connectivity}-connected")
    queue: list[Cell] = []

    def policy(s: Cell, current: Cell | None) -> tuple[Cell, list[Cell]]:
        checked: list[Cell] = []
        if current is None:   # the first episode: choose a record
            record, checked = choose_record(grid, start, goal, database, k, limit)
            if record is not None:
                queue.extend([record.start, *record.subgoals])
            queue.append(goal)
        while len(queue) > 1 and s == queue[0]:   # switch on arrival
            queue.pop(0)
        return queue[0], checked

    pursuit = SubgoalPursuit(algorithm="knn_lrta", policy=policy, max_moves=max_moves)
    return pursuit.run(KnownMapWorld(grid, start, connectivity), start, goal)
