"""D LRTA* (Bulitko, Luštrek, Schaeffer, Björnsson and Sigmundarson): subgoals chosen dynamically
from a clique abstraction of the map.

**Preprocessing** (:func:`build_d_lrta_database`): apply clique abstraction ``level`` times
(:func:`reference.solutions.dynamic.abstraction.clique_hierarchy`, the dynamic-control module's,
used as it is). For every pair of abstract regions ``(A, B)``, run Dijkstra from ``B``'s
representative and follow an optimal path from ``A``'s representative (the first optimal move in
successor order each time) to the first state outside ``A``: that state, where an optimal path
enters the next region, is the subgoal stored for ``(A, B)``. One Dijkstra per region ``B``
serves every ``A``.

**Online** (:func:`d_lrta_star`): LRTA* (lookahead one) toward a subgoal. In the first episode,
and whenever the agent stands on its subgoal, it looks up the subgoal for (its region, the goal's
region), or takes the goal itself in the goal's region. (Looking up afresh whenever the agent
enters another region, the first version, sent it back and forth across region borders, since two
neighbouring regions' representatives can reach the goal by optimal paths through each other: a
cost of 95,288 on an AR0411SR problem whose optimal cost is 247, and 262 with lookups on arrival.)

The kit's choices, and what it leaves out:

* **lookahead one**, as the kit's other known-map agents. D LRTA* also takes its *search depth*
  from the database (the dynamic-control module builds those depths, at a cost of many LRTA*
  searches per pair of regions); here every episode expands one state, so the expansions of the
  paper's comparison are not this agent's.
* **a subgoal is taken at most once per run** (an addition, so that every run ends): entering a
  region whose subgoal the agent has already pursued, it takes the subgoal of the region *that*
  subgoal lies in (and so on along the chain), or the goal when the chain runs out. Without it two
  regions can send the agent back and forth; with it a run takes finitely many subgoals and then
  LRTA* toward the goal, which ends on a finite connected map.

>>> from reference.world.grid import Gridworld
>>> grid = Gridworld.from_strings(["....", "...."])       # level 1: two 2 x 2 regions, cols 0-1 and 2-3
>>> database = build_d_lrta_database(grid, level=1)
>>> database.subgoal[0, 1], database.subgoal[1, 0]        # where optimal paths enter the other region
((0, 2), (0, 1))
>>> run = d_lrta_star(grid, (1, 3), (1, 0), database)
>>> run.trace.trajectory, [record.goal for record in run.trace.searches]
([(1, 3), (1, 2), (0, 1), (1, 0)], [(0, 1), (0, 1), (1, 0)])
>>> run.cost                                              # 1 + 2·√2, where the straight row costs 3
(1, 2)
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field


from reference.solutions.dynamic.abstraction import Hierarchy, clique_hierarchy
from reference.solutions.dynamic.lrta import Neighbours
from reference.solutions.shortest_paths import dijkstra
from reference.world.grid import Cell, Gridworld, add_costs
from reference.world.sensing import KnownMapWorld

from .lrta import KnownMapRun, check_ends
from .pursuit import SubgoalPursuit


@dataclass
class DLrtaDatabase:
    """The abstraction and ``subgoal[A, B]`` for every ordered pair of connected regions at ``level``;
    ``seconds``: the CPU time to build both; ``expansions``: the Dijkstra expansions."""

    hierarchy: Hierarchy
    level: int
    subgoal: dict[tuple[int, int], Cell] = field(default_factory=dict)
    seconds: float = 0.0
    expansions: int = 0

    @property
    def regions(self) -> int:
        return len(self.hierarchy.levels[self.level].members)

    def region(self, cell: Cell) -> int:
        return self.hierarchy.region(cell, self.level)


def build_d_lrta_database(grid: Gridworld, level: int = 3) -> DLrtaDatabase:
    """The D LRTA* database of ``grid`` (eight-connected) at abstraction ``level`` (>= 1).

    The compiled twin :func:`reference.solutions.compiled.subgoaling.pursuit.build_d_lrta_database`
    runs each region's Dijkstra and the walks along optimal paths compiled: the same database (tests
    compare them); the abstraction stays this code.
    """
    if level < 1:
        raise ValueError(f"the abstraction level must be at least 1, got {level}")
    began = time.process_time()
    neighbours = Neighbours(grid.blocked)
    hierarchy = clique_hierarchy(neighbours, level)
    database = DLrtaDatabase(hierarchy, level)
    regions = range(database.regions)
    representative = [hierarchy.representative(level, region) for region in regions]
    for b in regions:
        distances = dijkstra(grid, representative[b], connectivity=8)
        database.expansions += len(distances.expanded)
        cost = distances.cost
        for a in regions:
            cell = representative[a]
            if a == b or cell not in cost:
                continue
            while database.region(cell) == a:   # follow the first optimal move until the path leaves A
                cell = next(n for n, step in neighbours[cell] if n in cost and add_costs(step, cost[n]) == cost[cell])
            database.subgoal[a, b] = cell
    database.seconds = time.process_time() - began
    return database


class SubgoalLookup:
    """D LRTA*'s choice of subgoals in one run toward ``goal``: :meth:`next` from the agent's state
    (in the first episode, and on standing on the subgoal pursued), each subgoal taken at most once.

    >>> grid = Gridworld.from_strings(["....", "...."])
    >>> lookup = SubgoalLookup(build_d_lrta_database(grid, level=1), (1, 0))
    >>> lookup.next((1, 3)), lookup.next((0, 1))    # (0, 1) lies in the goal's region
    ((0, 1), (1, 0))
    """

    def __init__(self, database: DLrtaDatabase, goal: Cell) -> None:
        self.database, self.goal = database, goal
        self.goal_region = database.region(goal)
        self.taken: set[Cell] = set()

    def next(self, s: Cell) -> Cell:
        """The subgoal for (``s``'s region, the goal's region), or the goal in the goal's region;
        one already taken: the subgoal of the region it lies in, and so on (the goal when the chain
        runs out)."""
        region, seen = self.database.region(s), set()
        while region != self.goal_region and region not in seen:   # skip subgoals already taken, along the chain
            seen.add(region)
            subgoal = self.database.subgoal.get((region, self.goal_region), self.goal)
            if subgoal not in self.taken:
                self.taken.add(subgoal)
                return subgoal
            region = self.database.region(subgoal)
        return self.goal


def d_lrta_star(grid: Gridworld, start: Cell, goal: Cell, database: DLrtaDatabase,
                max_moves: int | None = None) -> KnownMapRun:
    """D LRTA* on a known map, eight-connected (trace name ``d_lrta``); ``database`` from
    :func:`build_d_lrta_database` for the same map."""
    check_ends(grid, start, goal)
    lookup = SubgoalLookup(database, goal)

    def policy(s: Cell, current: Cell | None) -> tuple[Cell, list[Cell]]:
        if current is not None and s != current:
            return current, []
        return lookup.next(s), []

    pursuit = SubgoalPursuit(algorithm="d_lrta", policy=policy, max_moves=max_moves)
    return pursuit.run(KnownMapWorld(grid, start, 8), start, goal)
