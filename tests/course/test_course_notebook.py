"""The nbgrader course, quickly: the source notebook, its solutions, its points, and the guards.

The slow end-to-end run is tests/course/test_course_nbgrader.py; this file keeps a real but small
nbgrader run (generate_assignment, then autograde of two quick submissions) in the default suite.
"""

from __future__ import annotations

import ast
import inspect
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference.world import FogOfWarWorld, Gridworld
from reference.world.generator import generate_maze

REPO = Path(__file__).resolve().parents[2]
COURSE = REPO / "course"
SOURCE = COURSE / "source" / "replanning" / "replanning.ipynb"
sys.path.insert(0, str(COURSE))

import grading_guards  # noqa: E402
import make_source  # noqa: E402

from tests.helpers.handout import FIGURE_2  # noqa: E402 - the handout's Figure 2, read from mazes/handout/


def _cells() -> list[dict]:
    return json.loads(SOURCE.read_text())["cells"]


def _grade_id(cell: dict) -> str | None:
    return cell["metadata"].get("nbgrader", {}).get("grade_id")


def _rubric() -> dict:
    return tomllib.loads((COURSE / "rubric.toml").read_text())


@pytest.fixture(scope="module")
def solution() -> dict:
    """The names the source notebook's solution cells define, run with the public world only."""
    namespace: dict = {}
    exec("from reference.world import FogOfWarWorld, Gridworld, Knowledge, SearchRecord, Trace, manhattan", namespace)
    for cell in _cells():
        if _grade_id(cell) in ("binary_heap", "repeated_astar"):
            exec(cell["source"], namespace)
    return namespace


# -- the source notebook ----------------------------------------------------------------------------

def test_committed_source_notebook_is_what_make_source_writes(tmp_path: Path) -> None:
    written = make_source.write_source(tmp_path / "replanning.ipynb")
    assert json.loads(written.read_text()) == json.loads(SOURCE.read_text()), "run python course/make_source.py"


def _module_code(*modules) -> str:
    """What a module holds below its imports (docstring, imports and comments above them cut), read
    here by hand rather than by reference.solutions.sources, which made the notebook."""
    parts = []
    for module in modules:
        lines = inspect.getsource(module).splitlines()
        tree = ast.parse("\n".join(lines))
        first = next(n for n in tree.body[1:] if not isinstance(n, (ast.Import, ast.ImportFrom)))
        start = first.lineno - 1
        while lines[start - 1].startswith("#"):
            start -= 1
        parts.append("\n".join(lines[start:]).strip("\n"))
    return "\n\n\n".join(parts)


@pytest.mark.parametrize("grade_id,modules", [("binary_heap", ("heap",)), ("repeated_astar", ("agent", "replanning"))])
def test_solution_cells_are_the_readable_reference_itself(grade_id: str, modules: tuple[str, ...]) -> None:
    """No solution code lives in a string: each solution cell, nbgrader's markers taken out, is the
    code of reference/solutions/<module>.py below its imports."""
    import importlib

    cell = next(c for c in _cells() if _grade_id(c) == grade_id)
    code = "\n".join(line for line in cell["source"].splitlines()
                     if line.strip() not in ("### BEGIN SOLUTION", "### END SOLUTION"))
    expected = _module_code(*(importlib.import_module(f"reference.solutions.{m}") for m in modules))
    assert code.rstrip().endswith(expected), f"run python course/make_source.py ({grade_id})"
    imports = code[: len(code.rstrip()) - len(expected)]
    assert all(line.startswith(("from ", "import ")) for line in imports.splitlines() if line.strip())
    assert "### BEGIN SOLUTION" in cell["source"]


def test_cell_points_are_the_rubric_points() -> None:
    rubric = _rubric()
    points = {_grade_id(c): c["metadata"]["nbgrader"]["points"] for c in _cells()
              if c["metadata"].get("nbgrader", {}).get("grade")}
    autograded = {**rubric["autograded"], **rubric["extra_credit"]}
    assert {k.removeprefix("test_"): v for k, v in points.items() if k.startswith("test_")} == autograded
    assert {k.removeprefix("answer_"): v for k, v in points.items() if k.startswith("answer_")} == rubric["written"]
    assert sum(rubric["autograded"].values()) + sum(rubric["written"].values()) == rubric["assignment"]["total"]


def test_every_test_cell_checks_public_and_hidden_instances() -> None:
    for cell in _cells():
        grade_id = _grade_id(cell) or ""
        if not grade_id.startswith("test_"):
            continue
        check_id = grade_id.removeprefix("test_")
        lines = cell["source"].splitlines()
        hidden = lines.index("### BEGIN HIDDEN TESTS")
        assert f'check("{check_id}", globals())' in lines[:hidden]
        assert lines[hidden + 1] == f'check("{check_id}", globals(), instances="both")'
        assert lines[hidden + 2] == "### END HIDDEN TESTS" and lines[-1] == "### END HIDDEN TESTS"
        assert cell["metadata"]["nbgrader"]["locked"] and not cell["metadata"]["nbgrader"]["solution"]


