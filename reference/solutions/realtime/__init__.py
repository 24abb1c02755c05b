"""Real-time and incremental search for the same fog-of-war agent (Koenig 2004).

- :func:`lrta_star`: Korf's LRTA* with lookahead one (``lrta.py``).
- :func:`lrta_star_lookahead`: Koenig's LRTA* with an A* lookahead of n expansions and a Dijkstra
  value update; :func:`lrta_star_bfs`: the same with breadth-first local search (``lookahead.py``).
- :func:`dstar_lite`: D* Lite, optimized final version, searching from the target (``dstar_lite.py``).

Each takes the public world object (``height``, ``width``, ``sense``), the start and the target,
a heuristic name (``"strong"``: Manhattan, ``"weak"``: max(|dx|, |dy|)), and optionally the agent's
initial :class:`~reference.world.sensing.Knowledge` (pass :func:`knowledge_of(grid) <knowledge_of>` for
known terrain). Each moves the agent with the kit's agent core
(:func:`~reference.solutions.agent.run_agent`) and returns a :class:`RealtimeRun`: a SPEC §8 trace
with one record per planning episode, plus each episode's planning time.

:data:`ALGORITHMS` holds them by name (a :class:`~reference.solutions.registry.Registry`): the
settings go to the planner, keyword-only, the problem to its ``run(world, start, target)``;
:func:`run_algorithm` does both in one call.

>>> from reference.world import FogOfWarWorld, Gridworld
>>> grid = Gridworld.from_strings(["....", ".@@.", "...."])
>>> [run_algorithm(name, FogOfWarWorld(grid, (2, 0)), (2, 0), (0, 3), lookahead=3).moves
...  for name in ALGORITHMS]
[5, 5, 5, 5]
>>> planner = ALGORITHMS.planner("lrta_astar", lookahead=3, heuristic="weak")
>>> planner.run(FogOfWarWorld(grid, (2, 0)), (2, 0), (0, 3)).moves
5
>>> ALGORITHMS.settings("dstar_lite")
('heuristic', 'knowledge')
"""

from __future__ import annotations

from reference.world.grid import Cell
from reference.world.sensing import Knowledge, World
from reference.world.trace import ALGORITHMS as TRACE_NAMES

from ..registry import Registry, bind
from .agent import EpisodicAgent, RealtimeRun, knowledge_of
from .dstar_lite import DStarLite, dstar_lite
from .heuristics import HEURISTICS, chebyshev
from .lookahead import LookaheadLRTA, lrta_star_bfs, lrta_star_lookahead
from .lrta import KorfLRTA, lrta_star

#: The planners by trace name: settings keyword-only (``ALGORITHMS.settings(name)`` lists them), the
#: problem to the planner's ``run(world, start, target)``.
ALGORITHMS = Registry({
    "lrta": bind(lrta_star),
    "lrta_astar": bind(lrta_star_lookahead),
    "lrta_bfs": bind(lrta_star_bfs),
    "dstar_lite": bind(dstar_lite),
})

assert set(ALGORITHMS) <= set(TRACE_NAMES), "every real-time algorithm has a trace name"


def run_algorithm(name: str, world: World, start: Cell, target: Cell, *, heuristic: str = "strong",
                  lookahead: int = 1, knowledge: Knowledge | None = None, successors: str = "fixed",
                  seed: int = 0) -> RealtimeRun:
    """Run the algorithm called ``name`` (a key of :data:`ALGORITHMS`) with those of the settings it
    takes: ``lookahead``, ``successors`` and ``seed`` (the successor order of the lookahead searches)
    matter to ``lrta_astar`` and ``lrta_bfs`` only.

    Parameters
    ----------
    name : {"lrta", "lrta_astar", "lrta_bfs", "dstar_lite"}
    world : World
        The public world object: ``height``, ``width`` and ``sense(cell)`` (SPEC §4).
    start, target : Cell
        ``(row, col)`` of the agent's first cell and of the target.
    heuristic : {"strong", "weak"}
    lookahead : int
        Expansions per episode of ``lrta_astar``, states per episode of ``lrta_bfs``.
    knowledge : Knowledge, optional
        What the agent knows before it starts (:func:`knowledge_of` the grid: known terrain).
    successors : {"fixed", "random"}
    seed : int

    Returns
    -------
    RealtimeRun
        The SPEC §8 trace and each episode's planning time.

    Raises
    ------
    ValueError
        An unknown ``name``, or what the algorithm itself refuses (see :func:`lrta_star_lookahead`).

    See Also
    --------
    lrta_star, lrta_star_lookahead, lrta_star_bfs, dstar_lite : the algorithms it runs.
    reference.solutions.compiled.realtime.run_compiled : the compiled twin, the same traces.

    Examples
    --------
    >>> from reference.world import FogOfWarWorld, Gridworld
    >>> grid = Gridworld.from_strings(["...", ".@.", "..."])
    >>> run_algorithm("lrta_bfs", FogOfWarWorld(grid, (2, 0)), (2, 0), (0, 2), lookahead=2).episodes
    3
    """
    settings = ALGORITHMS.those_taken(name, heuristic=heuristic, lookahead=lookahead, knowledge=knowledge,
                                      successors=successors, seed=seed)
    return ALGORITHMS.planner(name, **settings).run(world, start, target)


__all__ = [
    "ALGORITHMS", "HEURISTICS", "DStarLite", "EpisodicAgent", "KorfLRTA", "LookaheadLRTA", "RealtimeRun",
    "chebyshev", "dstar_lite", "knowledge_of", "lrta_star", "lrta_star_bfs", "lrta_star_lookahead",
    "run_algorithm",
]
