"""The two kernels of the compiled known-map A* search as one.

``compiled/shortest_paths.py`` runs A* in :func:`astar_packed` (OPEN holds packed int64 keys) and,
where a map's costs outgrow the packing, in :func:`astar_arrays` (OPEN holds ``(f, tie, stamp)``
triples). Both relax a move the same way and push on their own OPEN; the keys order exactly alike
(``key_plan``), so on every map both must expand the same cells in the same order and leave the same
g-values and tree pointers. Each kernel is the other's oracle here: they share no heap code, and the
readable A* (``tests/solutions``' twin tests) holds them both through ``astar``. The relaxation is
written out in both (a shared helper measured slower; the comment in ``astar_arrays`` gives the
numbers), so the two copies must also read alike, line for line.
"""

from __future__ import annotations

import inspect

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference.solutions.compiled.shortest_paths import (FOUND, MOVE_COLS, MOVE_ROWS, NOT_FOUND, SQRT2,
                                                         Workspace, astar_arrays, astar_packed, key_plan)


def relaxation_lines(kernel) -> list[str]:
    """The kernel's relaxation of (s, t), from the tentative g to the tree pointer, comments left out."""
    lines = [line.split("#")[0].strip() for line in inspect.getsource(kernel.py_func).splitlines()]
    lines = [line for line in lines if line]
    first = lines.index("new_straight = g_straight[s] + (0 if diagonal else 1)")
    return lines[first:lines.index("tree[t] = s", first) + 1]


def test_the_two_relaxations_read_alike() -> None:
    # g(t) := g(s) + c(s, t) as the exact pair, compared as doubles, then g and tree written: 9 lines
    assert relaxation_lines(astar_arrays) == relaxation_lines(astar_packed)
    assert len(relaxation_lines(astar_arrays)) == 9


def run_both(blocked: np.ndarray, start: int, goal: int, connectivity: int, larger_g: bool):
    """Each kernel's search in fresh arrays: (found, cost, expanded cells, {cell: (g, parent)})."""
    height, width = blocked.shape
    plan = key_plan(height, width, connectivity)
    assert plan is not None
    packed, arrays = Workspace(blocked.size), Workspace(blocked.size)
    status, *cost, expansions = astar_packed(
        blocked, start, goal, connectivity, larger_g, MOVE_ROWS, MOVE_COLS, SQRT2, 1, packed.search, packed.g_straight,
        packed.g_diagonal, packed.tree, packed.packed_heap, packed.expanded, plan.ranks, plan.rank_count, plan.scale,
        plan.largest, plan.stamp_count)
    assert status in (FOUND, NOT_FOUND)  # small maps: the plan holds every cost (OUTGROWN would decide nothing)
    found, *cost_arrays, expansions_arrays = astar_arrays(
        blocked, start, goal, connectivity, larger_g, MOVE_ROWS, MOVE_COLS, SQRT2, 1, arrays.search, arrays.g_straight,
        arrays.g_diagonal, arrays.tree, arrays.position, arrays.heap, arrays.f, arrays.tie, arrays.stamp, arrays.expanded)

    def reached(workspace: Workspace) -> dict[int, tuple[int, int, int]]:
        cells = np.flatnonzero(workspace.search == 1)  # the cells this search generated
        return {int(s): (int(workspace.g_straight[s]), int(workspace.g_diagonal[s]), int(workspace.tree[s]))
                for s in cells}

    return ((status == FOUND, tuple(cost), packed.expanded[:expansions].tolist(), reached(packed)),
            (bool(found), tuple(cost_arrays), arrays.expanded[:expansions_arrays].tolist(), reached(arrays)))


@settings(max_examples=120, deadline=None)
@given(st.integers(1, 14), st.integers(1, 14), st.floats(0.0, 0.45), st.integers(0, 2**32 - 1),
       st.sampled_from([4, 8]), st.booleans())
def test_the_packed_and_the_triple_kernel_search_alike(height: int, width: int, density: float, seed: int,
                                                       connectivity: int, larger_g: bool) -> None:
    rng = np.random.default_rng(seed)
    blocked = rng.random((height, width)) < density
    free = np.flatnonzero(~blocked)
    if len(free) == 0:
        return
    start, goal = (int(cell) for cell in rng.choice(free, size=2))
    packed, arrays = run_both(blocked, start, goal, connectivity, larger_g)
    assert packed == arrays


@pytest.mark.parametrize("connectivity", [4, 8])
def test_an_open_room_and_a_walled_goal(connectivity: int) -> None:
    # an open 6 x 6 room, corner to corner: found, cost 10 straight (4-connected) or 5 diagonal (8-connected)
    room = np.zeros((6, 6), dtype=bool)
    packed, arrays = run_both(room, 0, 35, connectivity, True)
    assert packed == arrays and packed[0] and packed[1] == ((10, 0) if connectivity == 4 else (0, 5))
    # the goal (2, 2) walled in: no path, and both kernels expand every cell they can reach (25 - 8 walls - the goal = 16)
    walled = np.zeros((5, 5), dtype=bool)
    walled[1:4, 1:4] = True
    walled[2, 2] = False
    packed, arrays = run_both(walled, 0, 12, connectivity, False)
    assert packed == arrays and not packed[0] and len(packed[2]) == 16
