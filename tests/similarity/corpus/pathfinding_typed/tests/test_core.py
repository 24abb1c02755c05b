from pathfinding.core import Entry, PartialMap, a_star, navigate


def test_entries_order_by_f_then_larger_g():
    assert Entry(5, -3, 1, (0, 0)) < Entry(5, -1, 0, (0, 1))


def test_a_star_on_an_open_map_finds_a_shortest_path():
    result = a_star(PartialMap(4, 4), (0, 0), (3, 3))
    assert result.path is not None and len(result.path) == 7


def test_navigate_reports_an_unreachable_goal():
    episode = navigate({(0, 1), (1, 0)}, 2, 2, (0, 0), (1, 1))
    assert not episode.reached
