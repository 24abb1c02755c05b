"""The compiled twin of :func:`reference.solutions.shortest_paths.astar` (SPEC §16).

Same search, same keys, same successor order, so the same cells are expanded in the same order
and the same path is found; only the speed differs (Numba compiles the loop to machine code:
35 to 56 times faster than the readable A* on the benchmark maps, about 6 million expansions a
second; measured in ``docs/gamemaps.md``). The readable version is the one to read; this one mirrors it line for line
with flat arrays in place of dictionaries:

* a cell is its index ``row * width + col``;
* g is two int64 arrays (straight and diagonal moves): the exact pair, as in the readable code;
* OPEN is ordered by the readable keys ``(f, tie, stamp)``: ``f = cost_value(g + h)`` and
  ``tie = -cost_value(g)`` (larger g first) or ``+cost_value(g)``, the doubles computed from the
  pairs by the same two operations as :func:`~reference.world.grid.cost_value` (``a + b * SQRT2``;
  Numba does not fuse them, so the doubles are bit-identical). Stamps are unique, so the key is a
  total order and any correct heap pops the same sequence.
* :func:`astar_packed` packs that key into one int64 (:func:`key_plan` says how, and why the order is
  exactly the same) and keeps OPEN in the packed heap of :mod:`.heap`: one integer comparison per
  heap step and 12 bytes moved, where the three-part keys cost up to three comparisons of doubles and
  32 bytes (about half the time on long searches: docs/speed.md, "Packed keys for the known-map A* and D* Lite").
  A search whose costs outgrow the plan's bits starts again in :func:`astar_arrays`, the same search on
  the heap of ``(f, tie, stamp)`` triples (:func:`~.heap.triple_heap_pop`).

>>> from reference.world.grid import Gridworld
>>> result = astar(Gridworld.from_strings(["....", ".@..", "...."]), (2, 0), (0, 3), connectivity=8)
>>> result.cost, result.expanded, result.path
((3, 1), [(2, 0), (2, 1), (2, 2), (1, 3)], [(2, 0), (2, 1), (2, 2), (1, 3), (0, 3)])
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from numba import njit

from reference.solutions.shortest_paths import PathResult, blocked_array, check_start_and_goal
from reference.world.grid import MOVES_8, SQRT2, Cell

from .heap import heap_clear, heap_len, heap_new, heap_peek_key, heap_pop, heap_push, heap_update, triple_heap_pop, \
    triple_heap_sift_up

#: The move table as arrays Numba can index: the eight moves, E, SE, S, ..., NE.
MOVE_ROWS = np.array([move[0] for move in MOVES_8], dtype=np.int64)
MOVE_COLS = np.array([move[1] for move in MOVES_8], dtype=np.int64)


@njit(cache=True)
def move_rule(blocked, height, width, row, col, d_row, d_col):
    """The world's move rule (SPEC §12, :func:`reference.world.grid.successors`) for one move of the
    table from ``(row, col)``: ``(r, c, diagonal, allowed)``, the cell it leads to, whether the move is
    diagonal, and whether it may be taken (inside the grid, onto an unblocked cell, no corner cut).

    One function for every compiled search: every loop over the move table calls it
    (``tests/compiled/test_compiled_eight_step.py`` checks). A plain ``@njit`` call is inlined by LLVM;
    ``bench/eight_step.py`` rebuilds each search with the rule written out instead and runs the two
    interleaved (2026-11-29, load average 15-20, medians of 5-9 rounds, the same results): the A*
    1.00 times the written-out rule's time, Algorithm 2's subgoal tree 0.88 times, the known-map
    LRTA* loop 1.06 and 1.10 times (two runs; best rounds 1.05); HAA*'s baseline AA* 1.00 times
    (2026-11-30, ``--search aa``, 7 rounds). Not the 30 % that comments beside the five former copies
    claimed; the one rule is kept. Numba's own ``inline="always"`` took 1.18 times in the A*, 1.15 in
    AA*.

    >>> blocked = np.array([[False, True], [False, False]])
    >>> move_rule(blocked, 2, 2, 0, 0, 1, 1)[3], move_rule(blocked, 2, 2, 0, 0, 1, 0)    # SE would cut a corner
    (False, (1, 0, False, True))
    """
    r, c = row + d_row, col + d_col
    diagonal = d_row != 0 and d_col != 0
    if r < 0 or r >= height or c < 0 or c >= width or blocked[r, c]:
        return r, c, diagonal, False
    if diagonal and (blocked[r, col] or blocked[row, c]):
        return r, c, diagonal, False  # no corner cutting
    return r, c, diagonal, True


class Workspace:
    """The per-cell arrays of :func:`astar_arrays`, allocated once per grid size and reused.

    Allocating them for every search costs more than a short search itself on a 512 x 512 map
    (about 10 ms of fresh memory, measured); with ``counter`` and ``search`` (SPEC §5's lazy
    initialisation) a search touches only the cells it generates.
    """

    def __init__(self, cells: int) -> None:
        self.cells = cells
        self.counter = 0
        self.search = np.zeros(cells, dtype=np.int64)        # the search that last generated a cell
        self.g_straight = np.zeros(cells, dtype=np.int64)
        self.g_diagonal = np.zeros(cells, dtype=np.int64)
        self.tree = np.full(cells, -1, dtype=np.int64)
        self.position = np.full(cells, -1, dtype=np.int64)   # index in the heap, -1: not in OPEN
        self.heap = np.empty(cells, dtype=np.int64)
        self.f = np.empty(cells, dtype=np.float64)
        self.tie = np.empty(cells, dtype=np.float64)
        self.stamp = np.empty(cells, dtype=np.int64)
        self.expanded = np.empty(cells, dtype=np.int64)
        self.packed_heap = heap_new(cells)                   # OPEN of astar_packed
        self.plans: dict[tuple[int, int, int], KeyPlan | None] = {}

    def run(self, blocked: np.ndarray, start: int, goal: int, connectivity: int, larger_g: bool):
        """One search (see :func:`astar_arrays`); returns ``(found, straight, diagonal, expansions)``.

        On packed keys where the map's size allows them (:func:`key_plan`); a search that outgrows them
        runs again on three-part keys (the same search, so the same result)."""
        height, width = blocked.shape
        shape = (height, width, connectivity)
        if shape not in self.plans:
            self.plans = {shape: key_plan(height, width, connectivity)}
        plan = self.plans[shape]
        if plan is not None:
            self.counter += 1
            status, straight, diagonal, expansions = astar_packed(
                blocked, start, goal, connectivity, larger_g, MOVE_ROWS, MOVE_COLS, SQRT2, self.counter,
                self.search, self.g_straight, self.g_diagonal, self.tree, self.packed_heap, self.expanded,
                plan.ranks, plan.rank_count, plan.scale, plan.largest, plan.stamp_count)
            if status != OUTGROWN:
                return status == FOUND, straight, diagonal, expansions
        self.counter += 1
        return astar_arrays(
            blocked, start, goal, connectivity, larger_g, MOVE_ROWS, MOVE_COLS, SQRT2, self.counter,
            self.search, self.g_straight, self.g_diagonal, self.tree, self.position, self.heap,
            self.f, self.tie, self.stamp, self.expanded,
        )


@njit(cache=True)
def astar_arrays(blocked, start, goal, connectivity, larger_g, move_rows, move_cols, sqrt2, counter,
                 search, g_straight, g_diagonal, tree, position, heap, f, tie, stamp, expanded):
    """A* on a boolean ``blocked`` array from cell index ``start`` to ``goal``, in the arrays of a
    :class:`Workspace` (``search[s] != counter``: g(s) is infinity in this search).

    Returns ``(found, straight, diagonal, expansions)``: the exact cost of the path found and the
    number of expansions; ``expanded[:expansions]`` are the expanded cells in order and ``tree``
    leads from the goal back to the start.
    """
    height, width = blocked.shape
    expansions = 0
    step = 2 if connectivity == 4 else 1  # four-connected: every second move of the table
    goal_row, goal_col = goal // width, goal % width

    # push the start: g = (0, 0), key (h, -0 or 0, 0)
    search[start] = counter
    g_straight[start] = 0
    g_diagonal[start] = 0
    size = 1
    heap[0] = start
    position[start] = 0
    d_row, d_col = abs(start // width - goal_row), abs(start % width - goal_col)
    if connectivity == 4:
        f[0] = float(d_row + d_col)
    else:
        f[0] = float(abs(d_row - d_col)) + float(min(d_row, d_col)) * sqrt2
    tie[0] = 0.0
    stamp[0] = 0
    stamps = 0

    while size > 0:
        # while g(goal) > min f over OPEN
        if search[goal] == counter and not (float(g_straight[goal]) + float(g_diagonal[goal]) * sqrt2 > f[0]):
            break
        s, size = triple_heap_pop(heap, f, tie, stamp, position, size)
        expanded[expansions] = s
        expansions += 1
        row, col = s // width, s % width
        for move in range(0, 8, step):
            r, c, diagonal, allowed = move_rule(blocked, height, width, row, col, move_rows[move], move_cols[move])
            if not allowed:
                continue
            t = r * width + c
            # The relaxation of (s, t), written out here and again in astar_packed (each keeps its own push).
            # A shared @njit helper changed the compiled loops and was slower: bench/known_map_astar.py, the
            # median of 5 interleaved rounds, 3 runs a case, up to 1.11 times these copies' time on packed keys
            # and 1.03 to 1.11 on three-part keys (Numba's inline="always": 1.27 to 1.48; docs/speed.md).
            # tests/compiled/test_compiled_astar_kernels.py holds the two copies as one.
            new_straight = g_straight[s] + (0 if diagonal else 1)
            new_diagonal = g_diagonal[s] + (1 if diagonal else 0)
            new_value = float(new_straight) + float(new_diagonal) * sqrt2
            if search[t] == counter and not new_value < float(g_straight[t]) + float(g_diagonal[t]) * sqrt2:
                continue
            search[t] = counter
            g_straight[t] = new_straight
            g_diagonal[t] = new_diagonal
            tree[t] = s
            d_row, d_col = abs(r - goal_row), abs(c - goal_col)
            if connectivity == 4:
                h_straight, h_diagonal = d_row + d_col, 0
            else:
                h_straight, h_diagonal = abs(d_row - d_col), min(d_row, d_col)
            stamps += 1
            i = position[t]
            if i < 0:  # push
                i = size
                size += 1
                heap[i] = t
                position[t] = i
            f[i] = float(new_straight + h_straight) + float(new_diagonal + h_diagonal) * sqrt2
            tie[i] = -new_value if larger_g else new_value
            stamp[i] = stamps
            # a key only ever falls here (a lower g, the same h), so sifting up repairs the heap
            triple_heap_sift_up(heap, f, tie, stamp, position, i)
    for i in range(size):  # leave the position array clean for the next search
        position[heap[i]] = -1
    found = search[goal] == counter
    return found, g_straight[goal], g_diagonal[goal], expansions


# -- packed keys -------------------------------------------------------------------------------------

#: astar_packed's status: the goal was found, there is no path, or the costs outgrew the key plan.
NOT_FOUND, FOUND, OUTGROWN = 0, 1, 2

#: The products ``largest * scale`` stay below this, so that a double's rounding cannot move a floor.
_FLOOR_LIMIT = 2**48


class KeyPlan(NamedTuple):
    """How :func:`astar_packed` packs ``(f, tie, stamp)`` into ``((F * rank_count) + rank) * stamp_count + stamp``."""

    ranks: np.ndarray   # ranks[p, q]: the rank of the octile cost p + q·√2 (8-connected; unused for 4)
    rank_count: int     # ranks of h: the tie's digit
    scale: float        # F = floor(f * scale), a power of two
    largest: float      # the costs the plan holds: f < largest
    stamp_count: int    # stamps 0 .. stamp_count - 1


_RANK_TABLES: dict[int, np.ndarray] = {}


def octile_rank_table(side: int) -> np.ndarray:
    """``table[p, q]``: the rank of the cost ``p + q·√2`` among all ``(p, q)`` with ``p + q < side``
    (-1 elsewhere); equal ranks for equal values only (distinct pairs have distinct values).

    >>> octile_rank_table(3).tolist()   # rows p, columns q: 0 < 1 < √2 < 2 < 1+√2 < 2√2
    [[0, 2, 5], [1, 4, -1], [3, -1, -1]]
    """
    if side not in _RANK_TABLES:
        p, q = np.meshgrid(np.arange(side), np.arange(side), indexing="ij")
        valid = p + q < side
        order = np.argsort(p[valid] + q[valid] * SQRT2, kind="stable")
        ranks = np.empty(len(order), dtype=np.int64)
        ranks[order] = np.arange(len(order))
        table = np.full((side, side), -1, dtype=np.int64)
        table[valid] = ranks
        _RANK_TABLES.clear()  # one map size at a time
        _RANK_TABLES[side] = table
    return _RANK_TABLES[side]


def key_plan(height: int, width: int, connectivity: int) -> KeyPlan | None:
    """The packing of A*'s keys on a ``height`` x ``width`` map, or None when no useful one fits 63 bits.

    Why the packed key orders exactly as ``(f, tie, stamp)`` (the doubles of the readable A*):

    * f: costs are ``a + b·√2`` with integers ``a, b >= 0``. Two different ones below ``V`` differ by at
      least ``1 / (2V)``: with ``p = a - a'``, ``q = b - b'`` (``q != 0``, else they differ by at least 1),
      ``|p + q√2| = |p² - 2q²| / |p - q√2| >= 1 / (|p| + |q|√2) >= 1 / (2V)``. So ``F = floor(f · scale)``
      with ``scale >= 4V`` puts them at least 2 apart before the floor; the doubles are within
      ``V · 2**-51`` of the true costs and ``scale`` is a power of two (the product is exact), so with
      ``V · scale <= 2**48`` no rounding moves a floor: F orders the costs, and the doubles, exactly,
      and equal costs (equal pairs, √2 being irrational) get equal F. Four-connected costs are
      integers: ``scale = 1``.
    * tie: under equal f, a larger g is a smaller h (``f = g + h`` exactly), so ``-g`` orders as h,
      and ``+g`` as h reversed. h is an octile cost ``(p, q)`` with ``p + q`` below the map's longer
      side (:func:`octile_rank_table` ranks them all), or the Manhattan distance.
    * stamp: one per g-improvement; h is consistent, so no cell is expanded twice, and a search makes
      at most ``connectivity · cells`` of them.

    ``largest`` is the largest V the other digits leave (``F * rank_count * stamp_count < 2**63``, and
    ``V * scale <= 2**48``). A search with an f at or above it stops and runs again on three-part keys.

    >>> plan = key_plan(320, 320, 8)    # AR0700SR: 51,360 ranks, 819,202 stamps
    >>> plan.rank_count, plan.stamp_count, plan.scale, plan.largest
    (51360, 819202, 32768.0, 6689.0)
    >>> key_plan(512, 512, 8).largest, key_plan(101, 101, 4).scale
    (2048.0, 1.0)
    """
    cells = height * width
    stamp_count = connectivity * cells + 2
    if connectivity == 4:
        ranks, rank_count = np.full((1, 1), -1, dtype=np.int64), height + width - 1
    else:
        side = max(height, width)
        ranks, rank_count = octile_rank_table(side), side * (side + 1) // 2
    f_count = min((2**63 - 1) // (rank_count * stamp_count), _FLOOR_LIMIT)  # F < f_count
    if connectivity == 4:
        scale, largest = 1.0, float(f_count)
    else:  # the power of two that leaves the largest V with scale >= 4V and V * scale <= f_count
        scale, largest = max(((2.0**k, float(min(2**k // 4, f_count // 2**k))) for k in range(2, 63)),
                             key=lambda plan: plan[1])
    if largest < 2:
        return None
    return KeyPlan(ranks, rank_count, scale, largest, stamp_count)


@njit(cache=True)
def _packed_key(a, b, d_row, d_col, connectivity, larger_g, stamp, sqrt2, ranks, rank_count, scale, largest,
                stamp_count):
    """The packed ``(f, tie, stamp)`` of a cell with g = ``(a, b)`` at ``(d_row, d_col)`` from the goal
    (see :func:`key_plan`), or -1 when f or the stamp outgrows the plan."""
    if connectivity == 4:
        h_a, h_b, rank = d_row + d_col, 0, d_row + d_col
    else:
        h_a, h_b = abs(d_row - d_col), min(d_row, d_col)
        rank = ranks[h_a, h_b]
    f = float(a + h_a) + float(b + h_b) * sqrt2  # the readable f, bit for bit
    if f >= largest or stamp >= stamp_count:
        return np.int64(-1)
    tie = rank if larger_g else rank_count - 1 - rank
    return (np.int64(math.floor(f * scale)) * rank_count + tie) * stamp_count + stamp


@njit(cache=True)
def astar_packed(blocked, start, goal, connectivity, larger_g, move_rows, move_cols, sqrt2, counter,
                 search, g_straight, g_diagonal, tree, heap, expanded, ranks, rank_count, scale, largest, stamp_count):
    """:func:`astar_arrays` with OPEN in the packed heap ``heap`` of :mod:`.heap` (keys: :func:`key_plan`).

    Returns ``(status, straight, diagonal, expansions)``: status ``FOUND``, ``NOT_FOUND``, or ``OUTGROWN``
    (a cost or stamp outgrew the plan: nothing is decided, run :func:`astar_arrays`).
    """
    height, width = blocked.shape
    expansions = 0
    step = 2 if connectivity == 4 else 1  # four-connected: every second move of the table
    goal_row, goal_col = goal // width, goal % width
    f_radix = rank_count * stamp_count  # a key's F times f_radix is at most the key

    search[start] = counter
    g_straight[start] = 0
    g_diagonal[start] = 0
    key = _packed_key(0, 0, abs(start // width - goal_row), abs(start % width - goal_col), connectivity, larger_g, 0,
                      sqrt2, ranks, rank_count, scale, largest, stamp_count)
    if key < 0:
        return OUTGROWN, 0, 0, 0
    heap_push(heap, start, key)
    stamps = 0
    status = NOT_FOUND
    while heap_len(heap) > 0:
        # while g(goal) > min f over OPEN: F(g(goal)) > F(top) exactly when F(g(goal)) * f_radix > the top key
        if search[goal] == counter:
            g_goal = float(g_straight[goal]) + float(g_diagonal[goal]) * sqrt2  # below largest: it was an f
            if not np.int64(math.floor(g_goal * scale)) * f_radix > heap_peek_key(heap):
                break
        s = np.int64(heap_pop(heap))
        expanded[expansions] = s
        expansions += 1
        row, col = s // width, s % width
        for move in range(0, 8, step):
            r, c, diagonal, allowed = move_rule(blocked, height, width, row, col, move_rows[move], move_cols[move])
            if not allowed:
                continue
            t = r * width + c
            # Written out as in astar_arrays (the relaxation of (s, t)): a shared helper was up to 1.11 times
            # slower; see the comment there. tests/compiled/test_compiled_astar_kernels.py holds the two as one.
            new_straight = g_straight[s] + (0 if diagonal else 1)
            new_diagonal = g_diagonal[s] + (1 if diagonal else 0)
            new_value = float(new_straight) + float(new_diagonal) * sqrt2
            if search[t] == counter and not new_value < float(g_straight[t]) + float(g_diagonal[t]) * sqrt2:
                continue
            search[t] = counter
            g_straight[t] = new_straight
            g_diagonal[t] = new_diagonal
            tree[t] = s
            stamps += 1
            key = _packed_key(new_straight, new_diagonal, abs(r - goal_row), abs(c - goal_col), connectivity, larger_g,
                              stamps, sqrt2, ranks, rank_count, scale, largest, stamp_count)
            if key < 0:
                heap_clear(heap)
                return OUTGROWN, 0, 0, expansions
            if heap[2][t] >= 0:  # a key only ever falls here (a lower g, the same h)
                heap_update(heap, t, key)
            else:
                heap_push(heap, t, key)
    heap_clear(heap)  # leave the position array clean for the next search
    if search[goal] == counter:
        status = FOUND
    return status, g_straight[goal], g_diagonal[goal], expansions


#: One workspace per grid size, reused by every search on grids of that size (not thread-safe).
_WORKSPACES: dict[int, Workspace] = {}


def astar_workspace(blocked: np.ndarray, start: Cell, goal: Cell, connectivity: int, tie_break: str):
    """Check the problem and run the compiled A* in the one cached :class:`Workspace` of the map's size; returns
    ``(start, goal, workspace, found, cost, expansions)``.
    """
    start, goal = check_start_and_goal(blocked, start, goal, connectivity, tie_break)
    blocked = np.ascontiguousarray(blocked, dtype=np.bool_)
    width = blocked.shape[1]
    cells = blocked.size
    workspace = _WORKSPACES.get(cells)
    if workspace is None:
        _WORKSPACES.clear()  # keep one: the arrays of a 512 x 512 map take 25 MB
        workspace = _WORKSPACES[cells] = Workspace(cells)
    found, straight, diagonal, expansions = workspace.run(
        blocked, start[0] * width + start[1], goal[0] * width + goal[1], connectivity, tie_break == "larger_g")
    return start, goal, workspace, bool(found), (int(straight), int(diagonal)), int(expansions)


def astar(grid, start: Cell, goal: Cell, *, connectivity: int, tie_break: str = "larger_g") -> PathResult:
    """The compiled twin of :func:`reference.solutions.shortest_paths.astar`: same arguments, same result."""
    blocked = blocked_array(grid)
    start, goal, workspace, found, cost, expansions = astar_workspace(blocked, start, goal, connectivity, tie_break)
    width = blocked.shape[1]
    # NumPy splits the indices into rows and columns at once (a divmod per cell in Python would
    # cost more than the whole compiled search)
    rows, cols = np.divmod(workspace.expanded[:expansions], width)
    expanded_cells = list(zip(rows.tolist(), cols.tolist()))
    if not found:
        return PathResult(start, goal, None, [], expanded_cells)
    start_index = start[0] * width + start[1]
    path = [goal[0] * width + goal[1]]
    while path[-1] != start_index:
        path.append(int(workspace.tree[path[-1]]))
    return PathResult(start, goal, cost, [divmod(s, width) for s in reversed(path)], expanded_cells)


def astar_cost(blocked: np.ndarray, start: Cell, goal: Cell, *, connectivity: int,
               tie_break: str = "larger_g") -> tuple[tuple[int, int] | None, int]:
    """Only the exact cost (None when there is no path) and the number of expansions: what the
    benchmark check needs, without turning a hundred thousand expanded indices into cells."""
    _, _, _, found, cost, expansions = astar_workspace(blocked_array(blocked), start, goal, connectivity, tie_break)
    return (cost if found else None), expansions
