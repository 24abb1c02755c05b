"""Prioritized LRTA* (Rayner, Davison, Bulitko, Anderson & Lu 2007), on the study's known maps.

LRTA* with lookahead one whose heuristic updates spread through a bounded priority queue
(prioritized sweeping). At every action:

1. update the agent's state s: ``h(s) <- max(h(s), min over neighbours n of c(s, n) + h(n))``; if h
   rose by Δ > 0, every neighbour of s enters the queue with priority Δ;
2. take up to ``updates`` states from the queue, largest priority first, and update each the same
   way (its neighbours entering with its own Δ);
3. move to the neighbour with the smallest ``c(s, n) + h(n)`` (ties: successor order).

The queue holds at most ``queue_size`` states: a state already queued keeps its larger priority; a
new one enters a full queue only by evicting a state of lower priority. Every update generates a
state's successors, so the expansions of an action are 1 + the states taken from the queue.
:class:`PrioritizedLRTA` is a planner of the kit's agent core (:class:`~.lrta.EpisodePlanner`):
one episode per action, its path the one move.

>>> import numpy as np
>>> run = prioritized_lrta(np.zeros((1, 4), dtype=bool), (0, 0), (0, 3), updates=2)
>>> run.reached, run.cost, run.expansions     # octile h is exact on an open corridor: nothing rises
(True, (3, 0), [1, 1, 1])
"""

from __future__ import annotations

import numpy as np

from reference.world.grid import Cell, Cost, add_costs, cost_value

from reference.solutions.dynamic.lrta import EpisodePlanner, LearnedHeuristic, Neighbours, Run


class BoundedQueue:
    """At most ``size`` states, each with a priority; ``pop`` takes the largest (ties: the oldest).

    >>> queue = BoundedQueue(2)
    >>> queue.add("a", 1.0); queue.add("b", 3.0); queue.add("c", 2.0)   # full: c evicts a
    >>> queue.pop(), queue.pop(), len(queue)
    ('b', 'c', 0)
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self.priority: dict = {}     # insertion-ordered, so min/max ties go to the oldest entry

    def __len__(self) -> int:
        return len(self.priority)

    def add(self, state, priority: float) -> None:
        if state in self.priority:
            self.priority[state] = max(self.priority[state], priority)
        elif len(self.priority) < self.size:
            self.priority[state] = priority
        elif self.priority:
            lowest = min(self.priority, key=self.priority.__getitem__)
            if self.priority[lowest] < priority:
                del self.priority[lowest]
                self.priority[state] = priority

    def pop(self):
        best = max(self.priority, key=self.priority.__getitem__)
        del self.priority[best]
        return best


def update(neighbours: Neighbours, h: LearnedHeuristic, state: Cell, goal: Cell, queue: BoundedQueue) -> None:
    """Lookahead-one update of ``state``'s h; on a rise Δ its neighbours enter the queue with Δ."""
    if state == goal:
        return
    best: Cost | None = None
    for child, step in neighbours[state]:
        value = add_costs(step, h(child, goal))
        if best is None or cost_value(value) < cost_value(best):
            best = value
    if best is None:
        return
    before = cost_value(h(state, goal))
    if h.raise_to(state, goal, best):
        for child, _ in neighbours[state]:
            if child != goal:
                queue.add(child, cost_value(best) - before)


class PrioritizedLRTA(EpisodePlanner):
    """Prioritized LRTA* as a planner of the kit's agent core: each episode is steps 1-3 of one action."""

    def __init__(self, updates: int, *, queue_size: int = 40, max_actions: int = 100_000) -> None:
        if updates < 0 or queue_size < 1:
            raise ValueError(f"updates must be >= 0 and queue_size >= 1, not {updates} and {queue_size}")
        super().__init__(max_actions=max_actions)
        self.updates = updates
        self.h = LearnedHeuristic()
        self.queue = BoundedQueue(queue_size)

    def plan(self, agent: Cell) -> tuple[list[Cell], list[Cell], int]:
        neighbours, h, goal, queue = self.neighbours, self.h, self.goal, self.queue
        update(neighbours, h, agent, goal, queue)                        # 1
        updated = [agent]
        while len(updated) <= self.updates and queue:                    # 2
            updated.append(queue.pop())
            update(neighbours, h, updated[-1], goal, queue)
        moves = neighbours[agent]
        if not moves:
            return updated, [agent], 0
        step_to, _ = min(moves, key=lambda move: cost_value(add_costs(move[1], h(move[0], goal))))   # 3
        return updated, [agent, step_to], len(updated)


def prioritized_lrta(blocked: np.ndarray | Neighbours, start: Cell, goal: Cell, updates: int, *,
                     queue_size: int = 40, max_actions: int = 100_000) -> Run:
    """Prioritized LRTA* with up to ``updates`` queued updates per action; stops unreached after ``max_actions``.

    Parameters
    ----------
    blocked : numpy.ndarray or Neighbours
        The map's boolean blocked array (eight-connected, no corner cutting), or its successor
        table built once for many runs.
    start, goal : Cell
        Free ``(row, col)`` cells of the map.
    updates : int
        States taken from the queue and updated per action (at least 0).
    queue_size : int
        The queue's capacity (at least 1).
    max_actions : int
        The run ends unreached after this many actions.

    Returns
    -------
    Run
        As :func:`~reference.solutions.dynamic.lrta.general_lrta`'s; each action's expansions are
        1 + the updates it took from the queue.

    Raises
    ------
    ValueError
        ``updates`` below 0 or ``queue_size`` below 1; a start or goal that is blocked or outside the map.

    See Also
    --------
    reference.solutions.dynamic.koenig_lrta.koenig_lrta, reference.solutions.dynamic.pr_lrts.pr_lrts :
        the other Figure 8 baselines (readable only: fast enough for the study).

    Examples
    --------
    >>> blocked = np.zeros((3, 5), dtype=bool); blocked[0:2, 2] = True
    >>> run = prioritized_lrta(blocked, (0, 0), (0, 4), 5)
    >>> run.reached, run.cost, run.actions
    (True, (6, 1), 7)
    """
    return PrioritizedLRTA(updates, queue_size=queue_size, max_actions=max_actions).run(blocked, start, goal)
