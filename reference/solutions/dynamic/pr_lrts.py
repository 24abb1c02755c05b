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
others. The abstract graph is connected where the map is, so the refinement always finds a path
(an abstract state's cells are connected, and adjacent ones touch).

>>> import numpy as np
>>> run = pr_lrts(np.zeros((4, 8), dtype=bool), (0, 0), (3, 7), level=1, depth=2)
>>> run.reached, run.cost       # an open room: 4 straight moves and 3 diagonal ones are optimal
(True, (4, 3))
"""

from __future__ import annotations

from itertools import count

import numpy as np

from reference.world.grid import Cell, Cost, add_costs, cost_value, octile_cost

from reference.solutions.heap import BinaryHeap
from reference.solutions.dynamic.abstraction import Hierarchy, clique_hierarchy
from reference.solutions.dynamic.lrta import (
    ZERO, Neighbours, Run, breadth_first_layers, checked_neighbours, choices_by_depth,
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
    the path (``start`` first; ``[start]`` if none) and the expansions."""
    order = count()
    g: dict[Cell, Cost] = {start: ZERO}
    parent: dict[Cell, Cell] = {}
    closed: set[Cell] = set()
    # OPEN, keyed (f, -g, insertion number): ties to the larger g, then to the earlier insertion
    open_list: BinaryHeap = BinaryHeap()
    open_list.push(start, (cost_value(octile_cost(start, goal)), 0.0, next(order)))
    while open_list:
        cell = open_list.pop()
        if cell == goal:
            path = [goal]
            while path[-1] != start:
                path.append(parent[path[-1]])
            return path[::-1], len(closed)
        closed.add(cell)
        for child, step in neighbours[cell]:
            if child in allowed and child not in closed:
                g_child = add_costs(g[cell], step)
                if child not in g or cost_value(g_child) < cost_value(g[child]):
                    g[child], parent[child] = g_child, cell
                    key = (cost_value(g_child) + cost_value(octile_cost(child, goal)), -cost_value(g_child), next(order))
                    if child in open_list:
                        open_list.update(child, key)
                    else:
                        open_list.push(child, key)
    return [start], len(closed)


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
    if depth < 1:
        raise ValueError(f"the depth must be at least 1, not {depth}")
    neighbours = checked_neighbours(blocked, start, goal)
    abstract = abstract or AbstractMap(clique_hierarchy(neighbours, level), level)
    members = abstract.hierarchy.levels[abstract.level].members
    goal_region = abstract.region(goal)
    learned: dict[int, Cost] = {}   # the abstract h LRTS has raised, toward goal_region
    abstract_h = lambda region: learned.get(region) or abstract.h(region, goal_region)  # noqa: E731
    path, expansions, cost = [start], [], ZERO
    while path[-1] != goal and len(path) <= max_actions:
        here = abstract.region(path[-1])
        if here == goal_region:
            corridor, target, planned = set(members[here]), goal, 0
        else:
            look = breadth_first_layers(abstract, here, goal_region, depth)         # 1
            choice = choices_by_depth(look, abstract_h, [depth]).get(depth)
            if choice is None:
                break
            if cost_value(choice.f) > cost_value(abstract_h(here)):
                learned[here] = choice.f
            regions = [choice.target]
            while regions[-1] != here:
                regions.append(look.parent[regions[-1]])
            corridor = {cell for region in regions for cell in members[region]}
            target = goal if choice.target == goal_region else abstract.representative[choice.target]
            planned = look.expansions(depth)
        walk, searched = corridor_astar(neighbours, path[-1], target, corridor)       # 2
        if len(walk) == 1:
            break
        for number, (a, b) in enumerate(zip(walk, walk[1:])):                        # 3
            cost = add_costs(cost, next(c for cell, c in neighbours[a] if cell == b))
            path.append(b)
            expansions.append(planned + searched if number == 0 else 0)
            if len(path) > max_actions:
                break
    return Run(path[-1] == goal, cost, path, [depth] * len(expansions), expansions, [goal] * len(expansions))
