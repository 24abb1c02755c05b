"""Dishonest extra credit: a heapq heap that hides where heapq comes from. ROUTE is replaced by the
test with one of several ways of reaching heapq (a helper module, __import__, importlib, sys.modules)."""
import importlib
import sys

import helper  # noqa: F401 - one of the routes: the helper imports heapq

_hq = ROUTE  # noqa: F821


class BinaryHeap:
    def __init__(self):
        self._entries = []      # [priority, serial, item, alive]
        self._live = {}
        self._serial = 0

    def __len__(self):
        return len(self._live)

    def __contains__(self, item):
        return item in self._live

    def push(self, item, priority):
        if item in self._live:
            raise ValueError("already in the heap")
        self._serial += 1
        entry = [priority, self._serial, item, True]
        self._live[item] = entry
        _hq.heappush(self._entries, entry)

    def _top(self):
        while self._entries and not self._entries[0][3]:
            _hq.heappop(self._entries)
        if not self._entries:
            raise IndexError("empty")
        return self._entries[0]

    def peek(self):
        return self._top()[2]

    def pop(self):
        entry = self._top()
        _hq.heappop(self._entries)
        del self._live[entry[2]]
        return entry[2]

    def update(self, item, priority):
        self.remove(item)
        self.push(item, priority)

    def remove(self, item):
        self._live.pop(item)[3] = False
