"""The benchmark's baseline: a straightforward ``heapq`` + dict implementation of the same SPEC.

This is how most people would first write Repeated A*: cells as ``(row, col)`` tuples, g-values and
tree pointers in dictionaries created anew for every search, OPEN as a ``heapq`` list with lazy
deletion (stale entries are skipped when they reach the top) and keys as tuples. It follows SPEC §4-7
to the letter, so it must produce exactly the reference's traces; the tests check that, which makes
it an independent second implementation as well as a speed baseline. It is not part of the kit.
"""

from __future__ import annotations

import heapq

from reference.world.grid import DIRECTIONS, Cell, Gridworld
from reference.world.trace import SearchRecord, Trace


def baseline_run(grid: Gridworld, start: Cell, target: Cell, algorithm: str = "forward",
                 tie_break: str = "larger_g") -> Trace:
    height, width = grid.height, grid.width
    known_blocked: set[Cell] = set()

    def sense(cell: Cell) -> set[Cell]:
        new = set()
        for d_row, d_col in DIRECTIONS:
            n = (cell[0] + d_row, cell[1] + d_col)
            if 0 <= n[0] < height and 0 <= n[1] < width and grid.blocked[n] and n not in known_blocked:
                new.add(n)
        known_blocked.update(new)
        return new

    learned_h: dict[Cell, int] = {}

    def astar(s_start: Cell, s_goal: Cell) -> tuple[list[Cell], dict[Cell, int], dict[Cell, Cell]]:
        def h(cell: Cell) -> int:
            if cell in learned_h:
                return learned_h[cell]
            return abs(cell[0] - s_goal[0]) + abs(cell[1] - s_goal[1])

        def key(cell: Cell, g_value: int, stamp: int) -> tuple[int, int, int]:
            return (g_value + h(cell), -g_value if tie_break == "larger_g" else g_value, stamp)

        g = {s_start: 0}
        tree: dict[Cell, Cell] = {}
        closed: set[Cell] = set()
        order: list[Cell] = []
        stamp = 0
        latest = {s_start: 0}  # the stamp of each state's live entry; older entries are stale
        open_heap = [(key(s_start, 0, 0), s_start)]
        while open_heap:
            (f, _, entry_stamp), s = open_heap[0]
            if latest.get(s) != entry_stamp:
                heapq.heappop(open_heap)  # stale entry
                continue
            if g.get(s_goal, float("inf")) <= f:
                break
            heapq.heappop(open_heap)
            del latest[s]
            closed.add(s)
            order.append(s)
            for d_row, d_col in DIRECTIONS:
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

    agent = tuple(start)
    sense(agent)
    trajectory = [agent]
    searches = []
    while agent != tuple(target):
        s_start, s_goal = (agent, tuple(target)) if algorithm in ("forward", "adaptive") else (tuple(target), agent)
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
                break
    return Trace(algorithm, tie_break, True, trajectory, searches)

