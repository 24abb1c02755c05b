"""Repeated Forward and Backward A* as plain functions over dicts.

The open list is a heapq of (f, -g, counter, cell) tuples: ties in f go to the larger g, then to
the entry pushed first.
"""
from heapq import heappop, heappush
from itertools import count

INF = float("inf")
DIRECTIONS = ((0, 1), (1, 0), (0, -1), (-1, 0))


def manhattan(a, b):
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def successors(cell, known_blocked, height, width):
    row, col = cell
    out = []
    for d_row, d_col in DIRECTIONS:
        nxt = (row + d_row, col + d_col)
        if 0 <= nxt[0] < height and 0 <= nxt[1] < width and nxt not in known_blocked:
            out.append(nxt)
    return out


def compute_path(source, destination, known_blocked, height, width, g, tree, visited_in, search_id):
    """A* from source to destination; returns the cells expanded, in order."""
    tie = count()
    g[source], visited_in[source] = 0, search_id
    g[destination], visited_in[destination] = INF, search_id
    frontier = [(manhattan(source, destination), 0, next(tie), source)]
    expanded = []
    while frontier and g[destination] > frontier[0][0]:
        f_value, neg_g, _, cell = heappop(frontier)
        if -neg_g != g[cell]:
            continue  # stale entry
        expanded.append(cell)
        for nxt in successors(cell, known_blocked, height, width):
            if visited_in.get(nxt, 0) < search_id:
                g[nxt], visited_in[nxt] = INF, search_id
            if g[nxt] > g[cell] + 1:
                g[nxt] = g[cell] + 1
                tree[nxt] = cell
                heappush(frontier, (g[nxt] + manhattan(nxt, destination), -g[nxt], next(tie), nxt))
    return expanded



def path_from_tree(tree, source, destination, backward):
    # my own: walk the pointers, forward paths need reversing
    path = [destination]
    while path[-1] != source:
        path.append(tree[path[-1]])
    if not backward:
        path.reverse()
    return path


def solve(world, start, target, algorithm, tie_break):
    from reference.world.trace import SearchRecord, Trace

    height, width = world.height, world.width
    known_blocked = {tuple(cell) for cell in world.sense(start)}
    g, tree, visited_in = {}, {}, {}
    agent, trajectory, records = start, [start], []
    backward = algorithm == "backward"
    for search_id in range(1, 10**9):
        if agent == target:
            return Trace(algorithm, tie_break, True, trajectory, records)
        source, destination = (target, agent) if backward else (agent, target)
        expanded = compute_path(source, destination, known_blocked, height, width, g, tree, visited_in, search_id)
        if g[destination] == INF:
            records.append(SearchRecord(source, destination, expanded, []))
            return Trace(algorithm, tie_break, False, trajectory, records)
        path = path_from_tree(tree, source, destination, backward)
        records.append(SearchRecord(source, destination, expanded, path))
        for cell in path[1:]:
            if cell in known_blocked:
                break
            agent = cell
            trajectory.append(agent)
            known_blocked.update(tuple(c) for c in world.sense(agent))


def repeated_forward_astar(world, start, target, tie_break="larger_g"):
    return solve(world, start, target, "forward", tie_break)


def repeated_backward_astar(world, start, target, tie_break="larger_g"):
    return solve(world, start, target, "backward", tie_break)


def adaptive_astar(world, start, target, tie_break="larger_g"):
    return solve(world, start, target, "adaptive", tie_break)
