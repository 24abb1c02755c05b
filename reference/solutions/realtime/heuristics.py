"""The two heuristics of Koenig's comparison: Manhattan ("strong") and max(|dx|, |dy|) ("weak").

Both are consistent for four-connected moves of cost one (moving one cell changes either by at most
one), and the strong one dominates the weak one. Koenig (2004, Section 6) found that LRTA* in mazes
does better with the *weak* one at small lookaheads: small differences between neighbouring values
are quicker to correct when they mislead.

The search code works on flat cell indices (``row * width + col``), so :func:`flat_heuristic`
gives each heuristic as a function of two indices.

>>> HEURISTICS["strong"]((0, 0), (2, 3)), HEURISTICS["weak"]((0, 0), (2, 3))
(5, 3)
>>> h = flat_heuristic("weak", width=4)
>>> h(0, 2 * 4 + 3)           # cells (0, 0) and (2, 3)
3
"""

from __future__ import annotations

from typing import Callable

from reference.world.grid import Cell, manhattan


def chebyshev(a: Cell, b: Cell) -> int:
    """The larger of the row and column differences, ``max(|r1 - r2|, |c1 - c2|)``.

    >>> chebyshev((4, 2), (1, 3))
    3
    """
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


#: Heuristic name -> distance estimate between two cells.
HEURISTICS: dict[str, Callable[[Cell, Cell], int]] = {"strong": manhattan, "weak": chebyshev}


def check_heuristic(name: str) -> str:
    """Return ``name`` if it names a heuristic, else raise ValueError listing the choices."""
    if name not in HEURISTICS:
        raise ValueError(f"heuristic must be one of {', '.join(map(repr, HEURISTICS))}, got {name!r}")
    return name


def flat_heuristic(name: str, width: int) -> Callable[[int, int], int]:
    """The heuristic ``name`` as a function of two flat cell indices on a grid ``width`` wide."""
    check_heuristic(name)
    if name == "strong":
        def strong(a: int, b: int) -> int:
            row_a, col_a = divmod(a, width)
            row_b, col_b = divmod(b, width)
            return abs(row_a - row_b) + abs(col_a - col_b)
        return strong

    def weak(a: int, b: int) -> int:
        row_a, col_a = divmod(a, width)
        row_b, col_b = divmod(b, width)
        return max(abs(row_a - row_b), abs(col_a - col_b))
    return weak
