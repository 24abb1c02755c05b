"""Subgoaling for real-time search on known maps (Hernández & Baier 2011; SPEC §13).

- :func:`build_subgoal_tree`: the paper's Algorithm 2, a backward Dijkstra that marks the exit
  points of heuristic depressions as subgoals and links them into a tree rooted at the goal
  (``tree.py``).
- :func:`lrta_star_subgoaling`: Algorithm 3, LRTA* (lookahead one) that pursues the subgoals of
  that tree in turn; :func:`lrta_star`: Korf's LRTA* (Algorithm 1) on the same known map
  (``lrta.py``).
- :data:`ALGORITHMS`: the planners by name (``astar``, ``lrta``, ``lrta_subgoal`` and its
  variants: ``_sub``, first goal ``Sub(start)``; ``_arrival``, next subgoal only on reaching the
  current one), a :class:`~reference.solutions.registry.Registry`: settings to the planner, the
  problem to its ``run(world, start, goal)`` in a
  :class:`~reference.world.sensing.KnownMapWorld`. Every planner moves the agent with the kit's
  agent core (:func:`~reference.solutions.agent.run_agent`) and returns a :class:`KnownMapRun` (a
  SPEC §8 trace, one record per planning episode, plus the exact cost and each episode's CPU time).
  :func:`run_algorithm` does the same from a grid and a connectivity.

>>> from reference.world.grid import Gridworld
>>> from reference.world.sensing import KnownMapWorld
>>> grid = Gridworld.from_strings(["....", ".@@.", "...."])
>>> [run_algorithm(name, grid, (0, 1), (2, 2), connectivity=4).cost for name in ALGORITHMS]
[(5, 0), (5, 0), (5, 0), (5, 0), (5, 0), (5, 0)]
>>> planner = ALGORITHMS.planner("lrta_subgoal", max_moves=100)
>>> planner.run(KnownMapWorld(grid, (0, 1), connectivity=4), (0, 1), (2, 2)).trace.trajectory
[(0, 1), (0, 2), (0, 3), (1, 3), (2, 3), (2, 2)]
"""

from __future__ import annotations

import time
from functools import partial

from reference.solutions.shortest_paths import astar
from reference.world.grid import Cell, Cost, Gridworld
from reference.world.sensing import Knowledge, KnownMapWorld
from reference.world.trace import ALGORITHMS as TRACE_NAMES
from reference.world.trace import SearchRecord, Trace

from ..agent import run_agent
from ..registry import Registry
from .lrta import (
    FIRST_GOALS, SWITCHES, KnownMapLRTA, KnownMapRun, SubgoalingLRTA, check_ends, lrta_star, lrta_star_subgoaling,
)
from .tree import SubgoalTree, build_subgoal_tree


class KnownMapAStar:
    """A* (the world's :func:`~reference.solutions.shortest_paths.astar`) as one planning episode on a
    known map: the agent plans the whole path, then walks it (a planner for the kit's agent core).
    No settings."""

    algorithm = "astar"
    tie_break = "larger_g"

    def run(self, world: KnownMapWorld, start: Cell, goal: Cell) -> KnownMapRun:
        check_ends(world.grid, start, goal)
        self.grid, self.goal, self.connectivity = world.grid, goal, world.connectivity
        self.cost: Cost | None = None
        self.planning_seconds: list[float] = []
        if start == goal:  # A* searches once even from the goal: a trace of that one search
            return KnownMapRun(Trace(self.algorithm, self.tie_break, True, [start],
                                     [self.plan_episode(start, world.knowledge(), [])]), self.cost,
                               self.planning_seconds)
        trace = run_agent(world, start, goal, self, world.knowledge())
        return KnownMapRun(trace, self.cost, self.planning_seconds)

    def plan_episode(self, agent: Cell, knowledge: Knowledge, newly_blocked: list[Cell]) -> SearchRecord:
        """The one planning episode: an A* search from the agent to the goal on the known map."""
        began = time.process_time()
        result = astar(self.grid, agent, self.goal, connectivity=self.connectivity)
        self.planning_seconds.append(time.process_time() - began)
        self.cost = result.cost
        return SearchRecord(start=agent, goal=self.goal, expanded=result.expanded, path=result.path)


def astar_run(grid: Gridworld, start: Cell, goal: Cell, connectivity: int = 8) -> KnownMapRun:
    """A* on a known map as one planning episode, then the walk (:class:`KnownMapAStar`)."""
    check_ends(grid, start, goal)
    return KnownMapAStar().run(KnownMapWorld(grid, start, connectivity), start, goal)


#: The known-map planners by the names traces and the command line use: each maker takes keyword-only
#: settings (``tree``, ``max_moves``; see :class:`SubgoalingLRTA`) and its planner runs
#: ``run(KnownMapWorld(grid, start, connectivity), start, goal)``.
ALGORITHMS = Registry({
    "astar": KnownMapAStar,
    "lrta": KnownMapLRTA,
    "lrta_subgoal": partial(SubgoalingLRTA, first_goal="nearest"),
    "lrta_subgoal_sub": partial(SubgoalingLRTA, first_goal="sub"),
    "lrta_subgoal_arrival": partial(SubgoalingLRTA, first_goal="nearest", switch="on_arrival"),
    "lrta_subgoal_sub_arrival": partial(SubgoalingLRTA, first_goal="sub", switch="on_arrival"),
})

assert set(ALGORITHMS) <= set(TRACE_NAMES), "every subgoaling algorithm has a trace name"


def run_algorithm(name: str, grid: Gridworld, start: Cell, goal: Cell, *, connectivity: int = 8,
                  tree: SubgoalTree | None = None, max_moves: int | None = None) -> KnownMapRun:
    """Run the algorithm called ``name`` (a key of :data:`ALGORITHMS`) on a known map: the
    subgoaling variants read ``tree`` (built here if not given), A* ignores ``max_moves``."""
    planner = ALGORITHMS.planner(name, **ALGORITHMS.those_taken(name, tree=tree, max_moves=max_moves))
    check_ends(grid, start, goal)
    return planner.run(KnownMapWorld(grid, start, connectivity), start, goal)


__all__ = [
    "ALGORITHMS", "FIRST_GOALS", "SWITCHES", "KnownMapAStar", "KnownMapLRTA", "KnownMapRun", "SubgoalTree",
    "SubgoalingLRTA", "astar_run", "build_subgoal_tree", "lrta_star", "lrta_star_subgoaling",
    "run_algorithm",
]
