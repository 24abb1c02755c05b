"""The whole nbgrader course, end to end, with the real commands (slow: several kernels and sandboxes).

In a temporary copy of ``course/``: ``nbgrader generate_assignment``; submissions under
``submitted/``; ``nbgrader autograde``; scores read back from the real gradebook database;
``nbgrader generate_feedback``. The students:

* ``full``      the source notebook itself (the solutions): every autograded cell full marks;
* ``untouched`` the release notebook as handed out: zero;
* ``mistake``   ties always go to the larger g (the ``tie_break`` argument ignored), a classic
  mistake: exactly the ``forward_smaller_g`` cell loses points (the instance groups where it shows);
* ``crashy``    the solutions plus a scratch cell that loops forever (catching ``KeyboardInterrupt``)
  and one that kills the kernel: each costs only its own cell;
* ``damaged``   the solutions with a test cell deleted and another duplicated: still full marks;
* ``garbage``   not JSON at all: zero, with a note, and the batch carries on.

The autograded points also equal what ``ftr grade --hidden`` gives the same notebook.
"""

from __future__ import annotations

import copy
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
ASSIGNMENT = "replanning"
SECRET = "20051311"

pytestmark = pytest.mark.slow

def skip_without_a_grading_kernel() -> None:
    """Skip unless a grading kernel can start here (as root: Debian's python3-ipykernel and NumPy)."""
    sys.path.insert(0, str(REPO / "course"))
    try:
        from kernel_sandbox import KernelSetupError, kernel_setup
    finally:
        sys.path.remove(str(REPO / "course"))
    try:
        kernel_setup()
    except KernelSetupError as error:
        pytest.skip(str(error))


def _rubric_points() -> dict[str, float]:
    from autograder.rubric import _toml_loader  # tomllib, or tomli on Python 3.10

    rubric = _toml_loader().loads((REPO / "course" / "rubric.toml").read_text())
    return {f"test_{k}": v for k, v in {**rubric["autograded"], **rubric["extra_credit"]}.items()}


def _environment() -> dict[str, str]:
    # nbgrader starts `alembic` through PATH: this interpreter's folder first, whatever PATH holds.
    path = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])
    return {**os.environ, "FTR_SECRET_SEED": SECRET, "PATH": path}


def _nbgrader(course: Path, *arguments: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "nbgrader", *arguments], cwd=course, capture_output=True,
                          text=True, env=_environment(), timeout=1800)


def _cell(notebook: dict, grade_id: str) -> int:
    return next(i for i, c in enumerate(notebook["cells"])
                if c["metadata"].get("nbgrader", {}).get("grade_id") == grade_id)


def _scratch(code: str) -> dict:
    return {"cell_type": "code", "metadata": {}, "source": code, "outputs": [], "execution_count": None}


def _submissions(source: dict, release: dict) -> dict[str, dict | str]:
    mistake = copy.deepcopy(source)
    astar = mistake["cells"][_cell(mistake, "repeated_astar")]
    right = 'return (f, -g, stamp) if self.tie_break == "larger_g" else (f, g, stamp)'
    assert right in astar["source"]
    astar["source"] = astar["source"].replace(right, "return (f, -g, stamp)")

    crashy = copy.deepcopy(source)
    stubborn_loop = "while True:\n    try:\n        while True:\n            pass\n    except KeyboardInterrupt:\n        pass"
    crashy["cells"].insert(_cell(crashy, "test_heap") + 1, _scratch(stubborn_loop))
    crashy["cells"].insert(_cell(crashy, "test_backward") + 1, _scratch("import os\nos._exit(3)"))

    damaged = copy.deepcopy(source)
    del damaged["cells"][_cell(damaged, "test_backward")]
    duplicate = copy.deepcopy(damaged["cells"][_cell(damaged, "test_adaptive")])
    duplicate.pop("id", None)
    damaged["cells"].insert(_cell(damaged, "test_adaptive") + 1, duplicate)

    return {"full": source, "untouched": release, "mistake": mistake, "crashy": crashy, "damaged": damaged,
            "garbage": '{"cells": [ this is not a notebook'}


