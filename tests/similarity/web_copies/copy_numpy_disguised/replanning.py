"""Repeated Forward / Backward / Adaptive A* (numpy arrays for the per-cell data)."""
from __future__ import annotations

import numpy as np
from heap import BinaryHeap

from reference.world.trace import SearchRecord, Trace

MOVES = np.array([[0, 1], [1, 0], [0, -1], [-1, 0]])
UNSET = np.iinfo(np.int64).max // 2


class Solver:
    def __init__(self, shape, learn=False):
        self.shape = shape
        self.walls = np.zeros(shape, dtype=bool)
        self.cost = np.full(shape, UNSET, dtype=np.int64)
        self.seen = np.zeros(shape, dtype=np.int64)
        self.hnew = np.full(shape, -1, dtype=np.int64)
        self.back = {}
        self.learn = learn
        self.iteration = 0

    def estimate(self, c, goal):
        if self.learn and self.hnew[c] >= 0:
            return int(self.hnew[c])
        return abs(c[0] - goal[0]) + abs(c[1] - goal[1])

    def reset(self, c):
        if self.seen[c] < self.iteration:
            self.cost[c] = UNSET
            self.seen[c] = self.iteration

    def compute_path(self, start, goal):
        self.iteration += 1
        self.reset(start)
        self.reset(goal)
        self.cost[start] = 0
        pq = BinaryHeap()
        pq.insert(start, (self.estimate(start, goal), 0))
        popped = []
        while len(pq) and self.cost[goal] > pq.top_priority()[0]:
            _, c = pq.pop()
            popped.append(c)
            i = 0
            while i < 4:
                n = (c[0] + int(MOVES[i][0]), c[1] + int(MOVES[i][1]))
                i += 1
                if n[0] < 0 or n[1] < 0 or n[0] >= self.shape[0] or n[1] >= self.shape[1] or self.walls[n]:
                    continue
                self.reset(n)
                if self.cost[n] > self.cost[c] + 1:
                    self.cost[n] = self.cost[c] + 1
                    self.back[n] = c
                    pq.insert(n, (int(self.cost[n]) + self.estimate(n, goal), -int(self.cost[n])))
        if self.learn and self.seen[goal] == self.iteration and popped:
            for c in popped:
                self.hnew[c] = self.cost[goal] - self.cost[c]
        return popped

    def extract(self, start, goal):
        out = [goal]
        while out[-1] != start:
            out.append(self.back[out[-1]])
        return out[::-1]

    def sense(self, world, c):
        for wall in world.sense(c):
            self.walls[tuple(wall)] = True


def solve(world, start, target, algorithm, tie_break):
    solver = Solver((world.height, world.width), learn=algorithm == "adaptive")
    me, walked, records = start, [start], []
    solver.sense(world, me)
    backward = algorithm == "backward"
    while me != target:
        src, dst = (target, me) if backward else (me, target)
        popped = solver.compute_path(src, dst)
        if solver.cost[dst] >= UNSET:
            records.append(SearchRecord(src, dst, popped, []))
            return Trace(algorithm, tie_break, False, walked, records)
        route = solver.extract(src, dst)
        route = route[::-1] if backward else route
        records.append(SearchRecord(src, dst, popped, route))
        for c in route[1:]:
            if solver.walls[c]:
                break
            me = c
            walked.append(me)
            solver.sense(world, me)
    return Trace(algorithm, tie_break, True, walked, records)


def repeated_forward_astar(world, start, target, tie_break="larger_g"):
    return solve(world, start, target, "forward", tie_break)


def repeated_backward_astar(world, start, target, tie_break="larger_g"):
    return solve(world, start, target, "backward", tie_break)


def adaptive_astar(world, start, target, tie_break="larger_g"):
    return solve(world, start, target, "adaptive", tie_break)
