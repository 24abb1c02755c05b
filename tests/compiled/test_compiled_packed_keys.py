"""The edges of D* Lite's packed keys in the compiled twin (``compiled/realtime.py``): the largest
and smallest keys, ties, stamps that run out, km rebased, and the grid too large to pack.

Expected values are worked by hand in the comments from the layout
``key = (((k1 << (s + 1)) + k2) << s) + stamp`` (s: the stamp's bits); the runs are held against the
readable D* Lite (``reference/solutions/realtime/dstar_lite.py``), whose stamps and km are plain
Python integers that never wrap.
"""

from __future__ import annotations

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
    twin = run_compiled("dstar_lite", grid, start, target)
    assert twin.trace == expected.trace and twin.reached == expected.reached


def test_a_grid_too_large_to_pack_keeps_three_part_keys():
    # 2 x 131072 = 2**18 cells: dstar_stamp_bits gives 0, U is the heap of (k1, k2, stamp) triples
    width = 2**17
    grid = Gridworld.from_strings(["." * 30 + "@" + "." * (width - 31), "." * 20 + "@" + "." * (width - 21)])
    start, target = (0, 0), (1, 40)
    expected = DStarLite(FogOfWarWorld(grid, start), start, target).run()
    twin = run_compiled("dstar_lite", grid, start, target)
    assert twin.trace == expected.trace and twin.reached
