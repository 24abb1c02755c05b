"""Twin of ``realtime/dstar_lite.py``: one planning episode of D* Lite (``DStarLite.plan``) with its
packed keys, compiled.

The run loop (:mod:`.agent`) calls :func:`_plan_dstar`; the public twin is
:func:`reference.solutions.compiled.realtime.dstar_lite`.
"""

from __future__ import annotations

from numba import njit

from ..heap import (heap_push, heap_remove, heap_renumber_stamps, heap_update, triple_heap_remove,
                   triple_heap_sift_down, triple_heap_sift_up)
from .heuristics import INFINITY, _distance, _neighbour

#: Status codes of the compiled run (anything but OK is a bug, raised as RuntimeError).
OK, G_NOT_DESCENDING, TOO_MANY_EXPANSIONS = 0, 1, 2


# -- D* Lite (dstar_lite.py: DStarLite) -------------------------------------------------------------


@njit(cache=True, inline="always")
def _dstar_key(s, agent, km, g, rhs, row, column, weak):
    """DStarLite.key: CalculateKey(s) = (min(g, rhs) + h(agent, s) + km, min(g, rhs))."""
    k2 = min(g[s], rhs[s])
    if k2 >= INFINITY:
        return INFINITY, INFINITY
    return k2 + _distance(agent, s, row, column, weak) + km, k2


@njit(cache=True, inline="always")
def _key_less(a1, a2, b1, b2):
    """(a1, a2) < (b1, b2), lexicographically (the paper's key order)."""
    return a1 < b1 or (a1 == b1 and a2 < b2)


# D* Lite's packed keys. U's priority (k1, k2, stamp) as one int64 that sorts the same way: one
# integer comparison per heap step and one array moved, where the three-part keys cost three arrays
# and up to three comparisons (docs/speed.md, "Packed keys for the known-map A* and D* Lite"). On a grid of
# ``cells < 2**18`` cells, with ``b`` the bits of ``cells`` and ``s = b + 1`` the stamp's bits:
#
#     key = (((k1 << (s + 1)) + k2) << s) + stamp,   0 <= stamp < 2**s,  0 <= k2 < 2**(s + 1),
#                                                   -2**(61 - 2s) <= k1 < 2**(61 - 2s)
#
# so |key| < 2**62 and the digits order it as (k1, k2, stamp) lexicographically (k1 may be negative:
# the lower digits are non-negative, so the sum still orders by k1 first). What keeps each digit in range:
# - stamp: a stamp is drawn for every U.Insert and U.Update; when they run out, the entries of U are
#   renumbered 0 .. size - 1 in their order (heap_renumber_stamps): the same order, so the same pops,
#   and at least 2**s - cells >= 2**b fresh stamps;
# - k2 = min(g, rhs), finite in U: a path length, below cells < 2**b in every run measured; the field
#   allows 4 * 2**b (checked);
# - k1 = k2 + h + km: km grows with every move, so when it reaches 2**(b - 1) at the start of an
#   episode every key in U loses km from its k1 and km restarts at 0 (_rebase_km): every key moves by
#   the same amount, so every comparison comes out as before, and U's keys then hold k1 >= -(the move)
#   (after an episode every key in U is at least the agent's key, whose k1 is at least km). Then
#   |k1| < 4 * 2**b + 2**b + 2 * 2**b < 2**(b + 3) <= 2**(61 - 2s) for b <= 18 (checked too).
# A digit out of range raises ValueError rather than mis-order U.


@njit(cache=True)
def dstar_stamp_bits(cells):
    """The stamp's bits ``s`` of D* Lite's packed keys on a grid of ``cells`` cells, or 0 when the grid
    is too large to pack them (``cells >= 2**18``; U then keeps three-part keys).

    >>> dstar_stamp_bits(301 * 301), dstar_stamp_bits(2**18 - 1), dstar_stamp_bits(2**18)
    (18, 19, 0)
    """
    b = 0
    while (1 << b) <= cells:
        b += 1
    return b + 1 if b <= 18 else 0


@njit(cache=True, inline="always")
def pack_dstar_key(k1, k2, stamp, stamp_bits):
    """U's priority ``(k1, k2, stamp)`` as one int64 (the layout above); ``stamp_bits``: the stamp's bits.

    >>> pack_dstar_key(3, 2, 1, 2), unpack_dstar_key(pack_dstar_key(-3, 2, 1, 2), 2)   # (3 * 8 + 2) * 4 + 1
    (105, (-3, 2, 1))
    """
    if k2 < 0 or k2 >= (2 << stamp_bits) or k1 >= (1 << (61 - 2 * stamp_bits)) or k1 < -(1 << (61 - 2 * stamp_bits)):
        raise ValueError("a D* Lite key outgrew its packed digits (compiled twin)")
    return (((k1 << (stamp_bits + 1)) + k2) << stamp_bits) + stamp


