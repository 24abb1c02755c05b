"""The twins' grid and heuristic (``realtime/heuristics.py``, and the flat cell indices of
``realtime/agent.py``): a cell's neighbours on flat indices, the two heuristics, and LRTA*'s h.

>>> import numpy as np
>>> row, column = np.array([0, 0, 1, 1]), np.array([0, 1, 0, 1])     # a 2 x 2 grid, flat
>>> [int(_neighbour(0, d, 2, 4, row, column)) for d in range(4)]     # east, south, west, north of (0, 0)
[1, 2, -1, -1]
>>> int(_distance(0, 3, row, column, False)), int(_distance(0, 3, row, column, True))   # Manhattan, max
(2, 1)
"""

from __future__ import annotations

from numba import njit

#: The twin's infinity: above the readable planners' INFINITY (2**31 - 1) and every finite g, so
#: their comparisons come out alike (tests/world/test_grid_infinity.py).
INFINITY = 1 << 62


@njit(cache=True, inline="always")
def _neighbour(s, direction, width, cells, row, column):
    """The neighbour of cell ``s`` in ``direction`` (0 east, 1 south, 2 west, 3 north), -1 off the grid.

    ``row[s]`` and ``column[s]`` are the cell's coordinates, computed once per run: an integer division
    costs more than the rest of a lookahead-one episode, and these functions run a dozen times a move.
    """
    if direction == 0:
        return s + 1 if column[s] != width - 1 else -1
    if direction == 1:
        return s + width if s + width < cells else -1
    if direction == 2:
        return s - 1 if column[s] != 0 else -1
    return s - width if s >= width else -1


@njit(cache=True, inline="always")
def _distance(a, b, row, column, weak):
    """The heuristic between two cells: Manhattan ("strong") or max(|dr|, |dc|) ("weak")."""
    d_row = abs(row[a] - row[b])
    d_col = abs(column[a] - column[b])
    return max(d_row, d_col) if weak else d_row + d_col


@njit(cache=True, inline="always")
def _h(value, s, target, row, column, weak):
    """LRTA*'s ``h(s)``: the learned value, or the heuristic while the value is not created (-1)."""
    v = value[s]
    return v if v >= 0 else _distance(s, target, row, column, weak)
