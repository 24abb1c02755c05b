"""Compiled twins of the real-time and incremental planners: the same traces, at compiled speed.

:func:`run_compiled` runs Korf's LRTA* (``"lrta"``), Koenig's LRTA* with A* or breadth-first
lookahead (``"lrta_astar"``, ``"lrta_bfs"``) or D* Lite (``"dstar_lite"``) for the fog-of-war agent
exactly as :func:`reference.solutions.realtime.run_algorithm` does, expansion for expansion
(SPEC §16; ``tests/compiled/test_compiled_realtime.py`` compares the two), with the signature every
compiled twin's ``run_compiled`` has: ``(grid, start, target, algorithm, *, settings)``. The readable
package's public names mirror here (``compiled/X.py`` mirrors ``X.py``): :data:`ALGORITHMS`, the same
:class:`~reference.solutions.registry.Registry` type (settings keyword-only, the problem to the
planner's ``run(grid, start, target)``), :func:`lrta_star`, :func:`lrta_star_lookahead`,
:func:`lrta_star_bfs`, :func:`dstar_lite` and :class:`RealtimeRun`. Read the readable planners in
``reference/solutions/realtime/`` first: every function here names the reference method it mirrors,
and the comments only explain what differs in form.

What differs in form, not in result:

- The world is the true grid (a flat ``uint8`` array) sensed inside compiled code exactly as
  :class:`~reference.world.sensing.FogOfWarWorld` senses it: the four neighbours east, south, west,
  north of the agent's cell.
- State lives in NumPy arrays indexed by ``row * width + col``; priority queues are the compiled
  indexed heaps of :mod:`reference.solutions.compiled.heap`: packed int64 keys for the lookahead
  searches, and for D* Lite's U ``(k1, k2, stamp)`` packed into one int64 too (:func:`dstar_stamp_bits`;
  on grids too large for that, the heap of three-part keys). The stamps, as the reference's, make
  every key distinct, so the pop order does not depend on the heap.
- The trace stays in int32 arrays with per-episode offsets (:class:`RealtimeRun`, the readable
  planners' result's name and properties); it becomes the kit's :class:`~reference.world.trace.Trace`
  only when asked (``run.trace``), since building millions of tuples costs more than the search.
- Planning time: reading the CPU-time clock costs ~0.4 us here, more than a whole lookahead-one
  episode, so the twin counts processor ticks instead (``rdtsc``, ~25 ns a read) around each episode's
  planning code and hands each episode its share of the run's CPU time:
  ``seconds[i] = ticks[i] / ticks of the whole run * CPU seconds of the whole run``.

>>> from reference.world import FogOfWarWorld, Gridworld
>>> from reference.solutions import realtime
>>> grid = Gridworld.from_strings(["....", ".@@.", "...."])
>>> [run_compiled(grid, (2, 0), (0, 3), name, lookahead=3).moves for name in ALGORITHMS]
[5, 5, 5, 5]
>>> run = run_compiled(grid, (2, 0), (0, 3), "dstar_lite")
>>> run.trace.searches[0].path
[(2, 0), (2, 1), (2, 2), (2, 3), (1, 3), (0, 3)]
>>> run.trace == realtime.dstar_lite(FogOfWarWorld(grid, (2, 0)), (2, 0), (0, 3)).trace
True
>>> ALGORITHMS.planner("lrta_astar", lookahead=3, heuristic="weak").run(grid, (2, 0), (0, 3)).moves
5
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from reference.world.grid import Cell, Gridworld
from reference.world.sensing import Knowledge
from reference.world.trace import TIE_BREAKS, SearchRecord, Trace

from ...realtime.heuristics import check_heuristic
from ...registry import Registry, bind
from ..heap import (pack_key, heap_clear, heap_contains, heap_len, heap_new, heap_peek, heap_pop, heap_push,
                   heap_update, triple_heap_remove, triple_heap_sift_down, triple_heap_sift_up)
from ..heap import heap_remove, heap_renumber_stamps

#: The twin's infinity: above the readable planners' INFINITY (2**31 - 1) and every finite g, so
#: their comparisons come out alike (tests/world/test_grid_infinity.py).
INFINITY = 1 << 62
#: Planner name -> the number the compiled loop dispatches on.
PLANNERS: dict[str, int] = {"lrta": 0, "lrta_astar": 1, "lrta_bfs": 2, "dstar_lite": 3}
KORF, ASTAR, BFS, DSTAR = 0, 1, 2, 3
#: Status codes of the compiled run (anything but OK is a bug, raised as RuntimeError).
OK, G_NOT_DESCENDING, TOO_MANY_EXPANSIONS = 0, 1, 2


@intrinsic
def _ticks(typingctx):
    """The processor's cycle counter (x86 ``rdtsc``): a clock read of ~25 ns inside compiled code."""
    def codegen(context, builder, signature, args):
        counter = cgutils.get_or_insert_function(builder.module, ir.FunctionType(ir.IntType(64), []),
                                                 "llvm.readcyclecounter")
        return builder.call(counter, [])
    return types.int64(), codegen


