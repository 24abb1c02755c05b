"""The compiled twins of the real-time planners give the reference planners' traces (SPEC §16).

The referee is the readable reference (``reference/solutions/realtime``), run through the
fog-of-war world that checks every move: the twin must write the same trace, record for record
(the same expanded cells in the same order, the same paths, the same trajectory), on random small
grids (Hypothesis; with unreachable targets, known terrain, both heuristics and both tie-breaking
rules), on the comparison's mazes and random grids, and on the first standard mazes. The counts
the comparison reads come out the same with and without a recorded trace.
"""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference.experiments.realtime import make_instance, settings_for
from reference.solutions.compiled.realtime import ALGORITHMS, run_compiled
from reference.solutions.realtime import dstar_lite, knowledge_of, lrta_star, lrta_star_bfs, lrta_star_lookahead
from reference.world import FogOfWarWorld, Gridworld

from tests.helpers.handout import EXAMPLE_1
from tests.solutions.realtime.test_realtime_properties import instances

COUNTS = ("reached", "expansions", "episodes", "moves", "max_expansions_per_episode", "lookahead", "algorithm")


def reference_run(name, instance, heuristic="strong", lookahead=1, known=False, tie_break="larger_g"):
    """The readable planner, through the world that checks every move (with ``tie_break``, which
    run_algorithm does not take)."""
    grid, start, target = instance
    knowledge = knowledge_of(grid) if known else None
    world = FogOfWarWorld(grid, start)
    if name == "lrta":
        return lrta_star(world, start, target, heuristic, tie_break, knowledge)
    if name == "lrta_astar":
        return lrta_star_lookahead(world, start, target, lookahead, heuristic, tie_break, knowledge)
    if name == "lrta_bfs":
        return lrta_star_bfs(world, start, target, lookahead, heuristic, tie_break, knowledge)
    return dstar_lite(world, start, target, heuristic, knowledge)


def assert_twins(name, instance, heuristic="strong", lookahead=1, known=False, tie_break="larger_g"):
    """The twin's trace is the reference's, and so are the counts of a counts-only run."""
    grid, start, target = instance
    expected = reference_run(name, instance, heuristic, lookahead, known, tie_break)
    knowledge = knowledge_of(grid) if known else None
    twin = run_compiled(grid, start, target, name, heuristic=heuristic, lookahead=lookahead, knowledge=knowledge,
                        tie_break=tie_break)
    assert twin.trace == expected.trace
    counts_only = run_compiled(grid, start, target, name, heuristic=heuristic, lookahead=lookahead, knowledge=knowledge,
                               tie_break=tie_break, record=False)
    reference_summary = expected.summary()
    for summary in (twin.summary(), counts_only.summary()):
        assert {k: summary[k] for k in COUNTS} == {k: reference_summary[k] for k in COUNTS}
    assert len(twin.planning_seconds) == twin.episodes and (twin.planning_seconds >= 0).all()
    return twin


@settings(max_examples=150, deadline=None)
@given(instances(max_side=9), st.sampled_from(sorted(ALGORITHMS)), st.sampled_from(["strong", "weak"]),
       st.integers(1, 12), st.booleans(), st.sampled_from(["larger_g", "smaller_g"]))
def test_twin_traces_are_the_reference_traces_on_random_grids(instance, name, heuristic, lookahead, known, tie_break):
    assert_twins(name, instance, heuristic, lookahead, known, tie_break)


def test_handout_example_and_unreachable_target():
    grid = EXAMPLE_1  # handout Figure 2
    for name in ALGORITHMS:
        assert_twins(name, (grid, (4, 2), (4, 4)), lookahead=3)
    walled = Gridworld.from_strings(["..@..", "..@..", "..@.."])  # the target lies behind a wall
    for name in ALGORITHMS:
        twin = assert_twins(name, (walled, (0, 0), (2, 4)), lookahead=2)
        assert not twin.reached and twin.trace.searches[-1].path == []


