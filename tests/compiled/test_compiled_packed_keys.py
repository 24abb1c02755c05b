"""The edges of the packed keys of the compiled twins: D* Lite's (``compiled/realtime/``: the largest
and smallest keys, ties, stamps that run out, km rebased, the grid too large to pack) and the
known-map A*'s (``compiled/shortest_paths.py``: the plan, the largest key, ties, a search that
outgrows the plan).

Expected values are worked by hand in the comments from the layout
``key = (((k1 << (s + 1)) + k2) << s) + stamp`` (s: the stamp's bits) and
``key = (F * ranks + rank) * stamps + stamp``; the runs are held against the readable planners
(``reference/solutions/realtime/dstar_lite.py``, ``reference/solutions/shortest_paths.py``), whose
keys are Python tuples that never wrap.
"""

from __future__ import annotations

import numpy as np
import pytest

from reference.solutions.compiled.heap import heap_new, heap_peek_key, heap_pop, heap_push, heap_renumber_stamps
from reference.solutions.compiled.realtime import dstar_stamp_bits, pack_dstar_key, run_compiled, unpack_dstar_key
from reference.solutions.realtime.dstar_lite import DStarLite
from reference.world import FogOfWarWorld, Gridworld


def test_stamp_bits_follow_the_grid_size():
    # s = b + 1, b the bit length of the cell count: 30 cells = 0b11110 (b = 5) -> 6;
    # 301 * 301 = 90601 < 2**17 = 131072 (b = 17) -> 18; 2**18 - 1 (b = 18) -> 19, the last packed size;
    # 2**18 cells (b = 19) -> 0, three-part keys
    assert [dstar_stamp_bits(n) for n in (30, 301 * 301, 2**18 - 1, 2**18)] == [6, 18, 19, 0]


def test_largest_and_smallest_keys_fit_and_one_more_is_refused():
    s = 19  # the largest packed grid: k1 in [-2**23, 2**23) (61 - 2s = 23), k2 < 2**20, stamp < 2**19
    # all three digits at their largest: (((2**23 - 1) * 2**20 + 2**20 - 1) * 2**19 + 2**19 - 1
    #   = (2**43 - 1) * 2**19 + 2**19 - 1 = 2**62 - 1, below the int64 limit 2**63 - 1
    largest = pack_dstar_key(2**23 - 1, 2**20 - 1, 2**19 - 1, s)
    assert largest == 2**62 - 1
    assert unpack_dstar_key(largest, s) == (2**23 - 1, 2**20 - 1, 2**19 - 1)
    # the smallest: k1 = -2**23, the rest 0: -2**23 * 2**39 = -2**62
    smallest = pack_dstar_key(-(2**23), 0, 0, s)
    assert smallest == -(2**62)
    assert unpack_dstar_key(smallest, s) == (-(2**23), 0, 0)
    for k1, k2 in ((2**23, 0), (-(2**23) - 1, 0), (0, 2**20), (0, -1)):  # one past each end
        with pytest.raises(ValueError, match="outgrew its packed digits"):
            pack_dstar_key(k1, k2, 0, s)


def test_packed_keys_order_like_the_triples():
    s = 4  # k2 < 32, stamp < 16: key = (k1 * 32 + k2) * 16 + stamp
    triples = [(-1, 31, 15), (0, 0, 0), (5, 3, 7), (5, 3, 8), (5, 4, 0), (6, 0, 0)]
    keys = [pack_dstar_key(*triple, s) for triple in triples]
    # by hand: (-32 + 31) * 16 + 15 = -1, 0, (160 + 3) * 16 + 7 = 2615, 2616, (164) * 16 = 2624, 192 * 16 = 3072
    assert keys == [-1, 0, 2615, 2616, 2624, 3072]
    # ties on (k1, k2) are decided by the stamp, the first stamped first: 2615 < 2616


