"""Repeated Forward A*, Repeated Backward A* and Adaptive A*, exactly by the project's rules.

Keys are (f, -g, stamp) for larger_g and (f, g, stamp) for smaller_g, where the stamp counts the
insertions into OPEN of the current search, so equal f and g go to the entry inserted first.
"""

from heap import BinaryHeap
from reference.world.trace import SearchRecord, Trace

UNREACHED = 2 ** 31 - 1
EAST, SOUTH, WEST, NORTH = (0, 1), (1, 0), (0, -1), (-1, 0)


class Planner:
    def __init__(self, world, larger_g):
        self.world = world
        self.larger_g = larger_g
        self.walls = set()
        self.g = {}
        self.search = {}
        self.tree = {}
        self.counter = 0

    def observe(self, cell):
        self.walls.update((r, c) for r, c in self.world.sense(cell))

    def successors(self, cell):
        for dr, dc in (EAST, SOUTH, WEST, NORTH):
            r, c = cell[0] + dr, cell[1] + dc
            if 0 <= r < self.world.height and 0 <= c < self.world.width and (r, c) not in self.walls:
                yield (r, c)

    def initialise(self, cell):
        if self.search.get(cell, 0) < self.counter:
            self.g[cell] = UNREACHED
            self.search[cell] = self.counter

    def compute_path(self, s_start, s_goal, h):
        """ComputePath() of Figure 3; returns the expanded cells in order."""
        self.counter += 1
        self.initialise(s_start)
        self.initialise(s_goal)
        self.g[s_start] = 0
        stamp = 0
        open_list = BinaryHeap()

        def key(cell):
            g = self.g[cell]
            return (g + h(cell), -g if self.larger_g else g, stamp)

        open_list.push(s_start, key(s_start))
        expanded = []
        while open_list:
            s = open_list.pop()
            if s == s_goal:       # the goal came out of OPEN: done
                break
            expanded.append(s)
            for t in self.successors(s):
                self.initialise(t)
                if self.g[t] > self.g[s] + 1:
                    self.g[t] = self.g[s] + 1
                    self.tree[t] = s
                    stamp += 1
                    if t in open_list:
                        open_list.update(t, key(t))
                    else:
                        open_list.push(t, key(t))
        return expanded

    def pointers(self, s_start, s_goal):
        chain = [s_goal]
        while chain[-1] != s_start:
            chain.append(self.tree[chain[-1]])
        return chain


def run(world, start, target, tie_break, algorithm):
    start, target = (start[0], start[1]), (target[0], target[1])
    trace = Trace(algorithm, tie_break, False, [start])
    if start == target:
        trace.reached = True
        return trace
    planner = Planner(world, tie_break == "larger_g")
    planner.observe(start)
    learned_h = {}
    agent = start
    while True:
        if algorithm == "backward":
            s_start, s_goal = target, agent
        else:
            s_start, s_goal = agent, target

        def h(cell, s_goal=s_goal):
            if cell in learned_h:
                return learned_h[cell]
            return abs(cell[0] - s_goal[0]) + abs(cell[1] - s_goal[1])

        expanded = planner.compute_path(s_start, s_goal, h)
        record = SearchRecord(s_start, s_goal, expanded, [])
        trace.searches.append(record)
        if planner.g[s_goal] == UNREACHED:
            return trace
        chain = planner.pointers(s_start, s_goal)
        record.path = chain if algorithm == "backward" else chain[::-1]
        if algorithm == "adaptive":
            for s in expanded:
                learned_h[s] = planner.g[s_goal] - planner.g[s]
        for step in range(1, len(record.path)):
            if any(cell in planner.walls for cell in record.path[step:]):
                break
            agent = record.path[step]
            trace.trajectory.append(agent)
            if agent == target:
                trace.reached = True
                return trace
            planner.observe(agent)


def repeated_forward_astar(world, start, target, tie_break="larger_g"):
    return run(world, start, target, tie_break, "forward")


def repeated_backward_astar(world, start, target, tie_break="larger_g"):
    return run(world, start, target, tie_break, "backward")


def adaptive_astar(world, start, target, tie_break="larger_g"):
    return run(world, start, target, tie_break, "adaptive")
