"""What kNN LRTA* and D LRTA* share: hill-climbing checks, and LRTA* that pursues subgoals in turn.

- :func:`hill_climb`: a greedy agent toward ``target`` that stops as soon as the heuristic does not
  drop (Bulitko, Björnsson and Lawrence 2010's test of whether a state is *hill-climbing
  reachable*). When it succeeds, LRTA* with lookahead one and fresh h-values walks exactly the same
  cells (it makes the same choice at every step, since each state is new to it), so that leg needs
  no learning.
- :class:`SubgoalPursuit`: the kit's known-map LRTA* (:class:`~.lrta.KnownMapLRTA`, run by the
  agent core) whose goal a *policy* may change at every planning episode. One :class:`~reference.world.trace.SearchRecord` per episode, as in :mod:`.lrta`; an
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

from typing import Callable

from reference.world.grid import Cell, Gridworld, add_costs, cost_value, heuristic_cost, successors
from reference.world.sensing import Knowledge, KnownMapWorld
from reference.world.trace import SearchRecord

from .lrta import KnownMapLRTA, KnownMapRun

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


class SubgoalPursuit(KnownMapLRTA):
    """LRTA* with lookahead one on a known map whose goal ``policy`` chooses at every episode.

    The kit's known-map LRTA* (:class:`~.lrta.KnownMapLRTA`: the agent core's loop, the successor
    order, the tie rule, h-values per goal, created lazily and never lowered), with the goal chosen by
    ``policy``; what the policy expanded to decide is listed before the agent's state in the record.
    Settings, keyword-only: ``algorithm`` (the trace's name), ``policy``, ``max_moves``.
    """

    def __init__(self, *, algorithm: str, policy: GoalPolicy, max_moves: int | None = None) -> None:
        super().__init__(max_moves=max_moves)
        self.algorithm, self.policy = algorithm, policy
        self.checked: list[Cell] = []

    def choose_goal(self, s: Cell, goal: Cell | None) -> Cell:
        goal, self.checked = self.policy(s, goal)
        return goal

    def plan_episode(self, agent: Cell, knowledge: Knowledge, newly_blocked: list[Cell]) -> SearchRecord:
        record = super().plan_episode(agent, knowledge, newly_blocked)
        record.expanded[:0] = self.checked   # the policy's expansions (hill-climbing checks) come first
        return record


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

    pursuit = SubgoalPursuit(algorithm=algorithm, policy=policy, max_moves=max_moves)
    return pursuit.run(KnownMapWorld(grid, start, connectivity), start, goals[-1])
