"""A two-level bucket queue for compiled code: OPEN ordered by (level, tie, insertion order).

The compiled twin's alternative to the binary heap of :mod:`.heap` (SPEC §11 asks students for a
heap; this is the twin's own, faster choice). An entry's key is ``(level, tie, insertion order)``
with small non-negative integers ``level`` (the planner's f) and ``tie`` (``n - 1 - g`` or ``g``):
exactly the order of the packed heap key ``(f * n + tie) * (4n + 2) + stamp``, because the
planner's stamp counts insertions. So the queue pops the same items in the same order as the heap.

- **Level one**, one list per level: the lowest non-empty level is found by a pointer that only
  moves up while popping (A* with a consistent h never inserts below the f it pops, so over a
  search the pointer crosses each level once) and moves down when an insertion goes below it
  (so any keys stay correct).
- **Level two**, inside a level, a doubly-linked list of buckets in increasing ``tie``; a bucket
  holds the items of one (level, tie) in insertion order (a circular doubly-linked list:
  insertion appends at the tail), which is the stamp order. The first item of a bucket, its
  *leader*, carries the links to the neighbouring buckets. An insertion first looks at the
  level's front (ties to the larger g: a child of the item just popped has the largest g, so it
  goes first), then walks from the level's *finger*, the bucket it last inserted into: children
  of successive expansions have nearly the same g, so the walk is a step or two.

The queue is one int32 array (one argument to pass, and an item's six fields share a cache line):
a header (:data:`LOWEST`, :data:`HIGHEST`, :data:`SIZE`, where the levels and items start, and
:data:`READY`, how many levels have been made empty so far), two
entries per level (the leader of its first bucket, -1 when empty; its finger), and six per item
(``NEXT``/``PREV`` in its bucket's circle, the leader's ``PREV`` being the bucket's tail;
``BNEXT``/``BPREV``, for a leader, the next and previous buckets' leaders, -1 at the ends, and
``BPREV`` = :data:`NOT_LEADER` for the other items; for a leader, its ``LEVEL`` and ``TIE``, which a follower receives when it takes over).

Memory: nothing is written at allocation. The levels are made empty (-1) only when an insertion
first reaches them (:func:`buckets_make_ready`: levels ``READY .. level``, then ``READY = level + 1``),
so the pages of levels no search reaches, like those of items never inserted, are never made
resident (as with C's ``malloc``): a grid of n cells has 2n levels, 16 bytes per cell, and a run
reaches only the f values of its searches.

No membership checks: the caller knows which items are in the queue (the twin: g is finite), as
in C; :func:`buckets_update` and :func:`buckets_remove` of an absent item corrupt the queue.
:func:`buckets_clear` costs O(levels used since the last clear), never O(items).

>>> queue = buckets_new(10, 8)
>>> buckets_push(queue, 3, 2, 0); buckets_push(queue, 7, 1, 5); buckets_push(queue, 5, 2, 0)
>>> buckets_update(queue, 5, 1, 5)         # (1, 5) again, inserted after 7: popped after it
>>> buckets_pop(queue), buckets_pop(queue), buckets_len(queue), buckets_peek_level(queue)
(7, 5, 1, 2)
"""

from __future__ import annotations

import numpy as np
from numba import njit

LOWEST, HIGHEST, SIZE, LEVELS_AT, ITEMS_AT, READY = 0, 1, 2, 3, 4, 5  # the header
HEADER = 8
#: ``BPREV`` of an item that does not lead its bucket.
NOT_LEADER = -2
# Speed: like the heap (heap.py), every variable index is unsigned (np.uint64): Numba lets a signed
# index count from the end of the array, a test and an add on each of the dozens of accesses of a
# push or pop; an unsigned index is a bare load or store, as in C. Offsets are therefore uint64
# constants (uint64 + int64 would be a float in Numba), and item numbers are cast before use.
U = np.uint64
FIRST, FINGER = U(0), U(1)  # a level's two entries
NEXT, PREV, BNEXT, BPREV, LEVEL, TIE = U(0), U(1), U(2), U(3), U(4), U(5)  # an item's six entries
ITEM_FIELDS, TWO = U(6), U(2)


