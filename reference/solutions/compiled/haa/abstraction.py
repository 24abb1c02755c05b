"""Compiled twins (Numba) for HAA*'s builder: a cluster's intra-edges and full-map distances (SPEC §16).

* :func:`build_abstraction` is the twin of :func:`reference.solutions.haa.abstraction.build_abstraction`:
  the readable builder with step 2 (intra-edges) compiled. This is the engine switch: the readable
  builder never imports compiled code, the twin hands it its compiled step.
* :func:`cluster_intra_edges_compiled` is the twin of
  :func:`reference.solutions.haa.abstraction.cluster_intra_edges`: the same edges in the same order
  (a tested property), one compiled call per cluster. Building the abstraction of a 512 × 512 map
  runs tens of thousands of in-cluster searches; compiled, the whole build takes seconds.
* :func:`pair_costs_compiled` is the twin of
  :func:`reference.solutions.haa.abstraction.pair_costs_readable` (optimal costs between given cells
  of a small window), and :func:`distances_compiled` of the world's full Dijkstra (costs from one
  cell to every cell): the evaluation draws its problems with it.

Both run Dijkstra with the world's key ``(g, stamp)`` on the heap of the compiled A*
(:mod:`reference.solutions.compiled.shortest_paths`, whose sift functions they share), with exact
``(straight, diagonal)`` costs. AA* itself is that compiled A* (``astar_cost``).

>>> import numpy as np
>>> blocked = np.array([[False, False, False], [False, True, False], [False, False, False]])
>>> pair_costs_compiled(~blocked, [(0, 0), (0, 2), (2, 2)])[(0, 2)]
(4, 0)
>>> distances_compiled(blocked, (0, 0))[0].tolist()   # straight moves of each shortest path
[[0, 1, 2], [1, -1, 3], [2, 3, 4]]
"""

from __future__ import annotations

import numpy as np
from numba import njit

from reference.solutions.compiled.heap import triple_heap_pop as _pop_min, triple_heap_sift_up as _sift_up
from reference.solutions.compiled.shortest_paths import MOVE_COLS, MOVE_ROWS, move_rule
from reference.solutions.haa import abstraction as readable
from reference.solutions.haa.graph import Abstraction
from reference.world.grid import SQRT2, Cell, Cost


@njit(cache=True)
def _dijkstra(blocked, source, move_rows, move_cols, sqrt2, g_straight, g_diagonal, closed, position, heap, f, tie, stamp):
    """Dijkstra from cell index ``source`` over the whole grid, key ``(g, stamp)`` (``tie`` stays 0).
    Fills ``g_straight``/``g_diagonal`` (exact costs, -1 = unreached); the other arrays are scratch
    (``position`` must be all -1 and ``closed`` all False on entry)."""
    height, width = blocked.shape
    g_straight[source] = 0
    g_diagonal[source] = 0
    heap[0], f[0], tie[0], stamp[0] = source, 0.0, 0.0, 0
    position[source] = 0
    size, stamps = 1, 0
    while size > 0:
        s, size = _pop_min(heap, f, tie, stamp, position, size)
        closed[s] = True
        row, col = s // width, s % width
        # The world's move rule (SPEC §12), one function for every compiled search (its cost,
        # measured against the rule written out: shortest_paths.move_rule's docstring).
        for move in range(8):
            r, c, diagonal, allowed = move_rule(blocked, height, width, row, col, move_rows[move], move_cols[move])
            if not allowed:
                continue
            t = r * width + c
            if closed[t]:
                continue
            new_straight = g_straight[s] + (0 if diagonal else 1)
            new_diagonal = g_diagonal[s] + (1 if diagonal else 0)
            new_value = float(new_straight) + float(new_diagonal) * sqrt2
            if g_straight[t] >= 0 and not new_value < float(g_straight[t]) + float(g_diagonal[t]) * sqrt2:
                continue
            g_straight[t] = new_straight
            g_diagonal[t] = new_diagonal
            stamps += 1
            i = position[t]
            if i < 0:
                i = size
                size += 1
                heap[i] = t
                position[t] = i
            f[i] = new_value
            tie[i] = 0.0
            stamp[i] = stamps
            _sift_up(heap, f, tie, stamp, position, i)  # a key only ever falls


