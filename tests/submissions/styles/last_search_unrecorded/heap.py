"""Indexed binary min-heap (decrease-key supported), from scratch.

Layout: self.h is a list of [priority, item]; self.idx maps item -> position.
"""


class BinaryHeap:
    def __init__(self):
        self.h = []
        self.idx = {}

    def __len__(self):
        return len(self.h)

    def __contains__(self, item):
        return item in self.idx

    def _up(self, pos):
        h, idx = self.h, self.idx
        while pos:
            par = (pos - 1) // 2
            if h[pos][0] < h[par][0]:
                h[pos], h[par] = h[par], h[pos]
                idx[h[pos][1]], idx[h[par][1]] = pos, par
                pos = par
            else:
                break
        return pos

    def _down(self, pos):
        h, idx = self.h, self.idx
        end = len(h)
        child = 2 * pos + 1
        while child < end:
            if child + 1 < end and h[child + 1][0] < h[child][0]:
                child += 1
            if h[child][0] < h[pos][0]:
                h[pos], h[child] = h[child], h[pos]
                idx[h[pos][1]], idx[h[child][1]] = pos, child
                pos = child
                child = 2 * pos + 1
            else:
                break

    def push(self, item, priority):
        if item in self.idx:
            raise ValueError("item already queued")
        self.h.append([priority, item])
        self.idx[item] = len(self.h) - 1
        self._up(len(self.h) - 1)

    def peek(self):
        if not self.h:
            raise IndexError("empty heap")
        return self.h[0][1]

    def top_priority(self):
        if not self.h:
            raise IndexError("empty heap")
        return self.h[0][0]

    def pop(self):
        if not self.h:
            raise IndexError("empty heap")
        top = self.h[0][1]
        last = self.h.pop()
        del self.idx[top]
        if self.h:
            self.h[0] = last
            self.idx[last[1]] = 0
            self._down(0)
        return top

    def update(self, item, priority):
        pos = self.idx[item]
        old = self.h[pos][0]
        self.h[pos][0] = priority
        if priority < old:
            self._up(pos)          # decrease-key: the usual A* case
        else:
            self._down(pos)

    def remove(self, item):
        pos = self.idx.pop(item)
        last = self.h.pop()
        if pos < len(self.h):
            self.h[pos] = last
            self.idx[last[1]] = pos
            self._down(self._up(pos))
