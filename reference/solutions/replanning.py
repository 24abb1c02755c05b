"""Repeated Forward A*, Repeated Backward A* and Adaptive A* (SPEC §5-7; handout Figure 4).

One engine, :class:`RepeatedAStar`, serves all three. ``compute_path`` is the handout's
ComputePath (Figure 4, lines 1-13) and ``run`` its Main (lines 14-34); comments cite the lines.

Keys and ties (SPEC §5). OPEN is ordered by ``(f, -g, stamp)`` for ``larger_g`` and
``(f, g, stamp)`` for ``smaller_g``, where the stamp counts insertions into OPEN in this search.
For speed the engine packs each key into one integer that sorts the same way (:func:`pack_key`):
comparing two Python ints is several times cheaper than comparing two tuples.

State is kept in flat arrays indexed by cell (``index = row * width + col``), allocated once per
run (lines 15-17); each search touches only the cells it generates, thanks to ``counter`` and
``search(s)``.

>>> from reference.world import FogOfWarWorld, Gridworld
>>> grid = Gridworld.from_strings([".....", "..@..", "..@@.", "..@@.", "...@."])  # the handout's Figure 2
>>> trace = repeated_forward_astar(FogOfWarWorld(grid, (4, 2)), (4, 2), (4, 4))
>>> trace.reached, [len(s.expanded) for s in trace.searches][:2]
(True, [10, 13])
"""

from __future__ import annotations

from array import array
from typing import Callable

from reference.world.grid import Cell
from reference.world.sensing import Knowledge, World, cell_inside
from reference.world.trace import SearchRecord, Trace, TIE_BREAKS

from .heap import BinaryHeap

#: g-value of a state not reached yet: the largest value a 32-bit g array holds, larger than any
#: path length on a grid of fewer than 2**31 cells. An int, so that every comparison is int-to-int.
INFINITY = 2**31 - 1


def pack_key(f: int, g: int, stamp: int, tie_break: str, cell_count: int) -> int:
    """Pack the SPEC's key into one integer with the same order.

    ``larger_g``: ``(f, -g, stamp)``; ``smaller_g``: ``(f, g, stamp)``. With ``n`` cells, g lies in
    ``[0, n)`` and a search makes at most ``4n + 1`` insertions, so the three parts fit side by side
    as digits of a mixed-radix number: ``(f * n + tie) * (4n + 2) + stamp``, and
    ``key // (n * (4n + 2))`` is the key's f-value again.

    >>> pack_key(8, 3, 1, "larger_g", 25) < pack_key(8, 2, 0, "larger_g", 25)   # larger g first
    True
    >>> pack_key(8, 2, 1, "smaller_g", 25) < pack_key(8, 3, 0, "smaller_g", 25)  # smaller g first
    True
    """
    tie = (cell_count - 1 - g) if tie_break == "larger_g" else g
    return (f * cell_count + tie) * (4 * cell_count + 2) + stamp


