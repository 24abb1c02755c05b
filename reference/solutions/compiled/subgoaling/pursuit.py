"""The compiled twin of :mod:`reference.solutions.subgoaling.pursuit`: hill-climbing and pursuing goals in turn.

:func:`hill_climb_reaches` says what the first half of
:func:`reference.solutions.subgoaling.pursuit.hill_climb` says: the same successor order (the
world's move table and :func:`..shortest_paths.move_rule`), the same strict ``<`` among successors
(the first in successor order wins a tie), and the same doubles (``a + b * SQRT2`` from the exact
pairs, as :func:`~reference.world.grid.cost_value` computes them), so every choice is the readable
code's. :func:`pursue_in_turn` walks a list of goals in turn, switching on arrival, as the readable
:class:`~reference.solutions.subgoaling.pursuit.SubgoalPursuit` does, with the compiled known-map
LRTA* of :mod:`.lrta` (:func:`~.lrta.lrta_arrays` with the list as a "next goal" table). A run is
:mod:`.lrta`'s :class:`KnownMapRun` plus the states a goal policy expanded in the first episode,
which the first record lists before the agent's state, as the readable record does. kNN LRTA*
(:mod:`.knn_lrta`) uses both. The readable code is the one to read.

>>> from reference.world.grid import Gridworld
>>> grid = Gridworld.from_strings(["....", ".@@.", "...."])
>>> hill_climb_reaches(grid, (0, 1), (0, 3), 8), hill_climb_reaches(grid, (0, 1), (2, 2), 8)
(True, False)
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np
from numba import njit

from reference.solutions.shortest_paths import blocked_array
from reference.solutions.subgoaling.pursuit import CLIMB_LIMIT
from reference.world.grid import MOVES, SQRT2, Cell, Gridworld
from reference.world.trace import Trace

from reference.solutions.compiled.subgoaling import lrta as lookahead
from ..shortest_paths import move_rule

#: The move tables of each connectivity as arrays Numba can index, in successor order.
MOVE_TABLES = {c: (np.array([m[0] for m in moves], np.int64), np.array([m[1] for m in moves], np.int64))
               for c, moves in MOVES.items()}


@njit(cache=True)
def exact_h(row, col, target_row, target_col, connectivity):
    """The exact heuristic pair: Manhattan ``(d, 0)`` or octile ``(|dr - dc|, min(dr, dc))``."""
    d_row, d_col = abs(row - target_row), abs(col - target_col)
    if connectivity == 4:
        return d_row + d_col, 0
    return abs(d_row - d_col), min(d_row, d_col)


@njit(cache=True)
def climb(blocked, start, target, connectivity, limit, move_rows, move_cols, sqrt2, expanded, count):
    """``hill_climb`` from cell index ``start`` to ``target``: ``(reached, count)``. The states it
    expands go to ``expanded[count:]`` (an empty ``expanded``: nowhere) and ``count`` moves past them."""
    height, width = blocked.shape
    row, col = start // width, start % width
    target_row, target_col = target // width, target % width
    steps = 0
    while row != target_row or col != target_col:
        if steps >= limit:
            return False, count + steps
        if expanded.shape[0] > 0:
            expanded[count + steps] = row * width + col
        steps += 1
        h_a, h_b = exact_h(row, col, target_row, target_col, connectivity)
        here = h_a + h_b * sqrt2
        found, best_row, best_col, best_value = False, 0, 0, 0.0
        for k in range(move_rows.shape[0]):
            r, c, diagonal, allowed = move_rule(blocked, height, width, row, col, move_rows[k], move_cols[k])
            if not allowed:
                continue
            y_a, y_b = exact_h(r, c, target_row, target_col, connectivity)
            if diagonal:
                y_b += 1
            else:
                y_a += 1
            value = y_a + y_b * sqrt2
            if not found or value < best_value:
                found, best_row, best_col, best_value = True, r, c, value
        if not found:
            return False, count + steps
        b_a, b_b = exact_h(best_row, best_col, target_row, target_col, connectivity)
        if b_a + b_b * sqrt2 >= here:
            return False, count + steps
        row, col = best_row, best_col
    return True, count + steps


def blocked_cells(grid: Gridworld | np.ndarray) -> np.ndarray:
    """The grid's blocked cells as the contiguous boolean array the compiled functions take."""
    return np.ascontiguousarray(blocked_array(grid), dtype=np.bool_)


def hill_climb_reaches(grid: Gridworld | np.ndarray, start: Cell, target: Cell, connectivity: int = 8,
                       limit: int = CLIMB_LIMIT) -> bool:
    """Whether ``target`` is hill-climbing reachable from ``start`` (``pursuit.hill_climb(...)[0]``)."""
    blocked = blocked_cells(grid)
    width = blocked.shape[1]
    rows, cols = MOVE_TABLES[connectivity]
    return bool(climb(blocked, start[0] * width + start[1], target[0] * width + target[1], connectivity, limit,
                        rows, cols, SQRT2, np.empty(0, np.int64), 0)[0])


