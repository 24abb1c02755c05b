"""The compiled twin gives the readable reference's traces, expansion for expansion (SPEC §16).

Referees: the reference solutions (``reference.solutions.solve``) on random grids (hypothesis), the
handout's worked examples as the SPEC spells them out (§10), and the digests of the reference's
runs on every public instance that ship with the kit (``autograder/data/expected_public.json.gz``,
computed by the Python reference: all 50 standard mazes x 4 settings, checked in the default run
because the twin needs about a second for all of them).
"""

from __future__ import annotations

import hashlib
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reference.solutions import solve
from reference.solutions.compiled.replanning import LARGEST_GRID, QUEUES, run_compiled
from reference.world.grid import Gridworld
from reference.world.instances import Instance
from reference.world.trace_arrays import TraceArrays

from tests.helpers.handout import EXAMPLE_1, EXAMPLE_3, handout_cell, handout_cells
from tests.solutions.test_replanning_properties import SETTINGS
from tests.solutions.test_replanning_properties import instances as grid_problems


@st.composite
def instances(draw, max_side: int = 10):
    """The properties' random problems (test_replanning_properties.instances) as instances."""
    grid, start, target = draw(grid_problems(max_side))
    return Instance("random", grid, start, target)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(instance=instances(), setting=st.sampled_from(SETTINGS))
def test_same_trace_as_the_reference_on_random_grids(instance: Instance, setting: tuple[str, str]) -> None:
    algorithm, tie_break = setting
    twin = run_compiled(instance.grid, instance.start, instance.target, algorithm, tie_break)
    reference = solve(instance, algorithm, tie_break)
    assert twin.to_trace() == reference
    # OPEN as the binary heap instead of the bucket queue: the same run.
    assert run_compiled(instance.grid, instance.start, instance.target, algorithm, tie_break, queue="heap").same_run(twin)
    # The arrays round-trip, and a counts-only run reports the same counts, search by search.
    assert twin.same_run(TraceArrays.from_trace(reference, instance.grid.width))
    counts = run_compiled(instance.grid, instance.start, instance.target, algorithm, tie_break, record_cells=False)
    assert counts.same_run(twin) and counts.expanded.size == 0 and counts.trajectory.size == 0


@pytest.mark.parametrize("queue", QUEUES)
def test_handout_example_1(queue: str) -> None:
    """SPEC §10, Example 1: the expansions the handout's figures show, in the SPEC's order."""
    forward = run_compiled(EXAMPLE_1, handout_cell("E3"), handout_cell("E5"), "forward", queue=queue).to_trace()
    assert forward.searches[0].expanded == handout_cells("E3 E2 E1 D2 D1 C2 C3 C4 C5 D5")
    assert forward.trajectory[:4] == handout_cells("E3 E2 D2 C2")
    assert len(forward.searches[1].expanded) == 13
    adaptive = run_compiled(EXAMPLE_1, handout_cell("E3"), handout_cell("E5"), "adaptive", queue=queue).to_trace()
    assert adaptive.searches[0].expanded == forward.searches[0].expanded
    second = adaptive.searches[1].expanded
    assert len(second) == 10 and not set(handout_cells("E1 E2 E3")) & set(second)  # 20 against 23
    backward = run_compiled(EXAMPLE_1, handout_cell("E3"), handout_cell("E5"), "backward", queue=queue).to_trace()
    assert backward.searches[0].expanded == handout_cells("E5 D5 D4 C4 C3 C5 C2 D2 E2")


@pytest.mark.parametrize("queue", QUEUES)
def test_handout_examples_2_and_3(queue: str) -> None:
    example_2 = run_compiled(EXAMPLE_1, handout_cell("E2"), handout_cell("E5"), queue=queue).to_trace()
    assert example_2.trajectory[1] == handout_cell("E3")  # the first move is east, not north
    for tie_break, expansions in (("larger_g", 8), ("smaller_g", 23)):
        run = run_compiled(EXAMPLE_3, handout_cell("A1"), handout_cell("E5"), "forward", tie_break, queue=queue)
        assert run.expansions == expansions


def test_agrees_with_the_shipped_reference_digests_on_every_public_instance() -> None:
    """All 50 standard mazes x 4 settings, the examples, the hand-made cases and the 1001 x 1001
    efficiency probe: the twin's searches hash to the digests the Python reference produced."""
    from autograder.expected import SETTINGS as CHECKS, _load_shipped, fingerprint, from_encoded
    from autograder.instances import efficiency_probe, public_instances

    shipped = _load_shipped()
    if not shipped:
        pytest.skip("no shipped expected results")
    instances = public_instances(full=True) + [efficiency_probe()]
    checked = 0
    for instance in instances:
        expected = shipped[fingerprint(instance)]
        for check_id, (algorithm, tie_break, _) in CHECKS.items():
            for queue in QUEUES:
                twin = run_compiled(instance.grid, instance.start, instance.target, algorithm, tie_break, queue=queue)
                got = from_encoded({"reached": twin.reached}, twin.wire_arrays())
                assert got.__dict__ == expected[check_id], f"{instance.name} {check_id} {queue}"
                checked += 1
    assert checked >= 2 * 4 * 50