@njit(cache=True)
def _distances_kernel(blocked, source, move_rows, move_cols, sqrt2):
    n = blocked.size
    g_straight = np.full(n, -1, np.int64)
    g_diagonal = np.full(n, -1, np.int64)
    _dijkstra(blocked, source, move_rows, move_cols, sqrt2, g_straight, g_diagonal, np.zeros(n, np.bool_),
              np.full(n, -1, np.int64), np.empty(n, np.int64), np.empty(n, np.float64), np.empty(n, np.float64),
              np.empty(n, np.int64))
    return g_straight, g_diagonal


def distances_compiled(blocked: np.ndarray, source: Cell) -> tuple[np.ndarray, np.ndarray]:
    """Exact costs from ``source`` to every cell, as two ``(H, W)`` arrays of straight and diagonal
    moves (-1 where unreachable): the world's full eight-connected Dijkstra, compiled."""
    blocked = np.ascontiguousarray(blocked, dtype=np.bool_)
    a, b = _distances_kernel(blocked, source[0] * blocked.shape[1] + source[1], MOVE_ROWS, MOVE_COLS, SQRT2)
    return a.reshape(blocked.shape), b.reshape(blocked.shape)


@njit(cache=True)
def _pair_costs_kernel(blocked, sources, move_rows, move_cols, sqrt2):
    n = blocked.size
    count = sources.shape[0]
    a_pairs = np.full((count, count), -1, np.int64)
    b_pairs = np.full((count, count), -1, np.int64)
    g_straight = np.empty(n, np.int64)
    g_diagonal = np.empty(n, np.int64)
    closed = np.empty(n, np.bool_)
    position = np.empty(n, np.int64)
    heap = np.empty(n, np.int64)
    f = np.empty(n, np.float64)
    tie = np.empty(n, np.float64)
    stamp = np.empty(n, np.int64)
    for i in range(count - 1):
        if blocked.flat[sources[i]]:
            continue
        g_straight[:] = -1
        g_diagonal[:] = -1
        closed[:] = False
        position[:] = -1
        _dijkstra(blocked, sources[i], move_rows, move_cols, sqrt2, g_straight, g_diagonal, closed, position,
                  heap, f, tie, stamp)
        for j in range(i + 1, count):
            a_pairs[i, j] = g_straight[sources[j]]
            b_pairs[i, j] = g_diagonal[sources[j]]
    return a_pairs, b_pairs


def pair_costs_compiled(open_window: np.ndarray, cells: list[Cell]) -> dict[tuple[int, int], Cost]:
    """Twin of ``pair_costs_readable``: ``{(i, j): cost}`` for ``i < j`` joined inside the window."""
    blocked = np.ascontiguousarray(~np.asarray(open_window, dtype=bool))
    width = blocked.shape[1]
    sources = np.array([r * width + c for r, c in cells], dtype=np.int64)
    a_pairs, b_pairs = _pair_costs_kernel(blocked, sources, MOVE_ROWS, MOVE_COLS, SQRT2)
    return {(i, j): (int(a_pairs[i, j]), int(b_pairs[i, j]))
            for i in range(len(cells)) for j in range(i + 1, len(cells)) if a_pairs[i, j] >= 0}


