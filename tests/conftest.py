"""Shared fixtures: the handout's example grids, the standard mazes, and the shared data folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from reference.world.instances import Instance, handout_examples, load_folder, standard_mazes_dir

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"

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


@pytest.fixture(scope="session")
def standard_instances() -> list[Instance]:
    return load_folder(standard_mazes_dir())


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    """The project's shared/ folder (papers, MovingAI maps); tests that need it skip without it."""
    if not SHARED.is_dir():
        pytest.skip("../shared is not present")
    return SHARED
