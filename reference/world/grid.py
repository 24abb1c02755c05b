"""Gridworlds: cells that are blocked or unblocked, four- or eight-connected (SPEC §1 and §12).

A cell is a ``(row, col)`` tuple, row 0 at the top and col 0 at the left; its index is
``row * width + col``. Four-connected (the default, the handout's agent): east, south, west, north,
each of cost one. Eight-connected (game maps): E, SE, S, SW, W, NW, N, NE, clockwise from east,
diagonals of cost √2, no corner cutting. Both come from one table, :data:`MOVES_8`.

**Exact costs.** Every path cost on these grids is ``a + b·√2`` with whole numbers ``a`` (straight
moves) and ``b`` (diagonal moves). The kit keeps a cost as the pair ``(a, b)`` (a :data:`Cost`) and
adds pairs; to order costs it uses :func:`cost_value`, the double ``a + b·√2`` computed once from
the pair. Equal pairs give the identical double, and distinct pairs give doubles in the right order
on any grid below a million cells a side (√2 is badly approximable: ``|a + b·√2| >= 1/(3|b|)`` for
integers ``a``, ``b`` ≠ 0, far above a double's resolution there). So equal costs compare equal and
the tie rules decide: no epsilon anywhere. Adding doubles step by step would not do: ``√2 + √2 + √2``
need not be the double nearest ``3·√2``.

>>> grid = Gridworld.from_strings(["..@", "...", "@.."])
>>> grid.height, grid.width
(3, 3)
>>> grid.is_blocked((0, 2))
True
>>> grid.neighbours((1, 1))
[(1, 2), (2, 1), (1, 0), (0, 1)]
>>> manhattan((0, 0), (2, 1))
3
>>> grid = Gridworld.from_strings(["...", ".@.", "..."])
>>> successors(grid.blocked, (0, 0), connectivity=8)   # SE would cut the corner of (1, 1)
[((0, 1), (1, 0)), ((1, 0), (1, 0))]
>>> octile_cost((0, 0), (2, 5)), round(octile((0, 0), (2, 5)), 4)
((3, 2), 5.8284)
"""

from __future__ import annotations

import math
from collections import deque
from typing import Iterable, Iterator

import numpy as np

Cell = tuple[int, int]

#: A path cost ``a + b·√2`` kept exactly as the pair ``(a, b)``: straight moves, diagonal moves.
Cost = tuple[int, int]

SQRT2 = math.sqrt(2.0)

#: Row and column offsets of the eight moves, clockwise from east: E, SE, S, SW, W, NW, N, NE
#: (SPEC §12). The four-connected moves E, S, W, N are every second entry.
MOVES_8: tuple[Cell, ...] = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))

#: Row and column offsets of the four moves, in the SPEC's successor order (east, south, west, north).
DIRECTIONS: tuple[Cell, ...] = MOVES_8[0::2]

#: The moves of each connectivity, in successor order.
MOVES: dict[int, tuple[Cell, ...]] = {4: DIRECTIONS, 8: MOVES_8}

#: The exact cost of one move: (1, 0) for a straight move, (0, 1) for a diagonal one.
STRAIGHT: Cost = (1, 0)
DIAGONAL: Cost = (0, 1)

UNBLOCKED_CHAR = "."
BLOCKED_CHAR = "@"


def manhattan(a: Cell, b: Cell) -> int:
    """The Manhattan distance ``|r1 - r2| + |c1 - c2|``.

    >>> manhattan((4, 2), (4, 4))
    2
    """
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def as_cell(pair: Iterable[int]) -> Cell:
    """``pair`` as a ``(row, col)`` tuple, whatever it came as (a JSON list, a tuple, a NumPy row).

    >>> as_cell([2, 5])
    (2, 5)
    """
    row, col = pair
    return (row, col)


#: The g-value of a state no search has reached yet: larger than any path length on a grid of fewer
#: than 2**31 cells. The infinity of the readable code (world, planners). An int, so that every
#: comparison stays int-to-int, and it fits the 32-bit arrays of the compiled twins. Three other
#: infinities exist, each on purpose and each held against this one by tests/world/test_grid_infinity.py:
#: ``compiled/replanning.py`` keeps the same value as its own Numba constant; ``compiled/realtime/``
#: uses ``1 << 62`` in its int64 arrays (any value above every path length gives the same runs: the
#: twin's traces are the readable planners'); the autograder's ``searchcheck.py`` uses
#: ``float("inf")``, as it replays searches whose g-values a student's code wrote.
INFINITY = 2**31 - 1


