"""Repeated A* (forward, backward, adaptive) for the replanning assignment."""
from __future__ import annotations

import heapq

from reference.world.trace import SearchRecord, Trace


class Node:
    """A search node; ties on f are broken in favour of the larger g."""

    def __init__(self, cell, g, h, parent=None):
        self.cell = cell
        self.g = g
        self.h = h
        self.parent = parent

    @property
    def f(self):
        return self.g + self.h

    def __lt__(self, other):
        if self.f == other.f:
            return self.g > other.g
        return self.f < other.f


class AStarPlanner:
    MOVES = [(0, 1), (1, 0), (0, -1), (-1, 0)]

    def __init__(self, rows, cols):
        self.rows = rows
        self.cols = cols
        self.walls = set()
        self.expanded_total = 0

    def heuristic(self, a, b):
        return abs(a[0] - b[0]) + abs(a[1] - b[1])

    def neighbours(self, cell):
        result = []
        i = 0
        while i < len(self.MOVES):
            r, c = cell[0] + self.MOVES[i][0], cell[1] + self.MOVES[i][1]
            i += 1
            if r < 0 or c < 0 or r >= self.rows or c >= self.cols:
                continue
            if (r, c) in self.walls:
                continue
            result.append((r, c))
        return result

    def plan(self, start, goal):
        open_heap = [Node(start, 0, self.heuristic(start, goal))]
        best_g = {start: 0}
        closed = set()
        expanded = []
        while len(open_heap) > 0:
            node = heapq.heappop(open_heap)
            if node.cell not in closed:
                if node.cell == goal:
                    return self.reconstruct(node), expanded
                closed.add(node.cell)
                expanded.append(node.cell)
                for nxt in self.neighbours(node.cell):
                    g_new = node.g + 1
                    if nxt not in best_g or g_new < best_g[nxt]:
                        best_g[nxt] = g_new
                        heapq.heappush(open_heap, Node(nxt, g_new, self.heuristic(nxt, goal), node))
        return None, expanded

    @staticmethod
    def reconstruct(node):
        path = []
        while node is not None:
            path.append(node.cell)
            node = node.parent
        return path[::-1]


def run(world, start, target, algorithm, tie_break):
    planner = AStarPlanner(world.height, world.width)
    planner.walls |= {tuple(w) for w in world.sense(start)}
    position, trajectory, searches = start, [start], []
    backward = algorithm == "backward"
    while position != target:
        first, second = (target, position) if backward else (position, target)
        path, expanded = planner.plan(first, second)
        if path is not None and backward:
            path.reverse()
        searches.append(SearchRecord(first, second, expanded, path or []))
        if path is None:
            return Trace(algorithm, tie_break, False, trajectory, searches)
        k = 1
        while k < len(path) and path[k] not in planner.walls:
            position = path[k]
            trajectory.append(position)
            planner.walls |= {tuple(w) for w in world.sense(position)}
            k += 1
    return Trace(algorithm, tie_break, True, trajectory, searches)


def repeated_forward_astar(world, start, target, tie_break="larger_g"):
    return run(world, start, target, "forward", tie_break)


def repeated_backward_astar(world, start, target, tie_break="larger_g"):
    return run(world, start, target, "backward", tie_break)


def adaptive_astar(world, start, target, tie_break="larger_g"):
    return run(world, start, target, "adaptive", tie_break)