def buckets_new(item_count: int, level_count: int) -> np.ndarray:
    """An empty queue for items ``0 .. item_count - 1`` and levels ``0 .. level_count - 1``.

    Plain NumPy, not compiled: only the header is written (see "Memory" above), and a process that
    calls no other queue function from Python loads no compiled code for it.
    """
    queue = np.empty(HEADER + 2 * level_count + 6 * item_count, np.int32)
    queue[:HEADER] = 0
    queue[LOWEST] = level_count
    queue[HIGHEST] = -1
    queue[LEVELS_AT] = HEADER
    queue[ITEMS_AT] = HEADER + 2 * level_count
    queue[READY] = 0  # no level made empty yet
    return queue


@njit(cache=True, inline="always")
def buckets_make_ready(queue, levels_at, ready, level):
    """Make levels ``ready .. level`` empty (their first bucket -1) and return ``level + 1``, the new
    count of ready levels; the caller keeps it (the planner in a local, :func:`buckets_push` in the
    header). Each level is written once per queue, so this costs O(levels reached) over a run."""
    for fresh in range(ready, level + 1):
        queue[levels_at + TWO * U(fresh) + FIRST] = -1
    return level + 1


@njit(cache=True, inline="always")
def buckets_offsets(queue):
    """``(levels_at, items_at)``: where the levels and the items start, as uint64 offsets.

    Speed: a planner's hot loop keeps these and the header (lowest level, highest, size) in its own
    local variables and calls :func:`bucket_link` and :func:`bucket_unlink`. Every store into the
    array might change the header for all Numba's code generator knows, so the public functions
    below load and store it again on each call; locals stay in registers.
    """
    return U(queue[LEVELS_AT]), U(queue[ITEMS_AT])


@njit(cache=True)
def buckets_len(queue):
    """The number of items in the queue."""
    return queue[SIZE]


@njit(cache=True, inline="always")
def buckets_peek_level(queue):
    """The lowest level holding an item (the smallest f in OPEN). Amortised O(1)."""
    if queue[SIZE] == 0:
        raise IndexError("peek at an empty queue")
    levels_at = U(queue[LEVELS_AT])
    lowest = U(queue[LOWEST])
    while queue[levels_at + TWO * lowest + FIRST] < 0:
        lowest += U(1)
    queue[LOWEST] = lowest
    return np.int64(lowest)


@njit(cache=True, inline="always")
def bucket_link(queue, levels_at, items_at, item, level, tie):
    """Link ``item`` into its level with key ``(level, tie)``, after every item with the same key;
    ``level`` must be ready (:func:`buckets_make_ready`); the header (lowest, highest, size, ready)
    is the caller's; ``levels_at`` and ``items_at`` are the
    uint64 offsets of the levels and items (:func:`buckets_offsets`)."""
    at = ITEM_FIELDS * U(item)
    level_at = TWO * U(level)
    first = queue[levels_at + level_at + FIRST]
    # Find the neighbouring buckets: `before` (tie < ours, or -1) and `bucket` (tie >= ours, or -1).
    if first < 0 or queue[items_at + ITEM_FIELDS * U(first) + TIE] >= tie:  # at the front
        before, bucket = -1, first
    else:  # behind the first bucket: walk from the finger, forwards or backwards
        bucket = queue[levels_at + level_at + FINGER]
        if queue[items_at + ITEM_FIELDS * U(bucket) + TIE] < tie:
            before = bucket
            bucket = queue[items_at + ITEM_FIELDS * U(bucket) + BNEXT]
            while bucket >= 0 and queue[items_at + ITEM_FIELDS * U(bucket) + TIE] < tie:
                before = bucket
                bucket = queue[items_at + ITEM_FIELDS * U(bucket) + BNEXT]
        else:  # the first bucket's tie is below ours, so this walk stops before the front
            before = queue[items_at + ITEM_FIELDS * U(bucket) + BPREV]
            while queue[items_at + ITEM_FIELDS * U(before) + TIE] >= tie:
                bucket = before
                before = queue[items_at + ITEM_FIELDS * U(before) + BPREV]
    if bucket >= 0 and queue[items_at + ITEM_FIELDS * U(bucket) + TIE] == tie:  # join it, at its tail
        bucket_at = ITEM_FIELDS * U(bucket)
        tail = queue[items_at + bucket_at + PREV]
        queue[items_at + ITEM_FIELDS * U(tail) + NEXT] = item
        queue[items_at + at + PREV] = tail
        queue[items_at + at + NEXT] = bucket
        queue[items_at + bucket_at + PREV] = item
        queue[items_at + at + BPREV] = NOT_LEADER
        queue[levels_at + level_at + FINGER] = bucket
    else:  # a new bucket between `before` and `bucket`, led by item
        # Speed: only a leader's level and tie are read (a follower gets them when it takes over)
        queue[items_at + at + LEVEL] = level
        queue[items_at + at + TIE] = tie
        queue[items_at + at + NEXT] = item
        queue[items_at + at + PREV] = item
        queue[items_at + at + BNEXT] = bucket
        queue[items_at + at + BPREV] = before
        if bucket >= 0:
            queue[items_at + ITEM_FIELDS * U(bucket) + BPREV] = item
        if before >= 0:
            queue[items_at + ITEM_FIELDS * U(before) + BNEXT] = item
        else:
            queue[levels_at + level_at + FIRST] = item
        queue[levels_at + level_at + FINGER] = item


