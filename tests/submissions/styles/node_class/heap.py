# CS 440 project 1 - binary heap
# 1-indexed array like in the CLRS book: parent(i) = i // 2, children 2i and 2i + 1.
# pos[item] remembers where each item is so update/remove don't need a linear search.


class BinaryHeap:
    def __init__(self):
        self.a = [None]   # a[0] is a dummy so the math is nicer
        self.pos = {}

    def __len__(self):
        return len(self.a) - 1

    def __contains__(self, item):
        return item in self.pos

    def _less(self, i, j):
        return self.a[i][0] < self.a[j][0]

    def _exchange(self, i, j):
        self.a[i], self.a[j] = self.a[j], self.a[i]
        self.pos[self.a[i][1]] = i
        self.pos[self.a[j][1]] = j

    def _swim(self, k):
        while k > 1 and self._less(k, k // 2):
            self._exchange(k, k // 2)
            k = k // 2

    def _sink(self, k):
        n = len(self.a) - 1
        while 2 * k <= n:
            j = 2 * k
            if j < n and self._less(j + 1, j):
                j += 1
            if not self._less(j, k):
                break
            self._exchange(k, j)
            k = j

    def push(self, item, priority):
        if item in self.pos:
            raise ValueError(f"{item} is already in the heap")
        self.a.append((priority, item))
        self.pos[item] = len(self.a) - 1
        self._swim(len(self.a) - 1)

    def peek(self):
        if len(self.a) == 1:
            raise IndexError("heap is empty")
        return self.a[1][1]

    def pop(self):
        if len(self.a) == 1:
            raise IndexError("heap is empty")
        top = self.a[1][1]
        self.remove(top)
        return top

    def update(self, item, priority):
        if item not in self.pos:
            raise KeyError(item)
        k = self.pos[item]
        self.a[k] = (priority, item)
        self._swim(k)
        self._sink(self.pos[item])

    def remove(self, item):
        if item not in self.pos:
            raise KeyError(item)
        k = self.pos[item]
        last = len(self.a) - 1
        if k != last:
            self._exchange(k, last)
        self.a.pop()
        del self.pos[item]
        if k < len(self.a):
            self._swim(k)
            self._sink(self.pos[self.a[k][1]])