# -- the grid -------------------------------------------------------------------------------------


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


@njit(cache=True)
def _grown(buffer, needed):
    """A copy of ``buffer`` with room for at least ``needed`` items (at least twice as long).

    The run loop checks the room itself and calls this only when a buffer is full: a compiled
    function that returns an array costs ~80 ns (reference counting), more than a whole move.
    """
    larger = np.empty(max(2 * buffer.shape[0], needed) + 16, buffer.dtype)
    larger[:buffer.shape[0]] = buffer
    return larger


# -- the random successor order (lookahead.py: SuccessorOrder) ---------------------------------------

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX_1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX_2 = np.uint64(0x94D049BB133111EB)


@njit(cache=True, inline="always")
def _next_random(rng):
    """splitmix64 (SuccessorOrder.next): uint64 arithmetic wraps, as the reference's ``& MASK``."""
    z = rng[0] + _GOLDEN
    rng[0] = z
    z = (z ^ (z >> np.uint64(30))) * _MIX_1
    z = (z ^ (z >> np.uint64(27))) * _MIX_2
    return z ^ (z >> np.uint64(31))


@njit(cache=True, inline="always")
def _shuffle_directions(order, rng):
    """SuccessorOrder.directions into ``order``: Fisher-Yates from the back over east, south, west, north."""
    for i in range(4):
        order[i] = i
    for i in range(3, 0, -1):
        j = np.int64(_next_random(rng) % np.uint64(i + 1))
        order[i], order[j] = order[j], order[i]


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


# -- Koenig's LRTA* with lookahead (lookahead.py: LookaheadLRTA) ----------------------------------------


@njit(cache=True)
def _astar_space(agent, target, width, cells, row, column, weak, larger_g, lookahead, known, episode,
                 value, g, tree, generated_in, expanded_in, generated, heap, expanded, shuffle, rng, order):
    """LookaheadLRTA.astar_space: (expansions, generated count, the state A* would expand next or -1)."""
    heap_clear(heap)
    g[agent], generated_in[agent] = 0, episode
    generated[0] = agent
    n_generated, stamp, n_expanded = 1, 0, 0
    n = lookahead + 2
    heap_push(heap, agent, pack_key(_h(value, agent, target, row, column, weak), 0, 0, larger_g, n))
    while heap_len(heap) > 0 and n_expanded < lookahead:
        s = heap_peek(heap)
        if s == target:
            break  # "until the goal state is about to be expanded"
        heap_pop(heap)
        expanded[n_expanded] = s
        n_expanded += 1
        expanded_in[s] = episode
        g_next = g[s] + 1
        if shuffle:
            _shuffle_directions(order, rng)
        for k in range(4):
            t = _neighbour(s, order[k], width, cells, row, column)
            if t < 0 or known[t] or expanded_in[t] == episode:
                continue
            if generated_in[t] != episode:
                generated_in[t], g[t] = episode, INFINITY
                generated[n_generated] = t
                n_generated += 1
            if g[t] > g_next:
                g[t], tree[t] = g_next, s
                stamp += 1
                key = pack_key(g_next + _h(value, t, target, row, column, weak), g_next, stamp, larger_g, n)
                if heap_contains(heap, t):
                    heap_update(heap, t, key)
                else:
                    heap_push(heap, t, key)
    best = heap_peek(heap) if heap_len(heap) > 0 else -1
    return n_expanded, n_generated, best


@njit(cache=True)
def _bfs_space(agent, target, width, cells, row, column, weak, larger_g, lookahead, known, episode,
               value, g, tree, generated_in, expanded_in, generated, queue, expanded, shuffle, rng, order):
    """LookaheadLRTA.bfs_space; ``queue`` is an array with a head index instead of a deque."""
    g[agent], generated_in[agent] = 0, episode
    generated[0] = agent
    queue[0] = agent
    head, tail, n_generated, n_expanded = 0, 1, 1, 0
    while head < tail and n_expanded < lookahead:
        s = queue[head]
        if s == target:
            break  # the target is about to be expanded
        head += 1
        expanded[n_expanded] = s
        n_expanded += 1
        expanded_in[s] = episode
        if shuffle:
            _shuffle_directions(order, rng)
        for k in range(4):
            t = _neighbour(s, order[k], width, cells, row, column)
            if t >= 0 and not known[t] and generated_in[t] != episode:
                generated_in[t], g[t], tree[t] = episode, g[s] + 1, s
                generated[n_generated] = t
                n_generated += 1
                queue[tail] = t
                tail += 1
    if head == tail:
        return n_expanded, n_generated, -1
    best, best_key, n = -1, 0, lookahead + 2
    for i in range(tail - head):  # the position in the queue is the stamp
        s = queue[head + i]
        key = pack_key(g[s] + _h(value, s, target, row, column, weak), g[s], i, larger_g, n)
        if best < 0 or key < best_key:
            best, best_key = s, key
    return n_expanded, n_generated, best


