"""Repeated A* with a bucket open list."""
from __future__ import annotations

from reference.world.trace import SearchRecord, Trace


def neighbour_cells(cell, known_walls, n_rows, n_cols):
    r, c = cell
    result = []
    for (dr, dc) in [(0, 1), (1, 0), (0, -1), (-1, 0)]:
        rr = r + dr
        cc = c + dc
        if rr < 0 or cc < 0 or rr >= n_rows or cc >= n_cols:
            continue
        if (rr, cc) in known_walls:
            continue
        result.append((rr, cc))
    return result


def manhattan_h(cell, goal_cell):
    return abs(cell[0] - goal_cell[0]) + abs(cell[1] - goal_cell[1])


def take_best(buckets):
    # lowest f bucket, and in it the biggest g
    f_min = min(f for f in buckets if buckets[f])
    bucket = buckets[f_min]
    best_i = 0
    for i in range(1, len(bucket)):
        if bucket[i][0] > bucket[best_i][0]:
            best_i = i
    g_best, cell = bucket.pop(best_i)
    return f_min, g_best, cell


def a_star(start_cell, goal_cell, known_walls, n_rows, n_cols):
    g_score = {start_cell: 0}
    came_from = {}
    buckets = {manhattan_h(start_cell, goal_cell): [(0, start_cell)]}
    closed_set = set()
    expanded_list = []
    while any(buckets.values()):
        f_min, g_best, cell = take_best(buckets)
        if cell in closed_set or g_best != g_score[cell]:
            continue
        if cell == goal_cell:
            break
        closed_set.add(cell)
        expanded_list.append(cell)
        for nb in neighbour_cells(cell, known_walls, n_rows, n_cols):
            tentative = g_score[cell] + 1
            if nb not in g_score or tentative < g_score[nb]:
                g_score[nb] = tentative
                came_from[nb] = cell
                buckets.setdefault(tentative + manhattan_h(nb, goal_cell), []).append((tentative, nb))
    if goal_cell not in g_score:
        return None, expanded_list
    path_list = [goal_cell]
    while path_list[-1] != start_cell:
        path_list.append(came_from[path_list[-1]])
    path_list.reverse()
    return path_list, expanded_list


def run_agent(world, start_cell, goal_cell, algorithm, tie_break):
    n_rows, n_cols = world.height, world.width
    known_walls = set(map(tuple, world.sense(start_cell)))
    current = start_cell
    walked = [current]
    records = []
    backward = algorithm == "backward"
    while current != goal_cell:
        a, b = (goal_cell, current) if backward else (current, goal_cell)
        path_list, expanded_list = a_star(a, b, known_walls, n_rows, n_cols)
        if path_list is not None and backward:
            path_list.reverse()
        records.append(SearchRecord(a, b, expanded_list, path_list or []))
        if path_list is None:
            return Trace(algorithm, tie_break, False, walked, records)
        for next_cell in path_list[1:]:
            if next_cell in known_walls:
                break
            current = next_cell
            walked.append(current)
            known_walls.update(map(tuple, world.sense(current)))
    return Trace(algorithm, tie_break, True, walked, records)


def repeated_forward_astar(world, start, target, tie_break="larger_g"):
    return run_agent(world, start, target, "forward", tie_break)


def repeated_backward_astar(world, start, target, tie_break="larger_g"):
    return run_agent(world, start, target, "backward", tie_break)


def adaptive_astar(world, start, target, tie_break="larger_g"):
    return run_agent(world, start, target, "adaptive", tie_break)
