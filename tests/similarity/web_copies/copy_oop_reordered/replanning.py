from __future__ import annotations

import heapq

from reference.world.trace import SearchRecord, Trace


# my planner class, it keeps the walls the agent has seen
class AStarPlanner:
    MOVES = [(0, 1), (1, 0), (0, -1), (-1, 0)]  # E S W N

    def __init__(self, rows, cols):
        self.rows = rows
        self.cols = cols
        self.walls = set()
        self.expanded_total = 0

    @staticmethod
    def reconstruct(node):
        # walk back along the parents
        path = []
        while node is not None:
            path.append(node.cell)
            node = node.parent
        return path[::-1]

    def plan(self, start, goal):
        # standard A*, returns the path and the expanded cells
        open_heap = [Node(start, 0, self.heuristic(start, goal))]
        best_g = {start: 0}
        closed = set()
        expanded = []
        while open_heap:
            node = heapq.heappop(open_heap)
            if node.cell in closed:
                continue
            if node.cell == goal:
                return self.reconstruct(node), expanded
            closed.add(node.cell)
            expanded.append(node.cell)
            for nxt in self.neighbours(node.cell):
                g_new = node.g + 1
                if g_new < best_g.get(nxt, float("inf")):
                    best_g[nxt] = g_new
                    heapq.heappush(open_heap, Node(nxt, g_new, self.heuristic(nxt, goal), node))
        return None, expanded

    def neighbours(self, cell):
        for dr, dc in self.MOVES:
            r, c = cell[0] + dr, cell[1] + dc
            if 0 <= r < self.rows and 0 <= c < self.cols and (r, c) not in self.walls:
                yield (r, c)

    def heuristic(self, a, b):
        # manhattan distance
        return abs(a[0] - b[0]) + abs(a[1] - b[1])


class Node:
    def __lt__(self, other):
        # f first, then prefer bigger g
        if self.f == other.f:
            return self.g > other.g
        return self.f < other.f

    @property
    def f(self):
        return self.g + self.h

    def __init__(self, cell, g, h, parent=None):
        self.cell = cell
        self.g = g
        self.h = h
        self.parent = parent


def adaptive_astar(world, start, target, tie_break="larger_g"):
    return solve(world, start, target, "adaptive", tie_break, False)


def repeated_backward_astar(world, start, target, tie_break="larger_g"):
    return solve(world, start, target, "backward", tie_break, True)


def repeated_forward_astar(world, start, target, tie_break="larger_g"):
    return solve(world, start, target, "forward", tie_break, False)


def solve(world, start, target, algorithm, tie_break, backward):
    planner = AStarPlanner(world.height, world.width)
    for wall in world.sense(start):
        planner.walls.add(tuple(wall))
    agent = start
    trajectory = [agent]
    searches = []
    while agent != target:
        a, b = (target, agent) if backward else (agent, target)
        path, expanded = planner.plan(a, b)
        searches.append(SearchRecord(a, b, expanded, (path[::-1] if backward else path) if path else []))
        if path is None:
            return Trace(algorithm, tie_break, False, trajectory, searches)
        for step in searches[-1].path[1:]:
            if step in planner.walls:
                break
            agent = step
            trajectory.append(agent)
            for wall in world.sense(agent):
                planner.walls.add(tuple(wall))
    return Trace(algorithm, tie_break, True, trajectory, searches)
