"""A second implementation of SPEC §4-8, written differently from the reference, for the tests.

It shares nothing with ``reference.solutions`` and uses only the grid's ``blocked`` array: its own
sensing (read straight off the true grid), its own successor loop, OPEN as a ``heapq`` list with lazy
deletion (stale entries are skipped when they reach the top) instead of a heap with an index,
g-values and tree pointers in dictionaries made anew for every search (no ``counter``), and the
walking rule checked literally: before every move, the whole rest of the path against what the
agent knows. Where it and the reference agree trace for trace, both follow the SPEC.

>>> from reference.world.grid import Gridworld
>>> grid = Gridworld.from_strings([".....", "..@..", "..@@.", "..@@.", "...@."])  # the handout's Figure 2
>>> [len(s.expanded) for s in oracle_run(grid, (4, 2), (4, 4), "forward").searches][:2]
[10, 13]
"""

from __future__ import annotations

import heapq

from reference.world.trace import SearchRecord, Trace

MOVES = ((0, 1), (1, 0), (0, -1), (-1, 0))  # east, south, west, north (SPEC §1)


def oracle_run(grid, start, target, algorithm: str = "forward", tie_break: str = "larger_g") -> Trace:
    height, width = grid.blocked.shape
    start, target = tuple(start), tuple(target)
    known: set = set()
    learned: dict = {}

    def look(cell) -> None:
        for d_row, d_col in MOVES:
            row, col = cell[0] + d_row, cell[1] + d_col
            if 0 <= row < height and 0 <= col < width and grid.blocked[row, col]:
                known.add((row, col))

    def astar(origin, goal):
        """One A* search; returns the expansions in order, g and the tree pointers."""
        def h(cell):
            return learned[cell] if cell in learned else abs(cell[0] - goal[0]) + abs(cell[1] - goal[1])

        g = {origin: 0}
        parent = {}
        live = {origin: 0}  # cell -> the stamp of its one valid OPEN entry
        stamps = 0
        sign = -1 if tie_break == "larger_g" else 1
        heap = [(h(origin), 0, 0, origin)]
        expanded = []
        while heap:
            f, _, stamp, cell = heap[0]
            if live.get(cell) != stamp:
                heapq.heappop(heap)  # an entry whose state was re-inserted or expanded since
                continue
            if goal in g and g[goal] <= f:
                break  # the goal's g is no larger than the smallest f in OPEN
            heapq.heappop(heap)
            del live[cell]
            expanded.append(cell)
            for d_row, d_col in MOVES:
                nxt = (cell[0] + d_row, cell[1] + d_col)
                if not (0 <= nxt[0] < height and 0 <= nxt[1] < width) or nxt in known:
                    continue
                if nxt not in g or g[nxt] > g[cell] + 1:
                    g[nxt] = g[cell] + 1
                    parent[nxt] = cell
                    stamps += 1
                    live[nxt] = stamps
                    heapq.heappush(heap, (g[nxt] + h(nxt), sign * g[nxt], stamps, nxt))
        return expanded, g, parent

    agent = start
    look(agent)
    trajectory, searches = [agent], []
    while agent != target:
        origin, goal = (target, agent) if algorithm == "backward" else (agent, target)
        expanded, g, parent = astar(origin, goal)
        if goal not in g:
            searches.append(SearchRecord(origin, goal, expanded, []))
            return Trace(algorithm, tie_break, False, trajectory, searches)
        path = [goal]
        while path[-1] != origin:
            path.append(parent[path[-1]])
        if algorithm != "backward":
            path = path[::-1]
        searches.append(SearchRecord(origin, goal, expanded, path))
        if algorithm == "adaptive":
            for cell in expanded:
                learned[cell] = g[goal] - g[cell]
        for step in range(1, len(path)):
            if any(cell in known for cell in path[step:]):
                break  # the rest of the path is known blocked: search again from here
            agent = path[step]
            trajectory.append(agent)
            look(agent)
    return Trace(algorithm, tie_break, True, trajectory, searches)
