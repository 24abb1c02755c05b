"""``ftr check --only CHECK --instance NAME`` and ``self_check.py`` likewise: rerun what failed, as a
student would, in real subprocesses (the real sandbox), reading the exit status and the output."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

#: A mistake on top of the reference solution: on a run of more than 8 moves the first search reports
#: one expansion too many (its start cell again, after the goal's g was final). The handout's example 1
#: (12 moves) shows it; the hand-made corridor (8 moves) does not.
RE_EXPANDS = '''

_correct_forward = repeated_forward_astar


def repeated_forward_astar(world, start, target, tie_break="larger_g"):
    trace = _correct_forward(world, start, target, tie_break)
    if len(trace.trajectory) > 9:
        trace.searches[0].expanded.append(trace.searches[0].expanded[0])
    return trace
'''


def ftr(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "reference.cli", *args], capture_output=True, text=True,
                          cwd=REPO, timeout=600)


@pytest.fixture(scope="module")
def solution(tmp_path_factory) -> Path:
    from autograder.export import export_solution

    return export_solution(tmp_path_factory.mktemp("only") / "solution")


@pytest.fixture(scope="module")
def mistaken(solution: Path, tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("only") / "mistaken"
    folder.mkdir()
    (folder / "heap.py").write_text((solution / "heap.py").read_text())
    (folder / "replanning.py").write_text((solution / "replanning.py").read_text() + RE_EXPANDS)
    return folder


@pytest.mark.parametrize("args, line", [
    (["--only", "adaptiv"], "ftr: error: --only: no check 'adaptiv'; the checks are heap, forward_larger_g, "
                            "forward_smaller_g, backward, adaptive, efficiency, heap_from_scratch"),
    (["--instance", "example_4"], "ftr: error: --instance: no public instance 'example_4'; the instances are "
                                  "example_1, example_2, example_3, start_is_target, target_walled_in, "
                                  "corridor_1x9, blocked_at_last_step, maze_00, maze_01, ..., maze_49"),
    (["--only", "heap", "--instance", "example_1"], "ftr: error: --instance: only the search checks run instances "
                                                    "(forward_larger_g, forward_smaller_g, backward, adaptive)"),
])
def test_an_unknown_name_is_one_line_listing_the_valid_ones_and_exit_2(solution, args, line):
    result = ftr("check", str(solution), *args)
    assert result.returncode == 2, result.stderr
    assert result.stderr.strip() == line
    assert result.stdout == ""


def test_one_check_on_one_instance_at_full_marks_exits_0(solution):
    result = ftr("check", str(solution), "--only", "adaptive", "--instance", "example_1")
    assert result.returncode == 0, result.stdout + result.stderr
    checks = [line.split()[2] for line in result.stdout.splitlines() if line.startswith("[")]
    assert checks == ["adaptive"]
    assert "public (only example_1) instances" in result.stdout
    assert "the handout's examples: all 1 instances exactly as the SPEC says" in result.stdout
    assert "rerun" not in result.stdout


def test_the_report_names_what_failed_and_its_rerun_line_reruns_only_that(mistaken):
    result = ftr("check", str(mistaken), "--only", "forward_larger_g", "--instance", "corridor_1x9",
                 "--instance", "example_1")
    assert result.returncode == 1, result.stdout + result.stderr
    assert "[FAIL] forward_larger_g" in result.stdout or "[part] forward_larger_g" in result.stdout
    # The first search of example 1 expands 10 cells and finds g(goal) = 8 (SPEC §10): an 11th expansion
    # breaks the stop rule before anything else.
    stopped = ("example_1, search 1, expansion 11: you expanded (4, 2), but the search should have stopped: "
               "g(goal) = 8 and the smallest f in OPEN is 8")
    assert stopped in result.stdout
    assert "the hand-made cases: all 1 instances exactly as the SPEC says" in result.stdout
    rerun = result.stdout.strip().splitlines()[-1]
    assert rerun == (f"rerun one check: ftr check {shlex.quote(str(mistaken))} --only forward_larger_g "
                     "--instance example_1  (checks: forward_larger_g)")
    again = ftr(*shlex.split(rerun.split(": ", 1)[1].split("  (")[0])[1:])
    assert again.returncode == 1, again.stdout + again.stderr
    assert "public (only example_1) instances" in again.stdout
    assert stopped in again.stdout
    assert [line.split()[1] for line in again.stdout.splitlines() if line.startswith("[")] == ["forward_larger_g"]


def test_a_standard_maze_beyond_the_default_eight_can_be_named(solution):
    result = ftr("check", str(solution), "--only", "forward_smaller_g", "--instance", "maze_00")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "the standard mazes: all 1 instances exactly as the SPEC says" in result.stdout


@pytest.fixture(scope="module")
def bundle(tmp_path_factory) -> Path:
    pytest.importorskip("nbgrader")
    out = tmp_path_factory.mktemp("release") / "bundle"
    result = subprocess.run([sys.executable, "-m", "reference.cli", "release", "--out", str(out)],
                            capture_output=True, text=True, cwd=out.parent,
                            env={k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")})
    assert result.returncode == 0, result.stderr
    return out


def test_the_bundles_self_check_takes_the_same_flags(bundle):
    def self_check(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "self_check.py", *args], cwd=bundle, capture_output=True, text=True,
                              timeout=600)

    unknown = self_check("starter", "--only", "nosuch")
    assert unknown.returncode == 2
    assert unknown.stderr.strip().startswith("self_check: error: --only: no check 'nosuch'; the checks are heap, ")
    assert (bundle / "mazes" / "handmade" / "mazes.scen").is_file()
    starter = self_check("starter", "--only", "forward_larger_g", "--instance", "target_walled_in")
    assert starter.returncode == 1, starter.stdout + starter.stderr
    assert "target_walled_in: " in starter.stdout  # the untouched starter raises NotImplementedError
    assert starter.stdout.strip().splitlines()[-1] == ("rerun one check: python3 self_check.py starter --only "
                                                       "forward_larger_g --instance target_walled_in  "
                                                       "(checks: forward_larger_g)")
