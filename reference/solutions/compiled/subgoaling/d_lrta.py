"""The compiled twin of :mod:`reference.solutions.subgoaling.d_lrta` (SPEC §16): its preprocessing and its online part.

D LRTA*'s preprocessing is the dynamic-control pattern database, compiled in :mod:`..dynamic`
(:func:`build_d_lrta_database`). :func:`d_lrta_star` is the dynamic-control module's compiled
general LRTA* (:func:`..dynamic.run_database`) with D LRTA*'s goal selection: the same trajectory,
goals and expansions per action as the readable agent. The readable code is the one to read.

>>> from reference.world.grid import Gridworld
>>> grid = Gridworld.from_strings(["....", ".@@.", "...."])
>>> run = d_lrta_star(grid, (0, 1), (2, 3), build_d_lrta_database(grid, level=1))
>>> run.reached, run.trajectory[0], run.trajectory[-1]
(True, (0, 1), (2, 3))
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from reference.solutions.dynamic.lrta import Neighbours
from reference.solutions.dynamic.pattern_database import GOAL_RULES, PatternDatabase
from reference.solutions.subgoaling.d_lrta import (DEFAULT_CAP, DEFAULT_MAX_MOVES, GOAL_SELECTION,
                                                   check_database_settings)
from reference.solutions.subgoaling.lrta import check_ends
from reference.world.grid import Cell, Gridworld

from .pursuit import episodes_ahead

def build_d_lrta_database(grid: Gridworld, level: int = 3, cap: int = DEFAULT_CAP) -> PatternDatabase:
    """Twin of :func:`reference.solutions.subgoaling.d_lrta.build_d_lrta_database`: the dynamic-control
    pattern database built by its compiled twin; the same tables."""
    from reference.solutions.compiled.dynamic import build_pattern_database_compiled

    check_database_settings(level, cap)
    return build_pattern_database_compiled(Neighbours(grid.blocked), level, cap)


@dataclass
class DLrtaRun:
    """A compiled D LRTA* run: what the experiment reads of the readable ``KnownMapRun`` (the
    trajectory, each action's goal and expansions; no expanded states), and the CPU times."""

    trajectory: list[Cell]
    goals: list[Cell]
    expansions_per_action: list[int]
    reached: bool
    cost: tuple[int, int] | None
    first_episode_seconds: float
    total_seconds: float

    @property
    def moves(self) -> int:
        return len(self.trajectory) - 1

    @property
    def episodes(self) -> int:
        return len(self.goals)

    @property
    def expansions(self) -> int:
        return sum(self.expansions_per_action)

    @property
    def first_goal(self) -> Cell | None:
        return self.goals[0] if self.goals else None


#: The compiled lookahead's workspace of the last map run (a map's runs share it): ``(blocked, Lookahead)``.
_LOOKAHEAD: list = []


def d_lrta_star(grid: Gridworld, start: Cell, goal: Cell, database: PatternDatabase, rule: str = "paper",
                max_moves: int | None = None) -> DLrtaRun:
    """D LRTA* on a known map, eight-connected, compiled: the arguments and the walk of
    :func:`reference.solutions.subgoaling.d_lrta.d_lrta_star` (the whole run in one compiled call,
    :func:`..dynamic.run_database` with goal selection I). Times: a run stopped after one action (the
    first episode), then the whole run."""
    from ..dynamic import Lookahead, run_database

    if rule not in GOAL_RULES:
        raise ValueError(f"goal rule must be one of {GOAL_RULES}, not {rule!r}")
    check_ends(grid, start, goal)
    limit = DEFAULT_MAX_MOVES if max_moves is None else max_moves
    if not episodes_ahead(grid, start, goal, limit):
        return DLrtaRun([start], [], [], start == goal, (0, 0) if start == goal else None, 0.0, 0.0)
    if not _LOOKAHEAD or _LOOKAHEAD[0] is not grid.blocked:
        _LOOKAHEAD[:] = [grid.blocked, Lookahead(grid.blocked)]
    look = _LOOKAHEAD[1]
    run_database(grid.blocked, start, goal, database, GOAL_SELECTION, max_actions=1, lookahead=look, rule=rule)  # compiles
    began = time.process_time()
    run_database(grid.blocked, start, goal, database, GOAL_SELECTION, max_actions=1, lookahead=look, rule=rule)
    first = time.process_time() - began
    began = time.process_time()
    run = run_database(grid.blocked, start, goal, database, GOAL_SELECTION, max_actions=limit, lookahead=look, rule=rule)
    total = time.process_time() - began
    return DLrtaRun(run.path, run.goals, run.expansions, run.reached, run.cost if run.reached else None, first, total)
