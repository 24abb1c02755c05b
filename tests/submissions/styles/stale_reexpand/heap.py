"""BinaryHeap -- a min-heap with a position map.

    heap.push(item, priority)   O(log n)
    heap.pop() / heap.peek()    smallest priority first
    heap.update(item, p)        change a priority (either direction)
    heap.remove(item)           delete an arbitrary item

Internally: self._pri[i], self._itm[i] are the i-th slot, self._at[item] = i.
"""


class BinaryHeap:
    def __init__(self):
        self._pri = []
        self._itm = []
        self._at = {}

    def __len__(self):
        return len(self._itm)

    def __contains__(self, item):
        return item in self._at

    def __repr__(self):
        return f"BinaryHeap({len(self)} items)"

    def _swap(self, i, j):
        self._pri[i], self._pri[j] = self._pri[j], self._pri[i]
        self._itm[i], self._itm[j] = self._itm[j], self._itm[i]
        self._at[self._itm[i]] = i
        self._at[self._itm[j]] = j

    def _rise(self, i):
        while i > 0 and self._pri[i] < self._pri[(i - 1) // 2]:
            self._swap(i, (i - 1) // 2)
            i = (i - 1) // 2
        return i

    def _fall(self, i):
        n = len(self._itm)
        while True:
            kids = [k for k in (2 * i + 1, 2 * i + 2) if k < n]
            if not kids:
                return i
            k = min(kids, key=lambda j: (self._pri[j], j))  # compare priorities; j only for equal ones
            if self._pri[k] < self._pri[i]:
                self._swap(i, k)
                i = k
            else:
                return i

    def push(self, item, priority):
        if item in self._at:
            raise ValueError(f"{item!r} already in heap")
        self._pri.append(priority)
        self._itm.append(item)
        self._at[item] = len(self._itm) - 1
        self._rise(len(self._itm) - 1)

    def peek(self):
        if not self._itm:
            raise IndexError("peek from empty heap")
        return self._itm[0]

    def pop(self):
        if not self._itm:
            raise IndexError("pop from empty heap")
        item = self._itm[0]
        self.remove(item)
        return item

    def update(self, item, priority):
        i = self._at[item]
        self._pri[i] = priority
        self._fall(self._rise(i))

    def remove(self, item):
        i = self._at[item]
        last = len(self._itm) - 1
        self._swap(i, last)
        self._pri.pop()
        self._itm.pop()
        del self._at[item]
        if i < last:
            self._fall(self._rise(i))
