"""Compiled twins (Numba) of the HAA* queries of :mod:`reference.solutions.haa.query` (SPEC §16).

* :func:`annotated_astar` (AA*): the readable clearance mask, then a compiled A* with the same keys on
  the same heap as the HAA* query's own searches (so that the two planners' times compare like with
  like); :func:`annotated_astar_cost` is AA* on a ready mask, for timings.
* :func:`haa_star`: insertion, abstract A* and refinement in one compiled call; the same cost,
  grid path, abstract path and expansions of each phase as the readable :func:`~reference.solutions.
  haa.query.haa_star` (a tested property), so the paper's time comparison can run at compiled
  speed on both sides.

Every search keeps the readable one's keys, successor order and stopping rule, so the same nodes
are expanded in the same order. The open lists are the kit's compiled heap
(:mod:`reference.solutions.compiled.heap`), whose keys are single int64s; a key
``(f, -g, stamp)`` (A*) or ``(g, stamp)`` (Dijkstra) is packed into one without changing the order:

* ``f`` and ``g`` are costs ``a + b·√2``. Two different costs of at most ``V`` differ by at least
  ``1 / (2V)`` (``|p + q√2| = |p² - 2q²| / |p - q√2| >= 1 / (|p| + |q|√2)``), so
  ``floor(value · scale)`` with ``scale >= 4V`` orders them exactly as the doubles do, and equal
  costs stay equal.
* Under equal ``f``, a larger ``g`` is a smaller ``h``; ``h`` is an octile cost ``(p, q)`` with
  ``p + q`` below the map's longer side, and a table ranks all of them by value once per map size.
* The stamp counts g-improvements; its bound (the edges the search can relax) is known up front.

The bits these need are checked when a graph is prepared; a value above the bound raises.

>>> from reference.world.terrain import terrain_from_strings, GROUND_ONLY
>>> from reference.solutions.haa.abstraction import build_abstraction
>>> terrain = terrain_from_strings(["......", "......", "..@@..", "......", "......", "......"])
>>> graph = build_abstraction(terrain, cluster_size=3, max_size=2)
>>> result = haa_star(graph, (0, 0), (4, 4), 2, GROUND_ONLY)
>>> result.found, result.cost == annotated_astar(terrain, (0, 0), (4, 4), 2, GROUND_ONLY).cost
(True, True)
"""

from __future__ import annotations

import math
from typing import Iterable

import numpy as np
from numba import njit

from reference.solutions.compiled.shortest_paths import astar as _compiled_astar
from reference.solutions.compiled.shortest_paths import move_rule, octile_rank_table
from reference.solutions.compiled.heap import (
    heap_clear, heap_contains, heap_len, heap_new, heap_peek_key, heap_pop, heap_push, heap_update,
)
from reference.solutions.haa.graph import Abstraction
from reference.solutions.haa.capabilities import mask_of
from reference.solutions.haa.query import HAAResult, annotated_blocked
from reference.solutions.shortest_paths import PathResult
from reference.world.grid import MOVES_8, SQRT2, Cell

# The move table (MOVES_8's order), under the names every compiled loop over it uses.
move_rows = np.array([m[0] for m in MOVES_8], dtype=np.int64)
move_cols = np.array([m[1] for m in MOVES_8], dtype=np.int64)


def annotated_astar(terrain: np.ndarray, start: Cell, goal: Cell, size: int, capability: Iterable[int]) -> PathResult:
    """Twin of :func:`reference.solutions.haa.query.annotated_astar`: the same mask, a compiled A* with
    the same keys on the same heap as the HAA* query's searches."""
    blocked = annotated_blocked(terrain, size, capability)
    if blocked[start] or blocked[goal]:
        return PathResult(start, goal, None, [], [])
    found = _full_map_astar(blocked, start, goal)
    if found is None:  # costs beyond the keys' plan: the world's compiled A*, the same result
        return _compiled_astar(blocked, start, goal, connectivity=8)
    cost, expanded, path = found
    width = blocked.shape[1]
    rows, cols = np.divmod(expanded, width)
    expanded_cells = list(zip(rows.tolist(), cols.tolist()))
    return PathResult(start, goal, cost, _cells(path, width) if cost is not None else [], expanded_cells)


