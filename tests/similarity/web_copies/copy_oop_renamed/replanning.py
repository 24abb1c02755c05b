"""Assignment 1: Repeated Forward A*, Repeated Backward A*, Adaptive A*."""
from __future__ import annotations

import heapq

from reference.world.trace import SearchRecord, Trace


class State:
    """One state on OPEN; equal f goes to the bigger g."""

    def __init__(self, pos, cost, est, prev=None):
        self.pos = pos
        self.cost = cost
        self.est = est
        self.prev = prev

    @property
    def f(self):
        return self.cost + self.est

    def __lt__(self, rhs):
        if self.f == rhs.f:
            return self.cost > rhs.cost
        return self.f < rhs.f


class Searcher:
    DELTAS = [(0, 1), (1, 0), (0, -1), (-1, 0)]

    def __init__(self, height, width):
        self.height = height
        self.width = width
        self.blocked = set()
        self.total = 0

    def dist(self, p, q):
        return abs(p[0] - q[0]) + abs(p[1] - q[1])

    def succ(self, pos):
        for dr, dc in self.DELTAS:
            r, c = pos[0] + dr, pos[1] + dc
            if 0 <= r < self.height and 0 <= c < self.width and (r, c) not in self.blocked:
                yield (r, c)

    def find(self, src, dst):
        pq = [State(src, 0, self.dist(src, dst))]
        best = {src: 0}
        done = set()
        order = []
        while pq:
            st = heapq.heappop(pq)
            if st.pos in done:
                continue
            if st.pos == dst:
                return self.backtrack(st), order
            done.add(st.pos)
            order.append(st.pos)
            for nb in self.succ(st.pos):
                c2 = st.cost + 1
                if c2 < best.get(nb, float("inf")):
                    best[nb] = c2
                    heapq.heappush(pq, State(nb, c2, self.dist(nb, dst), st))
        return None, order

    @staticmethod
    def backtrack(st):
        out = []
        while st is not None:
            out.append(st.pos)
            st = st.prev
        return out[::-1]


def _run(world, start, target, name, tie_break, backward=False):
    s = Searcher(world.height, world.width)
    s.blocked.update(map(tuple, world.sense(start)))
    here, walked, records = start, [start], []
    while here != target:
        src, dst = (target, here) if backward else (here, target)
        path, order = s.find(src, dst)
        if path and backward:
            path = path[::-1]
        records.append(SearchRecord(src, dst, order, path or []))
        if path is None:
            return Trace(name, tie_break, False, walked, records)
        for nxt in path[1:]:
            if nxt in s.blocked:
                break
            here = nxt
            walked.append(here)
            s.blocked.update(map(tuple, world.sense(here)))
    return Trace(name, tie_break, True, walked, records)


def repeated_forward_astar(world, start, target, tie_break="larger_g"):
    return _run(world, start, target, "forward", tie_break)


def repeated_backward_astar(world, start, target, tie_break="larger_g"):
    return _run(world, start, target, "backward", tie_break, backward=True)


def adaptive_astar(world, start, target, tie_break="larger_g"):
    return _run(world, start, target, "adaptive", tie_break)
