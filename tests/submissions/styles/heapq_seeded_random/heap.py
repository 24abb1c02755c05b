"""Min binary heap (project part 0).

entries: list of [priority, item]; slot: dict item -> position in entries.
Written recursively because it reads closer to the lecture slides.
"""


class BinaryHeap:
    def __init__(self):
        self.entries = []
        self.slot = {}

    def __len__(self):
        return len(self.entries)

    def __contains__(self, item):
        return item in self.slot

    @staticmethod
    def parent(i):
        return (i - 1) // 2

    def swap(self, i, j):
        e = self.entries
        e[i], e[j] = e[j], e[i]
        self.slot[e[i][1]] = i
        self.slot[e[j][1]] = j

    def bubble_up(self, i):
        if i == 0:
            return
        p = self.parent(i)
        if self.entries[i][0] < self.entries[p][0]:
            self.swap(i, p)
            self.bubble_up(p)

    def bubble_down(self, i):
        n = len(self.entries)
        l, r = 2 * i + 1, 2 * i + 2
        smallest = i
        if l < n and self.entries[l][0] < self.entries[smallest][0]:
            smallest = l
        if r < n and self.entries[r][0] < self.entries[smallest][0]:
            smallest = r
        if smallest != i:
            self.swap(i, smallest)
            self.bubble_down(smallest)

    def push(self, item, priority):
        if item in self.slot:
            raise ValueError("duplicate item")
        self.entries.append([priority, item])
        self.slot[item] = len(self.entries) - 1
        self.bubble_up(len(self.entries) - 1)

    def peek(self):
        if len(self.entries) == 0:
            raise IndexError("empty")
        return self.entries[0][1]

    def pop(self):
        if len(self.entries) == 0:
            raise IndexError("empty")
        self.swap(0, len(self.entries) - 1)
        prio, item = self.entries.pop()
        del self.slot[item]
        if self.entries:
            self.bubble_down(0)
        return item

    def update(self, item, priority):
        if item not in self.slot:
            raise KeyError(item)
        i = self.slot[item]
        self.entries[i][0] = priority
        self.bubble_up(i)
        self.bubble_down(self.slot[item])

    def remove(self, item):
        if item not in self.slot:
            raise KeyError(item)
        i = self.slot[item]
        last = len(self.entries) - 1
        self.swap(i, last)
        self.entries.pop()
        del self.slot[item]
        if i < len(self.entries):
            self.bubble_up(i)
            self.bubble_down(self.slot[self.entries[i][1]] if i < len(self.entries) else 0)
