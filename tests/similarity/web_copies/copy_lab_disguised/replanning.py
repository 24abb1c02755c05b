"""Repeated forward/backward A* and adaptive A* using inheritance."""
from __future__ import annotations

from queue import PriorityQueue

from reference.world.trace import SearchRecord, Trace


class Forward:
    algorithm = "forward"

    def __init__(self, world):
        self.world = world
        self.height, self.width = world.height, world.width
        self.walls = set()
        self.learned = {}
        self.records = []

    def ends(self, me, target):
        return me, target

    def order(self, path):
        return path

    def update_h(self, closed, g, goal):
        return None

    def heur(self, cell, goal):
        return self.learned.get(cell, abs(cell[0] - goal[0]) + abs(cell[1] - goal[1]))

    def succ(self, cell):
        r, c = cell
        for n in ((r, c + 1), (r + 1, c), (r, c - 1), (r - 1, c)):
            if 0 <= n[0] < self.height and 0 <= n[1] < self.width and n not in self.walls:
                yield n

    def astar(self, start, goal):
        g, parent, closed = {start: 0}, {}, []
        pq = PriorityQueue()
        pq.put((self.heur(start, goal), 0, start))
        done = set()
        while not pq.empty():
            f, neg_g, cell = pq.get()
            if cell in done or -neg_g > g[cell]:
                continue
            if cell == goal:
                break
            done.add(cell)
            closed.append(cell)
            for n in self.succ(cell):
                if g[cell] + 1 < g.get(n, float("inf")):
                    g[n] = g[cell] + 1
                    parent[n] = cell
                    pq.put((g[n] + self.heur(n, goal), -g[n], n))
        if goal not in g:
            return None, closed
        self.update_h(closed, g, goal)
        path = [goal]
        while path[-1] != start:
            path.append(parent[path[-1]])
        return path[::-1], closed

    def look(self, cell):
        self.walls.update(tuple(w) for w in self.world.sense(cell))

    def solve(self, me, target, tie_break):
        walked = [me]
        self.look(me)
        while me != target:
            start, goal = self.ends(me, target)
            path, closed = self.astar(start, goal)
            walk = self.order(path) if path else []
            self.records.append(SearchRecord(start, goal, closed, walk))
            if path is None:
                return Trace(self.algorithm, tie_break, False, walked, self.records)
            for cell in walk[1:]:
                if cell in self.walls:
                    break
                me = cell
                walked.append(me)
                self.look(me)
        return Trace(self.algorithm, tie_break, True, walked, self.records)


class Backward(Forward):
    algorithm = "backward"

    def ends(self, me, target):
        return target, me

    def order(self, path):
        return path[::-1]


class Adaptive(Forward):
    algorithm = "adaptive"

    def update_h(self, closed, g, goal):
        for cell in closed:
            self.learned[cell] = g[goal] - g[cell]


def repeated_forward_astar(world, start, target, tie_break="larger_g"):
    return Forward(world).solve(start, target, tie_break)


def repeated_backward_astar(world, start, target, tie_break="larger_g"):
    return Backward(world).solve(start, target, tie_break)


def adaptive_astar(world, start, target, tie_break="larger_g"):
    return Adaptive(world).solve(start, target, tie_break)
