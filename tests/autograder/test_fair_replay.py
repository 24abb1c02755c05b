"""The style set's referee (tests/helpers/fair_replay.py) on tiny grids worked by hand.

Each case writes the search out in a comment: h is the Manhattan distance to the goal, keys are
(f, -g) for larger_g, and the successors go east, south, west, north.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from reference.solutions import solve
from reference.world import Gridworld
from reference.world.instances import Instance
from tests.helpers import fair_replay
from tests.helpers.fair_replay import Run, SearchRun, normalise, replay_run


def one_search_run(instance: Instance, expanded, path, trajectory=None, reached=True) -> Run:
    search = SearchRun(instance.start, instance.target, tuple(expanded), tuple(path))
    return Run(reached, tuple(trajectory if trajectory is not None else path), (search,))


# 2 x 2, no walls, agent (0, 0), target (1, 1). h: (0,0)=2, (0,1)=1, (1,0)=1, (1,1)=0.
#   expand (0,0) g=0 f=2: E (0,1) g=1 f=2, S (1,0) g=1 f=2   -> OPEN {(0,1): (2,-1), (1,0): (2,-1)}, a remaining tie
#   SPEC (first inserted): expand (0,1): S (1,1) g=2 f=2     -> g(goal) = 2 <= min f = 2: stop
#   other tie order:       expand (1,0): E (1,1) g=2 f=2     -> stop as well
SQUARE = Instance("square", Gridworld.from_strings(["..", ".."]), (0, 0), (1, 1))


def test_the_spec_order_and_the_other_tie_order_are_both_legal():
    spec = one_search_run(SQUARE, [(0, 0), (0, 1)], [(0, 0), (0, 1), (1, 1)])
    other = one_search_run(SQUARE, [(0, 0), (1, 0)], [(0, 0), (1, 0), (1, 1)])
    assert spec == normalise(solve(SQUARE, "forward", "larger_g"))  # the hand-worked run is the reference's
    assert replay_run(spec, SQUARE, "forward", "larger_g").tier == "ties"
    assert replay_run(other, SQUARE, "forward", "larger_g").tier == "ties"


@pytest.mark.parametrize("expanded, path, why", [
    # after (0,0), (0,1): g(goal) = 2 <= min f = 2, so a third expansion goes past the stop
    ([(0, 0), (0, 1), (1, 0)], [(0, 0), (0, 1), (1, 1)], "went on"),
    # the goal counted as an expansion: the same stop rule catches it
    ([(0, 0), (0, 1), (1, 1)], [(0, 0), (0, 1), (1, 1)], "went on"),
    # the start twice ("CLOSED begins with the start"): (0,0) is closed after its first expansion
    ([(0, 0), (0, 0), (0, 1)], [(0, 0), (0, 1), (1, 1)], "expanded again"),
    # stopped after one expansion: g(goal) = inf > min f = 2
    ([(0, 0)], [(0, 0), (0, 1), (1, 1)], "stopped"),
    # expanded (0,1) but the path goes through (1,0): not the tree pointers' path ((1,1) points to (0,1))
    ([(0, 0), (0, 1)], [(0, 0), (1, 0), (1, 1)], "tree pointers"),
    # the path reversed: target first
    ([(0, 0), (0, 1)], [(1, 1), (0, 1), (0, 0)], "reversed"),
])
def test_a_broken_rule_is_wrong_and_says_which(expanded, path, why):
    run = one_search_run(SQUARE, expanded, path, trajectory=[(0, 0), (0, 1), (1, 1)])
    verdict = replay_run(run, SQUARE, "forward", "larger_g")
    assert verdict.tier == "wrong" and why in verdict.reason, verdict


# 1 x 4, agent (0,1), target (0,3). h: (0,0)=3, (0,1)=2, (0,2)=1, (0,3)=0.
#   expand (0,1) g=0 f=2: E (0,2) g=1 f=2, W (0,0) g=1 f=4
#   expand (0,2) g=1 f=2: E (0,3) g=2 f=2                     -> stop; (0,0) with f=4 is never the least
CORRIDOR = Instance("corridor", Gridworld.from_strings(["...."]), (0, 1), (0, 3))


def test_a_cell_whose_f_is_not_the_least_is_wrong():
    good = one_search_run(CORRIDOR, [(0, 1), (0, 2)], [(0, 1), (0, 2), (0, 3)])
    bad = one_search_run(CORRIDOR, [(0, 1), (0, 0), (0, 2)], [(0, 1), (0, 2), (0, 3)])
    assert replay_run(good, CORRIDOR, "forward", "larger_g").tier == "ties"
    verdict = replay_run(bad, CORRIDOR, "forward", "larger_g")
    assert verdict.tier == "wrong" and "not the least" in verdict.reason


def test_the_walk_must_be_the_path_until_the_target():
    # The same search, but the agent stops after one move: the trajectory does not follow SPEC §6.
    short = one_search_run(CORRIDOR, [(0, 1), (0, 2)], [(0, 1), (0, 2), (0, 3)], trajectory=[(0, 1), (0, 2)])
    assert replay_run(short, CORRIDOR, "forward", "larger_g").tier == "wrong"


# 1 x 3 ".@.", agent (0,0), target (0,2): the start's sensing shows (0,1) blocked.
#   expand (0,0): E (0,1) known blocked, no other neighbour in the grid -> OPEN empty: no path, unreached.
WALLED = Instance("walled", Gridworld.from_strings([".@."]), (0, 0), (0, 2))


def test_no_path_ends_the_run_unreached():
    right = one_search_run(WALLED, [(0, 0)], [], trajectory=[(0, 0)], reached=False)
    assert right == normalise(solve(WALLED, "forward", "larger_g"))
    assert replay_run(right, WALLED, "forward", "larger_g").tier == "ties"
    claims_reached = one_search_run(WALLED, [(0, 0)], [], trajectory=[(0, 0)], reached=True)
    assert replay_run(claims_reached, WALLED, "forward", "larger_g").tier == "wrong"


def test_a_dropped_last_search_is_wrong():
    # The square's one search, walked to the target, but the record of that search is missing.
    dropped = Run(True, ((0, 0), (0, 1), (1, 1)), ())
    assert replay_run(dropped, SQUARE, "forward", "larger_g").tier == "wrong"


def test_backward_searches_from_the_target_and_walks_the_pointers_as_they_are():
    # Backward on the corridor: start (0,3) = target, goal (0,1) = agent; h to (0,1): (0,3)=2, (0,2)=1.
    #   expand (0,3) g=0 f=2: S/N/E none, W (0,2) g=1 f=2;  expand (0,2): W (0,1) g=2 f=2 -> stop
    #   pointers from the agent: (0,1) -> (0,2) -> (0,3), already in walking order
    search = SearchRun((0, 3), (0, 1), ((0, 3), (0, 2)), ((0, 1), (0, 2), (0, 3)))
    run = Run(True, ((0, 1), (0, 2), (0, 3)), (search,))
    assert run == normalise(solve(CORRIDOR, "backward", "larger_g"))
    assert replay_run(run, CORRIDOR, "backward", "larger_g").tier == "ties"
    forward_style = Run(True, run.trajectory, (SearchRun((0, 1), (0, 3), search.expanded, search.path),))
    assert replay_run(forward_style, CORRIDOR, "backward", "larger_g").tier == "wrong"


@pytest.mark.parametrize("algorithm, tie_break", [("forward", "larger_g"), ("forward", "smaller_g"),
                                                  ("backward", "larger_g"), ("adaptive", "larger_g")])
def test_every_reference_run_of_the_handout_examples_is_legal(algorithm, tie_break):
    """A property: the SPEC's own order is one legal order (learned h-values included)."""
    from reference.world.instances import handout_examples

    for instance in handout_examples():
        run = normalise(solve(instance, algorithm, tie_break))
        assert replay_run(run, instance, algorithm, tie_break).tier == "ties", instance.name


