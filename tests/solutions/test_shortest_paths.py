"""A* and Dijkstra on known maps, four- and eight-connected, exact costs (SPEC §5, §12).

Referees: a hand-worked search; an A* written differently here (``heapq`` with lazy deletion and
keys compared in integers only, no floating point); SciPy's Dijkstra on a graph built with array
shifts; the kit's breadth-first distances for four-connected grids.
"""

from __future__ import annotations

import functools
import heapq

import numpy as np
import pytest
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import dijkstra as scipy_dijkstra

from reference.solutions.shortest_paths import astar, dijkstra
from reference.world.grid import Gridworld, add_costs, cost_value, distances_from, octile_cost, successors

from tests.world.test_grid8 import exact_sign


def test_astar_by_hand_eight_connected():
    #      col 0 1 2 3
    # row 0    . . . G      start S = (2, 0), goal G = (0, 3), h octile, ties to larger g
    # row 1    . @ . .
    # row 2    S . . .
    # expand (2,0), h = 1+2√2: E (2,1) g=1, h=2√2 -> f = 1+2√2 = 3.83;
    #        N (1,0) g=1, h=2+√2 -> f = 3+√2 = 4.41; NE (1,1) is blocked.
    # expand (2,1) f=3.83: E (2,2) g=2, h=(1,1) -> f=3+√2; NW (1,0) and NE (1,2) cut the corner of (1,1).
    # OPEN: (1,0) f=3+√2 g=1, (2,2) f=3+√2 g=2 -> the larger g: expand (2,2):
    #        E (2,3) f=5; N (1,2) g=3, h=√2, f=3+√2; NE (1,3) g=2+√2, h=1, f=3+√2.
    # expand (1,3) (f ties, the largest g = 2+√2): N (0,3) = goal, g = 3+√2 = min f: stop.
    grid = Gridworld.from_strings(["....", ".@..", "...."])
    result = astar(grid, (2, 0), (0, 3), connectivity=8)
    assert result.expanded == [(2, 0), (2, 1), (2, 2), (1, 3)]
    assert result.cost == (3, 1)
    assert result.path == [(2, 0), (2, 1), (2, 2), (1, 3), (0, 3)]
    # smaller g: among f = 3+√2 take (1,0) (g=1) first, then (2,2) (g=2), then (1,2) (g=3) ...
    smaller = astar(grid, (2, 0), (0, 3), connectivity=8, tie_break="smaller_g")
    assert smaller.expanded[:4] == [(2, 0), (2, 1), (1, 0), (2, 2)]
    assert smaller.cost == (3, 1)


def test_start_equals_goal_and_unreachable_goal():
    grid = Gridworld.from_strings([".@.", ".@."])
    same = astar(grid, (0, 0), (0, 0), connectivity=8)
    assert (same.cost, same.path, same.expansions) == ((0, 0), [(0, 0)], 0)
    none = astar(grid, (0, 0), (1, 2), connectivity=8)
    assert none.cost is None and none.path == [] and none.expansions == 2 and none.length == float("inf")
    with pytest.raises(ValueError, match="blocked"):
        astar(grid, (0, 1), (0, 0), connectivity=8)
    with pytest.raises(ValueError, match="connectivity"):
        astar(grid, (0, 0), (0, 0), connectivity=6)


# -- a second A*, written differently --------------------------------------------------------------


@functools.total_ordering
class ExactKey:
    """(f, tie, stamp) with f and g compared as a + b·√2 in integers only."""

    def __init__(self, f, g, stamp, larger_g):
        self.f, self.g, self.stamp, self.larger_g = f, g, stamp, larger_g

    def _parts(self, other):
        f_sign = exact_sign(self.f[0] - other.f[0], self.f[1] - other.f[1])
        g_sign = exact_sign(self.g[0] - other.g[0], self.g[1] - other.g[1])
        return f_sign, (-g_sign if self.larger_g else g_sign)

    def __eq__(self, other):
        return self._parts(other) == (0, 0) and self.stamp == other.stamp

    def __lt__(self, other):
        f_sign, tie_sign = self._parts(other)
        if f_sign:
            return f_sign < 0
        if tie_sign:
            return tie_sign < 0
        return self.stamp < other.stamp


