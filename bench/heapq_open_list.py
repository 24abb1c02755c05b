"""OPEN on ``heapq``, for the benchmark's switch: the reference engine with a C-coded heap instead of
the from-scratch one. Same interface as ``BinaryHeap`` as the engine uses it; decrease-key is done by
lazy deletion (a new entry is pushed and the old one skipped when it reaches the top)."""

from __future__ import annotations

import heapq
from typing import Any


class HeapqOpenList:
    __slots__ = ("_entries", "_live")

    def __init__(self) -> None:
        self._entries: list[tuple[Any, Any]] = []  # (priority, item), stale ones included
        self._live: dict[Any, Any] = {}            # item -> its current priority

    def __len__(self) -> int:
        return len(self._live)

    def __bool__(self) -> bool:
        return bool(self._live)

    def __contains__(self, item: object) -> bool:
        return item in self._live

    def push(self, item: Any, priority: Any) -> None:
        if item in self._live:
            raise ValueError(f"{item!r} is already in the heap")
        self._live[item] = priority
        heapq.heappush(self._entries, (priority, item))

    def update(self, item: Any, priority: Any) -> None:
        if item not in self._live:
            raise KeyError(item)
        self._live[item] = priority
        heapq.heappush(self._entries, (priority, item))

    def _drop_stale(self) -> None:
        entries, live = self._entries, self._live
        while entries and live.get(entries[0][1]) != entries[0][0]:
            heapq.heappop(entries)

    def min_priority(self, default: Any = None) -> Any:
        self._drop_stale()
        return self._entries[0][0] if self._entries else default

    def pop(self) -> Any:
        self._drop_stale()
        if not self._entries:
            raise IndexError("pop from an empty heap")
        _, item = heapq.heappop(self._entries)
        del self._live[item]
        return item
