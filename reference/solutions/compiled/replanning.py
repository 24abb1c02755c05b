"""The compiled twin of Repeated Forward/Backward A* and Adaptive A* (SPEC §4-7, §16).

The same algorithm as :mod:`reference.solutions.replanning`, line for line in the handout's
Figure 4, compiled by Numba: it returns the same trace, expansion for expansion (the tests compare
them), some fifty times faster. It differs only where speed asks for it:

* the whole run (sense, search, walk, repeat) is one compiled function, :func:`run_repeated_astar`,
  working on flat NumPy arrays indexed by cell (``row * width + col``); it senses from the true
  grid itself, exactly as ``FogOfWarWorld.sense`` answers (the four neighbours, east, south, west,
  north);
* OPEN is the two-level bucket queue of :mod:`reference.solutions.compiled.buckets` (f, then the
  tie ``n - 1 - g`` or ``g``, then insertion order: exactly the SPEC's key ``(f, -g, stamp)`` or
  ``(f, g, stamp)``, with O(1) steps), or, with ``queue="heap"``, the compiled indexed heap
  (:mod:`reference.solutions.compiled.heap`), where the key is packed into one int64 that sorts
  the same way, ``(f * n + tie) * (4n + 2) + stamp`` on a grid of n cells (g < n, and a search
  makes at most 4n + 1 insertions), so that a key comparison is one machine instruction;
* the trace comes back as arrays (:class:`reference.world.trace_arrays.TraceArrays`), growing by
  doubling; ``record_cells=False`` keeps only the counts (for very large grids).

>>> from reference.world.grid import Gridworld
>>> grid = Gridworld.from_strings([".....", "..@..", "..@@.", "..@@.", "...@."])  # the handout's Figure 2
>>> run = run_compiled(grid, (4, 2), (4, 4), "forward")
>>> run.reached, [int(n) for n in np.diff(run.expanded_offsets)][:2]
(True, [10, 13])
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
from numba import njit

from reference.world.grid import Cell, Gridworld
from reference.world.instances import Instance
from reference.world.trace import TIE_BREAKS, Trace
from reference.world.trace_arrays import TraceArrays

from .buckets import READY, bucket_link, bucket_unlink, buckets_make_ready, buckets_new, buckets_offsets
from .heap import heap_clear, heap_len, heap_peek_key, heap_pop, heap_push, heap_update

#: g of a state not reached yet: the largest 32-bit int, as in the reference.
INFINITY = 2**31 - 1
#: g_search of a cell the agent has seen blocked (no search's word is negative).
KNOWN_BLOCKED = -1
ALGORITHMS = ("forward", "backward", "adaptive")
#: OPEN in the twin: the two-level bucket queue (default, faster) or the binary heap (packed keys).
QUEUES = ("buckets", "heap")
#: The most cells the bucket queue takes: its offsets (8 + 4 * cells for 2 * cells levels) are int32.
LARGEST_GRID_BUCKETS = (2**31 - 1 - 8) // 4
U2 = np.uint64(2)  # a level's two entries in the bucket queue (uint64: see buckets.py)


def largest_grid_for_packed_keys() -> int:
    """The most cells a grid may have for the packed keys to fit in 64 bits.

    A key is ``(f * n + tie) * (4n + 2) + stamp`` with ``f < 2n`` (g and h each below n), so it stays
    below ``2n * n * (4n + 2)``, which must be below 2**63: about 1.04 million cells (a 1001 x 1001
    maze fits; a 1024 x 1024 map does not).
    """
    low, high = 1, 2**21  # 2**21 cells is too many: 2 * 2**42 * 2**23 > 2**63
    while high - low > 1:  # bisect for the largest n with 2n * n * (4n + 2) < 2**63
        mid = (low + high) // 2
        if 2 * mid * mid * (4 * mid + 2) < 2**63:
            low = mid
        else:
            high = mid
    return low


LARGEST_GRID = largest_grid_for_packed_keys()


@njit(cache=True)
def _grown(buffer, used):
    """``buffer`` with twice the room, its first ``used`` entries kept (amortised O(1) appends)."""
    bigger = np.empty(max(16, 2 * buffer.shape[0]), buffer.dtype)
    bigger[:used] = buffer[:used]
    return bigger


@njit(cache=True)
def _observe(true_blocked, g_search, path_index, cell, width, last_col, last_row_start, step):
    """Sense the four neighbours of ``cell`` (SPEC §4); remember those blocked (a negative word in
    ``g_search``, see :func:`run_repeated_astar`). Returns whether a newly seen blocked cell lies on
    the path ahead (a position ``path_index - 1`` beyond ``step``; SPEC §6)."""
    col = cell % width
    blocked_ahead = False
    for k in range(4):  # east, south, west, north, as FogOfWarWorld.sense answers
        if k == 0:
            t = cell + 1 if col != last_col else -1
        elif k == 1:
            t = cell + width if cell < last_row_start else -1
        elif k == 2:
            t = cell - 1 if col != 0 else -1
        else:
            t = cell - width if cell >= width else -1
        if t >= 0 and true_blocked[t] and g_search[t] != KNOWN_BLOCKED:
            g_search[t] = KNOWN_BLOCKED
            if path_index[t] > step + 1:  # path_index is the position + 1 (0: not on the path)
                blocked_ahead = True
    return blocked_ahead


@njit(cache=True)
def run_repeated_astar(true_blocked, height, width, start, target, backward, adaptive, larger_g, record_cells,
                       g_search, tree, learned_h, path_index, use_buckets, heap, queue):
    """One whole run (Figure 4's Main, lines 14-34, with ComputePath inlined as lines 1-13).

    ``true_blocked`` (uint8, one per cell) is the true grid the agent senses; ``g_search`` (int64,
    all 0), ``tree`` (int32, any values), ``learned_h`` (int32, all -1), ``path_index`` (int32, all 0:
    a cell's position on the path being walked + 1) and OPEN are the run's state, allocated by the caller (lines 15-17: the one pass over all cells).

    Speed: Figure 4's g(s) and search(s) and the agent's knowledge share one int64 word per cell,
    ``search << 32 | g``, or :data:`KNOWN_BLOCKED` (-1) once the cell is seen blocked: the test of
    line 6 and the g of line 9 are one load, and a known blocked cell is a negative word. As
    search numbers only grow, a word below ``counter << 32`` belongs to an earlier search (line 7:
    g is infinite).
    OPEN is the bucket queue ``queue`` when ``use_buckets``, else the binary ``heap`` (the other
    one is not touched; the two pop the same cells in the same order).
    Returns ``(reached, moves, trajectory, starts, goals, expanded, expanded_offsets, paths,
    path_offsets)``; with ``record_cells`` False the cell arrays stay empty.
    """
    cells = height * width
    last_col, last_row_start = width - 1, (height - 1) * width
    stamp_radix = 4 * cells + 2
    f_radix = cells * stamp_radix  # key // f_radix is the key's f
    # Speed: cells and keys are never negative, so the divisions of the inner loop divide unsigned
    # numbers: Python's // and % round towards minus infinity, which costs a sign test and a fix-up
    # after each signed division; an unsigned one is the bare machine division (about 3 % of a run).
    u_width, u_f_radix = np.uint64(width), np.uint64(f_radix)

    trajectory = np.empty(256, np.int32)
    starts = np.empty(16, np.int32)
    goals = np.empty(16, np.int32)
    expanded = np.empty(4096, np.int32)     # counts only: this search's expansions, then reused
    expanded_offsets = np.zeros(17, np.int64)
    paths = np.empty(1024, np.int32)        # counts only: this search's path, then reused
    path_offsets = np.zeros(17, np.int64)
    n_trajectory = 0
    n_searches = 0
    n_expanded = 0       # entries used in `expanded`
    n_paths = 0          # entries used in `paths`
    total_expanded = 0
    total_paths = 0
    moves = 0

    # The bucket queue's offsets and header (lowest level, highest level used, size) in locals
    # (buckets.buckets_offsets says what that buys); the array's own header is left as it was.
    levels_at, items_at = buckets_offsets(queue)
    level_count = np.int64((items_at - levels_at) // U2)
    lowest, highest, open_size = level_count, -1, 0
    # Memory: levels are made empty when an insertion first reaches them, not up front (buckets.py).
    levels_ready = np.int64(queue[READY])

    agent = start
    _observe(true_blocked, g_search, path_index, agent, width, last_col, last_row_start, 0)
    if record_cells:
        trajectory[0] = agent
        n_trajectory = 1
    counter = 0
    reached = True
    while agent != target:  # line 18
        counter += 1  # line 19
        if backward:
            s_start, s_goal = target, agent
        else:
            s_start, s_goal = agent, target
        goal_row, goal_col = s_goal // width, s_goal % width
        this_search = np.int64(counter) << 32  # g_search of a cell this search has reached, with g = 0

        # -- ComputePath (lines 20-25, then 1-13) --
        g_search[s_start] = this_search  # lines 20-21: g = 0, search = counter
        g_search[s_goal] = this_search + INFINITY  # lines 22-23
        if use_buckets:  # line 24 (O(levels used by the last search), never O(cells))
            for level in range(lowest, highest + 1):
                queue[levels_at + U2 * np.uint64(level)] = -1
            lowest, highest, open_size = level_count, -1, 0
        else:
            heap_clear(heap)
        first_expanded = n_expanded
        stamp = 0
        h_start = abs(s_start // width - goal_row) + abs(s_start % width - goal_col)
        if adaptive and learned_h[s_start] >= 0:
            h_start = learned_h[s_start]
        tie_start = cells - 1 if larger_g else 0
        if use_buckets:  # line 25
            if h_start >= levels_ready:
                levels_ready = buckets_make_ready(queue, levels_at, levels_ready, h_start)
            bucket_link(queue, levels_at, items_at, s_start, h_start, tie_start)
            lowest, highest, open_size = h_start, h_start, 1
        else:
            heap_push(heap, s_start, np.int64(h_start * cells + tie_start) * stamp_radix)
        while True:
            # line 2: while g(s_goal) > min f over OPEN (infinity when OPEN is empty)
            if use_buckets:
                if open_size == 0:
                    break
                while queue[levels_at + U2 * np.uint64(lowest)] < 0:  # the lowest level with an item: min f
                    lowest += 1
                if g_search[s_goal] - this_search <= lowest:
                    break
                s = queue[levels_at + U2 * np.uint64(lowest)]  # line 3: the first item of its first bucket
                bucket_unlink(queue, levels_at, items_at, s)
                open_size -= 1
            else:
                if (heap_len(heap) == 0
                        or g_search[s_goal] - this_search <= np.int64(np.uint64(heap_peek_key(heap)) // u_f_radix)):
                    break
                s = heap_pop(heap)  # line 3
            if n_expanded == expanded.shape[0]:
                expanded = _grown(expanded, n_expanded)
            expanded[n_expanded] = s  # line 4
            n_expanded += 1
            # Speed: cells are never negative, so they index as unsigned numbers: a signed index
            # costs a test and an add on every access (Numba's wrap-around, see heap.py).
            g_next = g_search[np.uint64(s)] - this_search + 1
            # Speed: one division per expansion gives the row and column; the neighbours' h follow
            # from them (a 64-bit division per generated cell had cost about a tenth of a run).
            row = np.int64(np.uint64(s) // u_width)
            col = s - row * width
            for k in range(4):  # line 5: east, south, west, north, inside the grid
                t_row, t_col = row, col
                if k == 0:
                    t_col = col + 1
                    t = s + 1 if col != last_col else -1
                elif k == 1:
                    t_row = row + 1
                    t = s + width if s < last_row_start else -1
                elif k == 2:
                    t_col = col - 1
                    t = s - 1 if col != 0 else -1
                else:
                    t_row = row - 1
                    t = s - width if s >= width else -1
                if t < 0:
                    continue
                ut = np.uint64(t)
                word = g_search[ut]
                if word < 0:  # known blocked
                    continue
                g_t = word - this_search  # lines 6-8: g(t), infinite if an earlier search set it
                if g_t < 0:
                    g_t = INFINITY
                if g_t > g_next:  # line 9
                    in_open = g_t != INFINITY  # as in the reference: finite g means t is in OPEN
                    g_search[ut] = this_search + g_next  # line 10 (and search(t) = counter)
                    tree[ut] = s  # line 11
                    if adaptive and learned_h[ut] >= 0:
                        h_t = learned_h[ut]
                    else:
                        h_t = abs(t_row - goal_row) + abs(t_col - goal_col)
                    tie = cells - 1 - g_next if larger_g else g_next
                    if use_buckets:  # lines 12-13; insertion order is the stamp
                        f_t = g_next + h_t
                        if in_open:  # a new insertion: last among its (level, tie)
                            bucket_unlink(queue, levels_at, items_at, t)
                        else:
                            open_size += 1
                        if f_t >= levels_ready:  # a level no search has reached yet
                            levels_ready = buckets_make_ready(queue, levels_at, levels_ready, f_t)
                        bucket_link(queue, levels_at, items_at, t, f_t, tie)
                        lowest = min(lowest, f_t)
                        highest = max(highest, f_t)
                    else:
                        stamp += 1
                        key = (np.int64(g_next + h_t) * cells + tie) * stamp_radix + stamp
                        if in_open:
                            heap_update(heap, t, key)
                        else:
                            heap_push(heap, t, key)

        # -- record the search --
        if n_searches + 1 == starts.shape[0]:
            starts = _grown(starts, n_searches)
            goals = _grown(goals, n_searches)
            expanded_offsets = _grown(expanded_offsets, n_searches + 1)
            path_offsets = _grown(path_offsets, n_searches + 1)
        starts[n_searches] = s_start
        goals[n_searches] = s_goal
        total_expanded += n_expanded - first_expanded
        expanded_offsets[n_searches + 1] = total_expanded
        goal_distance = g_search[s_goal] - this_search
        found = goal_distance < INFINITY  # line 27
        first_path = n_paths
        if found:  # line 30: the path off the tree pointers, goal to start
            cell = s_goal
            while True:
                if n_paths == paths.shape[0]:
                    paths = _grown(paths, n_paths)
                paths[n_paths] = cell
                n_paths += 1
                if cell == s_start:
                    break
                cell = tree[cell]
            if not backward:  # forward: reverse into agent-to-target order
                i, j = first_path, n_paths - 1
                while i < j:
                    paths[i], paths[j] = paths[j], paths[i]
                    i += 1
                    j -= 1
        total_paths += n_paths - first_path
        path_offsets[n_searches + 1] = total_paths
        n_searches += 1
        if not found:
            reached = False  # line 28: "I cannot reach the target."
            break
        if adaptive:  # SPEC §7: h(s) = g(s_goal) - g(s) for this search's CLOSED
            for i in range(first_expanded, n_expanded):
                s = expanded[i]
                learned_h[s] = goal_distance - (g_search[s] - this_search)

        # -- walk the path (lines 30-32; SPEC §6) --
        for i in range(first_path, n_paths):
            path_index[paths[i]] = i - first_path + 1
        for step in range(1, n_paths - first_path):
            agent = paths[first_path + step]
            moves += 1
            if record_cells:
                if n_trajectory == trajectory.shape[0]:
                    trajectory = _grown(trajectory, n_trajectory)
                trajectory[n_trajectory] = agent
                n_trajectory += 1
            if _observe(true_blocked, g_search, path_index, agent, width, last_col, last_row_start, step):
                break  # a cell ahead is blocked: search again from here
        for i in range(first_path, n_paths):
            path_index[paths[i]] = 0
        if not record_cells:  # counts only: forget this search's cells
            n_expanded = 0
            n_paths = 0

    if not record_cells:  # the last search's cells too (a run that cannot reach the target)
        n_expanded = 0
        n_paths = 0
    return (reached, moves, trajectory[:n_trajectory].copy(), starts[:n_searches].copy(),
            goals[:n_searches].copy(), expanded[:n_expanded].copy(), expanded_offsets[:n_searches + 1].copy(),
            paths[:n_paths].copy(), path_offsets[:n_searches + 1].copy())


def allocate_state(cells: int, adaptive: bool, queue: str = "buckets") -> dict[str, np.ndarray]:
    """The run's per-cell state (Figure 4, lines 15-17), allocated in Python so it can be measured.

    Bytes per cell: g_search 8 (g, search and the agent's knowledge in one word); tree and
    path_index 4 each; learned_h 4 more for Adaptive A*; OPEN: the bucket queue 40 (one int32 array: six entries per cell, two per level,
    with levels f < 2 * cells) or the heap 16 (an int64 key, a uint32 item and an int32 position).
    Resident are only the pages a run writes: ``np.zeros`` and ``np.empty`` of this size map pages
    that stay untouched until written (as C's ``calloc`` and ``malloc``), and the bucket queue's
    levels are made empty only as far as the run's f values reach.

    >>> sorted(allocate_state(4, False, "heap"))[:3], allocate_state(4, False)["buckets"].nbytes  # 32 + 4 * 40
    (['g_search', 'heap_items', 'heap_keys'], 192)
    """
    state: dict[str, np.ndarray] = {
        "g_search": np.zeros(cells, np.int64),
        # Memory: no initial values where none are read (tree: a search writes a cell's pointer before
        # the path reads it) and zeros elsewhere, so that, as with C's calloc, the pages of cells a
        # run never reaches are never made resident (np.full would write every page up front).
        "tree": np.empty(cells, np.int32),
        "learned_h": np.full(cells if adaptive else 1, -1, np.int32),
        "path_index": np.zeros(cells, np.int32),
    }
    if queue == "buckets":  # f = g + h < 2 * cells levels (g and h are each below the cells)
        state["buckets"] = buckets_new(cells, 2 * cells)
    else:
        state.update({"heap_keys": np.empty(cells, np.int64), "heap_items": np.empty(cells, np.uint32),
                      "heap_pos": np.full(cells, -1, np.int32), "heap_size": np.zeros(1, np.int64)})
    return state


# The OPEN list a run does not use (the compiled function takes both; sizes 1, never touched).
_NO_HEAP = (np.empty(1, np.int64), np.empty(1, np.uint32), np.full(1, -1, np.int32), np.zeros(1, np.int64))
_NO_BUCKETS = buckets_new(0, 0)  # a header, no levels or items


# The whole run with its state allocated in compiled code, as allocate_state allocates it (the bucket
# queue): one call from arguments Python has at hand, the one function the ahead-of-time module
# exports (build_ahead_of_time; reference/cli/_ahead_of_time.py).
_buckets_new_compiled = njit(cache=True)(buckets_new)


def run_on_fresh_state(true_blocked, height, width, start, target, backward, adaptive, larger_g, record_cells):
    """:func:`run_repeated_astar` on a fresh state (bucket queue): what :func:`run_compiled` runs. Plain
    Python here: Numba's ahead-of-time compiler compiles it (:func:`build_ahead_of_time`), nothing
    calls it uncompiled."""
    cells = height * width
    no_heap = (np.empty(1, np.int64), np.empty(1, np.uint32), np.full(1, -1, np.int32), np.zeros(1, np.int64))
    return run_repeated_astar(true_blocked, height, width, start, target, backward, adaptive, larger_g,
                              record_cells, np.zeros(cells, np.int64), np.empty(cells, np.int32),
                              np.full(cells if adaptive else 1, -1, np.int32), np.zeros(cells, np.int32),
                              True, no_heap, _buckets_new_compiled(cells, 2 * cells))


#: run_on_fresh_state's types for Numba's ahead-of-time compiler: it returns
#: (reached, moves, trajectory, starts, goals, expanded, expanded_offsets, paths, path_offsets) and takes
#: (true_blocked, height, width, start, target, backward, adaptive, larger_g, record_cells).
AHEAD_OF_TIME_SIGNATURE = ("Tuple((b1, i8, i4[::1], i4[::1], i4[::1], i4[::1], i8[::1], i4[::1], i8[::1]))"
                           "(u1[::1], i8, i8, i8, i8, b1, b1, b1, b1)")


def build_ahead_of_time(path: Path, module_name: str) -> None:
    """Compile :func:`run_on_fresh_state` ahead of time into the extension module ``module_name`` at
    ``path`` (``path``'s name must be ``module_name`` plus this Python's extension suffix).

    Numba's ahead-of-time compiler (``numba.pycc``, pending deprecation in Numba but still shipped)
    writes an ordinary extension module that needs NumPy, not Numba, to be imported: Numba's own
    compiler on the same source, for a generic CPU of this architecture (as fast here as the JIT's
    code for this CPU: 50 mazes x 3 algorithms in the same CPU time, docs/speed.md). It needs a C
    compiler and costs about 20 CPU s (Numba 14, the C compiler 5). The module is written beside
    ``path`` and renamed into place, so a process never loads a half-written one. Raises whatever
    the build raises.
    """
    import tempfile
    import warnings

    from numba.core.errors import NumbaPendingDeprecationWarning

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NumbaPendingDeprecationWarning)
        from numba.pycc import CC

    with tempfile.TemporaryDirectory(prefix="ftr-ahead-", dir=path.parent) as building:
        module = CC(module_name)
        module.output_dir = building
        module.output_file = path.name
        module.export("run_on_fresh_state", AHEAD_OF_TIME_SIGNATURE)(run_on_fresh_state)
        module.compile()
        os.replace(Path(building) / path.name, path)


def run_compiled(grid: Gridworld, start: Cell, target: Cell, algorithm: str = "forward",
                 tie_break: str = "larger_g", record_cells: bool = True, queue: str = "buckets") -> TraceArrays:
    """Run ``algorithm`` (forward, backward or adaptive) on ``grid`` from ``start`` to ``target``.

    Parameters
    ----------
    grid : Gridworld
        The true grid; the run senses it exactly as ``FogOfWarWorld`` does.
    start, target : Cell
        ``(row, col)`` of the agent's first cell and of the target.
    algorithm : {"forward", "backward", "adaptive"}
    tie_break : {"larger_g", "smaller_g"}
    record_cells : bool
        False keeps only the counts per search (memory independent of the number of expansions).
    queue : {"buckets", "heap"}
        OPEN: the two-level bucket queue, or the binary heap with packed keys (at most
        :data:`LARGEST_GRID` cells). The trace is the same.

    Returns
    -------
    TraceArrays
        The trace as arrays; ``.to_trace()`` gives the reference's :class:`Trace`, equal to theirs.

    Raises
    ------
    ValueError
        An unknown algorithm, tie rule or queue; a grid too large for the queue; a start or target
        outside the grid or blocked.

    See Also
    --------
    reference.solutions.replanning.repeated_forward_astar, reference.solutions.replanning.repeated_backward_astar,
    reference.solutions.replanning.adaptive_astar : the readable reference this twin mirrors.

    Examples
    --------
    >>> from reference.world import Gridworld
    >>> run = run_compiled(Gridworld.from_strings(["...", ".@.", "..."]), (2, 0), (0, 2))
    >>> run.to_trace().trajectory[-1], run.to_trace().reached
    ((0, 2), True)
    """
    if algorithm not in ALGORITHMS:
        raise ValueError(f"unknown algorithm {algorithm!r}; choose one of {', '.join(ALGORITHMS)}")
    if tie_break not in TIE_BREAKS:
        raise ValueError(f"tie_break must be 'larger_g' or 'smaller_g', got {tie_break!r}")
    if queue not in QUEUES:
        raise ValueError(f"queue must be 'buckets' or 'heap', got {queue!r}")
    height, width = int(grid.height), int(grid.width)
    cells = height * width
    if cells > LARGEST_GRID_BUCKETS:
        raise ValueError(f"the compiled twin's bucket queue has int32 offsets: at most {LARGEST_GRID_BUCKETS:,} cells, "
                         f"this grid has {cells:,}")
    if queue == "heap" and cells > LARGEST_GRID:
        raise ValueError(f"the compiled twin's heap packs keys into 64 bits: at most {LARGEST_GRID:,} cells, "
                         f"this grid has {cells:,} (the bucket queue, queue='buckets', takes it)")
    for label, (row, col) in (("start", start), ("target", target)):
        if not (0 <= row < height and 0 <= col < width):
            raise ValueError(f"the {label} {(row, col)} lies outside the {height} x {width} grid")
        if grid.blocked[row, col]:
            raise ValueError(f"the {label} {(row, col)} is a blocked cell")
    # One uint8 per cell, C order: the flat index row * width + col. Memory: the grid's own booleans
    # seen as uint8 (the same bytes, 0 or 1), not a copy, when they are in C order already.
    true_blocked = np.ascontiguousarray(grid.blocked, dtype=np.bool_).view(np.uint8).reshape(-1)
    state = allocate_state(cells, algorithm == "adaptive", queue)
    if queue == "buckets":
        buckets = state["buckets"]
        heap = _NO_HEAP
    else:
        buckets = _NO_BUCKETS
        heap = (state["heap_keys"], state["heap_items"], state["heap_pos"], state["heap_size"])
    result = run_repeated_astar(
        true_blocked, height, width, start[0] * width + start[1], target[0] * width + target[1],
        algorithm == "backward", algorithm == "adaptive", tie_break == "larger_g", record_cells,
        state["g_search"], state["tree"], state["learned_h"],
        state["path_index"], queue == "buckets", heap, buckets,
    )
    reached, moves, trajectory, starts, goals, expanded, expanded_offsets, paths, path_offsets = result
    return TraceArrays(algorithm, tie_break, bool(reached), width, trajectory, starts, goals, expanded,
                       expanded_offsets, paths, path_offsets, int(moves), record_cells)


def warm_up() -> None:
    """Load the compiled code (from Numba's cache; compiled on the first use after installation,
    about ten seconds) so that the next timed run measures searching only."""
    run_compiled(Gridworld(1, 2), (0, 0), (0, 1))


def solve_compiled(instance: Instance, algorithm: str = "forward", tie_break: str = "larger_g") -> Trace:
    """The compiled twin's :class:`Trace` for ``instance``: what ``reference.solutions.solve`` returns."""
    return run_compiled(instance.grid, instance.start, instance.target, algorithm, tie_break).to_trace()
