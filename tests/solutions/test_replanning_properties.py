"""Properties every correct Repeated A* run has, on random gridworlds (hypothesis) and the standard mazes.

Independent referees: a breadth-first search on the agent's knowledge (shortest presumed-unblocked
distances), the fog-of-war world's own record of where the agent stood, and a second, straightforward
implementation of the SPEC on ``heapq`` and dictionaries (bench/baseline.py, also the benchmarks' peer) that
must agree trace for trace.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reference.world.generator import generate_maze
from reference.world.grid import Gridworld, distances_from, manhattan, shortest_distance
from reference.world.replay import annotate_search, heuristic_for, search_contexts
from reference.world.sensing import FogOfWarWorld
from reference.world.trace import Trace
from reference.solutions.replanning import RepeatedAStar
from bench.baseline import baseline_run as oracle_run

SETTINGS = [("forward", "larger_g"), ("forward", "smaller_g"), ("backward", "larger_g"),
            ("backward", "smaller_g"), ("adaptive", "larger_g"), ("adaptive", "smaller_g")]


@st.composite
def instances(draw, max_side: int = 9):
    """A random grid with a random unblocked start and target (possibly equal, possibly cut off)."""
    height = draw(st.integers(1, max_side))
    width = draw(st.integers(1, max_side))
    density = draw(st.sampled_from([0.0, 0.15, 0.3, 0.45]))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    blocked = rng.random((height, width)) < density
    free = [tuple(map(int, c)) for c in np.argwhere(~blocked)]
    if not free:
        blocked[0, 0] = False
        free = [(0, 0)]
    start = draw(st.sampled_from(free))
    target = draw(st.sampled_from(free))
    return Gridworld(height, width, blocked), start, target


def run(grid, start, target, algorithm, tie_break):
    world = FogOfWarWorld(grid, start)
    agent = RepeatedAStar(world, start, target, "backward" if algorithm == "backward" else "forward",
                          adaptive=algorithm == "adaptive", tie_break=tie_break)
    return world, agent, agent.run()


def check_run(grid: Gridworld, start, target, algorithm: str, tie_break: str) -> Trace:
    world, _, trace = run(grid, start, target, algorithm, tie_break)
    # The trace has the SPEC §8 shape and says what the world saw.
    assert Trace.from_dict(trace.to_dict(), grid.height, grid.width) == trace
    assert (trace.algorithm, trace.tie_break) == (algorithm, tie_break)
    assert trace.trajectory == world.visited
    assert trace.trajectory[0] == start
    # Reached exactly when the target is reachable on the true grid; unreachable is reported.
    reachable = shortest_distance(grid, start, target) is not None
    assert trace.reached == reachable
    assert (trace.trajectory[-1] == target) == reachable
    if start == target:
        assert trace.searches == [] and trace.trajectory == [start]
    else:
        assert trace.searches, "a run that must move searches at least once"
        assert bool(trace.searches[-1].path) == reachable
        assert all(s.path for s in trace.searches[:-1])
    # Termination bound: moves <= (number of unblocked cells)^2.
    unblocked = grid.size - grid.blocked_count
    assert trace.moves <= unblocked ** 2

    moves = []
    for context in search_contexts(grid, trace):
        record = trace.searches[context.index]
        agent = context.agent
        expected_ends = (agent, target) if algorithm != "backward" else (target, agent)
        assert (record.start, record.goal) == expected_ends
        known = np.frombuffer(bytes(context.knowledge.blocked), np.uint8).reshape(grid.height, grid.width).astype(bool)
        distance = distances_from(grid, agent, known)
        # No state twice, the goal never counted, nothing known blocked expanded.
        assert len(set(record.expanded)) == len(record.expanded)
        assert record.goal not in record.expanded
        assert not any(known[c] for c in record.expanded)
        # Each path is a shortest presumed-unblocked path, agent to target.
        if record.path:
            assert record.path[0] == agent and record.path[-1] == target
            assert all(manhattan(a, b) == 1 for a, b in zip(record.path, record.path[1:]))
            assert not any(known[c] for c in record.path)
            assert len(record.path) - 1 == distance[target]
        else:
            assert target not in distance
        # f never decreases along the expansions; with smaller_g neither does (f, g).
        annotation = annotate_search(record, context.knowledge, heuristic_for(trace, context.index, context))
        keys = [(annotation.f[c], annotation.g[c]) for c in record.expanded]
        assert all(a[0] <= b[0] for a, b in zip(keys, keys[1:]))
        if tie_break == "smaller_g":
            assert keys == sorted(keys)
        # Expanded states have their true (presumed-unblocked) distance from the search's start.
        from_start = distances_from(grid, record.start, known)
        assert all(annotation.g[c] == from_start[c] for c in record.expanded)
        moves += context.moves
    assert moves == trace.trajectory[1:]
    return trace


@pytest.mark.parametrize("algorithm,tie_break", SETTINGS)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(instance=instances())
def test_properties_on_random_grids(instance, algorithm: str, tie_break: str) -> None:
    grid, start, target = instance
    check_run(grid, start, target, algorithm, tie_break)


@pytest.mark.parametrize("algorithm,tie_break", SETTINGS)
@settings(max_examples=40, deadline=None)
@given(instance=instances(max_side=12))
def test_agrees_with_the_heapq_oracle(instance, algorithm: str, tie_break: str) -> None:
    """A second implementation of the SPEC, written the straightforward way, gives the same trace."""
    grid, start, target = instance
    _, _, trace = run(grid, start, target, algorithm, tie_break)
    assert oracle_run(grid, start, target, algorithm, tie_break) == trace


@settings(max_examples=60, deadline=None)
@given(instance=instances())
def test_adaptive_h_stays_consistent_and_never_decreases(instance) -> None:
    grid, start, target = instance
    world = FogOfWarWorld(grid, start)

    class CheckedAdaptive(RepeatedAStar):
        def consistent(self, knowledge) -> bool:
            """h(target) = 0 and h(s) <= 1 + h(t) for every presumed-unblocked neighbour t of s."""
            for s in grid.cells():
                if knowledge.is_blocked(s):
                    continue
                if any(self.h(s, target) > 1 + self.h(t, target) for t in knowledge.successors(s)):
                    return False
            return self.h(target, target) == 0

        def compute_path(self, open_list, closed, s_goal, knowledge) -> None:
            assert self.consistent(knowledge)  # also after the agent saw new blocked cells
            self.knowledge_now = knowledge
            super().compute_path(open_list, closed, s_goal, knowledge)

        def learn_h_values(self, closed, s_goal) -> None:
            before = [self.h(s, target) for s in grid.cells()]
            super().learn_h_values(closed, s_goal)
            after = [self.h(s, target) for s in grid.cells()]
            assert all(a >= b for a, b in zip(after, before))
            assert self.consistent(self.knowledge_now)

    trace = CheckedAdaptive(world, start, target, "forward", adaptive=True).run()
    assert trace.reached == (shortest_distance(grid, start, target) is not None)


@pytest.mark.parametrize("algorithm", ["forward", "backward", "adaptive"])
def test_unreachable_target_discovered_after_moving(algorithm: str) -> None:
    """The target is walled in; the agent learns it only by walking up to the walls."""
    grid = Gridworld.from_strings([
        ".......",
        "....@@@",
        "....@.@",
        "....@@@",
    ])
    trace = check_run(grid, (0, 0), (2, 5), algorithm, "larger_g")
    assert not trace.reached
    assert trace.moves > 0 and len(trace.searches) > 1
    assert trace.searches[-1].path == []


@pytest.mark.parametrize("algorithm", ["forward", "backward", "adaptive"])
@pytest.mark.parametrize("tie_break", ["larger_g", "smaller_g"])
def test_corridor(algorithm: str, tie_break: str) -> None:
    """In a 1 x 8 corridor there is one path: one search, 7 expansions (every cell but the goal), 7 moves."""
    grid = Gridworld.from_strings(["........"])
    trace = check_run(grid, (0, 0), (0, 7), algorithm, tie_break)
    assert len(trace.searches) == 1 and trace.expansions == 7 and trace.moves == 7


@pytest.mark.parametrize("algorithm", ["forward", "backward", "adaptive"])
def test_corridor_cut_in_the_middle(algorithm: str) -> None:
    """A wall at column 4 of a 1 x 8 corridor: the agent walks to column 3, sees it, and gives up."""
    grid = Gridworld.from_strings(["....@..."])
    trace = check_run(grid, (0, 0), (0, 7), algorithm, "larger_g")
    assert not trace.reached
    assert trace.trajectory[-1] == (0, 3) and trace.moves == 3 and len(trace.searches) == 2


def test_first_path_blocked_at_its_last_step() -> None:
    """SPEC §8's hand-made case: the only wall on the first presumed path is the cell before the target."""
    grid = Gridworld.from_strings([
        "....",
        "..@.",
    ])
    # From (1, 0) to (1, 3): the first path runs east along row 1 into (1, 2), seen only from (1, 1).
    trace = check_run(grid, (1, 0), (1, 3), "forward", "larger_g")
    assert trace.searches[0].path == [(1, 0), (1, 1), (1, 2), (1, 3)]
    assert trace.trajectory[:2] == [(1, 0), (1, 1)] and len(trace.searches) == 2
    assert trace.reached


