"""The compiled twins of general LRTA* and its pattern databases equal the readable code, expansion
for expansion (the readable code in reference/solutions/dynamic/ is the referee)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference.solutions.compiled import dynamic as compiled
from reference.solutions.dynamic.lrta import Neighbours, fixed_depth, general_lrta
from reference.solutions.dynamic.pattern_database import build_pattern_database
from reference.solutions.dynamic.tree import collect_samples, features, oracle


def same_run(readable, twin):
    assert twin.path == readable.path
    assert twin.cost == readable.cost
    assert twin.depths == readable.depths
    assert twin.expansions == readable.expansions
    assert twin.goals == readable.goals   # the goal of every action: the same goal rule
    assert twin.reached == readable.reached


@st.composite
def small_maps(draw):
    height = draw(st.integers(2, 12))
    width = draw(st.integers(2, 12))
    seed = draw(st.integers(0, 2**32 - 1))
    density = draw(st.sampled_from([0.0, 0.15, 0.3, 0.45]))
    rng = np.random.default_rng(seed)
    blocked = rng.random((height, width)) < density
    free = list(zip(*np.nonzero(~blocked)))
    if len(free) < 2:
        blocked[0, 0] = blocked[-1, -1] = False
        free = list(zip(*np.nonzero(~blocked)))
    i, j = rng.choice(len(free), 2, replace=False)
    return blocked, tuple(map(int, free[i])), tuple(map(int, free[j]))


@settings(max_examples=60, deadline=None)
@given(small_maps(), st.integers(1, 9))
def test_fixed_depth_runs_are_the_same_move_for_move(problem, depth):
    blocked, start, goal = problem
    # unreachable goals too: both give up after the same number of actions (or when stuck)
    same_run(general_lrta(blocked, start, goal, fixed_depth(depth), max_actions=400),
             compiled.run_fixed(blocked, start, goal, depth, max_actions=400))


@settings(max_examples=25, deadline=None)
@given(small_maps(), st.integers(1, 2), st.integers(1, 6), st.sampled_from(["g", "gi", "i"]),
       st.sampled_from(["paper", "once"]))
def test_pattern_databases_and_their_runs_are_the_same(problem, level, cap, goals, rule):
    blocked, start, goal = problem
    neighbours = Neighbours(blocked)
    readable = build_pattern_database(neighbours, level, cap)
    twin = compiled.build_pattern_database_compiled(neighbours, level, cap)
    assert (twin.depth == readable.depth).all()
    assert (twin.next_region == readable.next_region).all()
    assert twin.representatives == readable.representatives
    same_run(general_lrta(neighbours, start, goal, readable.controller(goals, rule), max_actions=400),
             compiled.run_database(blocked, start, goal, twin, goals, max_actions=400, rule=rule))


@settings(max_examples=20, deadline=None)
@given(small_maps(), st.integers(2, 6))
def test_the_oracle_and_a_python_controller_over_the_compiled_lookahead(problem, d_max):
    blocked, start, goal = problem
    same_run(general_lrta(blocked, start, goal, oracle(d_max), max_actions=300),
             compiled.general_lrta_compiled(blocked, start, goal, compiled.oracle_compiled(d_max), max_actions=300))

    def by_features(agent):  # a depth from the tree's features, as a decision tree would
        return 1 + int(features(agent, 5)[2]) % 4, agent.goal

    same_run(general_lrta(blocked, start, goal, by_features, max_actions=300),
             compiled.general_lrta_compiled(blocked, start, goal, by_features, max_actions=300))


@settings(max_examples=20, deadline=None)
@given(small_maps())
def test_training_samples_are_the_same(problem):
    blocked, start, goal = problem
    x, labels = collect_samples(Neighbours(blocked), start, goal, [2, 5], max_actions=300)
    x2, labels2 = compiled.collect_samples_compiled(blocked, start, goal, [2, 5], max_actions=300)
    assert np.array_equal(x, x2)
    assert all(np.array_equal(labels[d], labels2[d]) for d in (2, 5))
    # along another controller's trajectory (retraining a tree on its own runs)
    follow = lambda agent: (1 + int(features(agent, 5)[3]) % 5, agent.goal)  # noqa: E731
    x, labels = collect_samples(Neighbours(blocked), start, goal, [5], max_actions=300, follow=follow)
    x2, labels2 = compiled.collect_samples_compiled(blocked, start, goal, [5], max_actions=300, follow=follow)
    assert np.array_equal(x, x2) and np.array_equal(labels[5], labels2[5])


def test_a_real_map_sample(shared_dir):
    from reference.experiments.dynamic import load_map, pick_problems

    blocked = load_map(shared_dir / "movingai", "bgmaps/AR0405SR.map")
    neighbours = Neighbours(blocked)
    problems = pick_problems(blocked, 3, seed=5)
    lookahead = compiled.Lookahead(blocked)
    for problem in problems:
        for depth in (1, 4, 9):
            same_run(general_lrta(neighbours, problem.start, problem.goal, fixed_depth(depth)),
                     compiled.run_fixed(blocked, problem.start, problem.goal, depth, lookahead=lookahead))
    readable = build_pattern_database(neighbours, 6, 12)
    twin = compiled.build_pattern_database_compiled(neighbours, 6, 12)
    assert (twin.depth == readable.depth).all() and (twin.next_region == readable.next_region).all()
    for goals in ("g", "gi", "i"):
        for rule in ("paper", "once"):
            for problem in problems:
                same_run(general_lrta(neighbours, problem.start, problem.goal, readable.controller(goals, rule),
                                      max_actions=2000),
                         compiled.run_database(blocked, problem.start, problem.goal, twin, goals, max_actions=2000,
                                               lookahead=lookahead, rule=rule))


def test_a_blocked_start_is_refused_like_the_readable_code():
    blocked = np.zeros((3, 3), dtype=bool)
    blocked[1, 1] = True
    with pytest.raises(ValueError, match="start"):
        compiled.run_fixed(blocked, (1, 1), (0, 0), 2)
