"""Twin of ``realtime/lookahead.py``: one episode of Koenig's LRTA* with an A* or breadth-first
lookahead (``LookaheadLRTA.plan``) and its seeded random successor order, compiled.

The run loop (:mod:`.agent`) calls :func:`_plan_lookahead`; the public twins are
:func:`reference.solutions.compiled.realtime.lrta_star_lookahead` and ``lrta_star_bfs``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..heap import heap_clear, heap_contains, heap_len, heap_peek, heap_pop, heap_push, heap_update, pack_key
from .heuristics import INFINITY, _h, _neighbour


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
