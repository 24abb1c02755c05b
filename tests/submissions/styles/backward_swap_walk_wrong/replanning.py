"""Repeated Forward/Backward A* and Adaptive A*.

The heap is keyed on f only. To break ties in f I look at every entry that has the smallest f
(heap.all_at_top), pick the one with the largest g (or smallest g, for tie_break="smaller_g") and
take that one out of the heap.
"""

from heap import BinaryHeap
from reference.world.trace import SearchRecord, Trace

INF = float("inf")
DIRS = ((0, 1), (1, 0), (0, -1), (-1, 0))   # E, S, W, N


def pick_from_ties(open_heap, g, larger_g):
    tied = open_heap.all_at_top()
    best = tied[0]
    for cell in tied[1:]:
        if (g[cell] > g[best]) if larger_g else (g[cell] < g[best]):
            best = cell
    open_heap.remove(best)
    return best


def a_star(start, goal, known, size, g, last_seen, pointer, counter, h, larger_g):
    height, width = size
    g[start], last_seen[start] = 0, counter
    g[goal], last_seen[goal] = INF, counter
    open_heap = BinaryHeap()
    open_heap.push(start, h(start))
    expanded = []
    while len(open_heap) and g[goal] > open_heap.priority_of(open_heap.peek()):
        s = pick_from_ties(open_heap, g, larger_g)
        expanded.append(s)
        for dr, dc in DIRS:
            t = (s[0] + dr, s[1] + dc)
            if t[0] < 0 or t[0] >= height or t[1] < 0 or t[1] >= width or t in known:
                continue
            if last_seen.get(t, 0) < counter:
                g[t], last_seen[t] = INF, counter
            if g[t] > g[s] + 1:
                g[t] = g[s] + 1
                pointer[t] = s
                if t in open_heap:
                    open_heap.update(t, g[t] + h(t))
                else:
                    open_heap.push(t, g[t] + h(t))
    return expanded


def repeated(world, start, target, tie_break, algorithm):
    start, target = tuple(start), tuple(target)
    trace = Trace(algorithm, tie_break, False, [start])
    if start == target:
        trace.reached = True
        return trace
    known = set(tuple(c) for c in world.sense(start))
    g, last_seen, pointer, h_adapt = {}, {}, {}, {}
    agent, counter = start, 0
    while True:
        counter += 1
        if algorithm == "backward":
            s, goal = target, agent
        else:
            s, goal = agent, target

        def h(cell, goal=goal):
            if cell in h_adapt:
                return h_adapt[cell]
            return abs(cell[0] - goal[0]) + abs(cell[1] - goal[1])

        expanded = a_star(s, goal, known, (world.height, world.width), g, last_seen, pointer, counter, h,
                          tie_break == "larger_g")
        if g[goal] == INF:
            trace.searches.append(SearchRecord(s, goal, expanded, []))
            return trace
        path = [goal]
        while path[-1] != s:
            path.append(pointer[path[-1]])
        path.reverse()   # backward is forward with start and target swapped
        trace.searches.append(SearchRecord(s, goal, expanded, path))
        if algorithm == "adaptive":
            for cell in expanded:
                h_adapt[cell] = g[goal] - g[cell]
        for nxt in path[1:]:
            if any(cell in known for cell in path[path.index(nxt):]):
                break
            agent = nxt
            trace.trajectory.append(agent)
            if agent == target:
                trace.reached = True
                return trace
            known.update(tuple(c) for c in world.sense(agent))


def repeated_forward_astar(world, start, target, tie_break="larger_g"):
    return repeated(world, start, target, tie_break, "forward")


def repeated_backward_astar(world, start, target, tie_break="larger_g"):
    return repeated(world, start, target, tie_break, "backward")


def adaptive_astar(world, start, target, tie_break="larger_g"):
    return repeated(world, start, target, tie_break, "adaptive")
