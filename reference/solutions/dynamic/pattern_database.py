"""Pattern databases of search depths and intermediate goals (Bulitko et al. 2007, Figures 3 and 4).

For every pair of abstract states (A, B) at abstraction level ℓ, with representatives r_A and r_B
(:meth:`~.abstraction.Hierarchy.representative`):

* ``depth[A, B]``: the optimal search depth for r_A toward r_B, that is the shallowest depth
  d = 1 .. c at which general LRTA* with a fresh octile h takes an optimal action (a move on some
  optimal path, found from Dijkstra distances to r_B); ``c + 1`` when no depth up to the cap does
  (Figure 3, line 5; Figure 4, line 5a). ``depth[A, A] = 1``.
* ``next_region[A, B]``: the abstract state an optimal path from r_A to r_B enters first (the one that
  always takes the first optimal move in successor order; the intermediate goal of Figure 4,
  line 5b, is its representative); the depth toward it is
  ``depth[A, next_region[A, B]]``, so one table serves all three goal selections:

  - **G** (global goal): depth ``min(depth[A, B], c)``, goal the agent's goal.
  - **G+I**: as G unless ``depth[A, B] > c``; then the intermediate goal (Figure 4, lines 5a-5c).
  - **I**: always the intermediate goal, unless the agent is in the goal's region.

At run time the agent looks up its own region and its goal's (constant time per action). Two
rules for what happens to an intermediate goal once chosen (``rule=``):

* ``"paper"``: the goal is selected "dynamically, per action" (the paper's words): at every action
  the agent looks up (own region, global goal's region) afresh and searches toward what the table
  says. Agents can oscillate: on a region border one region sends the agent across, the region on
  the other side sends it back (measured: 1,500 round trips on AR0405SR, level 5; 10-14 of 20
  problems solved at levels 4-5 within 20 x the optimal cost).
* ``"once"`` (the kit's repair, an addition to the paper): an intermediate goal is *kept until the
  agent stands on it* (the depth is still looked up at every action, for the pair (own region, the
  intermediate goal's region)), and *each intermediate goal is taken at most once per run* (and
  never the cell the agent stands on); when the table names one already taken, the agent heads for
  the global goal instead. Keeping alone does not stop cycles: two regions whose optimal paths run
  through each other name each other's representatives (I), or a region that trusts the global
  goal sends the agent into a capped region whose intermediate goal leads back (G+I). With both, a
  run takes finitely many intermediate goals (one per region at most), each reached in finite time
  (LRTA* toward a fixed goal is complete on a finite connected map), and then only the global
  goal: every run reaches its goal.

>>> import numpy as np
>>> from reference.solutions.dynamic.lrta import Neighbours, general_lrta
>>> blocked = np.zeros((6, 6), dtype=bool); blocked[1:5, 3] = True
>>> database = build_pattern_database(Neighbours(blocked), level=1, cap=5)
>>> database.depth.shape == (database.regions, database.regions) and database.regions < 32   # 32 free cells
True
>>> run = general_lrta(blocked, (3, 0), (3, 5), database.controller("gi", rule="paper"))
>>> run.reached, run.goals[-1]          # the goal each action searched toward is recorded
(True, (3, 5))
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import AbstractSet, Sequence

import numpy as np

from reference.solutions.shortest_paths import dijkstra
from reference.world.grid import Cell, add_costs, octile_cost

from reference.solutions.dynamic.abstraction import Hierarchy, clique_hierarchy
from reference.solutions.dynamic.lrta import Agent, Controller, Neighbours, breadth_first_layers, choices_by_depth

GOAL_SELECTIONS = ("g", "gi", "i")
GOAL_RULES = ("paper", "once")  # re-selected at every action (the paper) / kept until reached, each once (the kit)
DEPTH_STAGES = (1, 4, 10)  # deepen in stages: most pairs need a shallow depth, and d <= D is read off one depth-D search


def optimal_actions(neighbours: Neighbours, cell: Cell, distance: dict) -> set[Cell]:
    """The moves from ``cell`` that lie on an optimal path (``distance``: exact costs to the goal)."""
    here = distance.get(cell)
    return {n for n, step in neighbours[cell] if n in distance and add_costs(step, distance[n]) == here}


def first_cell_outside(neighbours: Neighbours, start: Cell, distance: dict, region_of: dict) -> Cell:
    """The first cell outside ``start``'s region on the optimal path that always takes the first
    optimal move in successor order (E, SE, S, ...): where an optimal path leaves the region."""
    cell = start
    while region_of[cell] == region_of[start]:
        cell = next(n for n, step in neighbours[cell] if n in distance and add_costs(step, distance[n]) == distance[cell])
    return cell


def optimal_depth(neighbours: Neighbours, start: Cell, goal: Cell, distance: dict, cap: int) -> int:
    """The shallowest depth 1 .. ``cap`` whose LRTA* action (fresh octile h) is optimal, else cap + 1."""
    if start == goal or start not in distance:
        return 1
    best = optimal_actions(neighbours, start, distance)
    for stage in (*[s for s in DEPTH_STAGES if s < cap], cap):
        look = breadth_first_layers(neighbours, start, goal, stage)
        choices = choices_by_depth(look, lambda cell: octile_cost(cell, goal), range(1, stage + 1))
        for depth in range(1, stage + 1):
            if depth in choices and choices[depth].step in best:
                return depth
        if len(look.layers) <= stage:  # the map ran out: deeper searches decide the same
            break
    return cap + 1


@dataclass
class PatternDatabase:
    """Figure 3 with Figure 4: depths and intermediate goals for every pair of abstract states."""

    hierarchy: Hierarchy
    level: int
    cap: int
    depth: np.ndarray         # (regions, regions), see the module docstring
    next_region: np.ndarray   # (regions, regions), -1 where there is no path or A == B
    representatives: list[Cell]
    seconds: float            # build time
    goal_regions: tuple[int, ...] | None = None   # the columns built, if not all (enough for G toward those goals)

    @property
    def regions(self) -> int:
        return len(self.representatives)

    @property
    def size(self) -> int:
        """Entries stored: one per pair of abstract states."""
        return self.regions ** 2

    def lookup(self, cell: Cell, goal: Cell, goals: str = "g", used: AbstractSet[Cell] = frozenset()) -> tuple[int, Cell]:
        """Depth and goal for an agent at ``cell`` heading for ``goal`` (Figure 1, line 3); an
        intermediate goal in ``used`` (or ``cell`` itself) is refused for the global goal."""
        a = self.hierarchy.region(cell, self.level)
        b = self.hierarchy.region(goal, self.level)
        depth = int(self.depth[a, b])
        via = int(self.next_region[a, b])
        intermediate = via >= 0 and (goals == "i" or (goals == "gi" and depth > self.cap))
        if intermediate and self.representatives[via] not in used and self.representatives[via] != cell:
            return min(int(self.depth[a, via]), self.cap), self.representatives[via]
        return min(depth, self.cap), goal

    def controller(self, goals: str = "g", rule: str = "once") -> Controller:
        """Line 3 of Figure 1 from this table: goal selection ``goals`` (G, G+I, I) under ``rule``."""
        if goals not in GOAL_SELECTIONS:
            raise ValueError(f"goal selection must be one of {GOAL_SELECTIONS}, not {goals!r}")
        if rule not in GOAL_RULES:
            raise ValueError(f"goal rule must be one of {GOAL_RULES}, not {rule!r}")

        def per_action(agent: Agent) -> tuple[int, Cell]:
            return self.lookup(agent.state, agent.goal, goals)

        def once(agent: Agent) -> tuple[int, Cell]:
            if agent.subgoal is not None and agent.subgoal != agent.state:
                a = self.hierarchy.region(agent.state, self.level)
                c = self.hierarchy.region(agent.subgoal, self.level)
                return min(int(self.depth[a, c]), self.cap), agent.subgoal
            depth, goal = self.lookup(agent.state, agent.goal, goals, agent.used_subgoals)
            agent.subgoal = goal if goal != agent.goal else None
            if agent.subgoal is not None:
                agent.used_subgoals.add(goal)
            return depth, goal

        return per_action if rule == "paper" else once


def build_pattern_database(neighbours: Neighbours, level: int, cap: int, progress=None,
                           goal_regions: Sequence[int] | None = None) -> PatternDatabase:
    """Figure 3 (with Figure 4): abstract ``level`` times, then fill every pair of abstract states.

    ``goal_regions``: fill only the pairs toward these abstract goals (their columns; the rest stay
    depth 1, no next region): all that goal selection G needs for problems with those goals, at a
    fraction of the cost (level 0 of a whole map is millions of pairs).

    One Dijkstra per abstract goal gives exact distances to its representative (for the optimal
    actions and for the first region an optimal path enters, :func:`first_cell_outside`).
    ``progress``: an optional callable taking the number of goal regions done (for a tqdm bar).

    Parameters
    ----------
    neighbours : Neighbours
        The map's successor table.
    level : int
        How many times the map is abstracted (0: every cell is its own region).
    cap : int
        The largest depth stored.
    progress : callable, optional
        Called with 1 after each goal region.
    goal_regions : sequence of int, optional
        Fill only the columns toward these abstract goals.

    Returns
    -------
    PatternDatabase
        Depth and next region for every (start region, goal region) pair, and the build time.

    See Also
    --------
    reference.solutions.compiled.dynamic.pattern_database.build_pattern_database_compiled : the compiled twin (the same tables).
    PatternDatabase.controller : line 3 of Figure 1 read from the table.

    Examples
    --------
    >>> from reference.solutions.dynamic.lrta import Neighbours
    >>> database = build_pattern_database(Neighbours(np.zeros((6, 6), dtype=bool)), level=1, cap=5)
    >>> database.regions, database.depth.shape
    (9, (9, 9))
    """
    began = time.process_time()
    hierarchy = clique_hierarchy(neighbours, level)
    count = len(hierarchy.levels[level].members)
    representatives = [hierarchy.representative(level, region) for region in range(count)]
    region_of = hierarchy.region_of[level]
    depth = np.ones((count, count), dtype=np.int16)
    next_region = np.full((count, count), -1, dtype=np.int32)
    for b in sorted(set(goal_regions)) if goal_regions is not None else range(count):
        goal = representatives[b]
        distances = dijkstra(neighbours.blocked, goal, connectivity=8)
        for a, start in enumerate(representatives):
            if a == b or start not in distances.cost:
                continue
            depth[a, b] = optimal_depth(neighbours, start, goal, distances.cost, cap)
            next_region[a, b] = region_of[first_cell_outside(neighbours, start, distances.cost, region_of)]
        if progress is not None:
            progress(1)
    return PatternDatabase(hierarchy, level, cap, depth, next_region, representatives,
                           time.process_time() - began, None if goal_regions is None else tuple(sorted(set(goal_regions))))
