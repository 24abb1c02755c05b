"""The subgoaling evaluation (reference.experiments.subgoaling) and ``ftr subgoal``, on small instances."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from matplotlib.colors import to_rgba

from reference.experiments import subgoaling as experiment
from reference.world.grid import Gridworld
from reference.world.maps import write_map

CUP = ["..................",
       "...@..........@...",
       "...@..........@...",
       "...@@@@@@@@@@@@...",
       ".................."]


def ftr(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "reference.cli", *args], capture_output=True, text=True, timeout=300)


@pytest.fixture
def tiny_movingai(tmp_path):
    """A MovingAI folder holding one small map, and the GameMap that names it."""
    write_map(Gridworld.from_strings(CUP), tmp_path / "movingai" / "tiny" / "cup.map")
    return tmp_path / "movingai", experiment.GameMap("tiny", "cup.map", "a test map")


def test_problems_are_reachable_distinct_and_seeded():
    grid = Gridworld.from_strings([".@..", ".@..", "...."])
    problems = experiment.draw_problems(grid, 30, seed=5)
    assert problems == experiment.draw_problems(grid, 30, seed=5)
    assert all(start != goal and not grid.is_blocked(start) and not grid.is_blocked(goal) for start, goal in problems)


@pytest.mark.parametrize("engine", experiment.ENGINES)
def test_comparison_report_and_findings(tiny_movingai, tmp_path, engine):
    movingai, game_map = tiny_movingai
    rows = experiment.run_comparison(problems=6, maps=(game_map,), progress=False, movingai=movingai, engine=engine)
    assert {r["engine"] for r in rows if r["algorithm"] != "trees"} == {engine}
    problems = [r for r in rows if r["algorithm"] != "trees"]
    assert len(problems) == 6 * len(experiment.SUBGOALING_ALGORITHMS) and all(r["reached"] for r in problems)
    for row in problems:
        assert row["cost"] >= row["optimal"] - 1e-9
        if row["algorithm"] == "astar":
            assert row["cost"] == row["optimal"] and row["episodes"] == 1
        else:
            assert row["expansions"] == row["moves"] == row["episodes"]   # one expansion per move
    trees = experiment.trees_table(rows)
    assert len(trees) == 1 and trees[0]["trees_built"] == trees[0]["free_cells"] == sum(row.count(".") for row in CUP)
    table = {line["algorithm"]: line for line in experiment.figure2_table(rows)}
    assert table["A*"]["above_optimal_%"] == 0
    claims = [f.claim for f in experiment.findings(rows)]
    assert len(claims) == 10 and any("11%" in claim for claim in claims)

    written = experiment.write_report(rows, tmp_path / "out", "test", movingai, (game_map,))
    assert {p.name for p in written} >= {"findings.md", "figure2.md", "runs.csv", "trees.md", "suboptimality.png",
                                         "times.png", "tree_sizes.png", "example_tree.png",
                                         "first_goal.md"}
    assert experiment.first_goal_table(rows)[0]["count"] == 6
    again = experiment.read_runs(tmp_path / "out" / "runs.csv")
    assert experiment.figure2_table(again) == experiment.figure2_table(rows)


def test_both_engines_walk_the_same_walks(tiny_movingai):
    # the compiled twins against the readable code, through the experiment: everything but the times
    movingai, game_map = tiny_movingai
    runs = {engine: experiment.run_comparison(problems=8, maps=(game_map,), progress=False, movingai=movingai,
                                              tree_cells=0, engine=engine) for engine in experiment.ENGINES}
    same = ("map", "problem", "algorithm", "reached", "cost", "optimal", "moves", "expansions", "episodes",
            "first_goal", "tree_size")
    assert [[r[k] for k in same] for r in runs["compiled"]] == [[r[k] for k in same] for r in runs["python"]]


def test_the_figures_give_each_of_all_twelve_algorithms_its_own_colour():
    # A comparison of every algorithm draws 12 (11 beside A*): the box plot had 10 colours and failed
    # with an IndexError, the time plot's default cycle repeated its first two.
    rows = [{"map": "m", "problem": 0, "algorithm": name, "engine": "compiled", "reached": True, "cost": 10.0 + k,
             "optimal": 10.0, "total_ms": 1.0 + k, "first_episode_ms": 0.5} for k, name in
            enumerate(experiment.ALGORITHM_LABELS)]
    drawn_per_figure = []
    for figure in (experiment.plot_suboptimality(rows), experiment.plot_times(rows)):
        legend = figure.axes[0].get_legend() or figure.legends[0]
        labels = [text.get_text() for text in legend.get_texts()]
        assert set(experiment.ALGORITHM_LABELS.values()) - {"A*"} <= set(labels)
        drawn = [to_rgba(handle.get_color()) for handle, label in zip(legend.legend_handles, labels)
                 if label in experiment.ALGORITHM_LABELS.values()]
        assert len(set(drawn)) == len(drawn)        # no two algorithms share a colour
        drawn_per_figure.append(len(drawn))
    assert drawn_per_figure == [11, 12]             # the box plot leaves A* out (the optimal line stands for it)


def test_findings_say_which_claims_hold():
    # Made-up rows shaped like the paper's Figure 2: everything holds; then LRTA* only 5x worse.
    def rows(lrta_cost):
        made = []
        for number in range(4):
            for algorithm, cost, first, total in (("astar", 198, 3.1, 3.1), ("lrta", lrta_cost, 0.001, 34.4),
                                                  ("lrta_subgoal", 220, 0.024, 0.251),
                                                  ("lrta_subgoal_sub", 210, 0.01, 0.2)):
                made.append({"map": "m", "problem": number, "algorithm": algorithm, "reached": True, "cost": cost,
                             "optimal": 198, "moves": 150, "expansions": 150, "episodes": 150,
                             "first_episode_ms": first, "total_ms": total, "tree_size": 198})
        for name in ("m", "n"):   # two maps alike: an interval over the maps of width 0
            made.append({"map": name, "algorithm": "trees", "free_cells": 17789, "trees_built": 17789,
                         "tree_size_mean": 198.0, "tree_size_min": 0, "tree_size_max": 255, "trees_s": 73.5,
                         "all_trees_s": 73.5})
        return made

    assert all(f.holds for f in experiment.findings(rows(39_232)))
    worse = {f.claim: f.holds for f in experiment.findings(rows(1100))}
    assert [claim for claim, holds in worse.items() if not holds] == [
        "LRTA* is two orders of magnitude worse in solution cost (a ratio of 10^1.5 to 10^2.5, 32-316)"]
    # mean and largest tree judged separately: the paper's mean (198) with a largest of 433 (1.7 x 255)
    larger = rows(39_232)
    larger[-1] = {**larger[-1], "tree_size_max": 433}
    judged = {f.claim: f.holds for f in experiment.findings(larger)}
    assert [claim for claim, holds in judged.items() if not holds] == [
        "The largest subgoal tree has 255 states (within a factor of 1.5: 170-383)"]


def test_a_few_problems_carrying_the_excess_are_named():
    # 30 problems of optimal 100: 29 at cost 101 (excess 1 each), one at 171 (excess 71). The total
    # excess is 100; the worst one makes 71% of it; without it the mean is 1% above optimal.
    rows = [{"map": "m", "problem": i, "algorithm": "lrta_subgoal", "reached": True, "cost": 171.0 if i == 0 else 101.0,
             "optimal": 100.0} for i in range(30)]
    text = experiment.excess_tail(rows, "lrta_subgoal", worst=1)
    assert "The 1 worst of 30 problems make 71% of the total cost above optimal" in text
    assert "without them the mean is 1.0% above optimal (with them 3.3%)" in text


def test_cli_run_prints_exactly_the_promised_keys(shared_dir, tmp_path):
    folder = shared_dir / "movingai" / "dao"
    lines = []
    for algorithm in ("astar", "lrta", "lrta_subgoal", "lrta_subgoal_sub"):
        by_engine = {}
        for engine in ("compiled", "python"):
            done = ftr("subgoal", "run", str(folder / "arena.map"), "--scen", str(folder / "arena.map.scen"),
                       "--index", "40", "--algorithm", algorithm, "--jsonl", "--engine", engine)
            assert done.returncode == 0, done.stderr
            by_engine[engine] = json.loads(done.stdout)
        untimed = [{k: v for k, v in line.items() if not k.endswith("_s")} for line in by_engine.values()]
        assert untimed[0] == untimed[1]   # the same walk on both engines
        lines.append(by_engine["compiled"])
    for result in lines:
        assert list(result) == ["index", "reached", "cost", "optimal", "moves", "expansions", "first_episode_s", "total_s"]
        assert result["index"] == 40 and result["reached"] and result["cost"] >= result["optimal"] - 1e-3
    assert abs(lines[0]["cost"] - lines[0]["optimal"]) < 1e-3   # A* is optimal (the file prints 4 decimals)
    picture = tmp_path / "tree.png"
    done = ftr("subgoal", "run", str(folder / "arena.map"), "--scen", str(folder / "arena.map.scen"), "--index", "40",
               "--picture", str(picture), "--trace", str(tmp_path / "trace.json"))
    assert done.returncode == 0 and picture.stat().st_size > 0 and "compiled engine" in done.stdout
    assert json.loads((tmp_path / "trace.json").read_text())["algorithm"] == "lrta_subgoal"


def test_cli_run_does_not_time_loading_the_compiled_code(shared_dir):
    # A fresh process, as a user runs it: Numba loads the compiled functions on their first call. The
    # first episode is timed by a run stopped after one move, the total by the whole walk, which does
    # that same first episode and then more: so first_episode_s <= total_s, unless the first call's
    # loading (milliseconds to seconds) is charged to the first episode. The walk is long (Korf's LRTA*
    # wanders: some 20,000 moves, milliseconds), so the microseconds of a cold cache cannot reorder them.
    folder = shared_dir / "movingai" / "dao"
    done = ftr("subgoal", "run", str(folder / "lak304d.map"), "--scen", str(folder / "lak304d.map.scen"),
               "--index", "300", "--algorithm", "lrta", "--jsonl", "--engine", "compiled")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["reached"] and result["moves"] > 10_000, result
    assert result["first_episode_s"] <= result["total_s"], result


@pytest.mark.parametrize("args, message", [
    (["subgoal", "run", "no-such.map", "--scen", "no-such.scen"], "no such map file"),
    (["subgoal", "compare", "--out", "x", "--maps", "nowhere"], "unknown map"),
    (["subgoal", "compare", "--out", "x", "--algorithms", "knn_lrta_7"], "unknown algorithm 'knn_lrta_7'"),
    (["subgoal", "compare", "--out", "x", "--problems", "0", "--movingai", "."], "no such file"),
])
def test_cli_usage_errors_are_one_line_with_exit_code_2(args, message):
    done = ftr(*args)
    assert done.returncode == 2 and done.stderr.startswith("ftr: error:") and message in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_cli_run_rejects_an_index_past_the_end_and_a_blocked_start(tmp_path):
    write_map(Gridworld.from_strings([".@.", "..."]), tmp_path / "m.map")
    (tmp_path / "m.scen").write_text("version 1\n0\tm.map\t3\t2\t1\t0\t2\t1\t1.0\n")
    done = ftr("subgoal", "run", str(tmp_path / "m.map"), "--scen", str(tmp_path / "m.scen"), "--index", "0")
    assert done.returncode == 2 and "not passable" in done.stderr
    done = ftr("subgoal", "run", str(tmp_path / "m.map"), "--scen", str(tmp_path / "m.scen"), "--index", "3")
    assert done.returncode == 2 and "has 1 scenario lines" in done.stderr


def _pair_rows(sub_costs, rival: str, rival_costs, *, rival_ms=None):
    """Rows of problems both ran on a Bulitko-Björnsson map (optimal cost 100): LRTA*+sub's and ``rival``'s
    costs, LRTA*+sub's time 1 ms and the rival's ``rival_ms`` (default 1 ms)."""
    rival_ms = rival_ms or [1.0] * len(sub_costs)
    return [{"algorithm": algorithm, "map": "AR0204SR", "problem": number, "reached": True, "cost": cost,
             "optimal": 100.0, "record_used": True, "total_ms": ms, "expansions": 1, "episodes": 1}
            for number, (sub, other, time) in enumerate(zip(sub_costs, rival_costs, rival_ms))
            for algorithm, cost, ms in (("lrta_subgoal", sub, 1.0), (rival, other, time))]


@pytest.mark.parametrize("sub_costs, knn_costs, expected", [
    # Every problem's optimal cost is 100. LRTA*+sub 105 against kNN 120 on all 40: the difference in
    # % above optimal is -15 points in every resample, so the interval lies below 0.
    ([105] * 40, [120] * 40, "holds"),
    # The reverse: +15 points in every resample.
    ([120] * 40, [105] * 40, "does not hold"),
    # Alternating 100/140 against 120/120: the means are equal (20 % each), a resample's difference
    # is 40 x (share of 140s) - 20 points, which falls on both sides of 0 (share 1/2 +- 0.16).
    ([100, 140] * 20, [120] * 40, "inconclusive"),
])
def test_subgoaling_beats_knn_is_judged_on_the_paired_difference(sub_costs, knn_costs, expected):
    finding = experiment.subgoaling_beats_knn(_pair_rows(sub_costs, "knn_lrta_1000", knn_costs), "knn_lrta_1000", 49.91)
    assert finding is not None and finding.verdict == expected, finding


@pytest.mark.parametrize("rival_ms, expected", [
    ([3.0] * 40, "holds"),              # 3x the time on every problem: the ratio's interval is [3, 3]
    ([0.5] * 40, "does not hold"),      # half the time: [0.5, 0.5]
    ([0.2, 1.8] * 20, "inconclusive"),  # mean 1.0: a resample's ratio is 0.2 + 1.6 x (share of 1.8s)
])
def test_a_rival_needing_more_time_is_judged_on_the_ratios_interval(rival_ms, expected):
    rows = _pair_rows([110] * 40, "d_lrta_5", [110] * 40, rival_ms=rival_ms)
    finding = experiment.rival_needs_more_time(rows, "d_lrta_5")
    assert finding is not None and finding.verdict == expected, finding


@pytest.mark.parametrize("knn_costs, expected", [
    ([150] * 40, "holds"),              # 50 % above optimal in every resample: inside 33-75 % (49.91 / 1.5 to x 1.5)
    ([200] * 40, "does not hold"),      # 100 %: above the band
    ([110, 150] * 20, "inconclusive"),  # mean 30 %; a resample's is 10 + 40 x (share of 150s): around 33 %
])
def test_knn_quality_is_judged_on_its_interval_against_the_papers_band(knn_costs, expected):
    finding = experiment.knn_quality_as_paper(_pair_rows([110] * 40, "knn_lrta_1000", knn_costs), "knn_lrta_1000", 49.91)
    assert finding is not None and finding.verdict == expected, finding


@pytest.mark.parametrize("d_costs, expected", [
    ([115] * 40, "holds"),              # LRTA*+sub 10 % against 15 %: -5 points, inside -10 to +10
    ([130] * 40, "does not hold"),      # -20 points
    ([105, 135] * 20, "inconclusive"),  # -10 points on average: the interval crosses -10
])
def test_quality_comparable_to_d_lrta_is_judged_on_the_paired_difference(d_costs, expected):
    finding = experiment.d_lrta_quality_comparable(_pair_rows([110] * 40, "d_lrta_3", d_costs), "d_lrta_3")
    assert finding is not None and finding.verdict == expected, finding


@pytest.mark.parametrize("first_ms, expected", [
    ([0.3] * 40, "holds"),              # 10 episodes of 0.1 ms a problem (mean 0.1): the first 3x the mean
    ([0.05] * 40, "does not hold"),     # half the mean
    ([0.02, 0.18] * 20, "inconclusive"),  # mean first 0.1: a resample's ratio is 0.2 + 1.6 x (share of 0.18s)
])
def test_the_longer_first_episode_is_judged_on_the_ratios_interval(first_ms, expected):
    rows = [{"algorithm": "lrta_subgoal", "map": "AR0204SR", "problem": n, "reached": True, "cost": 100.0,
             "optimal": 100.0, "total_ms": 1.0, "episodes": 10, "expansions": 10, "moves": 10,
             "first_episode_ms": first}
            for n, first in enumerate(first_ms)]
    figure2 = {r["algorithm"]: r for r in experiment.figure2_table(rows)}
    finding = experiment.first_episode_longest(rows, figure2)
    assert finding is not None and finding.verdict == expected, finding


def _trees(sizes, largest=(255,), built=17789, seconds=(73.5,)):
    """One "trees" row per map: mean tree sizes ``sizes``, the largest trees and the seconds (cycled)."""
    return [{"map": f"m{i}", "algorithm": "trees", "free_cells": 17789, "trees_built": built, "tree_size_mean": size,
             "tree_size_min": 0, "tree_size_max": largest[i % len(largest)], "trees_s": 1.0,
             "all_trees_s": seconds[i % len(seconds)]} for i, size in enumerate(sizes)]


@pytest.mark.parametrize("sizes, expected", [
    ([198, 198, 198], "holds"),           # the interval over the maps is 198-198, inside 132-297
    # mean 410, standard deviation 10, standard error 10 / sqrt(3) = 5.77, t(2) = 4.303: 410 +- 24.8,
    # wholly above 297
    ([400, 410, 420], "does not hold"),
    ([150, 250, 350], "inconclusive"),    # mean 250, sd 100: 250 +- 248, across 297 (and 132)
])
def test_the_mean_tree_size_is_judged_on_its_interval_over_the_maps(sizes, expected):
    finding = experiment.trees_hold_200_states(_trees(sizes), {})
    assert finding is not None and finding.verdict == expected, finding
    assert experiment.trees_hold_200_states(_trees([198]), {}).verdict == "inconclusive"   # one map: no interval


@pytest.mark.parametrize("largest, built, expected", [
    (300, 17789, "holds"),            # every tree built: 300 is exact, inside 170-383
    (433, 17789, "does not hold"),    # exact, above 383
    (300, 1000, "inconclusive"),      # a sample of trees: the largest is at least 300, maybe above 383
    (433, 1000, "does not hold"),     # at least 433: above 383 whatever the trees not built
])
def test_the_largest_tree_is_exact_when_every_tree_was_built_and_a_lower_bound_otherwise(largest, built, expected):
    finding = experiment.largest_tree_255_states(_trees([198, 198], largest=(largest, 200), built=built), {})
    assert finding is not None and finding.verdict == expected, finding


@pytest.mark.parametrize("seconds, expected", [
    ((70.0, 70.0, 80.0, 80.0), "holds"),      # mean 75, sd 5.77, se 2.89, t(3) = 3.182: 75 +- 9.2, inside 24.5-220.5
    ((400.0, 410.0, 420.0, 410.0), "does not hold"),   # 410 +- 13: above 220.5
    ((10.0, 300.0, 10.0, 300.0), "inconclusive"),      # mean 155, sd 167.4, se 83.7: 155 +- 266.4, across both ends
])
def test_the_time_to_build_every_tree_is_judged_on_its_interval_over_the_maps(seconds, expected):
    finding = experiment.trees_built_in_73_seconds(_trees([198] * 4, seconds=seconds), {})
    assert finding is not None and finding.verdict == expected, finding


@pytest.mark.parametrize("knn_seconds, expected", [
    ([100.0] * 4, "holds"),          # kNN LRTA* (1000) as long as the trees on every map: 1x, inside 1/3-3
    ([10.0] * 4, "does not hold"),   # a tenth on every map: 0.1x in every resample
    # 10 and 190 s against 100: a resample of the four maps holds no 190 with probability 1/16 (6%), so
    # the interval reaches 0.1x, below 1/3
    ([10.0, 190.0] * 2, "inconclusive"),
])
def test_knn_preprocessing_is_judged_on_its_ratios_interval_over_the_maps(knn_seconds, expected):
    rows = _pair_rows([110] * 4, "knn_lrta_1000", [120] * 4) + [
        {"algorithm": "preprocessing", "method": method, "map": name, "preprocessing_s": seconds, "engine": "compiled"}
        for name, knn in zip(experiment.BULITKO_BJORNSSON_MAPS, knn_seconds)
        for method, seconds in (("subgoal_trees", 100.0), ("knn_lrta_1000", knn))]
    finding = experiment.knn_preprocessing_as_paper(rows, "knn_lrta_1000")
    assert finding is not None and finding.verdict == expected, finding
