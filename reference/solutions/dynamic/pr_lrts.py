"""PR LRTS (Bulitko, Sturtevant & Kazakevich 2005): LRTS on an abstract map, its path refined by A*.

The map is abstracted ``level`` times by clique abstraction (:mod:`.abstraction`). An abstract
state's position is its representative; two adjacent abstract states are joined by an edge costing
the octile distance between their representatives, and the abstract h is the octile distance
between representatives (consistent, by the triangle inequality). One episode from the agent's
cell s:

1. LRTS with γ = 1 and no backtracking (that is, LRTA*) at the abstract level: the breadth-first
   lookahead of depth ``depth`` from s's abstract state A toward the goal's abstract state B
   (:func:`.lrta.breadth_first_layers` on the abstract graph), the frontier state A' with the
   smallest g + h, h(A) raised to it;
2. path refinement: A* on the ground, only through the cells of the abstract states on the
   lookahead's path A .. A' (the corridor), from s to the representative of A' (to the goal itself
   once A' = B; and when A = B, through A's cells to the goal);
3. the agent walks the whole refined path.

Expansions of an episode (abstract expansions + A*'s) are booked on its first action and 0 on the
others: :class:`PRLRTS` is a planner of the kit's agent core (:class:`~.lrta.EpisodePlanner`). The abstract graph is connected where the map is, so the refinement always finds a path
(an abstract state's cells are connected, and adjacent ones touch).

>>> import numpy as np
>>> run = pr_lrts(np.zeros((4, 8), dtype=bool), (0, 0), (3, 7), level=1, depth=2)
>>> run.reached, run.cost       # an open room: 4 straight moves and 3 diagonal ones are optimal
(True, (4, 3))
"""

from __future__ import annotations

import numpy as np

from reference.world.grid import Cell, Cost, cost_value, octile_cost

from reference.solutions.best_first import SearchTree, best_first_search
from reference.solutions.dynamic.abstraction import Hierarchy, clique_hierarchy
from reference.solutions.dynamic.lrta import (
    EpisodePlanner, Neighbours, Run, breadth_first_layers, checked_neighbours, choices_by_depth,
)


class AbstractMap:
    """The abstract graph at one level, indexed like :class:`.lrta.Neighbours`: ``self[a]`` lists
    ``(b, cost)`` for every abstract state b adjacent to a, cost the octile distance between their
    representatives (an exact cost)."""

    def __init__(self, hierarchy: Hierarchy, level: int) -> None:
        self.hierarchy, self.level = hierarchy, level
        count_ = len(hierarchy.levels[level].members)
        self.representative = [hierarchy.representative(level, a) for a in range(count_)]
        self.table = {a: [(b, octile_cost(self.representative[a], self.representative[b]))
                          for b in sorted(hierarchy.levels[level].adjacent[a])] for a in range(count_)}

    def __getitem__(self, region: int) -> list[tuple[int, Cost]]:
        return self.table[region]

    def region(self, cell: Cell) -> int:
        return self.hierarchy.region(cell, self.level)

    def h(self, region: int, goal_region: int) -> Cost:
        return octile_cost(self.representative[region], self.representative[goal_region])


def corridor_astar(neighbours: Neighbours, start: Cell, goal: Cell, allowed: set[Cell]) -> tuple[list[Cell], int]:
    """A* (octile h, ties to the larger g) from ``start`` to ``goal`` through ``allowed`` cells only:
    the path (``start`` first; ``[start]`` if none) and the expansions (the goal is not expanded).

    The kit's one best-first search (:func:`~reference.solutions.best_first.best_first_search`) on
    the map's successors cut to the corridor.

    >>> corridor = {(0, 0), (0, 1), (0, 2), (1, 1)}      # (1, 0) and (1, 2) lie outside it
    >>> corridor_astar(Neighbours(np.zeros((2, 3), dtype=bool)), (0, 0), (0, 2), corridor)   # expands (0, 0), (0, 1)
    ([(0, 0), (0, 1), (0, 2)], 2)
    """
    tree = corridor_search(neighbours, start, goal, allowed)
    return (tree.path_to(goal) if goal in tree.g else [start]), len(tree.expanded)


def corridor_search(neighbours: Neighbours, start: Cell, goal: Cell, allowed: set[Cell]) -> SearchTree[Cell]:
    """:func:`corridor_astar`'s search tree (its expanded cells in order, its g and tree pointers)."""
    def inside(cell: Cell) -> list[tuple[Cell, Cost]]:
        return [(child, step) for child, step in neighbours[cell] if child in allowed]

    return best_first_search(start, inside, lambda cell: octile_cost(cell, goal), goal=goal)