def test_renumbered_stamps_keep_the_pop_order():
    heap = heap_new(4)
    s = 3  # stamps 0..7
    for item, key in ((0, pack_dstar_key(2, 1, 6, s)), (1, pack_dstar_key(2, 1, 5, s)),
                      (2, pack_dstar_key(1, 0, 7, s)), (3, pack_dstar_key(2, 0, 4, s))):
        heap_push(heap, item, key)
    # the stamps 6, 5, 7, 4 become 2, 1, 3, 0 (their order); the next stamp to draw is 4
    assert heap_renumber_stamps(heap, s) == 4
    # pops by (k1, k2, stamp): item 2 (1, 0, 3), item 3 (2, 0, 0), item 1 (2, 1, 1), item 0 (2, 1, 2)
    seen = []
    while heap[3][0] > 0:
        seen.append((unpack_dstar_key(heap_peek_key(heap), s), int(heap_pop(heap))))
    assert seen == [((1, 0, 3), 2), ((2, 0, 0), 3), ((2, 1, 1), 1), ((2, 1, 2), 0)]


def readable_run_with_kms(grid, start, target):
    """The readable D* Lite's run, its last stamp and the largest km any episode planned with."""
    planner = DStarLite(FogOfWarWorld(grid, start), start, target)
    kms = []
    plan = planner.plan

    def recording_plan(agent):
        answer = plan(agent)
        kms.append(planner.km)
        return answer

    planner.plan = recording_plan
    run = planner.run()
    return run, planner.stamp, max(kms)


def test_a_run_whose_stamps_run_out_and_whose_km_is_rebased():
    # 5 x 6 = 30 cells: b = 5, s = 6, so 64 stamps, and km is rebased once it reaches 2**(b - 1) = 16.
    # The readable planner draws 108 stamps on this grid (the twin renumbers at least once) and
    # plans with km = 16 (the twin rebases): both edges are crossed, and the traces must not change.
    grid = Gridworld.from_strings(["......", ".@@...", ".@.@.@", "...@..", ".@@@.@"])
    start, target = (0, 2), (2, 2)
    expected, stamps, largest_km = readable_run_with_kms(grid, start, target)
    assert stamps >= 2**6 and largest_km >= 16
    twin = run_compiled(grid, start, target, "dstar_lite")
    assert twin.trace == expected.trace and twin.reached == expected.reached


def test_a_grid_too_large_to_pack_keeps_three_part_keys():
    # 2 x 131072 = 2**18 cells: dstar_stamp_bits gives 0, U is the heap of (k1, k2, stamp) triples
    width = 2**17
    grid = Gridworld.from_strings(["." * 30 + "@" + "." * (width - 31), "." * 20 + "@" + "." * (width - 21)])
    start, target = (0, 0), (1, 40)
    expected = DStarLite(FogOfWarWorld(grid, start), start, target).run()
    twin = run_compiled(grid, start, target, "dstar_lite")
    assert twin.trace == expected.trace and twin.reached


# -- the known-map A* (compiled/shortest_paths.py) ------------------------------------------------------

def test_a_star_key_plan_by_hand():
    from reference.solutions.compiled.shortest_paths import key_plan

    # 3 x 4, eight-connected: h = p + q·√2 with p + q < 4 (the longer side): 4 + 3 + 2 + 1 = 10 ranks;
    # stamps 8 * 12 + 2 = 98; F may take min(2**63 // 980, 2**48) = 2**48 values, so scale = 2**25 and
    # largest = 2**23 (scale = 4 * largest, largest * scale = 2**48)
    plan = key_plan(3, 4, 8)
    assert (plan.rank_count, plan.stamp_count, plan.scale, plan.largest) == (10, 98, 2.0**25, 2.0**23)
    # 512 x 512: 512 * 513 / 2 = 131,328 ranks, 8 * 262,144 + 2 = 2,097,154 stamps; 2**63 // (their product)
    # = 33,488,991 F values: scale 2**13 = 8192 leaves min(8192 / 4, 33,488,991 // 8192 = 4088) = 2048
    # (2**12: min(1024, 8176); 2**14: min(4096, 2044))
    plan = key_plan(512, 512, 8)
    assert (plan.rank_count, plan.stamp_count, plan.scale, plan.largest) == (131328, 2097154, 8192.0, 2048.0)
    # the largest key: F = 2048 * 8192 - 1, the last rank and stamp: (2**24 * 131,328 * 2,097,154) - 1 < 2**63
    assert 2**24 * 131328 * 2097154 - 1 < 2**63 - 1
    # four-connected 101 x 101: costs are integers (scale 1); h ranks 0 .. 200; 4 * 10,201 + 2 stamps
    plan = key_plan(101, 101, 4)
    assert (plan.rank_count, plan.stamp_count, plan.scale) == (201, 40806, 1.0)


