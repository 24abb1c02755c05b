"""Repeated Forward A*, Repeated Backward A*, Adaptive A* -- lazy deletion version.

I never update an entry in OPEN. When a cell gets a better g I push a NEW entry for it (the heap
item is (cell, version) so the heap sees a different item) and remember the newest version.
(Old entries just come out later; the cell gets expanded again then, which is harmless because
its g is already right.)
"""

from heap import BinaryHeap
from reference.world.trace import SearchRecord, Trace

INF = float("inf")


class Search:
    """Keeps g, tree pointers and the 'search' counter of Fig. 4 across the searches of one run."""

    def __init__(self, height, width):
        self.height, self.width = height, width
        self.g = {}
        self.search = {}
        self.tree = {}
        self.counter = 0

    def touch(self, s):
        if self.search.get(s, 0) < self.counter:
            self.g[s] = INF
            self.search[s] = self.counter

    def succ(self, s, walls):
        r, c = s
        for t in ((r, c + 1), (r + 1, c), (r, c - 1), (r - 1, c)):
            if 0 <= t[0] < self.height and 0 <= t[1] < self.width and t not in walls:
                yield t

    def compute_path(self, s_start, s_goal, h, walls, larger_g):
        self.counter += 1
        self.touch(s_start)
        self.touch(s_goal)
        self.g[s_start] = 0
        version = {s_start: 0}
        opened = BinaryHeap()

        def key(s):
            return (self.g[s] + h(s), -self.g[s] if larger_g else self.g[s])

        opened.push((s_start, 0), key(s_start))
        closed = set()
        expanded = []

        while len(opened) and self.g[s_goal] > self.g[opened.peek()[0]] + h(opened.peek()[0]):
            s, _ = opened.pop()
            closed.add(s)
            expanded.append(s)
            for t in self.succ(s, walls):
                self.touch(t)
                if self.g[t] > self.g[s] + 1:
                    self.g[t] = self.g[s] + 1
                    self.tree[t] = s
                    version[t] = version.get(t, -1) + 1
                    opened.push((t, version[t]), key(t))
        return expanded

    def path_back(self, s_start, s_goal):
        cells = [s_goal]
        while cells[-1] != s_start:
            cells.append(self.tree[cells[-1]])
        return cells


def _run(world, start, target, tie_break, algorithm):
    start, target = tuple(start), tuple(target)
    trace = Trace(algorithm, tie_break, start == target, [start])
    if start == target:
        return trace
    walls = set(map(tuple, world.sense(start)))
    searcher = Search(world.height, world.width)
    learned = {}
    agent = start
    while agent != target:
        s_start, s_goal = (target, agent) if algorithm == "backward" else (agent, target)

        def h(s, s_goal=s_goal):
            return learned[s] if s in learned else abs(s[0] - s_goal[0]) + abs(s[1] - s_goal[1])

        expanded = searcher.compute_path(s_start, s_goal, h, walls, tie_break == "larger_g")
        if searcher.g[s_goal] == INF:
            trace.searches.append(SearchRecord(s_start, s_goal, expanded, []))
            return trace
        path = searcher.path_back(s_start, s_goal)
        if algorithm != "backward":
            path.reverse()
        trace.searches.append(SearchRecord(s_start, s_goal, expanded, path))
        if algorithm == "adaptive":
            g_goal = searcher.g[s_goal]
            for s in expanded:
                learned[s] = g_goal - searcher.g[s]
        for i in range(1, len(path)):
            if walls.intersection(path[i:]):
                break
            agent = path[i]
            trace.trajectory.append(agent)
            walls.update(map(tuple, world.sense(agent)))
    trace.reached = True
    return trace


def repeated_forward_astar(world, start, target, tie_break="larger_g"):
    return _run(world, start, target, tie_break, "forward")


def repeated_backward_astar(world, start, target, tie_break="larger_g"):
    return _run(world, start, target, tie_break, "backward")


def adaptive_astar(world, start, target, tie_break="larger_g"):
    return _run(world, start, target, tie_break, "adaptive")
