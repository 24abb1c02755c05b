"""The compiled bucket queue against a plain model (a dict of live keys, min by (level, tie, order)).

The model is the SPEC's key spelled out: an item's key is (level, tie, the number of its insertion),
and the queue must pop the item with the smallest one, exactly as the heap pops the smallest packed
key ``(f * n + tie) * (4n + 2) + stamp``.
"""

from __future__ import annotations

import itertools

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from reference.solutions.compiled import buckets as layout
from reference.solutions.compiled.buckets import (
    buckets_clear, buckets_len, buckets_new, buckets_peek_level, buckets_pop, buckets_push, buckets_remove,
    buckets_update,
)

ITEM_COUNT, LEVEL_COUNT = 24, 6
ITEMS = st.integers(min_value=0, max_value=ITEM_COUNT - 1)
LEVELS = st.integers(min_value=0, max_value=LEVEL_COUNT - 1)
TIES = st.integers(min_value=0, max_value=7)  # few ties: many buckets hold several items


class BucketsAgainstModel(RuleBasedStateMachine):
    """Every operation does to the queue what it does to the model; pops must agree item for item."""

    def __init__(self) -> None:
        super().__init__()
        self.queue = buckets_new(ITEM_COUNT, LEVEL_COUNT)
        self.live: dict[int, tuple[int, int, int]] = {}  # item -> (level, tie, insertion number)
        self.insertions = itertools.count()

    @rule(item=ITEMS, level=LEVELS, tie=TIES)
    def push_or_update(self, item: int, level: int, tie: int) -> None:
        if item in self.live:
            buckets_update(self.queue, item, level, tie)
        else:
            buckets_push(self.queue, item, level, tie)
        self.live[item] = (level, tie, next(self.insertions))

    @precondition(lambda self: self.live)
    @rule()
    def pop(self) -> None:
        item = min(self.live, key=self.live.get)
        assert buckets_peek_level(self.queue) == self.live[item][0]
        assert buckets_pop(self.queue) == item
        del self.live[item]

    @precondition(lambda self: self.live)
    @rule(data=st.data())
    def remove(self, data) -> None:
        item = data.draw(st.sampled_from(sorted(self.live)))
        buckets_remove(self.queue, item)
        del self.live[item]

    @rule()
    def clear_sometimes(self) -> None:
        if len(self.live) > ITEM_COUNT // 2:
            buckets_clear(self.queue)
            self.live.clear()

    @invariant()
    def same_size(self) -> None:
        assert buckets_len(self.queue) == len(self.live)

    @invariant()
    def same_buckets(self) -> None:
        """Read the array as the module's docstring lays it out: every level's buckets, in order,
        must be the model's items grouped by (level, tie), one bucket per tie, in insertion order."""
        expected: dict[tuple[int, int], list[int]] = {}
        for item in sorted(self.live, key=self.live.get):
            level, tie, _ = self.live[item]
            expected.setdefault((level, tie), []).append(item)
        assert read_buckets(self.queue) == expected


def read_buckets(queue) -> dict[tuple[int, int], list[int]]:
    """{(level, tie): the bucket's items, first to last}, checking that each level's ties strictly
    increase (one bucket per tie) and that its finger, if the level is not empty, leads a bucket.
    Levels from READY on were never made empty: no item may be there, so they are not read."""
    field = lambda item, offset: int(queue[int(queue[layout.ITEMS_AT]) + 6 * item + int(offset)])  # noqa: E731
    found: dict[tuple[int, int], list[int]] = {}
    for level in range(int(queue[layout.READY])):
        at = int(queue[layout.LEVELS_AT]) + 2 * level
        leader, previous_tie, leaders = int(queue[at]), -1, []
        while leader >= 0:
            tie = field(leader, layout.TIE)
            assert tie > previous_tie and field(leader, layout.LEVEL) == level
            items, item = [], leader
            while True:
                items.append(item)
                item = field(item, layout.NEXT)
                if item == leader:
                    break
            found[(level, tie)] = items
            leaders.append(leader)
            previous_tie, leader = tie, field(leader, layout.BNEXT)
        if leaders:
            assert int(queue[at + 1]) in leaders, f"level {level}'s finger leads no bucket"
    return found


TestBucketsAgainstModel = BucketsAgainstModel.TestCase
TestBucketsAgainstModel.settings = settings(max_examples=200, stateful_step_count=80, deadline=None)


def test_pops_by_level_then_tie_then_insertion() -> None:
    # Worked by hand: (level, tie) keys a=(1, 2), b=(0, 5), c=(1, 0), d=(1, 2), e=(0, 5);
    # level 0 first (b, e in insertion order), then level 1 by tie: c (tie 0), then a, d (tie 2).
    queue = buckets_new(5, 3)
    for item, (level, tie) in enumerate([(1, 2), (0, 5), (1, 0), (1, 2), (0, 5)]):
        buckets_push(queue, item, level, tie)
    assert [buckets_pop(queue) for _ in range(5)] == [1, 4, 2, 0, 3]


def test_an_update_goes_last_among_equal_keys() -> None:
    # Items 0, 1, 2 share (0, 0); updating 0 to the same key makes it a new insertion: 1, 2, 0.
    queue = buckets_new(3, 1)
    for item in range(3):
        buckets_push(queue, item, 0, 0)
    buckets_update(queue, 0, 0, 0)
    assert [buckets_pop(queue) for _ in range(3)] == [1, 2, 0]


def test_empty_queue_raises_index_error() -> None:
    queue = buckets_new(2, 2)
    for empty in (buckets_pop, buckets_peek_level):
        try:
            empty(queue)
        except IndexError:
            continue
        raise AssertionError(f"{empty.__name__} of an empty queue did not raise IndexError")


def test_levels_are_made_empty_only_when_reached() -> None:
    # The levels' part of a new queue is never written (memory: pages untouched). Fill it with a value
    # no empty level has (7, as if it were an item) to see what the queue writes: pushing at levels 1
    # and 3 makes levels 0-3 empty and no more; the pops still come in (level, tie, order) order.
    queue = buckets_new(4, 8)
    levels_at = int(queue[layout.LEVELS_AT])
    queue[levels_at:int(queue[layout.ITEMS_AT])] = 7
    buckets_push(queue, 0, 3, 0)
    buckets_push(queue, 1, 1, 0)
    assert int(queue[layout.READY]) == 4
    assert [int(queue[levels_at + 2 * level]) for level in range(8)] == [-1, 1, -1, 0, 7, 7, 7, 7]
    assert [buckets_pop(queue) for _ in range(2)] == [1, 0]
