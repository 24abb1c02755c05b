"""CS 440 assignment 1, part 1: my priority queue for the OPEN list.

Implemented as an array-based binary heap with a dictionary for positions."""

from dataclasses import dataclass


@dataclass
class _Entry:
    priority: object
    item: object
class BinaryHeap:

    def __init__(self) -> None:
        self._tree: list[_Entry] = []
        self._index: dict = {}
    def __len__(self) -> int:
        return len(self._tree)


    def __contains__(self, item) -> bool:
        return item in self._index


    def _place(self, position: int, entry: _Entry) -> None:
        self._tree[position] = entry
        self._index[entry.item] = position
    # restore the heap property upwards (towards the root)
    def _sift_up(self, position: int) -> None:
        entry = self._tree[position]
        while position:
            parent = (position - 1) >> 1
            if not entry.priority < self._tree[parent].priority:
                break

            self._place(position, self._tree[parent])
            position = parent
        self._place(position, entry)
    # restore the heap property downwards (towards the leaves)
    def _sift_down(self, position: int) -> None:
        entry = self._tree[position]
        count = len(self._tree)
        while True:
            left = 2 * position + 1
            if left >= count:
                break

            best = left
            if left + 1 < count and self._tree[left + 1].priority < self._tree[left].priority:
                best = left + 1
            if not self._tree[best].priority < entry.priority:
                break

            self._place(position, self._tree[best])
            position = best
        self._place(position, entry)
    # add a new item; duplicates are an error
    def push(self, item, priority) -> None:
        if item in self._index:
            raise ValueError(f"{item!r} is already in the heap")
        self._tree.append(_Entry(priority, item))
        self._sift_up(len(self._tree) - 1)
    def peek(self):
        if not self._tree:
            raise IndexError("the heap is empty")
        return self._tree[0].item


    def pop(self):
        item = self.peek()
        self.remove(item)
        return item


    # change the priority, then fix the heap in both directions
    def update(self, item, priority) -> None:
        if item not in self._index:
            raise KeyError(item)
        position = self._index[item]
        self._tree[position].priority = priority
        self._sift_up(position)
        self._sift_down(self._index[item])
    def remove(self, item) -> None:
        if item not in self._index:
            raise KeyError(item)
        position = self._index.pop(item)
        last = self._tree.pop()
        if position < len(self._tree):
            self._place(position, last)
            self._sift_up(position)
            self._sift_down(self._index[last.item])
