"""The kit's independent second implementation of SPEC §4-8: the tests' referee and the benchmarks' peer.

This is how most people would first write Repeated A*: cells as ``(row, col)`` tuples, g-values and
tree pointers in dictionaries made anew for every search (no ``counter``), OPEN as a ``heapq`` list
with lazy deletion (stale entries are skipped when they reach the top) and keys as tuples, its own
sensing read straight off the true grid's ``blocked`` array, its own successor loop, and the walking
rule checked literally: after every move, the whole rest of the path against what the agent knows.

It shares nothing with ``reference.solutions`` (nor with the world's sensing, successors or
directions): it returns the SPEC §8 record (:class:`reference.world.trace.Trace`) and that is all it
imports of the kit. Where it and the reference agree trace for trace, both follow the SPEC
(``tests/solutions/test_replanning_properties.py``); ``bench/standard.py`` times it beside the reference and the
compiled engines ("how a good student writes it first"). It is not part of the kit.

>>> from reference.world.instances import handout_examples
>>> example_1 = handout_examples()[0]                     # the handout's Figure 2, agent E3, target E5
>>> [len(s.expanded) for s in baseline_run(example_1.grid, example_1.start, example_1.target).searches][:2]
[10, 13]
"""

from __future__ import annotations

import heapq

from reference.world.trace import SearchRecord, Trace

MOVES = ((0, 1), (1, 0), (0, -1), (-1, 0))  # east, south, west, north (SPEC §1)


def baseline_run(grid, start, target, algorithm: str = "forward", tie_break: str = "larger_g") -> Trace:
    """Repeated Forward ("forward"), Backward ("backward") or Adaptive ("adaptive") A* on ``grid``
    (anything with a boolean ``blocked`` array), from ``start`` to ``target``: the SPEC §8 trace."""
    height, width = grid.blocked.shape
    start, target = tuple(start), tuple(target)
    known_blocked: set = set()

    def sense(cell) -> set:
        new = set()
        for d_row, d_col in MOVES:
            n = (cell[0] + d_row, cell[1] + d_col)
            if 0 <= n[0] < height and 0 <= n[1] < width and grid.blocked[n] and n not in known_blocked:
                new.add(n)
        known_blocked.update(new)
        return new

    learned_h: dict = {}

    def astar(s_start, s_goal):
        """One A* search: the expansions in order, g and the tree pointers."""
        def h(cell) -> int:
            if cell in learned_h:
                return learned_h[cell]
            return abs(cell[0] - s_goal[0]) + abs(cell[1] - s_goal[1])

        def key(cell, g_value: int, stamp: int) -> tuple[int, int, int]:
            return (g_value + h(cell), -g_value if tie_break == "larger_g" else g_value, stamp)

        g = {s_start: 0}
        tree: dict = {}
        closed: set = set()  # CLOSED, kept as a first version keeps it (the stamps alone skip stale entries)
        order: list = []
        stamp = 0
        latest = {s_start: 0}  # the stamp of each state's live entry; older entries are stale
        open_heap = [(key(s_start, 0, 0), s_start)]
        while open_heap:
            (f, _, entry_stamp), s = open_heap[0]
            if latest.get(s) != entry_stamp:
                heapq.heappop(open_heap)  # an entry whose state was re-inserted or expanded since
                continue
            if g.get(s_goal, float("inf")) <= f:
                break  # the goal's g is no larger than the smallest f in OPEN
            heapq.heappop(open_heap)
            del latest[s]
            closed.add(s)
            order.append(s)
            for d_row, d_col in MOVES:
                t = (s[0] + d_row, s[1] + d_col)
                if not (0 <= t[0] < height and 0 <= t[1] < width) or t in known_blocked:
                    continue
                if g.get(t, float("inf")) > g[s] + 1:
                    g[t] = g[s] + 1
                    tree[t] = s
                    stamp += 1
                    latest[t] = stamp
                    heapq.heappush(open_heap, (key(t, g[t], stamp), t))
        return order, g, tree

    agent = start
    sense(agent)
    trajectory = [agent]
    searches = []
    while agent != target:
        s_start, s_goal = (agent, target) if algorithm in ("forward", "adaptive") else (target, agent)
        order, g, tree = astar(s_start, s_goal)
        if s_goal not in g:
            searches.append(SearchRecord(s_start, s_goal, order, []))
            return Trace(algorithm, tie_break, False, trajectory, searches)
        path = [s_goal]
        while path[-1] != s_start:
            path.append(tree[path[-1]])
        if algorithm != "backward":
            path.reverse()
        searches.append(SearchRecord(s_start, s_goal, order, path))
        if algorithm == "adaptive":
            for cell in order:
                learned_h[cell] = g[s_goal] - g[cell]
        for step in range(1, len(path)):
            agent = path[step]
            trajectory.append(agent)
            sense(agent)
            if any(cell in known_blocked for cell in path[step + 1:]):
                break  # the rest of the path is known blocked: search again from here
    return Trace(algorithm, tie_break, True, trajectory, searches)