def referee_astar(blocked, start, goal, connectivity, larger_g):
    def h(cell):
        if connectivity == 4:
            return (abs(cell[0] - goal[0]) + abs(cell[1] - goal[1]), 0)
        return octile_cost(cell, goal)

    def less(x, y):
        return exact_sign(x[0] - y[0], x[1] - y[1]) < 0

    g = {start: (0, 0)}
    heap = [(ExactKey(h(start), (0, 0), 0, larger_g), start)]
    current = {start: 0}  # the stamp of a cell's live heap entry
    stamp, expanded = 0, []
    while heap:
        key, cell = heap[0]
        if current.get(cell) != key.stamp:
            heapq.heappop(heap)  # a stale entry
            continue
        if goal in g and not less(key.f, g[goal]):
            break
        heapq.heappop(heap)
        del current[cell]
        expanded.append(cell)
        for nxt, step in successors(blocked, cell, connectivity):
            new = add_costs(g[cell], step)
            if nxt not in g or less(new, g[nxt]):
                g[nxt] = new
                stamp += 1
                current[nxt] = stamp
                heapq.heappush(heap, (ExactKey(add_costs(new, h(nxt)), new, stamp, larger_g), nxt))
    return g.get(goal), expanded


def scipy_lengths(blocked, source, connectivity):
    """Every cell's shortest length from ``source`` by SciPy, the graph built by shifting arrays."""
    height, width = blocked.shape
    index = np.arange(height * width).reshape(height, width)
    rows, cols, weights = [], [], []
    moves = [(0, 1), (1, 0), (0, -1), (-1, 0)] + ([(1, 1), (1, -1), (-1, 1), (-1, -1)] if connectivity == 8 else [])
    free = ~blocked
    for d_row, d_col in moves:
        # cells (r, c) with (r+dr, c+dc) inside: slice both arrays
        src = (slice(max(0, -d_row), height - max(0, d_row)), slice(max(0, -d_col), width - max(0, d_col)))
        dst = (slice(max(0, d_row), height + min(0, d_row)), slice(max(0, d_col), width + min(0, d_col)))
        ok = free[src] & free[dst]
        if d_row and d_col:  # no corner cutting: the two cells passed between are free too
            side_row = (dst[0], src[1])  # (r+dr, c)
            side_col = (src[0], dst[1])  # (r, c+dc)
            ok &= free[side_row] & free[side_col]
        rows.append(index[src][ok])
        cols.append(index[dst][ok])
        weights.append(np.full(ok.sum(), np.sqrt(2) if d_row and d_col else 1.0))
    graph = coo_matrix((np.concatenate(weights), (np.concatenate(rows), np.concatenate(cols))),
                       shape=(height * width,) * 2).tocsr()
    return scipy_dijkstra(graph, indices=source[0] * width + source[1]).reshape(height, width)


def random_problem(rng, height, width, density):
    blocked = rng.random((height, width)) < density
    free = np.argwhere(~blocked)
    start, goal = (tuple(int(v) for v in free[i]) for i in rng.choice(len(free), 2))
    return blocked, start, goal


@pytest.mark.parametrize("connectivity", [4, 8])
@pytest.mark.parametrize("tie_break", ["larger_g", "smaller_g"])
def test_astar_expands_what_the_exact_referee_expands(connectivity, tie_break):
    rng = np.random.default_rng(5 + connectivity)
    for _ in range(40):
        blocked, start, goal = random_problem(rng, int(rng.integers(3, 16)), int(rng.integers(3, 16)), rng.uniform(0, 0.4))
        result = astar(blocked, start, goal, connectivity=connectivity, tie_break=tie_break)
        cost, expanded = referee_astar(blocked, start, goal, connectivity, tie_break == "larger_g")
        assert result.cost == cost
        assert result.expanded == expanded


