"""Fast Trajectory Replanning: my solution."""
from __future__ import annotations

from heapq import heappop, heappush
from itertools import count

from reference.world.trace import SearchRecord, Trace

BIG = float("inf")
STEPS = ((0, 1), (1, 0), (0, -1), (-1, 0))   # east, south, west, north


def next_cells(here, walls, rows, cols):
    # the four neighbours that are inside and not known walls
    r0, c0 = here
    found = []
    for a, b in STEPS:
        cand = (r0 + a, c0 + b)
        if 0 <= cand[0] < rows and 0 <= cand[1] < cols and cand not in walls:
            found.append(cand)
    return found


def h(p, q):
    return abs(p[0] - q[0]) + abs(p[1] - q[1])


def trace_back(parents, src, dst):
    out = [dst]
    while out[-1] != src:
        out.append(parents[out[-1]])
    return out


def astar(src, dst, walls, rows, cols, cost, parents, stamp, counter):
    # ComputePath from the handout
    ticket = count()
    cost[src], stamp[src] = 0, counter
    cost[dst], stamp[dst] = BIG, counter
    heap = [(h(src, dst), 0, next(ticket), src)]
    popped = []
    while heap and cost[dst] > heap[0][0]:
        fv, ng, _, here = heappop(heap)
        if -ng != cost[here]:
            continue
        popped.append(here)
        for there in next_cells(here, walls, rows, cols):
            if stamp.get(there, 0) < counter:
                cost[there], stamp[there] = BIG, counter
            if cost[there] > cost[here] + 1:
                cost[there] = cost[here] + 1
                parents[there] = here
                heappush(heap, (cost[there] + h(there, dst), -cost[there], next(ticket), there))
    return popped


def solve(world, start, target, algorithm, tie_break):
    rows, cols = world.height, world.width
    walls, cost, parents, stamp = set(map(tuple, world.sense(start))), {}, {}, {}
    me, walked, records, counter = start, [start], [], 0
    back = algorithm == "backward"
    while me != target:
        counter += 1
        src, dst = (target, me) if back else (me, target)
        popped = astar(src, dst, walls, rows, cols, cost, parents, stamp, counter)
        if cost[dst] == BIG:
            records.append(SearchRecord(src, dst, popped, []))
            return Trace(algorithm, tie_break, False, walked, records)
        route = trace_back(parents, src, dst)
        route = route if back else route[::-1]
        records.append(SearchRecord(src, dst, popped, route))
        for cell in route[1:]:
            if cell in walls:
                break
            me = cell
            walked.append(me)
            walls.update(map(tuple, world.sense(me)))
    return Trace(algorithm, tie_break, True, walked, records)


def repeated_forward_astar(world, start, target, tie_break="larger_g"):
    return solve(world, start, target, "forward", tie_break)


def repeated_backward_astar(world, start, target, tie_break="larger_g"):
    return solve(world, start, target, "backward", tie_break)


def adaptive_astar(world, start, target, tie_break="larger_g"):
    return solve(world, start, target, "adaptive", tie_break)
