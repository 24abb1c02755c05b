"""Subgoaling for real-time search on known maps (Hernández & Baier 2011; SPEC §13).

- :func:`build_subgoal_tree`: the paper's Algorithm 2, a backward Dijkstra that marks the exit
  points of heuristic depressions as subgoals and links them into a tree rooted at the goal
  (``tree.py``).
- :func:`lrta_star_subgoaling`: Algorithm 3, LRTA* (lookahead one) that pursues the subgoals of
  that tree in turn; :func:`lrta_star`: Korf's LRTA* (Algorithm 1) on the same known map
  (``lrta.py``).
- :func:`run_algorithm`: one problem by name (``astar``, ``lrta``, ``lrta_subgoal`` and its
  variants: ``_sub``, first goal ``Sub(start)``; ``_arrival``, next subgoal only on reaching the
  current one), each as a :class:`KnownMapRun` (a SPEC §8 trace, one record per planning episode,
  plus the exact cost and each episode's CPU time).

>>> from reference.world.grid import Gridworld
>>> grid = Gridworld.from_strings(["....", ".@@.", "...."])
>>> [run_algorithm(name, grid, (0, 1), (2, 2), connectivity=4).cost for name in ALGORITHMS]
[(5, 0), (5, 0), (5, 0), (5, 0), (5, 0), (5, 0)]
"""

from __future__ import annotations

import time
from typing import Callable

from reference.solutions.shortest_paths import astar
from reference.world.grid import Cell, Gridworld
from reference.world.trace import ALGORITHMS as TRACE_NAMES
from reference.world.trace import SearchRecord, Trace

from .lrta import FIRST_GOALS, SWITCHES, KnownMapRun, lrta_star, lrta_star_subgoaling
from .tree import SubgoalTree, build_subgoal_tree


def astar_run(grid: Gridworld, start: Cell, goal: Cell, connectivity: int = 8) -> KnownMapRun:
    """A* (the world's :func:`~reference.solutions.shortest_paths.astar`) as one planning episode:
    the agent plans the whole path, then walks it."""
    began = time.process_time()
    result = astar(grid, start, goal, connectivity=connectivity)
    seconds = time.process_time() - began
    record = SearchRecord(start=start, goal=goal, expanded=result.expanded, path=result.path)
    trace = Trace("astar", "larger_g", result.found, result.path or [start], [record])
    return KnownMapRun(trace, result.cost, [seconds])


def algorithm_table(astar_run: Callable, lrta_star: Callable, lrta_star_subgoaling: Callable) -> dict[str, Callable]:
    """The algorithms by the names traces and the command line use, made from one engine's three
    entry points (this package's, or the compiled twins' of
    :mod:`reference.solutions.compiled.subgoaling`). Each is called
    ``(grid, start, goal, connectivity, tree, max_moves)``; ``tree`` is the goal's subgoal tree, built
    beforehand (preprocessing; only the subgoaling variants read it)."""

    def subgoaling(first_goal: str, switch: str = "any_tree_state") -> Callable:
        return lambda grid, start, goal, connectivity, tree, max_moves: lrta_star_subgoaling(
            grid, start, goal, connectivity, tree, first_goal, max_moves, switch)

    return {
        "astar": lambda grid, start, goal, connectivity, tree, max_moves: astar_run(grid, start, goal, connectivity),
        "lrta": lambda grid, start, goal, connectivity, tree, max_moves:
            lrta_star(grid, start, goal, connectivity, max_moves),
        "lrta_subgoal": subgoaling("nearest"),
        "lrta_subgoal_sub": subgoaling("sub"),
        "lrta_subgoal_arrival": subgoaling("nearest", "on_arrival"),
        "lrta_subgoal_sub_arrival": subgoaling("sub", "on_arrival"),
    }


#: The readable algorithms by name (:func:`algorithm_table`).
ALGORITHMS: dict[str, Callable[..., KnownMapRun]] = algorithm_table(astar_run, lrta_star, lrta_star_subgoaling)

assert set(ALGORITHMS) <= set(TRACE_NAMES), "every subgoaling algorithm has a trace name"


def run_algorithm(name: str, grid: Gridworld, start: Cell, goal: Cell, connectivity: int = 8,
                  tree: SubgoalTree | None = None, max_moves: int | None = None) -> KnownMapRun:
    """Run the algorithm called ``name`` (a key of :data:`ALGORITHMS`) on a known map."""
    if name not in ALGORITHMS:
        raise ValueError(f"unknown algorithm {name!r}; choose one of {', '.join(ALGORITHMS)}")
    return ALGORITHMS[name](grid, start, goal, connectivity, tree, max_moves)


__all__ = [
    "ALGORITHMS", "FIRST_GOALS", "SWITCHES", "KnownMapRun", "SubgoalTree", "algorithm_table", "astar_run",
    "build_subgoal_tree", "lrta_star", "lrta_star_subgoaling", "run_algorithm",
]
