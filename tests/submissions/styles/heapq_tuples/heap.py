"""BinaryHeap for the project (written from scratch, no heapq).

I keep two parallel lists, `prios` and `items`, plus `where` (item -> index).
Sifting moves a "hole" instead of swapping pairs, which saves some writes.
"""


class BinaryHeap:

    def __init__(self):
        self.prios = []
        self.items = []
        self.where = {}

    def __len__(self):
        return len(self.items)

    def __contains__(self, item):
        return item in self.where

    def _place(self, i, prio, item):
        self.prios[i] = prio
        self.items[i] = item
        self.where[item] = i

    def _sift_up(self, i):
        prio, item = self.prios[i], self.items[i]
        while i > 0:
            up = (i - 1) >> 1
            if prio < self.prios[up]:
                self._place(i, self.prios[up], self.items[up])
                i = up
            else:
                break
        self._place(i, prio, item)

    def _sift_down(self, i):
        n = len(self.items)
        prio, item = self.prios[i], self.items[i]
        while True:
            left = 2 * i + 1
            if left >= n:
                break
            best = left
            if left + 1 < n and self.prios[left + 1] < self.prios[left]:
                best = left + 1
            if self.prios[best] < prio:
                self._place(i, self.prios[best], self.items[best])
                i = best
            else:
                break
        self._place(i, prio, item)

    def push(self, item, priority):
        if item in self.where:
            raise ValueError("push: item already present")
        self.prios.append(priority)
        self.items.append(item)
        self.where[item] = len(self.items) - 1
        self._sift_up(len(self.items) - 1)

    def peek(self):
        if not self.items:
            raise IndexError("peek: empty heap")
        return self.items[0]

    def pop(self):
        if not self.items:
            raise IndexError("pop: empty heap")
        first = self.items[0]
        self.remove(first)
        return first

    def update(self, item, priority):
        i = self.where[item]
        old = self.prios[i]
        self.prios[i] = priority
        if priority < old:
            self._sift_up(i)
        else:
            self._sift_down(i)

    def remove(self, item):
        i = self.where.pop(item)
        last_prio = self.prios.pop()
        last_item = self.items.pop()
        if i == len(self.items):
            return
        self._place(i, last_prio, last_item)
        self._sift_up(i)
        self._sift_down(self.where[last_item])
