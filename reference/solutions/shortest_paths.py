"""A* and Dijkstra on a known grid, four- or eight-connected, with exact costs (SPEC §5 and §12).

Both are the kit's one best-first search (:func:`~reference.solutions.best_first.best_first_search`)
on a grid's moves (:func:`~reference.world.grid.successors`): g-values are exact pairs
``(straight moves, diagonal moves)`` (:data:`~reference.world.grid.Cost`), keys compare
:func:`~reference.world.grid.cost_value` doubles, so equal costs compare equal and the tie rules
decide (no epsilon).

* :func:`astar` is the handout's ComputePath (SPEC §5) on a known map: key ``(f, -g, stamp)``
  (``larger_g``, the default) or ``(f, g, stamp)`` (``smaller_g``), where the stamp counts
  insertions into OPEN (a state whose key is lowered is inserted anew), so remaining ties go to
  the entry inserted first; it stops when ``g(goal) <= min f over OPEN``, before the goal is
  expanded. h is Manhattan (four-connected) or octile (eight-connected), both consistent, so
  every state is expanded at most once.
* :func:`dijkstra` is the same search with h = 0: OPEN ordered by ``(g, stamp)``; it settles every
  cell it can reach (or stops once it has expanded ``goal``). Moves are symmetric, so distances
  *to* a cell (a backward search) are distances from it.

>>> from reference.world.grid import Gridworld
>>> grid = Gridworld.from_strings(["....", ".@..", "...."])
>>> result = astar(grid, (2, 0), (0, 3), connectivity=8)
>>> result.cost, round(result.length, 4), result.path
((3, 1), 4.4142, [(2, 0), (2, 1), (2, 2), (1, 3), (0, 3)])
>>> result.expansions
4
>>> distances = dijkstra(grid, (0, 0), connectivity=4)
>>> distances.cost_to((2, 3)), distances.path_to((2, 3))[:3]
((5, 0), [(0, 0), (0, 1), (0, 2)])
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from reference.world.grid import Cell, Cost, Gridworld, check_connectivity, cost_value, heuristic_cost, successors
from reference.world.trace import TIE_BREAKS

from .best_first import best_first_search, no_heuristic, path_from_tree


def blocked_array(grid: Gridworld | np.ndarray) -> np.ndarray:
    """The boolean blocked array of a :class:`Gridworld`, or the array itself."""
    return grid.blocked if isinstance(grid, Gridworld) else np.asarray(grid, dtype=bool)


def _check_cell(blocked: np.ndarray, cell: Cell, label: str) -> Cell:
    height, width = blocked.shape
    row, col = int(cell[0]), int(cell[1])
    if not (0 <= row < height) or not (0 <= col < width):
        raise ValueError(f"the {label} {cell} lies outside the {height} x {width} grid")
    if blocked[row, col]:
        raise ValueError(f"the {label} {cell} is blocked")
    return (row, col)


def check_start_and_goal(blocked: np.ndarray, start: Cell, goal: Cell, connectivity: int,
                         tie_break: str) -> tuple[Cell, Cell]:
    """Start and goal as ``(int, int)`` cells after checking every argument of :func:`astar`."""
    check_connectivity(connectivity)
    if tie_break not in TIE_BREAKS:
        raise ValueError(f"tie_break must be one of {', '.join(TIE_BREAKS)}, got {tie_break!r}")
    return _check_cell(blocked, start, "start"), _check_cell(blocked, goal, "goal")


@dataclass
class PathResult:
    """What :func:`astar` found: the exact cost (None when the goal cannot be reached), a path from
    start to goal (both included; empty when none), and the expanded cells in expansion order."""

    start: Cell
    goal: Cell
    cost: Cost | None
    path: list[Cell]
    expanded: list[Cell]

    @property
    def found(self) -> bool:
        return self.cost is not None

    @property
    def length(self) -> float:
        """The path's length ``a + b·√2`` as a float (infinity when there is no path)."""
        return cost_value(self.cost) if self.cost is not None else math.inf

    @property
    def expansions(self) -> int:
        return len(self.expanded)


