"""Every worked example of SPEC §10 (the handout's Figures 2-9), reproduced exactly."""

from __future__ import annotations

from tests.helpers.handout import EXAMPLE_1, EXAMPLE_2, EXAMPLE_3, handout_cell, handout_cells

from reference.world.grid import manhattan
from reference.world.sensing import AgentBody, FogOfWarWorld
from reference.solutions.replanning import RepeatedAStar, adaptive_astar, repeated_backward_astar, repeated_forward_astar

E3, E5 = handout_cell("E3"), handout_cell("E5")


def run(function, grid, start, target, tie_break="larger_g"):
    return function(FogOfWarWorld(grid, start), start, target, tie_break)


def test_example_1_forward_first_two_searches() -> None:
    trace = run(repeated_forward_astar, EXAMPLE_1, E3, E5)
    first, second = trace.searches[0], trace.searches[1]
    assert first.expanded == handout_cells("E3 E2 E1 D2 D1 C2 C3 C4 C5 D5")
    assert (first.start, first.goal) == (E3, E5)
    # The agent moves E3 -> E2 -> D2 -> C2, sees C3 blocked, and searches again from C2.
    assert trace.trajectory[:4] == handout_cells("E3 E2 D2 C2")
    assert second.start == handout_cell("C2")
    assert len(second.expanded) == 13
    assert trace.reached and trace.trajectory[-1] == E5


def test_example_1_adaptive_first_two_searches() -> None:
    forward = run(repeated_forward_astar, EXAMPLE_1, E3, E5)
    adaptive = run(adaptive_astar, EXAMPLE_1, E3, E5)
    assert adaptive.searches[0].expanded == forward.searches[0].expanded
    second = adaptive.searches[1].expanded
    assert len(second) == 10
    # E1, E2 and E3 are no longer expanded; everything else the forward search expanded still is.
    assert set(forward.searches[1].expanded) - set(second) == set(handout_cells("E1 E2 E3"))
    assert len(adaptive.searches[0].expanded) + len(second) == 20
    assert len(forward.searches[0].expanded) + len(forward.searches[1].expanded) == 23


def test_example_1_adaptive_h_values_after_the_first_search() -> None:
    """After the first search, h = 8 - g for every expanded cell; D2, E1, E2 and E3 rise above Manhattan."""
    planner = RepeatedAStar(FogOfWarWorld(EXAMPLE_1, E3), E3, E5, "forward", adaptive=True)
    body = AgentBody(planner.world, E3)  # the agent in E3, having looked around
    planner.plan_episode(body.cell, body.knowledge, body.take_newly_blocked())  # the first search
    # g-values of the first search, worked by hand from Figure 5 (left): distances from E3.
    g_by_hand = {"E3": 0, "E2": 1, "E1": 2, "D2": 2, "D1": 3, "C2": 3, "C3": 4, "C4": 5, "C5": 6, "D5": 7}
    raised = set()
    for name, g in g_by_hand.items():
        cell = handout_cell(name)
        h = planner.learned_h[cell]
        assert h == 8 - g, name
        if h > manhattan(cell, E5):
            raised.add(name)
    assert raised == {"D2", "E1", "E2", "E3"}


def test_example_1_backward_first_search() -> None:
    trace = run(repeated_backward_astar, EXAMPLE_1, E3, E5)
    first = trace.searches[0]
    assert (first.start, first.goal) == (E5, E3)
    assert first.expanded == handout_cells("E5 D5 D4 C4 C3 C5 C2 D2 E2")
    assert first.path[0] == E3 and first.path[-1] == E5  # agent to target, already in walking order
    assert trace.reached


def test_example_2_first_move_is_east() -> None:
    start = handout_cell("E2")
    for function in (repeated_forward_astar, adaptive_astar, repeated_backward_astar):
        trace = run(function, EXAMPLE_2, start, E5)
        assert trace.trajectory[1] == handout_cell("E3"), function.__name__


def test_example_3_ties_larger_g_8_smaller_g_23() -> None:
    start, target = handout_cell("A1"), handout_cell("E5")
    larger = run(repeated_forward_astar, EXAMPLE_3, start, target, "larger_g")
    smaller = run(repeated_forward_astar, EXAMPLE_3, start, target, "smaller_g")
    assert larger.expansions == 8
    assert smaller.expansions == 23
    assert len(larger.searches) == len(smaller.searches) == 1
    assert larger.moves == smaller.moves == 8
