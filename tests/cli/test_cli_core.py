"""``ftr run``, ``ftr experiment`` and the command line's handling of mistakes, as real subprocesses."""

from __future__ import annotations

import csv
import json
import subprocess
import sys

import pytest

from reference.solutions import solve
from reference.world.instances import load_folder, standard_mazes_dir
from reference.world.trace import Trace

MAZES = standard_mazes_dir()


def ftr(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "reference.cli", *args], capture_output=True, text=True,
                          check=check, timeout=600)


def test_jsonl_is_one_object_per_instance_and_nothing_else(tmp_path, standard_instances) -> None:
    folder = tmp_path / "three"
    folder.mkdir()
    lines = (MAZES / "mazes.scen").read_text().splitlines()[:4]
    (folder / "mazes.scen").write_text("\n".join(lines) + "\n")
    for i in range(3):
        (folder / f"maze_{i:02d}.map").write_bytes((MAZES / f"maze_{i:02d}.map").read_bytes())
    result = ftr("run", str(folder), "--algorithm", "adaptive", "--jsonl")
    objects = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(objects) == 3
    for i, obj in enumerate(objects):
        assert list(obj) == ["maze", "reached", "searches", "expansions", "moves"]
        trace = solve(standard_instances[i], "adaptive")
        assert obj == {"maze": i, **trace.summary()}


def test_single_instance_with_scen_and_trace(tmp_path, standard_instances) -> None:
    out = tmp_path / "trace.json"
    result = ftr("run", str(MAZES / "maze_05.map"), "--scen", str(MAZES / "mazes.scen"), "--index", "5",
                 "--algorithm", "backward", "--trace", str(out))
    assert "maze_05#5" in result.stdout and "expansions" in result.stdout
    assert Trace.load(out) == solve(standard_instances[5], "backward")


def test_a_scenario_line_is_reported_as_its_index(standard_instances) -> None:
    """``--scen mazes.scen --index 7`` is maze 7 of the folder run, so --jsonl says "maze": 7."""
    result = ftr("run", str(MAZES / "maze_07.map"), "--scen", str(MAZES / "mazes.scen"), "--index", "7", "--jsonl")
    assert json.loads(result.stdout) == {"maze": 7, **solve(standard_instances[7], "forward").summary()}


def test_start_and_target_on_a_map(tmp_path) -> None:
    """Worked by hand: from (1, 0) the agent sees (1, 1) blocked, so one search expands (1, 0), (0, 0),
    (0, 1), (0, 2) (f = 4 throughout; the goal (1, 2) is reached with g = 4) and it walks 4 moves."""
    (tmp_path / "tiny.map").write_text("type octile\nheight 2\nwidth 3\nmap\n...\n.@.\n")
    result = ftr("run", str(tmp_path / "tiny.map"), "--start", "1,0", "--target", "1,2", "--jsonl")
    assert json.loads(result.stdout) == {"maze": 0, "reached": True, "searches": 1, "expansions": 4, "moves": 4}


def test_folder_trace_is_a_list(tmp_path) -> None:
    folder = tmp_path / "one"
    folder.mkdir()
    (folder / "mazes.scen").write_text("\n".join((MAZES / "mazes.scen").read_text().splitlines()[:2]) + "\n")
    (folder / "maze_00.map").write_bytes((MAZES / "maze_00.map").read_bytes())
    ftr("run", str(folder), "--trace", str(tmp_path / "t.json"))
    data = json.loads((tmp_path / "t.json").read_text())
    assert isinstance(data, list) and len(data) == 1 and Trace.from_dict(data[0]).reached


