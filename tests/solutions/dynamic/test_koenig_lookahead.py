"""Koenig's lookahead search (step 1 of :func:`reference.solutions.dynamic.koenig_lrta.lookahead_episode`)
follows its own rule on exact costs: smallest f, ties to the larger g, then to the first pushed.

The referee is written apart from the kit: OPEN is a plain list searched for its minimum, and costs
``s + d * sqrt(2)`` are compared exactly with integers (no doubles), so equal f values are equal and
only the tie rule decides.
"""

from __future__ import annotations

import functools
import random

import numpy as np
import pytest

from reference.solutions.dynamic.koenig_lrta import lookahead_episode
from reference.solutions.dynamic.lrta import LearnedHeuristic, Neighbours


def exact_sign(straight: int, diagonal: int) -> int:
    """The sign of ``straight + diagonal * sqrt(2)``, in integers: compare straight**2 with 2 * diagonal**2."""
    if straight >= 0 and diagonal >= 0:
        return 0 if straight == diagonal == 0 else 1
    if straight <= 0 and diagonal <= 0:
        return -1
    if straight > 0:   # diagonal < 0: positive when straight > -diagonal * sqrt(2)
        return 1 if straight * straight > 2 * diagonal * diagonal else -1
    return 1 if 2 * diagonal * diagonal > straight * straight else -1


def referee_step_one(neighbours, h, start, goal, lookahead):
    """Step 1 written from the module docstring: (path to the OPEN state to walk to, expanded states)."""
    g = {start: (0, 0)}
    parent = {}
    stamp = {start: 0}
    open_states = [start]
    closed = []
    pushes = 0

    def compare(a, b):   # key (f, -g, stamp), exactly
        fa = (g[a][0] + h(a, goal)[0], g[a][1] + h(a, goal)[1])
        fb = (g[b][0] + h(b, goal)[0], g[b][1] + h(b, goal)[1])
        by_f = exact_sign(fa[0] - fb[0], fa[1] - fb[1])
        if by_f:
            return by_f
        by_g = exact_sign(g[b][0] - g[a][0], g[b][1] - g[a][1])   # the larger g first
        return by_g or (stamp[a] - stamp[b])

    while open_states:
        top = min(open_states, key=functools.cmp_to_key(compare))
        if top == goal or len(closed) == lookahead:
            break
        open_states.remove(top)
        closed.append(top)
        for child, step in neighbours[top]:
            if child in closed:
                continue
            new_g = (g[top][0] + step[0], g[top][1] + step[1])
            if child not in g or exact_sign(new_g[0] - g[child][0], new_g[1] - g[child][1]) < 0:
                g[child], parent[child] = new_g, top
                pushes += 1
                stamp[child] = pushes
                if child not in open_states:
                    open_states.append(child)
    if not open_states:
        return [start], closed
    path = [top]
    while path[-1] != start:
        path.append(parent[path[-1]])
    return path[::-1], closed


def test_a_tie_on_exact_f_goes_to_the_larger_g():
    # A 3 x 4 open grid, start (0, 0), goal (2, 3), lookahead 2; h is the octile distance to (2, 3).
    # Expansion 1, (0, 0): its successors (0, 1) (g 1, h 2*sqrt2) and (1, 1) (g sqrt2, h 1+sqrt2)
    #   both have f = 1 + 2*sqrt2; the larger g, (1, 1), is expanded second.
    # Expansion 2, (1, 1): (1, 2) gets g 1+sqrt2, h sqrt2, and (2, 2) gets g 2*sqrt2, h 1:
    #   again f = 1 + 2*sqrt2 for both, and for (0, 1). The lookahead is spent: OPEN's top is the
    #   larger g, (2, 2), so the agent walks (0, 0), (1, 1), (2, 2).
    # Adding two doubles instead gives (1, 2) f = 3.82842712474619 and (2, 2) f = 3.8284271247461903:
    #   the rounding, not the rule, would pick (1, 2) (what this module did before).
    neighbours = Neighbours(np.zeros((3, 4), dtype=bool))
    path, expanded = lookahead_episode(neighbours, LearnedHeuristic(), (0, 0), (2, 3), 2)
    assert expanded == [(0, 0), (1, 1)]
    assert path == [(0, 0), (1, 1), (2, 2)]


@pytest.mark.parametrize("seed", range(6))
def test_every_episode_of_a_run_is_the_exact_referees(seed):
    rng = random.Random(seed)
    height, width = rng.randint(4, 14), rng.randint(4, 14)
    blocked = np.array([[rng.random() < 0.25 for _ in range(width)] for _ in range(height)])
    neighbours = Neighbours(blocked)
    free = sorted(neighbours.table)
    if len(free) < 2:
        pytest.skip("no room on this map")
    start, goal = rng.sample(free, 2)
    h = LearnedHeuristic()
    for lookahead in (1, 2, 3, 5, 8):
        state, episodes = start, 0
        while state != goal and episodes < 200:   # the learned h carries over from episode to episode
            expected = referee_step_one(neighbours, h, state, goal, lookahead)   # reads h before it is raised
            path, expanded = lookahead_episode(neighbours, h, state, goal, lookahead)
            assert (path, expanded) == expected, (state, lookahead)
            if path == [state]:
                break   # the goal is out of reach
            state, episodes = path[-1], episodes + 1
