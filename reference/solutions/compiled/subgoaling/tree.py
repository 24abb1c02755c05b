"""Twin of ``subgoaling/tree.py``: Algorithm 2's subgoal trees, compiled (:func:`tree_arrays`), and
the whole map's trees at once (:func:`every_tree_size`, the experiments' preprocessing).

See the package's docstring for how the arrays mirror the readable dictionaries.

>>> from reference.world.grid import Gridworld
>>> subgoal_tree_arcs(Gridworld.from_strings(["....", ".@@.", "...."]), (2, 2), connectivity=4)
[((2, 2), (0, 3))]
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
from numba import njit

from reference.solutions.compiled.heap import triple_heap_pop as _pop_min, triple_heap_sift_up as _sift_up
from reference.solutions.compiled.shortest_paths import MOVE_COLS, MOVE_ROWS, move_rule
from reference.world.grid import SQRT2, Cell, Cost, Gridworld, check_connectivity


@njit(cache=True)
def tree_arrays(blocked, goal, connectivity, move_rows, move_cols, sqrt2, arcs):
    """Algorithm 2 from cell index ``goal``; writes the arcs ``(parent, child)`` into ``arcs`` (an
    ``(n, 2)`` int64 array). Returns how many arcs there are, how many states the search reached,
    and per cell ``g`` (two int64 arrays, the exact pair; straight ``-1``: not reached) and ``Sub``."""
    height, width = blocked.shape
    cells = height * width
    g_straight = np.full(cells, -1, dtype=np.int64)      # -1: g = infinity (line 2)
    g_diagonal = np.zeros(cells, dtype=np.int64)
    sub_straight = np.zeros(cells, dtype=np.int64)       # g_sub as an exact pair
    sub_diagonal = np.zeros(cells, dtype=np.int64)
    sub = np.full(cells, -1, dtype=np.int64)
    parent = np.full(cells, -1, dtype=np.int64)
    parent_diagonal = np.zeros(cells, dtype=np.bool_)   # was the move parent(s) -> s diagonal (line 11)
    position = np.full(cells, -1, dtype=np.int64)
    heap = np.empty(cells, dtype=np.int64)
    f = np.empty(cells, dtype=np.float64)
    tie = np.zeros(cells, dtype=np.float64)
    stamp = np.empty(cells, dtype=np.int64)
    step = 2 if connectivity == 4 else 1
    arc_count = 0
    reached = 1

    sub[goal] = goal                                      # lines 3-5
    g_straight[goal] = 0
    heap[0] = goal                                        # line 6
    position[goal] = 0
    f[0] = 0.0
    stamp[0] = 0
    stamps = 0
    size = 1
    while size > 0:                                       # line 7
        s, size = _pop_min(heap, f, tie, stamp, position, size)  # line 8
        if s != goal:                                     # lines 9-11
            p = parent[s]
            sub[s] = sub[p]
            sub_straight[s] = sub_straight[p] + (0 if parent_diagonal[s] else 1)
            sub_diagonal[s] = sub_diagonal[p] + (1 if parent_diagonal[s] else 0)
        row, col = s // width, s % width
        # The world's move rule (SPEC §12), one function for every compiled search. Called here, this
        # loop takes 0.88 times the written-out rule's time (bench/eight_step.py --search tree, medians).
        for move in range(0, 8, step):                    # line 12
            r, c, diagonal, allowed = move_rule(blocked, height, width, row, col, move_rows[move], move_cols[move])
            if not allowed:
                continue
            t = r * width + c
            new_straight = g_straight[s] + (0 if diagonal else 1)
            new_diagonal = g_diagonal[s] + (1 if diagonal else 0)
            new_value = float(new_straight) + float(new_diagonal) * sqrt2
            if g_straight[t] >= 0 and not float(g_straight[t]) + float(g_diagonal[t]) * sqrt2 > new_value:
                continue                                  # line 13
            if g_straight[t] < 0:
                reached += 1
            g_straight[t] = new_straight                  # line 14
            g_diagonal[t] = new_diagonal
            sub_straight[t] = sub_straight[s] + (0 if diagonal else 1)   # line 15
            sub_diagonal[t] = sub_diagonal[s] + (1 if diagonal else 0)
            parent[t] = s                                 # line 16
            parent_diagonal[t] = diagonal
            target_row, target_col = sub[s] // width, sub[s] % width     # line 17: h(t, Sub(s))
            d_row, d_col = abs(r - target_row), abs(c - target_col)
            if connectivity == 4:
                h_straight, h_diagonal = d_row + d_col, 0
            else:
                h_straight, h_diagonal = abs(d_row - d_col), min(d_row, d_col)
            if sub_straight[t] != h_straight or sub_diagonal[t] != h_diagonal:
                sub_straight[s] = 0                       # line 18
                sub_diagonal[s] = 0
                arcs[arc_count, 0] = sub[s]               # line 19
                arcs[arc_count, 1] = s
                arc_count += 1
                sub[s] = s                                # line 20
            stamps += 1                                   # lines 21-22: a lowered key, a new stamp
            i = position[t]
            if i < 0:
                i = size
                size += 1
                heap[i] = t
                position[t] = i
            f[i] = new_value
            stamp[i] = stamps
            _sift_up(heap, f, tie, stamp, position, i)
    return arc_count, reached, g_straight, g_diagonal, sub


def _check(grid: Gridworld, goal: Cell, connectivity: int) -> None:
    check_connectivity(connectivity)
    if not grid.in_bounds(goal) or grid.is_blocked(goal):
        raise ValueError(f"the goal {goal} is blocked or outside the {grid.height} x {grid.width} map")


def subgoal_tree_arcs(grid: Gridworld, goal: Cell, connectivity: int = 8) -> list[tuple[Cell, Cell]]:
    """The arcs ``(parent, child)`` of ``goal``'s subgoal tree, in the order Algorithm 2 adds them:
    the same list as ``build_subgoal_tree(grid, goal, connectivity).arcs``."""
    return compiled_tree(grid, goal, connectivity).arcs


@dataclass
class CompiledTree:
    """What :func:`tree_arrays` computes for one goal, as the lookahead loop reads it (cell indices).

    ``tree_parent[s]``: ``nextgoal(s)``, -1 off the tree and at the root; ``states``: the root, then
    the subgoals in the order they joined; ``sub[s]``: ``Sub(s)`` (-1 where the search never came);
    ``g_straight``, ``g_diagonal``: the exact distance to the goal (straight -1: unreachable).
    """

    goal: Cell
    connectivity: int
    width: int
    tree_parent: np.ndarray
    states: np.ndarray
    sub: np.ndarray
    g_straight: np.ndarray
    g_diagonal: np.ndarray

    @property
    def size(self) -> int:
        return len(self.states) - 1

    @property
    def arcs(self) -> list[tuple[Cell, Cell]]:
        children = self.states[1:]
        return [(divmod(int(self.tree_parent[c]), self.width), divmod(int(c), self.width)) for c in children]

    def g(self, cell: Cell) -> Cost | None:
        """The exact distance from ``cell`` to the goal (None: the goal cannot be reached from it)."""
        index = cell[0] * self.width + cell[1]
        return None if self.g_straight[index] < 0 else (int(self.g_straight[index]), int(self.g_diagonal[index]))


def compiled_tree(grid: Gridworld, goal: Cell, connectivity: int = 8) -> CompiledTree:
    """The subgoal tree of ``goal`` (Algorithm 2), compiled.

    Parameters
    ----------
    grid : Gridworld
    goal : Cell
        The tree's root (a free cell).
    connectivity : {8, 4}

    Returns
    -------
    CompiledTree
        Its ``arcs`` equal ``build_subgoal_tree(grid, goal, connectivity).arcs``, in the same order.

    Raises
    ------
    ValueError
        A goal blocked or outside the map; a connectivity other than 4 or 8.

    See Also
    --------
    reference.solutions.subgoaling.build_subgoal_tree : the readable reference this twin mirrors.

    Examples
    --------
    >>> from reference.world.grid import Gridworld
    >>> tree = compiled_tree(Gridworld.from_strings(["....", ".@@.", "...."]), (2, 2), connectivity=4)
    >>> tree.arcs, tree.g((0, 1))
    ([((2, 2), (0, 3))], (5, 0))
    """
    _check(grid, goal, connectivity)
    width = grid.width
    goal_index = goal[0] * width + goal[1]
    arcs = np.empty((grid.size, 2), dtype=np.int64)
    count, _, g_straight, g_diagonal, sub = tree_arrays(grid.blocked, goal_index, connectivity,
                                                        MOVE_ROWS, MOVE_COLS, SQRT2, arcs)
    tree_parent = np.full(grid.size, -1, dtype=np.int64)
    tree_parent[arcs[:count, 1]] = arcs[:count, 0]        # each state joins the tree at most once
    states = np.concatenate((np.array([goal_index], dtype=np.int64), arcs[:count, 1]))
    return CompiledTree(goal, connectivity, width, tree_parent, states, sub, g_straight, g_diagonal)


def every_tree_size(grid: Gridworld, connectivity: int = 8, cells: list[Cell] | None = None,
                    progress=None) -> tuple[np.ndarray, np.ndarray, float]:
    """Build the subgoal tree of every unblocked cell (or of ``cells``), as the paper's preprocessing
    does: returns each tree's size (arcs), the number of states each search reached, and the CPU
    seconds all the trees took. ``progress``: called with the number of trees done so far, now and then."""
    blocked = grid.blocked
    width = grid.width
    goals = cells if cells is not None else [divmod(int(i), width) for i in np.flatnonzero(~blocked.ravel())]
    for goal in goals[:1]:
        _check(grid, goal, connectivity)
    arcs = np.empty((grid.size, 2), dtype=np.int64)
    tree_arrays(blocked, goals[0][0] * width + goals[0][1], connectivity, MOVE_ROWS, MOVE_COLS, SQRT2, arcs)  # compile
    sizes = np.zeros(len(goals), dtype=np.int64)
    reached = np.zeros(len(goals), dtype=np.int64)
    seconds = 0.0
    for number, (row, col) in enumerate(goals):
        began = time.process_time()
        sizes[number], reached[number], _, _, _ = tree_arrays(blocked, row * width + col, connectivity,
                                                              MOVE_ROWS, MOVE_COLS, SQRT2, arcs)
        seconds += time.process_time() - began
        if progress is not None and number % 256 == 255:
            progress(number + 1)
    return sizes, reached, seconds
