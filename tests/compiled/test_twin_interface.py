"""The compiled twins are called as the readable tree is: the same public names, the same registry type
with keyword-only settings, and one signature for every ``run_compiled``.

Referee: the readable packages (``reference.solutions.realtime``, ``reference.solutions.subgoaling``),
a second implementation; the twins' planners made from their registries must write its traces.
"""

from __future__ import annotations

import inspect

import pytest

from reference.solutions import realtime, subgoaling
from reference.solutions.compiled import realtime as realtime_twin
from reference.solutions.compiled import replanning as replanning_twin
from reference.solutions.compiled import subgoaling as subgoaling_twin
from reference.solutions.registry import Registry
from reference.world import FogOfWarWorld, Gridworld
from reference.world.sensing import KnownMapWorld

from tests.helpers.handout import EXAMPLE_1

# A map with a pocket in front of the goal (a heuristic depression), so the subgoaling variants walk
# differently from plain LRTA*.
POCKET = Gridworld.from_strings(["......",
                                 ".@@@@.",
                                 ".@....",
                                 ".@.@@@",
                                 "......"])


def test_every_run_compiled_takes_the_problem_then_the_algorithm_then_settings_by_keyword():
    for twin in (replanning_twin, realtime_twin, subgoaling_twin):
        parameters = list(inspect.signature(twin.run_compiled).parameters.values())
        assert [p.name for p in parameters[:4]] == ["grid", "start", "target", "algorithm"], twin.__name__
        assert all(p.kind is p.POSITIONAL_OR_KEYWORD for p in parameters[:4])
        assert parameters[3].default in (twin.ALGORITHMS if twin is not replanning_twin else replanning_twin.ALGORITHMS)
    # the newer twins take every setting keyword-only (the student's twin keeps its handout signature)
    for twin in (realtime_twin, subgoaling_twin):
        assert all(p.kind is p.KEYWORD_ONLY for p in list(inspect.signature(twin.run_compiled).parameters.values())[4:])


def test_the_twins_use_the_readable_public_names():
    for readable, twin, names in (
            (subgoaling, subgoaling_twin, ["ALGORITHMS", "KnownMapRun", "astar_run", "lrta_star", "lrta_star_subgoaling"]),
            (realtime, realtime_twin, ["ALGORITHMS", "RealtimeRun", "dstar_lite", "lrta_star", "lrta_star_bfs",
                                       "lrta_star_lookahead"])):
        for name in names:
            assert hasattr(readable, name) and hasattr(twin, name), name
        assert isinstance(twin.ALGORITHMS, Registry) and isinstance(readable.ALGORITHMS, Registry)
        # the same names in the same order (a readable planner without a twin, as the subgoaling rivals, is left out)
        assert list(twin.ALGORITHMS) == [name for name in readable.ALGORITHMS if name in twin.ALGORITHMS]
        assert len(twin.ALGORITHMS) >= 4
    assert not hasattr(subgoaling_twin, "CompiledRun") and not hasattr(subgoaling, "algorithm_table")


def test_the_subgoaling_twins_registry_takes_the_readable_settings_and_the_connectivity():
    for name in subgoaling_twin.ALGORITHMS:
        assert set(subgoaling_twin.ALGORITHMS.settings(name)) == {"connectivity", *subgoaling.ALGORITHMS.settings(name)}
    with pytest.raises(ValueError, match="not lookahead"):
        subgoaling_twin.ALGORITHMS.planner("lrta", lookahead=3)
    with pytest.raises(ValueError, match="unknown algorithm"):
        subgoaling_twin.run_compiled(POCKET, (4, 0), (2, 5), "rta")


@pytest.mark.parametrize("connectivity", [4, 8])
def test_the_subgoaling_twins_planners_write_the_readable_traces(connectivity):
    start, goal = (4, 0), (2, 5)
    for name in subgoaling_twin.ALGORITHMS:
        settings = subgoaling.ALGORITHMS.those_taken(name, max_moves=500)
        readable = subgoaling.ALGORITHMS.planner(name, **settings).run(KnownMapWorld(POCKET, start, connectivity),
                                                                       start, goal)
        twin = subgoaling_twin.ALGORITHMS.planner(name, connectivity=connectivity, **settings).run(POCKET, start, goal)
        assert type(twin).__name__ == "KnownMapRun"
        assert twin.trace == readable.trace and twin.cost == readable.cost
        by_name = subgoaling_twin.run_compiled(POCKET, start, goal, name, connectivity=connectivity, max_moves=500)
        assert by_name.trace == readable.trace


def test_the_realtime_twins_registry_takes_the_readable_settings_and_record():
    for name in realtime_twin.ALGORITHMS:
        assert realtime_twin.ALGORITHMS.settings(name) == (*realtime.ALGORITHMS.settings(name), "record")
    with pytest.raises(ValueError, match="not lookahead"):
        realtime_twin.ALGORITHMS.planner("dstar_lite", lookahead=3)


def test_the_realtime_twins_planners_write_the_readable_traces():
    start, target = (4, 2), (4, 4)  # the handout's Figure 2
    for name in realtime_twin.ALGORITHMS:
        settings = realtime.ALGORITHMS.those_taken(name, lookahead=3, heuristic="weak")
        readable = realtime.ALGORITHMS.planner(name, **settings).run(FogOfWarWorld(EXAMPLE_1, start), start, target)
        twin = realtime_twin.ALGORITHMS.planner(name, **settings).run(EXAMPLE_1, start, target)
        assert twin.trace == readable.trace
        assert realtime_twin.run_compiled(EXAMPLE_1, start, target, name, **settings).trace == readable.trace
        counts = realtime_twin.ALGORITHMS.planner(name, record=False, **settings).run(EXAMPLE_1, start, target)
        assert (counts.moves, counts.expansions, counts.trajectory) == (readable.moves, readable.expansions, None)
