"""My BinaryHeap.

Array-based min heap. Each slot holds a small _Entry object (priority + item); `locate` maps an
item to its slot. The heap only ever compares priorities, never the items.
"""


class _Entry:
    __slots__ = ("priority", "item")

    def __init__(self, priority, item):
        self.priority = priority
        self.item = item


class BinaryHeap:
    def __init__(self):
        self.tree = []
        self.locate = {}

    def __len__(self):
        return len(self.tree)

    def __contains__(self, item):
        return item in self.locate

    def __set(self, idx, entry):
        self.tree[idx] = entry
        self.locate[entry.item] = idx

    def __up(self, idx):
        entry = self.tree[idx]
        while idx > 0:
            parent_idx = (idx - 1) // 2
            parent = self.tree[parent_idx]
            if not entry.priority < parent.priority:
                break
            self.__set(idx, parent)
            idx = parent_idx
        self.__set(idx, entry)
        return idx

    def __down(self, idx):
        entry = self.tree[idx]
        size = len(self.tree)
        while True:
            child_idx = 2 * idx + 1
            if child_idx >= size:
                break
            other = child_idx + 1
            if other < size and self.tree[other].priority < self.tree[child_idx].priority:
                child_idx = other
            if not self.tree[child_idx].priority < entry.priority:
                break
            self.__set(idx, self.tree[child_idx])
            idx = child_idx
        self.__set(idx, entry)

    def push(self, item, priority):
        if item in self.locate:
            raise ValueError("item is already in the heap: use update()")
        self.tree.append(_Entry(priority, item))
        self.locate[item] = len(self.tree) - 1
        self.__up(len(self.tree) - 1)

    def peek(self):
        if not self.tree:
            raise IndexError("the heap is empty")
        return self.tree[0].item

    def priority_of(self, item):
        return self.tree[self.locate[item]].priority

    def all_at_top(self):
        """Every item whose priority equals the smallest one. They form a subtree hanging from the
        root (heap property), so only that subtree is walked, not the whole array."""
        if not self.tree:
            return []
        best = self.tree[0].priority
        found, todo = [], [0]
        while todo:
            idx = todo.pop()
            if idx < len(self.tree) and not best < self.tree[idx].priority:
                found.append(self.tree[idx].item)
                todo += [2 * idx + 2, 2 * idx + 1]
        return found

    def pop(self):
        if not self.tree:
            raise IndexError("the heap is empty")
        top = self.tree[0].item
        self.remove(top)
        return top

    def update(self, item, priority):
        idx = self.locate[item]
        self.tree[idx].priority = priority
        self.__down(self.__up(idx))

    def remove(self, item):
        idx = self.locate.pop(item)
        last = self.tree.pop()
        if idx < len(self.tree):
            self.__set(idx, last)
            self.__down(self.__up(idx))
