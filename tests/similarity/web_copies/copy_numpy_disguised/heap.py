"""My binary heap (min at the top) with update of an item's key."""


class BinaryHeap:
    def __init__(self):
        self.prio = []
        self.vals = []
        self.pos = {}

    def __len__(self):
        return len(self.vals)

    def exchange(self, a, b):
        self.prio[a], self.prio[b] = self.prio[b], self.prio[a]
        self.vals[a], self.vals[b] = self.vals[b], self.vals[a]
        self.pos[self.vals[a]] = a
        self.pos[self.vals[b]] = b

    def sift_up(self, k):
        while k > 0:
            up = (k - 1) // 2
            if not self.prio[k] < self.prio[up]:
                break
            self.exchange(k, up)
            k = up

    def sift_down(self, k):
        size = len(self.prio)
        while True:
            best = k
            for kid in (2 * k + 1, 2 * k + 2):
                if kid < size and self.prio[kid] < self.prio[best]:
                    best = kid
            if best == k:
                return
            self.exchange(k, best)
            k = best

    def insert(self, val, priority):
        if val in self.pos:
            k = self.pos[val]
            before = self.prio[k]
            self.prio[k] = priority
            self.sift_up(k) if priority < before else self.sift_down(k)
            return
        self.prio.append(priority)
        self.vals.append(val)
        self.pos[val] = len(self.vals) - 1
        self.sift_up(len(self.vals) - 1)

    def top_priority(self):
        return self.prio[0]

    def pop(self):
        end = len(self.vals) - 1
        self.exchange(0, end)
        priority, val = self.prio.pop(), self.vals.pop()
        del self.pos[val]
        if self.vals:
            self.sift_down(0)
        return priority, val
