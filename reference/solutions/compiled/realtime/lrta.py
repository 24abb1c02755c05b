"""Twin of ``realtime/lrta.py``: one episode of Korf's LRTA* (``KorfLRTA.plan``), compiled.

The run loop (:mod:`.agent`) calls it; :func:`reference.solutions.compiled.realtime.lrta_star` runs it.
"""

from __future__ import annotations

from numba import njit

from .heuristics import INFINITY, _h, _neighbour


# -- Korf's LRTA* (lrta.py: KorfLRTA.plan) ----------------------------------------------------------------


@njit(cache=True, inline="always")
def _plan_korf(agent, target, width, cells, row, column, weak, known, free_cells, value, expanded, path):
    best, best_cost = -1, INFINITY
    for direction in range(4):  # east, south, west, north: the first minimum wins
        t = _neighbour(agent, direction, width, cells, row, column)
        if t >= 0 and not known[t]:
            cost = 1 + _h(value, t, target, row, column, weak)
            if cost < best_cost:
                best, best_cost = t, cost
    value[agent] = max(_h(value, agent, target, row, column, weak), best_cost)
    expanded[0] = agent
    if best < 0 or value[agent] >= free_cells:
        return 1, 0  # no presumed-unblocked path to the target exists
    path[0], path[1] = agent, best
    return 1, 2
