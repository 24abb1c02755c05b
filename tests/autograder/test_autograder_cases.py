"""Test cases as data: the handout's examples and the hand-made cases are files the grader loads, and
the independent referee (bench/baseline.py) is one module the tests and the benchmarks share."""

from __future__ import annotations

import doctest

from autograder.instances import example_instances, handmade_instances
from reference.world.grid import shortest_distance
from reference.world.instances import handmade_dir, handout_examples


def test_the_hand_made_cases_are_the_files_of_mazes_handmade_and_test_what_their_readme_says():
    cases = {instance.name: instance for instance in handmade_instances()}
    assert list(cases) == ["start_is_target", "target_walled_in", "corridor_1x9", "blocked_at_last_step"]
    assert (handmade_dir() / "README.md").is_file()
    for name in cases:
        assert f"`{name}`" in (handmade_dir() / "README.md").read_text(encoding="utf-8")
    # Shortest distances by hand: none to walk; walled in: none; 8 along the corridor; around the wall
    # at (0, 3): (0,0) (0,1) (0,2) (1,2) (1,3) (1,4) (0,4), 6 moves.
    assert [case.optimal_length for case in cases.values()] == [0.0, -1, 8.0, 6.0]
    for case in cases.values():
        distance = shortest_distance(case.grid, case.start, case.target)
        assert (distance if distance is not None else -1) == case.optimal_length
    walled = cases["target_walled_in"]
    row, col = walled.target
    neighbours = [(row + dr, col + dc) for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))]
    assert [walled.grid.is_blocked(c) for c in neighbours if walled.grid.in_bounds(c)] == [True, True, True]
    last = cases["blocked_at_last_step"]
    assert last.start[0] == last.target[0] == 0 and last.grid.is_blocked((0, last.target[1] - 1))
    assert cases["start_is_target"].start == cases["start_is_target"].target
    assert cases["corridor_1x9"].grid.height == 1 and not cases["corridor_1x9"].grid.blocked.any()


def test_the_grader_names_the_handout_examples_as_its_messages_do():
    assert [i.name for i in example_instances()] == ["example_1", "example_2", "example_3"]
    assert [(i.start, i.target) for i in handout_examples()] == [((4, 2), (4, 4)), ((4, 1), (4, 4)), ((0, 0), (4, 4))]


def test_the_referee_reproduces_the_handouts_numbers():
    import bench.baseline

    result = doctest.testmod(bench.baseline)
    assert result.attempted >= 3 and result.failed == 0
