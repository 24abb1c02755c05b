"""Binary heap used as OPEN.

Every node of the heap is a pair (priority, item) kept in `self.nodes`; `self.place` is the
item -> position map.  Sifting is done by one helper, `_move`, that finds where an entry belongs
by walking up first and then down.
"""


class BinaryHeap:
    def __init__(self):
        self.nodes = []
        self.place = {}

    def __len__(self):
        return len(self.nodes)

    def __contains__(self, item):
        return item in self.place

    def __bool__(self):
        return bool(self.nodes)

    def _put(self, at, node):
        self.nodes[at] = node
        self.place[node[1]] = at

    def _move(self, at):
        node = self.nodes[at]
        # up
        while at > 0 and node[0] < self.nodes[(at - 1) // 2][0]:
            self._put(at, self.nodes[(at - 1) // 2])
            at = (at - 1) // 2
        # down
        count = len(self.nodes)
        while 2 * at + 1 < count:
            kid = 2 * at + 1
            if kid + 1 < count and self.nodes[kid + 1][0] < self.nodes[kid][0]:
                kid += 1
            if self.nodes[kid][0] < node[0]:
                self._put(at, self.nodes[kid])
                at = kid
            else:
                break
        self._put(at, node)

    def push(self, item, priority):
        if item in self.place:
            raise ValueError("push(): item is in the heap already")
        self.nodes.append((priority, item))
        self.place[item] = len(self.nodes) - 1
        self._move(len(self.nodes) - 1)

    def peek(self):
        if not self.nodes:
            raise IndexError("peek(): empty heap")
        return self.nodes[0][1]

    def min_priority(self):
        return self.nodes[0][0]

    def pop(self):
        item = self.peek()
        self.remove(item)
        return item

    def update(self, item, priority):
        at = self.place[item]
        self.nodes[at] = (priority, item)
        self._move(at)

    def remove(self, item):
        at = self.place.pop(item)
        tail = self.nodes.pop()
        if at < len(self.nodes):
            self._put(at, tail)
            self._move(at)
