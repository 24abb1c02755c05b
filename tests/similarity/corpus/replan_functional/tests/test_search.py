import pytest

from search import compute_path, manhattan, repeated_astar


def test_manhattan():
    assert manhattan((0, 0), (3, 4)) == 7


@pytest.mark.parametrize("backward", [False, True])
def test_reaches_the_target_around_a_wall(backward):
    blocked = {(0, 1), (1, 1)}
    trajectory, searches, reached = repeated_astar(blocked, 3, 3, (0, 0), (0, 2), backward)
    assert reached and trajectory[-1] == (0, 2) and len(searches) >= 1


def test_first_search_on_an_empty_grid_expands_the_straight_line():
    g, tree, seen = {}, {}, {}
    expanded = compute_path((0, 0), (0, 3), set(), 1, 4, g, tree, seen, 1)
    assert expanded == [(0, 0), (0, 1), (0, 2)]
