"""D LRTA* (Bulitko, Luštrek, Schaeffer, Björnsson and Sigmundarson 2007): LRTA* whose search depth
and goal come, at every action, from a pattern database over a clique abstraction of the map.

The subgoaling paper (Hernández and Baier 2011) compares with D LRTA* (3) and D LRTA* (5), the
abstraction levels, and notes that D LRTA* "need[s] several expansions per planning episode". That
is the algorithm of the dynamic-control paper's Figures 3 and 4 with intermediate goals always
(its "I" selection: the paper's D LRTA*), and this module runs it from the dynamic-control
module's own parts, unchanged:

**Preprocessing** (:func:`build_d_lrta_database`): Figure 3 with Figure 4
(:func:`reference.solutions.dynamic.pattern_database.build_pattern_database`): abstract the map
``level`` times; for every pair of regions (A, B), from A's representative toward B's, store the
optimal search depth d*(A, B) (capped at ``cap``: the shallowest breadth-first lookahead whose
action lies on an optimal path) and the region an optimal path enters first (its representative is
the intermediate goal).

**Online** (:func:`d_lrta_star`): general LRTA* (the dynamic-control paper's Figure 1): before every
action, line 3 looks up (own region, goal's region): the goal is the intermediate goal (the goal
itself in the goal's region) and the depth the one stored toward it; lines 4-7 search breadth-first
to that depth, raise h and move one step. The expansions of an action are the lookahead's: that is
what the paper's "expansions per planning episode" count.

Two goal rules (``rule=``, :data:`~reference.solutions.dynamic.pattern_database.GOAL_RULES`):

* ``"paper"`` (the default): the goal is looked up afresh at every action, "dynamically, per
  action", as the paper defines it. Agents can oscillate across a region border (two regions'
  representatives whose optimal paths run through each other): runs then end unreached at the
  move limit, and count as such.
* ``"once"``: the kit's repair (an intermediate goal kept until reached, each taken once per run:
  every run ends), shown beside the paper's rule.

>>> from reference.world.grid import Gridworld
>>> grid = Gridworld.from_strings(["......", "......", "...@..", "...@..", "......"])
>>> database = build_d_lrta_database(grid, level=2, cap=5)     # four regions
>>> run = d_lrta_star(grid, (3, 0), (3, 5), database)
>>> [record.goal for record in run.trace.searches]          # per action: a representative, then the goal
[(0, 4), (0, 4), (0, 4), (0, 4), (0, 4), (3, 4), (3, 4), (3, 5)]
>>> run.reached, run.cost                                   # optimal: 3 + 2·√2, below the wall
(True, (5, 3))
"""

from __future__ import annotations

import time

from reference.solutions.dynamic.lrta import Agent, GeneralLRTA, Neighbours
from reference.solutions.dynamic.pattern_database import GOAL_RULES, PatternDatabase, build_pattern_database
from reference.world.grid import Cell, Gridworld, distances_from
from reference.world.sensing import Knowledge, KnownMapWorld
from reference.world.trace import SearchRecord, Trace

from ..agent import run_agent
from .lrta import KnownMapRun, check_ends

#: The cap on the stored search depth: the dynamic-control paper's Figure 5 ("Search depth for all
#: versions of LRTA* was capped at 20").
DEFAULT_CAP = 20
#: The goal selection D LRTA* uses: always the intermediate goal, unless in the goal's region.
GOAL_SELECTION = "i"
#: A run ends unreached after this many actions when none is given (the experiment gives 20 x the
#: optimal cost, as the dynamic-control study does).
DEFAULT_MAX_MOVES = 100_000


def build_d_lrta_database(grid: Gridworld, level: int = 3, cap: int = DEFAULT_CAP) -> PatternDatabase:
    """D LRTA*'s pattern database of ``grid`` (eight-connected) at abstraction ``level`` (>= 1):
    depths and next regions for every pair of regions. Its compiled twin (the same tables) is
    :func:`reference.solutions.compiled.subgoaling.d_lrta.build_d_lrta_database`.

    >>> database = build_d_lrta_database(Gridworld.from_strings(["....", "...."]), level=1)
    >>> database.regions, database.next_region.tolist()     # region 0 leads into 1, 1 into 0
    (2, [[-1, 1], [0, -1]])
    """
    check_database_settings(level, cap)
    return build_pattern_database(Neighbours(grid.blocked), level, cap)


def check_database_settings(level: int, cap: int) -> None:
    """Refuse an abstraction level or a depth cap below 1 (the readable builder and its twin both ask).

    >>> check_database_settings(0, 20)
    Traceback (most recent call last):
    ...
    ValueError: the abstraction level must be at least 1, got 0
    """
    if level < 1:
        raise ValueError(f"the abstraction level must be at least 1, got {level}")
    if cap < 1:
        raise ValueError(f"the depth cap must be at least 1, got {cap}")


class DLrta(GeneralLRTA):
    """General LRTA* as a planner of the kit's agent core whose run keeps the SPEC §8 trace and each
    episode's CPU time (the subgoaling experiment's :class:`~.lrta.KnownMapRun`)."""

    algorithm = "d_lrta"

    def run_known(self, world: KnownMapWorld, start: Cell, goal: Cell) -> KnownMapRun:
        """Move the agent from ``start`` until it stands on ``goal`` (or ``max_actions`` actions)."""
        check_ends(world.grid, start, goal)
        neighbours = self.neighbours if self.neighbours is not None else Neighbours(world.blocked)
        self.agent = Agent(neighbours, start, goal, path=[start])                       # line 1
        self.planning_seconds: list[float] = []
        if goal not in distances_from(world.grid, start):   # the map is known: no episode toward an unreachable goal
            return KnownMapRun(Trace(self.algorithm, self.tie_break, False, [start], []), None, [])
        trace = run_agent(world, start, goal, self, world.knowledge(), self.max_actions)   # line 2
        return KnownMapRun(trace, self.agent.cost if trace.reached else None, self.planning_seconds)

    def plan_episode(self, cell: Cell, knowledge: Knowledge, newly_blocked: list[Cell]) -> SearchRecord:
        began = time.process_time()
        record = super().plan_episode(cell, knowledge, newly_blocked)                   # lines 3-7
        self.planning_seconds.append(time.process_time() - began)
        return record


def d_lrta_star(grid: Gridworld, start: Cell, goal: Cell, database: PatternDatabase, rule: str = "paper",
                max_moves: int | None = None) -> KnownMapRun:
    """D LRTA* on a known map, eight-connected (trace name ``d_lrta``): ``database`` from
    :func:`build_d_lrta_database` for the same map, goal ``rule`` ``"paper"`` or ``"once"``; the run
    ends unreached after ``max_moves`` actions (None: :data:`DEFAULT_MAX_MOVES`)."""
    if rule not in GOAL_RULES:
        raise ValueError(f"goal rule must be one of {GOAL_RULES}, not {rule!r}")
    planner = DLrta(controller=database.controller(GOAL_SELECTION, rule),
                    max_actions=DEFAULT_MAX_MOVES if max_moves is None else max_moves)
    return planner.run_known(KnownMapWorld(grid, start, 8), start, goal)
