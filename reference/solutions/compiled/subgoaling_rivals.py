"""The compiled twins of kNN LRTA*'s path compression (SPEC §16): hill-climbing checks in Numba.

:func:`compress_path_compiled` returns what :func:`reference.solutions.subgoaling.knn_lrta.compress_path`
returns, and :func:`hill_climb_reaches` says what the first half of
:func:`reference.solutions.subgoaling.pursuit.hill_climb` says: the same successor order (the
world's move table and :func:`.shortest_paths.move_rule`), the same strict ``<`` among successors
(the first in successor order wins a tie), and the same doubles (``a + b * SQRT2`` from the exact
pairs, as :func:`~reference.world.grid.cost_value` computes them), so every choice is the readable
code's. They serve ``build_knn_database(..., engine="compiled")``, whose records the tests hold
equal to the readable ones; the readable code is the one to read.

>>> from reference.world.grid import Gridworld
>>> grid = Gridworld.from_strings(["....", ".@@.", "...."])
>>> compress_path_compiled(grid, [(0, 1), (0, 2), (0, 3), (1, 3), (2, 3), (2, 2)], 4)
[(2, 3), (2, 2)]
>>> hill_climb_reaches(grid, (0, 1), (0, 3), 8), hill_climb_reaches(grid, (0, 1), (2, 2), 8)
(True, False)
"""

from __future__ import annotations

import numpy as np
from numba import njit

from reference.solutions.shortest_paths import blocked_array
from reference.solutions.subgoaling.pursuit import CLIMB_LIMIT
from reference.world.grid import MOVES, SQRT2, Cell, Gridworld

from .shortest_paths import move_rule

#: The move tables of each connectivity as arrays Numba can index, in successor order.
MOVE_TABLES = {c: (np.array([m[0] for m in moves], np.int64), np.array([m[1] for m in moves], np.int64))
               for c, moves in MOVES.items()}


@njit(cache=True)
def _h(row, col, target_row, target_col, connectivity):
    """The exact heuristic pair: Manhattan ``(d, 0)`` or octile ``(|dr - dc|, min(dr, dc))``."""
    d_row, d_col = abs(row - target_row), abs(col - target_col)
    if connectivity == 4:
        return d_row + d_col, 0
    return abs(d_row - d_col), min(d_row, d_col)


@njit(cache=True)
def _climbs(blocked, start, target, connectivity, limit, move_rows, move_cols, sqrt2):
    """``hill_climb``'s verdict from cell index ``start`` to ``target`` (no list of expanded states)."""
    height, width = blocked.shape
    row, col = start // width, start % width
    target_row, target_col = target // width, target % width
    steps = 0
    while row != target_row or col != target_col:
        if steps >= limit:
            return False
        steps += 1
        h_a, h_b = _h(row, col, target_row, target_col, connectivity)
        here = h_a + h_b * sqrt2
        found, best_row, best_col, best_value = False, 0, 0, 0.0
        for k in range(move_rows.shape[0]):
            r, c, diagonal, allowed = move_rule(blocked, height, width, row, col, move_rows[k], move_cols[k])
            if not allowed:
                continue
            y_a, y_b = _h(r, c, target_row, target_col, connectivity)
            if diagonal:
                y_b += 1
            else:
                y_a += 1
            value = y_a + y_b * sqrt2
            if not found or value < best_value:
                found, best_row, best_col, best_value = True, r, c, value
        if not found:
            return False
        b_a, b_b = _h(best_row, best_col, target_row, target_col, connectivity)
        if b_a + b_b * sqrt2 >= here:
            return False
        row, col = best_row, best_col
    return True


