# Binary heap, min at the top.  heap = list of (priority, item) tuples, index = {item: i}.
# No heapq: everything is done by hand with sift_up / sift_down loops.

class BinaryHeap:
    def __init__(self):
        self.heap = []
        self.index = {}

    def __len__(self):
        return len(self.heap)

    def __contains__(self, item):
        return item in self.index

    def push(self, item, priority):
        if item in self.index:
            raise ValueError("item already in heap")
        self.heap.append((priority, item))
        self.index[item] = len(self.heap) - 1
        self.sift_up(len(self.heap) - 1)

    def peek(self):
        if not self.heap:
            raise IndexError("peek on empty heap")
        return self.heap[0][1]

    def pop(self):
        if not self.heap:
            raise IndexError("pop on empty heap")
        item = self.heap[0][1]
        self.remove(item)
        return item

    def update(self, item, priority):
        i = self.index[item]
        self.heap[i] = (priority, item)
        i = self.sift_up(i)
        self.sift_down(i)

    def remove(self, item):
        i = self.index.pop(item)
        last = self.heap.pop()
        if i != len(self.heap):
            self.heap[i] = last
            self.index[last[1]] = i
            i = self.sift_up(i)
            self.sift_down(i)

    def sift_up(self, i):
        """Move entry i up while it beats its parent; return where it ends."""
        while i:
            p = (i - 1) // 2
            if not self.heap[i][0] < self.heap[p][0]:
                break
            self.heap[i], self.heap[p] = self.heap[p], self.heap[i]
            self.index[self.heap[i][1]] = i
            self.index[self.heap[p][1]] = p
            i = p
        return i

    def sift_down(self, i):
        n = len(self.heap)
        while 2 * i + 1 < n:
            c = 2 * i + 1
            if c + 1 < n and self.heap[c + 1][0] < self.heap[c][0]:
                c += 1
            if not self.heap[c][0] < self.heap[i][0]:
                break
            self.heap[i], self.heap[c] = self.heap[c], self.heap[i]
            self.index[self.heap[i][1]] = i
            self.index[self.heap[c][1]] = c
            i = c
        return i
