"""Batch grading, the Gradescope autograder and the command line, run for real (subprocesses)."""

from __future__ import annotations

import csv
import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from autograder.export import export_solution

HERE = Path(__file__).resolve().parents[1]
REPO = HERE.parent


def ftr(*args: str, env: dict | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "reference.cli", *args], capture_output=True, text=True, check=False,
                          env={**os.environ, **(env or {})}, cwd=cwd or REPO, timeout=600)


@pytest.fixture
def small_rubric(tmp_path):
    """A rubric with two checks, so the batch runs quickly; the grader reads it through FTR_RUBRIC."""
    path = tmp_path / "rubric.toml"
    path.write_text("[autograded]\nheap = 8\nforward_larger_g = 14\n[extra_credit]\nheap_from_scratch = 5\n")
    return {"FTR_RUBRIC": str(path)}


def test_grade_all_grades_resumes_and_survives_a_crashing_submission(tmp_path, small_rubric):
    submissions = tmp_path / "submissions"
    export_solution(submissions / "ada")
    shutil.copytree(HERE / "submissions" / "exit_os", submissions / "bob")
    (submissions / "carol.ipynb").write_text("{ this is not JSON")
    out = tmp_path / "out"
    first = ftr("grade-all", str(submissions), "--out", str(out), "--jobs", "2", env=small_rubric)
    assert first.returncode == 0, first.stderr
    rows = {row["submission"]: row for row in csv.DictReader((out / "gradebook.csv").open())}
    assert set(rows) == {"ada", "bob", "carol"}
    assert float(rows["ada"]["score"]) == 22 and float(rows["ada"]["extra_credit"]) == 5
    assert float(rows["bob"]["score"]) == 0 and "exit" in (out / "bob.txt").read_text()
    assert "not a readable notebook" in rows["carol"]["error"]

    stamps = {p.name: p.stat().st_mtime_ns for p in out.glob("*.json")}
    again = ftr("grade-all", str(submissions), "--out", str(out), env=small_rubric)
    assert again.returncode == 0
    assert {p.name: p.stat().st_mtime_ns for p in out.glob("*.json")} == stamps  # nothing graded again

    (submissions / "bob" / "heap.py").write_text((submissions / "ada" / "heap.py").read_text())  # bob resubmits
    ftr("grade-all", str(submissions), "--out", str(out), env=small_rubric)
    assert (out / "ada.json").stat().st_mtime_ns == stamps["ada.json"]
    assert json.loads((out / "bob.json").read_text())["checks"][0]["points"] == 8  # his heap now passes

    forced = ftr("grade-all", str(submissions), "--out", str(out), "--force", env=small_rubric)
    assert forced.returncode == 0 and (out / "ada.json").stat().st_mtime_ns != stamps["ada.json"]