def test_written_questions_are_manually_graded_markdown_cells() -> None:
    answers = [c for c in _cells() if (_grade_id(c) or "").startswith("answer_")]
    assert [_grade_id(c).removeprefix("answer_") for c in answers] == list(_rubric()["written"])
    for cell in answers:
        assert cell["cell_type"] == "markdown"
        assert cell["metadata"]["nbgrader"]["solution"] and cell["metadata"]["nbgrader"]["grade"]
    questions = " ".join(c["source"] for c in _cells() if (_grade_id(c) or "").startswith("question_"))
    for topic in ("east", "square of the number of", "c * f(s) - g(s)", "no blocked cells", "Backward",
                  "consistent", "hypothesis test", "1001 x 1001", "4 MB"):
        assert topic in questions, topic


# -- the solutions behave as the handout says (SPEC §10, worked by hand there) ------------------------

def _run(solution: dict, name: str, rows: list[str], start, target, tie_break: str = "larger_g"):
    grid = Gridworld.from_strings(rows)
    return solution[name](FogOfWarWorld(grid, start), start, target, tie_break)


def test_solution_reproduces_example_1(solution: dict) -> None:
    forward = _run(solution, "repeated_forward_astar", FIGURE_2, (4, 2), (4, 4))
    # E3, E2, E1, D2, D1, C2, C3, C4, C5, D5
    assert forward.searches[0].expanded == [(4, 2), (4, 1), (4, 0), (3, 1), (3, 0),
                                            (2, 1), (2, 2), (2, 3), (2, 4), (3, 4)]
    assert forward.trajectory[:4] == [(4, 2), (4, 1), (3, 1), (2, 1)]
    assert len(forward.searches[1].expanded) == 13
    adaptive = _run(solution, "adaptive_astar", FIGURE_2, (4, 2), (4, 4))
    assert [len(s.expanded) for s in adaptive.searches[:2]] == [10, 10]
    backward = _run(solution, "repeated_backward_astar", FIGURE_2, (4, 2), (4, 4))
    # E5, D5, D4, C4, C3, C5, C2, D2, E2
    assert backward.searches[0].expanded == [(4, 4), (3, 4), (3, 3), (2, 3), (2, 2), (2, 4), (2, 1), (3, 1), (4, 1)]


def test_solution_reproduces_examples_2_and_3(solution: dict) -> None:
    example_2 = _run(solution, "repeated_forward_astar", FIGURE_2, (4, 1), (4, 4))
    assert example_2.trajectory[1] == (4, 2)  # east, not north
    open_grid = ["....."] * 5
    larger = _run(solution, "repeated_forward_astar", open_grid, (0, 0), (4, 4), "larger_g")
    smaller = _run(solution, "repeated_forward_astar", open_grid, (0, 0), (4, 4), "smaller_g")
    assert (larger.expansions, smaller.expansions) == (8, 23)


def test_solution_reports_an_unreachable_target(solution: dict) -> None:
    trace = _run(solution, "repeated_forward_astar", [".....", "...@.", "..@.@"], (0, 0), (2, 3))
    assert not trace.reached and trace.searches[-1].path == []
    assert _run(solution, "adaptive_astar", ["..."], (0, 1), (0, 1)).searches == []


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), size=st.sampled_from([7, 9, 13]),
       setting=st.sampled_from([("repeated_forward_astar", "forward", "larger_g"),
                                ("repeated_forward_astar", "forward", "smaller_g"),
                                ("repeated_backward_astar", "backward", "larger_g"),
                                ("adaptive_astar", "adaptive", "larger_g")]))
def test_solution_equals_the_reference_on_random_mazes(solution: dict, seed: int, size: int, setting) -> None:
    from reference.solutions import REPLANNERS

    name, algorithm, tie_break = setting
    maze = generate_maze([seed, size], height=size, extra_openings=size)
    mine = solution[name](FogOfWarWorld(maze.grid, maze.start), maze.start, maze.target, tie_break)
    theirs = REPLANNERS.run(algorithm, FogOfWarWorld(maze.grid, maze.start), maze.start, maze.target,
                            tie_break=tie_break)
    assert mine.to_dict() == theirs.to_dict()


# -- the guards against damaged submissions ------------------------------------------------------------

def _write(path: Path, notebook) -> Path:
    path.write_text(notebook if isinstance(notebook, str) else json.dumps(notebook))
    return path