def test_an_adaptive_run_is_replayed_with_its_learned_h_values():
    """The reference's Adaptive A* on example 1 uses h-values learned by its first search in its
    second: replayed as Adaptive A* it is legal, replayed with the Manhattan h alone (as forward A*)
    its keys are not, so the replay does learn h = g(goal) - g(s) after each search."""
    from reference.world.instances import handout_examples

    example = handout_examples()[0]
    run = normalise(solve(example, "adaptive", "larger_g"))
    assert len(run.searches) >= 2
    assert replay_run(run, example, "adaptive", "larger_g").tier == "ties"
    assert replay_run(run, example, "forward", "larger_g").tier == "wrong"


def test_points_per_group_follow_the_rubric():
    weights = {"examples": 1, "handmade": 1, "standard": 2, "hidden": 4}
    every = list(weights)
    # 14 points over weight 8: 1.75 per weight; public groups 1.75 + 1.75 + 3.5 = 7
    public = {"examples": ["exact"], "handmade": ["exact", "ties"], "standard": ["ties"]}
    assert fair_replay.check_points(public, 14, weights, 0.75, every) == round(1.75 + 0.75 * (1.75 + 3.5), 2)
    assert fair_replay.check_points({"hidden": ["exact", "wrong"]}, 14, weights, 0.75, every) == 0.0


def test_the_referees_docstring_examples_hold():
    import doctest

    result = doctest.testmod(fair_replay)
    assert result.attempted and not result.failed


def test_the_referee_imports_nothing_of_the_grader():
    """Its independence is the point: importing it in a fresh interpreter loads no module of
    ``autograder`` (directly or through the world it runs submissions in)."""
    probe = ("import sys, tests.helpers.fair_replay; "
             "print(sorted(m for m in sys.modules if m.split('.')[0] == 'autograder'))")
    result = subprocess.run([sys.executable, "-c", probe], cwd=Path(__file__).resolve().parents[2],
                            capture_output=True, text=True, check=False, timeout=300)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"
