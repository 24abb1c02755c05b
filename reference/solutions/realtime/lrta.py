"""Korf's LRTA* with lookahead one (Korf 1990; Koenig 2004, Section 4).

Every cell has a value, an estimate of its distance to the target, created lazily from the
heuristic the first time it is needed and kept for the whole run. Each planning episode looks at the
agent's cell ``s`` only (one expansion: the real-time bound)::

    next = the neighbour s' minimising c(s, s') + h(s')        (ties: east, south, west, north)
    h(s) = max(h(s), c(s, next) + h(next))                      (learning)
    move to next

On the fog-of-war agent, known-blocked neighbours are not candidates. When the agent has no such
neighbour, or its value reaches the number of cells not known to be blocked (no simple path is that
long, and values never exceed the true presumed-free distance because the heuristics are consistent),
the target cannot be reached and the run says so instead of wandering forever.

``tie_break`` cannot matter here (every candidate has g = 1), so both SPEC values behave the same.

>>> from reference.world import FogOfWarWorld, Gridworld
>>> grid = Gridworld.from_strings(["...", ".@.", "..."])
>>> run = lrta_star(FogOfWarWorld(grid, (1, 0)), (1, 0), (1, 2))
>>> run.trace.trajectory
[(1, 0), (2, 0), (2, 1), (2, 2), (1, 2)]
"""

from __future__ import annotations

from reference.world.grid import Cell
from reference.world.sensing import Knowledge, World

from .agent import INFINITY, EpisodicAgent, RealtimeRun


class KorfLRTA(EpisodicAgent):
    """LRTA* with lookahead one: one expansion, one value update and one move per episode."""

    algorithm = "lrta"
    lookahead = 1

    def __init__(self, world: World, start: Cell, target: Cell, heuristic: str = "strong",
                 tie_break: str = "larger_g", knowledge: Knowledge | None = None) -> None:
        super().__init__(world, start, target, heuristic, tie_break, knowledge)
        self.value = [-1] * self.cell_count  # -1: not created yet, use the heuristic

    def h(self, s: int) -> int:
        value = self.value[s]
        return value if value >= 0 else self.distance(s, self.target)

    def plan(self, agent: int) -> tuple[list[int], list[int]]:
        best, best_cost = -1, INFINITY
        for t in self.free_neighbours(agent):  # east, south, west, north: the first minimum wins
            cost = 1 + self.h(t)
            if cost < best_cost:
                best, best_cost = t, cost
        self.value[agent] = max(self.h(agent), best_cost)
        free_cells = self.cell_count - self.known_blocked_count
        if best < 0 or self.value[agent] >= free_cells:
            return [agent], []  # no presumed-unblocked path to the target exists
        return [agent], [agent, best]


def lrta_star(world: World, start: Cell, target: Cell, heuristic: str = "strong",
              tie_break: str = "larger_g", knowledge: Knowledge | None = None) -> RealtimeRun:
    """Korf's LRTA* (lookahead one) for the fog-of-war agent; ``knowledge`` for known terrain.

    Parameters
    ----------
    world : World
        The public world object: ``height``, ``width`` and ``sense(cell)`` (SPEC §4).
    start, target : Cell
        ``(row, col)`` of the agent's first cell and of the target.
    heuristic : {"strong", "weak"}
        The initial values: Manhattan distance, or max(|dx|, |dy|).
    tie_break : {"larger_g", "smaller_g"}
        Recorded in the trace; it cannot matter here (every candidate has g = 1).
    knowledge : Knowledge, optional
        What the agent knows before it starts: nothing (default, unknown terrain), or
        :func:`~reference.solutions.realtime.knowledge_of` the grid (known terrain).

    Returns
    -------
    RealtimeRun
        The SPEC §8 trace (one record per planning episode) and each episode's planning time.

    Raises
    ------
    ValueError
        A start or target outside the grid, an unknown heuristic or tie rule, or knowledge of
        another size.

    See Also
    --------
    lrta_star_lookahead : Koenig's LRTA* with a lookahead of many expansions.
    reference.solutions.compiled.realtime.lrta_star : the compiled twin, the same trace (also
        ``run_compiled(..., "lrta")``).

    Examples
    --------
    >>> from reference.world import FogOfWarWorld, Gridworld
    >>> grid = Gridworld.from_strings(["...", ".@.", "..."])
    >>> run = lrta_star(FogOfWarWorld(grid, (2, 0)), (2, 0), (0, 2))
    >>> run.reached, run.moves, run.episodes
    (True, 4, 4)
    """
    return KorfLRTA(world, start, target, heuristic, tie_break, knowledge).run()