@pytest.mark.parametrize("args,message", [
    (["run", "no/such/folder"], "no/such/folder: no such file or folder"),
    (["run", str(MAZES / "maze_00.map")], "say which instance"),
    (["run", str(MAZES / "maze_00.map"), "--start", "1,1", "--target", "0,0"], "is a blocked cell"),  # a pillar
    (["run", str(MAZES / "maze_00.map"), "--scen", str(MAZES / "mazes.scen"), "--index", "99"], "index 99 does not exist"),
    (["run", str(MAZES), "--start", "0,0"], "go with a .map file"),
    (["experiment", str(MAZES), "--jobs", "0"], "--jobs must be at least 1"),
])
def test_user_mistakes_are_one_line_with_exit_code_2(args, message: str) -> None:
    result = ftr(*args, check=False)
    assert result.returncode == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr and len(result.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("how", ["folder", "scen"])
def test_a_scenario_starting_on_a_blocked_cell_is_a_user_mistake(tmp_path, how: str) -> None:
    (tmp_path / "m.map").write_text("type octile\nheight 2\nwidth 3\nmap\n...\n.@.\n")
    (tmp_path / "mazes.scen").write_text("version 1\n0\tm.map\t3\t2\t1\t1\t0\t0\t3.0\n")  # start (1, 1)
    args = [str(tmp_path)] if how == "folder" else [str(tmp_path / "m.map"), "--scen", str(tmp_path / "mazes.scen")]
    result = ftr("run", *args, check=False)
    assert result.returncode == 2
    assert "the start (1, 1) is a blocked cell" in result.stderr and "Traceback" not in result.stderr


def test_malformed_map_names_file_and_line(tmp_path) -> None:
    (tmp_path / "bad.map").write_text("type octile\nheight 2\nwidth 3\nmap\n...\n.x.\n")
    result = ftr("run", str(tmp_path / "bad.map"), "--start", "0,0", "--target", "0,2", check=False)
    assert result.returncode == 2
    assert f"{tmp_path / 'bad.map'}, line 6: unknown character 'x'" in result.stderr


def test_bad_option_value_exits_2() -> None:
    result = ftr("run", str(MAZES), "--algorithm", "sideways", check=False)
    assert result.returncode == 2 and "invalid choice" in result.stderr


def test_experiment_writes_tables_and_statistics(tmp_path) -> None:
    """On three small mazes made by `ftr mazes generate`, every row matches a run of the solver."""
    mazes = tmp_path / "small"
    ftr("mazes", "generate", str(mazes), "--count", "3", "--size", "31")
    out = tmp_path / "exp"
    result = ftr("experiment", str(mazes), "--out", str(out), "--jobs", "2", "--no-plots")
    assert "forward/larger_g vs adaptive/larger_g" in result.stdout
    with open(out / "per_maze.csv") as file:
        rows = list(csv.DictReader(file))
    assert len(rows) == 12
    instances = load_folder(mazes)
    for row in rows:
        trace = solve(instances[int(row["maze"])], row["algorithm"], row["tie_break"])
        assert int(row["expansions"]) == trace.expansions and int(row["moves"]) == trace.moves
        assert int(row["searches"]) == len(trace.searches) and row["reached"] == "True"
    summary = json.loads((out / "summary.json").read_text())
    forward = [int(r["expansions"]) for r in rows if r["setting"] == "forward/larger_g"]
    assert summary["summary"]["forward/larger_g"]["expansions"]["total"] == sum(forward)
    assert {c["label"] for c in summary["comparisons"]} == {
        "forward/larger_g vs forward/smaller_g", "forward/larger_g vs backward/larger_g",
        "forward/larger_g vs adaptive/larger_g"}
    markdown = (out / "summary.md").read_text()
    assert markdown.startswith("# The standard experiment")
    assert "| Wilcoxon p | paired t-test p |" in markdown and "CPU seconds" in markdown
    assert "Times are CPU seconds per run" in result.stdout and "paired t-test p = " in result.stdout


def test_the_tests_disagree_on_heavy_tailed_differences_and_the_summary_says_why() -> None:
    """Twenty mazes, worked by hand: b beats a by 1, 2, ..., 19 expansions on nineteen of them and
    loses by 10,000 on the twentieth. The mean difference (+490.5) is one maze's; the signs are not.

    Wilcoxon, exactly: the ranks of |b - a| are 1..19 (b better) and 20 (b worse), so W+ = 20, and
    the two-sided p is 2 * #{sets of distinct ranks from 1..20 with sum <= 20} / 2^20, counted here
    by enumeration (at most five ranks fit: 1 + 2 + ... + 6 = 21). Paired t-test: t = mean / (sd /
    sqrt(20)) with 19 degrees of freedom."""
    from itertools import combinations

    from scipy import stats

    from reference.experiments.standard import paired_comparisons, summarise, summary_markdown

    differences = [-d for d in range(1, 20)] + [10_000]
    rows = []
    for maze, difference in enumerate(differences):
        for setting, expansions in (("forward/larger_g", 50_000), ("adaptive/larger_g", 50_000 + difference)):
            rows.append({"maze": maze, "setting": setting, "expansions": expansions, "searches": 1, "moves": 1,
                         "seconds": 0.01})
    (comparison,) = paired_comparisons(rows)
    small_sums = sum(1 for k in range(6) for ranks in combinations(range(1, 21), k) if sum(ranks) <= 20)
    assert comparison.wilcoxon_p == pytest.approx(2 * small_sums / 2 ** 20)
    mean = sum(differences) / 20
    sd = (sum((d - mean) ** 2 for d in differences) / 19) ** 0.5
    assert comparison.t_test_p == pytest.approx(2 * stats.t.sf(abs(mean / (sd / 20 ** 0.5)), 19))
    assert comparison.wilcoxon_p < 0.05 < comparison.t_test_p
    assert (comparison.b_fewer, comparison.a_fewer, comparison.median_difference) == (19, 1, -9.5)
    assert comparison.top_five_share == pytest.approx((10_000 + 19 + 18 + 17 + 16) / (10_000 + 190))
    note = comparison.disagreement()
    assert "heavy-tailed" in note and "better on 19 mazes, worse on 1" in note and "99%" in note
    assert "Wilcoxon p = 0.00071, paired t-test p = 0.34" in comparison.sentence()
    assert note in summary_markdown(summarise(rows), [comparison])


def test_help_lists_the_commands() -> None:
    result = ftr("--help")
    for command in ("run", "mazes", "experiment"):
        assert command in result.stdout