@pytest.mark.parametrize("kind", ["maze", "random"])
def test_twin_traces_on_the_comparisons_grids(kind):
    """Every setting of the comparison (lookaheads 1, 7, 21) on two of its grids, 31 x 31."""
    for number in range(2):
        instance = make_instance(kind, number, size=31)
        for algorithm, heuristic, lookahead in settings_for(kind, (1, 7, 21)):
            assert_twins(algorithm, (instance.grid, instance.start, instance.target), heuristic, lookahead or 1)


def test_twin_traces_on_the_first_standard_maze(standard_instances):
    instance = standard_instances[0]
    for name, heuristic, lookahead in (("dstar_lite", "strong", 1), ("lrta_astar", "weak", 9),
                                       ("lrta_bfs", "weak", 9)):
        assert_twins(name, (instance.grid, instance.start, instance.target), heuristic, lookahead)


@pytest.mark.slow
def test_twin_traces_on_the_standard_mazes(standard_instances):
    for instance in standard_instances[:5]:
        for name in ALGORITHMS:
            for heuristic in ("strong", "weak"):
                for lookahead in (1, 5, 25):
                    assert_twins(name, (instance.grid, instance.start, instance.target), heuristic, lookahead,
                                 known=lookahead == 5)


@pytest.mark.slow
def test_twin_traces_on_larger_comparison_grids():
    for kind in ("maze", "random"):
        for number in range(3):
            instance = make_instance(kind, number, size=61)
            for algorithm, heuristic, lookahead in settings_for(kind, (1, 3, 13, 49)):
                assert_twins(algorithm, (instance.grid, instance.start, instance.target), heuristic, lookahead or 1)


def test_counts_only_run_has_no_trace_and_bad_input_is_refused():
    grid = Gridworld.from_strings(["...", ".@.", "..."])
    run = run_compiled(grid, (0, 0), (2, 2), "lrta", record=False)
    assert run.reached and run.moves == 4 and run.trajectory is None
    with pytest.raises(ValueError, match="counts only"):
        _ = run.trace
    for args, chosen, message in (((grid, (0, 0), (2, 2), "astar"), {}, "unknown algorithm"),
                                    ((grid, (1, 1), (2, 2), "lrta"), {}, "blocked cell"),
                                    ((grid, (0, 0), (3, 2), "lrta"), {}, "outside"),
                                    ((grid, (0, 0), (2, 2), "lrta_bfs"), {"lookahead": 0}, "lookahead"),
                                    ((grid, (0, 0), (2, 2), "lrta"), {"heuristic": "manhattan"}, "heuristic")):
        with pytest.raises(ValueError, match=message):
            run_compiled(*args, **chosen)


def test_cli_engines_give_the_same_counts(tmp_path):
    """``ftr realtime run`` with the default (compiled) engine and with --engine python."""
    rows = {}
    for engine in ("compiled", "python"):
        out = subprocess.run([sys.executable, "-m", "reference.cli", "realtime", "run", "--maze", "1", "--size", "21",
                              "--algorithm", "lrta_astar", "--lookahead", "5", "--jsonl", "--engine", engine,
                              "--trace", str(tmp_path / f"{engine}.json")],
                             capture_output=True, text=True, check=True).stdout
        row = json.loads(out)
        rows[engine] = {k: row[k] for k in COUNTS}
    assert rows["compiled"] == rows["python"]
    assert json.loads((tmp_path / "compiled.json").read_text()) == json.loads((tmp_path / "python.json").read_text())
    assert np.isfinite(row["planning_us"])


# -- the comparison at the paper's size: sample sizes, confidence intervals, compressed runs -------------


def comparison_row(instance, algorithm, lookahead, moves, planning_us=10.0):
    return {"kind": "random", "instance": instance, "size": 9, "algorithm": algorithm, "heuristic": "strong",
            "lookahead": lookahead, "engine": "compiled", "reached": True, "expansions": moves, "episodes": 1,
            "moves": moves, "planning_us": planning_us, "max_expansions_per_episode": 1, "seconds": 0.0,
            "successors": "fixed"}


