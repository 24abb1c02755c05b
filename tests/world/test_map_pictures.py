"""Game-map pictures (``reference.world.map_pictures``): the window, and an episode of one expansion."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import pytest

from reference.world.grid import Gridworld
from reference.world.map_pictures import draw_game_map


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def test_a_window_shows_exactly_its_cells_clipped_to_the_map():
    grid = Gridworld(40, 50)
    ax = draw_game_map(grid, path=[(10, 20), (11, 21)], window=((5, 45), (12, 60)))
    # rows 5..12, columns 45..49 (the map ends at column 49): cell centres at whole numbers
    assert ax.get_xlim() == (44.5, 49.5) and ax.get_ylim() == (12.5, 4.5)
    with pytest.raises(ValueError, match="holds no cell of the 40 x 50 grid"):
        draw_game_map(grid, window=((41, 0), (45, 3)))


def test_one_expansion_gets_a_legend_entry_and_no_colour_bar():
    grid = Gridworld(6, 6)
    one = draw_game_map(grid, path=[(2, 2), (2, 3)], expanded=[(2, 2)])
    assert "expanded" in [t.get_text() for t in one.get_legend().get_texts()]
    assert len(one.figure.axes) == 1                          # no colour bar beside the map
    many = draw_game_map(grid, path=[(2, 2), (2, 3)], expanded=[(2, 2), (2, 3)])
    assert "expanded" not in [t.get_text() for t in many.get_legend().get_texts()]
    assert len(many.figure.axes) == 2                         # the map and the expansion order's colour bar