def annotated_astar_cost(blocked: np.ndarray, start: Cell, goal: Cell) -> tuple[tuple[int, int] | None, int, list[Cell]]:
    """AA* on a ready mask (``clearance < size``): ``(cost or None, expansions, path)``, without the list of
    expanded cells: what a timing of AA* against :func:`haa_star` (which returns its path) needs."""
    found = _full_map_astar(blocked, start, goal)
    if found is None:
        result = _compiled_astar(blocked, start, goal, connectivity=8)
        return result.cost, result.expansions, result.path
    cost, expanded, path = found
    return cost, len(expanded), _cells(path, blocked.shape[1]) if cost is not None else []


def _cells(indices: np.ndarray, width: int) -> list[Cell]:
    rows, cols = np.divmod(indices, width)  # NumPy splits them at once (a divmod per cell in Python costs more)
    return list(zip(rows.tolist(), cols.tolist()))


_FULL_MAP: dict[tuple[int, int], tuple] = {}


def _full_map_astar(blocked: np.ndarray, start: Cell, goal: Cell):
    """``(cost or None, expanded indices, path indices)``; None when a cost outgrows the key plan."""
    blocked = np.ascontiguousarray(blocked, dtype=np.bool_)
    height, width = blocked.shape
    if (height, width) not in _FULL_MAP:  # scratch arrays and key plan, once per map size
        cells = height * width
        ranks = octile_rank_table(max(height, width))
        rank_count = int(ranks.max()) + 1
        scale, largest = key_plan(0.0, rank_count, 8 * cells + 2)
        _FULL_MAP.clear()
        # the searches' arrays and heap, kept from one query to the next: a search touches only the
        # cells it reaches (seen[cell] == its number), not all of the map's (a reset per query cost
        # more than a short search; docs/haa.md, "The compiled queries")
        _FULL_MAP[(height, width)] = (ranks, scale, largest, rank_count, 8 * cells + 2, np.empty(cells, np.int64),
                                      np.empty(cells, np.int64), np.empty(cells, np.int64), np.empty(cells, np.int64),
                                      np.zeros(cells, np.int64), heap_new(cells), np.zeros(1, np.int64))
    ranks, scale, largest, rank_count, stamps, g_a, g_b, tree, expanded, seen, heap, searches = _FULL_MAP[(height, width)]
    source, target = start[0] * width + start[1], goal[0] * width + goal[1]
    searches[0] += 1
    try:
        found, expansions = _window_astar(blocked, source, target, g_a, g_b, tree, expanded, seen, searches[0], heap,
                                          ranks, scale, largest, rank_count, stamps)
    except ValueError:
        return None
    if not found:
        return None, expanded[:expansions].copy(), np.zeros(0, np.int64)
    path = [target]
    while path[-1] != source:
        path.append(int(tree[path[-1]]))
    return (int(g_a[target]), int(g_b[target])), expanded[:expansions].copy(), np.array(path[::-1], dtype=np.int64)


# -- key packing -------------------------------------------------------------------------------------

def _bits(n: float) -> int:
    return max(1, math.ceil(math.log2(max(n, 2))))


def key_plan(bound: float, ranks: int, stamps: int) -> tuple[float, float]:
    """``(scale, largest value)`` for keys ``(floor(value · scale) · ranks + rank) · stamps + stamp``
    in 63 bits, with ``scale >= 4 · largest value`` (``ValueError`` when ``bound`` does not fit).

    >>> key_plan(100.0, 10, 10)[0] >= 400
    True
    """
    free = 63 - _bits(ranks) - _bits(stamps)          # bits left for floor(value · scale)
    largest_bits = (free - 2) // 2                     # scale >= 4 · largest and scale · largest <= 2**free,
    largest = 2.0 ** largest_bits                      # for an odd number of free bits too (scale = 8 · largest)
    if largest < bound:
        raise ValueError(f"costs up to {bound:.0f} do not fit a 63-bit key with {ranks} ranks and {stamps} stamps")
    return 2.0 ** (free - largest_bits), largest


@njit(cache=True)
def _quantised(a, b, scale, largest):
    value = float(a) + float(b) * 1.4142135623730951
    if value >= largest:
        raise ValueError("a cost grew above the bound the keys were planned for")
    return np.int64(math.floor(value * scale))


