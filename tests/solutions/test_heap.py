"""The from-scratch binary heap against a simple model (a dict), with hypothesis."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from reference.solutions.heap import BinaryHeap

ITEMS = st.integers(min_value=0, max_value=30)
PRIORITIES = st.integers(min_value=-50, max_value=50)


class HeapAgainstModel(RuleBasedStateMachine):
    """Every operation does to the heap what it does to a dict of item -> priority."""

    def __init__(self) -> None:
        super().__init__()
        self.heap: BinaryHeap = BinaryHeap()
        self.model: dict[int, tuple[int, int]] = {}  # item -> (priority, item) so ties are well defined
        self.tick = 0

    def key(self, priority: int, item: int) -> tuple[int, int]:
        return (priority, item)

    @rule(item=ITEMS, priority=PRIORITIES)
    def push(self, item: int, priority: int) -> None:
        if item in self.model:
            with pytest.raises(ValueError):
                self.heap.push(item, self.key(priority, item))
        else:
            self.heap.push(item, self.key(priority, item))
            self.model[item] = self.key(priority, item)

    @precondition(lambda self: self.model)
    @rule()
    def pop(self) -> None:
        expected = min(self.model, key=self.model.__getitem__)
        assert self.heap.peek() == expected
        assert self.heap.pop() == expected
        del self.model[expected]

    @rule(item=ITEMS, priority=PRIORITIES)
    def update(self, item: int, priority: int) -> None:
        if item in self.model:
            self.heap.update(item, self.key(priority, item))
            self.model[item] = self.key(priority, item)
        else:
            with pytest.raises(KeyError):
                self.heap.update(item, self.key(priority, item))

    @rule(item=ITEMS)
    def remove(self, item: int) -> None:
        if item in self.model:
            self.heap.remove(item)
            del self.model[item]
        else:
            with pytest.raises(KeyError):
                self.heap.remove(item)

    @precondition(lambda self: not self.model)
    @rule()
    def empty_errors(self) -> None:
        with pytest.raises(IndexError):
            self.heap.pop()
        with pytest.raises(IndexError):
            self.heap.peek()

    @invariant()
    def same_contents(self) -> None:
        assert len(self.heap) == len(self.model)
        assert bool(self.heap) == bool(self.model)
        for item in range(31):
            assert (item in self.heap) == (item in self.model)

    @invariant()
    def heap_property(self) -> None:
        priorities = self.heap._priorities
        for child in range(1, len(priorities)):
            assert not priorities[child] < priorities[(child - 1) // 2]
        assert all(self.heap._items[i] is not None and self.heap._position[self.heap._items[i]] == i
                   for i in range(len(priorities)))


TestHeapAgainstModel = HeapAgainstModel.TestCase
TestHeapAgainstModel.settings = settings(max_examples=100, stateful_step_count=50, deadline=None)


@given(st.lists(st.tuples(st.integers(0, 5), st.integers(-5, 5)), max_size=60))
def test_heap_sorts_like_sorted(entries: list[tuple[int, int]]) -> None:
    """Pushing distinct items and popping them all gives them in priority order (heapsort)."""
    heap: BinaryHeap = BinaryHeap()
    for item, priority in enumerate(entries):
        heap.push(item, priority)
    popped = [heap.pop() for _ in range(len(entries))]
    assert [entries[i] for i in popped] == sorted(entries)


def test_min_priority_and_priority() -> None:
    heap: BinaryHeap = BinaryHeap()
    assert heap.min_priority() is None and heap.min_priority(default=99) == 99
    heap.push((1, 2), (5, 0))
    heap.push((0, 0), (3, 1))
    assert heap.min_priority() == (3, 1)
    assert heap.priority((1, 2)) == (5, 0)


def test_error_messages_name_the_item() -> None:
    heap: BinaryHeap = BinaryHeap()
    heap.push("a", 1)
    with pytest.raises(ValueError, match="'a' is already in the heap"):
        heap.push("a", 2)
    with pytest.raises(KeyError, match="'b' is not in the heap"):
        heap.update("b", 1)
    with pytest.raises(IndexError, match="empty"):
        BinaryHeap().pop()


def test_reference_uses_no_priority_queue_library() -> None:
    """The handout's extra credit: nothing under reference/ imports heapq, queue, bisect or sortedcontainers."""
    forbidden = {"heapq", "queue", "bisect", "sortedcontainers"}
    root = Path(__file__).resolve().parents[2] / "reference"
    for path in root.rglob("*.py"):
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name.split(".")[0] for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module.split(".")[0]]
            assert not forbidden & set(names), f"{path} imports {forbidden & set(names)}"
