"""The compiled twins (reference.solutions.compiled.subgoaling) against the readable code (SPEC §16).

Referee: the readable reference.solutions.subgoaling, written differently (dictionaries, tuples,
the world's successors()). Trees arc for arc; runs move for move, the goal of every planning
episode, exact costs, what reached; on random maps (Hypothesis) and on a game map.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference.solutions import subgoaling as readable
from reference.solutions.compiled import subgoaling as compiled
from reference.world.grid import Gridworld
from reference.world.maps import read_map

from tests.solutions.subgoaling.test_subgoaling import CYCLE_MAP, maps

NAMES = list(compiled.ALGORITHMS)  # the planners with a twin


def assert_same_run(grid, start, goal, connectivity, name, max_moves=None):
    tree = readable.build_subgoal_tree(grid, goal, connectivity) if not grid.is_blocked(goal) else None
    twin_tree = compiled.compiled_tree(grid, goal, connectivity)
    slow = readable.run_algorithm(name, grid, start, goal, connectivity=connectivity, tree=tree, max_moves=max_moves)
    fast = compiled.run_compiled(grid, start, goal, name, connectivity=connectivity, tree=twin_tree, max_moves=max_moves)
    assert (fast.reached, fast.cost, fast.moves, fast.expansions, fast.episodes, fast.first_goal) == (
        slow.reached, slow.cost, slow.moves, slow.expansions, slow.episodes, slow.first_goal)
    # the whole SPEC §8 trace: trajectory, and every episode's start, goal, expansions and move
    assert fast.trace == slow.trace
    return slow, fast


@settings(max_examples=80, deadline=None)
@given(maps(max_side=12))
def test_compiled_trees_equal_readable_trees(instance):
    grid, start, goal, connectivity = instance
    tree = readable.build_subgoal_tree(grid, goal, connectivity)
    twin = compiled.compiled_tree(grid, goal, connectivity)
    assert twin.arcs == compiled.subgoal_tree_arcs(grid, goal, connectivity) == tree.arcs
    assert twin.g(start) == tree.g.get(start)
    assert {cell: tree.sub[cell] for cell in tree.g} == {
        cell: divmod(int(twin.sub[cell[0] * grid.width + cell[1]]), grid.width) for cell in tree.g}


@settings(max_examples=150, deadline=None)
@given(maps(max_side=12), st.sampled_from(NAMES))
def test_compiled_runs_equal_readable_runs(instance, name):
    grid, start, goal, connectivity = instance
    # line 8 as written can cycle for ever: a move limit, as the evaluation uses
    assert_same_run(grid, start, goal, connectivity, name, max_moves=20 * grid.size ** 2)


@settings(max_examples=40, deadline=None)
@given(maps(max_side=10), st.sampled_from(NAMES), st.integers(0, 12))
def test_compiled_runs_stop_at_the_same_move_limit(instance, name, limit):
    grid, start, goal, connectivity = instance
    assert_same_run(grid, start, goal, connectivity, name, max_moves=limit)


def test_the_cycle_of_algorithm_3_as_written_is_the_same():
    grid = Gridworld.from_strings(CYCLE_MAP)
    for name in ("lrta_subgoal", "lrta_subgoal_sub"):
        slow, fast = assert_same_run(grid, (2, 11), (7, 8), 4, name, max_moves=3000)
        assert not fast.reached and fast.moves == 3000
    for name in ("lrta_subgoal_arrival", "lrta_subgoal_sub_arrival"):
        assert assert_same_run(grid, (2, 11), (7, 8), 4, name)[1].reached


def test_unreachable_goal_start_at_goal_and_bad_input():
    grid = Gridworld.from_strings([".@.", ".@."])
    for name in NAMES:
        assert_same_run(grid, (0, 0), (0, 2), 8, name)
        assert_same_run(grid, (1, 2), (1, 2), 8, name)
    with pytest.raises(ValueError, match="blocked"):
        compiled.lrta_star(grid, (0, 1), (0, 0))
    with pytest.raises(ValueError, match="first_goal"):
        compiled.lrta_star_subgoaling(grid, (0, 0), (1, 0), first_goal="far")
    with pytest.raises(ValueError, match="not"):
        compiled.lrta_star_subgoaling(grid, (0, 0), (1, 0), tree=compiled.compiled_tree(grid, (0, 0)))


def test_the_h_tables_grow_when_a_run_pursues_many_goals():
    # a workspace with room for one goal: the subgoaling run pursues several, so the tables double
    # (and keep what they hold: the run must still equal the readable one)
    grid = Gridworld.from_strings(CYCLE_MAP)
    compiled.lrta._WORKSPACES[:] = [compiled.LookaheadWorkspace(grid.size, goals=1, moves=2)]
    slow, fast = assert_same_run(grid, (2, 11), (7, 8), 4, "lrta_subgoal_arrival")
    assert fast.goals_pursued > 1 and compiled.lrta._WORKSPACES[0].h_straight.shape[0] >= fast.goals_pursued
    # a larger map gets a larger workspace; a smaller one uses the larger's rows (and runs the same)
    assert_same_run(Gridworld.from_strings(["." * 30] * 20), (0, 0), (19, 29), 8, "lrta")
    assert compiled.lrta._WORKSPACES[0].cells == 600
    assert_same_run(grid, (2, 11), (7, 8), 4, "lrta_subgoal_sub_arrival")
    assert compiled.lrta._WORKSPACES[0].cells == 600
    assert len({record.goal for record in slow.trace.searches}) == fast.goals_pursued


def test_twins_on_a_game_map(shared_dir):
    # a sample of a real map: the problems of the evaluation's draw, every algorithm, eight-connected
    from reference.experiments.subgoaling import draw_problems

    grid = read_map(shared_dir / "movingai" / "dao" / "arena.map")
    for start, goal in draw_problems(grid, 4, seed=3):
        for name in NAMES:
            slow, fast = assert_same_run(grid, start, goal, 8, name, max_moves=200_000)
            assert fast.reached


def test_every_tree_size_on_a_game_map(shared_dir):
    grid = read_map(shared_dir / "movingai" / "dao" / "arena.map")
    free = [divmod(int(i), grid.width) for i in np.flatnonzero(~grid.blocked.ravel())]
    sample = free[::97]
    sizes, reached, seconds = compiled.every_tree_size(grid, 8, cells=sample)
    assert len(sizes) == len(reached) == len(sample) > 0   # zip below must not check fewer goals than asked
    for goal, size, count in zip(sample, sizes, reached):
        tree = readable.build_subgoal_tree(grid, goal, 8)
        assert (tree.size, len(tree.g)) == (size, count)
    assert seconds >= 0
