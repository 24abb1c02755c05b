"""A binary heap as a class hierarchy: an array-backed tree plus an index (correct submission fixture)."""

from dataclasses import dataclass


@dataclass
class Node:
    prio: object
    value: object


class BinaryHeap:
    """Min-heap keyed by priority; each item at most once."""

    def __init__(self) -> None:
        self.slots: list[Node] = []
        self.where_is: dict = {}

    def __len__(self) -> int:
        return len(self.slots)

    def __contains__(self, value) -> bool:
        return value in self.where_is

    def _put(self, idx: int, node: Node) -> None:
        self.slots[idx] = node
        self.where_is[node.value] = idx

    def _rise(self, idx: int) -> None:
        node = self.slots[idx]
        while idx:
            up = (idx - 1) >> 1
            if not node.prio < self.slots[up].prio:
                break
            self._put(idx, self.slots[up])
            idx = up
        self._put(idx, node)

    def _sink(self, idx: int) -> None:
        node = self.slots[idx]
        size = len(self.slots)
        while True:
            kid = 2 * idx + 1
            if kid >= size:
                break
            smaller = kid
            if kid + 1 < size and self.slots[kid + 1].prio < self.slots[kid].prio:
                smaller = kid + 1
            if not self.slots[smaller].prio < node.prio:
                break
            self._put(idx, self.slots[smaller])
            idx = smaller
        self._put(idx, node)

    def push(self, value, prio) -> None:
        if value in self.where_is:
            raise ValueError(f"{value!r} is already in the heap")
        self.slots.append(Node(prio, value))
        self._rise(len(self.slots) - 1)

    def peek(self):
        if not self.slots:
            raise IndexError("the heap is empty")
        return self.slots[0].value

    def pop(self):
        value = self.peek()
        self.remove(value)
        return value

    def update(self, value, prio) -> None:
        if value not in self.where_is:
            raise KeyError(value)
        idx = self.where_is[value]
        self.slots[idx].prio = prio
        self._rise(idx)
        self._sink(self.where_is[value])

    def remove(self, value) -> None:
        if value not in self.where_is:
            raise KeyError(value)
        idx = self.where_is.pop(value)
        tail = self.slots.pop()
        if idx < len(self.slots):
            self._put(idx, tail)
            self._rise(idx)
            self._sink(self.where_is[tail.value])