@njit(cache=True)
def _h_rank(ranks, row, col, goal_row, goal_col):
    d_row, d_col = abs(row - goal_row), abs(col - goal_col)
    if d_row > d_col:
        return ranks[d_row - d_col, d_col]
    return ranks[d_col - d_row, d_row]


# -- searches inside one cluster ---------------------------------------------------------------------

@njit(cache=True)
def _window_dijkstra(blocked, source, g_a, g_b, tree, closed, scale, largest, stamps_span):
    """Twin of the world's ``dijkstra`` (no goal) on a window: key ``(g, stamp)``. Fills the arrays
    (``g_a < 0``: never reached; ``closed``: settled); returns the expansions."""
    height, width = blocked.shape
    g_a[:] = -1
    g_b[:] = -1
    closed[:] = False
    heap = heap_new(blocked.size)
    g_a[source], g_b[source] = 0, 0
    tree[source] = -1
    heap_push(heap, source, np.int64(0))
    stamp = 0
    expansions = 0
    while heap_len(heap) > 0:
        s = np.int64(heap_pop(heap))
        expansions += 1
        closed[s] = True
        row, col = s // width, s % width
        for move in range(8):
            r, c, diagonal, allowed = move_rule(blocked, height, width, row, col, move_rows[move], move_cols[move])
            if not allowed:
                continue
            t = r * width + c
            if closed[t]:
                continue
            new_a = g_a[s] + (0 if diagonal else 1)
            new_b = g_b[s] + (1 if diagonal else 0)
            if g_a[t] >= 0 and not float(new_a) + float(new_b) * 1.4142135623730951 < float(g_a[t]) + float(g_b[t]) * 1.4142135623730951:
                continue
            g_a[t], g_b[t] = new_a, new_b
            tree[t] = s
            stamp += 1
            key = _quantised(new_a, new_b, scale, largest) * stamps_span + stamp
            if heap_contains(heap, t):
                heap_update(heap, t, key)
            else:
                heap_push(heap, t, key)
    return expansions


@njit(cache=True)
def _window_astar(blocked, start, goal, g_a, g_b, tree, expanded, seen, search, heap, ranks, scale, largest, ranks_span,
                  stamps_span):
    """Twin of the world's ``astar`` (larger-g ties) on a window: key ``(f, -g, stamp)``, stop when
    ``g(goal) <= min f``. Returns ``(found, expansions)``; ``tree`` leads from the goal back and
    ``expanded[:expansions]`` are the expanded cells in order. A cell's g is this search's only when
    ``seen[cell] == search`` (a number no earlier search with these arrays used), so nothing is reset
    but the ``heap`` (a packed heap of at least the window's cells)."""
    height, width = blocked.shape
    goal_row, goal_col = goal // width, goal % width
    heap_clear(heap)
    g_a[start], g_b[start], seen[start] = 0, 0, search
    tree[start] = -1
    heap_push(heap, start, _astar_key(0, 0, start // width, start % width, goal_row, goal_col, 0, ranks, scale,
                                      largest, ranks_span, stamps_span))
    stamp = 0
    expansions = 0
    while heap_len(heap) > 0:
        if seen[goal] == search and not _quantised(g_a[goal], g_b[goal], scale, largest) > heap_peek_key(heap) // (ranks_span * stamps_span):
            break
        s = np.int64(heap_pop(heap))
        expanded[expansions] = s
        expansions += 1
        row, col = s // width, s % width
        for move in range(8):
            r, c, diagonal, allowed = move_rule(blocked, height, width, row, col, move_rows[move], move_cols[move])
            if not allowed:
                continue
            t = r * width + c
            new_a = g_a[s] + (0 if diagonal else 1)
            new_b = g_b[s] + (1 if diagonal else 0)
            if seen[t] == search and not float(new_a) + float(new_b) * 1.4142135623730951 < float(g_a[t]) + float(g_b[t]) * 1.4142135623730951:
                continue
            g_a[t], g_b[t], seen[t] = new_a, new_b, search
            tree[t] = s
            stamp += 1
            key = _astar_key(new_a, new_b, r, c, goal_row, goal_col, stamp, ranks, scale, largest, ranks_span, stamps_span)
            if heap_contains(heap, t):
                heap_update(heap, t, key)
            else:
                heap_push(heap, t, key)
    return seen[goal] == search, expansions


