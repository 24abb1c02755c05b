"""General LRTA* (Bulitko et al. 2007, Figure 1): depth 1 is Korf's LRTA*, and hand-worked searches."""

from __future__ import annotations

import numpy as np
import pytest

from reference.world.grid import MOVES_8, cost_value, octile_cost
from reference.solutions.dynamic.lrta import (
    Neighbours, breadth_first_layers, choices_by_depth, fixed_depth, general_lrta,
)


def korf_lrta(blocked: np.ndarray, start, goal, max_actions=10_000):
    """Korf's (1990) LRTA*, written independently: look at the eight moves, take the cheapest
    c + h (first in E, SE, S, ..., NE order on ties), set h(s) to it, move. Costs are counted as
    (straight, diagonal) integers; no corner cutting, checked here from the moves themselves."""
    height, width = blocked.shape
    learned = {}

    def h(cell):
        return learned.get(cell, octile_cost(cell, goal))

    def free(r, c):
        return 0 <= r < height and 0 <= c < width and not blocked[r, c]

    state, path, straight, diagonal = start, [start], 0, 0
    while state != goal and len(path) <= max_actions:
        best = None
        for dr, dc in MOVES_8:
            r, c = state[0] + dr, state[1] + dc
            if not free(r, c) or (dr and dc and not (free(r, state[1]) and free(state[0], c))):
                continue
            move = (0, 1) if dr and dc else (1, 0)
            value = (move[0] + h((r, c))[0], move[1] + h((r, c))[1])
            if best is None or cost_value(value) < cost_value(best[0]):
                best = (value, (r, c), move)
        if best is None:
            break
        if cost_value(best[0]) > cost_value(h(state)):
            learned[state] = best[0]
        state = best[1]
        straight, diagonal = straight + best[2][0], diagonal + best[2][1]
        path.append(state)
    return path, (straight, diagonal)


def random_map(seed: int, size: int = 14, density: float = 0.3):
    rng = np.random.default_rng(seed)
    blocked = rng.random((size, size)) < density
    free = list(zip(*np.nonzero(~blocked)))
    start, goal = (tuple(int(v) for v in free[i]) for i in rng.choice(len(free), 2, replace=False))
    return blocked, start, goal


@pytest.mark.parametrize("seed", range(12))
def test_depth_one_with_the_global_goal_is_korfs_lrta(seed):
    blocked, start, goal = random_map(seed)
    expected_path, expected_cost = korf_lrta(blocked, start, goal, max_actions=3000)
    run = general_lrta(blocked, start, goal, fixed_depth(1), max_actions=3000)
    assert run.path == expected_path
    assert run.cost == expected_cost
    assert run.reached == (expected_path[-1] == goal)
    assert set(run.expansions) <= {1}  # depth 1 expands the current state only


def test_a_breadth_first_layer_holds_the_states_exactly_k_actions_away():
    # Open 5 x 5 grid, root in the middle: layer 1 = the 8 neighbours, layer 2 = the 16 cells of
    # the outer ring (Chebyshev distance 2). A depth-2 search expands 1 + 8 = 9 states.
    look = breadth_first_layers(Neighbours(np.zeros((5, 5), dtype=bool)), (2, 2), (0, 0), 2)
    assert [len(layer) for layer in look.layers] == [1, 8, 16]
    assert look.expansions(2) == 9 and look.goal_layer == 2
    # g to a corner two diagonals away is 2√2, to (0, 2) two straight moves.
    assert look.g[(0, 0)] == (0, 2) and look.g[(0, 2)] == (2, 0)


def test_the_goal_met_before_the_depth_is_a_frontier_state_and_is_not_expanded():
    # Goal one step east of the root; a depth-3 search meets it in layer 1 and takes it.
    neighbours = Neighbours(np.zeros((7, 7), dtype=bool))
    look = breadth_first_layers(neighbours, (3, 3), (3, 4), 3)
    assert look.goal_layer == 1
    choice = choices_by_depth(look, lambda cell: octile_cost(cell, (3, 4)), [3])[3]
    assert choice.target == (3, 4) and choice.step == (3, 4)
    # A depth-3 search expands layers 0..2 = 1 + 8 + 16 cells, less the goal (in layer 1): 24.
    assert choice.expansions == 24


def test_path_max_keeps_f_from_falling_along_a_branch():
    # Corridor  S . X . G  with X blocked: the only way round is the row below. From S=(0,0) the
    # depth-1 frontier is (0,1) and (1,0), (1,1). f((0,1)) = 1 + h((0,1)) = 1 + 3 = 4; after the
    # agent learns h, path-max guarantees no frontier f is below the root's own h.
    blocked = np.array([[0, 0, 1, 0, 0], [0, 0, 0, 0, 0]], dtype=bool)
    neighbours = Neighbours(blocked)
    look = breadth_first_layers(neighbours, (0, 0), (0, 4), 2)
    learned = {(0, 0): (9, 0)}  # a raised h at the root, higher than any frontier g + h
    choice = choices_by_depth(look, lambda cell: learned.get(cell, octile_cost(cell, (0, 4))), [1, 2])
    assert choice[1].f == (9, 0) and choice[2].f == (9, 0)


def test_on_an_open_map_every_depth_is_optimal():
    # Octile distance is exact without obstacles, so LRTA* walks an optimal path at any depth.
    blocked = np.zeros((9, 12), dtype=bool)
    for depth in (1, 2, 5):
        run = general_lrta(blocked, (8, 0), (1, 11), fixed_depth(depth))
        assert run.reached and run.cost == octile_cost((8, 0), (1, 11))
