"""Compiled twins of the subgoaling module (SPEC §16): Algorithm 2's trees, LRTA* and LRTA* with subgoaling.

The readable code (:mod:`reference.solutions.subgoaling`) is the one to read; these mirror it line
for line with flat arrays in place of dictionaries (a cell is its index ``row * width + col``), so
they build the same trees and walk the same trajectories, episode for episode (tests compare them on
random maps and on a game map). Only the speed differs (``bench/subgoaling.py``).

* :func:`tree_arrays`: Algorithm 2 on the compiled A*'s heap (:mod:`.heap`: entries keyed
  ``(f, tie, stamp)``; here ``f = cost_value(g)`` and ``tie = 0``, so the key is the readable
  ``(cost_value(g), stamp)``) and move table. Costs are exact pairs (two int64 arrays each for ``g``
  and ``g_sub``); line 17 compares pairs, line 13 the doubles ``a + b * SQRT2``, as the readable
  code does. The experiments build the tree of *every* cell of a map with it (the paper's
  preprocessing).
* :func:`lrta_arrays`: Algorithm 1 (plain LRTA*, lookahead one) and Algorithm 3 (with subgoaling)
  in one loop, as the readable ``KnownMapLRTA`` and ``SubgoalingLRTA`` share theirs. The
  doubles it compares are computed from the exact pairs by the same two operations as
  :func:`~reference.world.grid.cost_value` (``a + b * SQRT2``; Numba does not fuse them, so the
  doubles are bit-identical to the readable code's, and so are the ties).
* :data:`ALGORITHMS`, :func:`lrta_star`, :func:`lrta_star_subgoaling`, :func:`astar_run` and
  :class:`KnownMapRun`: the readable package's public names, for the same things (the rule of
  ``compiled/``: ``compiled/X.py`` mirrors ``X.py``). :data:`ALGORITHMS` is the same
  :class:`~reference.solutions.registry.Registry` type, settings keyword-only, the problem to the
  planner's ``run(grid, start, goal)``; :func:`run_compiled` does both in one call, with the
  signature every compiled twin's ``run_compiled`` has: ``(grid, start, target, algorithm, *,
  settings)``.
* A run is a :class:`KnownMapRun` as in the readable package, by the same name and with the same
  properties (``reached``, ``cost``, ``moves``, ``expansions``, ``episodes``, ``first_goal``,
  ``first_episode_seconds``, ``total_seconds``, ``trace``), but it keeps the trajectory and the goal
  of each episode as arrays: the SPEC §8 :class:`~reference.world.trace.Trace` is built only when
  asked for (``run.trace``), since turning a million moves into records costs more than the search.
  The twin takes the readable class's name rather than sharing a base class with it, as
  ``compiled/realtime.py``'s ``RealtimeRun`` does: the two hold different things (records against
  arrays) and no code is written against a common base, so a base would be one more class to read.

**Memory.** h-values are kept per goal pursued, as the readable code's dictionaries: one row of a
2-D table per goal (``int32`` straight and diagonal parts plus an ``int32`` stamp: 12 bytes a cell,
0.8 MB a goal on a 256 × 256 map), rows handed out as goals are first pursued and the table doubled
when it runs out (a run pursues a few dozen goals at most on the evaluation's maps). The tables live
in a :class:`LookaheadWorkspace` reused by every run on maps of the same size; a stamp (the run's
number) says which entries this run has written, so a run never clears them (SPEC §5's lazy
initialisation; clearing 65,000 cells would cost more than a short run).

>>> from reference.world.grid import Gridworld
>>> grid = Gridworld.from_strings(["....", ".@@.", "...."])
>>> subgoal_tree_arcs(grid, (2, 2), connectivity=4)
[((2, 2), (0, 3))]
>>> run = run_compiled(grid, (0, 1), (2, 2), "lrta_subgoal", connectivity=4)
>>> run.trace.trajectory, run.cost, [record.goal for record in run.trace.searches]
([(0, 1), (0, 2), (0, 3), (1, 3), (2, 3), (2, 2)], (5, 0), [(0, 3), (0, 3), (2, 2), (2, 2), (2, 2)])
>>> ALGORITHMS.planner("lrta_subgoal", connectivity=4, max_moves=100).run(grid, (0, 1), (2, 2)).moves
5
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from functools import partial

import numpy as np
from numba import njit

from reference.solutions.compiled.heap import triple_heap_pop as _pop_min, triple_heap_sift_up as _sift_up
from reference.solutions.compiled.shortest_paths import MOVE_COLS, MOVE_ROWS, astar_workspace as _search
from reference.solutions.registry import Registry, bind
from reference.world.grid import SQRT2, Cell, Cost, Gridworld, check_connectivity
from reference.world.trace import SearchRecord, Trace

#: The first goal of :func:`lrta_arrays` (``first_rule``): the real goal (plain LRTA*), the tree
#: state nearest the start by h (Algorithm 3, line 5 as written), or ``Sub(start)``.
PLAIN, NEAREST, SUB = 0, 1, 2
_FIRST_RULES = {"nearest": NEAREST, "sub": SUB}


@njit(cache=True)
def tree_arrays(blocked, goal, connectivity, move_rows, move_cols, sqrt2, arcs):
    """Algorithm 2 from cell index ``goal``; writes the arcs ``(parent, child)`` into ``arcs`` (an
    ``(n, 2)`` int64 array). Returns how many arcs there are, how many states the search reached,
    and per cell ``g`` (two int64 arrays, the exact pair; straight ``-1``: not reached) and ``Sub``."""
    height, width = blocked.shape
    cells = height * width
    g_straight = np.full(cells, -1, dtype=np.int64)      # -1: g = infinity (line 2)
    g_diagonal = np.zeros(cells, dtype=np.int64)
    sub_straight = np.zeros(cells, dtype=np.int64)       # g_sub as an exact pair
    sub_diagonal = np.zeros(cells, dtype=np.int64)
    sub = np.full(cells, -1, dtype=np.int64)
    parent = np.full(cells, -1, dtype=np.int64)
    parent_diagonal = np.zeros(cells, dtype=np.bool_)   # was the move parent(s) -> s diagonal (line 11)
    position = np.full(cells, -1, dtype=np.int64)
    heap = np.empty(cells, dtype=np.int64)
    f = np.empty(cells, dtype=np.float64)
    tie = np.zeros(cells, dtype=np.float64)
    stamp = np.empty(cells, dtype=np.int64)
    step = 2 if connectivity == 4 else 1
    arc_count = 0
    reached = 1

    sub[goal] = goal                                      # lines 3-5
    g_straight[goal] = 0
    heap[0] = goal                                        # line 6
    position[goal] = 0
    f[0] = 0.0
    stamp[0] = 0
    stamps = 0
    size = 1
    while size > 0:                                       # line 7
        s, size = _pop_min(heap, f, tie, stamp, position, size)  # line 8
        if s != goal:                                     # lines 9-11
            p = parent[s]
            sub[s] = sub[p]
            sub_straight[s] = sub_straight[p] + (0 if parent_diagonal[s] else 1)
            sub_diagonal[s] = sub_diagonal[p] + (1 if parent_diagonal[s] else 0)
        row, col = s // width, s % width
        # The world's move rule (SPEC §12, grid.successors), written out as in compiled/shortest_paths.py
        # (a shared @njit step function made that loop 30% slower).
        for move in range(0, 8, step):                    # line 12
            r, c = row + move_rows[move], col + move_cols[move]
            if r < 0 or r >= height or c < 0 or c >= width or blocked[r, c]:
                continue
            diagonal = move_rows[move] != 0 and move_cols[move] != 0
            if diagonal and (blocked[r, col] or blocked[row, c]):
                continue                                  # no corner cutting
            t = r * width + c
            new_straight = g_straight[s] + (0 if diagonal else 1)
            new_diagonal = g_diagonal[s] + (1 if diagonal else 0)
            new_value = float(new_straight) + float(new_diagonal) * sqrt2
            if g_straight[t] >= 0 and not float(g_straight[t]) + float(g_diagonal[t]) * sqrt2 > new_value:
                continue                                  # line 13
            if g_straight[t] < 0:
                reached += 1
            g_straight[t] = new_straight                  # line 14
            g_diagonal[t] = new_diagonal
            sub_straight[t] = sub_straight[s] + (0 if diagonal else 1)   # line 15
            sub_diagonal[t] = sub_diagonal[s] + (1 if diagonal else 0)
            parent[t] = s                                 # line 16
            parent_diagonal[t] = diagonal
            target_row, target_col = sub[s] // width, sub[s] % width     # line 17: h(t, Sub(s))
            d_row, d_col = abs(r - target_row), abs(c - target_col)
            if connectivity == 4:
                h_straight, h_diagonal = d_row + d_col, 0
            else:
                h_straight, h_diagonal = abs(d_row - d_col), min(d_row, d_col)
            if sub_straight[t] != h_straight or sub_diagonal[t] != h_diagonal:
                sub_straight[s] = 0                       # line 18
                sub_diagonal[s] = 0
                arcs[arc_count, 0] = sub[s]               # line 19
                arcs[arc_count, 1] = s
                arc_count += 1
                sub[s] = s                                # line 20
            stamps += 1                                   # lines 21-22: a lowered key, a new stamp
            i = position[t]
            if i < 0:
                i = size
                size += 1
                heap[i] = t
                position[t] = i
            f[i] = new_value
            stamp[i] = stamps
            _sift_up(heap, f, tie, stamp, position, i)
    return arc_count, reached, g_straight, g_diagonal, sub


def _check(grid: Gridworld, goal: Cell, connectivity: int) -> None:
    check_connectivity(connectivity)
    if not grid.in_bounds(goal) or grid.is_blocked(goal):
        raise ValueError(f"the goal {goal} is blocked or outside the {grid.height} x {grid.width} map")


def subgoal_tree_arcs(grid: Gridworld, goal: Cell, connectivity: int = 8) -> list[tuple[Cell, Cell]]:
    """The arcs ``(parent, child)`` of ``goal``'s subgoal tree, in the order Algorithm 2 adds them:
    the same list as ``build_subgoal_tree(grid, goal, connectivity).arcs``."""
    return compiled_tree(grid, goal, connectivity).arcs


@dataclass
class CompiledTree:
    """What :func:`tree_arrays` computes for one goal, as the lookahead loop reads it (cell indices).

    ``tree_parent[s]``: ``nextgoal(s)``, -1 off the tree and at the root; ``states``: the root, then
    the subgoals in the order they joined; ``sub[s]``: ``Sub(s)`` (-1 where the search never came);
    ``g_straight``, ``g_diagonal``: the exact distance to the goal (straight -1: unreachable).
    """

    goal: Cell
    connectivity: int
    width: int
    tree_parent: np.ndarray
    states: np.ndarray
    sub: np.ndarray
    g_straight: np.ndarray
    g_diagonal: np.ndarray

    @property
    def size(self) -> int:
        return len(self.states) - 1

    @property
    def arcs(self) -> list[tuple[Cell, Cell]]:
        children = self.states[1:]
        return [(divmod(int(self.tree_parent[c]), self.width), divmod(int(c), self.width)) for c in children]

    def g(self, cell: Cell) -> Cost | None:
        """The exact distance from ``cell`` to the goal (None: the goal cannot be reached from it)."""
        index = cell[0] * self.width + cell[1]
        return None if self.g_straight[index] < 0 else (int(self.g_straight[index]), int(self.g_diagonal[index]))


def compiled_tree(grid: Gridworld, goal: Cell, connectivity: int = 8) -> CompiledTree:
    """The subgoal tree of ``goal`` (Algorithm 2), compiled.

    Parameters
    ----------
    grid : Gridworld
    goal : Cell
        The tree's root (a free cell).
    connectivity : {8, 4}

    Returns
    -------
    CompiledTree
        Its ``arcs`` equal ``build_subgoal_tree(grid, goal, connectivity).arcs``, in the same order.

    Raises
    ------
    ValueError
        A goal blocked or outside the map; a connectivity other than 4 or 8.

    See Also
    --------
    reference.solutions.subgoaling.build_subgoal_tree : the readable reference this twin mirrors.

    Examples
    --------
    >>> from reference.world.grid import Gridworld
    >>> tree = compiled_tree(Gridworld.from_strings(["....", ".@@.", "...."]), (2, 2), connectivity=4)
    >>> tree.arcs, tree.g((0, 1))
    ([((2, 2), (0, 3))], (5, 0))
    """
    _check(grid, goal, connectivity)
    width = grid.width
    goal_index = goal[0] * width + goal[1]
    arcs = np.empty((grid.size, 2), dtype=np.int64)
    count, _, g_straight, g_diagonal, sub = tree_arrays(grid.blocked, goal_index, connectivity,
                                                        MOVE_ROWS, MOVE_COLS, SQRT2, arcs)
    tree_parent = np.full(grid.size, -1, dtype=np.int64)
    tree_parent[arcs[:count, 1]] = arcs[:count, 0]        # each state joins the tree at most once
    states = np.concatenate((np.array([goal_index], dtype=np.int64), arcs[:count, 1]))
    return CompiledTree(goal, connectivity, width, tree_parent, states, sub, g_straight, g_diagonal)


def every_tree_size(grid: Gridworld, connectivity: int = 8, cells: list[Cell] | None = None,
                    progress=None) -> tuple[np.ndarray, np.ndarray, float]:
    """Build the subgoal tree of every unblocked cell (or of ``cells``), as the paper's preprocessing
    does: returns each tree's size (arcs), the number of states each search reached, and the CPU
    seconds all the trees took. ``progress``: called with the number of trees done so far, now and then."""
    blocked = grid.blocked
    width = grid.width
    goals = cells if cells is not None else [divmod(int(i), width) for i in np.flatnonzero(~blocked.ravel())]
    for goal in goals[:1]:
        _check(grid, goal, connectivity)
    arcs = np.empty((grid.size, 2), dtype=np.int64)
    tree_arrays(blocked, goals[0][0] * width + goals[0][1], connectivity, MOVE_ROWS, MOVE_COLS, SQRT2, arcs)  # compile
    sizes = np.zeros(len(goals), dtype=np.int64)
    reached = np.zeros(len(goals), dtype=np.int64)
    seconds = 0.0
    for number, (row, col) in enumerate(goals):
        began = time.process_time()
        sizes[number], reached[number], _, _, _ = tree_arrays(blocked, row * width + col, connectivity,
                                                              MOVE_ROWS, MOVE_COLS, SQRT2, arcs)
        seconds += time.process_time() - began
        if progress is not None and number % 256 == 255:
            progress(number + 1)
    return sizes, reached, seconds


# -- LRTA* (Algorithm 1) and LRTA* with subgoaling (Algorithm 3) -------------------------------------


@njit(cache=True)
def lrta_arrays(blocked, start, goal, connectivity, move_rows, move_cols, sqrt2, tree_parent, tree_states,
                first_rule, sub_start, on_arrival, max_moves, counter, slot_of, slot_stamp,
                h_straight, h_diagonal, h_stamp, trajectory, goals):
    """LRTA* with lookahead one from cell index ``start`` to ``goal``: the readable
    ``KnownMapLRTA.plan_episode`` (``step`` and ``choose_goal``) run by the agent core, line for line.

    ``first_rule``: :data:`PLAIN` (Algorithm 1: always the goal; ``tree_parent`` is not read),
    :data:`NEAREST` (Algorithm 3, line 5 as written, over ``tree_states``) or :data:`SUB`
    (``sub_start``). ``on_arrival``: switch to ``nextgoal(s)`` only when ``s`` is the goal pursued.
    ``max_moves`` < 0: no limit. The tables are a :class:`LookaheadWorkspace`'s (``counter``: this
    run's stamp). Returns ``(moves, straight, diagonal, goals pursued, h_straight, h_diagonal,
    h_stamp, trajectory, goals)``: the arrays are the ones passed in, or larger ones when they ran
    out; ``trajectory[:moves + 1]`` are the cells, ``goals[:moves]`` the goal of each episode.
    """
    height, width = blocked.shape
    step = 2 if connectivity == 4 else 1  # four-connected: every second move of the table
    s = start
    trajectory[0] = s
    moves = 0
    cost_straight = 0
    cost_diagonal = 0
    slots = 0
    current = -1                               # the goal pursued; -1 before the first episode
    while s != goal and (max_moves < 0 or moves < max_moves):
        # choose_goal: lines 1-5 in the first episode, then line 8
        if current < 0:
            if first_rule == PLAIN:
                current = goal
            elif first_rule == SUB:
                current = sub_start
            else:                              # argmin over the tree's states of h(s0, state), the first on ties
                best_h = np.inf
                for k in range(tree_states.shape[0]):
                    state = tree_states[k]
                    d_row, d_col = abs(s // width - state // width), abs(s % width - state % width)
                    if connectivity == 4:
                        value = float(d_row + d_col)
                    else:
                        value = float(abs(d_row - d_col)) + float(min(d_row, d_col)) * sqrt2
                    if value < best_h:
                        best_h = value
                        current = state
        if first_rule != PLAIN:
            nextgoal = tree_parent[s]          # line 8
            if nextgoal >= 0 and (not on_arrival or s == current):
                current = nextgoal
        # the h table of the goal pursued (a row of the 2-D tables, handed out on first use)
        if slot_stamp[current] != counter:
            if slots == h_straight.shape[0]:   # out of rows: double the tables, keep what they hold
                grown = np.zeros((2 * slots, h_straight.shape[1]), dtype=np.int32)
                grown[:slots] = h_straight
                h_straight = grown
                grown = np.zeros((2 * slots, h_straight.shape[1]), dtype=np.int32)
                grown[:slots] = h_diagonal
                h_diagonal = grown
                grown = np.zeros((2 * slots, h_straight.shape[1]), dtype=np.int32)
                grown[:slots] = h_stamp
                h_stamp = grown
            slot_stamp[current] = counter
            slot_of[current] = slots
            slots += 1
        slot = slot_of[current]
        goal_row, goal_col = current // width, current % width
        row, col = s // width, s % width
        # step: Algorithm 1, lines 4-5 (Algorithm 3, lines 9-10)
        best = s
        best_diagonal = False
        best_straight_h = 0
        best_diagonal_h = 0
        best_value = 0.0
        found = False
        # The world's move rule (SPEC §12, grid.successors), written out as in compiled/shortest_paths.py
        # (a shared @njit step function made that loop 30% slower).
        for move in range(0, 8, step):
            r, c = row + move_rows[move], col + move_cols[move]
            if r < 0 or r >= height or c < 0 or c >= width or blocked[r, c]:
                continue
            diagonal = move_rows[move] != 0 and move_cols[move] != 0
            if diagonal and (blocked[r, col] or blocked[row, c]):
                continue  # no corner cutting
            t = r * width + c
            if h_stamp[slot, t] == counter:    # learned in this run: h(t, current)
                h_s, h_d = h_straight[slot, t], h_diagonal[slot, t]
            else:                              # not yet: the heuristic
                d_row, d_col = abs(r - goal_row), abs(c - goal_col)
                if connectivity == 4:
                    h_s, h_d = d_row + d_col, 0
                else:
                    h_s, h_d = abs(d_row - d_col), min(d_row, d_col)
            total_s = h_s + (0 if diagonal else 1)       # c(s, t) + h(t, current), exactly
            total_d = h_d + (1 if diagonal else 0)
            value = float(total_s) + float(total_d) * sqrt2
            if not found or value < best_value:  # strict: ties to the first in successor order
                found = True
                best, best_diagonal, best_straight_h, best_diagonal_h, best_value = t, diagonal, total_s, total_d, value
        if found:
            if h_stamp[slot, s] == counter:
                here = float(h_straight[slot, s]) + float(h_diagonal[slot, s]) * sqrt2
            else:
                d_row, d_col = abs(row - goal_row), abs(col - goal_col)
                if connectivity == 4:
                    here = float(d_row + d_col)
                else:
                    here = float(abs(d_row - d_col)) + float(min(d_row, d_col)) * sqrt2
            if best_value > here:              # raise h(s, current), never lower it
                h_straight[slot, s] = best_straight_h
                h_diagonal[slot, s] = best_diagonal_h
                h_stamp[slot, s] = counter
            cost_straight += 0 if best_diagonal else 1
            cost_diagonal += 1 if best_diagonal else 0
        # the record of this episode, and the move
        if moves + 1 >= trajectory.shape[0]:   # out of room: double the arrays
            longer = np.empty(2 * trajectory.shape[0], dtype=np.int64)
            longer[:moves + 1] = trajectory[:moves + 1]
            trajectory = longer
            longer = np.empty(2 * goals.shape[0], dtype=np.int64)
            longer[:moves] = goals[:moves]
            goals = longer
        goals[moves] = current
        moves += 1
        trajectory[moves] = best
        s = best
    return moves, cost_straight, cost_diagonal, slots, h_straight, h_diagonal, h_stamp, trajectory, goals


@njit(cache=True)
def reachable(blocked, start, goal):
    """Can ``goal`` be reached from ``start`` (cell indices)? Four-connected flood fill: without
    corner cutting, eight-connected moves join the same cells."""
    height, width = blocked.shape
    seen = np.zeros(height * width, dtype=np.bool_)
    frontier = np.empty(height * width, dtype=np.int64)
    frontier[0] = start
    seen[start] = True
    size = 1
    while size > 0:
        size -= 1
        s = frontier[size]
        if s == goal:
            return True
        row, col = s // width, s % width
        for d_row, d_col in ((0, 1), (1, 0), (0, -1), (-1, 0)):
            r, c = row + d_row, col + d_col
            if 0 <= r < height and 0 <= c < width and not blocked[r, c] and not seen[r * width + c]:
                seen[r * width + c] = True
                frontier[size] = r * width + c
                size += 1
    return False


class LookaheadWorkspace:
    """The tables of :func:`lrta_arrays` for maps of up to ``cells`` cells (a smaller map uses the
    first entries of each row), reused by every run: stamps say which entries a run wrote."""

    def __init__(self, cells: int, goals: int = 4, moves: int = 4096) -> None:
        self.cells = cells
        self.counter = 0
        self.slot_of = np.zeros(cells, dtype=np.int64)
        self.slot_stamp = np.zeros(cells, dtype=np.int64)
        self.h_straight = np.zeros((goals, cells), dtype=np.int32)
        self.h_diagonal = np.zeros((goals, cells), dtype=np.int32)
        self.h_stamp = np.zeros((goals, cells), dtype=np.int32)
        self.trajectory = np.empty(moves, dtype=np.int64)
        self.goals = np.empty(moves, dtype=np.int64)

    def run(self, blocked, start, goal, connectivity, tree_parent, tree_states, first_rule, sub_start,
            on_arrival, max_moves):
        """One run of :func:`lrta_arrays`: ``(moves, straight, diagonal, goals pursued)``; the cells are
        ``self.trajectory[:moves + 1]``, the goals of the episodes ``self.goals[:moves]``."""
        self.counter += 1
        (moves, straight, diagonal, slots, self.h_straight, self.h_diagonal, self.h_stamp, self.trajectory,
         self.goals) = lrta_arrays(
            blocked, start, goal, connectivity, MOVE_ROWS, MOVE_COLS, SQRT2, tree_parent, tree_states,
            first_rule, sub_start, on_arrival, max_moves, self.counter, self.slot_of, self.slot_stamp,
            self.h_straight, self.h_diagonal, self.h_stamp, self.trajectory, self.goals)
        return moves, straight, diagonal, slots


#: The one workspace, big enough for the largest map used so far (not thread-safe).
_WORKSPACES: list[LookaheadWorkspace] = []


def _workspace(cells: int) -> LookaheadWorkspace:
    if not _WORKSPACES or _WORKSPACES[0].cells < cells:
        reserve(cells)
    return _WORKSPACES[0]


def reserve(cells: int, goals: int = 4, moves: int = 4096) -> None:
    """Make the workspace hold maps of ``cells`` cells, ``goals`` goals and ``moves`` moves before any
    run needs them: a table that grows during a run charges the allocation to that run's time
    (measured: 20-40 ms when 32 goals' rows of a 65,000-cell map double, against 0.2 ms for the run).
    The experiments reserve what they will need, as compiled A* keeps its workspace."""
    if _WORKSPACES and _WORKSPACES[0].cells >= cells and _WORKSPACES[0].h_straight.shape[0] >= goals \
            and _WORKSPACES[0].trajectory.shape[0] >= moves:
        return
    _WORKSPACES[:] = [LookaheadWorkspace(cells, goals, moves)]
    for table in (_WORKSPACES[0].h_straight, _WORKSPACES[0].h_diagonal, _WORKSPACES[0].h_stamp):
        table.fill(0)   # touch every page now, not during a timed run


@dataclass
class KnownMapRun:
    """The twin of :class:`reference.solutions.subgoaling.KnownMapRun` (same name, same properties; why
    not a shared base: see the module docstring): what the readable run holds, as arrays of cell indices (``trajectory``: the cells the agent stood on; ``episode_goals``: the
    goal pursued in each planning episode; ``expanded``: A*'s expansions, None for the LRTA* family,
    which expands the agent's state once an episode). ``trace`` builds the SPEC §8 trace on demand.

    Times are CPU seconds of the compiled calls: ``first_episode_seconds`` is timed by a separate run
    stopped after its first move (lines 1-5 and one move; fresh tables), ``total_seconds`` by the whole
    run (the readable run's per-episode ``planning_seconds`` has no twin: a clock read would cost
    more than a lookahead-one episode).
    """

    algorithm: str
    width: int
    trajectory: np.ndarray
    episode_goals: np.ndarray
    reached: bool
    cost: Cost | None
    first_episode_seconds: float
    total_seconds: float
    goals_pursued: int
    expanded: np.ndarray | None = None
    _trace: Trace | None = field(default=None, repr=False)

    @property
    def moves(self) -> int:
        return len(self.trajectory) - 1

    @property
    def episodes(self) -> int:
        return len(self.episode_goals)

    @property
    def expansions(self) -> int:
        return len(self.expanded) if self.expanded is not None else self.episodes

    @property
    def first_goal(self) -> Cell | None:
        """The goal of the first planning episode (None: there was none)."""
        return divmod(int(self.episode_goals[0]), self.width) if self.episodes else None

    @property
    def trace(self) -> Trace:
        if self._trace is None:
            rows, cols = np.divmod(self.trajectory, self.width)   # all at once: a divmod a cell costs more
            cells = list(zip(rows.tolist(), cols.tolist()))
            goal_rows, goal_cols = np.divmod(self.episode_goals, self.width)
            goals = list(zip(goal_rows.tolist(), goal_cols.tolist()))
            if self.expanded is not None:   # A*: one episode, its whole search; then the walk
                expanded_rows, expanded_cols = np.divmod(self.expanded, self.width)
                records = [SearchRecord(cells[0], goals[0], list(zip(expanded_rows.tolist(), expanded_cols.tolist())),
                                        cells if self.reached else [])]
            else:
                records = [SearchRecord(cells[i], goals[i], [cells[i]], [cells[i], cells[i + 1]])
                           for i in range(len(goals))]
            self._trace = Trace(self.algorithm, "larger_g", self.reached, cells, records)
        return self._trace


def _indices(grid: Gridworld, start: Cell, goal: Cell, connectivity: int) -> tuple[int, int]:
    check_connectivity(connectivity)
    for name, cell in (("start", start), ("goal", goal)):
        if not grid.in_bounds(cell) or grid.is_blocked(cell):
            raise ValueError(f"the {name} {cell} is blocked or outside the {grid.height} x {grid.width} map")
    return start[0] * grid.width + start[1], goal[0] * grid.width + goal[1]


_NO_TREE = np.empty(0, dtype=np.int64)


def _lookahead(algorithm: str, grid: Gridworld, start: Cell, goal: Cell, connectivity: int, tree: CompiledTree | None,
               first_rule: int, on_arrival: bool, max_moves: int | None) -> KnownMapRun:
    start_index, goal_index = _indices(grid, start, goal, connectivity)
    blocked = grid.blocked
    if tree is None:   # plain LRTA*: the agent knows the map, so a flood fill tells (untimed, as the readable code)
        can_reach = bool(reachable(blocked, start_index, goal_index))
        tree_parent, tree_states, sub_start = _NO_TREE, _NO_TREE, -1
    else:
        can_reach = tree.g_straight[start_index] >= 0
        tree_parent, tree_states, sub_start = tree.tree_parent, tree.states, int(tree.sub[start_index])
    if not can_reach or start == goal:
        empty = np.empty(0, dtype=np.int64)
        return KnownMapRun(algorithm, grid.width, np.array([start_index]), empty, start == goal,
                           (0, 0) if start == goal else None, 0.0, 0.0, 0)
    workspace = _workspace(grid.size)
    limit = -1 if max_moves is None else max_moves
    arguments = (blocked, start_index, goal_index, connectivity, tree_parent, tree_states, first_rule, sub_start,
                 on_arrival)
    began = time.process_time()       # the first planning episode alone (a run stopped after one move)
    workspace.run(*arguments, 1)
    first = time.process_time() - began
    began = time.process_time()
    moves, straight, diagonal, slots = workspace.run(*arguments, limit)
    total = time.process_time() - began
    reached = int(workspace.trajectory[moves]) == goal_index
    return KnownMapRun(algorithm, grid.width, workspace.trajectory[:moves + 1].copy(), workspace.goals[:moves].copy(),
                       reached, (int(straight), int(diagonal)) if reached else None, first, total, slots)


def lrta_star(grid: Gridworld, start: Cell, goal: Cell, connectivity: int = 8,
              max_moves: int | None = None) -> KnownMapRun:
    """Korf's LRTA* with lookahead one on a known map (Algorithm 1), compiled: same arguments, same walk.

    Parameters
    ----------
    grid : Gridworld
        The map; the agent knows it from the start.
    start, goal : Cell
        ``(row, col)`` of the agent's first cell and of the goal (both free).
    connectivity : {8, 4}
    max_moves : int, optional
        Stop after this many moves (the run then ends unreached).

    Returns
    -------
    KnownMapRun
        An unreachable goal ends the run at once, unreached (a flood fill tells, untimed).

    Raises
    ------
    ValueError
        A start or goal blocked or outside the map; a connectivity other than 4 or 8.

    See Also
    --------
    reference.solutions.subgoaling.lrta_star : the readable reference this twin mirrors.
    run_compiled : the same by name (``"lrta"``).

    Examples
    --------
    >>> from reference.world.grid import Gridworld
    >>> run = lrta_star(Gridworld.from_strings(["...", ".@.", "..."]), (1, 0), (1, 2))
    >>> run.trace.trajectory, run.cost
    ([(1, 0), (2, 0), (2, 1), (2, 2), (1, 2)], (4, 0))
    """
    return _lookahead("lrta", grid, start, goal, connectivity, None, PLAIN, False, max_moves)


def lrta_star_subgoaling(grid: Gridworld, start: Cell, goal: Cell, connectivity: int = 8,
                         tree: CompiledTree | None = None, first_goal: str = "nearest",
                         max_moves: int | None = None, switch: str = "any_tree_state") -> KnownMapRun:
    """LRTA* with subgoaling on a known map (Algorithm 3), compiled: same arguments, same walk.

    Parameters
    ----------
    grid : Gridworld
    start, goal : Cell
        ``(row, col)`` of the agent's first cell and of the goal (both free).
    connectivity : {8, 4}
    tree : CompiledTree, optional
        The goal's subgoal tree (:func:`compiled_tree`); built here, untimed, if not given.
    first_goal : {"nearest", "sub"}
        Line 5 as written (the tree state nearest the start by h) or ``Sub(start)``.
    max_moves : int, optional
        Stop after this many moves (line 8 as written can cycle for ever).
    switch : {"any_tree_state", "on_arrival"}
        Line 8 as written, or the next subgoal only on reaching the current one.

    Returns
    -------
    KnownMapRun
        Named ``lrta_subgoal``, plus ``_sub`` and/or ``_arrival`` for the alternatives.

    Raises
    ------
    ValueError
        An unknown ``first_goal`` or ``switch``; a tree built for another goal; a start or goal
        blocked or outside the map.

    See Also
    --------
    reference.solutions.subgoaling.lrta_star_subgoaling : the readable reference this twin mirrors.
    run_compiled : the same by name (``"lrta_subgoal"`` and its variants).

    Examples
    --------
    >>> from reference.world.grid import Gridworld
    >>> grid = Gridworld.from_strings(["....", ".@@.", "...."])
    >>> run = lrta_star_subgoaling(grid, (0, 1), (2, 2), connectivity=4, switch="on_arrival")
    >>> run.trace.trajectory[-1], run.first_goal, run.goals_pursued
    ((2, 2), (0, 3), 2)
    """
    from reference.solutions.subgoaling import FIRST_GOALS, SWITCHES

    if first_goal not in FIRST_GOALS:
        raise ValueError(f"first_goal must be one of {', '.join(FIRST_GOALS)}, got {first_goal!r}")
    if switch not in SWITCHES:
        raise ValueError(f"switch must be one of {', '.join(SWITCHES)}, got {switch!r}")
    if tree is None:
        tree = compiled_tree(grid, goal, connectivity)
    if tree.goal != goal:
        raise ValueError(f"the subgoal tree is for the goal {tree.goal}, not {goal}")
    name = "lrta_subgoal" + ("_sub" if first_goal == "sub" else "") + ("_arrival" if switch == "on_arrival" else "")
    return _lookahead(name, grid, start, goal, connectivity, tree, _FIRST_RULES[first_goal], switch == "on_arrival",
                      max_moves)


def astar_run(grid: Gridworld, start: Cell, goal: Cell, connectivity: int = 8) -> KnownMapRun:
    """A* on a known map as one planning episode, then the walk, compiled.

    The search is :mod:`.shortest_paths`' A* (the twin of the world's
    :func:`~reference.solutions.shortest_paths.astar`, ties toward the larger g). Timed: the search
    and the walk back along its tree (not the conversion of expansions into cells).

    Parameters
    ----------
    grid : Gridworld
    start, goal : Cell
        ``(row, col)`` of the agent's first cell and of the goal (both free).
    connectivity : {8, 4}

    Returns
    -------
    KnownMapRun
        One episode: every expansion of the search (``expanded``) and, if found, the path walked.

    Raises
    ------
    ValueError
        A start or goal blocked or outside the map; a connectivity other than 4 or 8.

    See Also
    --------
    reference.solutions.subgoaling.astar_run : the readable reference this twin mirrors.
    run_compiled : the same by name (``"astar"``).

    Examples
    --------
    >>> from reference.world.grid import Gridworld
    >>> run = astar_run(Gridworld.from_strings(["...", ".@.", "..."]), (1, 0), (1, 2), connectivity=4)
    >>> run.cost, run.episodes, run.trace.trajectory[0]
    ((4, 0), 1, (1, 0))
    """
    began = time.process_time()
    start, goal, workspace, found, cost, expansions = _search(grid.blocked, start, goal, connectivity, "larger_g")
    width = grid.width
    start_index, goal_index = start[0] * width + start[1], goal[0] * width + goal[1]
    path = [goal_index]
    if found:
        while path[-1] != start_index:
            path.append(int(workspace.tree[path[-1]]))
    seconds = time.process_time() - began
    trajectory = np.array(path[::-1] if found else [start_index], dtype=np.int64)
    return KnownMapRun("astar", width, trajectory, np.array([goal_index], dtype=np.int64), found,
                       cost if found else None, seconds, seconds, 1, workspace.expanded[:expansions].copy())


_SUBGOALING = bind(lrta_star_subgoaling)   # its first_goal and switch fixed by each name below

#: The twins by the readable package's names (:data:`reference.solutions.subgoaling.ALGORITHMS`), a
#: :class:`~reference.solutions.registry.Registry` as there: each maker takes keyword-only settings
#: (``connectivity``; ``max_moves`` for the LRTA* family; ``tree``, a :class:`CompiledTree`, and
#: ``first_goal``, ``switch`` for the subgoaling variants) and its planner runs ``run(grid, start, goal)``.
ALGORITHMS = Registry({
    "astar": bind(astar_run),
    "lrta": bind(lrta_star),
    "lrta_subgoal": partial(_SUBGOALING, first_goal="nearest"),
    "lrta_subgoal_sub": partial(_SUBGOALING, first_goal="sub"),
    "lrta_subgoal_arrival": partial(_SUBGOALING, first_goal="nearest", switch="on_arrival"),
    "lrta_subgoal_sub_arrival": partial(_SUBGOALING, first_goal="sub", switch="on_arrival"),
})

def run_compiled(grid: Gridworld, start: Cell, target: Cell, algorithm: str = "lrta_subgoal", *,
                 connectivity: int = 8, tree: CompiledTree | None = None,
                 max_moves: int | None = None) -> KnownMapRun:
    """Run the compiled twin of ``algorithm`` on the known map ``grid`` from ``start`` to ``target``.

    ``ALGORITHMS.planner(algorithm, **settings).run(grid, start, target)`` with those of the
    settings the planner takes (A* takes neither ``tree`` nor ``max_moves``, plain LRTA* no ``tree``).

    Parameters
    ----------
    grid : Gridworld
        The map; the agent knows it from the start.
    start, target : Cell
        ``(row, col)`` of the agent's first cell and of the goal (both free).
    algorithm : str
        A key of :data:`ALGORITHMS`: ``astar``, ``lrta``, ``lrta_subgoal`` (the default),
        ``lrta_subgoal_sub``, ``lrta_subgoal_arrival``, ``lrta_subgoal_sub_arrival``.
    connectivity : {8, 4}
        Moves: eight-connected (no corner cutting) or four-connected.
    tree : CompiledTree, optional
        The goal's subgoal tree (:func:`compiled_tree`) for the subgoaling variants; built here if
        not given (the experiments build it beforehand: it is preprocessing, not planning).
    max_moves : int, optional
        Stop the LRTA* family after this many moves (the run then ends unreached); A* ignores it.

    Returns
    -------
    KnownMapRun
        The walk as arrays (``trajectory``, ``episode_goals``), ``reached``, the exact ``cost``, the
        CPU times; ``run.trace`` builds the SPEC §8 trace, equal to the readable run's.

    Raises
    ------
    ValueError
        An unknown algorithm or connectivity; a start or goal blocked or outside the map; a tree
        built for another goal.

    See Also
    --------
    reference.solutions.subgoaling.run_algorithm : the readable reference this twin mirrors.
    reference.solutions.subgoaling.ALGORITHMS : the readable planners by the same names.

    Examples
    --------
    >>> from reference.world.grid import Gridworld
    >>> grid = Gridworld.from_strings(["....", ".@@.", "...."])
    >>> run = run_compiled(grid, (0, 1), (2, 2), connectivity=4)
    >>> run.trace.trajectory, run.cost
    ([(0, 1), (0, 2), (0, 3), (1, 3), (2, 3), (2, 2)], (5, 0))
    >>> run_compiled(grid, (0, 1), (2, 2), "astar", connectivity=4).moves
    5
    """
    settings = ALGORITHMS.those_taken(algorithm, connectivity=connectivity, tree=tree, max_moves=max_moves)
    return ALGORITHMS.planner(algorithm, **settings).run(grid, start, target)