def neighbours_of(cell: Cell, height: int, width: int, directions: tuple[Cell, ...] = DIRECTIONS) -> list[Cell]:
    """The cells next to ``cell`` that lie inside a ``height`` x ``width`` grid, in ``directions`` order.

    The one successor function of the kit's Python code: by default the SPEC's four moves, east,
    south, west, north (pass another tuple of row and column offsets for other moves, as
    :func:`successors` does for eight). Which of them an agent may enter is for its knowledge to say
    (:meth:`reference.world.sensing.Knowledge.successors`); :meth:`Gridworld.neighbours` and
    :func:`distances_from` call it too. The compiled twins write the moves out in Numba.

    >>> neighbours_of((0, 1), 2, 3)
    [(0, 2), (1, 1), (0, 0)]
    """
    row, col = cell
    return [(row + d_row, col + d_col) for d_row, d_col in directions
            if 0 <= row + d_row < height and 0 <= col + d_col < width]


def check_connectivity(connectivity: int) -> int:
    """``connectivity`` if it is 4 or 8, else ``ValueError``."""
    if connectivity not in MOVES:
        raise ValueError(f"connectivity must be 4 or 8, got {connectivity!r}")
    return connectivity


def cost_value(cost: Cost) -> float:
    """The double ``a + b·√2`` of the exact cost ``(a, b)``: the one way the kit orders costs.

    >>> cost_value((3, 0)), cost_value((1, 2)) == 1 + 2 * SQRT2
    (3.0, True)
    """
    return cost[0] + cost[1] * SQRT2


def add_costs(first: Cost, second: Cost) -> Cost:
    """The exact sum of two costs.

    >>> add_costs((1, 2), (0, 1))
    (1, 3)
    """
    return (first[0] + second[0], first[1] + second[1])


def octile_cost(a: Cell, b: Cell) -> Cost:
    """The octile distance as an exact cost: ``(max(dx, dy) - min(dx, dy), min(dx, dy))``.

    It is the cost of the shortest eight-connected path on an empty grid, so an admissible and
    consistent heuristic there.
    """
    d_row, d_col = abs(a[0] - b[0]), abs(a[1] - b[1])
    return (abs(d_row - d_col), min(d_row, d_col))


def octile(a: Cell, b: Cell) -> float:
    """The octile distance ``(max(dx, dy) - min(dx, dy)) + min(dx, dy)·√2`` (the value of :func:`octile_cost`).

    >>> octile((0, 0), (1, 1)) == SQRT2
    True
    """
    return cost_value(octile_cost(a, b))


def heuristic_cost(a: Cell, b: Cell, connectivity: int) -> Cost:
    """The kit's heuristic as an exact cost: Manhattan for four-connected, octile for eight-connected."""
    if connectivity == 4:
        return (manhattan(a, b), 0)
    return octile_cost(a, b)


def successors(blocked: np.ndarray, cell: Cell, connectivity: int = 4) -> list[tuple[Cell, Cost]]:
    """The cells one move from ``cell``, each with the move's exact cost, in successor order.

    ``blocked[row, col]`` is True where the agent may not be (pass ``~passable`` for a terrain
    capability). A move must stay inside the grid and end on an unblocked cell; a diagonal move
    ``(r, c) -> (r+dr, c+dc)`` also needs ``(r+dr, c)`` and ``(r, c+dc)`` unblocked (no corner
    cutting). Moves are symmetric: ``t`` is a successor of ``s`` exactly when ``s`` is one of ``t``,
    at the same cost, so a backward search uses this function too.

    >>> blocked = np.array([[False, False], [False, False]])
    >>> successors(blocked, (0, 0), 8)
    [((0, 1), (1, 0)), ((1, 1), (0, 1)), ((1, 0), (1, 0))]
    """
    height, width = blocked.shape
    row, col = cell
    result = []
    for r, c in neighbours_of(cell, height, width, MOVES[check_connectivity(connectivity)]):
        if blocked[r, c]:
            continue
        if r != row and c != col:  # diagonal: both cells it passes between must be free
            if blocked[r, col] or blocked[row, c]:
                continue
            result.append(((r, c), DIAGONAL))
        else:
            result.append(((r, c), STRAIGHT))
    return result


