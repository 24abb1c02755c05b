"""Your binary min-heap: the OPEN list of every A* search you write (SPEC §11).

Write it from scratch for the extra credit: a Python list used as a complete binary tree, where
the children of entry ``i`` sit at ``2*i + 1`` and ``2*i + 2`` and its parent at ``(i - 1) // 2``,
and every entry's priority is no larger than its children's (the *heap property*). To find an item
quickly in ``update`` and ``remove``, keep a dictionary from each item to its index in the list and
keep it up to date whenever two entries swap places.

The extra-credit check reads your source: no ``heapq``, ``queue.PriorityQueue``,
``sortedcontainers`` or ``bisect``, and no import of the kit's reference solutions.

What it must do, with a tiny example (these lines are run as doctests once you are done)::

    >>> heap = BinaryHeap()
    >>> heap.push("b", 2); heap.push("a", 1); heap.push("c", 3)
    >>> heap.update("c", 0)          # "c" now has the smallest priority
    >>> heap.peek()
    'c'
    >>> heap.pop(), heap.pop(), len(heap)
    ('c', 'a', 1)
    >>> "b" in heap, "a" in heap
    (True, False)
    >>> heap.remove("b"); len(heap)
    0
"""

from __future__ import annotations

from typing import Any, Hashable


class BinaryHeap:
    """Items with priorities; ``pop`` returns the item with the smallest priority.

    - Items are hashable (the A* code pushes cells, ``(row, col)`` tuples). Each item is in the
      heap at most once.
    - Priorities are anything ordered by ``<``: integers, or tuples such as the SPEC §5 keys
      ``(f, -g, stamp)``. Compare priorities only, never items.
    - Misuse raises:
        * ``pop()`` / ``peek()`` on an empty heap: ``IndexError``;
        * ``update(item, p)`` / ``remove(item)`` of an item that is not in the heap: ``KeyError``;
        * ``push(item, p)`` of an item that is already in the heap: ``ValueError``.
    """

    def __init__(self) -> None:
        """An empty heap.

        TODO: create the heap array (a list of ``(priority, item)`` pairs, or two parallel lists)
        and the dictionary ``item -> index in the array``.
        """
        raise NotImplementedError("TODO: BinaryHeap.__init__ - create the array and the item -> index dictionary")

    def __len__(self) -> int:
        """The number of items in the heap: ``len(heap)``.

        TODO: return the length of the heap array.
        """
        raise NotImplementedError("TODO: BinaryHeap.__len__ - return the number of items")

    def __contains__(self, item: object) -> bool:
        """``item in heap``: True if ``item`` is in the heap. Must be O(1).

        TODO: look the item up in the item -> index dictionary.
        """
        raise NotImplementedError("TODO: BinaryHeap.__contains__ - look the item up in the index dictionary")

    def push(self, item: Hashable, priority: Any) -> None:
        """Insert ``item`` with ``priority`` in O(log n); ``ValueError`` if it is already there.

        TODO: append the entry at the end of the array, record its index, then *sift it up*:
        while it is smaller than its parent, swap the two (and update both indices).
        """
        raise NotImplementedError("TODO: BinaryHeap.push - append, then sift up")

    def peek(self) -> Any:
        """The item with the smallest priority, left in the heap; ``IndexError`` if empty.

        TODO: the smallest entry is at index 0.
        """
        raise NotImplementedError("TODO: BinaryHeap.peek - return the item at index 0")

    def pop(self) -> Any:
        """Remove and return the item with the smallest priority in O(log n); ``IndexError`` if empty.

        TODO: take the item at index 0, move the last entry into its place, forget the popped
        item's index, then *sift down*: while a child is smaller, swap with the smaller child.
        """
        raise NotImplementedError("TODO: BinaryHeap.pop - swap the root with the last entry, remove it, sift down")

    def update(self, item: Hashable, priority: Any) -> None:
        """Give ``item`` (already in the heap) a new priority, higher or lower, in O(log n).

        ``KeyError`` if the item is not in the heap. A* calls this when it finds a shorter path to
        a state that is already in OPEN (the handout's "remove it from OPEN and insert it again").

        TODO: find the item's index in the dictionary, store the new priority, then sift up if
        the priority went down, or sift down if it went up.
        """
        raise NotImplementedError("TODO: BinaryHeap.update - change the priority, then sift up or down")

    def remove(self, item: Hashable) -> None:
        """Take ``item`` out of the heap in O(log n); ``KeyError`` if it is not in the heap.

        TODO: move the last entry into the removed item's place and repair the heap there: the
        moved entry may have to go up (smaller than its new parent) or down (larger than a child).
        """
        raise NotImplementedError("TODO: BinaryHeap.remove - fill the hole with the last entry and repair")
