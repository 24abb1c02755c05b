"""Twin of ``dynamic/pattern_database.py``: the pattern database's inner loop compiled, the optimal
depth for every start region toward one goal region (:func:`build_pattern_database_compiled`).

See :mod:`.lrta` for how the arrays mirror the readable dictionaries.
"""

from __future__ import annotations

import time

import numpy as np
from numba import njit, types
from numba.typed import Dict

from reference.solutions.compiled.shortest_paths import MOVE_COLS, MOVE_ROWS, move_rule
from reference.solutions.compiled.haa.abstraction import distances_compiled
from reference.world.grid import SQRT2

from .lrta import Lookahead, _choices


@njit(cache=True)
def _depths_toward(blocked, goal, dist_a, dist_b, representatives, region_of, b, cap, stages, counter,
                   seen, layer_of, g_a, g_b, parent, order, layer_start, f_a, f_b, move_rows, move_cols, sqrt2,
                   depth_row, next_row):
    """Figure 3, lines 4-6 with Figure 4, for every start region toward goal region ``b``
    (``optimal_depth`` and the next region of ``build_pattern_database``). Returns the counter."""
    height, width = blocked.shape
    empty = Dict.empty(key_type=types.int64, value_type=types.int64)   # fresh octile h
    out = np.empty((cap + 2, 5), np.int64)
    for a in range(representatives.shape[0]):
        start = representatives[a]
        if a == b or dist_a[start] < 0:
            continue
        # optimal_depth: the shallowest depth whose first step lies on an optimal path
        found = cap + 1
        for stage in stages:
            counter += 1
            layers = _choices(blocked, start, goal, stage, empty, True, counter, seen, layer_of, g_a, g_b, parent,
                              order, layer_start, f_a, f_b, move_rows, move_cols, sqrt2, out)
            for d in range(1, stage + 1):
                if out[d, 0] < 0:
                    continue
                n = out[d, 1]
                diagonal = n // width != start // width and n % width != start % width
                if (dist_a[n] >= 0 and dist_a[n] + (0 if diagonal else 1) == dist_a[start]
                        and dist_b[n] + (1 if diagonal else 0) == dist_b[start]):
                    found = d
                    break
            if found <= cap or layers <= stage:  # found, or the map ran out: deeper decides the same
                break
        depth_row[a] = found
        # the next region: follow the first optimal move (successor order) until the region changes
        cell = start
        while region_of[cell] == a:
            row, col = cell // width, cell % width
            # The world's move rule (SPEC §12), one function for every compiled search (its cost,
            # measured against the rule written out: shortest_paths.move_rule's docstring).
            for move in range(8):
                r, c, diagonal, allowed = move_rule(blocked, height, width, row, col, move_rows[move], move_cols[move])
                if not allowed:
                    continue
                t = r * width + c
                if (dist_a[t] + (0 if diagonal else 1) == dist_a[cell]
                        and dist_b[t] + (1 if diagonal else 0) == dist_b[cell]):
                    cell = t
                    break
        next_row[a] = region_of[cell]
    return counter


def build_pattern_database_compiled(blocked_or_neighbours, level: int, cap: int, progress=None, hierarchy=None,
                                    goal_regions=None):
    """The compiled twin of ``build_pattern_database``: the same tables (tested equal); with
    ``goal_regions``, only those columns.

    The clique abstraction stays the readable one (seconds); one compiled Dijkstra per goal region
    (:func:`~reference.solutions.compiled.haa.abstraction.distances_compiled`) and one compiled call for all
    start regions toward it.
    """
    from reference.solutions.dynamic.abstraction import clique_hierarchy
    from reference.solutions.dynamic.lrta import Neighbours
    from reference.solutions.dynamic.pattern_database import DEPTH_STAGES, PatternDatabase

    began = time.process_time()
    neighbours = blocked_or_neighbours if isinstance(blocked_or_neighbours, Neighbours) else Neighbours(blocked_or_neighbours)
    blocked = np.ascontiguousarray(neighbours.blocked, dtype=np.bool_)
    hierarchy = hierarchy or clique_hierarchy(neighbours, level)
    count = len(hierarchy.levels[level].members)
    representatives = [hierarchy.representative(level, region) for region in range(count)]
    width = blocked.shape[1]
    region_of = np.full(blocked.size, -1, np.int64)
    for (r, c), region in hierarchy.region_of[level].items():
        region_of[r * width + c] = region
    reps = np.array([r * width + c for r, c in representatives], np.int64)
    stages = np.array([*[s for s in DEPTH_STAGES if s < cap], cap], np.int64)
    depth = np.ones((count, count), dtype=np.int16)
    next_region = np.full((count, count), -1, dtype=np.int32)
    look = Lookahead(blocked)
    layer_start = np.zeros(cap + 2, np.int64)
    depth_row = np.ones(count, np.int64)
    next_row = np.full(count, -1, np.int64)
    counter = 0
    for b in sorted(set(goal_regions)) if goal_regions is not None else range(count):
        goal = representatives[b]
        dist_a, dist_b = (d.ravel() for d in distances_compiled(blocked, goal))
        depth_row[:] = 1
        next_row[:] = -1
        counter = _depths_toward(blocked, reps[b], dist_a, dist_b, reps, region_of, b, cap, stages, counter,
                                 look.seen, look.layer_of, look.g_a, look.g_b, look.parent, look.order, layer_start,
                                 look.f_a, look.f_b, MOVE_ROWS, MOVE_COLS, SQRT2, depth_row, next_row)
        depth[:, b] = depth_row
        next_region[:, b] = next_row
        if progress is not None:
            progress(1)
    return PatternDatabase(hierarchy, level, cap, depth, next_region, representatives, time.process_time() - began,
                           None if goal_regions is None else tuple(sorted(set(goal_regions))))
