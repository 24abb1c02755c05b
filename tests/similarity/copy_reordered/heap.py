"""A binary heap as a class hierarchy: an array-backed tree plus an index (correct submission fixture)."""

from dataclasses import dataclass


@dataclass
class _Entry:
    priority: object

    item: object


class BinaryHeap:
    """Min-heap keyed by priority; each item at most once."""

    def __init__(self) -> None:
        self._tree: list[_Entry] = []
        self._index: dict = {}

    def __contains__(self, item) -> bool:
        return item in self._index

    def _sift_up(self, position: int) -> None:
        entry = self._tree[position]
        while position:
            parent = (position - 1) >> 1
            if not entry.priority < self._tree[parent].priority:
                break
            self._place(position, self._tree[parent])
            position = parent
        self._place(position, entry)

    def push(self, item, priority) -> None:
        if item in self._index:
            raise ValueError(f"{item!r} is already in the heap")
        self._tree.append(_Entry(priority, item))
        self._sift_up(len(self._tree) - 1)

    def pop(self):
        item = self.peek()
        self.remove(item)
        return item

    def remove(self, item) -> None:
        if item not in self._index:
            raise KeyError(item)
        position = self._index.pop(item)
        last = self._tree.pop()
        if position < len(self._tree):
            self._place(position, last)
            self._sift_up(position)
            self._sift_down(self._index[last.item])

    def __len__(self) -> int:
        return len(self._tree)

    def _place(self, position: int, entry: _Entry) -> None:
        self._tree[position] = entry
        self._index[entry.item] = position

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

    def peek(self):
        if not self._tree:
            raise IndexError("the heap is empty")
        return self._tree[0].item

    def update(self, item, priority) -> None:
        if item not in self._index:
            raise KeyError(item)
        position = self._index[item]
        self._tree[position].priority = priority
        self._sift_up(position)
        self._sift_down(self._index[item])