def astar(grid: Gridworld | np.ndarray, start: Cell, goal: Cell, *, connectivity: int,
          tie_break: str = "larger_g") -> PathResult:
    """A shortest path from ``start`` to ``goal`` on a known grid, by A* (SPEC §5's ComputePath).

    Parameters
    ----------
    grid : Gridworld or numpy.ndarray
        A :class:`Gridworld` or a boolean blocked array (for a terrain capability pass
        ``~reference.world.terrain.passable(terrain, capability)``).
    start, goal : Cell
        Unblocked ``(row, col)`` cells of the grid.
    connectivity : {4, 8}
        Four moves, or eight without corner cutting (SPEC §12).
    tie_break : {"larger_g", "smaller_g"}

    Returns
    -------
    PathResult
        The exact cost (None when the goal cannot be reached), the path and the expanded cells.

    Raises
    ------
    ValueError
        A start or goal outside the grid or blocked, or an unknown connectivity or tie rule.

    See Also
    --------
    dijkstra : every cell's distance from a source (A* with h = 0).
    reference.solutions.best_first.best_first_search : the one readable search both run on.
    reference.solutions.compiled.shortest_paths.astar : the compiled twin (the same result).

    Examples
    --------
    >>> found = astar(Gridworld.from_strings(["..", ".."]), (0, 0), (1, 1), connectivity=8)
    >>> found.path, found.cost
    ([(0, 0), (1, 1)], (0, 1))
    """
    blocked = blocked_array(grid)
    start, goal = check_start_and_goal(blocked, start, goal, connectivity, tie_break)
    tree = best_first_search(start, lambda cell: successors(blocked, cell, connectivity),
                             lambda cell: heuristic_cost(cell, goal, connectivity), goal=goal, tie_break=tie_break)
    if goal not in tree.g:
        return PathResult(start, goal, None, [], tree.expanded)
    return PathResult(start, goal, tree.g[goal], tree.path_to(goal), tree.expanded)


@dataclass
class Distances:
    """What :func:`dijkstra` found: the exact cost from ``source`` to every cell it settled, their
    tree pointers, and the cells in the order they were expanded (by cost, then stamp)."""

    source: Cell
    cost: dict[Cell, Cost]
    tree: dict[Cell, Cell]
    expanded: list[Cell]

    def __contains__(self, cell: object) -> bool:
        return cell in self.cost

    def cost_to(self, cell: Cell) -> Cost | None:
        """The exact cost of a shortest path between ``source`` and ``cell`` (None if unreachable)."""
        return self.cost.get(cell)

    def length_to(self, cell: Cell) -> float:
        """That cost as a float (infinity if unreachable)."""
        cost = self.cost.get(cell)
        return cost_value(cost) if cost is not None else math.inf

    def path_to(self, cell: Cell) -> list[Cell]:
        """A shortest path from ``source`` to ``cell`` (empty if unreachable)."""
        return path_from_tree(self.tree, self.source, cell) if cell in self.cost else []

    def length_array(self, shape: tuple[int, int]) -> np.ndarray:
        """Every settled cell's cost as a float in a ``shape`` array, infinity elsewhere."""
        lengths = np.full(shape, math.inf)
        for cell, cost in self.cost.items():
            lengths[cell] = cost_value(cost)
        return lengths


def dijkstra(grid: Gridworld | np.ndarray, source: Cell, *, connectivity: int, goal: Cell | None = None) -> Distances:
    """Dijkstra's algorithm from ``source``: A* with h = 0, OPEN ordered by ``(g, stamp)``.

    Every cell reachable from ``source`` is settled, unless ``goal`` is given: then the search
    stops right after expanding it. Moves are symmetric, so ``dijkstra(grid, goal, ...)`` gives
    every cell's distance *to* ``goal`` (the backward search subgoaling needs).

    Parameters
    ----------
    grid : Gridworld or numpy.ndarray
        A :class:`Gridworld` or a boolean blocked array.
    source : Cell
        An unblocked ``(row, col)`` cell of the grid.
    connectivity : {4, 8}
        Four moves, or eight without corner cutting (SPEC §12).
    goal : Cell, optional
        Stop right after expanding this cell (default: settle everything reachable).

    Returns
    -------
    Distances
        The exact cost of every settled cell, its tree pointer, and the expansion order.

    Raises
    ------
    ValueError
        A source outside the grid or blocked, or an unknown connectivity.

    See Also
    --------
    astar : one shortest path, searched toward a goal.
    reference.solutions.best_first.best_first_search : the one readable search both run on.
    reference.solutions.compiled.haa.abstraction.distances_compiled : the compiled eight-connected distances from one cell.

    Examples
    --------
    >>> distances = dijkstra(Gridworld.from_strings(["...", ".@."]), (1, 0), connectivity=4)
    >>> distances.cost_to((1, 2)), distances.path_to((1, 2))
    ((4, 0), [(1, 0), (0, 0), (0, 1), (0, 2), (1, 2)])
    """
    blocked = blocked_array(grid)
    check_connectivity(connectivity)
    source = _check_cell(blocked, source, "source")
    tree = best_first_search(source, lambda cell: successors(blocked, cell, connectivity), no_heuristic,
                             goal=goal, expand_goal=True)
    settled = tree.expanded  # with h = 0 a state's g is final when it is expanded
    return Distances(source, {cell: tree.g[cell] for cell in settled},
                     {cell: tree.parent[cell] for cell in settled if cell != source}, settled)
