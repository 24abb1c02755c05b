"""HAA*'s representational completeness and path validity on random multi-terrain maps (SPEC §14).

Referees: AA* (the world's A* on the clearance mask) decides whether a path exists and how long the
shortest one is; the refined HAA* path is checked cell by cell against the agent's footprint.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st, HealthCheck

from reference.solutions.compiled.haa.abstraction import build_abstraction as build_compiled, pair_costs_compiled
from reference.solutions.haa import annotated_astar, build_abstraction, haa_star, true_clearance
from reference.solutions.haa.abstraction import pair_costs_readable
from reference.solutions.haa.capabilities import capability_of
from reference.world.grid import add_costs, cost_value
from reference.world.terrain import CAPABILITIES, GROUND, OUT_OF_BOUNDS, TREES, WATER


@st.composite
def terrains(draw, min_side=6, max_side=14):
    height = draw(st.integers(min_side, max_side))
    width = draw(st.integers(min_side, max_side))
    weights = draw(st.sampled_from([(6, 1, 1, 2), (3, 2, 2, 1), (8, 0, 1, 1), (5, 3, 0, 2)]))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    probabilities = np.array(weights, dtype=float) / sum(weights)
    return rng.choice(np.array([GROUND, TREES, WATER, OUT_OF_BOUNDS], dtype=np.uint8), size=(height, width), p=probabilities)


def check_path(terrain, path, size, capability, cost):
    """Every cell of the path has the agent's whole square in the capability; moves are legal
    eight-connected moves without corner cutting; the moves add up to ``cost``."""
    open_cells = true_clearance(terrain, capability) >= size
    total = (0, 0)
    for cell in path:
        assert open_cells[cell]
        r, c = cell
        square = terrain[r:r + size, c:c + size]
        assert square.shape == (size, size) and np.isin(square, sorted(capability)).all()
    for (r0, c0), (r1, c1) in zip(path, path[1:]):
        dr, dc = r1 - r0, c1 - c0
        assert max(abs(dr), abs(dc)) == 1
        if dr and dc:
            assert open_cells[r1, c0] and open_cells[r0, c1]
            total = add_costs(total, (0, 1))
        else:
            total = add_costs(total, (1, 0))
    assert total == cost


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(terrain=terrains(), cluster_size=st.integers(2, 5), quality=st.sampled_from(["high", "low"]),
       data=st.data())
def test_haa_finds_a_path_exactly_when_aa_star_does(terrain, cluster_size, quality, data):
    graph = build_abstraction(terrain, cluster_size=cluster_size, quality=quality, max_size=3)
    height, width = terrain.shape
    for _ in range(6):
        size = data.draw(st.integers(1, 3))
        capability = data.draw(st.sampled_from(CAPABILITIES))
        start = (data.draw(st.integers(0, height - 1)), data.draw(st.integers(0, width - 1)))
        goal = (data.draw(st.integers(0, height - 1)), data.draw(st.integers(0, width - 1)))
        optimal = annotated_astar(terrain, start, goal, size, capability)
        found = haa_star(graph, start, goal, size, capability)
        assert found.found == optimal.found, (size, sorted(capability), start, goal)
        if found.found:
            assert cost_value(found.cost) >= cost_value(optimal.cost)
            assert found.path[0] == start and found.path[-1] == goal
            check_path(terrain, found.path, size, capability, found.cost)


@settings(max_examples=25, deadline=None)
@given(terrain=terrains(), data=st.data())
def test_high_quality_is_optimal_inside_one_cluster_with_no_exits(terrain, data):
    """With one cluster covering the map, HAA* is one in-cluster search: optimal."""
    graph = build_abstraction(terrain, cluster_size=max(terrain.shape), quality="high", max_size=2)
    height, width = terrain.shape
    start = (data.draw(st.integers(0, height - 1)), data.draw(st.integers(0, width - 1)))
    goal = (data.draw(st.integers(0, height - 1)), data.draw(st.integers(0, width - 1)))
    capability = data.draw(st.sampled_from(CAPABILITIES))
    optimal = annotated_astar(terrain, start, goal, 1, capability)
    found = haa_star(graph, start, goal, 1, capability)
    assert found.cost == optimal.cost


@settings(max_examples=30, deadline=None)
@given(terrain=terrains(3, 9), data=st.data())
def test_compiled_pair_costs_are_the_readable_ones(terrain, data):
    open_window = terrain == GROUND
    cells = [tuple(int(v) for v in cell) for cell in np.argwhere(np.ones_like(open_window))]
    picked = data.draw(st.lists(st.sampled_from(cells), min_size=2, max_size=8, unique=True))
    assert pair_costs_compiled(open_window, picked) == pair_costs_readable(open_window, picked)


@settings(max_examples=15, deadline=None)
@given(terrain=terrains(6, 24), cluster_size=st.integers(3, 8))
def test_compiled_builder_gives_the_readable_graph(terrain, cluster_size):
    for quality in ("high", "low"):
        readable = build_abstraction(terrain, cluster_size=cluster_size, quality=quality)
        compiled = build_compiled(terrain, cluster_size=cluster_size, quality=quality)
        assert readable.node_cells == compiled.node_cells
        assert readable.edges == compiled.edges


def test_compiled_distances_are_the_worlds_dijkstra():
    from reference.solutions.compiled.haa.abstraction import distances_compiled
    from reference.solutions.shortest_paths import dijkstra

    rng = np.random.default_rng(3)
    blocked = rng.random((15, 19)) < 0.3
    blocked[4, 5] = False
    a, b = distances_compiled(blocked, (4, 5))
    readable = dijkstra(blocked, (4, 5), connectivity=8)
    for r in range(15):
        for c in range(19):
            cost = readable.cost_to((r, c))
            assert (cost if cost is not None else (-1, -1)) == (a[r, c], b[r, c])


def _real_map_sweep(paths, queries: int, seed: int) -> None:
    """HAA* (both qualities) finds a path exactly when AA* does, on real maps made multi-terrain."""
    from reference.solutions.haa.multiterrain import with_terrain
    from reference.world.maps import read_terrain

    rng = np.random.default_rng(seed)
    for path in paths:
        terrain = with_terrain(read_terrain(path), path.stem, seed=seed)
        graphs = [build_compiled(terrain, cluster_size=10, quality=q) for q in ("high", "low")]
        height, width = terrain.shape
        free = np.argwhere(terrain != OUT_OF_BOUNDS)
        for _ in range(queries):
            size = int(rng.integers(1, 4))
            capability = CAPABILITIES[rng.integers(len(CAPABILITIES))]
            start, goal = (tuple(int(v) for v in free[i]) for i in rng.integers(len(free), size=2))
            blocked = true_clearance(terrain, capability) < size
            expected = None if blocked[start] or blocked[goal] else annotated_astar(terrain, start, goal, size, capability).cost
            for graph in graphs:
                found = haa_star(graph, start, goal, size, capability)
                assert found.found == (expected is not None), (path.stem, graph.quality, size, sorted(capability), start, goal)
        # Random cells are often not traversable for the agent: add valid problems (a path exists).
        from reference.experiments.haa import random_problems

        for problem in random_problems(terrain, queries, seed):
            for graph in graphs:
                found = haa_star(graph, problem.start, problem.goal, problem.size, capability_of(problem.mask))
                assert found.found and cost_value(found.cost) >= cost_value(problem.optimal)


def test_complete_on_real_maps(shared_dir):
    paths = sorted((shared_dir / "movingai" / "bgmaps").glob("*.map"))
    if not paths:
        pytest.skip("no Baldur's Gate maps")
    smallest = sorted(paths, key=lambda p: p.stat().st_size)[:2]
    _real_map_sweep(smallest, queries=40, seed=1)


@pytest.mark.slow
def test_complete_on_every_baldurs_gate_map(shared_dir):
    paths = sorted((shared_dir / "movingai" / "bgmaps").glob("*.map"))
    if not paths:
        pytest.skip("no Baldur's Gate maps")
    _real_map_sweep(paths, queries=30, seed=2)
