"""D* Lite: a hand-worked repair after a blocked cell is seen, the handout's example, unreachable targets.

The repair case (S = start, T = target, # = blocked but not yet seen)::

    S . # T
    . . . .
"""

from __future__ import annotations

from tests.helpers.handout import EXAMPLE_1
from reference.world import FogOfWarWorld, Gridworld
from reference.world.grid import shortest_distance
from reference.solutions import repeated_forward_astar
from reference.solutions.realtime import DStarLite, dstar_lite, knowledge_of

DETOUR = Gridworld.from_strings(["..@.", "...."])


def test_the_detour_grid_is_what_the_docstring_draws():
    # Read the drawing from the module docstring, so the two cannot drift apart.
    drawing = [line.split() for line in __doc__.split("::")[1].strip().splitlines()]
    assert DETOUR.to_strings() == ["".join("@" if c == "#" else "." for c in row) for row in drawing]
    assert drawing[0][0] == "S" and drawing[0][3] == "T"  # the start (0, 0) and target (0, 3) of the tests


def test_first_search_by_hand():
    # Keys [min(g, rhs) + h(agent, s) + km; min(g, rhs)], h = Manhattan from the agent (0,0).
    # U = {T [3;0]}. Expand T: rhs(1,3) = 1 [5;1], rhs(0,2) = 1 [3;1].
    # Expand (0,2): rhs(1,2) = 2 [5;2], rhs(0,1) = 2 [3;2]. Expand (0,1): rhs(1,1) = 3 [5;3],
    # rhs(S) = 3 [3;3]. Now U's top key [3;3] is not below the agent's key [3;3]: stop.
    agent = DStarLite(FogOfWarWorld(DETOUR, (0, 0)), (0, 0), (0, 3))
    run = agent.run()
    first = run.trace.searches[0]
    assert first.start == (0, 3) and first.goal == (0, 0)  # D* Lite searches from the target
    assert first.expanded == [(0, 3), (0, 2), (0, 1)]
    assert first.path == [(0, 0), (0, 1), (0, 2), (0, 3)]


def test_repair_after_the_blocked_cell_is_seen_by_hand():
    # The agent steps to (0,1) and sees (0,2) blocked: on its path, so it plans again.
    # km = h((0,0), (0,1)) = 1. rhs(0,2) = inf; (1,2) and (0,1) had rhs 2 = 1 + g(0,2): both lose
    # their best successor and get rhs inf. ComputeShortestPath then raises (0,2) and (0,1) to
    # g = inf (underconsistent), lowers (1,3) to 1, (1,2) to 2, (1,1) to 3, and stops when the
    # agent's key [4 + 0 + 1; 4] is reached: five expansions instead of a new search of the grid.
    run = dstar_lite(FogOfWarWorld(DETOUR, (0, 0)), (0, 0), (0, 3))
    assert run.reached and run.episodes == 2
    second = run.trace.searches[1]
    assert second.goal == (0, 1)
    assert second.expanded == [(0, 2), (0, 1), (1, 3), (1, 2), (1, 1)]
    assert second.path == [(0, 1), (1, 1), (1, 2), (1, 3), (0, 3)]
    assert run.trace.trajectory == [(0, 0), (0, 1), (1, 1), (1, 2), (1, 3), (0, 3)]


HANDOUT = EXAMPLE_1  # handout Figure 2


def test_handout_example_walks_like_repeated_forward_astar_with_fewer_expansions():
    # Every D* Lite episode plans a shortest presumed-unblocked path, as Repeated Forward A* does;
    # here both pick the same paths. The first search expands 12 states (it searches from the
    # target), but the repairs reuse it: 4 and 6 expansions against Forward A*'s 13 and 16.
    run = dstar_lite(FogOfWarWorld(HANDOUT, (4, 2)), (4, 2), (4, 4))
    astar = repeated_forward_astar(FogOfWarWorld(HANDOUT, (4, 2)), (4, 2), (4, 4))
    assert run.trace.trajectory == astar.trajectory
    assert [len(r.path) for r in run.trace.searches] == [len(r.path) for r in astar.searches]
    assert [len(r.expanded) for r in run.trace.searches] == [12, 4, 6]
    assert sum(len(r.expanded) for r in run.trace.searches[1:]) < sum(len(r.expanded) for r in astar.searches[1:])


def test_known_terrain_plans_once_and_walks_a_shortest_path():
    run = dstar_lite(FogOfWarWorld(HANDOUT, (4, 2)), (4, 2), (4, 4), knowledge=knowledge_of(HANDOUT))
    assert run.reached and run.episodes == 1
    assert run.moves == shortest_distance(HANDOUT, (4, 2), (4, 4))


def test_unreachable_target_is_reported():
    walled = Gridworld.from_strings(["..@.", "..@."])
    run = dstar_lite(FogOfWarWorld(walled, (0, 0)), (0, 0), (0, 3))
    assert not run.reached
    assert run.trace.searches[-1].path == []
    # It had to walk to the wall to find out; it stops as soon as it knows both wall cells.
    assert run.trace.trajectory[-1] in [(0, 1), (1, 1)]


def test_target_walled_in_and_discovered_late():
    # A 1-cell pocket around the target at (2, 4): the agent learns it only next to it.
    grid = Gridworld.from_strings([".....", "...@@", "...@."])
    run = dstar_lite(FogOfWarWorld(grid, (0, 0)), (0, 0), (2, 4))
    assert not run.reached and run.episodes >= 2
    assert run.trace.searches[-1].path == []


def test_weak_heuristic_finds_paths_of_the_same_length():
    strong = dstar_lite(FogOfWarWorld(HANDOUT, (4, 2)), (4, 2), (4, 4), "strong")
    weak = dstar_lite(FogOfWarWorld(HANDOUT, (4, 2)), (4, 2), (4, 4), "weak")
    assert [len(r.path) for r in weak.trace.searches] == [len(r.path) for r in strong.trace.searches]
    assert weak.expansions >= strong.expansions  # a dominated heuristic never focuses better here
