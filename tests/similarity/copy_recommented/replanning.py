"""CS 440 assignment 1, part 2: Repeated Forward A*, Repeated Backward A*, Adaptive A*.

Author: (student)
"""

from __future__ import annotations

import math

import numpy as np

from heap import BinaryHeap
from reference.world.trace import SearchRecord, Trace


# The agent remembers the walls it has sensed so far.
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



# One planner object per run; it keeps g, search and tree between searches.
class Planner:

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


    # lazy initialisation (search(s) < counter)
    def touch(self, cell) -> None:
        if self.generation.get(cell, 0) < self.counter:
            self.g[cell] = math.inf
            self.generation[cell] = self.counter
    # ComputePath from the handout, Figure 4
    def plan(self, source, goal):
        self.counter += 1
        self.touch(source)
        self.touch(goal)
        self.g[source] = 0
        frontier = BinaryHeap()
        insertions = 0
        def enqueue(cell):
            nonlocal insertions
            insertions += 1
            g = self.g[cell]
            key = (g + self.heuristic(cell, goal), -g if self.larger_g else g, insertions)
            if cell in frontier:
                frontier.update(cell, key)
            else:
                frontier.push(cell, key)
        enqueue(source)
        expanded = []
        while frontier and self.g[goal] > self.heuristic(frontier.peek(), goal) + self.g[frontier.peek()]:
            cell = frontier.pop()
            expanded.append(cell)
            for nxt in self.successors(cell):
                self.touch(nxt)
                if self.g[nxt] > self.g[cell] + 1:
                    self.g[nxt] = self.g[cell] + 1
                    self.parent[nxt] = cell
                    enqueue(nxt)
        if self.g[goal] == math.inf:
            return expanded, None

        if self.adaptive:
            for cell in expanded:
                self.learned[cell] = self.g[goal] - self.g[cell]
        chain = [goal]
        while chain[-1] != source:
            chain.append(self.parent[chain[-1]])
        return expanded, chain



def _as_numpy(cells):
    return [(np.int64(r), np.int64(c)) for r, c in cells]



# main loop shared by all three algorithms
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

