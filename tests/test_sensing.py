"""The fog-of-war world: sensing, and refusing what a real agent could not do."""

from __future__ import annotations

import pytest

from reference.world.grid import Gridworld
from reference.world.sensing import FogOfWarWorld, IllegalMoveError, Knowledge

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

