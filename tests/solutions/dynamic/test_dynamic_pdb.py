"""Clique abstraction and pattern databases (Bulitko et al. 2007, Figures 3-4) against brute force."""

from __future__ import annotations

import numpy as np

from reference.world.grid import MOVES_8, cost_value, octile_cost
from reference.solutions.dynamic.abstraction import clique_groups, clique_hierarchy
from reference.solutions.dynamic.lrta import Neighbours, general_lrta
from reference.solutions.dynamic.pattern_database import build_pattern_database

TINY = ["......",
        ".@@@..",
        "....@.",
        "..@...",
        "......"]


def moves(blocked, cell):
    """Eight moves, no corner cutting, written out again: [(next cell, (straight, diagonal))]."""
    height, width = blocked.shape
    free = lambda r, c: 0 <= r < height and 0 <= c < width and not blocked[r, c]
    out = []
    for dr, dc in MOVES_8:
        r, c = cell[0] + dr, cell[1] + dc
        if free(r, c) and (not (dr and dc) or (free(r, cell[1]) and free(cell[0], c))):
            out.append(((r, c), (0, 1) if dr and dc else (1, 0)))
    return out


def all_pairs_costs(blocked):
    """Exact shortest costs between all free cells by relaxing every edge until nothing changes."""
    cells = [(r, c) for r in range(blocked.shape[0]) for c in range(blocked.shape[1]) if not blocked[r, c]]
    best = {(a, a): (0, 0) for a in cells}
    changed = True
    while changed:
        changed = False
        for (a, b), cost in list(best.items()):
            for n, step in moves(blocked, b):
                candidate = (cost[0] + step[0], cost[1] + step[1])
                if (a, n) not in best or cost_value(candidate) < cost_value(best[(a, n)]):
                    best[(a, n)] = candidate
                    changed = True
    return best


def brute_force_first_steps(blocked, start, goal, depth):
    """The first moves an LRTA* depth-``depth`` search (fresh octile h) may take, by enumerating walks.

    Every walk of up to ``depth`` moves that never passes through the goal (the goal is not
    expanded) is listed. A cell's action count is its shortest walk's length; its g is the cheapest
    walk of exactly that length. The frontier is the cells ``depth`` actions away plus the goal if
    nearer; the best frontier cells minimise g + octile (with a fresh, consistent h, path-max changes
    nothing). Returned: the first moves of every cheapest fewest-action walk to a best cell.
    """
    walks = [[start]]
    frontier = [[start]]
    for _ in range(depth):
        frontier = [w + [n] for w in frontier if w[-1] != goal for n, _ in moves(blocked, w[-1])]
        walks += frontier
    cost_of = lambda w: tuple(map(sum, zip(*[dict(moves(blocked, a))[b] for a, b in zip(w, w[1:])]))) if len(w) > 1 else (0, 0)
    actions, g = {}, {}
    for w in walks:
        v, k = w[-1], len(w) - 1
        if v not in actions or k < actions[v]:
            actions[v], g[v] = k, cost_of(w)
        elif k == actions[v] and cost_value(cost_of(w)) < cost_value(g[v]):
            g[v] = cost_of(w)
    reach = max(actions.values())
    layer = min(depth, reach)
    candidates = [v for v in actions if actions[v] == layer] + ([goal] if goal in actions and actions[goal] < layer else [])
    f = {v: cost_value((g[v][0] + octile_cost(v, goal)[0], g[v][1] + octile_cost(v, goal)[1])) for v in candidates}
    low = min(f.values())
    best = {v for v in candidates if f[v] == low}
    return {w[1] for w in walks if len(w) > 1 and w[-1] in best and len(w) - 1 == actions[w[-1]] and cost_of(w) == g[w[-1]]}


def test_stored_depths_and_intermediate_goals_match_brute_force():
    blocked = np.array([[ch == "@" for ch in row] for row in TINY])
    cap = 3
    database = build_pattern_database(Neighbours(blocked), level=1, cap=cap)
    costs = all_pairs_costs(blocked)
    region = database.hierarchy.region_of[1]
    reps = database.representatives
    assert all(region[rep] == i for i, rep in enumerate(reps))
    checked_capped = checked_found = 0
    for a, start in enumerate(reps):
        for b, goal in enumerate(reps):
            if a == b:
                assert database.depth[a, b] == 1 and database.next_region[a, b] == -1
                continue
            # optimal moves: on some optimal path, c(s, n) + cost(n, goal) == cost(s, goal)
            total = costs[(start, goal)]
            optimal = {n for n, step in moves(blocked, start)
                       if (step[0] + costs[(n, goal)][0], step[1] + costs[(n, goal)][1]) == total}
            stored = int(database.depth[a, b])
            for d in range(1, min(stored, cap + 1)):
                assert not brute_force_first_steps(blocked, start, goal, d) <= optimal, (start, goal, d)
            if stored <= cap:
                assert brute_force_first_steps(blocked, start, goal, stored) & optimal, (start, goal, stored)
                checked_found += 1
            else:
                checked_capped += 1
            # the next region: the first region other than a's that some optimal path enters
            entered, stack, seen = set(), [start], set()
            while stack:
                cell = stack.pop()
                for n, step in moves(blocked, cell):
                    if (step[0] + costs[(n, goal)][0], step[1] + costs[(n, goal)][1]) == costs[(cell, goal)] and n not in seen:
                        seen.add(n)
                        (entered.add(region[n]) if region[n] != a else stack.append(n))
            assert int(database.next_region[a, b]) in entered
    assert checked_found > 10  # the tiny map exercises real searches, not only trivial pairs