class RepeatedAStar:
    """The agent of SPEC §4-7: it senses, searches with A* on what it knows, walks, and repeats.

    ``direction`` is ``"forward"`` (search from the agent to the target) or ``"backward"``
    (from the target to the agent); ``adaptive`` turns on Adaptive A*'s h-value updates (forward
    only). ``open_list`` makes OPEN (default: the from-scratch :class:`BinaryHeap`; the benchmark
    passes a ``heapq`` adapter to show what the from-scratch heap costs).
    """

    def __init__(
        self,
        world: World,
        start: Cell,
        target: Cell,
        direction: str = "forward",
        adaptive: bool = False,
        tie_break: str = "larger_g",
        open_list: Callable[[], BinaryHeap] = BinaryHeap,
    ) -> None:
        if direction not in ("forward", "backward"):
            raise ValueError(f"direction must be 'forward' or 'backward', got {direction!r}")
        if adaptive and direction != "forward":
            raise ValueError("Adaptive A* searches forward: its h-values estimate distances to a fixed target")
        if tie_break not in TIE_BREAKS:
            raise ValueError(f"tie_break must be 'larger_g' or 'smaller_g', got {tie_break!r}")
        self.world = world
        self.height, self.width = int(world.height), int(world.width)
        self.start = cell_inside(world, start, "start")
        self.target = cell_inside(world, target, "target")
        self.direction = direction
        self.adaptive = adaptive
        self.tie_break = tie_break
        self.open_list = open_list
        self.algorithm = "adaptive" if adaptive else direction

        # Figure 4, lines 15-17: the one pass over all cells, when the memory is allocated. Each
        # array holds 32-bit integers: 4 bytes per cell (a list would hold 8-byte pointers).
        cells = self.height * self.width
        self.cell_count = cells
        self.counter = 0
        self.g = array("i", [INFINITY]) * cells
        self.search = array("i", [0]) * cells
        self.tree = array("i", [-1]) * cells  # the cell a state's tree pointer points to
        # Adaptive A*'s learned h-values; -1 means "not learned yet: use the Manhattan distance".
        self.learned_h = array("i", [-1]) * cells if adaptive else None
        self.knowledge = Knowledge(self.height, self.width)

    # -- the agent loop (Figure 4, Main) ----------------------------------------------------------

    def run(self) -> Trace:
        """Move the agent until it reaches the target or knows it cannot (lines 14-34)."""
        width = self.width
        agent = self.start[0] * width + self.start[1]
        target = self.target[0] * width + self.target[1]
        self.observe(agent)  # SPEC §4: the agent looks around its start cell before the first search
        trajectory = [agent]
        searches: list[SearchRecord] = []
        while agent != target:  # line 18
            self.counter += 1  # line 19
            if self.direction == "forward":
                s_start, s_goal = agent, target
            else:
                s_start, s_goal = target, agent
            expanded = self.compute_path(s_start, s_goal)  # lines 20-26
            found = self.g[s_goal] < INFINITY  # line 27: OPEN is empty exactly when the goal was not reached
            path = self.read_path(s_start, s_goal) if found else []
            searches.append(SearchRecord(
                start=divmod(s_start, width), goal=divmod(s_goal, width),
                expanded=[divmod(s, width) for s in expanded],
                path=[divmod(s, width) for s in path],
            ))
            if not found:
                return self.trace(False, trajectory, searches)  # line 28: "I cannot reach the target."
            if self.adaptive:
                self.update_heuristic(expanded, s_goal)
            agent = self.follow(path, trajectory)  # lines 30-32
        return self.trace(True, trajectory, searches)  # line 33: "I reached the target."

    def trace(self, reached: bool, trajectory: list[int], searches: list[SearchRecord]) -> Trace:
        cells = [divmod(s, self.width) for s in trajectory]
        return Trace(self.algorithm, self.tie_break, reached, cells, searches)

    def observe(self, cell: int) -> list[int]:
        """Sense the neighbours of ``cell`` (where the agent stands); return newly seen blocked cells."""
        seen = self.world.sense(divmod(cell, self.width))
        return [row * self.width + col for row, col in self.knowledge.observe(seen)]

    def follow(self, path: list[int], trajectory: list[int]) -> int:
        """Walk ``path`` (agent first) until the target, or until a cell ahead is seen blocked (SPEC §6).

        Rather than re-checking the whole remaining path before every move, it checks each newly
        observed blocked cell against the path's cells: the only way a path cell becomes known
        blocked is by being observed, so this is the same rule at O(1) per move.
        """
        position_on_path = {cell: i for i, cell in enumerate(path)}
        agent = path[0]
        for step in range(1, len(path)):
            agent = path[step]
            trajectory.append(agent)
            newly_blocked = self.observe(agent)
            if any(position_on_path.get(cell, -1) > step for cell in newly_blocked):
                break  # the remaining path is blocked: search again from here
        return agent

    def read_path(self, s_start: int, s_goal: int) -> list[int]:
        """The agent-to-target path from the tree pointers (line 30)."""
        cells = [s_goal]
        while cells[-1] != s_start:
            cells.append(self.tree[cells[-1]])
        # Forward: the pointers lead from the target back to the agent, so reverse them.
        # Backward: they lead from the agent to the target, already in walking order.
        return cells[::-1] if self.direction == "forward" else cells

    def update_heuristic(self, expanded: list[int], s_goal: int) -> None:
        """Adaptive A* (SPEC §7): every expanded state gets h(s) = g(s_goal) - g(s)."""
        goal_distance = self.g[s_goal]
        learned_h, g = self.learned_h, self.g
        for s in expanded:
            learned_h[s] = goal_distance - g[s]

    # -- one A* search (Figure 4, lines 1-13 and 20-25) ---------------------------------------------

    def compute_path(self, s_start: int, s_goal: int) -> list[int]:
        """Run one A* search from ``s_start`` toward ``s_goal``; return CLOSED in expansion order.

        Afterwards ``g[s_goal] < INFINITY`` if and only if a path was found, and ``tree`` leads
        from every generated state back to ``s_start``.
        """
        # Local names: attribute look-ups in the inner loop cost more than the work itself.
        g, search, tree, learned_h = self.g, self.search, self.tree, self.learned_h
        blocked = self.knowledge.blocked
        width, height, counter = self.width, self.height, self.counter
        last_col, last_row_start = width - 1, (height - 1) * width
        cells = self.cell_count
        stamp_radix = 4 * cells + 2
        f_radix = cells * stamp_radix  # key // f_radix is the key's f-value (see pack_key)
        empty_open_key = INFINITY * f_radix  # line 2: the minimum over an empty OPEN is infinity
        larger_g = self.tie_break == "larger_g"
        goal_row, goal_col = divmod(s_goal, width)  # h is the Manhattan distance to the goal state

        g[s_start] = 0  # line 20
        search[s_start] = counter  # line 21
        g[s_goal] = INFINITY  # line 22
        search[s_goal] = counter  # line 23
        open_list = self.open_list()  # line 24
        closed: list[int] = []
        stamp = 0
        start_row, start_col = divmod(s_start, width)
        h_start = abs(start_row - goal_row) + abs(start_col - goal_col)
        if learned_h is not None and learned_h[s_start] >= 0:
            h_start = learned_h[s_start]
        open_list.push(s_start, pack_key(h_start, 0, stamp, self.tie_break, cells))  # line 25

        # line 2: while g(s_goal) > min f over OPEN
        while g[s_goal] > open_list.min_priority(empty_open_key) // f_radix:
            s = open_list.pop()  # line 3
            closed.append(s)  # line 4
            g_next = g[s] + 1
            col = s % width
            # line 5: successors in east, south, west, north order, inside the grid
            for t in (
                s + 1 if col != last_col else -1,
                s + width if s < last_row_start else -1,
                s - 1 if col != 0 else -1,
                s - width if s >= width else -1,
            ):
                if t < 0 or blocked[t]:  # no such cell, or known blocked: no action
                    continue
                if search[t] != counter:  # lines 6-8: first time this search sees t
                    g[t] = INFINITY
                    search[t] = counter
                if g[t] > g_next:  # line 9
                    # A finite g means this search generated t already. Line 9 can lower it only
                    # while t is in OPEN: with consistent h an expanded state's g is optimal.
                    in_open = g[t] != INFINITY
                    g[t] = g_next  # line 10
                    tree[t] = s  # line 11
                    if learned_h is not None and learned_h[t] >= 0:
                        h_t = learned_h[t]
                    else:
                        row, col_t = divmod(t, width)
                        h_t = abs(row - goal_row) + abs(col_t - goal_col)
                    stamp += 1
                    # pack_key(g_next + h_t, g_next, stamp, ...), written out: a call costs more.
                    key = ((g_next + h_t) * cells + ((cells - 1 - g_next) if larger_g else g_next)) * stamp_radix + stamp
                    if in_open:  # lines 12-13: re-insert with the new key
                        open_list.update(t, key)
                    else:
                        open_list.push(t, key)
        return closed


def repeated_forward_astar(world: World, start: Cell, target: Cell, tie_break: str = "larger_g") -> Trace:
    """Repeated Forward A*: each search runs from the agent's cell to the target.

    ``world`` is the public world object (``height``, ``width``, ``sense(cell)``); ``start`` and
    ``target`` are ``(row, col)``. Returns the SPEC §8 trace.
    """
    return RepeatedAStar(world, start, target, "forward", False, tie_break).run()


def repeated_backward_astar(world: World, start: Cell, target: Cell, tie_break: str = "larger_g") -> Trace:
    """Repeated Backward A*: each search runs from the target to the agent's cell."""
    return RepeatedAStar(world, start, target, "backward", False, tie_break).run()


def adaptive_astar(world: World, start: Cell, target: Cell, tie_break: str = "larger_g") -> Trace:
    """Adaptive A*: Repeated Forward A* whose h-values learn from each search (SPEC §7)."""
    return RepeatedAStar(world, start, target, "forward", True, tie_break).run()
