"""The indexed binary min-heap for compiled code, with keys of two kinds: packed int64 keys, or
``(f, tie, stamp)`` triples whose f is a double.

The compiled twin of :class:`reference.solutions.heap.BinaryHeap` (SPEC §11), for use inside
``@njit`` functions. Both kinds hold cell indices with a position index (where the item is in the
heap, -1 when absent). Every planner's keys carry a stamp that makes them distinct, so any correct
heap pops the same items in the same order as the reference heap.

**Packed keys** (the grid searches whose costs are integers: Repeated A*, the real-time planners).
A heap is a plain tuple of four NumPy arrays, so it passes into and out of compiled code without
boxing and Numba can cache every function that takes one:

- ``keys``  (int64[capacity]): the heap array of keys; ``keys[0]`` is the smallest;
- ``items`` (uint32[capacity]): ``items[i]`` is the item whose key is ``keys[i]``;
- ``pos``   (int32[item_count]): ``pos[item]`` is the item's index in the heap, ``-1`` if absent;
- ``size``  (int64[1]): the number of entries (an array so that the functions can change it).

Items are integers in ``[0, item_count)`` (cell indices); each is in the heap at most once, so the
capacity is ``item_count``. ``pos`` replaces the reference heap's dictionary: an array look-up.

Indices are unsigned on purpose. Numba, like Python, lets a negative index count from the end, so
every access ``a[i]`` with a signed ``i`` costs a test and an add (and holds the array's length in a
register); an unsigned index cannot be negative, so the access is a bare load or store, as in C.
The sift loops therefore count in ``np.uint64`` and the items are ``uint32`` (they index ``pos``).
On the standard experiment this alone took the compiled twin from 1.33 to about 1.13 times C's time
(docs/speed.md).

Keys are single int64s on purpose. A planner's key is a tuple such as ``(f, -g, stamp)``; packed
into one integer that sorts the same way (mixed-radix digits, :func:`pack_key`), a comparison
is one machine instruction instead of a loop over tuple fields, a heap entry is 12 bytes instead of
a tuple object, and distinct stamps make keys distinct, so the pop order does not depend on how the
heap breaks ties: any correct heap pops the same items in the same order.

Numba caches compiled code per source file, so a planner that calls these functions would keep its
cached copy of them after this file changes; the package's fingerprint of all the twins' sources
(``compiled/__init__.py``) clears the cache when any of them changed, so nothing needs deleting.

API of the packed heap (all ``@njit(cache=True)``; call them from Python too, for tests and small jobs):
``heap_new(item_count)``, ``heap_len``, ``heap_contains(heap, item)``, ``heap_peek(heap)`` (item),
``heap_peek_key(heap)``, ``heap_push(heap, item, key)``, ``heap_pop(heap)`` (item),
``heap_update(heap, item, key)`` (any direction), ``heap_remove(heap, item)``,
``heap_clear(heap)`` (O(size), not O(item_count): it forgets only the entries it holds),
``heap_renumber_stamps(heap, stamp_bits)`` (for keys ending in a stamp that is running out).
Misuse raises like the reference heap: ``IndexError`` (pop or peek an empty heap),
``KeyError`` (update or remove an absent item), ``ValueError`` (push an item already present).

**(f, tie, stamp) keys** (the searches on known eight-connected maps: :mod:`.shortest_paths`, and the
HAA* and subgoaling twins): f and the tie (``-g`` or ``g``) are doubles ``a + b·√2`` that no integer
packs exactly, so the key stays three arrays indexed by heap position, ``f``, ``tie`` (float64) and
``stamp`` (int64), beside ``heap`` (the items) and ``position``; the caller keeps the size. The caller
writes a new or lowered key at its position, then calls :func:`triple_heap_sift_up` (a raised key:
:func:`triple_heap_sift_down`); :func:`triple_heap_pop` returns ``(item, new size)``,
:func:`triple_heap_remove` takes out any entry. The functions compare with ``<`` and ``!=`` only, so
f and tie may be int64 arrays too: D* Lite's keys ``(k1, k2, stamp)`` are (``compiled/realtime/``).

>>> heap = heap_new(10)
>>> heap_push(heap, 3, 20); heap_push(heap, 7, 10); heap_push(heap, 5, 30)
>>> heap_update(heap, 5, 5)
>>> heap_pop(heap), heap_pop(heap), heap_len(heap), heap_contains(heap, 3)
(5, 7, 1, True)
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def pack_key(f, g, stamp, larger_g, n):
    """The key ``(f, -g, stamp)`` (``larger_g``) or ``(f, g, stamp)`` as one int64 with the same order.

    On a grid of ``n`` cells g lies in ``[0, n)`` and a search makes at most ``4n + 1`` insertions,
    so the three parts fit side by side as digits of a mixed-radix number,
    ``(f * n + tie) * (4n + 2) + stamp``, with ``tie = n - 1 - g`` for ``larger_g`` and ``g``
    otherwise. ``key // (n * (4n + 2))`` is f again. It fits 64 bits below about a million cells.

    >>> pack_key(8, 3, 1, True, 25) < pack_key(8, 2, 0, True, 25)    # larger g first
    True
    """
    tie = n - 1 - g if larger_g else g
    return (np.int64(f) * n + tie) * (4 * n + 2) + stamp


@njit(cache=True)
def heap_new(item_count):
    """An empty heap for items ``0 .. item_count - 1``: ``(keys, items, pos, size)``."""
    keys = np.empty(item_count, np.int64)
    items = np.empty(item_count, np.uint32)
    pos = np.full(item_count, -1, np.int32)
    size = np.zeros(1, np.int64)
    return keys, items, pos, size


@njit(cache=True)
def heap_len(heap):
    """The number of items in the heap."""
    return heap[3][0]


@njit(cache=True)
def heap_contains(heap, item):
    """Whether ``item`` is in the heap. O(1)."""
    return heap[2][item] >= 0


@njit(cache=True)
def heap_peek(heap):
    """The item with the smallest key, left in the heap. O(1)."""
    if heap[3][0] == 0:
        raise IndexError("peek at an empty heap")
    return heap[1][0]


@njit(cache=True)
def heap_peek_key(heap):
    """The smallest key in the heap. O(1)."""
    if heap[3][0] == 0:
        raise IndexError("peek at an empty heap")
    return heap[0][0]


@njit(cache=True)
def _sift_up(heap, i, key, item):
    """Place (key, item) at or above hole ``i``, moving larger parents down. O(log n)."""
    keys, items, pos = heap[0], heap[1], heap[2]
    i = np.uint64(i)  # unsigned: no negative-index test on each access (see the module's docstring)
    one = np.uint64(1)  # unsigned too: uint64 - 1 (a signed literal) would be a signed int64 again
    while i > 0:
        parent = (i - one) >> one
        if keys[parent] <= key:
            break
        moved = items[parent]
        keys[i] = keys[parent]
        items[i] = moved
        pos[moved] = i
        i = parent
    keys[i] = key
    items[i] = item
    pos[item] = i


@njit(cache=True)
def _sift_down(heap, i, key, item):
    """Place (key, item) at or below hole ``i``, moving smaller children up. O(log n)."""
    keys, items, pos = heap[0], heap[1], heap[2]
    size = np.uint64(heap[3][0])
    i = np.uint64(i)  # unsigned, as in _sift_up
    one = np.uint64(1)
    while True:
        child = i + i + one
        if child >= size:
            break
        if child + one < size and keys[child + one] < keys[child]:
            child += one
        if keys[child] >= key:
            break
        moved = items[child]
        keys[i] = keys[child]
        items[i] = moved
        pos[moved] = i
        i = child
    keys[i] = key
    items[i] = item
    pos[item] = i


@njit(cache=True)
def heap_push(heap, item, key):
    """Insert ``item`` with ``key``. O(log n)."""
    if heap[2][item] >= 0:
        raise ValueError("item is already in the heap; use heap_update to change its key")
    size = heap[3]
    size[0] += 1
    _sift_up(heap, size[0] - 1, key, item)


@njit(cache=True)
def _take_out(heap, i):
    """Remove the entry at index ``i``: the last entry fills the hole and moves up or down."""
    keys, items, pos = heap[0], heap[1], heap[2]
    size = heap[3]
    pos[items[i]] = -1
    size[0] -= 1
    last = size[0]
    if i == last:
        return
    key, item = keys[last], items[last]
    if i > 0 and key < keys[(i - 1) >> 1]:
        _sift_up(heap, i, key, item)
    else:
        _sift_down(heap, i, key, item)


@njit(cache=True)
def heap_pop(heap):
    """Remove and return the item with the smallest key. O(log n)."""
    if heap[3][0] == 0:
        raise IndexError("pop from an empty heap")
    top = heap[1][0]
    _take_out(heap, 0)
    return top


@njit(cache=True)
def heap_update(heap, item, key):
    """Give ``item`` (in the heap) a new key, smaller or larger. O(log n)."""
    i = heap[2][item]
    if i < 0:
        raise KeyError("item is not in the heap")
    keys = heap[0]
    if key < keys[i]:
        _sift_up(heap, i, key, item)
    else:
        _sift_down(heap, i, key, item)


@njit(cache=True)
def heap_remove(heap, item):
    """Remove ``item`` (in the heap). O(log n)."""
    i = heap[2][item]
    if i < 0:
        raise KeyError("item is not in the heap")
    _take_out(heap, i)


@njit(cache=True)
def heap_clear(heap):
    """Empty the heap in O(size): only the positions of the items it holds are reset."""
    items, pos, size = heap[1], heap[2], heap[3]
    for i in range(size[0]):
        pos[items[i]] = -1
    size[0] = 0


@njit(cache=True)
def heap_renumber_stamps(heap, stamp_bits):
    """Give the entries of a packed heap whose keys end in a ``stamp_bits``-bit stamp the stamps
    ``0 .. size - 1`` in their present stamp order; returns the size, the next stamp to draw. O(size log size).

    A planner that draws a fresh stamp for every insertion runs out of them after ``2**stamp_bits``;
    only the order of the stamps in the heap matters, so renumbering them keeps every key's rank
    among the others (the heap stays valid, nothing moves) and frees ``2**stamp_bits - size`` stamps.

    >>> heap = heap_new(4)
    >>> heap_push(heap, 0, (7 << 3) + 6); heap_push(heap, 1, (7 << 3) + 5); heap_push(heap, 2, (2 << 3) + 7)
    >>> heap_renumber_stamps(heap, 3), sorted((heap[0][:3] & 7).tolist())
    (3, [0, 1, 2])
    >>> heap_pop(heap), heap_peek_key(heap)     # then 7 << 3 with stamp 0 (was 5), before stamp 1 (was 6)
    (2, 56)
    """
    keys, size = heap[0], heap[3][0]
    mask = np.int64((1 << stamp_bits) - 1)
    order = np.argsort(keys[:size] & mask)
    for new_stamp in range(size):
        i = order[new_stamp]
        keys[i] = keys[i] - (keys[i] & mask) + new_stamp
    return size


# -- (f, tie, stamp) keys ----------------------------------------------------------------------------


@njit(cache=True)
def _triple_less(f, tie, stamp, i, j):
    """Key of heap entry i < key of heap entry j, lexicographically on (f, tie, stamp)."""
    if f[i] != f[j]:
        return f[i] < f[j]
    if tie[i] != tie[j]:
        return tie[i] < tie[j]
    return stamp[i] < stamp[j]


@njit(cache=True, inline="always")
def _key_less(a_f, a_tie, a_stamp, b_f, b_tie, b_stamp):
    """(a_f, a_tie, a_stamp) < (b_f, b_tie, b_stamp), lexicographically."""
    if a_f != b_f:
        return a_f < b_f
    if a_tie != b_tie:
        return a_tie < b_tie
    return a_stamp < b_stamp


@njit(cache=True, inline="always")
def _move(heap, f, tie, stamp, position, source, target):
    """Copy entry ``source`` into the hole at ``target``."""
    heap[target], f[target], tie[target], stamp[target] = heap[source], f[source], tie[source], stamp[source]
    position[heap[target]] = target


@njit(cache=True, inline="always")
def triple_heap_sift_up(heap, f, tie, stamp, position, i):
    """Move entry ``i``, whose key was just written into ``f[i]``, ``tie[i]``, ``stamp[i]`` (a new
    entry at ``i = size``, or a key that fell), up to its place. O(log n).

    Speed: the entry waits aside while larger parents move down into the hole (one write per level
    instead of a swap's two); the heap ends as a chain of swaps would leave it.
    """
    item, key_f, key_tie, key_stamp = heap[i], f[i], tie[i], stamp[i]
    while i > 0:
        parent = (i - 1) >> 1
        if not _key_less(key_f, key_tie, key_stamp, f[parent], tie[parent], stamp[parent]):
            break
        _move(heap, f, tie, stamp, position, parent, i)
        i = parent
    heap[i], f[i], tie[i], stamp[i] = item, key_f, key_tie, key_stamp
    position[item] = i


@njit(cache=True, inline="always")
def triple_heap_sift_down(heap, f, tie, stamp, position, i, size):
    """Move entry ``i``, whose key was just raised, down to its place among ``size`` entries. O(log n).

    Speed: as :func:`triple_heap_sift_up`, smaller children move up into the hole.
    """
    item, key_f, key_tie, key_stamp = heap[i], f[i], tie[i], stamp[i]
    while True:
        child = 2 * i + 1
        if child >= size:
            break
        if child + 1 < size and _triple_less(f, tie, stamp, child + 1, child):
            child += 1
        if not _key_less(f[child], tie[child], stamp[child], key_f, key_tie, key_stamp):
            break
        _move(heap, f, tie, stamp, position, child, i)
        i = child
    heap[i], f[i], tie[i], stamp[i] = item, key_f, key_tie, key_stamp
    position[item] = i


@njit(cache=True)
def triple_heap_pop(heap, f, tie, stamp, position, size):
    """Take the root (the smallest key) off the heap of ``size`` entries: ``(state, new size)``."""
    s = heap[0]
    position[s] = -1
    size -= 1
    if size > 0:  # the last entry to the root, then let it sink
        heap[0], f[0], tie[0], stamp[0] = heap[size], f[size], tie[size], stamp[size]
        position[heap[0]] = 0
        triple_heap_sift_down(heap, f, tie, stamp, position, 0, size)
    return s, size


@njit(cache=True, inline="always")
def triple_heap_remove(heap, f, tie, stamp, position, i, size):
    """Take entry ``i`` out of the heap of ``size`` entries; returns the new size. O(log n).

    The last entry fills the hole and moves up or down to its place.
    """
    position[heap[i]] = -1
    size -= 1
    if i < size:
        heap[i], f[i], tie[i], stamp[i] = heap[size], f[size], tie[size], stamp[size]
        position[heap[i]] = i
        if i > 0 and _triple_less(f, tie, stamp, i, (i - 1) >> 1):
            triple_heap_sift_up(heap, f, tie, stamp, position, i)
        else:
            triple_heap_sift_down(heap, f, tie, stamp, position, i, size)
    return size
