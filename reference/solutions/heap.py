"""A binary min-heap written from scratch, with a position index for update and remove (SPEC §11).

The heap is an array: the children of entry ``i`` sit at ``2i + 1`` and ``2i + 2``, its parent at
``(i - 1) // 2``, and every entry's priority is no larger than its children's. A dictionary maps
each item to its place in the array, so ``update`` and ``remove`` find an item in O(1) and repair
the heap in O(log n) (Cormen et al., *Introduction to Algorithms*, ch. 6).

Which of two equal priorities pops first follows from the sifts. The kit's planners never let
that matter: their keys (A*'s, D* Lite's) carry a stamp, so no two priorities in the heap are equal.

>>> heap = BinaryHeap()
>>> heap.push("b", 2); heap.push("a", 1); heap.push("c", 3)
>>> heap.update("c", 0)
>>> heap.pop(), heap.pop(), len(heap)
('c', 'a', 1)
>>> "b" in heap
True
"""

from __future__ import annotations

from typing import Any, Generic, Hashable, TypeVar

Item = TypeVar("Item", bound=Hashable)


class BinaryHeap(Generic[Item]):
    """Items with priorities; ``pop`` returns the item with the smallest priority.

    Each item is in the heap at most once. Priorities may be anything ordered by ``<`` (numbers,
    tuples). Misuse raises: ``pop``/``peek`` on an empty heap ``IndexError``; ``update``/``remove``
    of an absent item ``KeyError``; ``push`` of an item already present ``ValueError``.
    """

    def __init__(self) -> None:
        self._items: list[Item] = []          # the heap array
        self._priorities: list[Any] = []      # _priorities[i] belongs to _items[i]
        self._position: dict[Item, int] = {}  # item -> its index in the arrays

    def __len__(self) -> int:
        return len(self._items)

    def __bool__(self) -> bool:
        return bool(self._items)

    def __contains__(self, item: object) -> bool:
        return item in self._position

    def __repr__(self) -> str:
        return f"BinaryHeap({len(self)} items)"

    def push(self, item: Item, priority: Any) -> None:
        """Insert ``item`` with ``priority``. O(log n)."""
        if item in self._position:
            raise ValueError(f"{item!r} is already in the heap; use update() to change its priority")
        index = len(self._items)
        self._items.append(item)
        self._priorities.append(priority)
        # Speed: a new entry usually stays where it lands (in the standard experiment four pushes
        # in five: A* inserts keys no smaller than most of OPEN's), so sift up only when it is
        # smaller than its parent. This saves a method call on most pushes (~4 % of the heap's time).
        if index > 0 and priority < self._priorities[(index - 1) >> 1]:
            self._sift_up(index)
        else:
            self._position[item] = index

    def peek(self) -> Item:
        """The item with the smallest priority, left in the heap. O(1)."""
        if not self._items:
            raise IndexError("peek at an empty heap")
        return self._items[0]

    def min_priority(self, default: Any = None) -> Any:
        """The smallest priority in the heap, or ``default`` if the heap is empty. O(1)."""
        return self._priorities[0] if self._priorities else default

    def pop(self) -> Item:
        """Remove and return the item with the smallest priority. O(log n)."""
        if not self._items:
            raise IndexError("pop from an empty heap")
        items, priorities = self._items, self._priorities
        top = items[0]
        del self._position[top]
        last_item, last_priority = items.pop(), priorities.pop()
        if items:  # move the last entry to the root and let it sink
            items[0], priorities[0] = last_item, last_priority
            self._sift_down(0)
        return top

    def priority(self, item: Item) -> Any:
        """The priority ``item`` has now."""
        return self._priorities[self._index_of(item)]

    def update(self, item: Item, priority: Any) -> None:
        """Give ``item`` (already in the heap) a new priority, higher or lower. O(log n)."""
        index = self._index_of(item)
        old = self._priorities[index]
        self._priorities[index] = priority
        if priority < old:
            self._sift_up(index)
        else:
            self._sift_down(index)

    def remove(self, item: Item) -> None:
        """Take ``item`` out of the heap. O(log n)."""
        self._delete_at(self._index_of(item))

    def clear(self) -> None:
        self._items.clear()
        self._priorities.clear()
        self._position.clear()

    # -- internals --------------------------------------------------------------------------------

    def _index_of(self, item: Item) -> int:
        try:
            return self._position[item]
        except KeyError:
            raise KeyError(f"{item!r} is not in the heap") from None

    def _delete_at(self, index: int) -> None:
        """Remove the entry at ``index``: move the last entry into its place and repair."""
        items, priorities = self._items, self._priorities
        del self._position[items[index]]
        last_item, last_priority = items.pop(), priorities.pop()
        if index == len(items):
            return  # the removed entry was the last one
        items[index], priorities[index] = last_item, last_priority
        self._position[last_item] = index
        # The moved entry may be smaller than its new parent or larger than its children.
        if index > 0 and last_priority < priorities[(index - 1) >> 1]:
            self._sift_up(index)
        else:
            self._sift_down(index)

    def _sift_up(self, index: int) -> None:
        """Move the entry at ``index`` up while it is smaller than its parent.

        Rather than swapping at every level, parents move down into the hole and the entry is
        written once where it stops (half the writes of swapping).
        """
        items, priorities, position = self._items, self._priorities, self._position
        item, priority = items[index], priorities[index]
        while index > 0:
            parent = (index - 1) >> 1
            parent_priority = priorities[parent]
            if not priority < parent_priority:
                break
            parent_item = items[parent]
            items[index], priorities[index] = parent_item, parent_priority
            position[parent_item] = index
            index = parent
        items[index], priorities[index] = item, priority
        position[item] = index

    def _sift_down(self, index: int) -> None:
        """Move the entry at ``index`` down while a child is smaller (the same hole technique)."""
        items, priorities, position = self._items, self._priorities, self._position
        size = len(items)
        item, priority = items[index], priorities[index]
        while True:
            child = 2 * index + 1
            if child >= size:
                break
            right = child + 1
            if right < size and priorities[right] < priorities[child]:
                child = right
            if not priorities[child] < priority:
                break
            items[index] = items[child]
            priorities[index] = priorities[child]
            position[items[index]] = index
            index = child
        items[index], priorities[index] = item, priority
        position[item] = index