def test_a_star_packed_keys_at_the_edge_and_on_ties():
    from reference.solutions.compiled.shortest_paths import _packed_key, key_plan, SQRT2

    plan = key_plan(512, 512, 8)
    args = (SQRT2, plan.ranks, plan.rank_count, plan.scale, plan.largest, plan.stamp_count)
    R, S = plan.rank_count, plan.stamp_count
    # g = (2047, 0) at the goal (h = 0, rank 0): f = 2047 < 2048 fits, F = 2047 * 8192
    assert _packed_key(2047, 0, 0, 0, 8, True, S - 1, *args) == (2047 * 8192 * R + 0) * S + S - 1
    # g = (2048, 0): f = 2048 is not below largest; the last stamp + 1 neither: both outgrow the plan
    assert _packed_key(2048, 0, 0, 0, 8, True, 0, *args) == -1
    assert _packed_key(0, 0, 0, 0, 8, True, S, *args) == -1
    # a tie on f = 2 + √2: A has g = (2, 0), h = (0, 1) (the goal one diagonal step away: d = (1, 1));
    # B has g = (1, 1), h = (1, 0) (d = (1, 0)). B's g (2.41) is the larger and its h (1 < 1.41) the smaller:
    # larger_g puts B first, smaller_g puts A first, whatever their stamps
    a_larger, b_larger = _packed_key(2, 0, 1, 1, 8, True, 1, *args), _packed_key(1, 1, 1, 0, 8, True, 2, *args)
    a_smaller, b_smaller = _packed_key(2, 0, 1, 1, 8, False, 1, *args), _packed_key(1, 1, 1, 0, 8, False, 2, *args)
    assert b_larger < a_larger and a_smaller < b_smaller
    # the same f and g: the stamp decides, the first stamped first
    assert _packed_key(2, 0, 1, 1, 8, True, 5, *args) < _packed_key(2, 0, 1, 1, 8, True, 6, *args)
    # f = 1 + √2 (2.414) below f = 3 (2 + 0√2 + 1): no rank or stamp can reorder different f
    assert _packed_key(0, 0, 1, 0, 8, True, S - 1, *args) < _packed_key(0, 0, 1, 1, 8, True, 0, *args) \
        < _packed_key(0, 0, 3, 0, 8, True, 0, *args)


def test_a_search_that_outgrows_the_plan_runs_on_three_part_keys():
    from reference.solutions.compiled.shortest_paths import astar as compiled_astar
    from reference.solutions.shortest_paths import astar as readable_astar

    # 512 x 512 (largest f 2048): a corridor zig-zagging through the first 21 rows (walls on the odd
    # rows, a gap at alternate ends), the rest blocked: the path is about 10 * 512 = 5,000 long
    blocked = np.ones((512, 512), dtype=bool)
    blocked[:21:2, :] = False
    for row in range(1, 21, 2):
        blocked[row, 511 if row % 4 == 1 else 0] = False
    start, goal = (0, 0), (20, 0)
    readable = readable_astar(blocked, start, goal, connectivity=8)
    assert readable.cost[0] + readable.cost[1] * 2**0.5 > 2048
    assert compiled_astar(blocked, start, goal, connectivity=8) == readable