@njit(cache=True, inline="always")
def unpack_dstar_key(key, stamp_bits):
    """``(k1, k2, stamp)`` of a packed key (``>>`` shifts arithmetically: a negative k1 comes back)."""
    return key >> (2 * stamp_bits + 1), (key >> stamp_bits) & ((2 << stamp_bits) - 1), key & ((1 << stamp_bits) - 1)


@njit(cache=True, inline="always")
def _queue_set(queue, u, k1, k2, stamp_bits):
    """U.Insert(u, key) or U.Update(u, key) with the next stamp (DStarLite.queue_key); ``stamp_bits``: the stamp's
    bits (0: three-part keys)."""
    items, key1, key2, stamp, position, counters = queue
    counters[1] += 1
    if stamp_bits > 0:  # packed keys: key1 is the heap's key array, counters[0] its size
        heap = (key1, items, position, counters)
        if counters[1] == 1 << stamp_bits:  # the stamps ran out: renumber U's, the same order
            counters[1] = heap_renumber_stamps(heap, stamp_bits)
        key = pack_dstar_key(k1, k2, counters[1], stamp_bits)
        if position[u] < 0:
            heap_push(heap, u, key)
        else:
            heap_update(heap, u, key)
        return
    i = position[u]
    if i < 0:  # insert at the end
        i = counters[0]
        counters[0] += 1
        items[i] = u
        position[u] = i
        fell = True
    else:  # the same (k1, k2) with its later stamp is a larger key
        fell = _key_less(k1, k2, key1[i], key2[i])
    key1[i], key2[i], stamp[i] = k1, k2, counters[1]
    if fell:
        triple_heap_sift_up(items, key1, key2, stamp, position, i)
    else:
        triple_heap_sift_down(items, key1, key2, stamp, position, i, counters[0])


@njit(cache=True, inline="always")
def _queue_remove(queue, u, stamp_bits):
    """U.Remove(u)."""
    items, key1, key2, stamp, position, counters = queue
    if stamp_bits > 0:
        heap_remove((key1, items, position, counters), u)
    else:
        counters[0] = triple_heap_remove(items, key1, key2, stamp, position, position[u], counters[0])


@njit(cache=True, inline="always")
def _top_key(queue, stamp_bits):
    """U.TopKey(): ``(k1, k2)`` of U's first entry, without its stamp."""
    if stamp_bits > 0:
        k1, k2, _ = unpack_dstar_key(queue[1][0], stamp_bits)
        return k1, k2
    return queue[1][0], queue[2][0]


@njit(cache=True)
def _rebase_km(queue, km, stamp_bits):
    """Take ``km`` off the k1 of every key in U (packed keys); km then restarts at 0 (see the layout)."""
    key1, size = queue[1], queue[5][0]
    shift = km << (stamp_bits + 1 + stamp_bits)
    lowest = -(1 << (61 - 2 * stamp_bits)) << (stamp_bits + 1 + stamp_bits)
    for i in range(size):
        key1[i] -= shift
        if key1[i] < lowest:
            raise ValueError("a D* Lite key outgrew its packed digits (compiled twin)")


@njit(cache=True, inline="always")
def _update_vertex(u, agent, km, g, rhs, queue, row, column, weak, stamp_bits):
    """DStarLite.update_vertex: U holds u exactly when u is locally inconsistent."""
    if g[u] != rhs[u]:
        k1, k2 = _dstar_key(u, agent, km, g, rhs, row, column, weak)
        _queue_set(queue, u, k1, k2, stamp_bits)
    elif queue[4][u] >= 0:
        _queue_remove(queue, u, stamp_bits)


@njit(cache=True, inline="always")
def _best_successor_cost(s, g, known, width, cells, row, column):
    """DStarLite.best_successor_cost: min over not-known-blocked neighbours of 1 + g."""
    best = INFINITY
    for direction in range(4):
        t = _neighbour(s, direction, width, cells, row, column)
        if t >= 0 and not known[t] and g[t] < best:
            best = g[t]
    return best + 1 if best < INFINITY else INFINITY


