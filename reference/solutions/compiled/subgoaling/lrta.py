"""Twin of ``subgoaling/lrta.py``: LRTA* (Algorithm 1) and LRTA* with subgoaling (Algorithm 3) on a
known map in one compiled loop (:func:`lrta_arrays`), the tables it reuses, and the runs.

See the package's docstring for the memory layout and what the run keeps.

>>> from reference.world.grid import Gridworld
>>> lrta_star(Gridworld.from_strings(["....", ".@@.", "...."]), (0, 1), (2, 2), connectivity=4).moves
5
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np
from numba import njit

from reference.solutions.compiled.shortest_paths import MOVE_COLS, MOVE_ROWS, move_rule
from reference.world.grid import SQRT2, Cell, Cost, Gridworld, check_connectivity
from reference.world.trace import SearchRecord, Trace

from .tree import CompiledTree, compiled_tree

#: The first goal of :func:`lrta_arrays` (``first_rule``): the real goal (plain LRTA*), the tree
#: state nearest the start by h (Algorithm 3, line 5 as written), or ``Sub(start)``.
PLAIN, NEAREST, SUB = 0, 1, 2
_FIRST_RULES = {"nearest": NEAREST, "sub": SUB}


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
        # The world's move rule (SPEC §12), one function for every compiled search. Called here, this
        # loop takes 1.06-1.10 times the written-out rule's time (bench/eight_step.py --search lrta,
        # medians of two runs): the price of one rule, kept (docs/speed.md).
        for move in range(0, 8, step):
            r, c, diagonal, allowed = move_rule(blocked, height, width, row, col, move_rows[move], move_cols[move])
            if not allowed:
                continue
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