@pytest.fixture(scope="module")
def graded_course(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("nbgrader")
    skip_without_a_grading_kernel()
    course = tmp_path_factory.mktemp("nbgrader") / "course"
    shutil.copytree(REPO / "course", course, ignore=shutil.ignore_patterns(
        "release", "submitted", "autograded", "feedback", "gradebook.db", "__pycache__", "secret_seed.txt"))
    generated = _nbgrader(course, "generate_assignment", ASSIGNMENT, "--force")
    assert generated.returncode == 0, generated.stderr
    source = json.loads((course / "source" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb").read_text())
    release = json.loads((course / "release" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb").read_text())
    for student, notebook in _submissions(source, release).items():
        folder = course / "submitted" / student / ASSIGNMENT
        folder.mkdir(parents=True)
        text = notebook if isinstance(notebook, str) else json.dumps(notebook)
        (folder / f"{ASSIGNMENT}.ipynb").write_text(text)
    # 30 s per cell: ample for the solutions' own cells (test cells are graded outside the kernel),
    # and what the infinite loop costs.
    autograded = _nbgrader(course, "autograde", ASSIGNMENT, "--Execute.timeout=30")
    (course / "autograde.log").write_text(autograded.stderr)
    # A grader marks a written answer by hand; then one student is regraded. Nothing else may move.
    _set_manual_score(course, "full", "answer_q0_first_move_east", 3.5)
    before = {student: _grades(course, student) for student in ("full", "mistake")}
    regraded = _nbgrader(course, "autograde", ASSIGNMENT, "--student", "garbage", "--force")
    assert regraded.returncode == 0, regraded.stderr
    (course / "untouched_by_regrade.json").write_text(json.dumps(before))
    feedback = _nbgrader(course, "generate_feedback", ASSIGNMENT)
    assert feedback.returncode == 0, feedback.stderr
    return course


def _set_manual_score(course: Path, student: str, cell: str, score: float) -> None:
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gradebook:
        gradebook.find_grade(cell, ASSIGNMENT, ASSIGNMENT, student).manual_score = score
        gradebook.db.commit()


def _grades(course: Path, student: str) -> dict[str, float]:
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gradebook:
        notebook = gradebook.find_submission_notebook(ASSIGNMENT, ASSIGNMENT, student)
        return {grade.name: grade.score for grade in notebook.grades if grade.name.startswith("test_")}


def test_points_in_the_gradebook_are_the_rubric_points(graded_course: Path) -> None:
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{graded_course / 'gradebook.db'}") as gradebook:
        notebook = gradebook.find_notebook(ASSIGNMENT, ASSIGNMENT)
        cells = {cell.name: cell.max_score for cell in notebook.grade_cells}
    assert {name: points for name, points in cells.items() if name.startswith("test_")} == _rubric_points()
    written = {name: points for name, points in cells.items() if name.startswith("answer_")}
    assert len(written) == 8 and sum(written.values()) == 40


def test_source_solutions_earn_every_autograded_point(graded_course: Path) -> None:
    assert _grades(graded_course, "full") == _rubric_points()


def test_untouched_release_earns_nothing(graded_course: Path) -> None:
    assert set(_grades(graded_course, "untouched").values()) == {0.0}


def test_classic_mistake_loses_exactly_the_cells_it_breaks(graded_course: Path) -> None:
    grades = _grades(graded_course, "mistake")
    expected = _rubric_points()
    # The instance groups where the tie rule shows lose their share (test_ftr_grade_gives_the_same_
    # autograded_points checks the exact number against `ftr grade --hidden`).
    assert grades["test_forward_smaller_g"] < expected["test_forward_smaller_g"]
    assert {k: v for k, v in grades.items() if k != "test_forward_smaller_g"} == \
        {k: v for k, v in expected.items() if k != "test_forward_smaller_g"}


def test_feedback_shows_the_first_divergence(graded_course: Path) -> None:
    html = (graded_course / "feedback" / "mistake" / ASSIGNMENT / f"{ASSIGNMENT}.html").read_text()
    assert "ties in f go to the smaller g" in html  # the autograder's divergence message
    assert "expansion" in html and "you expanded" in html
    assert "BEGIN HIDDEN TESTS" not in html and 'instances="both"' not in html


def test_an_infinite_loop_and_a_dying_kernel_cost_only_their_cells(graded_course: Path) -> None:
    assert _grades(graded_course, "crashy") == _rubric_points()
    autograded = json.loads((graded_course / "autograded" / "crashy" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb").read_text())
    errors = [o["ename"] for c in autograded["cells"] if c["cell_type"] == "code" for o in c["outputs"]
              if o["output_type"] == "error"]
    assert "KernelDied" in errors and "CellTimeoutError" in errors


def test_deleted_and_duplicated_cells_are_repaired_with_a_note(graded_course: Path) -> None:
    assert _grades(graded_course, "damaged") == _rubric_points()
    html = (graded_course / "feedback" / "damaged" / ASSIGNMENT / f"{ASSIGNMENT}.html").read_text()
    assert "test_backward" in html and "put back" in html and "appeared twice" in html
    assert (graded_course / "submitted" / "damaged" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb.orig").exists()


def test_invalid_json_scores_zero_and_loses_nothing(graded_course: Path) -> None:
    assert set(_grades(graded_course, "garbage").values()) == {0.0}
    kept = graded_course / "submitted" / "garbage" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb.invalid"
    assert kept.read_text() == '{"cells": [ this is not a notebook'
    html = (graded_course / "feedback" / "garbage" / ASSIGNMENT / f"{ASSIGNMENT}.html").read_text()
    assert "not a readable notebook" in html


def test_regrading_one_student_keeps_everyone_elses_grades_and_the_manual_ones(graded_course: Path) -> None:
    from nbgrader.api import Gradebook

    before = json.loads((graded_course / "untouched_by_regrade.json").read_text())
    for student, grades in before.items():
        assert _grades(graded_course, student) == grades
    with Gradebook(f"sqlite:///{graded_course / 'gradebook.db'}") as gradebook:
        assert gradebook.find_grade("answer_q0_first_move_east", ASSIGNMENT, ASSIGNMENT, "full").score == 3.5


def test_every_student_is_in_the_gradebook(graded_course: Path) -> None:
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{graded_course / 'gradebook.db'}") as gradebook:
        students = {s.student.id for s in gradebook.find_assignment(ASSIGNMENT).submissions}
    assert students == {"full", "untouched", "mistake", "crashy", "damaged", "garbage"}


@pytest.mark.parametrize("student", ["full", "mistake"])
def test_ftr_grade_gives_the_same_autograded_points(graded_course: Path, student: str, tmp_path: Path) -> None:
    notebook = graded_course / "submitted" / student / ASSIGNMENT / f"{ASSIGNMENT}.ipynb"
    report_file = tmp_path / "report.json"
    result = subprocess.run([sys.executable, "-m", "reference.cli", "grade", "--hidden", str(notebook),
                             "--json", str(report_file)], capture_output=True, text=True, env=_environment(), cwd=REPO)
    assert report_file.exists(), result.stderr
    report = json.loads(report_file.read_text())
    by_check: dict[str, float] = {}
    for check in report["checks"]:
        base = check["id"].removesuffix("_hidden")
        by_check[f"test_{base}"] = by_check.get(f"test_{base}", 0) + check["points"]
    assert by_check == _grades(graded_course, student)
