"""Eight-connected moves, corner cutting and exact costs (SPEC §12); four-connected stays as it was."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from reference.world.grid import (
    DIRECTIONS, MOVES, MOVES_8, SQRT2, Gridworld, add_costs, cost_value, heuristic_cost, octile,
    octile_cost, successors,
)


def exact_sign(a: int, b: int) -> int:
    """The sign of a + b·√2, in integers only (the referee for the double ordering)."""
    if a >= 0 and b >= 0:
        return 0 if a == b == 0 else 1
    if a <= 0 and b <= 0:
        return -1
    # opposite signs: the larger of a² and 2b² decides
    return (1 if a > 0 else -1) if a * a > 2 * b * b else (1 if b > 0 else -1)


def test_the_eight_moves_run_clockwise_from_east_and_contain_the_four():
    # E, SE, S, SW, W, NW, N, NE with row down and column right
    assert MOVES_8 == ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))
    assert DIRECTIONS == ((0, 1), (1, 0), (0, -1), (-1, 0)) == MOVES[4]
    assert MOVES[8] == MOVES_8


def test_successors_of_a_free_centre_cell_in_order_with_costs():
    grid = Gridworld(3, 3)
    assert grid.successors((1, 1), 8) == [
        ((1, 2), (1, 0)), ((2, 2), (0, 1)), ((2, 1), (1, 0)), ((2, 0), (0, 1)),
        ((1, 0), (1, 0)), ((0, 0), (0, 1)), ((0, 1), (1, 0)), ((0, 2), (0, 1)),
    ]
    assert grid.successors((1, 1)) == [((1, 2), (1, 0)), ((2, 1), (1, 0)), ((1, 0), (1, 0)), ((0, 1), (1, 0))]


@pytest.mark.parametrize("diagonal", [(1, 1), (1, -1), (-1, -1), (-1, 1)])
def test_no_corner_cutting(diagonal):
    d_row, d_col = diagonal
    centre, target = (1, 1), (1 + d_row, 1 + d_col)
    for side in ((1 + d_row, 1), (1, 1 + d_col)):  # either cell the move passes between
        grid = Gridworld(3, 3)
        grid.set_blocked(side)
        cells = [cell for cell, _ in grid.successors(centre, 8)]
        assert target not in cells
        assert side not in cells
        # gone: the blocked side and the two diagonals passing it (e.g. a blocked S takes SE and SW)
        assert len(cells) == 5
    grid = Gridworld(3, 3)
    grid.set_blocked(target)
    assert target not in [cell for cell, _ in grid.successors(centre, 8)]


def test_corner_cells_have_only_the_moves_inside_the_grid():
    grid = Gridworld(2, 2)
    assert grid.successors((1, 1), 8) == [((1, 0), (1, 0)), ((0, 0), (0, 1)), ((0, 1), (1, 0))]


def test_moves_are_symmetric_on_random_grids():
    rng = np.random.default_rng(7)
    for _ in range(20):
        blocked = rng.random((7, 9)) < 0.3
        for connectivity in (4, 8):
            for row in range(7):
                for col in range(9):
                    if blocked[row, col]:
                        continue
                    for cell, cost in successors(blocked, (row, col), connectivity):
                        assert ((row, col), cost) in successors(blocked, cell, connectivity)


def test_four_connected_successors_are_the_unblocked_neighbours():
    rng = np.random.default_rng(3)
    grid = Gridworld(6, 6, rng.random((6, 6)) < 0.3)
    for cell in grid.cells():
        expected = [n for n in grid.neighbours(cell) if not grid.is_blocked(n)]
        assert [c for c, cost in grid.successors(cell) if cost == (1, 0)] == expected


def test_bad_connectivity_is_refused():
    with pytest.raises(ValueError, match="connectivity must be 4 or 8"):
        successors(np.zeros((2, 2), bool), (0, 0), 6)


def test_octile_distance_by_hand():
    # (0,0) -> (2,5): two diagonal moves cover the rows, three straight moves the rest
    assert octile_cost((0, 0), (2, 5)) == (3, 2)
    assert octile((0, 0), (2, 5)) == 3 + 2 * SQRT2
    assert octile_cost((4, 4), (4, 4)) == (0, 0)
    assert octile_cost((7, 1), (1, 7)) == (0, 6)
    assert heuristic_cost((0, 0), (2, 5), 4) == (7, 0)
    assert heuristic_cost((0, 0), (2, 5), 8) == (3, 2)


def test_equal_pairs_give_identical_doubles_however_the_path_was_summed():
    # adding the float √2 step by step drifts; summing the pair and converting once does not
    stepwise = 0.0
    pair = (0, 0)
    for step in range(1000):
        move = (0, 1) if step % 3 else (1, 0)
        stepwise += cost_value(move)
        pair = add_costs(pair, move)
    assert cost_value(pair) == cost_value((334, 666))
    assert stepwise != cost_value(pair)  # the drift the pair representation avoids


def test_doubles_order_distinct_pairs_exactly_below_a_million_cells_a_side():
    # The hardest pairs are near-ties: b√2 close to a, i.e. Pell convergents p/q of √2.
    pell = [(1, 1), (3, 2)]
    while pell[-1][1] < 2_000_000:
        p, q = pell[-1]
        pell.append((p + 2 * q, p + q))
    cases = []
    for p, q in pell:
        for dp in (-1, 0, 1):
            cases.append(((p + dp, 0), (0, q)))          # a vs b√2
            cases.append(((p + dp, 5), (0, q + 5)))      # shifted by the same costs on both sides
    rng = random.Random(11)
    for _ in range(20000):
        cases.append(((rng.randrange(2_000_000), rng.randrange(1_000_000)),
                      (rng.randrange(2_000_000), rng.randrange(1_000_000))))
    for first, second in cases:
        sign = exact_sign(first[0] - second[0], first[1] - second[1])
        value_sign = (cost_value(first) > cost_value(second)) - (cost_value(first) < cost_value(second))
        assert value_sign == sign, (first, second)


def test_the_single_precision_quirk_of_the_benchmark():
    # SPEC §12: 96 diagonal steps; √2 in single precision prints x.764, the exact value x.7645020
    single = float(np.float32(96) * np.float32(math.sqrt(2)))
    assert f"{cost_value((0, 96)):.7f}".endswith(".7645020")
    assert f"{single:.3f}".endswith(".764")
