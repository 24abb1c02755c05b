"""``ftr dynamic run`` and ``ftr dynamic compare`` as real subprocesses, and the study's helpers."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from reference.experiments.dynamic import headline_numbers, interpolate_expansions, pick_problems
from reference.world.grid import cost_value

MAP = ["type octile", "height 6", "width 9", "map",
       ".........",
       "..@@@@@..",
       "......@..",
       ".@@@..@..",
       ".@......T",
       "........."]
SCEN = ["version 1",
        "0\tsmall.map\t9\t6\t0\t0\t8\t5\t11.24264069",   # (row 0, col 0) -> (row 5, col 8)
        "0\tsmall.map\t9\t6\t2\t5\t7\t2\t5.41421356",
        "0\tsmall.map\t9\t6\t8\t0\t0\t5\t9.24264069",
        "0\tsmall.map\t9\t6\t4\t2\t0\t0\t4.82842712"]
KEYS = ["index", "reached", "cost", "optimal", "suboptimality", "expansions_per_action", "max_expansions_per_action"]


def ftr(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "reference.cli", "dynamic", *args], capture_output=True,
                          text=True, timeout=600)


@pytest.fixture()
def small(tmp_path):
    (tmp_path / "small.map").write_text("\n".join(MAP) + "\n")
    (tmp_path / "small.map.scen").write_text("\n".join(SCEN) + "\n")
    return tmp_path / "small.map", tmp_path / "small.map.scen"


@pytest.mark.parametrize("extra", [["--method", "fixed", "--depth", "2"], ["--method", "pdb", "--level", "1", "--goals", "gi"],
                                   ["--method", "tree", "--depth", "3"]])
def test_run_prints_exactly_the_agreed_object(small, extra):
    path, scen = small
    done = ftr("run", str(path), "--scen", str(scen), "--index", "0", "--jsonl", *extra)
    assert done.returncode == 0, done.stderr
    row = json.loads(done.stdout)
    assert list(row) == KEYS and row["index"] == 0 and row["reached"]
    # (0,0) -> (5,8), the trees at (4,8) blocked for a ground agent: S (1,0), SE (2,1), E E E to
    # (2,4), SE (3,5), S (4,5), SE (5,6) (not (4,6) from (3,5): (3,6) is a wall corner), E E:
    # 7 straight + 3 diagonal moves.
    assert row["optimal"] == pytest.approx(7 + 3 * np.sqrt(2))
    assert row["suboptimality"] == pytest.approx(row["cost"] / row["optimal"]) and row["suboptimality"] >= 1
    # the readable reference engine gives the same run
    python = ftr("run", str(path), "--scen", str(scen), "--index", "0", "--jsonl", "--engine", "python", *extra)
    assert python.returncode == 0, python.stderr
    assert json.loads(python.stdout) == row


def test_run_mistakes_are_one_line_and_exit_2(small, tmp_path):
    path, scen = small
    for args, words in ((["--index", "9"], "has 4 scenario lines (0 to 3)"), (["--index", "0", "--depth", "0"], "--depth"),
                        (["--index", "0", "--method", "pdb", "--level", "-1"], "--level")):
        done = ftr("run", str(path), "--scen", str(scen), *args)
        assert done.returncode == 2 and words in done.stderr and len(done.stderr.strip().splitlines()) == 1
    done = ftr("run", str(tmp_path / "missing.map"), "--scen", str(scen), "--index", "0")
    assert done.returncode == 2 and "no such map file" in done.stderr


def test_problems_have_optimal_costs_in_the_range():
    blocked = np.zeros((40, 40), dtype=bool)
    blocked[5:35, 20] = True
    problems = pick_problems(blocked, 5, low=20, high=25, seed=2)
    assert len(problems) == 5 and all(20 <= cost_value(p.optimal) <= 25 for p in problems)


def test_the_headline_ratios_interpolate_the_fixed_depth_curve():
    # Fixed depth: 1.5 at 10 expansions, 1.1 at 1000. A setting at quality 1.3 would need
    # 10^(1 + 0.5 * 2) = 100 expansions (halfway in log x); it uses 10, so 10x less work. At 10
    # expansions fixed depth has excess 0.5, the setting 0.3: 1.67x better quality.
    solved = {"problems": 10, "reached": 10}
    summary = [{"method": "fixed", "setting": 1, "suboptimality": 1.5, "expansions_per_action": 10.0, **solved},
               {"method": "fixed", "setting": 9, "suboptimality": 1.1, "expansions_per_action": 1000.0, **solved},
               {"method": "pdb I", "setting": 4, "suboptimality": 1.3, "expansions_per_action": 10.0, **solved}]
    assert interpolate_expansions(summary[:2], 1.3) == pytest.approx(100.0)
    (row,) = headline_numbers(summary)
    assert row["work_ratio"] == pytest.approx(10.0) and row["quality_ratio"] == pytest.approx(0.5 / 0.3)
    # a setting that solved only 8 of its 10 problems takes no part in the headline checks
    assert headline_numbers(summary[:2] + [{**summary[2], "reached": 8}]) == []


def test_compare_quick_writes_figures_and_findings(shared_dir, tmp_path):
    done = ftr("compare", "--quick", "--out", str(tmp_path), "--movingai", str(shared_dir / "movingai"))
    assert done.returncode == 0, done.stderr[-2000:]
    for name in ("figure5.png", "figure6.png", "findings.md", "table2.csv", "summary.csv", "runs.csv"):
        assert (tmp_path / name).stat().st_size > 0
    text = (tmp_path / "findings.md").read_text()
    assert "## Headlines" in text
    replotted = ftr("compare", "--replot", "--out", str(tmp_path))
    assert replotted.returncode == 0, replotted.stderr
    assert (tmp_path / "findings.md").read_text().split("## Every setting")[1] == text.split("## Every setting")[1]
    text = text and ("holds**" in text or "does not hold, because" in text or "not measured" in text)