@njit(cache=True)
def _intra_edges_kernel(windows, masks, sources, max_size, low_quality, move_rows, move_cols, sqrt2):
    """Twin of ``cluster_intra_edges`` (one cluster): rows ``(i, j, mask, size, a, b)`` in the order
    the readable code keeps them. ``windows[m]`` is the clearance window of capability ``masks[m]``."""
    count = sources.shape[0]
    combos = masks.shape[0] * max_size
    # kept[i, j, slot] = (mask, size, a, b) of the edges kept between nodes i < j
    kept = np.zeros((count, count, combos, 4), np.int64)
    kept_count = np.zeros((count, count), np.int64)
    rows = np.zeros((count * count * combos // 2 + 1, 6), np.int64)
    row_count = 0
    # windows already searched, and their pair costs (equal windows give equal costs)
    seen_blocked = np.zeros((combos, windows.shape[1], windows.shape[2]), np.bool_)
    seen_a = np.zeros((combos, count, count), np.int64)
    seen_b = np.zeros((combos, count, count), np.int64)
    seen = 0
    for m in range(masks.shape[0]):
        mask = masks[m]
        for size in range(max_size, 0, -1):
            blocked = windows[m] < size
            found = -1
            for s in range(seen):
                if (seen_blocked[s] == blocked).all():
                    found = s
                    break
            if found < 0:
                a_pairs, b_pairs = _pair_costs_kernel(blocked, sources, move_rows, move_cols, sqrt2)
                seen_blocked[seen] = blocked
                seen_a[seen] = a_pairs
                seen_b[seen] = b_pairs
                found = seen
                seen += 1
            for i in range(count - 1):
                for j in range(i + 1, count):
                    a = seen_a[found, i, j]
                    if a < 0:
                        continue
                    b = seen_b[found, i, j]
                    dominated = False
                    for k in range(kept_count[i, j]):
                        k_mask, k_size = kept[i, j, k, 0], kept[i, j, k, 1]
                        if k_mask & ~mask == 0 and k_size >= size:
                            if low_quality or (kept[i, j, k, 2] == a and kept[i, j, k, 3] == b):
                                dominated = True
                                break
                    if dominated:
                        continue
                    k = kept_count[i, j]
                    kept[i, j, k, 0], kept[i, j, k, 1], kept[i, j, k, 2], kept[i, j, k, 3] = mask, size, a, b
                    kept_count[i, j] = k + 1
                    rows[row_count, 0], rows[row_count, 1], rows[row_count, 2] = i, j, mask
                    rows[row_count, 3], rows[row_count, 4], rows[row_count, 5] = size, a, b
                    row_count += 1
    return rows[:row_count]


def cluster_intra_edges_compiled(windows: dict[int, np.ndarray], cells: list[Cell], max_size: int,
                                 quality: str) -> list[tuple[int, int, int, int, Cost]]:
    """Twin of :func:`reference.solutions.haa.abstraction.cluster_intra_edges`: the same edges in
    the same order, computed in one compiled call per cluster."""
    masks = np.array(list(windows), dtype=np.int64)
    stacked = np.ascontiguousarray(np.stack([windows[int(m)] for m in masks]).astype(np.int64))
    width = stacked.shape[2]
    sources = np.array([r * width + c for r, c in cells], dtype=np.int64)
    rows = _intra_edges_kernel(stacked, masks, sources, max_size, quality == "low", MOVE_ROWS, MOVE_COLS, SQRT2)
    return [(i, j, m, s, (a, b)) for i, j, m, s, a, b in rows.tolist()]  # tolist: Python ints at once


def build_abstraction(terrain: np.ndarray, cluster_size: int = readable.DEFAULT_CLUSTER_SIZE, quality: str = "high",
                      max_size: int = readable.DEFAULT_MAX_SIZE) -> Abstraction:
    """Twin of :func:`reference.solutions.haa.abstraction.build_abstraction`: the same graph, its
    intra-edges computed by :func:`cluster_intra_edges_compiled`.

    >>> from reference.world.terrain import terrain_from_strings
    >>> graph = build_abstraction(terrain_from_strings(["....", ".@..", "....", "...."]), cluster_size=2, max_size=2)
    >>> len(graph.node_cells), graph.edge_count()
    (7, 7)
    """
    return readable.build_abstraction(terrain, cluster_size, quality, max_size, intra_edges=cluster_intra_edges_compiled)