@njit(cache=True, inline="always")
def buckets_push(queue, item, level, tie):
    """Insert ``item`` with key ``(level, tie)``, after every item with the same key."""
    levels_at, items_at = buckets_offsets(queue)
    if level >= queue[READY]:
        queue[READY] = buckets_make_ready(queue, levels_at, queue[READY], level)
    bucket_link(queue, levels_at, items_at, item, level, tie)
    queue[SIZE] += 1
    if level < queue[LOWEST]:
        queue[LOWEST] = level
    if level > queue[HIGHEST]:
        queue[HIGHEST] = level


@njit(cache=True, inline="always")
def bucket_unlink(queue, levels_at, items_at, item):
    """Unlink ``item`` (in the queue) from its bucket and level. O(1); the header is the caller's."""
    at = ITEM_FIELDS * U(item)
    before = queue[items_at + at + BPREV]
    follower = queue[items_at + at + NEXT]
    if before == NOT_LEADER:  # inside its bucket: unlink it from the circle
        previous = queue[items_at + at + PREV]
        queue[items_at + ITEM_FIELDS * U(previous) + NEXT] = follower
        queue[items_at + ITEM_FIELDS * U(follower) + PREV] = previous
        return
    after = queue[items_at + at + BNEXT]
    level_at = TWO * U(queue[items_at + at + LEVEL])
    if follower != item:  # the bucket's next item takes over as leader
        tail = queue[items_at + at + PREV]
        follower_at = ITEM_FIELDS * U(follower)
        queue[items_at + ITEM_FIELDS * U(tail) + NEXT] = follower
        queue[items_at + follower_at + PREV] = tail
        queue[items_at + follower_at + BPREV] = before
        queue[items_at + follower_at + BNEXT] = after
        queue[items_at + follower_at + LEVEL] = queue[items_at + at + LEVEL]
        queue[items_at + follower_at + TIE] = queue[items_at + at + TIE]
        replacement = follower
        neighbour = follower
    else:  # the bucket empties
        replacement = after
        neighbour = before if before >= 0 else after
    if before >= 0:
        queue[items_at + ITEM_FIELDS * U(before) + BNEXT] = replacement
    else:
        queue[levels_at + level_at + FIRST] = replacement
    if after >= 0:
        queue[items_at + ITEM_FIELDS * U(after) + BPREV] = follower if follower != item else before
    if queue[levels_at + level_at + FINGER] == item:  # any leader of the level will do (unused once it empties)
        queue[levels_at + level_at + FINGER] = neighbour


@njit(cache=True, inline="always")
def buckets_remove(queue, item):
    """Take ``item`` (in the queue) out. O(1)."""
    levels_at, items_at = buckets_offsets(queue)
    queue[SIZE] -= 1
    bucket_unlink(queue, levels_at, items_at, item)


@njit(cache=True, inline="always")
def buckets_pop(queue):
    """Remove and return the first item of the lowest level's first bucket. Amortised O(1)."""
    level = U(buckets_peek_level(queue))
    item = queue[U(queue[LEVELS_AT]) + TWO * level + FIRST]
    buckets_remove(queue, item)
    return item


@njit(cache=True, inline="always")
def buckets_update(queue, item, level, tie):
    """Give ``item`` (in the queue) the key ``(level, tie)``, as a new insertion (last of its
    bucket, as a planner's new stamp puts it last among equal f and tie)."""
    buckets_remove(queue, item)
    buckets_push(queue, item, level, tie)


@njit(cache=True)
def buckets_clear(queue):
    """Empty the queue in O(levels used since the last clear); items need no reset."""
    levels_at = queue[LEVELS_AT]
    for level in range(queue[LOWEST], queue[HIGHEST] + 1):
        queue[levels_at + 2 * level] = -1
    queue[LOWEST] = (queue[ITEMS_AT] - levels_at) // 2
    queue[HIGHEST] = -1
    queue[SIZE] = 0
