"""Repeated A* as classes: an Agent that remembers walls and a Planner per search direction
(correct submission fixture, written independently of the kit's reference).

It returns the kit's public ``Trace`` with cells as NumPy integers, and senses at the start even when
the agent starts on the target (the SPEC allows both).
"""

from __future__ import annotations

import math

import numpy as np

from heap import BinaryHeap
from reference.world.trace import SearchRecord, Trace


class Agent:
    def __init__(self, world, start):
        self.world = world
        self.position = start
        self.walls = np.zeros((world.height, world.width), dtype=bool)
        self.walked = [start]
        self.look()

    def look(self):
        for row, col in self.world.sense(self.position):
            self.walls[row, col] = True

    def step(self, cell):
        self.position = cell
        self.walked.append(cell)
        self.look()

    def free(self, cell) -> bool:
        return not self.walls[cell]


class Planner:
    """One A* search per call to ``plan``; g and search(s) live across calls (lazy initialisation)."""

    def __init__(self, agent: Agent, larger_g: bool, adaptive: bool):
        self.agent = agent
        self.larger_g = larger_g
        self.adaptive = adaptive
        self.counter = 0
        self.g: dict = {}
        self.generation: dict = {}
        self.parent: dict = {}
        self.learned: dict = {}

    def successors(self, cell):
        r, c = cell
        height, width = self.agent.walls.shape
        for nxt in ((r, c + 1), (r + 1, c), (r, c - 1), (r - 1, c)):
            if 0 <= nxt[0] < height and 0 <= nxt[1] < width and self.agent.free(nxt):
                yield nxt

    def heuristic(self, cell, goal) -> int:
        if self.adaptive and cell in self.learned:
            return self.learned[cell]
        return abs(cell[0] - goal[0]) + abs(cell[1] - goal[1])

    def touch(self, cell) -> None:
        if self.generation.get(cell, 0) < self.counter:
            self.g[cell] = math.inf
            self.generation[cell] = self.counter

    def plan(self, source, goal):
        """ComputePath, written my own way: an explicit OPEN list and a stamp per insertion."""
        self.counter += 1
        for s in (source, goal):
            self.touch(s)
        self.g[source] = 0
        open_list = BinaryHeap()
        stamp = [0]

        def priority(s):
            f = self.g[s] + self.heuristic(s, goal)
            tie = -self.g[s] if self.larger_g else self.g[s]
            return (f, tie, stamp[0])

        open_list.push(source, priority(source))
        closed = []
        while len(open_list) > 0:
            best = open_list.peek()
            if self.g[goal] <= self.g[best] + self.heuristic(best, goal):
                break
            open_list.pop()
            closed.append(best)
            for succ in self.successors(best):
                self.touch(succ)
                new_g = self.g[best] + 1
                if new_g < self.g[succ]:
                    self.g[succ] = new_g
                    self.parent[succ] = best
                    stamp[0] += 1
                    if succ in open_list:
                        open_list.update(succ, priority(succ))
                    else:
                        open_list.push(succ, priority(succ))
        if math.isinf(self.g[goal]):
            return closed, None
        if self.adaptive:
            goal_distance = self.g[goal]
            self.learned.update({s: goal_distance - self.g[s] for s in closed})
        backwards = [goal]
        node = goal
        while node != source:
            node = self.parent[node]
            backwards.append(node)
        return closed, backwards


def _as_numpy(cells):
    return [(np.int64(r), np.int64(c)) for r, c in cells]


def _solve(world, start, target, tie_break, algorithm):
    start, target = (int(start[0]), int(start[1])), (int(target[0]), int(target[1]))
    agent = Agent(world, start)
    planner = Planner(agent, tie_break == "larger_g", algorithm == "adaptive")
    records = []
    reached = True
    while agent.position != target:
        if algorithm == "backward":
            source, goal = target, agent.position
        else:
            source, goal = agent.position, target
        expanded, chain = planner.plan(source, goal)
        if chain is None:
            records.append(SearchRecord(source, goal, _as_numpy(expanded), []))
            reached = False
            break
        path = chain if algorithm == "backward" else chain[::-1]
        records.append(SearchRecord(source, goal, _as_numpy(expanded), _as_numpy(path)))
        for index in range(1, len(path)):
            if not all(agent.free(cell) for cell in path[index:]):
                break
            agent.step(path[index])
    return Trace(algorithm, tie_break, reached, _as_numpy(agent.walked), records)


def repeated_forward_astar(world, start, target, tie_break="larger_g"):
    return _solve(world, start, target, tie_break, "forward")


def repeated_backward_astar(world, start, target, tie_break="larger_g"):
    return _solve(world, start, target, tie_break, "backward")


def adaptive_astar(world, start, target, tie_break="larger_g"):
    return _solve(world, start, target, tie_break, "adaptive")