def test_an_interrupted_batch_keeps_every_finished_grade(tmp_path):
    """The gradebook is written as each student's grading ends: a batch killed (SIGKILL, no clean-up)
    after its first student keeps that student's row, and lists the others as not graded yet."""
    import signal
    import time

    submissions = tmp_path / "submissions"
    export_solution(submissions / "ada")
    for name in ("bob", "carol"):
        shutil.copytree(HERE / "submissions" / "infinite_loop", submissions / name)  # slow on purpose
    (submissions / "bob" / "heap.py").write_text((submissions / "ada" / "heap.py").read_text())
    out = tmp_path / "out"
    rubric = tmp_path / "rubric.toml"
    rubric.write_text("[autograded]\nheap = 8\nforward_larger_g = 14\n")
    batch = subprocess.Popen([sys.executable, "-m", "reference.cli", "grade-all", str(submissions), "--out", str(out),
                              "--task-seconds", "20"], cwd=REPO, env={**os.environ, "FTR_RUBRIC": str(rubric)},
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        began = time.monotonic()
        rows: dict = {}
        while time.monotonic() - began < 300:  # ada (first by name) is graded in seconds; bob then loops
            if (out / "gradebook.csv").exists():
                rows = {row["submission"]: row for row in csv.DictReader((out / "gradebook.csv").open())}
                if rows.get("ada", {}).get("error") == "":  # graded (a pending row says "not graded yet")
                    break
            time.sleep(0.2)
    finally:
        os.killpg(batch.pid, signal.SIGKILL)
        batch.wait()
    assert float(rows["ada"]["score"]) == 22, rows
    assert all("not graded yet" in rows[name]["error"] for name in ("bob", "carol")), rows


def test_gradescope_autograder_runs_in_a_simulated_tree(tmp_path):
    seed = {"FTR_SECRET_SEED": "24680"}
    built = ftr("gradescope", "build", "--out", str(tmp_path / "autograder.zip"), env=seed)
    assert built.returncode == 0, built.stderr
    root = tmp_path / "autograder"
    with zipfile.ZipFile(tmp_path / "autograder.zip") as archive:
        names = archive.namelist()
        archive.extractall(root / "source")
    assert {"setup.sh", "run_autograder", "secret_seed.txt", "autograder/grader.py"} <= set(names)
    assert (root / "source" / "secret_seed.txt").read_text().strip() == "24680"
    export_solution(root / "submission")
    run_autograder = root / "source" / "run_autograder"
    run_autograder.chmod(0o755)
    # Gradescope's venv is this interpreter (never whatever `python3` PATH happens to find).
    (root / "venv" / "bin").mkdir(parents=True)
    (root / "venv" / "bin" / "python").write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n')
    (root / "venv" / "bin" / "python").chmod(0o755)
    env = {k: v for k, v in os.environ.items() if not k.startswith("FTR_")}
    result = subprocess.run(["bash", str(run_autograder)], env={**env, "FTR_AUTOGRADER_ROOT": str(root)},
                            capture_output=True, text=True, timeout=900, check=False)
    assert result.returncode == 0, result.stderr
    results = json.loads((root / "results" / "results.json").read_text())
    assert results["score"] == 65  # 60 autograded + 5 extra credit
    tests = results["tests"]
    assert all(t["status"] == "passed" and t["score"] == t["max_score"] or t["max_score"] == 0 for t in tests)
    assert {t["visibility"] for t in tests} == {"visible", "after_due_date"}  # the hidden half, after the due date
    assert all({"name", "score", "max_score", "status", "output", "visibility"} <= set(t) for t in tests)
    setup = (root / "source" / "setup.sh").read_text()
    assert "scipy" not in setup and "matplotlib" not in setup and "numpy" in setup
    assert "|| apt-get install -y python3 " not in setup  # no silent fall-back to another Python

    # A grader that crashes outright still leaves a results.json for Gradescope to show.
    (root / "source" / "autograder" / "grader.py").write_text("raise RuntimeError('broken on purpose')\n")
    crashed = subprocess.run(["bash", str(run_autograder)], env={**env, "FTR_AUTOGRADER_ROOT": str(root)},
                             capture_output=True, text=True, timeout=300, check=False)
    assert crashed.returncode == 0
    results = json.loads((root / "results" / "results.json").read_text())
    assert results["score"] == 0 and "broken on purpose" in results["output"]
    (root / "venv" / "bin" / "python").unlink()  # no interpreter at all: the shell writes the result
    bash_only = subprocess.run(["bash", str(run_autograder)], env={**env, "FTR_AUTOGRADER_ROOT": str(root)},
                               capture_output=True, text=True, timeout=300, check=False)
    assert bash_only.returncode == 0
    assert "did setup.sh run" in json.loads((root / "results" / "results.json").read_text())["output"]


def test_the_command_line_documents_both_submission_kinds_and_reports(tmp_path, small_rubric):
    for command in ("grade", "check", "grade-all"):
        text = ftr(command, "--help").stdout
        assert "FOLDER" in text and "NOTEBOOK" in text and ".ipynb" in text
    missing = ftr("grade", str(tmp_path / "nothing"))
    assert missing.returncode == 2 and missing.stderr.startswith("ftr: error:") and "Traceback" not in missing.stderr
    no_seed = ftr("grade", str(REPO / "starter"), "--hidden",
                  env={"FTR_SECRET_SEED": "", "FTR_SECRET_SEED_FILE": str(tmp_path / "absent")})
    assert no_seed.returncode == 2 and "secret seed" in no_seed.stderr

    export = ftr("solution", "export", str(tmp_path / "ref"))
    assert export.returncode == 0
    replanning = (tmp_path / "ref" / "replanning.py").read_text()
    assert "from heap import BinaryHeap" in replanning and "reference.solutions" not in replanning
    graded = ftr("check", str(tmp_path / "ref"), "--json", str(tmp_path / "r.json"))
    assert graded.returncode == 2  # `ftr check` has no --json: students get the terminal report
    graded = ftr("grade", str(tmp_path / "ref"), "--json", str(tmp_path / "r.json"),
                 "--gradescope", str(tmp_path / "g.json"), env=small_rubric)
    assert graded.returncode == 0, graded.stderr
    assert "Total: 22 / 22  (+5 extra credit)" in graded.stdout
    assert json.loads((tmp_path / "r.json").read_text())["score"] == 22
    assert json.loads((tmp_path / "g.json").read_text())["score"] == 27


def test_hidden_grading_without_a_secret_seed_stops_before_writing_any_report(tmp_path):
    """Without the seed, `grade-all --hidden` must not leave 0-point reports that a later run would skip."""
    submissions = tmp_path / "submissions"
    export_solution(submissions / "ada")
    env = {"FTR_SECRET_SEED": "", "FTR_SECRET_SEED_FILE": str(tmp_path / "no_seed.txt")}
    for args in (["grade-all", str(submissions), "--out", str(tmp_path / "grades"), "--hidden"],
                 ["grade", str(submissions / "ada"), "--hidden"]):
        result = ftr(*args, env=env)
        assert result.returncode == 2, result.stderr
        assert "need the instructor's secret seed" in result.stderr and "Traceback" not in result.stderr
    assert not (tmp_path / "grades").exists()


def test_solution_export_without_the_solutions_says_so(tmp_path):
    """An installation without reference/solutions (the command line copied alone) gets one clear line."""
    from autograder import export

    kit = tmp_path / "kit"
    shutil.copytree(Path(export.__file__).resolve().parents[1] / "reference", kit / "reference",
                    ignore=shutil.ignore_patterns("solutions", "__pycache__"))
    shutil.copytree(Path(export.__file__).resolve().parent, kit / "autograder", ignore=shutil.ignore_patterns("__pycache__"))
    result = subprocess.run([sys.executable, "-m", "reference.cli", "solution", "export", str(tmp_path / "out")],
                            capture_output=True, text=True, cwd=kit, env={**os.environ, "PYTHONPATH": str(kit)})
    assert result.returncode == 2 and "reference solutions are not part of this installation" in result.stderr
