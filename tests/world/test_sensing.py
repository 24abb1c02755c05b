"""The fog-of-war world: sensing, and refusing what a real agent could not do."""

from __future__ import annotations

import pytest

from reference.world.grid import Gridworld
from reference.world.sensing import AgentBody, FogOfWarWorld, IllegalMoveError, Knowledge

GRID = Gridworld.from_strings([
    ".@.",
    "...",
    "@..",
])


def test_sense_returns_blocked_neighbours_in_east_south_west_north_order() -> None:
    world = FogOfWarWorld(GRID, (1, 0))
    assert world.sense((1, 0)) == [(2, 0)]
    world = FogOfWarWorld(GRID, (0, 0))
    assert world.sense((0, 0)) == [(0, 1)]
    world = FogOfWarWorld(GRID, (1, 1))
    assert world.sense((1, 1)) == [(0, 1)]


@pytest.mark.parametrize("moves,message", [
    ([(0, 0)], "the agent starts in (1, 0), but sensed first from (0, 0)"),
    ([(1, 0), (1, 2)], "jumped from (1, 0) to (1, 2)"),
    ([(1, 0), (2, 0)], "into the blocked cell (2, 0)"),
    ([(1, 0), (1, -1)], "outside the grid"),
    ([(1, 0), "here"], "needs a (row, col) cell"),
])
def test_illegal_moves_are_refused(moves, message: str) -> None:
    world = FogOfWarWorld(GRID, (1, 0))
    with pytest.raises(IllegalMoveError, match=message.replace("(", r"\(").replace(")", r"\)")):
        for cell in moves:
            world.sense(cell)


def test_visited_records_moves_not_repeated_senses() -> None:
    world = FogOfWarWorld(GRID, (1, 0))
    for cell in [(1, 0), (1, 0), (1, 1), (1, 2), (1, 2)]:
        world.sense(cell)
    assert world.visited == [(1, 0), (1, 1), (1, 2)] and world.sense_count == 5


def test_start_must_be_an_unblocked_cell() -> None:
    with pytest.raises(ValueError, match="blocked"):
        FogOfWarWorld(GRID, (0, 1))
    with pytest.raises(ValueError, match="outside"):
        FogOfWarWorld(GRID, (3, 0))


def test_knowledge_snapshot_and_views() -> None:
    knowledge = Knowledge(3, 3)
    knowledge.observe([(0, 1)])
    snapshot = knowledge.copy()
    knowledge.observe([(2, 0)])
    assert snapshot.known_blocked() == [(0, 1)]
    assert knowledge.known_blocked() == [(0, 1), (2, 0)]
    assert knowledge.as_grid() == GRID



# -- the agent's body: SPEC §4 (look around) and §6 (the walking rule), shared by every planner -----

CORRIDOR = ["....", "..@.", "...."]


def test_the_body_looks_around_its_start_and_after_every_move() -> None:
    world = FogOfWarWorld(Gridworld.from_strings(CORRIDOR), (0, 0))
    body = AgentBody(world, (0, 0))
    assert world.visited == [(0, 0)] and body.knowledge.known_blocked() == []
    assert body.walk([(0, 0), (0, 1), (0, 2)]) == [(0, 1), (0, 2)]
    # From (0, 2) the agent sees (1, 2) below it; it was first seen there, after the second move.
    assert body.take_newly_blocked() == [(1, 2)] and body.take_newly_blocked() == []
    assert body.trajectory == world.visited == [(0, 0), (0, 1), (0, 2)]


def test_the_body_stops_when_a_cell_ahead_on_its_path_is_seen_blocked() -> None:
    # Worked by hand: the path runs (0, 1) -> (1, 1) -> (1, 2) -> (1, 3). Standing in (1, 1) after the
    # first move, the agent sees (1, 2) blocked: it lies ahead on the path, so the agent stops there.
    body = AgentBody(FogOfWarWorld(Gridworld.from_strings(CORRIDOR), (0, 1)), (0, 1))
    assert body.walk([(0, 1), (1, 1), (1, 2), (1, 3)]) == [(1, 1)]
    assert body.cell == (1, 1)


def test_the_body_walks_on_when_a_newly_seen_blocked_cell_is_not_ahead() -> None:
    # From (0, 1) east along row 0: at (0, 2) the agent sees (1, 2) blocked, which is not on its path.
    body = AgentBody(FogOfWarWorld(Gridworld.from_strings(CORRIDOR), (0, 1)), (0, 1))
    assert body.walk([(0, 1), (0, 2), (0, 3)]) == [(0, 2), (0, 3)]


def test_the_body_names_the_path_step_the_world_refuses() -> None:
    body = AgentBody(FogOfWarWorld(Gridworld.from_strings(CORRIDOR), (0, 0)), (0, 0))
    with pytest.raises(IllegalMoveError, match="path step 1: the agent jumped"):
        body.walk([(0, 0), (0, 2)])


def test_a_replay_refuses_a_path_that_does_not_start_where_the_agent_stands() -> None:
    from reference.world.replay import AgentReplay, ReplayError

    with pytest.raises(ReplayError, match="starts at"):
        AgentReplay(Gridworld.from_strings(CORRIDOR), (0, 0)).walk([(0, 1), (0, 2)])


def test_successors_come_east_south_west_north_without_known_blocked_cells() -> None:
    knowledge = Knowledge(3, 3)
    assert knowledge.successors((1, 1)) == [(1, 2), (2, 1), (1, 0), (0, 1)]
    knowledge.observe([(2, 1)])
    assert knowledge.successors((1, 1)) == [(1, 2), (1, 0), (0, 1)]
    assert knowledge.successors((0, 0)) == [(0, 1), (1, 0)]
    assert knowledge.blocked_count == 1 and knowledge.copy().blocked_count == 1