class PRLRTS(EpisodePlanner):
    """PR LRTS as a planner of the kit's agent core: each episode is steps 1-2 (the abstract
    lookahead and the refining A*); the agent walks the refined path whole (step 3)."""

    def __init__(self, level: int, depth: int, *, max_actions: int = 100_000,
                 abstract: AbstractMap | None = None) -> None:
        if depth < 1:
            raise ValueError(f"the depth must be at least 1, not {depth}")
        super().__init__(max_actions=max_actions)
        self.level, self.depth, self.abstract = level, depth, abstract
        self.learned: dict[int, Cost] = {}   # the abstract h LRTS has raised, toward the goal's region

    def run(self, blocked: np.ndarray | Neighbours, start: Cell, goal: Cell) -> Run:
        neighbours = checked_neighbours(blocked, start, goal)
        self.abstract = self.abstract or AbstractMap(clique_hierarchy(neighbours, self.level), self.level)
        self.goal_region = self.abstract.region(goal)
        return super().run(neighbours, start, goal)

    def abstract_h(self, region: int) -> Cost:
        assert self.abstract is not None
        return self.learned.get(region) or self.abstract.h(region, self.goal_region)

    def plan(self, agent: Cell) -> tuple[list[Cell], list[Cell], int]:
        abstract, depth = self.abstract, self.depth
        assert abstract is not None
        members = abstract.hierarchy.levels[abstract.level].members
        here = abstract.region(agent)
        if here == self.goal_region:
            corridor, target, planned = set(members[here]), self.goal, 0
        else:
            look = breadth_first_layers(abstract, here, self.goal_region, depth)       # 1
            choice = choices_by_depth(look, self.abstract_h, [depth]).get(depth)
            if choice is None:
                return [], [agent], 0
            if cost_value(choice.f) > cost_value(self.abstract_h(here)):
                self.learned[here] = choice.f
            regions = [choice.target]
            while regions[-1] != here:
                regions.append(look.parent[regions[-1]])
            corridor = {cell for region in regions for cell in members[region]}
            target = self.goal if choice.target == self.goal_region else abstract.representative[choice.target]
            planned = look.expansions(depth)
        tree = corridor_search(self.neighbours, agent, target, corridor)                # 2
        walk = tree.path_to(target) if target in tree.g else [agent]
        return tree.expanded, walk, planned + len(tree.expanded)   # the record lists the A*'s cells


def pr_lrts(blocked: np.ndarray | Neighbours, start: Cell, goal: Cell, level: int, depth: int, *,
            max_actions: int = 100_000, abstract: AbstractMap | None = None) -> Run:
    """PR LRTS at abstraction ``level`` with abstract lookahead ``depth`` (γ = 1); stops unreached
    after ``max_actions``. ``abstract``: the map's :class:`AbstractMap`, to share between runs.

    Parameters
    ----------
    blocked : numpy.ndarray or Neighbours
        The map's boolean blocked array (eight-connected, no corner cutting), or its successor
        table built once for many runs.
    start, goal : Cell
        Free ``(row, col)`` cells of the map.
    level : int
        How many times the map is abstracted (clique abstraction).
    depth : int
        The abstract lookahead, in abstract actions (at least 1).
    max_actions : int
        The run ends unreached after this many actions.
    abstract : AbstractMap, optional
        The map's abstract graph at ``level``, built once for many runs.

    Returns
    -------
    Run
        As :func:`~reference.solutions.dynamic.lrta.general_lrta`'s; an episode's expansions
        (abstract ones and the refining A*'s) are booked on its first action.

    Raises
    ------
    ValueError
        A depth below 1; a start or goal that is blocked or outside the map.

    See Also
    --------
    reference.solutions.dynamic.koenig_lrta.koenig_lrta, reference.solutions.dynamic.prioritized_lrta.prioritized_lrta :
        the other Figure 8 baselines (readable only: fast enough for the study).

    Examples
    --------
    >>> blocked = np.zeros((3, 5), dtype=bool); blocked[0:2, 2] = True
    >>> run = pr_lrts(blocked, (0, 0), (0, 4), level=1, depth=2)
    >>> run.reached, run.cost
    (True, (4, 2))
    """
    return PRLRTS(level, depth, max_actions=max_actions, abstract=abstract).run(blocked, start, goal)
