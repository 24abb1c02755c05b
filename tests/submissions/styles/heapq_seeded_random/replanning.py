"""Repeated A* (forward, backward, adaptive).

Ties: f first, then g (by the tie_break setting), and anything still tied is broken by a random
number so the agent doesn't always prefer one direction. Every run makes its own generator with
the same seed, so a run is reproducible when I debug.
"""
import heapq
import random

from reference.world.trace import SearchRecord, Trace

SEED = 1234
MOVES = [(0, 1), (1, 0), (0, -1), (-1, 0)]  # east, south, west, north


class RepeatedAStar:
    def __init__(self, world, start, goal, tie_break, kind):
        self.world = world
        self.start = tuple(start)
        self.goal = tuple(goal)
        self.tie_break = tie_break
        self.kind = kind
        self.known_walls = set()
        self.g = {}
        self.visited_by = {}   # cell -> counter of the search that last reset it
        self.came_from = {}
        self.h_new = {}
        self.counter = 0
        self.rng = random.Random(SEED)

    def h(self, cell, target):
        if self.kind == "adaptive" and cell in self.h_new:
            return self.h_new[cell]
        return abs(cell[0] - target[0]) + abs(cell[1] - target[1])

    def get_g(self, cell):
        if self.visited_by.get(cell) != self.counter:
            self.visited_by[cell] = self.counter
            self.g[cell] = float("inf")
        return self.g[cell]

    def entry(self, cell, target):
        g = self.g[cell]
        second = -g if self.tie_break == "larger_g" else g
        return (g + self.h(cell, target), second, self.rng.random(), cell)

    def search(self, source, target):
        self.counter += 1
        self.get_g(source)
        self.g[source] = 0
        self.get_g(target)
        frontier = [self.entry(source, target)]
        done = set()
        order = []
        while True:
            # drop outdated entries from the top (cell already expanded, or a better g was found)
            while frontier and (frontier[0][3] in done or frontier[0][0] - self.h(frontier[0][3], target) != self.g[frontier[0][3]]):
                heapq.heappop(frontier)
            if not frontier or self.g[target] <= frontier[0][0]:
                break
            cell = heapq.heappop(frontier)[3]
            done.add(cell)
            order.append(cell)
            r, c = cell
            for dr, dc in MOVES:
                nxt = (r + dr, c + dc)
                if not (0 <= nxt[0] < self.world.height and 0 <= nxt[1] < self.world.width):
                    continue
                if nxt in self.known_walls:
                    continue
                if self.get_g(nxt) > self.g[cell] + 1:
                    self.g[nxt] = self.g[cell] + 1
                    self.came_from[nxt] = cell
                    heapq.heappush(frontier, self.entry(nxt, target))
        return order

    def run(self):
        trace = Trace(self.kind, self.tie_break, True, [self.start])
        if self.start == self.goal:
            return trace
        agent = self.start
        self.known_walls.update(tuple(w) for w in self.world.sense(agent))
        while agent != self.goal:
            a, b = (self.goal, agent) if self.kind == "backward" else (agent, self.goal)
            order = self.search(a, b)
            if self.g[b] == float("inf"):
                trace.searches.append(SearchRecord(a, b, order, []))
                trace.reached = False
                return trace
            route = [b]
            while route[-1] != a:
                route.append(self.came_from[route[-1]])
            if self.kind != "backward":
                route = route[::-1]
            trace.searches.append(SearchRecord(a, b, order, route))
            if self.kind == "adaptive":
                for s in order:
                    self.h_new[s] = self.g[b] - self.g[s]
            i = 1
            while i < len(route) and not any(x in self.known_walls for x in route[i:]):
                agent = route[i]
                trace.trajectory.append(agent)
                self.known_walls.update(tuple(w) for w in self.world.sense(agent))
                i += 1
        return trace


def repeated_forward_astar(world, start, target, tie_break="larger_g"):
    return RepeatedAStar(world, start, target, tie_break, "forward").run()


def repeated_backward_astar(world, start, target, tie_break="larger_g"):
    return RepeatedAStar(world, start, target, tie_break, "backward").run()


def adaptive_astar(world, start, target, tie_break="larger_g"):
    return RepeatedAStar(world, start, target, tie_break, "adaptive").run()