@njit(cache=True)
def _update_values(width, cells, row, column, target, weak, episode, value, expanded_in, generated, n_generated,
                   expanded, n_expanded, heap):
    """LookaheadLRTA.update_values: Dijkstra from the border over the local search space."""
    heap_clear(heap)
    for i in range(n_generated):
        b = generated[i]
        if expanded_in[b] != episode:  # a border state: its value is fixed
            value[b] = _h(value, b, target, row, column, weak)
            heap_push(heap, b, value[b])
    for i in range(n_expanded):
        value[expanded[i]] = INFINITY
    unsettled = n_expanded
    while heap_len(heap) > 0 and unsettled > 0:
        s = heap_pop(heap)
        if expanded_in[s] == episode:
            unsettled -= 1
        through_s = value[s] + 1
        for direction in range(4):
            t = _neighbour(s, direction, width, cells, row, column)
            if t >= 0 and expanded_in[t] == episode and value[t] > through_s:
                value[t] = through_s
                if heap_contains(heap, t):
                    heap_update(heap, t, through_s)
                else:
                    heap_push(heap, t, through_s)


@njit(cache=True)
def _plan_lookahead(bfs, agent, target, width, cells, row, column, weak, larger_g, lookahead, known, free_cells, episode,
                    value, g, tree, generated_in, expanded_in, generated, queue, heap, expanded, path, shuffle, rng,
                    order):
    """LookaheadLRTA.plan: returns (expansions, path length); the path is written into ``path``."""
    if bfs:
        n_expanded, n_generated, best = _bfs_space(agent, target, width, cells, row, column, weak, larger_g, lookahead, known,
                                                   episode, value, g, tree, generated_in, expanded_in, generated,
                                                   queue, expanded, shuffle, rng, order)
    else:
        n_expanded, n_generated, best = _astar_space(agent, target, width, cells, row, column, weak, larger_g, lookahead, known,
                                                     episode, value, g, tree, generated_in, expanded_in, generated,
                                                     heap, expanded, shuffle, rng, order)
    if best < 0:
        return n_expanded, 0  # step 1 searched everything reachable without meeting the target
    _update_values(width, cells, row, column, target, weak, episode, value, expanded_in, generated, n_generated,
                   expanded, n_expanded, heap)
    if value[agent] >= free_cells:
        return n_expanded, 0  # the agent's value exceeds every simple path: unreachable
    length, s = 0, best  # the tree path from the border state back to the agent, then reversed
    while True:
        path[length] = s
        length += 1
        if s == agent:
            break
        s = tree[s]
    path[:length] = path[:length][::-1].copy()
    return n_expanded, length


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
    (:func:`dstar_stamp_bits`), else it is the ``(k1, k2, stamp)`` heap of :mod:`.heap`. ``km`` comes back
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


# -- the agent (agent.py: EpisodicAgent.run, observe and walk) --------------------------------------------


@njit(cache=True, inline="always")
def _observe(cell, blocked, known, width, cells, row, column, newly, n_newly):
    """EpisodicAgent.observe: sense the four neighbours; remember the newly seen blocked ones, append
    them to ``newly`` after its first ``n_newly`` and return how many there were.

    ``newly`` has room for every cell: a cell is newly seen at most once in a run.
    """
    found = 0
    for direction in range(4):
        t = _neighbour(cell, direction, width, cells, row, column)
        if t >= 0 and blocked[t] and not known[t]:
            known[t] = 1
            newly[n_newly + found] = t
            found += 1
    return found


