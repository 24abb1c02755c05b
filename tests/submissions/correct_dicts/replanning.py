"""Repeated Forward / Backward A* and Adaptive A* with dicts and tuples (correct submission fixture).

Written independently of the kit's reference: plain dicts for g, search and tree, a set of known
walls, and a trace returned as a dict whose cells are lists. At start == target it returns at once,
without sensing (the SPEC allows both).
"""

from heap import BinaryHeap
from search_helpers import INF, distance, neighbours


def _run(world, start, target, tie_break, kind):
    start, target = tuple(start), tuple(target)
    trace = {"algorithm": kind, "tie_break": tie_break, "reached": True,
             "trajectory": [list(start)], "searches": []}
    if start == target:
        return trace
    walls = set(world.sense(start))
    agent = start
    g, visited_in, tree, h_learned = {}, {}, {}, {}
    counter = 0
    while True:
        counter += 1
        if kind == "backward":
            s_start, s_goal = target, agent
        else:
            s_start, s_goal = agent, target

        def h(cell):
            if kind == "adaptive" and cell in h_learned:
                return h_learned[cell]
            return distance(cell, s_goal)

        g[s_start], visited_in[s_start] = 0, counter
        g[s_goal], visited_in[s_goal] = INF, counter
        open_heap = BinaryHeap()
        stamp = 0

        def key(cell):
            second = -g[cell] if tie_break == "larger_g" else g[cell]
            return (g[cell] + h(cell), second, stamp)

        open_heap.push(s_start, key(s_start))
        closed = []
        while len(open_heap) and g[s_goal] > open_heap.slots[0][0][0]:
            cell = open_heap.pop()
            closed.append(cell)
            for nxt in neighbours(cell, world.height, world.width, walls):
                if visited_in.get(nxt, 0) < counter:
                    g[nxt], visited_in[nxt] = INF, counter
                if g[nxt] > g[cell] + 1:
                    g[nxt] = g[cell] + 1
                    tree[nxt] = cell
                    stamp += 1
                    if nxt in open_heap:
                        open_heap.update(nxt, key(nxt))
                    else:
                        open_heap.push(nxt, key(nxt))
        found = g[s_goal] < INF
        path = []
        if found:
            cell = s_goal
            chain = [cell]
            while cell != s_start:
                cell = tree[cell]
                chain.append(cell)
            path = chain if kind == "backward" else chain[::-1]
        trace["searches"].append({"start": list(s_start), "goal": list(s_goal),
                                  "expanded": [list(c) for c in closed], "path": [list(c) for c in path]})
        if not found:
            trace["reached"] = False
            return trace
        if kind == "adaptive":
            for cell in closed:
                h_learned[cell] = g[s_goal] - g[cell]
        for step, cell in enumerate(path[1:], start=1):
            if any(c in walls for c in path[step:]):
                break
            agent = cell
            walls.update(world.sense(agent))
            trace["trajectory"].append(list(agent))
            if agent == target:
                return trace


def repeated_forward_astar(world, start, target, tie_break="larger_g"):
    return _run(world, start, target, tie_break, "forward")


def repeated_backward_astar(world, start, target, tie_break="larger_g"):
    return _run(world, start, target, tie_break, "backward")


def adaptive_astar(world, start, target, tie_break="larger_g"):
    return _run(world, start, target, tie_break, "adaptive")
