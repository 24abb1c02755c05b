"""Clearance values (SPEC §14; the article's Figures 2-10) and the Figure 5 point."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings, strategies as st

from reference.solutions.haa import annotated_astar, brushfire, traversable, true_clearance
from reference.solutions.shortest_paths import astar
from reference.world.terrain import (
    CAPABILITIES, GROUND, GROUND_ONLY, OUT_OF_BOUNDS, TREES, WATER, passable, terrain_from_strings,
)


def clearance_by_growing_squares(terrain, capability):
    """The article's literal procedure (Figure 6): start with a 1 × 1 square on a traversable tile,
    grow it down and to the right while it stays inside the map and holds only tiles of the
    capability; the clearance is the last side that fitted."""
    ok = passable(terrain, capability)
    height, width = terrain.shape
    result = np.zeros(terrain.shape, dtype=int)
    for r in range(height):
        for c in range(width):
            side = 0
            while r + side < height and c + side < width and ok[r:r + side + 1, c:c + side + 1].all():
                side += 1
            result[r, c] = side
    return result


def chebyshev_obstacle_distance(terrain, capability):
    """Brushfire as a formula: the Chebyshev distance to the nearest cell outside the capability,
    where the ring of cells just outside the map counts as obstacles."""
    ok = np.pad(passable(terrain, capability), 1, constant_values=False)
    obstacles = np.argwhere(~ok)
    result = np.zeros(terrain.shape, dtype=int)
    for r in range(terrain.shape[0]):
        for c in range(terrain.shape[1]):
            if ok[r + 1, c + 1]:
                result[r, c] = np.abs(obstacles - (r + 1, c + 1)).max(axis=1).min()
    return result


terrains = st.integers(0, 2**32 - 1).flatmap(lambda seed: st.tuples(st.just(seed), st.integers(1, 12), st.integers(1, 12)))


@settings(max_examples=60, deadline=None)
@given(terrains, st.sampled_from(CAPABILITIES))
def test_true_clearance_is_the_growing_square_of_figure_6(spec, capability):
    seed, height, width = spec
    terrain = np.random.default_rng(seed).choice(np.array([GROUND, TREES, WATER, OUT_OF_BOUNDS], np.uint8),
                                                 size=(height, width), p=[0.55, 0.15, 0.15, 0.15])
    assert (true_clearance(terrain, capability) == clearance_by_growing_squares(terrain, capability)).all()


@settings(max_examples=60, deadline=None)
@given(terrains, st.sampled_from(CAPABILITIES))
def test_brushfire_is_the_minimum_obstacle_distance(spec, capability):
    seed, height, width = spec
    terrain = np.random.default_rng(seed).choice(np.array([GROUND, TREES, WATER, OUT_OF_BOUNDS], np.uint8),
                                                 size=(height, width), p=[0.7, 0.1, 0.1, 0.1])
    assert (brushfire(terrain, capability) == chebyshev_obstacle_distance(terrain, capability)).all()


def test_clearance_per_capability_like_figures_8_to_10():
    # Ground (.) on the left, water (W) on the right, one rock (@) below.
    terrain = terrain_from_strings(["..WW", "..WW", "@.WW"])
    ground = true_clearance(terrain, GROUND_ONLY)
    water = true_clearance(terrain, {WATER})
    both = true_clearance(terrain, {GROUND, WATER})
    # Ground: (0,0) holds the 2 x 2 square rows 0-1, cols 0-1; (1,0) cannot grow into the rock.
    assert ground.tolist() == [[2, 1, 0, 0], [1, 1, 0, 0], [0, 1, 0, 0]]
    # Water: the 3 x 2 pool holds a 2 x 2 square from its top two rows.
    assert water.tolist() == [[0, 0, 2, 1], [0, 0, 2, 1], [0, 0, 1, 1]]
    # Ground or water: the 3 x 3 square at (0,0) would hold the rock (2,0), so 2; the one at (0,1)
    # (rows 0-2, cols 1-3) is all ground or water: 3.
    assert both.tolist() == [[2, 3, 2, 1], [1, 2, 2, 1], [0, 1, 1, 1]]


def test_figure_5_brushfire_loses_a_path_that_true_clearance_keeps():
    # A wall (row 3) with a gap two cells wide (columns 3 and 4); a 2 x 2 agent must pass it to
    # go from the top room to the bottom room.
    terrain = terrain_from_strings([
        "........",
        "........",
        "........",
        "@@@..@@@",
        "........",
        "........",
        "........",
        "........",
    ])
    start, goal = (1, 1), (5, 5)
    # True clearance at the gap's left cell (3, 3): the 2 x 2 square rows 3-4, cols 3-4 is free,
    # the 3 x 3 square would hit (3, 5): so 2. One row up, (2, 3): rows 2-3, cols 3-4 free: 2.
    cv = true_clearance(terrain, GROUND_ONLY)
    assert cv[3, 3] == 2 and cv[2, 3] == 2
    # Brushfire: (3, 3) touches the wall cell (3, 2), so 1; (2, 3) touches (3, 2) diagonally: 1;
    # and (3, 4) touches (3, 5): 1. Every cell of the gap and next to it gets 1 < 2.
    bf = brushfire(terrain, GROUND_ONLY)
    assert bf[3, 3] == 1 and bf[3, 4] == 1 and bf[2, 3] == 1
    # With true clearance the 2 x 2 agent goes through the gap (its top-left cell on (3, 3)) ...
    found = annotated_astar(terrain, start, goal, 2, GROUND_ONLY)
    assert found.found and (3, 3) in found.path
    # ... with brushfire no top-left cell in row 3 has value >= 2, so the rooms are cut apart.
    # (Start and goal are fine for brushfire: value 2, nothing blocked within one step.)
    brushfire_blocked = ~traversable(bf, 2)
    assert brushfire_blocked[3].all()
    assert bf[start] == 2 and bf[goal] == 2
    assert not astar(brushfire_blocked, start, goal, connectivity=8).found


def test_traversable_means_at_least_the_size():
    clearance = np.array([[0, 1, 2, 3]])
    assert traversable(clearance, 2).tolist() == [[False, False, True, True]]