@njit(cache=True)
def _run(planner, blocked, known, width, start, target, weak, larger_g, lookahead, record, shuffle, seed):
    """EpisodicAgent.run for every planner: plan an episode, record it, walk (SPEC §6), repeat.

    ``shuffle``: the lookahead searches generate successors in the random order of ``seed``.

    ``record=False`` keeps counts only (no trace arrays): what a comparison of many long runs needs.
    """
    cells = blocked.shape[0]
    run_began = _ticks()
    row = np.empty(cells, np.int32)  # the coordinates of every cell (see _neighbour)
    column = np.empty(cells, np.int32)
    for s in range(cells):
        row[s], column[s] = s // width, s % width
    known_count = 0
    for s in range(cells):
        known_count += known[s]
    # The trace (when recorded): the trajectory, and every episode's agent cell, expanded cells and
    # path end to end, with where each episode's part ends.
    trajectory = np.empty(1024 if record else 0, np.int32)
    trace_expanded = np.empty(1024 if record else 0, np.int32)
    trace_path = np.empty(1024 if record else 0, np.int32)
    agents = np.empty(256 if record else 0, np.int32)
    expanded_end = np.empty(256 if record else 0, np.int64)
    path_end = np.empty(256 if record else 0, np.int64)
    ticks = np.empty(256 if record else 0, np.int64)
    moves = expansions = path_cells = episodes = max_expanded = planning_ticks = 0
    # One episode's expanded cells and path (D* Lite expands a state at most twice in an episode).
    expanded = np.empty(2 * cells + 8, np.int32)
    path = np.empty(cells + 1, np.int32)
    # The planners' state (each planner reads only its own).
    value = np.full(cells, -1, np.int64)
    g = np.full(cells, INFINITY, np.int64)
    rhs = np.full(cells, INFINITY, np.int64)
    tree = np.full(cells, -1, np.int32)
    generated_in = np.zeros(cells, np.int32)
    expanded_in = np.zeros(cells, np.int32)
    generated = np.empty(4 * lookahead + 4, np.int32)
    queue = np.empty(4 * lookahead + 4, np.int32)
    heap = heap_new(cells)
    u_cells = cells if planner == DSTAR else 0  # D* Lite's U (see _plan_dstar)
    u_queue = (np.empty(u_cells, np.int32), np.empty(u_cells, np.int64), np.empty(u_cells, np.int64),
               np.empty(u_cells, np.int64), np.full(u_cells, -1, np.int32), np.zeros(2, np.int64))
    rng = np.full(1, seed, np.uint64)   # the SuccessorOrder stream
    order = np.arange(4)               # the directions of one expansion (east, south, west, north unshuffled)
    km, last = 0, -1
    # Walking: which cells are on the path being walked, and where (stamped with the episode: no clearing).
    on_walk = np.zeros(cells, np.int32)
    index_on_path = np.zeros(cells, np.int32)
    newly = np.empty(cells, np.int32)  # blocked cells seen since the last planning episode (for D* Lite)

    agent = start
    if record:
        trajectory[0] = agent
    n_newly = _observe(agent, blocked, known, width, cells, row, column, newly, 0)  # look before the first episode
    known_count += n_newly
    reached, status = True, OK
    while agent != target:
        episode = episodes + 1
        free_cells = cells - known_count
        began = _ticks()
        if planner == KORF:
            n_expanded, length = _plan_korf(agent, target, width, cells, row, column, weak, known, free_cells, value,
                                            expanded, path)
        elif planner == DSTAR:
            n_expanded, length, km, status = _plan_dstar(agent, target, width, cells, row, column, weak, known, last, km,
                                                         newly, n_newly, g, rhs, u_queue, expanded, path)
            last = agent
        else:
            n_expanded, length = _plan_lookahead(planner == BFS, agent, target, width, cells, row, column, weak, larger_g,
                                                 lookahead, known, free_cells, episode, value, g, tree,
                                                 generated_in, expanded_in, generated, queue, heap, expanded, path,
                                                 shuffle, rng, order)
        spent = _ticks() - began
        planning_ticks += spent
        n_newly = 0
        if record:
            if episodes == ticks.shape[0]:  # the per-episode arrays grow together
                ticks, agents = _grown(ticks, 0), _grown(agents, 0)
                expanded_end, path_end = _grown(expanded_end, 0), _grown(path_end, 0)
            if expansions + n_expanded > trace_expanded.shape[0]:
                trace_expanded = _grown(trace_expanded, expansions + n_expanded)
            if path_cells + length > trace_path.shape[0]:
                trace_path = _grown(trace_path, path_cells + length)
            ticks[episodes], agents[episodes] = spent, agent
            trace_expanded[expansions:expansions + n_expanded] = expanded[:n_expanded]
            trace_path[path_cells:path_cells + length] = path[:length]
            expanded_end[episodes], path_end[episodes] = expansions + n_expanded, path_cells + length
        expansions += n_expanded
        path_cells += length
        max_expanded = max(max_expanded, n_expanded)
        episodes += 1
        if status != OK or length == 0:
            reached = False
            break
        # EpisodicAgent.walk: follow the path to its end, or until a cell ahead on it is seen blocked.
        for i in range(length):
            on_walk[path[i]] = episode
            index_on_path[path[i]] = i
        for step in range(1, length):
            agent = path[step]
            moves += 1
            if record:
                if moves == trajectory.shape[0]:
                    trajectory = _grown(trajectory, 0)
                trajectory[moves] = agent
            found = _observe(agent, blocked, known, width, cells, row, column, newly, n_newly)
            blocked_ahead = False
            for i in range(n_newly, n_newly + found):
                if on_walk[newly[i]] == episode and index_on_path[newly[i]] > step:
                    blocked_ahead = True
            n_newly += found
            known_count += found
            if blocked_ahead:
                break
    run_ticks = _ticks() - run_began
    counts = np.array([moves, expansions, episodes, max_expanded, planning_ticks, run_ticks], np.int64)
    if not record:
        return reached, status, counts, trajectory, agents, trace_expanded, expanded_end, trace_path, path_end, ticks
    return (reached, status, counts, trajectory[:moves + 1].copy(), agents[:episodes].copy(),
            trace_expanded[:expansions].copy(), expanded_end[:episodes].copy(), trace_path[:path_cells].copy(),
            path_end[:episodes].copy(), ticks[:episodes].copy())


