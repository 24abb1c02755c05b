"""The handout's example grids (SPEC §10), read from mazes/handout/ (the one copy), and its cell names."""

from __future__ import annotations

from reference.world.instances import handout_examples

# SPEC §10, rows A-E top to bottom, columns 1-5 left to right, read from mazes/handout/ (the one copy).
EXAMPLE_1 = handout_examples()[0].grid  # the handout's Figure 2
EXAMPLE_2 = handout_examples()[1].grid  # the same walls; the agent starts in E2 instead of E3
EXAMPLE_3 = handout_examples()[2].grid  # no walls
FIGURE_2 = EXAMPLE_1.to_strings()       # its rows, for tests that take a grid as strings


def handout_cell(name: str) -> tuple[int, int]:
    """``"E3"`` -> ``(4, 2)``: the handout's lettered rows and numbered columns."""
    return ("ABCDE".index(name[0]), int(name[1:]) - 1)


def handout_cells(names: str) -> list[tuple[int, int]]:
    """``"E3 E2 E1"`` -> ``[(4, 2), (4, 1), (4, 0)]``."""
    return [handout_cell(n) for n in names.split()]
