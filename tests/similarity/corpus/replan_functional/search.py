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


def follow_tree(tree, source, destination):
    cells = [destination]
    while cells[-1] != source:
        cells.append(tree[cells[-1]])
    return cells


def sense(true_blocked, cell, known_blocked, height, width):
    for nxt in successors(cell, set(), height, width):
        if nxt in true_blocked:
            known_blocked.add(nxt)


def repeated_astar(true_blocked, height, width, start, target, backward=False):
    known_blocked, g, tree, visited_in = set(), {}, {}, {}
    agent, trajectory, searches, search_id = start, [start], [], 0
    sense(true_blocked, agent, known_blocked, height, width)
    while agent != target:
        search_id += 1
        source, destination = (target, agent) if backward else (agent, target)
        expanded = compute_path(source, destination, known_blocked, height, width, g, tree, visited_in, search_id)
        searches.append(expanded)
        if g[destination] == INF:
            return trajectory, searches, False
        path = follow_tree(tree, source, destination)
        path = path if backward else path[::-1]
        for cell in path[1:]:
            if cell in known_blocked:
                break
            agent = cell
            trajectory.append(agent)
            sense(true_blocked, agent, known_blocked, height, width)
    return trajectory, searches, True