@njit(cache=True)
def _astar_key(g_a, g_b, row, col, goal_row, goal_col, stamp, ranks, scale, largest, ranks_span, stamps_span):
    d_row, d_col = abs(row - goal_row), abs(col - goal_col)
    h_a, h_b = abs(d_row - d_col), min(d_row, d_col)
    f = _quantised(g_a + h_a, g_b + h_b, scale, largest)
    return (f * ranks_span + _h_rank(ranks, row, col, goal_row, goal_col)) * stamps_span + stamp




# -- the query ---------------------------------------------------------------------------------------

@njit(cache=True)
def _query(start_row, start_col, goal_row, goal_col, size, mask, cluster_size, clear, node_rows, node_cols,
           adjacency_start, adjacency_edges, edge_u, edge_v, edge_mask, edge_clearance, edge_a, edge_b, edge_inter,
           cluster_start, cluster_nodes, cluster_columns, ranks, window_plan, abstract_plan):
    """Insertion, abstract A*, refinement (the readable ``haa_star`` after its argument checks).

    Returns ``(found, a, b, path cells, abstract path nodes, insertion, abstract, refinement)``;
    abstract path nodes ``>= N`` are the temporary start (N) and goal (N + 1)."""
    height, width = clear.shape[1], clear.shape[2]
    node_count = node_rows.shape[0]
    start_node, goal_node = node_count, node_count + 1
    w_scale, w_largest, w_ranks_span, w_stamps_span = window_plan[0], window_plan[1], np.int64(window_plan[2]), np.int64(window_plan[3])
    a_scale, a_largest, a_ranks_span, a_stamps_span = abstract_plan[0], abstract_plan[1], np.int64(abstract_plan[2]), np.int64(abstract_plan[3])
    cells = cluster_size * cluster_size
    empty = np.zeros(0, np.int64)

    # 1. Insertion: one in-cluster Dijkstra per end, for the agent's own (size, mask).
    end_rows = np.array([start_row, goal_row])
    end_cols = np.array([start_col, goal_col])
    # temporary edges: [end, i] = (other node, a, b); the Dijkstra trees stay for refinement
    temp_other = np.full((2, cells + 1), -1, np.int64)
    temp_a = np.zeros((2, cells + 1), np.int64)
    temp_b = np.zeros((2, cells + 1), np.int64)
    temp_count = np.zeros(2, np.int64)
    trees = np.full((2, cells), -1, np.int64)
    origins = np.zeros((2, 2), np.int64)  # window's top-left per end
    window_widths = np.zeros(2, np.int64)
    g_a = np.empty(cells, np.int64)
    g_b = np.empty(cells, np.int64)
    closed = np.empty(cells, np.bool_)
    insertion = 0
    for end in range(2):
        cluster_row, cluster_col = end_rows[end] // cluster_size, end_cols[end] // cluster_size
        r0, c0 = cluster_row * cluster_size, cluster_col * cluster_size
        r1, c1 = min(r0 + cluster_size, height), min(c0 + cluster_size, width)
        blocked = clear[mask, r0:r1, c0:c1] < size
        w = c1 - c0
        origins[end, 0], origins[end, 1], window_widths[end] = r0, c0, w
        n = (r1 - r0) * w
        insertion += _window_dijkstra(blocked, (end_rows[end] - r0) * w + end_cols[end] - c0, g_a[:n], g_b[:n],
                                      trees[end, :n], closed[:n], w_scale, w_largest, w_stamps_span)
        cluster = cluster_row * cluster_columns + cluster_col
        for k in range(cluster_start[cluster], cluster_start[cluster + 1]):
            other = cluster_nodes[k]
            local = (node_rows[other] - r0) * w + node_cols[other] - c0
            if closed[local]:
                i = temp_count[end]
                temp_other[end, i], temp_a[end, i], temp_b[end, i] = other, g_a[local], g_b[local]
                temp_count[end] = i + 1
        if end == 1 and start_row // cluster_size == cluster_row and start_col // cluster_size == cluster_col:
            local = (start_row - r0) * w + start_col - c0
            if closed[local]:
                i = temp_count[end]
                temp_other[end, i], temp_a[end, i], temp_b[end, i] = start_node, g_a[local], g_b[local]
                temp_count[end] = i + 1
    # where each node appears in each end's temporary list (the readable scans the lists)
    temp_index = np.full((2, node_count + 2), -1, np.int64)
    for end in range(2):
        for i in range(temp_count[end]):
            temp_index[end, temp_other[end, i]] = i

    # 2. A* over the abstract graph: key (f, -g, stamp), octile h between node cells.
    total = node_count + 2
    node_g_a = np.full(total, -1, np.int64)
    node_g_b = np.full(total, -1, np.int64)
    node_closed = np.zeros(total, np.bool_)
    parent = np.full(total, -1, np.int64)
    via_kind = np.zeros(total, np.int64)  # 0: abstract edge, 1: start's temporary edge, 2: goal's
    via_ref = np.zeros(total, np.int64)
    rows = np.empty(total, np.int64)
    cols = np.empty(total, np.int64)
    rows[:node_count], cols[:node_count] = node_rows, node_cols
    rows[start_node], cols[start_node], rows[goal_node], cols[goal_node] = start_row, start_col, goal_row, goal_col
    heap = heap_new(total)
    node_g_a[start_node], node_g_b[start_node] = 0, 0
    heap_push(heap, start_node, _astar_key(0, 0, start_row, start_col, goal_row, goal_col, 0, ranks, a_scale, a_largest,
                                           a_ranks_span, a_stamps_span))
    stamp = 0
    abstract = 0
    # neighbours are gathered in the readable order into these scratch arrays
    degree_bound = temp_count[0] + temp_count[1] + 2
    for node in range(node_count):
        degree_bound = max(degree_bound, adjacency_start[node + 1] - adjacency_start[node] + 2)
    n_other = np.empty(degree_bound, np.int64)
    n_a = np.empty(degree_bound, np.int64)
    n_b = np.empty(degree_bound, np.int64)
    n_kind = np.empty(degree_bound, np.int64)
    n_ref = np.empty(degree_bound, np.int64)
    while heap_len(heap) > 0:
        if node_g_a[goal_node] >= 0 and not (_quantised(node_g_a[goal_node], node_g_b[goal_node], a_scale, a_largest)
                                             > heap_peek_key(heap) // (a_ranks_span * a_stamps_span)):
            break
        node = np.int64(heap_pop(heap))
        node_closed[node] = True
        abstract += 1
        count = 0
        if node >= node_count:
            end = node - node_count
            for i in range(temp_count[end]):
                n_other[count], n_a[count], n_b[count], n_kind[count], n_ref[count] = temp_other[end, i], temp_a[end, i], temp_b[end, i], end + 1, i
                count += 1
        else:
            for k in range(adjacency_start[node], adjacency_start[node + 1]):
                e = adjacency_edges[k]
                if edge_clearance[e] >= size and edge_mask[e] & ~mask == 0:
                    n_other[count] = edge_v[e] if edge_u[e] == node else edge_u[e]
                    n_a[count], n_b[count], n_kind[count], n_ref[count] = edge_a[e], edge_b[e], 0, e
                    count += 1
        for end in range(2):  # the temporary edges, seen from their other end
            i = temp_index[end, node]
            if i >= 0:
                n_other[count], n_a[count], n_b[count], n_kind[count], n_ref[count] = node_count + end, temp_a[end, i], temp_b[end, i], end + 1, i
                count += 1
        for j in range(count):
            other = n_other[j]
            if node_closed[other]:
                continue
            new_a, new_b = node_g_a[node] + n_a[j], node_g_b[node] + n_b[j]
            if node_g_a[other] >= 0 and not (float(new_a) + float(new_b) * 1.4142135623730951
                                             < float(node_g_a[other]) + float(node_g_b[other]) * 1.4142135623730951):
                continue
            node_g_a[other], node_g_b[other] = new_a, new_b
            parent[other], via_kind[other], via_ref[other] = node, n_kind[j], n_ref[j]
            stamp += 1
            key = _astar_key(new_a, new_b, rows[other], cols[other], goal_row, goal_col, stamp, ranks, a_scale, a_largest,
                             a_ranks_span, a_stamps_span)
            if heap_contains(heap, other):
                heap_update(heap, other, key)
            else:
                heap_push(heap, other, key)
    if node_g_a[goal_node] < 0:
        return False, 0, 0, empty, empty, insertion, abstract, 0
    steps = 0
    node = goal_node
    while node != start_node:
        node = parent[node]
        steps += 1
    nodes = np.empty(steps + 1, np.int64)
    node = goal_node
    for i in range(steps, -1, -1):
        nodes[i] = node
        node = parent[node]

    # 3. Refinement: each abstract edge becomes grid cells.
    path = np.empty(1 + steps * (cells + 1), np.int64)
    path[0] = start_row * width + start_col
    length = 1
    segment = np.empty(cells, np.int64)
    tree = np.empty(cells, np.int64)
    order = np.empty(cells, np.int64)  # the refinement's expanded cells (only their count is kept)
    seen = np.zeros(cells, np.int64)   # the refinement searches' numbers (1, 2, ...), one heap for all
    window_heap = heap_new(cells)
    refinement = 0
    for i in range(steps):
        node_from, node_to = nodes[i], nodes[i + 1]
        kind, ref = via_kind[node_to], via_ref[node_to]
        if kind > 0:  # a temporary edge: the owner's Dijkstra tree, walked the right way
            end = kind - 1
            r0, c0, w = origins[end, 0], origins[end, 1], window_widths[end]
            other = temp_other[end, ref]
            local = (rows[other] - r0) * w + cols[other] - c0
            count = 0
            while local >= 0:  # from the other end back to the owner
                segment[count] = (local // w + r0) * width + local % w + c0
                count += 1
                local = trees[end, local]
            owner = node_count + end
            if owner == node_from:
                for k in range(count - 2, -1, -1):
                    path[length] = segment[k]
                    length += 1
            else:
                for k in range(1, count):
                    path[length] = segment[k]
                    length += 1
        elif edge_inter[ref]:
            path[length] = rows[node_to] * width + cols[node_to]
            length += 1
        else:
            from_row, from_col = rows[node_from], cols[node_from]
            r0, c0 = (from_row // cluster_size) * cluster_size, (from_col // cluster_size) * cluster_size
            r1, c1 = min(r0 + cluster_size, height), min(c0 + cluster_size, width)
            w = c1 - c0
            n = (r1 - r0) * w
            blocked = clear[edge_mask[ref], r0:r1, c0:c1] < edge_clearance[ref]
            source = (from_row - r0) * w + from_col - c0
            target = (rows[node_to] - r0) * w + cols[node_to] - c0
            found, expansions = _window_astar(blocked, source, target, g_a[:n], g_b[:n], tree[:n], order[:n], seen[:n], i + 1,
                                              window_heap, ranks, w_scale, w_largest, w_ranks_span, w_stamps_span)
            refinement += expansions
            count = 0
            local = target
            while local != source:
                segment[count] = (local // w + r0) * width + local % w + c0
                count += 1
                local = tree[local]
            for k in range(count - 1, -1, -1):
                path[length] = segment[k]
                length += 1
    return True, node_g_a[goal_node], node_g_b[goal_node], path[:length], nodes, insertion, abstract, refinement


def _prepared(graph: Abstraction) -> dict:
    """The graph as flat arrays for :func:`_query`, made once per graph and kept with it."""
    if "compiled_query" in graph._lookups:
        return graph._lookups["compiled_query"]
    height, width = graph.shape
    c = graph.cluster_size
    count = len(graph.node_cells)
    node_rows = np.array([cell[0] for cell in graph.node_cells], dtype=np.int64)
    node_cols = np.array([cell[1] for cell in graph.node_cells], dtype=np.int64)
    adjacency = graph.adjacency()
    adjacency_start = np.zeros(count + 1, dtype=np.int64)
    adjacency_start[1:] = np.cumsum([len(a) for a in adjacency])
    adjacency_edges = np.array([e for a in adjacency for e in a], dtype=np.int64)
    edges = graph.edges
    clear = np.zeros((8, height, width), dtype=np.int64)
    for mask, cv in graph.clearances.items():
        clear[mask] = cv
    cluster_columns = -(-width // c)
    cluster_ids = (node_rows // c) * cluster_columns + node_cols // c
    order = np.argsort(cluster_ids, kind="stable")  # nodes of a cluster in node order, as the readable lists them
    clusters = -(-height // c) * cluster_columns
    cluster_start = np.zeros(clusters + 1, dtype=np.int64)
    np.add.at(cluster_start, cluster_ids + 1, 1)
    cluster_start = np.cumsum(cluster_start)
    side = max(height, width)
    ranks = octile_rank_table(side)
    rank_count = int(ranks.max()) + 1
    window_cells = c * c
    window_stamps = 8 * window_cells + 2
    w_scale, w_largest = key_plan((window_cells + 2 * c) * SQRT2, rank_count, window_stamps)
    largest_cluster = int(np.diff(cluster_start).max()) if count else 0
    abstract_stamps = 2 * len(edges) + 4 * (largest_cluster + 1) + 2
    # abstract costs: the bound the keys allow is checked at run time (see _quantised)
    a_scale, a_largest = key_plan(0.0, rank_count, abstract_stamps)
    prepared = dict(
        cluster_size=c, clear=clear, node_rows=node_rows, node_cols=node_cols, adjacency_start=adjacency_start,
        adjacency_edges=adjacency_edges,
        edge_u=np.array([e.u for e in edges], dtype=np.int64), edge_v=np.array([e.v for e in edges], dtype=np.int64),
        edge_mask=np.array([e.mask for e in edges], dtype=np.int64),
        edge_clearance=np.array([e.clearance for e in edges], dtype=np.int64),
        edge_a=np.array([e.cost[0] for e in edges], dtype=np.int64),
        edge_b=np.array([e.cost[1] for e in edges], dtype=np.int64),
        edge_inter=np.array([e.inter for e in edges], dtype=np.bool_),
        cluster_start=cluster_start, cluster_nodes=order.astype(np.int64), cluster_columns=cluster_columns, ranks=ranks,
        window_plan=np.array([w_scale, w_largest, rank_count, window_stamps], dtype=np.float64),
        abstract_plan=np.array([a_scale, a_largest, rank_count, abstract_stamps], dtype=np.float64),
    )
    graph._lookups["compiled_query"] = prepared
    return prepared


def haa_star(graph: Abstraction, start: Cell, goal: Cell, size: int, capability: Iterable[int]) -> HAAResult:
    """Twin of :func:`reference.solutions.haa.query.haa_star`: the same result, one compiled call."""
    if not 1 <= size <= graph.max_size:
        raise ValueError(f"agent size {size} is outside 1..{graph.max_size}, the sizes this abstraction was built for")
    mask = mask_of(capability)
    start, goal = (int(start[0]), int(start[1])), (int(goal[0]), int(goal[1]))
    result = HAAResult(start, goal, None)
    height, width = graph.shape
    if not all(0 <= cell[0] < height and 0 <= cell[1] < width for cell in (start, goal)):
        return result
    cv = graph.clearances[mask]
    if cv[start] < size or cv[goal] < size:
        return result
    if start == goal:
        result.cost, result.path, result.abstract_path = (0, 0), [start], [start]
        return result
    p = _prepared(graph)
    found, a, b, path, nodes, insertion, abstract, refinement = _query(
        start[0], start[1], goal[0], goal[1], size, mask, p["cluster_size"], p["clear"], p["node_rows"], p["node_cols"],
        p["adjacency_start"], p["adjacency_edges"], p["edge_u"], p["edge_v"], p["edge_mask"], p["edge_clearance"],
        p["edge_a"], p["edge_b"], p["edge_inter"], p["cluster_start"], p["cluster_nodes"], p["cluster_columns"],
        p["ranks"], p["window_plan"], p["abstract_plan"])
    result.insertion_expansions, result.abstract_expansions = int(insertion), int(abstract)
    if not found:
        return result
    result.refinement_expansions = int(refinement)
    result.cost = (int(a), int(b))
    rows, cols = np.divmod(path, width)
    result.path = list(zip(rows.tolist(), cols.tolist()))
    node_count = len(graph.node_cells)
    result.abstract_path = [start if n == node_count else goal if n == node_count + 1 else graph.node_cells[n]
                            for n in nodes.tolist()]
    return result
