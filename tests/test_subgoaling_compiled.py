"""The compiled subgoal trees equal the readable ones, arc for arc (SPEC §16)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings

from reference.solutions.compiled.subgoaling import every_tree_size, subgoal_tree_arcs
from reference.solutions.subgoaling import build_subgoal_tree
from reference.world.maps import read_map

from test_subgoaling import maps


@settings(max_examples=80, deadline=None)
@given(maps(max_side=12))
def test_compiled_trees_equal_readable_trees(instance):
    grid, _, goal, connectivity = instance
    assert subgoal_tree_arcs(grid, goal, connectivity) == build_subgoal_tree(grid, goal, connectivity).arcs


def test_every_tree_size_on_a_game_map(shared_dir):
    grid = read_map(shared_dir / "movingai" / "dao" / "arena.map")
    free = [divmod(int(i), grid.width) for i in np.flatnonzero(~grid.blocked.ravel())]
    sample = free[::97]
    sizes, reached, seconds = every_tree_size(grid, 8, cells=sample)
    for goal, size, count in zip(sample, sizes, reached):
        tree = build_subgoal_tree(grid, goal, 8)
        assert (tree.size, len(tree.g)) == (size, count)
    assert seconds >= 0
