"""The compiled heap against heapq (lazy deletion as the model), with hypothesis."""

from __future__ import annotations

import heapq

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from reference.solutions.compiled.heap import (
    heap_clear, heap_contains, heap_len, heap_new, heap_peek, heap_peek_key, heap_pop, heap_push,
    heap_remove, heap_update,
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