@dataclass
class KnownMapRun(lookahead.KnownMapRun):
    """:mod:`.lrta`'s run (the twin of the readable ``KnownMapRun``) plus ``checked``: the cells
    (indices) the goal policy expanded in the first episode, kNN LRTA*'s hill-climbing checks. The
    first record lists them before the agent's state, and ``expansions`` counts them, as the readable
    run does."""

    checked: np.ndarray = field(default_factory=lambda: np.empty(0, np.int64))

    @property
    def expansions(self) -> int:
        return super().expansions + len(self.checked)

    @property
    def trace(self) -> Trace:
        if self._trace is None:
            trace = super().trace   # builds and keeps self._trace
            if len(self.checked):
                rows, cols = np.divmod(self.checked, self.width)
                trace.searches[0].expanded[:0] = list(zip(rows.tolist(), cols.tolist()))
        assert self._trace is not None
        return self._trace


_NONE = np.empty(0, np.int64)

#: The "next goal" table handed to ``lrta_arrays`` (-1: none), one per map size, reused: a run
#: writes its goals' entries and clears them after.
_NEXT_GOAL: dict[int, np.ndarray] = {}


def episodes_ahead(grid: Gridworld, start: Cell, goal: Cell, max_moves: int | None) -> bool:
    """Will the readable agent plan at all? Not from the goal, not with no moves allowed, not toward
    an unreachable goal (the known map tells at once; untimed, as the readable check)."""
    width = grid.width
    return start != goal and (max_moves is None or max_moves > 0) and bool(
        lookahead.reachable(grid.blocked, start[0] * width + start[1], goal[0] * width + goal[1]))


def no_episodes_run(algorithm: str, grid: Gridworld, start: Cell, goal: Cell) -> KnownMapRun:
    """The run of an agent that never plans (see :func:`episodes_ahead`): it stays on ``start``."""
    return KnownMapRun(algorithm, grid.width, np.array([start[0] * grid.width + start[1]]), _NONE, start == goal,
                       (0, 0) if start == goal else None, 0.0, 0.0, 0)


def pursue_in_turn(algorithm: str, grid: Gridworld, start: Cell, goals: list[Cell], connectivity: int,
                   max_moves: int | None, first_seconds: float, seconds: float, checked: np.ndarray) -> KnownMapRun:
    """The readable ``pursue_in_turn``'s walk (``algorithm`` names the run; the goal policy's times and
    checked states come in): LRTA* (lookahead one) toward ``goals[0]``, then, on arrival, ``goals[1]``,
    ..., ending at ``goals[-1]``: ``lrta_arrays`` with a next-goal table and the switch on arrival. The times add the
    goal policy's (``first_seconds`` to the first episode, ``seconds`` to the whole run).

    The table maps each goal to the next, so a goal may appear only once; the run ends on the last
    goal, so the list is cut at its first appearance. The readable agents' lists keep that (cells of
    an optimal path; subgoals taken once)."""
    width = grid.width
    indices = [row * width + col for row, col in goals]
    start_index, goal_index = start[0] * width + start[1], indices[-1]
    indices = indices[:indices.index(goal_index) + 1]
    if len(set(indices)) < len(indices):
        raise ValueError(f"the goals to pursue repeat a cell: {goals}")
    workspace = lookahead._workspace(grid.size)
    rows = workspace.h_straight.shape[0]
    if rows < len(indices):   # room for every goal's h table before the clock starts (D LRTA* (3): some 40)
        lookahead.reserve(grid.size, max(len(indices), 2 * rows), workspace.trajectory.shape[0])
        workspace = lookahead._workspace(grid.size)
    if grid.size not in _NEXT_GOAL:
        _NEXT_GOAL[grid.size] = np.full(grid.size, -1, np.int64)
    next_goal = _NEXT_GOAL[grid.size]
    limit = -1 if max_moves is None else max(max_moves, 0)
    try:
        for here, after in zip(indices, indices[1:]):
            next_goal[here] = after
        arguments = (grid.blocked, start_index, goal_index, connectivity, next_goal, _NONE, lookahead.SUB, indices[0],
                     True)
        began = time.process_time()   # the first episode alone: a run stopped after one move
        workspace.run(*arguments, 1)
        first = time.process_time() - began
        began = time.process_time()
        moves, straight, diagonal, slots = workspace.run(*arguments, limit)
        total = time.process_time() - began
    finally:
        next_goal[indices] = -1
    reached = int(workspace.trajectory[moves]) == goal_index
    return KnownMapRun(algorithm, width, workspace.trajectory[:moves + 1].copy(), workspace.goals[:moves].copy(),
                       reached, (int(straight), int(diagonal)) if reached else None, first_seconds + first,
                       seconds + total, slots, checked=checked)
