"""Repeated Forward A* for a gridworld agent that only sees its neighbours (object-oriented version)."""
import heapq


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
        for dr, dc in self.MOVES:
            r, c = cell[0] + dr, cell[1] + dc
            if 0 <= r < self.rows and 0 <= c < self.cols and (r, c) not in self.walls:
                yield (r, c)

    def plan(self, start, goal):
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

    @staticmethod
    def reconstruct(node):
        path = []
        while node is not None:
            path.append(node.cell)
            node = node.parent
        return path[::-1]

    def observe(self, grid, cell):
        for r, c in self.neighbours(cell):
            if grid[r][c] == 1:
                self.walls.add((r, c))

    def run(self, grid, start, goal):
        position = start
        trajectory = [start]
        self.observe(grid, position)
        while position != goal:
            path, expanded = self.plan(position, goal)
            self.expanded_total += len(expanded)
            if path is None:
                return trajectory, False
            for step in path[1:]:
                if step in self.walls:
                    break
                position = step
                trajectory.append(position)
                self.observe(grid, position)
        return trajectory, True
