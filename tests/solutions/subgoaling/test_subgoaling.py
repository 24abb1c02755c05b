"""Subgoal trees (Algorithm 2) and LRTA* with subgoaling (Algorithm 3), Hernández & Baier 2011.

Referees: a tree worked by hand; the world's Dijkstra (distances, for exit points and optimal
costs); properties on random maps (Hypothesis).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference.solutions.shortest_paths import dijkstra
from reference.solutions.subgoaling import (
    ALGORITHMS, build_subgoal_tree, lrta_star, lrta_star_subgoaling, run_algorithm,
)
from reference.world.grid import Gridworld, add_costs, cost_value, heuristic_cost, successors
from reference.world.trace import Trace

POCKET = ["....",
          ".@@.",
          "...."]


def test_subgoal_tree_worked_by_hand():
    # Four-connected, Manhattan h, goal G = (2, 2); successors E, S, W, N; Open by (g, stamp).
    #      col 0 1 2 3
    # row 0    . . . .     true distances to G:  4 5 4 3     Manhattan to G:  4 3 2 3
    # row 1    . @ @ .                            3 - - 2                      3 - - 2
    # row 2    . . G .                            2 1 0 1                      2 1 0 1
    # (0,1) and (0,2) lie in a depression (h 3 < 5, h 2 < 4).
    #
    # pop G:      E (2,3) g=1 g_sub=1 = h((2,3),G)=1;  W (2,1) g=1 g_sub=1 = h 1. Push both (stamps 1, 2).
    # pop (2,3):  Sub=G, g_sub=1.  N (1,3) g=2 g_sub=2 = h 2.                      (stamp 3)
    # pop (2,1):  Sub=G, g_sub=1.  W (2,0) g=2 g_sub=2 = h 2.                      (stamp 4)
    # pop (1,3):  Sub=G, g_sub=2.  N (0,3) g=3 g_sub=3 = h 3.                      (stamp 5)
    # pop (2,0):  Sub=G, g_sub=2.  N (1,0) g=3 g_sub=3 = h 3.                      (stamp 6)
    # pop (0,3):  Sub=G, g_sub=3.  W (0,2) g=4 g_sub=4 != h((0,2),G) = 2  -> lines 18-20: (0,3) is a
    #             subgoal, g_sub(0,3)=0, arc (G, (0,3)), Sub(0,3)=(0,3).           (stamp 7)
    # pop (1,0):  Sub=G, g_sub=3.  N (0,0) g=4 g_sub=4 = h 4.                      (stamp 8)
    # pop (0,2):  g=4, stamp 7 < 8, so before (0,0). Sub=Sub(0,3)=(0,3), g_sub=0+1=1.
    #             W (0,1) g=5 g_sub=2 = h((0,1),(0,3))=2.                          (stamp 9)
    # pop (0,0):  Sub=G, g_sub=4.  E (0,1): 4+1=5 is not better than 5: nothing.
    # pop (0,1):  parent (0,2): Sub=(0,3), g_sub=2. Nothing new. Open is empty.
    tree = build_subgoal_tree(Gridworld.from_strings(POCKET), (2, 2), connectivity=4)
    assert tree.arcs == [((2, 2), (0, 3))]
    assert tree.size == 1 and tree.states == [(2, 2), (0, 3)]
    assert tree.expanded == [(2, 2), (2, 3), (2, 1), (1, 3), (2, 0), (0, 3), (1, 0), (0, 2), (0, 0), (0, 1)]
    assert {cell: tree.sub[cell] for cell in [(0, 0), (0, 1), (0, 2), (0, 3), (1, 0)]} == {
        (0, 0): (2, 2), (0, 1): (0, 3), (0, 2): (0, 3), (0, 3): (0, 3), (1, 0): (2, 2)}
    assert {cell: tree.g_sub[cell][0] for cell in [(0, 0), (0, 1), (0, 2), (0, 3)]} == {
        (0, 0): 4, (0, 1): 2, (0, 2): 1, (0, 3): 0}
    assert tree.nextgoal((0, 3)) == (2, 2) and tree.nextgoal((2, 2)) is None and tree.nextgoal((0, 2)) is None
    assert tree.branch((0, 1)) == [(0, 3), (2, 2)]

    # Algorithm 3 from (0,1): line 5 picks (0,3) (h 2 < h to G, 3); the agent walks E, E, then at
    # (0,3) its goal becomes G: S (1,3) and W (0,2) tie at 1 + 2, S comes first; S; W.
    run = lrta_star_subgoaling(Gridworld.from_strings(POCKET), (0, 1), (2, 2), connectivity=4, tree=tree)
    assert run.trace.trajectory == [(0, 1), (0, 2), (0, 3), (1, 3), (2, 3), (2, 2)]
    assert run.cost == (5, 0) and run.expansions == run.moves == 5
    assert [r.goal for r in run.trace.searches] == [(0, 3), (0, 3), (2, 2), (2, 2), (2, 2)]


def test_eight_connected_tree_worked_by_hand():
    # Eight-connected, octile h, goal G = (0, 0); successors E, SE, S, SW, W, NW, N, NE; no corner cutting.
    #      col 0 1 2
    # row 0    G @ .
    # row 1    . @ .
    # row 2    . . .
    # pop G:      S (1,0) g=1 g_sub=1 = h 1 (SE (1,1) is blocked).
    # pop (1,0):  SE (2,1) would cut the corner of (1,1): no. S (2,0) g=2 g_sub=2 = h 2.
    # pop (2,0):  E (2,1) g=3 g_sub=3, h((2,1),G) = 1+√2 (pairs (3,0) vs (1,1)): differ -> (2,0) is a
    #             subgoal under G, g_sub(2,0)=0, Sub(2,0)=(2,0). (NE (1,1) blocked.)
    # pop (2,1):  Sub=(2,0), g_sub=1. E (2,2) g=4 g_sub=2 = h((2,2),(2,0)) 2. NE (1,2) and NW (1,0)
    #             would cut the corner of (1,1).
    # pop (2,2):  Sub=(2,0), g_sub=2. N (1,2) g=5 g_sub=3, h((1,2),(2,0)) = 1+√2: differ -> (2,2) is a
    #             subgoal under (2,0).
    # pop (1,2):  Sub=(2,2), g_sub=1. N (0,2) g=6 g_sub=2 = h((0,2),(2,2)) 2.
    # pop (0,2):  Sub=(2,2), g_sub=2. Nothing new.
    grid = Gridworld.from_strings([".@.", ".@.", "..."])
    tree = build_subgoal_tree(grid, (0, 0), connectivity=8)
    assert tree.arcs == [((0, 0), (2, 0)), ((2, 0), (2, 2))]
    assert tree.expanded == [(0, 0), (1, 0), (2, 0), (2, 1), (2, 2), (1, 2), (0, 2)]
    assert tree.g[(0, 2)] == (6, 0) and tree.g_sub[(0, 2)] == (2, 0) and tree.g_sub[(1, 2)] == (1, 0)
    assert tree.branch((0, 2)) == [(2, 2), (2, 0), (0, 0)]
    # From (0,2), line 5 weighs the tree's states by h: G 2 (straight across the wall), (2,0) 2√2,
    # (2,2) 2. G and (2,2) tie; the root comes first, so the paper's rule picks G itself, while
    # Sub(start) picks (2,2), on the optimal path. Both reach G.
    nearest = lrta_star_subgoaling(grid, (0, 2), (0, 0), tree=tree)
    sub = lrta_star_subgoaling(grid, (0, 2), (0, 0), tree=tree, first_goal="sub")
    assert nearest.reached and sub.reached
    assert sub.cost == (6, 0) and sub.trace.searches[0].goal == (2, 2)
    assert nearest.trace.searches[0].goal == (0, 0)


CYCLE_MAP = ["@@@...@@....",
             "@@...@@@...@",
             "..@....@.@..",
             "@@...@......",
             "...@..@.@@.@",
             "@.....@@..@@",
             ".@.@...@@.@.",
             "@.........@.",
             ".@@@..@@..@.",
             "@@.....@..@."]


def test_algorithm_3_as_written_can_cycle_for_ever():
    # Found by a random search (four-connected, Manhattan h), checked by hand. The goal G = (7, 8);
    # the tree has, among others, the arcs (G, (2, 4)) and ((2, 4), (3, 8)): from (3, 8) the way to
    # G leads back west through (2, 4). The agent reaches (2, 4); line 8 makes G its goal; toward G
    # LRTA* walks east (2,5) (2,6) (3,6) (3,7) (3,8), down the heuristic. At (3, 8), a tree state,
    # line 8 switches to nextgoal((3, 8)) = (2, 4), and the agent walks back. At (2, 4) the goal is G
    # again. h((3, 8), G) is never raised (at (3, 8) the goal is always (2, 4)), so once the values
    # on the way are consistent with it nothing changes any more: the same ten moves for ever.
    grid = Gridworld.from_strings(CYCLE_MAP)
    start, goal = (2, 11), (7, 8)
    tree = build_subgoal_tree(grid, goal, connectivity=4)
    assert tree.tree_parent[(2, 4)] == goal and tree.tree_parent[(3, 8)] == (2, 4)
    for first_goal in ("nearest", "sub"):
        stuck = lrta_star_subgoaling(grid, start, goal, 4, tree, first_goal, max_moves=3000)
        assert not stuck.reached and stuck.moves == 3000
        tail = stuck.trace.trajectory[-40:]
        assert tail[:10] == tail[10:20] == tail[20:30] == tail[30:]
        assert {(2, 4), (3, 8)} <= set(tail) and len(set(tail)) == 6
        # Switching only on reaching the subgoal pursued ends the run, no cheaper than optimal.
        fixed = lrta_star_subgoaling(grid, start, goal, 4, tree, first_goal, switch="on_arrival")
        assert fixed.reached and cost_value(fixed.cost) >= cost_value(tree.g[start])


def test_unreachable_goal_and_start_at_goal():
    grid = Gridworld.from_strings([".@.", ".@."])
    tree = build_subgoal_tree(grid, (0, 2))
    assert tree.size == 0 and tree.branch((0, 0)) == [] and set(tree.g) == {(0, 2), (1, 2)}
    for name in ALGORITHMS:
        run = run_algorithm(name, grid, (0, 0), (0, 2))
        assert not run.reached and run.cost is None and run.moves == 0
        here = run_algorithm(name, grid, (1, 2), (1, 2))
        assert here.reached and here.cost == (0, 0) and here.moves == 0
    with pytest.raises(ValueError, match="blocked"):
        build_subgoal_tree(grid, (0, 1))
    with pytest.raises(ValueError, match="first_goal"):
        lrta_star_subgoaling(grid, (0, 0), (1, 0), first_goal="closest")
    with pytest.raises(ValueError, match="switch"):
        lrta_star_subgoaling(grid, (0, 0), (1, 0), switch="sometimes")


def test_traces_round_trip_through_json():
    grid = Gridworld.from_strings(POCKET)
    for name in ALGORITHMS:
        trace = run_algorithm(name, grid, (0, 1), (2, 2), connectivity=4).trace
        assert Trace.from_json(trace.to_json(), grid.height, grid.width) == trace


def test_max_moves_stops_a_run():
    grid = Gridworld.from_strings(["." * 12])
    run = lrta_star(grid, (0, 0), (0, 11), max_moves=4)
    assert not run.reached and run.moves == 4 and run.cost is None


# -- properties on random maps ---------------------------------------------------------------------

SETTINGS = settings(max_examples=80, deadline=None)


@st.composite
def maps(draw, max_side: int = 9):
    """A random map (about a third of its cells blocked), a free goal and a free start, and a connectivity."""
    height = draw(st.integers(1, max_side))
    width = draw(st.integers(2 if height == 1 else 1, max_side))
    cells = draw(st.lists(st.sampled_from([False, False, True]), min_size=height * width, max_size=height * width))
    blocked = np.array(cells, dtype=bool).reshape(height, width)
    free = [divmod(int(i), width) for i in np.flatnonzero(~blocked.ravel())]
    if len(free) < 2:
        blocked[:] = False
        free = [divmod(i, width) for i in range(height * width)]
    return (Gridworld(height, width, blocked), draw(st.sampled_from(free)), draw(st.sampled_from(free)),
            draw(st.sampled_from([4, 8])))


@SETTINGS
@given(maps())
def test_tree_invariants(instance):
    grid, _, goal, connectivity = instance
    tree = build_subgoal_tree(grid, goal, connectivity)
    truth = dijkstra(grid, goal, connectivity=connectivity)
    # The tree's Dijkstra is a Dijkstra: the same distances as the world's.
    assert tree.g == truth.cost
    parents = dict(tree.tree_parent)
    for state in tree.g:
        # every Sub chain ends at the goal ...
        branch = tree.branch(state)
        assert branch[-1] == goal and len(set(branch)) == len(branch)
        # ... and g_sub is the rest of the distance: g(s) = g(Sub(s)) + g_sub(s), exactly.
        assert add_costs(tree.g[tree.sub[state]], tree.g_sub[state]) == tree.g[state]
    for parent, child in tree.arcs:
        assert parents[child] == parent and tree.sub[child] == child
        # a subgoal lies on its own optimal path to the goal, past its parent in the tree
        assert cost_value(tree.g[parent]) < cost_value(tree.g[child])


@SETTINGS
@given(maps())
def test_every_tree_arc_is_an_exit_point(instance):
    # The paper's definition: s is an exit point of a heuristic depression with respect to a goal P
    # if some successor s' of s has h(s', P) below the actual cost of reaching P from s'. Every arc
    # (P, s) of the tree makes s an exit point with respect to its parent P (actual costs from the
    # world's Dijkstra, a different search).
    grid, _, goal, connectivity = instance
    tree = build_subgoal_tree(grid, goal, connectivity)
    for parent, child in tree.arcs:
        actual = dijkstra(grid, parent, connectivity=connectivity)
        assert any(cost_value(heuristic_cost(successor, parent, connectivity)) < actual.length_to(successor)
                   for successor, _ in successors(grid.blocked, child, connectivity))


@SETTINGS
@given(maps(), st.sampled_from(list(ALGORITHMS)))
def test_runs_reach_every_reachable_goal_no_cheaper_than_optimal(instance, name):
    # Algorithm 3 with line 8 as written can cycle (the test above): those runs get a move limit,
    # and must reach the goal or run into it; every other algorithm reaches every reachable goal.
    grid, start, goal, connectivity = instance
    optimal = dijkstra(grid, goal, connectivity=connectivity).cost_to(start)
    may_cycle = name in ("lrta_subgoal", "lrta_subgoal_sub")
    limit = 50 * grid.size ** 2 if may_cycle else None
    run = run_algorithm(name, grid, start, goal, connectivity=connectivity, max_moves=limit)
    assert run.reached == (optimal is not None) or (may_cycle and run.moves == limit)
    if run.reached:
        assert run.trace.trajectory[0] == start and run.trace.trajectory[-1] == goal
        assert cost_value(run.cost) >= cost_value(optimal)
        if name == "astar":
            assert run.cost == optimal
        # every step is a legal move, and the cost is the sum of the steps
        total = (0, 0)
        for here, there in zip(run.trace.trajectory, run.trace.trajectory[1:]):
            step = dict(successors(grid.blocked, here, connectivity))[there]
            total = add_costs(total, step)
        assert total == run.cost
        if name != "astar":   # lookahead one: one expansion (the agent's state) per episode
            assert all(r.expanded == [r.start] for r in run.trace.searches)