@njit(cache=True)
def _plan_dstar(agent, target, width, cells, row, column, weak, known, last, km, newly, n_newly, g, rhs, queue, expanded, path):
    """DStarLite.plan: one episode of Main. Returns (expansions, path length, km, status).

    ``queue`` is U: ``(items, k1, k2, stamp, position, counters)`` (``counters`` = [size, latest stamp]);
    ``items[0]`` is U.Top(). Its keys are packed into ``k1`` (the others unused) where the grid allows
    (:func:`dstar_stamp_bits`), else it is the ``(k1, k2, stamp)`` heap of :mod:`..heap`. ``km`` comes back
    rebased (lowered with every key in U) when packed keys need it; only differences of keys matter.
    """
    items, counters = queue[0], queue[5]
    stamp_bits = dstar_stamp_bits(cells)  # of packed keys; 0: three-part keys
    if last < 0:  # Initialize: the search starts at the target
        rhs[target] = 0
        k1, k2 = _dstar_key(target, agent, km, g, rhs, row, column, weak)
        _queue_set(queue, target, k1, k2, stamp_bits)
    else:  # account for the agent's move, then repair the edges of the newly seen blocked cells
        km += _distance(last, agent, row, column, weak)
        if stamp_bits > 0 and km >= 1 << (stamp_bits - 2):  # packed keys: keep k1 within its digits
            _rebase_km(queue, km, stamp_bits)
            km = 0
        for i in range(n_newly):  # DStarLite.apply_blocked
            b = newly[i]
            rhs[b] = INFINITY
            _update_vertex(b, agent, km, g, rhs, queue, row, column, weak, stamp_bits)
            for direction in range(4):
                v = _neighbour(b, direction, width, cells, row, column)
                if v >= 0 and not known[v] and v != target and rhs[v] == 1 + g[b]:
                    rhs[v] = _best_successor_cost(v, g, known, width, cells, row, column)
                    _update_vertex(v, agent, km, g, rhs, queue, row, column, weak, stamp_bits)
    # ComputeShortestPath (DStarLite.compute_shortest_path); keys are compared without their stamps
    n_expanded = 0
    while counters[0] > 0:
        start1, start2 = _dstar_key(agent, agent, km, g, rhs, row, column, weak)
        top1, top2 = _top_key(queue, stamp_bits)
        if not (_key_less(top1, top2, start1, start2) or rhs[agent] > g[agent]):
            break
        u = items[0]
        old1, old2 = _top_key(queue, stamp_bits)
        new1, new2 = _dstar_key(u, agent, km, g, rhs, row, column, weak)
        if n_expanded == expanded.shape[0]:
            return n_expanded, 0, km, TOO_MANY_EXPANSIONS
        if _key_less(old1, old2, new1, new2):  # the key was computed with a smaller km: re-queue
            _queue_set(queue, u, new1, new2, stamp_bits)
        elif g[u] > rhs[u]:  # overconsistent: lower g
            g[u] = rhs[u]
            _queue_remove(queue, u, stamp_bits)
            expanded[n_expanded] = u
            n_expanded += 1
            for direction in range(4):
                s = _neighbour(u, direction, width, cells, row, column)
                if s >= 0 and not known[s]:
                    if s != target and rhs[s] > 1 + g[u]:
                        rhs[s] = 1 + g[u]
                    _update_vertex(s, agent, km, g, rhs, queue, row, column, weak, stamp_bits)
        else:  # underconsistent: raise g to infinity and repair what depended on it
            g_old = g[u]
            g[u] = INFINITY
            expanded[n_expanded] = u
            n_expanded += 1
            if not known[u]:  # a blocked cell has no edges
                for direction in range(4):
                    s = _neighbour(u, direction, width, cells, row, column)
                    if s >= 0 and not known[s]:
                        if s != target and rhs[s] == 1 + g_old:
                            rhs[s] = _best_successor_cost(s, g, known, width, cells, row, column)
                        _update_vertex(s, agent, km, g, rhs, queue, row, column, weak, stamp_bits)
            _update_vertex(u, agent, km, g, rhs, queue, row, column, weak, stamp_bits)
    # DStarLite.read_path
    if rhs[agent] >= INFINITY:
        return n_expanded, 0, km, OK  # "there is no known path"
    path[0] = agent
    length = 1
    while path[length - 1] != target:
        here = path[length - 1]
        step = -1
        for direction in range(4):  # the first of equal g-values wins, as min() does
            t = _neighbour(here, direction, width, cells, row, column)
            if t >= 0 and not known[t] and (step < 0 or g[t] < g[step]):
                step = t
        if step < 0 or g[step] >= g[here] or length == path.shape[0]:
            return n_expanded, 0, km, G_NOT_DESCENDING
        path[length] = step
        length += 1
    return n_expanded, length, km, OK
