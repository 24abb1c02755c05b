"""The compiled heap against heapq (lazy deletion as the model), with hypothesis."""

from __future__ import annotations

import heapq

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from reference.solutions.compiled.heap import (
    heap_clear, heap_contains, heap_len, heap_new, heap_peek, heap_peek_key, heap_pop, heap_push,
    heap_remove, heap_update, triple_heap_pop, triple_heap_remove, triple_heap_sift_down, triple_heap_sift_up,
)

ITEM_COUNT = 24
ITEMS = st.integers(min_value=0, max_value=ITEM_COUNT - 1)
PRIORITIES = st.integers(min_value=-(2**40), max_value=2**40)


def packed(priority: int, item: int) -> int:
    """A distinct key per (priority, item), as the planners' stamps make theirs distinct."""
    return priority * ITEM_COUNT + item


class CompiledHeapAgainstHeapq(RuleBasedStateMachine):
    """Every operation does to the compiled heap what it does to heapq plus a dict of live keys."""

    def __init__(self) -> None:
        super().__init__()
        self.heap = heap_new(ITEM_COUNT)
        self.entries: list[tuple[int, int]] = []  # heapq of (key, item), stale ones included
        self.live: dict[int, int] = {}             # item -> its current key

    def model_min(self) -> tuple[int, int]:
        while self.live.get(self.entries[0][1]) != self.entries[0][0]:
            heapq.heappop(self.entries)  # a stale entry left by update or remove
        return self.entries[0]

    @rule(item=ITEMS, priority=PRIORITIES)
    def push(self, item: int, priority: int) -> None:
        key = packed(priority, item)
        if item in self.live:
            with pytest.raises(ValueError):
                heap_push(self.heap, item, key)
            return
        heap_push(self.heap, item, key)
        heapq.heappush(self.entries, (key, item))
        self.live[item] = key

    @precondition(lambda self: self.live)
    @rule()
    def pop(self) -> None:
        key, item = self.model_min()
        assert heap_peek_key(self.heap) == key
        assert heap_peek(self.heap) == item
        assert heap_pop(self.heap) == item
        heapq.heappop(self.entries)
        del self.live[item]

    @rule(item=ITEMS, priority=PRIORITIES)
    def update(self, item: int, priority: int) -> None:
        key = packed(priority, item)
        if item not in self.live:
            with pytest.raises(KeyError):
                heap_update(self.heap, item, key)
            return
        heap_update(self.heap, item, key)
        heapq.heappush(self.entries, (key, item))
        self.live[item] = key

    @rule(item=ITEMS)
    def remove(self, item: int) -> None:
        if item not in self.live:
            with pytest.raises(KeyError):
                heap_remove(self.heap, item)
            return
        heap_remove(self.heap, item)
        del self.live[item]

    @rule()
    def clear_sometimes(self) -> None:
        if len(self.live) > ITEM_COUNT // 2:
            heap_clear(self.heap)
            self.entries.clear()
            self.live.clear()

    @invariant()
    def same_contents(self) -> None:
        assert heap_len(self.heap) == len(self.live)
        for item in range(ITEM_COUNT):
            assert heap_contains(self.heap, item) == (item in self.live)
        keys, items, pos, size = self.heap
        for i in range(1, size[0]):  # the heap property, and the position index agrees
            assert keys[(i - 1) // 2] <= keys[i]
        for i in range(size[0]):
            assert pos[items[i]] == i and self.live[items[i]] == keys[i]


TestCompiledHeapAgainstHeapq = CompiledHeapAgainstHeapq.TestCase
TestCompiledHeapAgainstHeapq.settings = settings(max_examples=150, stateful_step_count=60, deadline=None)


def test_empty_heap_raises_index_error() -> None:
    heap = heap_new(3)
    with pytest.raises(IndexError):
        heap_pop(heap)
    with pytest.raises(IndexError):
        heap_peek(heap)
    with pytest.raises(IndexError):
        heap_peek_key(heap)


def test_heap_sort_matches_sorted() -> None:
    # A worked check: pushing 0..9 with keys 90, 80, ..., 0 pops them in reverse order.
    heap = heap_new(10)
    for item in range(10):
        heap_push(heap, item, 90 - 10 * item)
    assert [heap_pop(heap) for _ in range(10)] == list(range(9, -1, -1))


# -- the (f, tie, stamp) heap, with int64 keys as D* Lite's U uses it ------------------------------------

TRIPLE_OPERATIONS = st.lists(st.tuples(st.sampled_from(["set", "remove", "pop"]), ITEMS,
                                       st.integers(0, 6), st.integers(0, 3)), min_size=40, max_size=160)


@settings(max_examples=150, deadline=None)
@given(TRIPLE_OPERATIONS)
def test_triple_heap_with_raised_keys_and_removals_pops_the_smallest_key_of_a_plain_model(operations) -> None:
    """Keys ``(f, tie, stamp)`` set (inserted, lowered or raised), removed and popped in any order
    leave the heap popping what a plain dictionary's minimum says; few f and tie values, so they tie
    often and the stamp decides."""
    items = np.empty(ITEM_COUNT, np.int32)
    f, tie, stamp = (np.empty(ITEM_COUNT, np.int64) for _ in range(3))
    position = np.full(ITEM_COUNT, -1, np.int32)
    size, stamps = 0, 0
    model: dict[int, tuple[int, int, int]] = {}  # item -> its key
    for operation, item, new_f, new_tie in operations:
        if operation == "set":
            stamps += 1
            key = (new_f, new_tie, stamps)
            i = int(position[item])
            if i < 0:
                i, size = size, size + 1
                items[i], position[item] = item, i
            raised = item in model and key > model[item]
            f[i], tie[i], stamp[i] = key
            model[item] = key
            if raised:
                triple_heap_sift_down(items, f, tie, stamp, position, i, size)
            else:
                triple_heap_sift_up(items, f, tie, stamp, position, i)
        elif operation == "remove" and item in model:
            size = triple_heap_remove(items, f, tie, stamp, position, int(position[item]), size)
            del model[item]
        elif operation == "pop" and model:
            smallest = min(model, key=model.__getitem__)
            popped, size = triple_heap_pop(items, f, tie, stamp, position, size)
            assert popped == smallest
            del model[smallest]
        assert size == len(model)
        assert all(position[item] >= 0 for item in model)
        assert sum(position >= 0) == size
        keys = list(zip(f[:size].tolist(), tie[:size].tolist(), stamp[:size].tolist()))
        assert all(keys[(i - 1) // 2] < keys[i] for i in range(1, size)), "a parent's key above its child's"
    drained = []
    while size:
        popped, size = triple_heap_pop(items, f, tie, stamp, position, size)
        drained.append(int(popped))
    assert drained == sorted(model, key=model.__getitem__)


def test_triple_heap_remove_moves_the_last_entry_up_when_it_is_smaller_than_the_hole_s_parent() -> None:
    # Worked by hand: the heap [1, 10, 2, 11, 12, 3, 4] (f only; ties and stamps 0). Removing entry 3
    # (key 11) puts the last key, 4, in its place, under the parent 10: 4 must rise above 10, giving
    # [1, 4, 2, 10, 12, 3].
    f = np.array([1, 10, 2, 11, 12, 3, 4], np.int64)
    items, position = np.arange(7, dtype=np.int32), np.arange(7, dtype=np.int32)
    tie, stamp = np.zeros(7, np.int64), np.zeros(7, np.int64)
    size = triple_heap_remove(items, f, tie, stamp, position, 3, 7)
    assert size == 6 and f[:6].tolist() == [1, 4, 2, 10, 12, 3] and position[3] == -1
