"""A binary min-heap with a position table, written for this course (correct submission fixture).

Items are kept in a plain list ``slots`` of ``[priority, item]`` pairs; ``where`` maps each item to
its slot so that update and remove are O(log n).
"""


class BinaryHeap:
    def __init__(self):
        self.slots = []
        self.where = {}

    def __len__(self):
        return len(self.slots)

    def __contains__(self, item):
        return item in self.where

    def _swap(self, i, j):
        self.slots[i], self.slots[j] = self.slots[j], self.slots[i]
        self.where[self.slots[i][1]] = i
        self.where[self.slots[j][1]] = j

    def _up(self, i):
        while i > 0:
            parent = (i - 1) // 2
            if self.slots[i][0] < self.slots[parent][0]:
                self._swap(i, parent)
                i = parent
            else:
                return

    def _down(self, i):
        size = len(self.slots)
        while True:
            smallest = i
            for child in (2 * i + 1, 2 * i + 2):
                if child < size and self.slots[child][0] < self.slots[smallest][0]:
                    smallest = child
            if smallest == i:
                return
            self._swap(i, smallest)
            i = smallest

    def push(self, item, priority):
        if item in self.where:
            raise ValueError("already in the heap")
        self.slots.append([priority, item])
        self.where[item] = len(self.slots) - 1
        self._up(len(self.slots) - 1)

    def peek(self):
        if not self.slots:
            raise IndexError("peek from an empty heap")
        return self.slots[0][1]

    def pop(self):
        if not self.slots:
            raise IndexError("pop from an empty heap")
        item = self.slots[0][1]
        self.remove(item)
        return item

    def update(self, item, priority):
        i = self.where[item]          # KeyError when absent
        self.slots[i][0] = priority
        self._up(i)
        self._down(self.where[item])

    def remove(self, item):
        i = self.where.pop(item)      # KeyError when absent
        last = self.slots.pop()
        if i < len(self.slots):
            self.slots[i] = last
            self.where[last[1]] = i
            self._up(i)
            self._down(self.where[last[1]])
