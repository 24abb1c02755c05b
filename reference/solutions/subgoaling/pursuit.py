"""What kNN LRTA* and D LRTA* share: hill-climbing checks, and LRTA* that pursues subgoals in turn.

- :func:`hill_climb`: a greedy agent toward ``target`` that stops as soon as the heuristic does not
  drop (Bulitko, Björnsson and Lawrence 2010's test of whether a state is *hill-climbing
  reachable*). When it succeeds, LRTA* with lookahead one and fresh h-values walks exactly the same
  cells (it makes the same choice at every step, since each state is new to it), so that leg needs
  no learning.
- :class:`SubgoalPursuit`: the kit's known-map LRTA* (lookahead one, the same successor order, the
  same tie rule and h update as :mod:`.lrta`) whose goal a *policy* may change at every planning
  episode. One :class:`~reference.world.trace.SearchRecord` per episode, as in :mod:`.lrta`; an
  episode may expand more than the agent's state (say the first one of kNN LRTA*, which runs
  hill-climbing checks), and its record lists every expansion.

>>> from reference.world.grid import Gridworld
>>> grid = Gridworld.from_strings(["....", ".@@.", "...."])
>>> hill_climb(grid, (0, 1), (0, 3), 8)            # along the top row: h drops at every move
(True, [(0, 1), (0, 2)])
>>> hill_climb(grid, (0, 1), (2, 2), 8)         # to (0, 2) (h 2.41 -> 2); then the wall: E's h is 2.41
(False, [(0, 1), (0, 2)])
"""

from __future__ import annotations

import time
from typing import Callable

from reference.world.grid import Cell, Cost, Gridworld, add_costs, cost_value, distances_from, heuristic_cost, successors
from reference.world.trace import SearchRecord, Trace

from .lrta import KnownMapRun

#: A hill-climbing check gives up after this many moves (Bulitko et al. bound it the same way).
CLIMB_LIMIT = 250


def hill_climb(grid: Gridworld, start: Cell, target: Cell, connectivity: int = 8,
               limit: int = CLIMB_LIMIT) -> tuple[bool, list[Cell]]:
    """Whether ``target`` is hill-climbing reachable from ``start``, and the states expanded to find out.

    From ``start``, move to the successor minimising ``c(s, y) + h(y, target)`` (ties: the first in
    successor order), as long as ``h(y, target) < h(s, target)``, for at most ``limit`` moves.
    """
    s, expanded = start, []
    while s != target:
        if len(expanded) >= limit:
            return False, expanded
        expanded.append(s)
        here = cost_value(heuristic_cost(s, target, connectivity))
        best, best_value = None, 0.0
        for y, move in successors(grid.blocked, s, connectivity):
            value = cost_value(add_costs(move, heuristic_cost(y, target, connectivity)))
            if best is None or value < best_value:
                best, best_value = y, value
        if best is None or cost_value(heuristic_cost(best, target, connectivity)) >= here:
            return False, expanded
        s = best
    return True, expanded


#: A policy: ``(agent state, goal pursued so far or None in the first episode) -> (goal, extra
#: expanded states)``. The extra states are what the policy expanded to decide (hill-climbing checks).
GoalPolicy = Callable[[Cell, "Cell | None"], tuple[Cell, list[Cell]]]


class SubgoalPursuit:
    """LRTA* with lookahead one on a known map whose goal ``policy`` chooses at every episode.

    h-values are kept per goal, created lazily from the heuristic and never lowered.
    """

    def __init__(self, grid: Gridworld, start: Cell, goal: Cell, connectivity: int, max_moves: int | None) -> None:
        for name, cell in (("start", start), ("goal", goal)):
            if not grid.in_bounds(cell) or grid.is_blocked(cell):
                raise ValueError(f"the {name} {cell} is blocked or outside the {grid.height} x {grid.width} map")
        self.grid, self.start, self.goal, self.connectivity = grid, start, goal, connectivity
        self.max_moves = max_moves
        self.h_tables: dict[Cell, dict[Cell, Cost]] = {}   # goal -> {state: learned h(state, goal)}

    def h(self, state: Cell, goal: Cell) -> Cost:
        value = self.h_tables.setdefault(goal, {}).get(state)
        return value if value is not None else heuristic_cost(state, goal, self.connectivity)

    def step(self, s: Cell, goal: Cell) -> tuple[Cell, Cost]:
        """Expand ``s``: the successor minimising ``c(s, y) + h(y, goal)`` (ties: the first), the move's
        cost; ``h(s, goal)`` is raised to that minimum if it is larger."""
        best, best_move, best_cost, best_value = s, (0, 0), None, 0.0
        for y, move in successors(self.grid.blocked, s, self.connectivity):
            cost = add_costs(move, self.h(y, goal))
            if best_cost is None or cost_value(cost) < best_value:
                best, best_move, best_cost, best_value = y, move, cost, cost_value(cost)
        if best_cost is not None and best_value > cost_value(self.h(s, goal)):
            self.h_tables[goal][s] = best_cost
        return best, best_move

    def run(self, algorithm: str, policy: GoalPolicy) -> KnownMapRun:
        """Walk until the goal (or ``max_moves``); an unreachable goal (known map: a breadth-first
        check, not timed) ends the run at once, unreached."""
        s = self.start
        trajectory, records, seconds = [s], [], []
        cost: Cost = (0, 0)
        reachable = self.goal in distances_from(self.grid, s)
        current: Cell | None = None
        while reachable and s != self.goal and (self.max_moves is None or len(trajectory) <= self.max_moves):
            began = time.process_time()
            current, checked = policy(s, current)
            y, move = self.step(s, current)
            seconds.append(time.process_time() - began)
            records.append(SearchRecord(start=s, goal=current, expanded=checked + [s], path=[s, y]))
            cost = add_costs(cost, move)
            trajectory.append(y)
            s = y
        reached = s == self.goal
        return KnownMapRun(Trace(algorithm, "larger_g", reached, trajectory, records), cost if reached else None, seconds)


def pursue_in_turn(grid: Gridworld, start: Cell, goals: list[Cell], connectivity: int = 8,
                   max_moves: int | None = None, algorithm: str = "lrta") -> KnownMapRun:
    """LRTA* toward ``goals[0]``, then (once there) ``goals[1]``, ..., ending at ``goals[-1]``.

    >>> from reference.world.grid import Gridworld
    >>> run = pursue_in_turn(Gridworld.from_strings(["...", "..."]), (0, 0), [(1, 1), (0, 2)])
    >>> run.trace.trajectory, [record.goal for record in run.trace.searches]
    ([(0, 0), (1, 1), (0, 2)], [(1, 1), (0, 2)])
    """
    queue = list(goals)

    def policy(s: Cell, goal: Cell | None) -> tuple[Cell, list[Cell]]:
        while len(queue) > 1 and s == queue[0]:
            queue.pop(0)
        return queue[0], []

    return SubgoalPursuit(grid, start, goals[-1], connectivity, max_moves).run(algorithm, policy)