def test_start_equals_target() -> None:
    trace = check_run(Gridworld.from_strings(["..", ".."]), (1, 1), (1, 1), "forward", "larger_g")
    assert trace.reached and trace.moves == 0


def test_no_search_visits_every_cell(standard_instances) -> None:
    """Lazy initialisation: each search touches (gives its counter to) only its start, its goal and
    successors of the states it expands: at most 4 per expansion + 2, far fewer than all cells."""
    instance = standard_instances[0]
    touched_per_search = []

    class Counting(RepeatedAStar):
        def compute_path(self, open_list, closed, s_goal, knowledge) -> None:
            super().compute_path(open_list, closed, s_goal, knowledge)
            touched = sum(1 for value in self.search.values() if value == self.counter)  # the test's pass
            touched_per_search.append((touched, len(closed)))

    trace = Counting(FogOfWarWorld(instance.grid, instance.start), instance.start, instance.target).run()
    assert trace.reached and len(touched_per_search) == len(trace.searches) > 1
    for touched, expanded in touched_per_search:
        assert touched <= 4 * expanded + 2
    assert max(t for t, _ in touched_per_search) < instance.grid.size // 4


@pytest.mark.parametrize("algorithm,tie_break", SETTINGS)
def test_maze_properties(algorithm: str, tie_break: str) -> None:
    """The full set of checks on a 41 x 41 maze made the standard way (SPEC §3)."""
    maze = generate_maze([2005, 1000], 41)
    trace = check_run(maze.grid, maze.start, maze.target, algorithm, tie_break)
    assert trace.reached
    assert trace.moves >= shortest_distance(maze.grid, maze.start, maze.target)


@pytest.mark.slow
@pytest.mark.parametrize("algorithm,tie_break", SETTINGS)
def test_standard_maze_properties(standard_instances, algorithm: str, tie_break: str) -> None:
    """The full set of checks on a real 101 x 101 standard maze."""
    instance = standard_instances[1]
    trace = check_run(instance.grid, instance.start, instance.target, algorithm, tie_break)
    assert trace.reached
    assert trace.moves >= instance.optimal_length  # the agent cannot beat the true shortest path