# -- from Python ----------------------------------------------------------------------------------------


@dataclass
class RealtimeRun:
    """The twin of :class:`reference.solutions.realtime.RealtimeRun`: a compiled run, with the same properties.

    With a recorded trace, episode ``i`` planned from ``agents[i]``, expanded
    ``expanded[expanded_offsets[i]:expanded_offsets[i + 1]]`` and chose the path
    ``path[path_offsets[i]:path_offsets[i + 1]]`` (flat cell indices); ``trajectory`` holds every
    cell the agent stood in, and ``trace`` builds the kit's :class:`~reference.world.trace.Trace` on
    demand. A counts-only run (``record=False``) has the counts and the total planning time only.
    """

    algorithm: str
    tie_break: str
    heuristic: str
    lookahead: int | None
    width: int
    target: int
    reached: bool
    moves: int
    expansions: int
    episodes: int
    max_expansions_per_episode: int
    planning_time: float  # seconds
    planning_seconds: np.ndarray | None = None  # per episode (recorded runs)
    trajectory: np.ndarray | None = None
    agents: np.ndarray | None = None
    expanded: np.ndarray | None = None
    expanded_offsets: np.ndarray | None = None
    path: np.ndarray | None = None
    path_offsets: np.ndarray | None = None

    @cached_property
    def trace(self) -> Trace:
        """The SPEC §8 trace, with the records the reference planner writes (built on first use)."""
        if self.trajectory is None:
            raise ValueError("this run kept counts only (record=False): it has no trace")
        # a recorded run has every array (run_compiled sets them together)
        assert self.agents is not None and self.expanded is not None and self.path is not None
        assert self.expanded_offsets is not None and self.path_offsets is not None
        expanded_offsets, path_offsets = self.expanded_offsets, self.path_offsets
        width = self.width

        def cells(flat: np.ndarray) -> list[Cell]:
            rows, cols = np.divmod(flat, width)
            return list(zip(rows.tolist(), cols.tolist()))

        target = divmod(self.target, width)
        expanded, paths = cells(self.expanded), cells(self.path)
        records = []
        for i, agent in enumerate(cells(self.agents)):
            # D* Lite searches from the target toward the agent; LRTA* from the agent.
            start, goal = (target, agent) if self.algorithm == "dstar_lite" else (agent, target)
            records.append(SearchRecord(start, goal, expanded[expanded_offsets[i]:expanded_offsets[i + 1]],
                                        paths[path_offsets[i]:path_offsets[i + 1]]))
        return Trace(self.algorithm, self.tie_break, self.reached, cells(self.trajectory), records)

    def summary(self) -> dict[str, Any]:
        """The paper's columns, as :meth:`RealtimeRun.summary` gives them (times in microseconds)."""
        microseconds = self.planning_time * 1e6
        episodes, moves = self.episodes, self.moves
        return {
            "algorithm": self.algorithm, "heuristic": self.heuristic, "lookahead": self.lookahead,
            "reached": self.reached, "expansions": self.expansions, "episodes": episodes, "moves": moves,
            "expansions_per_episode": self.expansions / episodes if episodes else 0.0,
            "max_expansions_per_episode": self.max_expansions_per_episode,
            "moves_per_episode": moves / episodes if episodes else 0.0,
            "planning_us": microseconds,
            "planning_us_per_episode": microseconds / episodes if episodes else 0.0,
            "planning_us_per_move": microseconds / moves if moves else 0.0,
        }


_ready = False


def warm_up() -> None:
    """Compile (or load from Numba's cache) every planner once, so that no run's time includes it."""
    global _ready
    if not _ready:
        blocked = np.zeros(4, np.uint8)
        for planner in PLANNERS.values():
            for record in (True, False):
                _run(planner, blocked, blocked.copy(), 2, 0, 3, False, True, 1, record, False, np.uint64(0))
        _ready = True


