"""The maze generator (SPEC §3): the committed mazes/ are reproduced byte for byte, and every maze
has the construction's properties."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference.world.generator import generate_maze, standard_maze
from reference.world.grid import DIRECTIONS, shortest_distance
from reference.world.instances import standard_mazes_dir


def test_ftr_mazes_generate_reproduces_the_committed_mazes(tmp_path) -> None:
    result = subprocess.run([sys.executable, "-m", "reference.cli", "mazes", "generate", str(tmp_path)],
                            capture_output=True, text=True, check=True)
    assert "wrote 50 mazes" in result.stdout
    committed = standard_mazes_dir()
    names = sorted(p.name for p in committed.iterdir() if p.is_file())  # handout/: the handout's examples
    assert names == [f"maze_{i:02d}.map" for i in range(50)] + ["mazes.scen"]
    for name in names:
        assert (tmp_path / name).read_bytes() == (committed / name).read_bytes(), name


def corridor_nodes(height: int, width: int) -> list[tuple[int, int]]:
    return [(r, c) for r in range(0, height, 2) for c in range(0, width, 2)]


@pytest.mark.parametrize("number", [0, 17, 49])
def test_standard_maze_properties(number: int) -> None:
    maze = standard_maze(number)
    grid = maze.grid
    assert (grid.height, grid.width) == (101, 101)
    assert grid.blocked_count == 4900  # 5,000 walls of the perfect maze minus 100 openings
    nodes = corridor_nodes(101, 101)
    assert not any(grid.is_blocked(n) for n in nodes)
    assert maze.start in nodes and maze.target in nodes and maze.start != maze.target
    assert shortest_distance(grid, maze.start, maze.target) is not None


def unblocked_adjacent_pairs(blocked: np.ndarray) -> int:
    free = ~blocked
    return int((free[:, 1:] & free[:, :-1]).sum() + (free[1:, :] & free[:-1, :]).sum())


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), height=st.integers(3, 25), width=st.integers(3, 25))
def test_without_openings_the_maze_is_perfect(seed: int, height: int, width: int) -> None:
    """A perfect maze is a tree: connected, with exactly one fewer adjacency than unblocked cells,
    and its unblocked cells are the corridor nodes plus one wall between each tree edge."""
    maze = generate_maze(seed, height, width, extra_openings=0)
    free_cells = int((~maze.grid.blocked).sum())
    nodes = corridor_nodes(height, width)
    assert free_cells == 2 * len(nodes) - 1
    assert unblocked_adjacent_pairs(maze.grid.blocked) == free_cells - 1
    reachable = {n for n in nodes if shortest_distance(maze.grid, (0, 0), n) is not None}
    assert reachable == set(nodes)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6), openings=st.integers(0, 30))
def test_openings_unblock_exactly_that_many_cells(seed: int, openings: int) -> None:
    perfect = generate_maze(seed, 15, 15, extra_openings=0).grid
    opened = generate_maze(seed, 15, 15, extra_openings=openings).grid
    assert perfect.blocked_count - opened.blocked_count == openings
    assert not (opened.blocked & ~perfect.blocked).any()  # the DFS part is the same for the same seed


def test_each_maze_depends_only_on_its_own_seed() -> None:
    assert generate_maze([2005, 3]).grid == standard_maze(3).grid
    assert standard_maze(3).grid != standard_maze(4).grid
    assert standard_maze(3, base_seed=7).grid != standard_maze(3).grid


def test_directions_are_east_south_west_north() -> None:
    assert DIRECTIONS == ((0, 1), (1, 0), (0, -1), (-1, 0))
