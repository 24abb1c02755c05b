"""Koenig's LRTA* (Koenig 2004), on the known eight-connected maps of the dynamic-control study.

One planning episode from the agent's state s:

1. A* from s toward the goal with the learned h, stopped after ``lookahead`` expansions or when the
   goal is the next state to expand (the goal is never expanded);
2. the h of every expanded (CLOSED) state is set to its cost-to-go through the OPEN states: a
   Dijkstra search outward from OPEN (``h(s) = min over neighbours n of c(s, n) + h(n)``);
3. the agent moves along the A* tree's path to the OPEN state A* would have expanded next (smallest
   f, ties to the larger g, then to the first pushed); on a known map nothing new is seen on the way,
   so it walks the whole path.

Expansions are the A* expansions of the episode (step 2's Dijkstra update touches the same states
again and is not counted, as in Koenig's count of the lookahead). :class:`KoenigLRTA` is a planner
of the kit's agent core (:class:`~.lrta.EpisodePlanner`): the episode's expansions are booked on
its first action and 0 on the others.

Both steps are the kit's one best-first search
(:func:`~reference.solutions.best_first.best_first_search`): step 1 is A* with the learned h and a
lookahead (``max_expansions``), whose ``next_state`` is the OPEN state to walk to; step 2 is
Dijkstra from an extra root joined to the sources. :mod:`reference.solutions.realtime.lookahead` is
the same algorithm for the fog-of-war agent, on unit costs in flat integer lists mirrored by its
compiled twin.

>>> import numpy as np
>>> blocked = np.zeros((3, 5), dtype=bool); blocked[0:2, 2] = True     # a wall with a gap at the bottom
>>> run = koenig_lrta(blocked, (0, 0), (0, 4), lookahead=100)
>>> run.reached, run.cost, len(run.expansions)   # one episode finds an optimal path (4 straight, 2 diagonal)
(True, (4, 2), 6)
"""

from __future__ import annotations

import numpy as np

from reference.world.grid import Cell, Cost, add_costs, cost_value

from reference.solutions.dynamic.lrta import EpisodePlanner, LearnedHeuristic, Neighbours, Run
from reference.solutions.best_first import best_first_search


def lookahead_episode(neighbours: Neighbours, h: LearnedHeuristic, state: Cell, goal: Cell,
                      lookahead: int) -> tuple[list[Cell], list[Cell]]:
    """Steps 1-2: the path (``state`` first; ``[state]`` if the goal is out of reach) to the chosen
    OPEN state, and the states A* expanded, in order.

    Step 1 is the kit's one best-first search with the learned h, stopped after ``lookahead``
    expansions or with the goal next (A*'s stop: with h above 0 off the goal, the goal is then OPEN's
    top, since its ties go to the larger g); ``next_state`` is the OPEN state to walk to.
    """
    tree = best_first_search(state, neighbours.__getitem__, lambda cell: h(cell, goal), goal=goal,
                             max_expansions=lookahead)
    if tree.next_state is None:
        return [state], tree.expanded               # the goal is out of reach
    update_closed(neighbours, h, set(tree.expanded), goal)
    return tree.path_to(tree.next_state), tree.expanded


def update_closed(neighbours: Neighbours, h: LearnedHeuristic, closed: set[Cell], goal: Cell) -> None:
    """Step 2: a Dijkstra search from the OPEN states (the CLOSED states' neighbours outside CLOSED)
    sets each CLOSED state's h to its cheapest ``c + h`` through them (h only rises: with a
    consistent h that is Koenig's assignment).

    A Dijkstra from many sources is the kit's one best-first search from one extra root: the root's
    successors are the CLOSED states next to OPEN, each at its cheapest ``c + h`` through its OPEN
    neighbours; a CLOSED state's successors are its CLOSED neighbours (moves are symmetric, so a
    neighbour is a predecessor). g of a CLOSED state is then its new h.
    """
    root = (-1, -1)   # not a cell of the map
    border: dict[Cell, Cost] = {}
    for cell in closed:
        for child, step in neighbours[cell]:
            if child not in closed:
                value = add_costs(step, h(child, goal))
                if cell not in border or cost_value(value) < cost_value(border[cell]):
                    border[cell] = value

    def successors(state: Cell) -> list[tuple[Cell, Cost]]:
        if state == root:
            return list(border.items())
        return [(other, step) for other, step in neighbours[state] if other in closed]

    tree = best_first_search(root, successors)
    for cell in closed:
        if cell in tree.g:
            h.raise_to(cell, goal, tree.g[cell])


class KoenigLRTA(EpisodePlanner):
    """Koenig's LRTA* as a planner of the kit's agent core: each episode is :func:`lookahead_episode`
    with this run's learned h, and the agent walks the path whole."""

    def __init__(self, lookahead: int, *, max_actions: int = 100_000) -> None:
        if lookahead < 1:
            raise ValueError(f"the lookahead must be at least 1, not {lookahead}")
        super().__init__(max_actions=max_actions)
        self.depth = self.lookahead = lookahead
        self.h = LearnedHeuristic()

    def plan(self, agent: Cell) -> tuple[list[Cell], list[Cell], int]:
        path, expanded = lookahead_episode(self.neighbours, self.h, agent, self.goal, self.lookahead)
        return expanded, path, len(expanded)


def koenig_lrta(blocked: np.ndarray | Neighbours, start: Cell, goal: Cell, lookahead: int, *,
                max_actions: int = 100_000) -> Run:
    """Koenig's LRTA* with ``lookahead`` A* expansions per episode; stops unreached after ``max_actions``.

    Parameters
    ----------
    blocked : numpy.ndarray or Neighbours
        The map's boolean blocked array (eight-connected, no corner cutting), or its successor
        table built once for many runs.
    start, goal : Cell
        Free ``(row, col)`` cells of the map.
    lookahead : int
        A* expansions per planning episode (at least 1).
    max_actions : int
        The run ends unreached after this many actions.

    Returns
    -------
    Run
        As :func:`~reference.solutions.dynamic.lrta.general_lrta`'s; an episode's expansions are
        booked on its first action, 0 on the others it walks.

    Raises
    ------
    ValueError
        A lookahead below 1; a start or goal that is blocked or outside the map.

    See Also
    --------
    reference.solutions.realtime.lrta_star_lookahead : the same algorithm for the fog-of-war agent
        (four-connected), with a compiled twin.
    reference.solutions.dynamic.prioritized_lrta.prioritized_lrta, reference.solutions.dynamic.pr_lrts.pr_lrts :
        the other Figure 8 baselines (readable only: fast enough for the study).

    Examples
    --------
    >>> blocked = np.zeros((3, 5), dtype=bool); blocked[0:2, 2] = True
    >>> run = koenig_lrta(blocked, (0, 0), (0, 4), 4)
    >>> run.reached, run.cost, run.expansions
    (True, (4, 2), [4, 0, 4, 0, 0, 0])
    """
    return KoenigLRTA(lookahead, max_actions=max_actions).run(blocked, start, goal)