class Gridworld:
    """A rectangular grid of blocked and unblocked cells, backed by a NumPy boolean array.

    ``blocked[row, col]`` is True for a blocked cell. Any size is allowed, square or not.

    >>> g = Gridworld(2, 3)
    >>> g.set_blocked((1, 2))
    >>> g.to_strings()
    ['...', '..@']
    """

    __slots__ = ("blocked",)

    def __init__(self, height: int, width: int, blocked: np.ndarray | None = None) -> None:
        if height < 1 or width < 1:
            raise ValueError(f"a gridworld needs at least one row and one column, got {height} x {width}")
        if blocked is None:
            blocked = np.zeros((height, width), dtype=bool)
        else:
            blocked = np.asarray(blocked, dtype=bool)
            if blocked.shape != (height, width):
                raise ValueError(f"blocked array has shape {blocked.shape}, expected {(height, width)}")
        self.blocked = blocked

    # -- construction -------------------------------------------------------------------------

    @classmethod
    def from_strings(cls, rows: Iterable[str]) -> Gridworld:
        """Build a grid from rows of ``.`` (unblocked) and ``@`` (blocked) characters."""
        rows = list(rows)
        if not rows or not rows[0]:
            raise ValueError("a gridworld needs at least one row and one column")
        width = len(rows[0])
        for number, row in enumerate(rows):
            if len(row) != width:
                raise ValueError(f"row {number} has {len(row)} characters, expected {width}")
            unknown = set(row) - {UNBLOCKED_CHAR, BLOCKED_CHAR}
            if unknown:
                raise ValueError(f"row {number} has characters other than '.' and '@': {sorted(unknown)}")
        blocked = np.array([[ch == BLOCKED_CHAR for ch in row] for row in rows], dtype=bool)
        return cls(len(rows), width, blocked)

    def copy(self) -> Gridworld:
        return Gridworld(self.height, self.width, self.blocked.copy())

    # -- shape and cells ----------------------------------------------------------------------

    @property
    def height(self) -> int:
        return self.blocked.shape[0]

    @property
    def width(self) -> int:
        return self.blocked.shape[1]

    @property
    def size(self) -> int:
        """The number of cells."""
        return self.blocked.size

    def in_bounds(self, cell: Cell) -> bool:
        row, col = cell
        return 0 <= row < self.height and 0 <= col < self.width

    def index(self, cell: Cell) -> int:
        """The cell's index ``row * width + col``."""
        return cell[0] * self.width + cell[1]

    def cell(self, index: int) -> Cell:
        """The cell with the given index (the inverse of :meth:`index`)."""
        row, col = divmod(index, self.width)
        return (row, col)

    def cells(self) -> Iterator[Cell]:
        """All cells, row by row."""
        for row in range(self.height):
            for col in range(self.width):
                yield (row, col)

    # -- blockage -----------------------------------------------------------------------------

    def is_blocked(self, cell: Cell) -> bool:
        return bool(self.blocked[cell])

    def set_blocked(self, cell: Cell, blocked: bool = True) -> None:
        self.blocked[cell] = blocked

    @property
    def blocked_count(self) -> int:
        return int(self.blocked.sum())

    def neighbours(self, cell: Cell) -> list[Cell]:
        """The cells next to ``cell`` that exist, in east, south, west, north order (:func:`neighbours_of`)."""
        return neighbours_of(cell, self.height, self.width)

    def successors(self, cell: Cell, connectivity: int = 4) -> list[tuple[Cell, Cost]]:
        """The unblocked cells one move from ``cell`` with each move's exact cost (see :func:`successors`)."""
        return successors(self.blocked, cell, connectivity)

    # -- text ---------------------------------------------------------------------------------

    def to_strings(self) -> list[str]:
        """Rows of ``.`` and ``@`` characters."""
        return ["".join(BLOCKED_CHAR if b else UNBLOCKED_CHAR for b in row) for row in self.blocked]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Gridworld):
            return NotImplemented
        return self.blocked.shape == other.blocked.shape and bool(np.array_equal(self.blocked, other.blocked))

    def __repr__(self) -> str:
        return f"Gridworld({self.height} x {self.width}, {self.blocked_count} blocked)"


def shortest_distance(grid: Gridworld, start: Cell, target: Cell, blocked: np.ndarray | None = None) -> int | None:
    """Length of a shortest four-connected path from ``start`` to ``target``, or None if none exists.

    A plain breadth-first search, independent of any A* code, so that tests and the autograder
    can check A*'s answers with it. ``blocked`` overrides the grid's own blocked cells (pass the
    agent's knowledge to measure presumed-unblocked paths).

    >>> shortest_distance(Gridworld.from_strings([".@.", "..."]), (0, 0), (0, 2))
    4
    """
    return distances_from(grid, start, blocked).get(target)


def distances_from(grid: Gridworld, start: Cell, blocked: np.ndarray | None = None) -> dict[Cell, int]:
    """Breadth-first distances from ``start`` to every cell reachable from it."""
    blocked = grid.blocked if blocked is None else blocked
    height, width = blocked.shape
    distance = {start: 0}
    frontier = deque([start])
    while frontier:
        cell = frontier.popleft()
        for nxt in neighbours_of(cell, height, width):
            if not blocked[nxt] and nxt not in distance:
                distance[nxt] = distance[cell] + 1
                frontier.append(nxt)
    return distance
