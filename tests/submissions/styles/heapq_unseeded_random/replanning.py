"""
Fast Trajectory Replanning - Repeated Forward A*, Repeated Backward A*, Adaptive A*

OPEN uses heapq with the "mark as removed" trick from the Python docs (heapq section,
"Priority Queue Implementation Notes"): every cell has at most one live entry, found via
entry_of[cell]; when its key gets smaller the old entry is marked REMOVED and a new one pushed.
Remaining ties are broken with random.random() so no direction is favoured.
"""
import heapq
import random

REMOVED = "<removed>"
INFINITY = 10 ** 9


class Open:
    def __init__(self, larger_g):
        self.pq = []
        self.entry_of = {}
        self.larger_g = larger_g

    def add(self, cell, f, g):
        if cell in self.entry_of:
            self.entry_of.pop(cell)[-1] = REMOVED
        entry = [f, -g if self.larger_g else g, random.random(), cell]
        self.entry_of[cell] = entry
        heapq.heappush(self.pq, entry)

    def _clean(self):
        while self.pq and self.pq[0][-1] is REMOVED:
            heapq.heappop(self.pq)

    def min_f(self):
        self._clean()
        return self.pq[0][0] if self.pq else INFINITY

    def pop(self):
        self._clean()
        entry = heapq.heappop(self.pq)
        del self.entry_of[entry[-1]]
        return entry[-1]


def neighbours(cell, world, walls):
    r, c = cell
    for nb in ((r, c + 1), (r + 1, c), (r, c - 1), (r - 1, c)):
        if 0 <= nb[0] < world.height and 0 <= nb[1] < world.width and nb not in walls:
            yield nb


def replan(world, start, target, tie_break, algorithm):
    start = (int(start[0]), int(start[1]))
    target = (int(target[0]), int(target[1]))
    out = {"algorithm": algorithm, "tie_break": tie_break, "reached": True,
           "trajectory": [list(start)], "searches": []}
    if start == target:
        return out
    walls = set(tuple(x) for x in world.sense(start))
    g, stamp_of, parent, learned = {}, {}, {}, {}
    counter = 0
    here = start
    while here != target:
        counter += 1
        s_start, s_goal = (target, here) if algorithm == "backward" else (here, target)

        def h(cell, goal=s_goal):
            if algorithm == "adaptive":
                return learned.get(cell, abs(cell[0] - goal[0]) + abs(cell[1] - goal[1]))
            return abs(cell[0] - goal[0]) + abs(cell[1] - goal[1])

        for cell in (s_start, s_goal):
            g[cell], stamp_of[cell] = INFINITY, counter
        g[s_start] = 0
        open_list = Open(tie_break == "larger_g")
        open_list.add(s_start, h(s_start), 0)
        closed = []
        while g[s_goal] > open_list.min_f():
            s = open_list.pop()
            closed.append(s)
            for t in neighbours(s, world, walls):
                if stamp_of.get(t, 0) < counter:
                    g[t], stamp_of[t] = INFINITY, counter
                if g[t] > g[s] + 1:
                    g[t] = g[s] + 1
                    parent[t] = s
                    open_list.add(t, g[t] + h(t), g[t])
        record = {"start": list(s_start), "goal": list(s_goal),
                  "expanded": [list(c) for c in closed], "path": []}
        out["searches"].append(record)
        if g[s_goal] >= INFINITY:
            out["reached"] = False
            return out
        path = [s_goal]
        while path[-1] != s_start:
            path.append(parent[path[-1]])
        if algorithm != "backward":
            path.reverse()
        record["path"] = [list(c) for c in path]
        if algorithm == "adaptive":
            for s in closed:
                learned[s] = g[s_goal] - g[s]
        for i in range(1, len(path)):
            if walls.intersection(path[i:]):
                break
            here = path[i]
            out["trajectory"].append(list(here))
            if here == target:
                break
            walls.update(tuple(x) for x in world.sense(here))
    return out


def repeated_forward_astar(world, start, target, tie_break="larger_g"):
    return replan(world, start, target, tie_break, "forward")


def repeated_backward_astar(world, start, target, tie_break="larger_g"):
    return replan(world, start, target, tie_break, "backward")


def adaptive_astar(world, start, target, tie_break="larger_g"):
    return replan(world, start, target, tie_break, "adaptive")
