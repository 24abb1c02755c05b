"""Compiled twins (Numba) for HAA*'s experiments: in-cluster distances and full-map AA* (SPEC §16).

* :func:`pair_costs_compiled` is the twin of
  :func:`reference.solutions.haa.abstraction.pair_costs_readable`: the optimal eight-connected cost
  between every two given cells of a small open window (one Dijkstra per source), as exact
  ``(straight, diagonal)`` pairs. Building the abstraction of a 512 × 512 map runs tens of thousands
  of these searches; compiled, the whole build takes seconds.
* :func:`astar_compiled` is the twin of the world's eight-connected A*
  (:func:`reference.solutions.shortest_paths.astar`) on a blocked array: the same key
  ``(f, -g, stamp)``, the same stopping rule (``g(goal) <= min f``), the same successor order, so the
  same expansions in the same order (tests compare them). The evaluation runs AA* on every problem.

Costs are kept as integer pairs; keys use the double ``a + b·√2`` computed from the pair, as the
readable code does, so both order states identically.

>>> import numpy as np
>>> blocked = np.array([[False, False, False], [False, True, False], [False, False, False]])
>>> astar_compiled(blocked, (0, 0), (2, 2))
((4, 0), 5)
>>> pair_costs_compiled(~blocked, [(0, 0), (0, 2), (2, 2)])[(0, 2)]
(4, 0)
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from reference.world.grid import Cell, Cost

SQRT2 = math.sqrt(2.0)

# Moves clockwise from east (SPEC §12): E, SE, S, SW, W, NW, N, NE.
_DR = np.array([0, 1, 1, 1, 0, -1, -1, -1], dtype=np.int64)
_DC = np.array([1, 1, 0, -1, -1, -1, 0, 1], dtype=np.int64)


# -- a binary heap with three-part keys (f, tie, stamp), compared in that order ----------------

@njit(cache=True)
def _less(kf, kt, ks, i, j):
    if kf[i] != kf[j]:
        return kf[i] < kf[j]
    if kt[i] != kt[j]:
        return kt[i] < kt[j]
    return ks[i] < ks[j]


@njit(cache=True)
def _swap(kf, kt, ks, items, pos, i, j):
    kf[i], kf[j] = kf[j], kf[i]
    kt[i], kt[j] = kt[j], kt[i]
    ks[i], ks[j] = ks[j], ks[i]
    items[i], items[j] = items[j], items[i]
    pos[items[i]] = i
    pos[items[j]] = j


@njit(cache=True)
def _sift_up(kf, kt, ks, items, pos, i):
    while i > 0:
        parent = (i - 1) // 2
        if _less(kf, kt, ks, i, parent):
            _swap(kf, kt, ks, items, pos, i, parent)
            i = parent
        else:
            break


@njit(cache=True)
def _sift_down(kf, kt, ks, items, pos, i, size):
    while True:
        left = 2 * i + 1
        if left >= size:
            break
        smallest = left
        if left + 1 < size and _less(kf, kt, ks, left + 1, left):
            smallest = left + 1
        if _less(kf, kt, ks, smallest, i):
            _swap(kf, kt, ks, items, pos, i, smallest)
            i = smallest
        else:
            break


@njit(cache=True)
def _search(blocked, start, goal, use_heuristic, a_out, b_out, closed, pos, kf, kt, ks, items, stop_at_goal):
    """A* (``use_heuristic``) or Dijkstra from cell index ``start``. Fills ``a_out``/``b_out``
    (exact g, -1 = unreached) and ``closed``; returns the number of expansions."""
    height, width = blocked.shape
    goal_row, goal_col = goal // width, goal % width
    size = 0
    stamp = 0
    expansions = 0
    a_out[start] = 0
    b_out[start] = 0
    # push start
    kf[0] = 0.0
    if use_heuristic:
        dr, dc = abs(start // width - goal_row), abs(start % width - goal_col)
        kf[0] = (max(dr, dc) - min(dr, dc)) + min(dr, dc) * SQRT2
    kt[0] = 0.0
    ks[0] = 0
    items[0] = start
    pos[start] = 0
    size = 1
    while size > 0:
        if stop_at_goal and a_out[goal] >= 0 and a_out[goal] + b_out[goal] * SQRT2 <= kf[0]:
            break
        cell = items[0]
        # pop
        size -= 1
        pos[cell] = -1
        if size > 0:
            kf[0], kt[0], ks[0], items[0] = kf[size], kt[size], ks[size], items[size]
            pos[items[0]] = 0
            _sift_down(kf, kt, ks, items, pos, 0, size)
        closed[cell] = True
        expansions += 1
        if not use_heuristic and stop_at_goal and cell == goal:
            break
        row, col = cell // width, cell % width
        for move in range(8):
            r, c = row + _DR[move], col + _DC[move]
            if r < 0 or r >= height or c < 0 or c >= width or blocked[r, c]:
                continue
            diagonal = _DR[move] != 0 and _DC[move] != 0
            if diagonal and (blocked[r, col] or blocked[row, c]):
                continue
            successor = r * width + c
            if closed[successor]:
                continue
            a_new = a_out[cell] + (0 if diagonal else 1)
            b_new = b_out[cell] + (1 if diagonal else 0)
            g_new = a_new + b_new * SQRT2
            if a_out[successor] < 0 or g_new < a_out[successor] + b_out[successor] * SQRT2:
                a_out[successor] = a_new
                b_out[successor] = b_new
                stamp += 1
                f = g_new
                if use_heuristic:
                    dr, dc = abs(r - goal_row), abs(c - goal_col)
                    f += (max(dr, dc) - min(dr, dc)) + min(dr, dc) * SQRT2
                i = pos[successor]
                if i < 0:
                    i = size
                    size += 1
                    items[i] = successor
                    pos[successor] = i
                kf[i] = f
                kt[i] = -g_new if use_heuristic else 0.0
                ks[i] = stamp
                _sift_up(kf, kt, ks, items, pos, i)
                _sift_down(kf, kt, ks, items, pos, pos[successor], size)
    return expansions


@njit(cache=True)
def _astar_kernel(blocked, start, goal):
    n = blocked.size
    a_out = np.full(n, -1, np.int64)
    b_out = np.full(n, -1, np.int64)
    closed = np.zeros(n, np.bool_)
    pos = np.full(n, -1, np.int64)
    kf = np.empty(n, np.float64)
    kt = np.empty(n, np.float64)
    ks = np.empty(n, np.int64)
    items = np.empty(n, np.int64)
    expansions = _search(blocked, start, goal, True, a_out, b_out, closed, pos, kf, kt, ks, items, True)
    return a_out[goal], b_out[goal], expansions


def astar_compiled(blocked: np.ndarray, start: Cell, goal: Cell) -> tuple[Cost | None, int]:
    """``(cost, expansions)`` of the world's eight-connected A* from ``start`` to ``goal`` (cost None
    when there is no path). Start and goal must be unblocked."""
    blocked = np.ascontiguousarray(blocked, dtype=np.bool_)
    width = blocked.shape[1]
    a, b, expansions = _astar_kernel(blocked, start[0] * width + start[1], goal[0] * width + goal[1])
    return ((int(a), int(b)) if a >= 0 else None), int(expansions)


@njit(cache=True)
def _pair_costs_kernel(blocked, sources):
    n = blocked.size
    count = sources.shape[0]
    a_pairs = np.full((count, count), -1, np.int64)
    b_pairs = np.full((count, count), -1, np.int64)
    a_out = np.empty(n, np.int64)
    b_out = np.empty(n, np.int64)
    closed = np.empty(n, np.bool_)
    pos = np.empty(n, np.int64)
    kf = np.empty(n, np.float64)
    kt = np.empty(n, np.float64)
    ks = np.empty(n, np.int64)
    items = np.empty(n, np.int64)
    for i in range(count - 1):
        if blocked.flat[sources[i]]:
            continue
        a_out[:] = -1
        b_out[:] = -1
        closed[:] = False
        pos[:] = -1
        _search(blocked, sources[i], sources[i], False, a_out, b_out, closed, pos, kf, kt, ks, items, False)
        for j in range(i + 1, count):
            a_pairs[i, j] = a_out[sources[j]]
            b_pairs[i, j] = b_out[sources[j]]
    return a_pairs, b_pairs


def pair_costs_compiled(open_window: np.ndarray, cells: list[Cell]) -> dict[tuple[int, int], Cost]:
    """Twin of ``pair_costs_readable``: ``{(i, j): cost}`` for ``i < j`` joined inside the window."""
    blocked = np.ascontiguousarray(~np.asarray(open_window, dtype=bool))
    width = blocked.shape[1]
    sources = np.array([r * width + c for r, c in cells], dtype=np.int64)
    a_pairs, b_pairs = _pair_costs_kernel(blocked, sources)
    return {(i, j): (int(a_pairs[i, j]), int(b_pairs[i, j]))
            for i in range(len(cells)) for j in range(i + 1, len(cells)) if a_pairs[i, j] >= 0}


@njit(cache=True)
def _distances_kernel(blocked, source):
    n = blocked.size
    a_out = np.full(n, -1, np.int64)
    b_out = np.full(n, -1, np.int64)
    closed = np.zeros(n, np.bool_)
    pos = np.full(n, -1, np.int64)
    kf = np.empty(n, np.float64)
    kt = np.empty(n, np.float64)
    ks = np.empty(n, np.int64)
    items = np.empty(n, np.int64)
    _search(blocked, source, source, False, a_out, b_out, closed, pos, kf, kt, ks, items, False)
    return a_out, b_out


def distances_compiled(blocked: np.ndarray, source: Cell) -> tuple[np.ndarray, np.ndarray]:
    """Exact costs from ``source`` to every cell, as two ``(H, W)`` arrays of straight and diagonal
    moves (-1 where unreachable): the world's full Dijkstra, compiled (the evaluation draws goals
    among the cells a start reaches, and reads their optimal costs here)."""
    blocked = np.ascontiguousarray(blocked, dtype=np.bool_)
    a, b = _distances_kernel(blocked, source[0] * blocked.shape[1] + source[1])
    return a.reshape(blocked.shape), b.reshape(blocked.shape)


@njit(cache=True)
def _intra_edges_kernel(windows, masks, sources, max_size, low_quality):
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
                a_pairs, b_pairs = _pair_costs_kernel(blocked, sources)
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
    rows = _intra_edges_kernel(stacked, masks, sources, max_size, quality == "low")
    return [(i, j, m, s, (a, b)) for i, j, m, s, a, b in rows.tolist()]  # tolist: Python ints at once