def run_compiled(grid: Gridworld, start: Cell, target: Cell, algorithm: str = "lrta_astar", *,
                 heuristic: str = "strong", lookahead: int = 1, knowledge: Knowledge | None = None,
                 tie_break: str = "larger_g", record: bool = True, successors: str = "fixed",
                 seed: int = 0) -> RealtimeRun:
    """Run the compiled twin of ``algorithm`` on the true ``grid``, seen through the fog of war.

    The settings are :func:`~reference.solutions.realtime.run_algorithm`'s, with the grid in place
    of the world object; a planner ignores those it does not take (``lookahead``, ``successors`` and
    ``seed`` matter to ``lrta_astar`` and ``lrta_bfs`` only; D* Lite always breaks ties toward the
    smaller g, as the reference does).

    Parameters
    ----------
    grid : Gridworld
        The true grid; the agent senses it exactly as ``FogOfWarWorld`` does.
    start, target : Cell
        ``(row, col)`` of the agent's first cell (free) and of the target.
    algorithm : {"lrta_astar", "lrta", "lrta_bfs", "dstar_lite"}
        A key of :data:`ALGORITHMS` (default ``lrta_astar``, the command line's).
    heuristic : {"strong", "weak"}
        Manhattan distance, or max(|dx|, |dy|).
    lookahead : int
        Expansions per planning episode (at least 1) for ``lrta_astar`` and ``lrta_bfs``.
    knowledge : Knowledge, optional
        What the agent knows before it starts (``knowledge_of(grid)``: known terrain).
    tie_break : {"larger_g", "smaller_g"}
        The lookahead searches' tie rule.
    record : bool
        False keeps the counts and the total planning time only, no trace (long runs: a trace holds
        ~30 bytes per move).
    successors : {"fixed", "random"}
        The lookahead searches' successor order (``LookaheadLRTA``'s); ``seed`` seeds the random one.
    seed : int

    Returns
    -------
    RealtimeRun
        The counts, the planning time and (``record=True``) the trace as arrays; ``run.trace`` builds
        the kit's :class:`~reference.world.trace.Trace`, equal to the readable planner's.

    Raises
    ------
    ValueError
        An unknown algorithm, heuristic, tie rule or successor order; a lookahead below 1; a start
        or target outside the grid, a blocked start; knowledge of another size.
    RuntimeError
        A D* Lite invariant broken inside the compiled code (a bug, never a property of the input).

    See Also
    --------
    reference.solutions.realtime.run_algorithm : the readable reference this twin mirrors.
    reference.solutions.realtime.ALGORITHMS : the readable planners by the same names.

    Examples
    --------
    >>> from reference.world import Gridworld
    >>> grid = Gridworld.from_strings(["....", ".@@.", "...."])
    >>> run = run_compiled(grid, (2, 0), (0, 3), "lrta_astar", lookahead=3, heuristic="weak")
    >>> run.reached, run.moves, run.trace.trajectory[-1]
    (True, 5, (0, 3))
    """
    if algorithm not in PLANNERS:
        raise ValueError(f"unknown algorithm {algorithm!r}; choose one of {', '.join(PLANNERS)}")
    check_heuristic(heuristic)
    if tie_break not in TIE_BREAKS:
        raise ValueError(f"tie_break must be 'larger_g' or 'smaller_g', got {tie_break!r}")
    if successors not in ("fixed", "random"):
        raise ValueError(f"successors must be 'fixed' or 'random', got {successors!r}")
    if algorithm in ("lrta_astar", "lrta_bfs") and int(lookahead) < 1:
        raise ValueError(f"the lookahead must be at least 1, got {lookahead}")
    height, width = grid.height, grid.width
    for label, cell in (("start", start), ("target", target)):
        if not (0 <= cell[0] < height and 0 <= cell[1] < width):
            raise ValueError(f"the {label} {(int(cell[0]), int(cell[1]))} lies outside the {height} x {width} grid")
    if grid.is_blocked((int(start[0]), int(start[1]))):
        raise ValueError(f"the start {(int(start[0]), int(start[1]))} is a blocked cell")
    known = np.zeros(height * width, np.uint8)
    if knowledge is not None:
        if (knowledge.height, knowledge.width) != (height, width):
            raise ValueError("the knowledge given does not have the grid's size")
        known[:] = np.frombuffer(bytes(knowledge.blocked), np.uint8)
    blocked = np.ascontiguousarray(grid.blocked, dtype=np.uint8).ravel()
    depth: int | None = lookahead   # what the run reports: D* Lite has no lookahead, Korf's is one
    if algorithm == "dstar_lite":
        tie_break, depth = "smaller_g", None
    elif algorithm == "lrta":
        depth = 1
    target_index = int(target[0]) * width + int(target[1])
    warm_up()
    cpu_began = time.process_time()
    reached, status, counts, *trace = _run(PLANNERS[algorithm], blocked, known, width, int(start[0]) * width + int(start[1]),
                                           target_index, heuristic == "weak", tie_break == "larger_g",
                                           int(depth or 1), record, successors == "random",
                                           np.uint64(int(seed) & ((1 << 64) - 1)))
    cpu_seconds = time.process_time() - cpu_began
    if status == G_NOT_DESCENDING:
        raise RuntimeError("D* Lite's g-values do not descend along the path (compiled twin)")
    if status == TOO_MANY_EXPANSIONS:
        raise RuntimeError("D* Lite expanded more than twice the cells in one episode (compiled twin)")
    moves, expansions, episodes, max_expanded, planning_ticks, run_ticks = counts.tolist()
    seconds_per_tick = cpu_seconds / run_ticks if run_ticks > 0 else 0.0  # see the module docstring
    run = RealtimeRun(algorithm, tie_break, heuristic, depth, width, target_index, bool(reached), moves, expansions,
                      episodes, max_expanded, planning_ticks * seconds_per_tick)
    if record:
        trajectory, agents, expanded, expanded_end, path, path_end, ticks = trace
        zero = np.zeros(1, np.int64)
        run.planning_seconds = ticks * seconds_per_tick
        run.trajectory, run.agents, run.expanded, run.path = trajectory, agents, expanded, path
        run.expanded_offsets = np.concatenate([zero, expanded_end])
        run.path_offsets = np.concatenate([zero, path_end])
    return run