def test_refuses_what_it_cannot_do() -> None:
    grid = Gridworld.from_strings(["..@", "..."])
    with pytest.raises(ValueError, match="blocked cell"):
        run_compiled(grid, (0, 0), (0, 2))
    with pytest.raises(ValueError, match="outside"):
        run_compiled(grid, (0, 0), (5, 0))
    with pytest.raises(ValueError, match="unknown algorithm"):
        run_compiled(grid, (0, 0), (1, 2), "sideways")
    with pytest.raises(ValueError, match="queue must be"):
        run_compiled(grid, (0, 0), (1, 2), queue="stack")
    assert 1001 * 1001 <= LARGEST_GRID < 1024 * 1024
    with pytest.raises(ValueError, match="64 bits"):
        run_compiled(Gridworld(1024, 1024), (0, 0), (0, 1), queue="heap")
    # The bucket queue packs nothing: the same grid is fine. One search, one expansion (the start;
    # then the target's g, 1, is not above the smallest f in OPEN, 1), one move east.
    run = run_compiled(Gridworld(1024, 1024), (0, 0), (0, 1))
    assert (run.reached, run.expansions, run.moves) == (True, 1, 1)


def test_expected_results_are_the_same_with_either_engine() -> None:
    from autograder.expected import SETTINGS as CHECKS, compute_expected
    from autograder.instances import example_instances, handmade_instances

    for instance in example_instances() + handmade_instances():
        for check_id in CHECKS:
            assert compute_expected(instance, check_id, "compiled") == compute_expected(instance, check_id, "python")


def test_ftr_run_gives_the_same_trace_with_either_engine(tmp_path) -> None:
    import subprocess
    import sys

    from reference.world.instances import standard_mazes_dir
    from reference.world.trace import Trace

    mazes = standard_mazes_dir()
    traces = []
    for engine in ("compiled", "python"):
        out = tmp_path / f"{engine}.json"
        subprocess.run([sys.executable, "-m", "reference.cli", "run", str(mazes / "maze_02.map"), "--scen",
                        str(mazes / "mazes.scen"), "--index", "2", "--algorithm", "adaptive", "--engine", engine,
                        "--trace", str(out)], check=True, capture_output=True, timeout=600)
        traces.append(Trace.load(out))
    assert traces[0] == traces[1] and traces[0].reached


def twin_against_recorded_digests(full: bool) -> int:
    """Check the twin, with either queue, against tests/data/trace_digests.json (recorded from the
    reference before its rewrite) on every Repeated A* case there; returns the runs checked."""
    from tests.helpers.trace_identity import DIGESTS, cases, fingerprint, key

    recorded = json.loads(DIGESTS.read_text(encoding="utf-8"))
    checked = 0
    for _group, instance, setting, _run in cases(full):
        algorithm, _, tie_break = setting.partition("/")
        if algorithm not in ("forward", "backward", "adaptive"):
            continue
        for queue in QUEUES:
            twin = run_compiled(instance.grid, instance.start, instance.target, algorithm, tie_break, queue=queue)
            assert fingerprint(twin.to_trace()) == recorded[key(instance, setting)], f"{key(instance, setting)} {queue}"
            checked += 1
    return checked


def test_agrees_with_the_recorded_trace_digests_on_examples_random_grids_and_two_mazes() -> None:
    assert twin_against_recorded_digests(full=False) >= 2 * 6 * 2


@pytest.mark.slow
def test_agrees_with_the_recorded_trace_digests_on_all_fifty_mazes() -> None:
    assert twin_against_recorded_digests(full=True) >= 2 * 6 * 50


@pytest.mark.slow
@pytest.mark.parametrize("number", [0, 1])
def test_bucket_queue_and_heap_give_the_same_runs_on_1001_by_1001_mazes(number: int) -> None:
    """The larger-maps question's mazes (bench/large_mazes.py), all four settings, full traces: the
    bucket queue and the heap pop the same cells (compared by digest: a trace is up to 200 MB)."""
    from reference.experiments.standard import SETTINGS as STANDARD
    from reference.world.generator import generate_maze

    maze = generate_maze([1001, number], 1001, extra_openings=9823)  # bench/large_mazes.py's maze `number`
    for algorithm, tie_break in STANDARD:
        digests = []
        for queue in QUEUES:
            run = run_compiled(maze.grid, maze.start, maze.target, algorithm, tie_break, queue=queue)
            digests.append((run.reached, run.moves, hashlib.sha256(run.expanded.tobytes()).hexdigest(),
                            run.expanded_offsets.tobytes(), run.paths.tobytes(), run.trajectory.tobytes()))
            del run
        assert digests[0] == digests[1], f"maze {number} {algorithm}/{tie_break}"
