"""A binary min-heap of (key, item) with decrease-key through a position map."""


class MinHeap:
    def __init__(self):
        self.keys = []
        self.items = []
        self.where = {}

    def __len__(self):
        return len(self.items)

    def _swap(self, i, j):
        self.keys[i], self.keys[j] = self.keys[j], self.keys[i]
        self.items[i], self.items[j] = self.items[j], self.items[i]
        self.where[self.items[i]] = i
        self.where[self.items[j]] = j

    def _up(self, i):
        while i > 0:
            parent = (i - 1) // 2
            if self.keys[i] < self.keys[parent]:
                self._swap(i, parent)
                i = parent
            else:
                break

    def _down(self, i):
        n = len(self.keys)
        while True:
            smallest = i
            for child in (2 * i + 1, 2 * i + 2):
                if child < n and self.keys[child] < self.keys[smallest]:
                    smallest = child
            if smallest == i:
                return
            self._swap(i, smallest)
            i = smallest

    def push_or_update(self, item, key):
        if item in self.where:
            i = self.where[item]
            old = self.keys[i]
            self.keys[i] = key
            self._up(i) if key < old else self._down(i)
            return
        self.keys.append(key)
        self.items.append(item)
        self.where[item] = len(self.items) - 1
        self._up(len(self.items) - 1)

    def peek_key(self):
        return self.keys[0]

    def pop(self):
        last = len(self.items) - 1
        self._swap(0, last)
        key, item = self.keys.pop(), self.items.pop()
        del self.where[item]
        if self.items:
            self._down(0)
        return key, item