# The readable package's planners by the same names and settings (the grid in place of the world,
# and ``record``): each is run_compiled with its algorithm.


def lrta_star(grid: Gridworld, start: Cell, target: Cell, heuristic: str = "strong", tie_break: str = "larger_g",
              knowledge: Knowledge | None = None, *, record: bool = True) -> RealtimeRun:
    """Korf's LRTA* (lookahead one) for the fog-of-war agent, compiled: :func:`run_compiled` with ``"lrta"``.

    Parameters
    ----------
    grid : Gridworld
        The true grid; the agent senses it exactly as ``FogOfWarWorld`` does.
    start, target : Cell
        ``(row, col)`` of the agent's first cell (free) and of the target.
    heuristic : {"strong", "weak"}
        The initial values: Manhattan distance, or max(|dx|, |dy|).
    tie_break : {"larger_g", "smaller_g"}
        Recorded in the trace; it cannot matter here (every candidate has g = 1).
    knowledge : Knowledge, optional
        What the agent knows before it starts: nothing (default, unknown terrain), or
        :func:`~reference.solutions.realtime.knowledge_of` the grid (known terrain).
    record : bool
        False keeps the counts and the total planning time only, no trace.

    Returns
    -------
    RealtimeRun
        The counts, the planning time (``lookahead`` 1) and, recorded, the trace as arrays; ``run.trace``
        equals the readable planner's.

    Raises
    ------
    ValueError
        A start or target outside the grid, a blocked start, an unknown heuristic or tie rule, or
        knowledge of another size.

    See Also
    --------
    reference.solutions.realtime.lrta_star : the readable reference this twin mirrors.
    run_compiled : every compiled real-time planner by name (``"lrta"``), the settings described there.

    Examples
    --------
    >>> from reference.world import FogOfWarWorld, Gridworld
    >>> from reference.solutions import realtime
    >>> grid = Gridworld.from_strings(["...", ".@.", "..."])
    >>> run = lrta_star(grid, (2, 0), (0, 2))
    >>> run.reached, run.moves, run.episodes
    (True, 4, 4)
    >>> run.trace == realtime.lrta_star(FogOfWarWorld(grid, (2, 0)), (2, 0), (0, 2)).trace
    True
    """
    return run_compiled(grid, start, target, "lrta", heuristic=heuristic, tie_break=tie_break, knowledge=knowledge,
                        record=record)


def lrta_star_lookahead(grid: Gridworld, start: Cell, target: Cell, lookahead: int, heuristic: str = "strong",
                        tie_break: str = "larger_g", knowledge: Knowledge | None = None, successors: str = "fixed",
                        seed: int = 0, *, record: bool = True) -> RealtimeRun:
    """Koenig's LRTA* with an A* lookahead of ``lookahead`` expansions per planning episode, compiled:
    :func:`run_compiled` with ``"lrta_astar"``.

    Parameters
    ----------
    grid : Gridworld
        The true grid; the agent senses it exactly as ``FogOfWarWorld`` does.
    start, target : Cell
        ``(row, col)`` of the agent's first cell (free) and of the target.
    lookahead : int
        At most this many expansions per episode (at least 1).
    heuristic : {"strong", "weak"}
        The initial values: Manhattan distance, or max(|dx|, |dy|).
    tie_break : {"larger_g", "smaller_g"}
        The A* key's tie rule among equal f (SPEC §5).
    knowledge : Knowledge, optional
        What the agent knows before it starts: nothing (default), or
        :func:`~reference.solutions.realtime.knowledge_of` the grid (known terrain).
    successors : {"fixed", "random"}
        Generate successors east, south, west, north, or in a fresh random order per expansion.
    seed : int
        The random order's seed (the readable :class:`~reference.solutions.realtime.lookahead.SuccessorOrder`'s).
    record : bool
        False keeps the counts and the total planning time only, no trace.

    Returns
    -------
    RealtimeRun
        The counts, the planning time and, recorded, the trace as arrays; ``run.trace`` equals the
        readable planner's.

    Raises
    ------
    ValueError
        A lookahead below 1, a start or target outside the grid, a blocked start, an unknown
        heuristic, tie rule or successor order, or knowledge of another size.

    See Also
    --------
    reference.solutions.realtime.lrta_star_lookahead : the readable reference this twin mirrors.
    run_compiled : every compiled real-time planner by name (``"lrta_astar"``), the settings described there.

    Examples
    --------
    >>> from reference.world import Gridworld
    >>> grid = Gridworld.from_strings(["...", ".@.", "..."])
    >>> run = lrta_star_lookahead(grid, (2, 0), (0, 2), lookahead=4)
    >>> run.trace.trajectory, run.episodes    # as the readable planner's docstring shows
    ([(2, 0), (2, 1), (2, 2), (1, 2), (0, 2)], 1)
    """
    return run_compiled(grid, start, target, "lrta_astar", heuristic=heuristic, lookahead=lookahead,
                        knowledge=knowledge, tie_break=tie_break, record=record, successors=successors, seed=seed)


