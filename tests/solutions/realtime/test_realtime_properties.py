"""Properties of every real-time and incremental planner on random small grids (Hypothesis).

- The run ends, and it reaches the target exactly when the true grid connects start and target.
- The trace is an honest SPEC §8 trace: re-walking its paths by the SPEC's rules (reference.world.replay)
  reproduces its trajectory, which is also where the fog-of-war world saw the agent.
- The real-time bound: no LRTA* episode expands more states than the lookahead.
- D* Lite plans, in every episode, a shortest presumed-unblocked path (checked with a plain BFS on
  what the agent knew then), the first one as long as Repeated Forward A*'s; Korf's LRTA* and
  Koenig's with lookahead one walk identically.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from reference.world import FogOfWarWorld, Gridworld
from reference.world.grid import shortest_distance
from reference.world.replay import AgentReplay
from reference.solutions import repeated_forward_astar
from reference.solutions.realtime import knowledge_of, run_algorithm

SETTINGS = settings(max_examples=60, deadline=None)


@st.composite
def instances(draw, max_side: int = 7):
    """A random grid (about a quarter of its cells blocked) with a free start and target."""
    height = draw(st.integers(1, max_side))
    width = draw(st.integers(2 if height == 1 else 1, max_side))
    blocked = np.array(draw(st.lists(st.booleans() | st.just(False), min_size=height * width,
                                     max_size=height * width)), dtype=bool).reshape(height, width)
    free = [divmod(i, width) for i in np.flatnonzero(~blocked.ravel())]
    if len(free) < 2:
        blocked[:] = False
        free = [divmod(i, width) for i in range(height * width)]
    start = draw(st.sampled_from(free))
    target = draw(st.sampled_from(free))
    return Gridworld(height, width, blocked), start, target


def run_on(name, grid, start, target, heuristic="strong", lookahead=1, known=False):
    world = FogOfWarWorld(grid, start)
    run = run_algorithm(name, world, start, target, heuristic=heuristic, lookahead=lookahead,
                        knowledge=knowledge_of(grid) if known else None)
    return run, world


@SETTINGS
@given(instances(), st.sampled_from(["lrta", "lrta_astar", "lrta_bfs", "dstar_lite"]),
       st.sampled_from(["strong", "weak"]), st.integers(1, 12), st.booleans())
def test_runs_end_and_reach_exactly_the_reachable_targets(instance, name, heuristic, lookahead, known):
    grid, start, target = instance
    run, world = run_on(name, grid, start, target, heuristic, lookahead, known)
    assert run.reached == (shortest_distance(grid, start, target) is not None)
    assert run.trace.trajectory[-1] == target if run.reached else run.trace.searches[-1].path == []
    assert run.trace.trajectory == (world.visited or [start])
    assert len(run.planning_seconds) == run.episodes


@SETTINGS
@given(instances(), st.sampled_from(["lrta", "lrta_astar", "lrta_bfs", "dstar_lite"]), st.integers(1, 12))
def test_replaying_the_recorded_paths_reproduces_the_trajectory(instance, name, lookahead):
    grid, start, target = instance
    run, _ = run_on(name, grid, start, target, lookahead=lookahead)
    replay = AgentReplay(grid, start)
    for record in run.trace.searches:
        agent = record.goal if name == "dstar_lite" else record.start
        assert agent == replay.agent
        if record.path:
            assert record.path[0] == replay.agent
            replay.walk(record.path)
    assert replay.trajectory == run.trace.trajectory


@SETTINGS
@given(instances(), st.sampled_from(["lrta_astar", "lrta_bfs"]), st.sampled_from(["strong", "weak"]),
       st.integers(1, 12), st.booleans())
def test_real_time_bound_expansions_per_episode_never_exceed_the_lookahead(instance, name, heuristic, lookahead, known):
    grid, start, target = instance
    run, _ = run_on(name, grid, start, target, heuristic, lookahead, known)
    assert all(1 <= len(record.expanded) <= lookahead for record in run.trace.searches)
    assert all(len(set(record.expanded)) == len(record.expanded) for record in run.trace.searches)


@SETTINGS
@given(instances(), st.sampled_from(["strong", "weak"]))
def test_dstar_lite_plans_shortest_presumed_unblocked_paths(instance, heuristic):
    grid, start, target = instance
    run, _ = run_on("dstar_lite", grid, start, target, heuristic)
    replay = AgentReplay(grid, start)
    for record in run.trace.searches:
        known = np.frombuffer(bytes(replay.knowledge.blocked), dtype=np.uint8).reshape(grid.height, grid.width) > 0
        distance = shortest_distance(grid, replay.agent, target, blocked=known)
        if distance is None:
            assert record.path == []
            break
        assert len(record.path) - 1 == distance
        assert not any(known[cell] for cell in record.path)
        assert all(abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1 for a, b in zip(record.path, record.path[1:]))
        replay.walk(record.path)


@SETTINGS
@given(instances(), st.sampled_from(["strong", "weak"]), st.booleans())
def test_korf_lrta_and_koenig_lrta_with_lookahead_one_walk_alike(instance, heuristic, known):
    # With consistent values, max(h(s), 1 + h(next)) = 1 + h(next), and A*'s first key order over the
    # neighbours (all g = 1) is the east-south-west-north order: the two are the same algorithm.
    grid, start, target = instance
    korf, _ = run_on("lrta", grid, start, target, heuristic, 1, known)
    koenig, _ = run_on("lrta_astar", grid, start, target, heuristic, 1, known)
    assert korf.trace.trajectory == koenig.trace.trajectory
    assert korf.reached == koenig.reached


@SETTINGS
@given(instances(), st.sampled_from(["dstar_lite", "lrta_astar"]))
def test_known_terrain_with_full_planning_walks_a_shortest_path(instance, name):
    grid, start, target = instance
    run, _ = run_on(name, grid, start, target, lookahead=grid.height * grid.width, known=True)
    distance = shortest_distance(grid, start, target)
    if distance is not None:
        assert run.moves == distance and run.episodes == (1 if start != target else 0)


@SETTINGS
@given(instances(), st.sampled_from(["strong", "weak"]))
def test_dstar_lite_first_path_is_as_long_as_repeated_forward_astars(instance, heuristic):
    # Both plan on the same knowledge before the first move: a shortest presumed-unblocked path.
    grid, start, target = instance
    run, _ = run_on("dstar_lite", grid, start, target, heuristic)
    astar = repeated_forward_astar(FogOfWarWorld(grid, start), start, target)
    assert len(run.trace.searches) == len(astar.searches) == 0 or \
        len(run.trace.searches[0].path) == len(astar.searches[0].path)
