"""Korf's LRTA* (lookahead one) and Koenig's LRTA* with A* / breadth-first lookahead: hand-worked cases.

The grid of the hand-worked cases (S = start, T = target, # = blocked)::

    S # T
    . # .
    . . .

The Manhattan heuristic points the agent east, into the wall: LRTA* has to learn its way around.
"""

from __future__ import annotations

import pytest

from reference.world import FogOfWarWorld, Gridworld
from reference.solutions.realtime import (
    HEURISTICS, KorfLRTA, knowledge_of, lrta_star, lrta_star_bfs, lrta_star_lookahead, run_algorithm,
)

POCKET = Gridworld.from_strings([".@.", ".@.", "..."])
START, TARGET = (0, 0), (0, 2)
AROUND = [(0, 0), (1, 0), (2, 0), (2, 1), (2, 2), (1, 2), (0, 2)]


def test_korf_lrta_learns_its_way_out_of_the_pocket_by_hand():
    # By hand, known terrain. At S: h(S) = 2; the only free neighbour (1,0) costs 1 + 3 = 4, so
    # h(S) becomes 4. At (1,0): south (2,0) and north S both cost 1 + 4 = 5; south comes first in
    # east-south-west-north order; h(1,0) = max(3, 5) = 5. Then along the bottom row to T.
    agent = KorfLRTA(FogOfWarWorld(POCKET, START), START, TARGET, knowledge=knowledge_of(POCKET))
    run = agent.run()
    assert run.reached and run.trace.trajectory == AROUND
    learned = {divmod(s, 3): v for s, v in enumerate(agent.value) if v >= 0}
    assert learned == {(0, 0): 4, (1, 0): 5, (2, 0): 4, (2, 1): 3, (2, 2): 2, (1, 2): 1}
    assert [len(s.expanded) for s in run.trace.searches] == [1] * 6  # one expansion per episode
    assert run.trace.searches[1].path == [(1, 0), (2, 0)]


def test_korf_lrta_in_unknown_terrain_sees_the_walls_in_time():
    # Every wall cell it could bump into is next to a cell it has stood in first: same walk.
    run = lrta_star(FogOfWarWorld(POCKET, START), START, TARGET)
    assert run.trace.trajectory == AROUND


def test_lookahead_three_in_known_terrain_by_hand():
    # Episode 1: A* expands S (f 2), (1,0) (f 4), (2,0) (f 6); its OPEN holds (2,1) only, so the
    # agent walks the tree path to it. Dijkstra from (2,1) (value 3) gives (2,0)=4, (1,0)=5, S=6.
    # Episode 2 from (2,1): expands (2,1), (2,2), (1,2) (all f 3); T (f 3) is next, so walk to T.
    agent_run = lrta_star_lookahead(FogOfWarWorld(POCKET, START), START, TARGET, lookahead=3,
                                    knowledge=knowledge_of(POCKET))
    records = agent_run.trace.searches
    assert [r.expanded for r in records] == [[(0, 0), (1, 0), (2, 0)], [(2, 1), (2, 2), (1, 2)]]
    assert [r.path for r in records] == [[(0, 0), (1, 0), (2, 0), (2, 1)], [(2, 1), (2, 2), (1, 2), (0, 2)]]
    assert agent_run.trace.trajectory == AROUND


def test_lookahead_three_in_unknown_terrain_by_hand():
    # Episode 1 knows only (0,1): A* expands S, (1,0), (1,1) (presumed free, f 4), stops with OPEN
    # {(1,2) f4, (2,0) f6, (2,1) f6}; Dijkstra: (1,1)=2, (1,0)=3, S=4. The agent walks toward (1,2),
    # sees (1,1) blocked from (1,0) and stops there.
    # Episode 2 from (1,0) (value 3): S and (2,0) both have f 1+4 = 5 and g 1; (2,0) was inserted
    # first. Then (2,1) (f 5, g 2) beats S (f 5, g 1): larger g. OPEN {S f5 g1, (2,2) f5 g3}: walk to (2,2).
    # Episode 3 from (2,2): expands (2,2), (1,2); T is next.
    run = lrta_star_lookahead(FogOfWarWorld(POCKET, START), START, TARGET, lookahead=3)
    records = run.trace.searches
    assert [r.expanded for r in records] == [[(0, 0), (1, 0), (1, 1)], [(1, 0), (2, 0), (2, 1)], [(2, 2), (1, 2)]]
    assert [r.path for r in records] == [
        [(0, 0), (1, 0), (1, 1), (1, 2)], [(1, 0), (2, 0), (2, 1), (2, 2)], [(2, 2), (1, 2), (0, 2)]]
    assert run.trace.trajectory == AROUND
    assert run.expansions == 8 and run.episodes == 3