def test_invalid_json_is_kept_and_replaced_by_the_release(tmp_path: Path) -> None:
    release = _write(tmp_path / "release.ipynb", {"cells": [{"cell_type": "markdown", "metadata": {}, "source": "hi"}]})
    submitted = _write(tmp_path / "replanning.ipynb", "{ nope")
    notes = grading_guards.repair_notebook(submitted, SOURCE, release)
    assert len(notes) == 1 and "not a readable notebook" in notes[0]
    assert (tmp_path / "replanning.ipynb.invalid").read_text() == "{ nope"
    repaired = json.loads(submitted.read_text())
    assert "Grading notes" in repaired["cells"][0]["source"] and repaired["cells"][1]["source"] == "hi"


def test_deleted_cells_come_back_and_duplicates_go(tmp_path: Path) -> None:
    source = json.loads(SOURCE.read_text())
    cells = [c for c in source["cells"] if _grade_id(c) != "test_backward"]
    position = next(i for i, c in enumerate(cells) if _grade_id(c) == "test_adaptive")
    cells.insert(position, json.loads(json.dumps(cells[position])))                     # a locked duplicate
    heap_position = next(i for i, c in enumerate(cells) if _grade_id(c) == "binary_heap")
    cells.insert(heap_position + 1, json.loads(json.dumps(cells[heap_position])))        # the student's duplicate
    submitted = _write(tmp_path / "replanning.ipynb", {**source, "cells": cells})
    notes = grading_guards.repair_notebook(submitted, SOURCE, SOURCE)
    assert len(notes) == 3
    repaired = json.loads(submitted.read_text())["cells"]
    ids = [_grade_id(c) for c in repaired[1:]]
    assert ids == [_grade_id(c) for c in source["cells"]] [:heap_position + 1] + [None] + \
        [_grade_id(c) for c in source["cells"]][heap_position + 1:]
    assert (tmp_path / "replanning.ipynb.orig").exists()
    assert grading_guards.repair_notebook(submitted, SOURCE, SOURCE) == []  # a second run changes nothing


def test_an_intact_notebook_is_left_alone(tmp_path: Path) -> None:
    submitted = _write(tmp_path / "replanning.ipynb", SOURCE.read_text())
    assert grading_guards.repair_notebook(submitted, SOURCE, SOURCE) == []
    assert submitted.read_text() == SOURCE.read_text() and not (tmp_path / "replanning.ipynb.orig").exists()


# -- a small real nbgrader run ------------------------------------------------------------------------

def test_real_nbgrader_release_and_autograde_of_quick_submissions(tmp_path: Path) -> None:
    pytest.importorskip("nbgrader")
    course = tmp_path / "course"
    shutil.copytree(COURSE, course, ignore=shutil.ignore_patterns(
        "release", "submitted", "autograded", "feedback", "gradebook.db", "__pycache__", "secret_seed.txt"))
    environment = {**os.environ, "FTR_SECRET_SEED": "7"}

    def nbgrader(*arguments: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "nbgrader", *arguments], cwd=course, capture_output=True,
                              text=True, env=environment, timeout=900)

    assert nbgrader("generate_assignment", "replanning").returncode == 0
    release_path = course / "release" / "replanning" / "replanning.ipynb"
    release = release_path.read_text()
    assert "BEGIN SOLUTION" not in release and "HIDDEN TESTS" not in release and "_sift_up" in release
    # Every function body is the student's to write: 17 heap methods, run_agent, and the 12 functions
    # of the Repeated A* module (smallest_f, 9 methods of RepeatedAStar, the 3 public functions).
    assert release.count("raise NotImplementedError()") == 30
    for student, text in (("untouched", release), ("garbage", "not json")):
        folder = course / "submitted" / student / "replanning"
        folder.mkdir(parents=True)
        (folder / "replanning.ipynb").write_text(text)
    result = nbgrader("autograde", "replanning")
    assert result.returncode == 0, result.stderr[-2000:]

    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gradebook:
        for student in ("untouched", "garbage"):
            submission = gradebook.find_submission("replanning", student)
            assert submission.score == 0 and submission.max_score == 105


# -- the handout's figures ---------------------------------------------------------------------------

def test_handout_figures_are_rendered_from_the_kit_and_all_referenced(tmp_path: Path) -> None:
    import make_figures

    written = make_figures.make_figures(tmp_path)
    names = sorted(path.name for path in written)
    assert all(path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for path in written)
    handout = (COURSE / "handout" / "handout.md").read_text()
    referenced = [line.split("(figures/")[1].split(")")[0] for line in handout.splitlines() if "](figures/" in line]
    assert sorted(referenced) == names
    assert sorted(p.name for p in (COURSE / "handout" / "figures").glob("*.png")) == names  # committed, none stale