@pytest.mark.parametrize("connectivity", [4, 8])
def test_costs_agree_with_scipy_and_paths_are_real(connectivity):
    rng = np.random.default_rng(21 + connectivity)
    for _ in range(25):
        blocked, start, goal = random_problem(rng, 20, 24, rng.uniform(0.1, 0.4))
        lengths = scipy_lengths(blocked, start, connectivity)
        result = astar(blocked, start, goal, connectivity=connectivity)
        assert result.length == pytest.approx(lengths[goal], abs=1e-9) if np.isfinite(lengths[goal]) else not result.found
        if result.found:
            total = (0, 0)
            for here, there in zip(result.path, result.path[1:]):
                steps = dict(successors(blocked, here, connectivity))
                assert there in steps
                total = add_costs(total, steps[there])
            assert total == result.cost and result.path[0] == start and result.path[-1] == goal
        distances = dijkstra(blocked, start, connectivity=connectivity)
        settled = distances.length_array(blocked.shape)
        assert np.allclose(settled, lengths, atol=1e-9, rtol=0)
        if result.found:
            assert distances.cost_to(goal) == result.cost


def test_four_connected_lengths_are_the_breadth_first_distances():
    rng = np.random.default_rng(2)
    blocked, start, _ = random_problem(rng, 15, 15, 0.3)
    bfs = distances_from(Gridworld(15, 15, blocked), start)
    distances = dijkstra(blocked, start, connectivity=4)
    assert {cell: cost[0] for cell, cost in distances.cost.items()} == bfs
    assert all(cost[1] == 0 for cost in distances.cost.values())


def test_dijkstra_order_paths_and_early_stop():
    grid = Gridworld.from_strings(["...", ".@.", "..."])
    distances = dijkstra(grid, (0, 0), connectivity=8)
    # from (0,0): E (0,1) and S (1,0) at 1; SE is blocked; then (0,2), (2,0) at 2;
    # (1,2) and (2,1) at 3 (corner cutting around the centre is forbidden); (2,2) at 4
    assert distances.expanded == [(0, 0), (0, 1), (1, 0), (0, 2), (2, 0), (1, 2), (2, 1), (2, 2)]
    assert distances.cost_to((2, 2)) == (4, 0)
    assert distances.path_to((2, 2)) == [(0, 0), (0, 1), (0, 2), (1, 2), (2, 2)]
    assert distances.cost_to((1, 1)) is None and distances.path_to((1, 1)) == []
    costs = [cost_value(distances.cost[cell]) for cell in distances.expanded]
    assert costs == sorted(costs)
    early = dijkstra(grid, (0, 0), connectivity=8, goal=(0, 2))
    assert early.expanded[-1] == (0, 2) and (2, 2) not in early


# -- the compiled twin (SPEC §16) --------------------------------------------------------------------


@pytest.mark.parametrize("connectivity", [4, 8])
@pytest.mark.parametrize("tie_break", ["larger_g", "smaller_g"])
def test_the_compiled_twin_expands_the_same_cells_in_the_same_order(connectivity, tie_break):
    from reference.solutions.compiled.shortest_paths import astar as compiled_astar

    rng = np.random.default_rng(99 + connectivity)
    for _ in range(60):
        blocked, start, goal = random_problem(rng, int(rng.integers(1, 30)), int(rng.integers(2, 30)), rng.uniform(0, 0.45))
        readable = astar(blocked, start, goal, connectivity=connectivity, tie_break=tie_break)
        compiled = compiled_astar(blocked, start, goal, connectivity=connectivity, tie_break=tie_break)
        assert compiled == readable


def test_the_compiled_twin_on_benchmark_maps(shared_dir):
    from reference.solutions.compiled.shortest_paths import astar as compiled_astar
    from reference.world.maps import read_scen, read_scen_terrains
    from reference.world.terrain import passable, scenario_capability

    for name in ("dao/den312d.map.scen", "wc3maps512/battleground.map.scen"):
        scen = shared_dir / "movingai" / name
        scenarios = read_scen(scen)
        terrains = read_scen_terrains(scen, scenarios)
        for scenario in scenarios[::200]:
            terrain = terrains[scenario.map]
            blocked = ~passable(terrain, scenario_capability(terrain, scenario.start))
            if blocked[scenario.start] or blocked[scenario.target]:
                continue  # Warcraft III lines that do not fit the map (SPEC §12)
            readable = astar(blocked, scenario.start, scenario.target, connectivity=8)
            compiled = compiled_astar(blocked, scenario.start, scenario.target, connectivity=8)
            assert compiled == readable