def lrta_star_bfs(grid: Gridworld, start: Cell, target: Cell, lookahead: int, heuristic: str = "strong",
                  tie_break: str = "larger_g", knowledge: Knowledge | None = None, successors: str = "fixed",
                  seed: int = 0, *, record: bool = True) -> RealtimeRun:
    """LRTA* whose local search space is the first ``lookahead`` states of a breadth-first search,
    compiled: :func:`run_compiled` with ``"lrta_bfs"``.

    Parameters
    ----------
    grid, start, target, lookahead, heuristic, knowledge, successors, seed, record
        As :func:`lrta_star_lookahead`.
    tie_break : {"larger_g", "smaller_g"}
        Orders the border states the agent may walk to.

    Returns
    -------
    RealtimeRun
        As :func:`lrta_star_lookahead`.

    Raises
    ------
    ValueError
        As :func:`lrta_star_lookahead`.

    See Also
    --------
    reference.solutions.realtime.lrta_star_bfs : the readable reference this twin mirrors.
    run_compiled : every compiled real-time planner by name (``"lrta_bfs"``), the settings described there.

    Examples
    --------
    >>> from reference.world import Gridworld
    >>> grid = Gridworld.from_strings(["...", ".@.", "..."])
    >>> run = lrta_star_bfs(grid, (2, 0), (0, 2), lookahead=4)
    >>> run.reached, run.moves, run.episodes    # as the readable planner's docstring shows
    (True, 4, 2)
    """
    return run_compiled(grid, start, target, "lrta_bfs", heuristic=heuristic, lookahead=lookahead,
                        knowledge=knowledge, tie_break=tie_break, record=record, successors=successors, seed=seed)


def dstar_lite(grid: Gridworld, start: Cell, target: Cell, heuristic: str = "strong",
               knowledge: Knowledge | None = None, *, record: bool = True) -> RealtimeRun:
    """D* Lite for the fog-of-war agent, searching from the target, compiled: :func:`run_compiled` with
    ``"dstar_lite"``.

    Parameters
    ----------
    grid : Gridworld
        The true grid; the agent senses it exactly as ``FogOfWarWorld`` does.
    start, target : Cell
        ``(row, col)`` of the agent's first cell (free) and of the target.
    heuristic : {"strong", "weak"}
        h(agent, s): Manhattan distance, or max(|dx|, |dy|).
    knowledge : Knowledge, optional
        What the agent knows before it starts: nothing (default), or
        :func:`~reference.solutions.realtime.knowledge_of` the grid (known terrain).
    record : bool
        False keeps the counts and the total planning time only, no trace.

    Returns
    -------
    RealtimeRun
        The counts, the planning time and, recorded, the trace as arrays: one record per planning
        episode, searched from the target toward the agent (``tie_break`` ``"smaller_g"``, ``lookahead``
        None); ``run.trace`` equals the readable planner's.

    Raises
    ------
    ValueError
        A start or target outside the grid, a blocked start, an unknown heuristic, or knowledge of
        another size.
    RuntimeError
        A D* Lite invariant broken inside the compiled code (a bug, never a property of the input).

    See Also
    --------
    reference.solutions.realtime.dstar_lite : the readable reference this twin mirrors.
    run_compiled : every compiled real-time planner by name (``"dstar_lite"``), the settings described there.

    Examples
    --------
    >>> from reference.world import FogOfWarWorld, Gridworld
    >>> from reference.solutions import realtime
    >>> grid = Gridworld.from_strings(["....", ".@@.", "...."])
    >>> dstar_lite(grid, (2, 0), (0, 3)).trace == realtime.dstar_lite(FogOfWarWorld(grid, (2, 0)), (2, 0), (0, 3)).trace
    True
    """
    return run_compiled(grid, start, target, "dstar_lite", heuristic=heuristic, knowledge=knowledge, record=record)


#: The twins by the readable package's names (:data:`reference.solutions.realtime.ALGORITHMS`), a
#: :class:`~reference.solutions.registry.Registry` as there: settings keyword-only (the readable
#: planner's, and ``record``), the problem to the planner's ``run(grid, start, target)``.
ALGORITHMS = Registry({
    "lrta": bind(lrta_star),
    "lrta_astar": bind(lrta_star_lookahead),
    "lrta_bfs": bind(lrta_star_bfs),
    "dstar_lite": bind(dstar_lite),
})
