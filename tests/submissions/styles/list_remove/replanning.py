# Project 1: fast trajectory replanning.
# OPEN is a plain heapq list of (f, -g, row, col) tuples (or (f, g, row, col) for smaller g).
# When I find a shorter way to a cell I take its old tuple out of the list and push the new one,
# so every cell is in OPEN at most once.
import heapq

INF = float("inf")


def manhattan(a, b):
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def get_neighbors(pos, rows, cols, blocked):
    r, c = pos
    result = []
    for dr, dc in [(0, 1), (1, 0), (0, -1), (-1, 0)]:
        nr, nc = r + dr, c + dc
        if 0 <= nr < rows and 0 <= nc < cols and (nr, nc) not in blocked:
            result.append((nr, nc))
    return result


def compute_path(s_start, s_goal, rows, cols, blocked, g, search, tree, counter, h, tie_break):
    g[s_start] = 0
    search[s_start] = counter
    g[s_goal] = INF
    search[s_goal] = counter
    sgn = -1 if tie_break == "larger_g" else 1
    open_list = [(h(s_start), 0, s_start[0], s_start[1])]
    in_open = {s_start: open_list[0]}
    closed = set()
    expanded = []
    while open_list:
        while open_list and (open_list[0][2], open_list[0][3]) in closed:
            heapq.heappop(open_list)           # old copy of a cell we already expanded
        if not open_list or g[s_goal] <= open_list[0][0]:
            break
        f, _, r, c = heapq.heappop(open_list)
        s = (r, c)
        del in_open[s]
        closed.add(s)
        expanded.append(s)
        for t in get_neighbors(s, rows, cols, blocked):
            if search.get(t, 0) < counter:
                g[t] = INF
                search[t] = counter
            if g[t] > g[s] + 1:
                g[t] = g[s] + 1
                tree[t] = s
                if t in in_open:
                    open_list.remove(in_open[t])
                in_open[t] = (g[t] + h(t), sgn * g[t], t[0], t[1])
                heapq.heappush(open_list, in_open[t])
    return expanded, g[s_goal] < INF


def solve(world, start, target, tie_break, algo):
    start, target = tuple(start), tuple(target)
    result = {"algorithm": algo, "tie_break": tie_break, "reached": False,
              "trajectory": [start], "searches": []}
    if start == target:
        result["reached"] = True
        return result
    rows, cols = world.height, world.width
    blocked = set(map(tuple, world.sense(start)))
    g, search, tree, hval = {}, {}, {}, {}
    counter = 0
    cur = start
    while cur != target:
        counter += 1
        if algo == "backward":
            s_start, s_goal = target, cur
        else:
            s_start, s_goal = cur, target
        goal_now = s_goal

        def h(s):
            if algo == "adaptive" and s in hval:
                return hval[s]
            return manhattan(s, goal_now)

        expanded, found = compute_path(s_start, s_goal, rows, cols, blocked, g, search, tree, counter, h, tie_break)
        entry = {"start": s_start, "goal": s_goal, "expanded": expanded, "path": []}
        result["searches"].append(entry)
        if not found:
            return result
        path = [s_goal]
        while path[-1] != s_start:
            path.append(tree[path[-1]])
        if algo != "backward":
            path.reverse()
        entry["path"] = path
        if algo == "adaptive":
            for s in expanded:
                hval[s] = g[s_goal] - g[s]
        for k in range(1, len(path)):
            if any(p in blocked for p in path[k:]):
                break
            cur = path[k]
            result["trajectory"].append(cur)
            for b in world.sense(cur):
                blocked.add(tuple(b))
    result["reached"] = True
    return result


def repeated_forward_astar(world, start, target, tie_break="larger_g"):
    return solve(world, start, target, tie_break, "forward")


def repeated_backward_astar(world, start, target, tie_break="larger_g"):
    return solve(world, start, target, tie_break, "backward")


def adaptive_astar(world, start, target, tie_break="larger_g"):
    return solve(world, start, target, tie_break, "adaptive")