def test_bfs_lookahead_by_hand():
    # Breadth-first, lookahead 2, known terrain.
    # 1. From S: expands S, (1,0); the queue holds (2,0) (value 4): Dijkstra (1,0)=5, S=6; walk to (2,0).
    # 2. From (2,0): expands (2,0), (2,1); queue [(1,0) g1+5, (2,2) g2+2]: walk to (2,2).
    # 3. From (2,2): west before north, so expands (2,2), (2,1); queue [(1,2) g1+1, (2,0) g2+4].
    # 4. From (1,2): expands (1,2), (2,2) (T is second in the queue, not next); T has g1+0.
    run = lrta_star_bfs(FogOfWarWorld(POCKET, START), START, TARGET, lookahead=2, knowledge=knowledge_of(POCKET))
    assert [r.expanded for r in run.trace.searches] == [
        [(0, 0), (1, 0)], [(2, 0), (2, 1)], [(2, 2), (2, 1)], [(1, 2), (2, 2)]]
    assert [r.path[-1] for r in run.trace.searches] == [(2, 0), (2, 2), (1, 2), (0, 2)]
    assert run.trace.trajectory == AROUND


def test_a_large_lookahead_finds_a_shortest_path_in_known_terrain():
    # With a lookahead larger than the grid, the first A* stops only when the target is next:
    # an ordinary A* search, so the walk is a shortest path.
    run = lrta_star_lookahead(FogOfWarWorld(POCKET, START), START, TARGET, lookahead=100,
                              knowledge=knowledge_of(POCKET))
    assert run.episodes == 1 and run.moves == 6


def test_the_weak_heuristic_is_max_of_the_differences():
    # max(|dr|, |dc|) against Manhattan; on a 3 x 3 open grid the agent still never steps away from
    # the target with either of them.
    assert [(HEURISTICS["weak"](a, b), HEURISTICS["strong"](a, b)) for a, b in [((0, 0), (2, 2)), ((3, 1), (0, 2))]] \
        == [(2, 4), (3, 4)]
    grid = Gridworld.from_strings(["...", "...", "..."])
    for heuristic in ("strong", "weak"):
        run = lrta_star(FogOfWarWorld(grid, (0, 0)), (0, 0), (2, 2), heuristic=heuristic)
        assert run.moves == 4


WALLED_IN = Gridworld.from_strings(["..@.", "..@."])  # the target (0, 3) is cut off


@pytest.mark.parametrize("name", ["lrta", "lrta_astar", "lrta_bfs"])
@pytest.mark.parametrize("lookahead", [1, 3])
@pytest.mark.parametrize("known", [False, True])
def test_lrta_reports_an_unreachable_target_instead_of_looping(name, lookahead, known):
    knowledge = knowledge_of(WALLED_IN) if known else None
    run = run_algorithm(name, FogOfWarWorld(WALLED_IN, (0, 0)), (0, 0), (0, 3), heuristic="strong", lookahead=lookahead, knowledge=knowledge)
    assert not run.reached
    assert run.trace.searches[-1].path == []
    assert run.moves < 200  # it stopped: values climb to the 6 free cells within a few laps


def test_lrta_with_a_lookahead_that_covers_the_region_reports_at_once():
    # The agent's region has 4 cells: a lookahead of 10 empties A*'s OPEN in the first episode.
    run = lrta_star_lookahead(FogOfWarWorld(WALLED_IN, (0, 0)), (0, 0), (0, 3), lookahead=10,
                              knowledge=knowledge_of(WALLED_IN))
    assert not run.reached and run.episodes == 1 and run.moves == 0
    assert sorted(run.trace.searches[0].expanded) == [(0, 0), (0, 1), (1, 0), (1, 1)]


def test_start_on_the_target_needs_no_planning():
    grid = Gridworld.from_strings(["..."])
    for name in ("lrta", "lrta_astar", "lrta_bfs", "dstar_lite"):
        run = run_algorithm(name, FogOfWarWorld(grid, (0, 1)), (0, 1), (0, 1), lookahead=3)
        assert run.reached and run.episodes == 0 and run.trace.trajectory == [(0, 1)]


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError, match="lookahead"):
        lrta_star_lookahead(FogOfWarWorld(POCKET, START), START, TARGET, lookahead=0)
    with pytest.raises(ValueError, match="heuristic"):
        lrta_star(FogOfWarWorld(POCKET, START), START, TARGET, heuristic="octile")
    with pytest.raises(ValueError, match="unknown algorithm"):
        run_algorithm("rta", FogOfWarWorld(POCKET, START), START, TARGET)
