"""Fast Trajectory Replanning, parts 2-5.

g, search-counter and tree pointers live in numpy arrays the size of the grid, made once per run
(the counter trick of Figure 4 means I never have to reset them). OPEN is my BinaryHeap with
priority (f, -g) and decrease-key (heap.update) when a cell's g goes down.
"""
import numpy as np

from heap import BinaryHeap
from reference.world.trace import SearchRecord, Trace


def _plan(world, start, target, tie_break, mode):
    start = (int(start[0]), int(start[1]))
    target = (int(target[0]), int(target[1]))
    if start == target:
        return Trace(mode, tie_break, True, [start])
    rows, cols = world.height, world.width
    g = np.zeros((rows, cols), dtype=np.int64)
    search = np.zeros((rows, cols), dtype=np.int64)
    tree = np.full((rows, cols, 2), -1, dtype=np.int64)
    h_adaptive = {}
    blocked = set()
    big = rows * cols + 1

    def sense(cell):
        for b in world.sense(cell):
            blocked.add((int(b[0]), int(b[1])))

    sense(start)
    trace = Trace(mode, tie_break, False, [start])
    agent = start
    counter = 0
    record = None
    while agent != target:
        if record is not None:
            trace.searches.append(record)   # save the previous search before the next one
        counter += 1
        s0, s1 = (target, agent) if mode == "backward" else (agent, target)

        def h(cell):
            if cell in h_adaptive:
                return h_adaptive[cell]
            return abs(cell[0] - s1[0]) + abs(cell[1] - s1[1])

        def prio(cell):
            gc = int(g[cell])
            return (gc + h(cell), -gc if tie_break == "larger_g" else gc)

        g[s0], search[s0] = 0, counter
        g[s1], search[s1] = big, counter
        open_heap = BinaryHeap()
        open_heap.push(s0, prio(s0))
        expanded = []
        while len(open_heap) and g[s1] > open_heap.top_priority()[0]:
            s = open_heap.pop()
            expanded.append(s)
            r, c = s
            for t in ((r, c + 1), (r + 1, c), (r, c - 1), (r - 1, c)):
                if t[0] < 0 or t[1] < 0 or t[0] >= rows or t[1] >= cols or t in blocked:
                    continue
                if search[t] < counter:
                    g[t] = big
                    search[t] = counter
                if g[t] > g[s] + 1:
                    g[t] = g[s] + 1
                    tree[t] = s
                    if t in open_heap:
                        open_heap.update(t, prio(t))
                    else:
                        open_heap.push(t, prio(t))
        if g[s1] == big:
            return trace
        path = [s1]
        while path[-1] != s0:
            r, c = tree[path[-1]]
            path.append((int(r), int(c)))
        if mode != "backward":
            path.reverse()
        record = SearchRecord(s0, s1, expanded, path)
        if mode == "adaptive":
            goal_g = int(g[s1])
            for s in expanded:
                h_adaptive[s] = goal_g - int(g[s])
        for i in range(1, len(path)):
            if any(p in blocked for p in path[i:]):
                break
            agent = path[i]
            trace.trajectory.append(agent)
            if agent != target:
                sense(agent)
    trace.reached = True
    return trace


def repeated_forward_astar(world, start, target, tie_break="larger_g"):
    return _plan(world, start, target, tie_break, "forward")


def repeated_backward_astar(world, start, target, tie_break="larger_g"):
    return _plan(world, start, target, tie_break, "backward")


def adaptive_astar(world, start, target, tie_break="larger_g"):
    return _plan(world, start, target, tie_break, "adaptive")
