"""Adaptive and Repeated Forward A* with NumPy state arrays (g, search stamp, learned h)."""
import numpy as np

from minheap import MinHeap

STEPS = np.array([[0, 1], [1, 0], [0, -1], [-1, 0]])


class GridPlanner:
    def __init__(self, shape, adaptive=False):
        self.shape = shape
        self.known = np.zeros(shape, dtype=bool)
        self.g = np.full(shape, np.iinfo(np.int64).max // 2, dtype=np.int64)
        self.stamp = np.zeros(shape, dtype=np.int64)
        self.h_learned = np.full(shape, -1, dtype=np.int64)
        self.parent = {}
        self.adaptive = adaptive
        self.counter = 0

    def h(self, cell, goal):
        learned = self.h_learned[cell]
        if self.adaptive and learned >= 0:
            return int(learned)
        return abs(cell[0] - goal[0]) + abs(cell[1] - goal[1])

    def touch(self, cell):
        if self.stamp[cell] < self.counter:
            self.g[cell] = np.iinfo(np.int64).max // 2
            self.stamp[cell] = self.counter

    def search(self, start, goal):
        self.counter += 1
        self.touch(start)
        self.touch(goal)
        self.g[start] = 0
        heap = MinHeap()
        heap.push_or_update(start, (self.h(start, goal), 0))
        closed = []
        while len(heap) and self.g[goal] > heap.peek_key()[0]:
            _, cell = heap.pop()
            closed.append(cell)
            for step in STEPS:
                nxt = (cell[0] + int(step[0]), cell[1] + int(step[1]))
                if not (0 <= nxt[0] < self.shape[0] and 0 <= nxt[1] < self.shape[1]) or self.known[nxt]:
                    continue
                self.touch(nxt)
                if self.g[nxt] > self.g[cell] + 1:
                    self.g[nxt] = self.g[cell] + 1
                    self.parent[nxt] = cell
                    heap.push_or_update(nxt, (int(self.g[nxt]) + self.h(nxt, goal), -int(self.g[nxt])))
        if self.adaptive and self.stamp[goal] == self.counter and len(closed):
            for cell in closed:
                self.h_learned[cell] = self.g[goal] - self.g[cell]
        return closed

    def path_to(self, start, goal):
        path = [goal]
        while path[-1] != start:
            path.append(self.parent[path[-1]])
        return path[::-1]

    def navigate(self, truth, start, goal):
        agent = start
        visited = [agent]
        total = 0
        self.look(truth, agent)
        while agent != goal:
            total += len(self.search(agent, goal))
            if self.g[goal] >= np.iinfo(np.int64).max // 2:
                return visited, total, False
            for cell in self.path_to(agent, goal)[1:]:
                if self.known[cell]:
                    break
                agent = cell
                visited.append(agent)
                self.look(truth, agent)
        return visited, total, True

    def look(self, truth, cell):
        for step in STEPS:
            r, c = cell[0] + int(step[0]), cell[1] + int(step[1])
            if 0 <= r < self.shape[0] and 0 <= c < self.shape[1] and truth[r, c]:
                self.known[r, c] = True