def test_clique_abstraction_merges_cliques_and_keeps_adjacency():
    # A 2 x 2 block plus a tail (0,2)-(0,3): the block is a 4-clique; the tail cells form a pair.
    blocked = np.array([[0, 0, 0, 0], [0, 0, 1, 1]], dtype=bool)
    hierarchy = clique_hierarchy(Neighbours(blocked), 1)
    assert sorted(map(sorted, hierarchy.levels[1].members)) == [[(0, 0), (0, 1), (1, 0), (1, 1)], [(0, 2), (0, 3)]]
    assert hierarchy.levels[1].adjacent == [{1}, {0}]
    # a path of three a-b-c: no 3-clique; a pairs with b, and c, left with b as its only
    # neighbour, is an orphan and joins b's group
    assert clique_groups([{1}, {0, 2}, {1}]) == [0, 0, 0]


def test_every_goal_selection_reaches_the_goal_on_a_small_map():
    blocked = np.array([[ch == "@" for ch in row] for row in TINY])
    database = build_pattern_database(Neighbours(blocked), level=1, cap=3)
    for goals in ("g", "gi", "i"):
        run = general_lrta(blocked, (0, 0), (4, 5), database.controller(goals), max_actions=500)
        assert run.reached and max(run.depths) <= 3


def test_goal_selection_never_cycles_forever():
    """Every goal selection reaches every reachable goal (each intermediate goal is taken at most once,
    then LRTA* toward the global goal is complete): random maps, many problems, generous limits."""
    from reference.solutions.shortest_paths import dijkstra

    rng = np.random.default_rng(11)
    for trial in range(12):
        blocked = rng.random((10, 12)) < 0.3
        free = list(zip(*np.nonzero(~blocked)))
        start = tuple(int(v) for v in free[rng.integers(len(free))])
        reachable = list(dijkstra(blocked, start, connectivity=8).cost)
        goal = reachable[rng.integers(len(reachable))]
        database = build_pattern_database(Neighbours(blocked), level=1 + trial % 2, cap=1 + trial % 3)
        for goals in ("g", "gi", "i"):
            run = general_lrta(blocked, start, goal, database.controller(goals), max_actions=20_000)
            assert run.reached, (trial, goals)


def test_the_two_goal_rules_choose_goals_as_each_rule_says():
    """Properties of the goal each action searched toward (``Run.goals``), read off the table by hand:

    * rule "paper" (per action): action t's goal is what the table names for (region of s_t,
      region of the global goal): the next region's representative when G+I's depth is capped or
      for I outside the goal's region, else the global goal;
    * rule "once" (kept until reached, each at most once): an intermediate goal, once chosen, stays
      the goal of every action until the agent stands on it, and no intermediate goal comes back.
    """
    rng = np.random.default_rng(7)
    checked = {"paper": 0, "once": 0}
    for trial in range(10):
        blocked = rng.random((10, 12)) < 0.25
        free = [tuple(int(v) for v in cell) for cell in zip(*np.nonzero(~blocked))]
        start, goal = free[rng.integers(len(free))], free[rng.integers(len(free))]
        database = build_pattern_database(Neighbours(blocked), level=1, cap=1 + trial % 2)
        region = lambda cell: database.hierarchy.region(cell, 1)  # noqa: E731
        for goals in ("gi", "i"):
            paper = general_lrta(blocked, start, goal, database.controller(goals, rule="paper"), max_actions=300)
            for state, used in zip(paper.path, paper.goals):
                a, b = region(state), region(goal)
                via = int(database.next_region[a, b])
                wants_intermediate = via >= 0 and (goals == "i" or database.depth[a, b] > database.cap)
                assert used == (database.representatives[via] if wants_intermediate else goal)
                checked["paper"] += used != goal
            once = general_lrta(blocked, start, goal, database.controller(goals, rule="once"), max_actions=3000)
            assert once.reached or goal not in dijkstra_reach(blocked, start)
            taken = []
            for t, used in enumerate(once.goals):
                previous = once.goals[t - 1] if t else goal
                if previous != goal and used != previous:
                    assert once.path[t] == previous, "an intermediate goal was dropped before it was reached"
                if used != goal and used != previous:
                    assert used not in taken, "an intermediate goal came back"
                    taken.append(used)
                checked["once"] += used != goal
    assert checked["paper"] > 0 and checked["once"] > 0   # both rules used intermediate goals here


def dijkstra_reach(blocked, start):
    from reference.solutions.shortest_paths import dijkstra

    return dijkstra(blocked, start, connectivity=8).cost