def test_tables_state_sample_sizes_and_confidence_intervals():
    from reference.experiments.realtime import paired_difference, paper_table

    # D* Lite walks 10, 20, 30 moves on three grids; LRTA* (lookahead 49) 11, 20, 32.
    rows = [comparison_row(i, "dstar_lite", None, m) for i, m in enumerate((10, 20, 30))]
    rows += [comparison_row(i, "lrta_astar", 49, m) for i, m in enumerate((11, 20, 32))]
    dstar = paper_table(rows, "random")[0]
    # mean 20, sample standard deviation 10, t(0.975, 2 degrees of freedom) = 4.303: 4.303 * 10 / sqrt(3) = 24.84
    assert dstar["runs"] == 3 and dstar["moves"] == 20 and round(dstar["moves_ci95"], 2) == 24.84
    # Paired on the same grids the differences are 1, 0, 2: mean 1, standard deviation 1, 4.303 / sqrt(3) = 2.48
    mean, half_width, n = paired_difference(rows, "random", ("lrta_astar", "strong", 49), ("dstar_lite", "strong", None),
                                            "moves")
    assert (mean, round(half_width, 2), n) == (1.0, 2.48, 3)


def test_large_samples_are_written_gzipped_and_read_back(tmp_path, monkeypatch):
    from reference.experiments import realtime as experiment

    rows = [comparison_row(i, "dstar_lite", None, 10 + i) for i in range(5)]
    monkeypatch.setattr(experiment, "LARGE_RUNS", 100)
    experiment.write_report(rows, tmp_path)
    assert not (tmp_path / "runs.csv").exists()
    assert experiment.read_runs(tmp_path / "runs.csv.gz") == rows
    assert experiment.read_runs(tmp_path / "runs.csv") == rows   # the name a merge command gives every part
    assert "runs.csv.gz" in (tmp_path / "findings.md").read_text()


def test_the_successor_order_is_splitmix64():
    """The random successor order draws from splitmix64: its published first outputs for seed 0
    (Vigna's reference implementation: 0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, ...)."""
    from reference.solutions.realtime.lookahead import SuccessorOrder

    order = SuccessorOrder(0)
    assert [order.next() for _ in range(2)] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4]
    # every call is a permutation of the four directions, and over many calls all 24 appear
    order = SuccessorOrder(5)
    drawn = {tuple(order.directions()) for _ in range(2000)}
    assert all(sorted(p) == [0, 1, 2, 3] for p in drawn) and len(drawn) == 24


@settings(max_examples=80, deadline=None)
@given(instances(max_side=9), st.sampled_from(["lrta_astar", "lrta_bfs"]), st.integers(1, 12), st.booleans(),
       st.integers(0, 2**64 - 1))
def test_random_successor_order_twins(instance, name, lookahead, known, seed):
    """With successors in random order (seeded) the twin writes the reference's trace, record for record."""
    grid, start, target = instance
    knowledge = knowledge_of(grid) if known else None
    world = FogOfWarWorld(grid, start)
    planner = lrta_star_lookahead if name == "lrta_astar" else lrta_star_bfs
    expected = planner(world, start, target, lookahead, "strong", "larger_g", knowledge, successors="random", seed=seed)
    twin = run_compiled(grid, start, target, name, heuristic="strong", lookahead=lookahead, knowledge=knowledge,
                        successors="random", seed=seed)
    assert twin.trace == expected.trace


def test_random_order_changes_ties_on_an_open_grid():
    """On an open 9 x 9 grid from a corner to the opposite corner every E/S move ties; fixed order
    takes all east moves first (east is generated first), a random order mixes them."""
    grid = Gridworld.from_strings(["." * 9] * 9)
    fixed = lrta_star_lookahead(FogOfWarWorld(grid, (0, 0)), (0, 0), (8, 8), 1)
    assert fixed.trace.trajectory[:9] == [(0, c) for c in range(9)]
    shuffled = lrta_star_lookahead(FogOfWarWorld(grid, (0, 0)), (0, 0), (8, 8), 1, successors="random", seed=3)
    assert shuffled.moves == 16 and shuffled.trace.trajectory[:9] != fixed.trace.trajectory[:9]
