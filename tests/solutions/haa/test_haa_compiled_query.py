"""The compiled HAA* and AA* queries give the readable queries' results exactly: cost, grid path,
abstract path and the expansions of each phase (the referee is the readable code, written apart)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from reference.solutions.compiled.haa import query as compiled
from reference.solutions.compiled.haa.abstraction import build_abstraction as build_compiled
from reference.solutions.haa import build_abstraction, query as readable
from reference.solutions.haa.capabilities import CAPABILITY_MASKS, capability_of
from reference.solutions.haa.multiterrain import with_terrain
from reference.world.maps import read_terrain
from reference.world.terrain import GROUND, OUT_OF_BOUNDS, TREES, WATER


def same(a, b) -> bool:
    return ((a.cost, a.path, a.abstract_path, a.insertion_expansions, a.abstract_expansions, a.refinement_expansions)
            == (b.cost, b.path, b.abstract_path, b.insertion_expansions, b.abstract_expansions, b.refinement_expansions))


@st.composite
def terrains(draw, min_side=4, max_side=24):
    height, width = draw(st.integers(min_side, max_side)), draw(st.integers(min_side, max_side))
    weights = draw(st.sampled_from([(6, 1, 1, 2), (3, 2, 2, 1), (8, 0, 1, 1), (5, 3, 0, 2), (9, 0, 0, 1)]))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    p = np.array(weights, dtype=float) / sum(weights)
    return rng.choice(np.array([GROUND, TREES, WATER, OUT_OF_BOUNDS], dtype=np.uint8), size=(height, width), p=p)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(terrain=terrains(), cluster_size=st.integers(2, 7), quality=st.sampled_from(["high", "low"]), data=st.data())
def test_compiled_queries_equal_readable_on_random_maps(terrain, cluster_size, quality, data):
    graph = build_compiled(terrain, cluster_size=cluster_size, quality=quality, max_size=3)
    height, width = terrain.shape
    cell = st.tuples(st.integers(0, height - 1), st.integers(0, width - 1))
    for _ in range(8):
        size = data.draw(st.integers(1, 3))
        capability = capability_of(data.draw(st.sampled_from(CAPABILITY_MASKS)))
        start, goal = data.draw(cell), data.draw(cell)
        assert same(readable.haa_star(graph, start, goal, size, capability),
                    compiled.haa_star(graph, start, goal, size, capability))
        a = readable.annotated_astar(terrain, start, goal, size, capability)
        b = compiled.annotated_astar(terrain, start, goal, size, capability)
        assert (a.cost, a.path, a.expanded) == (b.cost, b.path, b.expanded)


def test_compiled_query_refuses_sizes_the_graph_lacks():
    terrain = np.zeros((6, 6), dtype=np.uint8)
    graph = build_abstraction(terrain, cluster_size=3, max_size=2)
    with pytest.raises(ValueError, match="outside 1..2"):
        compiled.haa_star(graph, (0, 0), (5, 5), 3, {GROUND})


def test_octile_rank_table_orders_costs_by_value():
    # by hand for side 3 (row p, column q, value p + q√2): 0 < 1 < √2 < 2 < 1+√2 < 2√2
    assert compiled.octile_rank_table(3).tolist() == [[0, 2, 5], [1, 4, -1], [3, -1, -1]]
    table = compiled.octile_rank_table(40)
    pairs = [(p, q) for p in range(40) for q in range(40) if p + q < 40]
    by_value = sorted(pairs, key=lambda pq: pq[0] + pq[1] * 2 ** 0.5)
    assert [table[p] for p in by_value] == sorted(table[p] for p in by_value)
    assert len({table[p] for p in pairs}) == len(pairs)


def test_compiled_queries_equal_readable_on_a_baldurs_gate_map(shared_dir):
    maps = sorted((shared_dir / "movingai" / "bgmaps").glob("*.map"))
    if not maps:
        pytest.skip("no Baldur's Gate maps")
    terrain = with_terrain(read_terrain(maps[0]), maps[0].stem, seed=2008)
    rng = np.random.default_rng(7)
    for cluster_size, quality in ((10, "high"), (15, "low")):
        graph = build_compiled(terrain, cluster_size=cluster_size, quality=quality, max_size=3)
        for _ in range(15):
            mask = CAPABILITY_MASKS[rng.integers(7)]
            size = int(rng.integers(1, 4))
            cells = np.argwhere(graph.clearances[mask] >= size)
            start, goal = (tuple(int(v) for v in cells[i]) for i in rng.integers(len(cells), size=2))
            assert same(readable.haa_star(graph, start, goal, size, capability_of(mask)),
                        compiled.haa_star(graph, start, goal, size, capability_of(mask)))


def test_key_plan_keeps_the_order_within_63_bits_and_refuses_what_does_not_fit():
    scale, largest = compiled.key_plan(1000.0, ranks=50_000, stamps=300_000)
    assert scale >= 4 * largest >= 4 * 1000  # the gap between two costs below V is at least 1 / (2V)
    assert largest * scale * 2**16 * 2**19 <= 2**63  # value, rank and stamp digits side by side
    with pytest.raises(ValueError, match="do not fit"):
        compiled.key_plan(1e9, ranks=50_000, stamps=300_000)
    # An odd number of free bits: 50,000 ranks take 16 bits and 600,000 stamps 20, leaving 63 - 36 = 27.
    # Splitting them 2**12 (largest) and 2**15 (scale) keeps scale >= 4 · largest; 2**13 and 2**14 would not.
    scale, largest = compiled.key_plan(1000.0, ranks=50_000, stamps=600_000)
    assert (scale, largest) == (2.0**15, 2.0**12)
    assert scale >= 4 * largest and largest * scale * 2**16 * 2**20 <= 2**63