@njit(cache=True)
def _compress(blocked, path, connectivity, limit, move_rows, move_cols, sqrt2):
    """``compress_path`` over cell indices: the indices into ``path`` of its subgoals."""
    chosen = np.empty(path.shape[0], np.int64)
    count, i = 0, 0
    while i < path.shape[0] - 1:
        j = i + 1
        while j + 1 < path.shape[0] and _climbs(blocked, path[i], path[j + 1], connectivity, limit,
                                                move_rows, move_cols, sqrt2):
            j += 1
        chosen[count] = j
        count += 1
        i = j
    return chosen[:count]


def _blocked(grid: Gridworld | np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(blocked_array(grid), dtype=np.bool_)


def hill_climb_reaches(grid: Gridworld | np.ndarray, start: Cell, target: Cell, connectivity: int = 8,
                       limit: int = CLIMB_LIMIT) -> bool:
    """Whether ``target`` is hill-climbing reachable from ``start`` (``pursuit.hill_climb(...)[0]``)."""
    blocked = _blocked(grid)
    width = blocked.shape[1]
    rows, cols = MOVE_TABLES[connectivity]
    return bool(_climbs(blocked, start[0] * width + start[1], target[0] * width + target[1], connectivity, limit,
                        rows, cols, SQRT2))


def compress_path_compiled(grid: Gridworld | np.ndarray, path: list[Cell], connectivity: int = 8,
                           limit: int = CLIMB_LIMIT) -> list[Cell]:
    """The compiled twin of ``knn_lrta.compress_path``: same arguments, same subgoals."""
    blocked = _blocked(grid)
    width = blocked.shape[1]
    rows, cols = MOVE_TABLES[connectivity]
    indices = np.array([r * width + c for r, c in path], np.int64)
    return [path[j] for j in _compress(blocked, indices, connectivity, limit, rows, cols, SQRT2).tolist()]


@njit(cache=True)
def _entries(blocked, region_of, representatives, b, straight, diagonal, move_rows, move_cols):
    """For every region ``a``: the first cell outside ``a`` on the optimal path from ``a``'s
    representative toward the source of the costs (``b``'s), the first optimal move in successor
    order each time; -1 for ``a == b`` or a representative the costs do not reach."""
    height, width = blocked.shape
    out = np.full(representatives.shape[0], -1, np.int64)
    for a in range(representatives.shape[0]):
        cell = representatives[a]
        if a == b or straight[cell] < 0:
            continue
        while region_of[cell] == a:
            row, col = cell // width, cell % width
            for k in range(move_rows.shape[0]):
                r, c, diagonal_move, allowed = move_rule(blocked, height, width, row, col, move_rows[k], move_cols[k])
                n = r * width + c
                if not allowed or straight[n] < 0:
                    continue
                if straight[n] + (0 if diagonal_move else 1) == straight[cell] and \
                        diagonal[n] + (1 if diagonal_move else 0) == diagonal[cell]:
                    cell = n
                    break
        out[a] = cell
    return out


def region_entries(blocked: np.ndarray, region_of: np.ndarray, representatives: list[Cell], b: int
                   ) -> tuple[list[Cell | None], int]:
    """The compiled inner loop of ``d_lrta.build_d_lrta_database`` for region ``b``: Dijkstra from
    ``b``'s representative (:func:`.haa.distances_compiled`, exact costs), then for every region
    ``a`` the cell where the first optimal path from ``a``'s representative leaves ``a`` (None:
    ``a == b`` or unreachable). Also the states Dijkstra expanded (every reachable one).
    ``region_of``: each cell's region (-1 blocked), flat."""
    from .haa import distances_compiled

    blocked = np.ascontiguousarray(blocked, dtype=np.bool_)
    width = blocked.shape[1]
    straight, diagonal = distances_compiled(blocked, representatives[b])
    indices = np.array([r * width + c for r, c in representatives], np.int64)
    rows, cols = MOVE_TABLES[8]
    out = _entries(blocked, region_of, indices, b, straight.ravel(), diagonal.ravel(), rows, cols)
    return [None if i < 0 else divmod(int(i), width) for i in out.tolist()], int((straight >= 0).sum())
