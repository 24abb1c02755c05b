"""Notebook submissions and autograder.notebook.check(), including from a real Jupyter kernel."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from autograder.export import exported_sources
from autograder.grader import grade_submission
from autograder.notebook import check

REPO = Path(__file__).resolve().parents[2]


def solution_cells() -> list[str]:
    sources = exported_sources()
    return [sources["heap.py"], sources["replanning.py"].replace("from heap import BinaryHeap\n", "")]


def notebook(cells: list[str]) -> dict:
    return {"nbformat": 4, "nbformat_minor": 5, "metadata": {},
            "cells": [{"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [], "source": c}
                      for c in cells]}


def test_a_notebook_submission_with_test_and_plot_cells_scores_full_marks(tmp_path):
    cells = ["%matplotlib inline\nimport matplotlib.pyplot as plt"] + solution_cells() + [
        "heap = BinaryHeap()\nheap.push('a', 1)\nassert heap.pop() == 'a'\nprint('my own test passed')",
        "plt.plot([1, 2, 3])\nwhile True:\n    pass  # a cell that would never end, if it ran",
        "from autograder.notebook import check\ncheck('heap', globals())",
    ]
    path = tmp_path / "alice.ipynb"
    path.write_text(json.dumps(notebook(cells)))
    report = grade_submission(path)
    assert report.kind == "notebook"
    assert report.score == report.max_score and report.extra_credit > 0, report.to_text()


def test_check_returns_the_points_and_raises_when_nothing_is_earned(capsys):
    namespace = {"__name__": "__main__", "In": [""] + solution_cells()}
    assert check("heap", namespace) == 8
    assert "8 / 8" in capsys.readouterr().out
    if not (REPO / "starter" / "heap.py").exists():
        pytest.skip("starter/ not written yet")
    starter = {"__name__": "__main__", "In": ["", (REPO / "starter" / "heap.py").read_text()]}
    with pytest.raises(AssertionError, match="NotImplementedError"):
        check("heap", starter)
    with pytest.raises(ValueError, match="unknown check"):
        check("speed", namespace)


def test_check_without_ipython_history_reads_the_definitions(tmp_path):
    module = tmp_path / "student_definitions.py"
    heap, replanning = solution_cells()
    module.write_text(heap + "\n\n" + replanning.replace("from __future__ import annotations\n", ""))
    namespace: dict = {"__name__": "student_definitions"}
    sys.path.insert(0, str(tmp_path))
    try:
        import importlib
        namespace.update(vars(importlib.import_module("student_definitions")))
    finally:
        sys.path.remove(str(tmp_path))
    assert check("forward_smaller_g", namespace) == 8


def test_check_in_a_real_kernel_leaves_the_points_as_the_cells_output(tmp_path):
    nbclient = pytest.importorskip("nbclient")
    nbformat = pytest.importorskip("nbformat")
    cells = solution_cells() + ["from autograder.notebook import check\ncheck('heap', globals())"]
    nb = nbformat.from_dict(notebook(cells))
    nbclient.NotebookClient(nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute()
    outputs = nb.cells[-1].outputs
    results = [o for o in outputs if o.get("output_type") == "execute_result"]
    assert results and results[0]["data"]["text/plain"] == "8.0"


def test_both_scores_like_ftr_grade_hidden_and_the_public_line_only_reports(monkeypatch, tmp_path):
    """What a course test cell does on the instructor's machine: the public line reports without
    raising (the seed is there), and the hidden part's "both" gives exactly ftr grade --hidden's points."""
    from autograder.grader import GradingOptions

    monkeypatch.setenv("FTR_SECRET_SEED", "4242")
    cells = solution_cells()
    cells[1] = cells[1].replace('return (f, -g, stamp) if self.tie_break == "larger_g" else (f, g, stamp)',
                                "return (f, g, stamp)")  # smaller-g ties
    namespace = {"__name__": "__main__", "In": [""] + cells}
    assert check("forward_larger_g", namespace) == 0  # no AssertionError: the hidden part decides
    with pytest.raises(AssertionError, match="larger g"):
        check("forward_larger_g", namespace, instances="both")
    path = tmp_path / "smaller_ties.ipynb"
    path.write_text(json.dumps(notebook(cells)))
    report = grade_submission(path, GradingOptions(hidden=True, checks=("forward_smaller_g",)))
    expected = sum(c.points for c in report.checks if c.id.startswith("forward_smaller_g"))
    assert expected == 8
    assert check("forward_smaller_g", namespace, instances="both") == expected
    monkeypatch.delenv("FTR_SECRET_SEED")
    monkeypatch.setenv("FTR_SECRET_SEED_FILE", str(tmp_path / "no_seed_here.txt"))
    with pytest.raises(AssertionError):  # a student (no seed): the public line raises as before
        check("forward_larger_g", namespace)


def test_nbgrader_autograde_without_the_secret_seed_stops_before_grading(tmp_path):
    """Without the seed every hidden test would score 0, silently: nbgrader must stop at once instead.
    (tests/course/test_course_nbgrader_trust.py checks the API route and that the gradebook is untouched.)"""
    import os
    import shutil
    import subprocess
    import sys

    pytest.importorskip("nbgrader")
    course = tmp_path / "course"
    shutil.copytree(REPO / "course", course, ignore=shutil.ignore_patterns(
        "release", "submitted", "autograded", "feedback", "gradebook.db", "__pycache__", "secret_seed.txt"))
    submitted = course / "submitted" / "alice" / "replanning"
    submitted.mkdir(parents=True)
    shutil.copy(course / "source" / "replanning" / "replanning.ipynb", submitted)
    environment = {key: value for key, value in os.environ.items() if not key.startswith("FTR_SECRET")}
    environment["FTR_SECRET_SEED_FILE"] = str(tmp_path / "no_seed.txt")
    environment["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])
    result = subprocess.run([sys.executable, "-m", "nbgrader", "autograde", "replanning"], cwd=course,
                            capture_output=True, text=True, env=environment, timeout=300)
    assert result.returncode != 0
    assert "stopped before grading anyone" in result.stderr and "secret seed" in result.stderr
    assert not (course / "autograded").exists()


def test_check_refuses_inside_an_autograding_kernel(monkeypatch):
    """nbgrader sets NBGRADER_EXECUTION=autograde for the kernels it runs while autograding; grading
    there would trust the student's kernel, so check() refuses (the course grades outside it)."""
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
    namespace = {"__name__": "__main__", "In": [""] + solution_cells()}
    with pytest.raises(RuntimeError, match="outside"):
        check("heap", namespace)
