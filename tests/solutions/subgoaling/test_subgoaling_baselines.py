"""kNN LRTA* and D LRTA*, the algorithms the subgoaling paper compares with, and their place in
``ftr subgoal compare``.

Referees: small maps worked by hand (in the comments); the kit's own LRTA* (``lrta_star``, written
separately) for the shared pursuit loop; the world's Dijkstra for optimal costs; properties on
random maps (Hypothesis): the goal is reached on solvable maps, the cost is at least the optimal
one, no h-value is ever lowered, every episode expands the agent's state and makes one move.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reference.experiments import subgoaling as experiment
from reference.solutions.shortest_paths import dijkstra
from reference.solutions.subgoaling import lrta_star
from reference.solutions.subgoaling.d_lrta import build_d_lrta_database, d_lrta_star
from reference.solutions.subgoaling.knn_lrta import (
    KnnDatabase, KnnRecord, build_knn_database, compress_path, knn_lrta_star,
)
from reference.solutions.subgoaling.pursuit import SubgoalPursuit, hill_climb, pursue_in_turn
from reference.world.grid import Gridworld, cost_value
from reference.world.maps import read_map

POCKET = ["....",
          ".@@.",
          "...."]


def test_hill_climbing_worked_by_hand():
    # Four-connected, Manhattan h, successors E, S, W, N.
    # (0,1) -> (2,1), h 2: E (0,2) costs 1 + h 3 = 4, W (0,0) 1 + 3 = 4 (S is the wall); E comes
    # first, and h(0,2) = 3 is not below 2: the check fails after expanding (0,1).
    grid = Gridworld.from_strings(POCKET)
    assert hill_climb(grid, (0, 1), (2, 1), 4) == (False, [(0, 1)])
    # (0,1) -> (1,3), h 3: E (0,2) h 2, E (0,3) h 1, S (1,3): reached, three expansions.
    assert hill_climb(grid, (0, 1), (1, 3), 4) == (True, [(0, 1), (0, 2), (0, 3)])
    # the limit: two moves are not enough for three
    assert hill_climb(grid, (0, 1), (1, 3), 4, limit=2)[0] is False


def test_path_compression_worked_by_hand():
    # The optimal four-connected path (0,0) -> (2,3) round the wall's left end:
    # (0,0) (1,0) (2,0) (2,1) (2,2) (2,3). From (0,0): (1,0) and (2,0) are reachable (S, S); (2,1),
    # h 3, is not: E (0,1) 1 + 2 ties S (1,0) 1 + 2, E comes first; from (0,1) E (0,2) and W tie at
    # 1 + 3, E first, and h(0,2) = 3 is not below 2. So (2,0); from there E, E, E reach the end.
    grid = Gridworld.from_strings(POCKET)
    path = [(0, 0), (1, 0), (2, 0), (2, 1), (2, 2), (2, 3)]
    assert compress_path(grid, path, 4) == [(2, 0), (2, 3)]
    # (0,1) (0,2) (0,3) (1,3) (2,3) (2,2): from (0,1), (2,3) is reachable (E, E, S, S) but (2,2) is
    # not (E to (0,2), h 2; then E and W tie at 1 + 3, E first, h(0,3) = 3 is not below 2).
    # So (2,3), then (2,2).
    assert compress_path(grid, [(0, 1), (0, 2), (0, 3), (1, 3), (2, 3), (2, 2)], 4) == [(2, 3), (2, 2)]


def test_knn_lrta_picks_the_nearest_record_that_passes_both_checks():
    # Agent (0,1) -> (2,3), four-connected. Records, by h(start, record start) + h(record goal, goal):
    #   R1: (2,1) -> (2,3): 2 + 0 = 2, listed first. (0,1) -> (2,1) fails (see above: 1 expansion).
    #   R2: (0,2) -> (1,3), subgoal (1,3): 1 + 1 = 2. (0,1) -> (0,2): one move E (1 expansion);
    #       (1,3) -> (2,3): one move S (1 expansion). Taken.
    #   R3: (0,0) -> (2,0): 1 + 3 = 4, beyond k = 2.
    # Goals pursued: (0,2), then (1,3), then (2,3). Walk: E; at (0,2) the goal is (1,3): E (0,3)
    # 1 + 1 beats W 1 + 3; S; at (1,3) the goal is (2,3): S. Cost 4, the optimal one.
    # First episode expands (0,1) [R1], (0,1) [R2 start], (1,3) [R2 goal], then (0,1) itself.
    grid = Gridworld.from_strings(POCKET)
    database = KnnDatabase([KnnRecord((2, 1), (2, 3), [(2, 3)]), KnnRecord((0, 2), (1, 3), [(1, 3)]),
                            KnnRecord((0, 0), (2, 0), [(2, 0)])], connectivity=4)
    run = knn_lrta_star(grid, (0, 1), (2, 3), database, connectivity=4, k=2)
    assert run.trace.trajectory == [(0, 1), (0, 2), (0, 3), (1, 3), (2, 3)]
    assert [record.goal for record in run.trace.searches] == [(0, 2), (1, 3), (1, 3), (2, 3)]
    assert run.trace.searches[0].expanded == [(0, 1), (0, 1), (1, 3), (0, 1)]
    assert run.cost == (4, 0) and run.expansions == 7
    # k = 1: only R1 is tried; it fails, so plain LRTA* toward the goal
    plain = knn_lrta_star(grid, (0, 1), (2, 3), database, connectivity=4, k=1)
    assert {record.goal for record in plain.trace.searches} == {(2, 3)}
    assert plain.trace.trajectory == lrta_star(grid, (0, 1), (2, 3), connectivity=4).trace.trajectory


def test_d_lrta_worked_by_hand():
    # An open 2 x 4 room, eight-connected, clique abstraction once: two 2 x 2 regions, 0 (columns
    # 0-1) and 1 (columns 2-3); representatives (0,0) and (0,2) (equally near the centre: row-major
    # first). From either representative the first octile move toward the other is optimal: depth 1
    # everywhere; region 0's optimal path enters region 1 and back.
    # From (1,3) to (1,0), the paper's rule: in region 1 the goal is region 0's representative
    # (0,0); depth 1 from (1,3): (1,2) 1 + (1 + √2) ties (0,2) √2 + 2, (1,2) taken; from (1,2):
    # (1,1) 1 + √2 ties (0,1) √2 + 1, (1,1) taken; (1,1) is in the goal's region: the goal, W.
    # Cost 3. The kit's rule "once" keeps (0,0) until it stands there: NW then S, cost 2 + 1 + √2.
    grid = Gridworld.from_strings(["....", "...."])
    database = build_d_lrta_database(grid, level=1)
    assert database.regions == 2 and database.representatives == [(0, 0), (0, 2)]
    assert database.depth.tolist() == [[1, 1], [1, 1]] and database.next_region.tolist() == [[-1, 1], [0, -1]]
    run = d_lrta_star(grid, (1, 3), (1, 0), database)
    assert run.trace.trajectory == [(1, 3), (1, 2), (1, 1), (1, 0)]
    assert [record.goal for record in run.trace.searches] == [(0, 0), (0, 0), (1, 0)]
    assert run.cost == (3, 0)
    kept = d_lrta_star(grid, (1, 3), (1, 0), database, rule="once")
    assert kept.trace.trajectory == [(1, 3), (1, 2), (1, 1), (0, 0), (1, 0)] and kept.cost == (3, 1)
    with pytest.raises(ValueError, match="at least 1"):
        build_d_lrta_database(grid, level=0)


def test_d_lrta_searches_to_the_stored_depth():
    # A corridor closed by walls (rows 1 and 4), clique abstraction three times (five regions). From
    # (3,0) to (4,0), D LRTA* heads for the representative (5,3) of the region an optimal path enters
    # and searches to the depth stored for that pair, 4. Breadth-first from (3,0), no corner cutting:
    # layer 1 (2,0) (2,1) (3,1) (4,0); layer 2 (1,0) (2,2) (3,2) (5,0) ((4,0) -> (5,1) cuts (4,1));
    # layer 3 (0,0) (2,3) (3,3) (5,1). Depth 4 expands layers 0-3: 1 + 4 + 4 + 4 = 13 states, where
    # the kit's first D LRTA* (lookahead one) expanded 1.
    grid = Gridworld.from_strings(["..........", ".@@@@@@@..", ".......@..", ".......@..", ".@@@@@@@..",
                                   ".........."])
    database = build_d_lrta_database(grid, level=3, cap=8)
    region = database.hierarchy.region
    via = int(database.next_region[region((3, 0), 3), region((4, 0), 3)])
    assert database.representatives[via] == (5, 3) and database.depth[region((3, 0), 3), via] == 4
    run = d_lrta_star(grid, (3, 0), (4, 0), database)
    assert [(record.goal, len(record.expanded)) for record in run.trace.searches] == [((5, 3), 13)]
    assert run.reached and run.cost == (1, 0)


def test_knn_database_and_a_bad_connectivity():
    grid = Gridworld.from_strings(POCKET)
    database = build_knn_database(grid, records=4, seed=3, connectivity=4)
    assert len(database.records) == 4 and database.expansions > 0
    for record in database.records:
        assert record.subgoals[-1] == record.goal
    with pytest.raises(ValueError, match="4-connected"):
        knn_lrta_star(grid, (0, 0), (2, 3), database, connectivity=8)
    with pytest.raises(ValueError, match="no two connected free cells"):   # it would draw for ever
        build_knn_database(Gridworld.from_strings([".@."]), records=1)


# -- properties on random maps ---------------------------------------------------------------------


@st.composite
def problems(draw):
    """A random map of 3-8 x 3-8 cells, about a quarter blocked, and a start and goal that are connected."""
    height, width = draw(st.integers(3, 8)), draw(st.integers(3, 8))
    blocked = np.array(draw(st.lists(st.booleans(), min_size=height * width, max_size=height * width)),
                       dtype=bool).reshape(height, width)
    blocked &= np.array(draw(st.lists(st.booleans(), min_size=height * width, max_size=height * width)),
                        dtype=bool).reshape(height, width)
    free = [(int(r), int(c)) for r, c in zip(*np.nonzero(~blocked))]
    if len(free) < 2:
        blocked[0, 0] = blocked[0, 1] = False
        free = [(int(r), int(c)) for r, c in zip(*np.nonzero(~blocked))]
    start = draw(st.sampled_from(free))
    goal = draw(st.sampled_from(free))
    return Gridworld(height, width, blocked), start, goal


class WatchedPursuit(SubgoalPursuit):
    """The real loop, with a check after every episode that no h-value went down."""

    def step(self, s, goal):
        before = {g: dict(table) for g, table in self.h_tables.items()}
        result = super().step(s, goal)
        for g, table in before.items():
            for cell, value in table.items():
                assert cost_value(self.h_tables[g][cell]) >= cost_value(value), "an h-value was lowered"
        learned = self.h_tables.get(goal, {}).get(s)
        if learned is not None:   # what is stored is never below the heuristic it replaced
            assert cost_value(learned) >= cost_value(super().h(s, goal)) - 1e-9
        return result


def check_run(run, grid, start, goal, lookahead_one=True):
    reachable = start in dijkstra(grid, goal, connectivity=8)
    assert run.reached == reachable
    if reachable:
        optimal = dijkstra(grid, goal, connectivity=8, goal=start).cost[start]
        assert cost_value(run.cost) >= cost_value(optimal) - 1e-9
        assert run.trace.trajectory[-1] == goal
    for record, here, there in zip(run.trace.searches, run.trace.trajectory, run.trace.trajectory[1:]):
        assert record.start == here and record.path == [here, there]
        # lookahead one expands the agent's state last (after any checks); a breadth-first lookahead, first
        assert record.expanded[-1 if lookahead_one else 0] == here


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems(), st.integers(0, 3))
def test_knn_lrta_properties(problem, seed):
    grid, start, goal = problem
    try:
        database = build_knn_database(grid, records=5, seed=seed)
    except ValueError:   # no two free cells are connected: no record can be drawn (and none is needed)
        database = KnnDatabase([], connectivity=8)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("reference.solutions.subgoaling.knn_lrta.SubgoalPursuit", WatchedPursuit)
        run = knn_lrta_star(grid, start, goal, database, k=3)
    check_run(run, grid, start, goal)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems(), st.integers(1, 3))
def test_d_lrta_properties(problem, level):
    # Under the kit's rule every run ends (check_run: reached iff reachable). Under the paper's rule,
    # each action's goal is what the table says for (the agent's region, the goal's region),
    # worked out here from the table directly.
    grid, start, goal = problem
    database = build_d_lrta_database(grid, level=level, cap=6)
    check_run(d_lrta_star(grid, start, goal, database, rule="once"), grid, start, goal, lookahead_one=False)
    run = d_lrta_star(grid, start, goal, database, max_moves=60)
    region = database.hierarchy.region
    for record in run.trace.searches:
        a, b = region(record.start, level), region(goal, level)
        via = int(database.next_region[a, b])
        expected = goal if via < 0 or database.representatives[via] == record.start else database.representatives[via]
        assert record.goal == expected
    if run.reached:
        assert run.trace.trajectory[-1] == goal


@settings(max_examples=60, deadline=None)
@given(problems())
def test_pursuing_one_goal_is_plain_lrta(problem):
    # The shared loop, given the goal alone, walks LRTA*'s walk (lrta.py is a separate implementation).
    grid, start, goal = problem
    mine, theirs = pursue_in_turn(grid, start, [goal]), lrta_star(grid, start, goal)
    assert mine.trace.trajectory == theirs.trace.trajectory and mine.cost == theirs.cost
    assert mine.reached == theirs.reached


# -- the experiment ---------------------------------------------------------------------------------


def test_compare_runs_a_database_algorithm_on_a_map(tmp_path):
    # A 6 x 8 map with a wall; D LRTA* at level 1 and kNN LRTA* with 5 records, two problems each.
    lines = ["........", "........", "..@@@@..", "..@@@@..", "........", "........"]
    path = tmp_path / "tiny.map"
    path.write_text("type octile\nheight 6\nwidth 8\nmap\n" + "\n".join(lines) + "\n")
    grid = read_map(str(path))
    problems_drawn = experiment.draw_problems(grid, 2, seed=1)
    rows = []
    for name in ("d_lrta_1", "knn_lrta_5"):
        rows += experiment.run_map_with_database((str(path), "tiny", name, problems_drawn, 1, "python"))
    pre = [r for r in rows if r["algorithm"] == "preprocessing"]
    assert [r["method"] for r in pre] == ["d_lrta_1", "knn_lrta_5"] and pre[1]["database_size"] == 5
    runs = [r for r in rows if r["algorithm"] != "preprocessing"]
    assert len(runs) == 4 and all(r["reached"] and r["cost"] >= r["optimal"] - 1e-9 for r in runs)
    for r, (start, goal) in zip(runs, problems_drawn * 2):
        assert r["optimal"] == pytest.approx(cost_value(dijkstra(grid, start, connectivity=8).cost[goal]))


def test_comparison_findings_worked_by_hand():
    # Two problems, optimal 100 each; LRTA*+sub costs 110 on both (10% above optimal), kNN LRTA*
    # (1000) 150 on both (50%): every bootstrap resample gives the same, so the intervals are points
    # and LRTA*+sub is better. Total times 1 ms and 4 ms: kNN takes 4× the time. Preprocessing: trees
    # 60 s, kNN 30 s on each of two maps: 0.5× in every resample of the maps, comparable within a
    # factor of 3 (one map would leave no interval: inconclusive).
    def row(algorithm, problem, cost, total_ms):
        return {"map": "AR0204SR", "problem": problem, "algorithm": algorithm, "reached": True, "cost": cost,
                "optimal": 100.0, "expansions": cost, "episodes": cost, "total_ms": total_ms}

    rows = [row("lrta_subgoal", p, 110.0, 1.0) for p in (0, 1)] + [row("knn_lrta_1000", p, 150.0, 4.0) for p in (0, 1)]
    rows += [{"map": name, "algorithm": "preprocessing", "method": method, "preprocessing_s": seconds}
             for name in ("AR0204SR", "AR0701SR") for method, seconds in (("subgoal_trees", 60.0), ("knn_lrta_1000", 30.0))]
    found = {f.claim: f for f in experiment.comparison_findings(rows)}
    better = next(f for claim, f in found.items() if claim.startswith("On the maps"))
    assert better.holds and "LRTA*+sub 10.0% [10.0, 10.0], kNN LRTA* (1000) 50.0% [50.0, 50.0]" in better.evidence
    quality = next(f for claim, f in found.items() if claim.startswith("kNN LRTA* (1000) is 49.91%"))
    assert quality.holds   # 50.0 lies in 33-75
    time = next(f for claim, f in found.items() if "total planning time" in claim)
    assert time.holds and "4.00×" in time.evidence
    pre = next(f for claim, f in found.items() if "computes subgoals" in claim)
    assert pre.holds and "0.50×" in pre.evidence
