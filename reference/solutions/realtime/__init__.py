"""Real-time and incremental search for the same fog-of-war agent (Koenig 2004).

- :func:`lrta_star`: Korf's LRTA* with lookahead one (``lrta.py``).
- :func:`lrta_star_lookahead`: Koenig's LRTA* with an A* lookahead of n expansions and a Dijkstra
  value update; :func:`lrta_star_bfs`: the same with breadth-first local search (``lookahead.py``).
- :func:`dstar_lite`: D* Lite, optimized final version, searching from the target (``dstar_lite.py``).

Each takes the public world object (``height``, ``width``, ``sense``), the start and the target,
a heuristic name (``"strong"``: Manhattan, ``"weak"``: max(|dx|, |dy|)), and optionally the agent's
initial :class:`~reference.world.sensing.Knowledge` (pass :func:`knowledge_of(grid) <knowledge_of>` for
known terrain). Each returns a :class:`RealtimeRun`: a SPEC §8 trace with one record per planning
episode, plus each episode's planning time.

>>> from reference.world import FogOfWarWorld, Gridworld
>>> grid = Gridworld.from_strings(["....", ".@@.", "...."])
>>> [run_algorithm(name, FogOfWarWorld(grid, (2, 0)), (2, 0), (0, 3), lookahead=3).moves
...  for name in ALGORITHMS]
[5, 5, 5, 5]
"""

from __future__ import annotations

from typing import Callable

from reference.world.grid import Cell
from reference.world.sensing import Knowledge, World
from reference.world.trace import ALGORITHMS as TRACE_NAMES

from .agent import EpisodicAgent, RealtimeRun, knowledge_of
from .dstar_lite import DStarLite, dstar_lite
from .heuristics import HEURISTICS, chebyshev
from .lookahead import LookaheadLRTA, lrta_star_bfs, lrta_star_lookahead
from .lrta import KorfLRTA, lrta_star

#: Trace algorithm names, and what each runs. The lookahead matters only to the two lookahead variants.
ALGORITHMS: dict[str, Callable[..., RealtimeRun]] = {
    "lrta": lambda world, start, target, heuristic, lookahead, knowledge, **order:
        lrta_star(world, start, target, heuristic, knowledge=knowledge),
    "lrta_astar": lambda world, start, target, heuristic, lookahead, knowledge, **order:
        lrta_star_lookahead(world, start, target, lookahead, heuristic, knowledge=knowledge, **order),
    "lrta_bfs": lambda world, start, target, heuristic, lookahead, knowledge, **order:
        lrta_star_bfs(world, start, target, lookahead, heuristic, knowledge=knowledge, **order),
    "dstar_lite": lambda world, start, target, heuristic, lookahead, knowledge, **order:
        dstar_lite(world, start, target, heuristic, knowledge),
}

assert set(ALGORITHMS) <= set(TRACE_NAMES), "every real-time algorithm has a trace name"


def run_algorithm(name: str, world: World, start: Cell, target: Cell, heuristic: str = "strong",
                  lookahead: int = 1, knowledge: Knowledge | None = None, successors: str = "fixed",
                  seed: int = 0) -> RealtimeRun:
    """Run the algorithm called ``name`` (a key of :data:`ALGORITHMS`). ``successors``, ``seed``:
    the successor order of the lookahead searches (``lrta_astar``, ``lrta_bfs``; the others ignore it)."""
    if name not in ALGORITHMS:
        raise ValueError(f"unknown algorithm {name!r}; choose one of {', '.join(ALGORITHMS)}")
    return ALGORITHMS[name](world, start, target, heuristic, lookahead, knowledge, successors=successors, seed=seed)


__all__ = [
    "ALGORITHMS", "HEURISTICS", "DStarLite", "EpisodicAgent", "KorfLRTA", "LookaheadLRTA", "RealtimeRun",
    "chebyshev", "dstar_lite", "knowledge_of", "lrta_star", "lrta_star_bfs", "lrta_star_lookahead",
    "run_algorithm",
]
