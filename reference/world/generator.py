"""The standard mazes (SPEC §3): depth-first corridors, 100 extra openings, random start and target.

Every maze comes from its own NumPy ``default_rng`` seeded with ``[base_seed, maze_number]``, so
maze 7 is the same whether you make 8 mazes or 50. ``ftr mazes generate OUTDIR`` with the defaults
reproduces the committed ``mazes/`` folder byte for byte.

>>> maze = generate_maze(seed=[2005, 0], height=11, width=11, extra_openings=0)
>>> maze.grid.blocked_count          # a perfect 11 x 11 maze: 36 nodes, 35 carved walls
50
>>> maze.start != maze.target
True
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import numpy as np

from .grid import Cell, Gridworld, shortest_distance
from .maps import Scenario, write_map, write_scen

#: The base seed of the standard set; maze ``i`` uses ``default_rng([STANDARD_BASE_SEED, i])``.
STANDARD_BASE_SEED = 2005
STANDARD_COUNT = 50
STANDARD_SIZE = 101
STANDARD_EXTRA_OPENINGS = 100

# Jumps of two cells to the next corridor node, in the SPEC's east, south, west, north order.
_NODE_STEPS = ((0, 2), (2, 0), (0, -2), (-2, 0))


@dataclass(frozen=True)
class Maze:
    """A generated maze: its grid, with the agent's start and the target on two corridor cells."""
    grid: Gridworld
    start: Cell
    target: Cell


def generate_maze(
    seed: int | Sequence[int],
    height: int = STANDARD_SIZE,
    width: int | None = None,
    extra_openings: int = STANDARD_EXTRA_OPENINGS,
) -> Maze:
    """Make one maze exactly as SPEC §3 says.

    1. Every cell blocked; corridor nodes are the cells whose row and column are both even.
    2. Depth-first search from node (0, 0) with random tie breaking carves a perfect maze.
    3. ``extra_openings`` distinct blocked cells are unblocked, chosen uniformly at random.
    4. Start and target are two distinct corridor nodes chosen uniformly at random.

    Parameters
    ----------
    seed : int or sequence of int
        The seed of the maze's own ``numpy.random.default_rng`` (the standard set: ``[2005, number]``).
    height : int
        Rows (101 for the standard set).
    width : int, optional
        Columns; by default ``height`` (a square maze).
    extra_openings : int
        Blocked cells opened after the carving (at most as many as are left blocked).

    Returns
    -------
    Maze
        The grid, the start and the target (two distinct corridor nodes).

    Raises
    ------
    ValueError
        A size below 1 x 1, or one with fewer than two corridor nodes.

    See Also
    --------
    standard_maze : maze ``number`` of the standard set.
    generate_maze_set : a set of mazes written as ``.map`` files and a ``.scen``.

    Examples
    --------
    >>> maze = generate_maze(seed=7, height=5, extra_openings=0)
    >>> maze.grid.height, maze.grid.width, maze.grid.is_blocked(maze.start)
    (5, 5, False)
    """
    width = height if width is None else width
    if height < 1 or width < 1:
        raise ValueError(f"a maze needs a positive size, got {height} x {width}")
    rng = np.random.default_rng(seed)
    blocked = np.ones((height, width), dtype=bool)
    node_rows, node_cols = (height + 1) // 2, (width + 1) // 2
    if node_rows * node_cols < 2:
        raise ValueError(f"a {height} x {width} maze has fewer than two corridor nodes")

    # Step 2: the depth-first search, with an explicit stack.
    visited = np.zeros((height, width), dtype=bool)
    blocked[0, 0] = False
    visited[0, 0] = True
    stack = [(0, 0)]
    while stack:
        row, col = stack[-1]
        options = [
            (row + d_row, col + d_col)
            for d_row, d_col in _NODE_STEPS
            if 0 <= row + d_row < height and 0 <= col + d_col < width and not visited[row + d_row, col + d_col]
        ]
        if not options:
            stack.pop()
            continue
        next_row, next_col = options[rng.integers(len(options))]
        visited[next_row, next_col] = True
        blocked[next_row, next_col] = False
        blocked[(row + next_row) // 2, (col + next_col) // 2] = False  # the wall in between
        stack.append((next_row, next_col))

    # Step 3: extra openings (walls and pillars alike).
    still_blocked = np.flatnonzero(blocked)
    openings = min(extra_openings, still_blocked.size)
    if openings:
        blocked.flat[rng.choice(still_blocked, size=openings, replace=False)] = False

    # Step 4: start and target, two distinct corridor nodes.
    first, second = rng.choice(node_rows * node_cols, size=2, replace=False)
    start = (2 * int(first // node_cols), 2 * int(first % node_cols))
    target = (2 * int(second // node_cols), 2 * int(second % node_cols))
    return Maze(Gridworld(height, width, blocked), start, target)


def standard_maze(number: int, base_seed: int = STANDARD_BASE_SEED, size: int = STANDARD_SIZE) -> Maze:
    """Maze ``number`` of the standard set (or of another set with a different base seed).

    Parameters
    ----------
    number : int
        The maze's number; it is the same maze whatever the size of the set.
    base_seed : int
        The set's seed (maze ``number`` uses ``default_rng([base_seed, number])``).
    size : int
        Rows and columns.

    Returns
    -------
    Maze

    See Also
    --------
    generate_maze : the SPEC §3 steps.

    Examples
    --------
    >>> maze = standard_maze(3, size=21)
    >>> maze.grid.height, maze.start != maze.target
    (21, True)
    """
    return generate_maze([base_seed, number], height=size, width=size)


def maze_file_name(number: int) -> str:
    """The file name of maze ``number`` in a maze set.

    >>> maze_file_name(7)
    'maze_07.map'
    """
    return f"maze_{number:02d}.map"


def generate_maze_set(
    outdir: str | os.PathLike,
    count: int = STANDARD_COUNT,
    size: int = STANDARD_SIZE,
    base_seed: int = STANDARD_BASE_SEED,
) -> list[Path]:
    """Write ``maze_00.map`` … and ``mazes.scen`` (line ``i`` is maze ``i``) into ``outdir``.

    The scenario's optimal length is the true shortest distance (-1 where the target cannot be
    reached). Each file is written atomically.

    Parameters
    ----------
    outdir : str or os.PathLike
        The folder; made if missing.
    count : int
        How many mazes (numbers 0 to ``count - 1``).
    size : int
        Rows and columns of each maze.
    base_seed : int
        The set's seed (see :func:`standard_maze`).

    Returns
    -------
    list of pathlib.Path
        The maps, in order, then ``mazes.scen``.

    Raises
    ------
    OSError
        ``outdir`` cannot be made or written.

    See Also
    --------
    reference.world.maps.read_scen, reference.world.maps.read_map : reading the set back.

    Examples
    --------
    >>> import tempfile
    >>> [path.name for path in generate_maze_set(tempfile.mkdtemp(), count=2, size=7)]
    ['maze_00.map', 'maze_01.map', 'mazes.scen']
    """
    outdir = Path(outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    written, scenarios = [], []
    for number in range(count):
        maze = standard_maze(number, base_seed=base_seed, size=size)
        path = outdir / maze_file_name(number)
        write_map(maze.grid, path)
        written.append(path)
        distance = shortest_distance(maze.grid, maze.start, maze.target)
        scenarios.append(Scenario(
            bucket=0, map=path.name, width=size, height=size, start=maze.start, target=maze.target,
            optimal_length=-1 if distance is None else float(distance),
        ))
    scen_path = outdir / "mazes.scen"
    write_scen(scenarios, scen_path)
    written.append(scen_path)
    return written
