"""nbgrader grades outside the student's kernel, on every path into autograding.

One real course (``nbgrader generate_assignment`` in a temporary copy of ``course/``), real kernels,
the real sandbox. The students:

* ``full``     the source notebook (the instructor's solutions), plus a marker comment only it has;
* ``starter``  the release notebook as handed out;
* ``forger``   the release notebook (nothing solved) plus cells that attack the grading from the
  kernel: ``check`` redefined to return full points (in the notebook and in ``autograder.notebook``),
  the grader module monkeypatched, fake result files and a forged gradebook row written where
  nbgrader keeps them, and attempts to print the secret seed (environment, seed file, the parent's
  ``/proc/PID/environ``), a classmate's submitted notebook, the instructor's source notebook and
  the kit's reference solutions (by path and by import).
  (A loop that catches ``KeyboardInterrupt`` is the ``crashy`` student of test_course_nbgrader.py.)

``nbgrader autograde`` (the command) grades all three (the default run). ``NbGraderAPI(...).autograde``
(Formgrader's route, in its own process, with the course's nbgrader_config.py) grades ``full`` again
with ``force`` (slow). Without the seed both routes refuse before recording anything.

Expected points come from the rubric (``course/rubric.toml``), not from the code under test: the
solutions earn every autograded point, the other two none.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
ASSIGNMENT = "replanning"
SECRET = "918273645546372819"        # long and odd, so finding it anywhere means it leaked
CLASSMATE_MARKER = "# classmate-only-marker-5d41402abc"



def skip_without_a_sandboxed_kernel() -> None:
    """Skip unless a grading kernel can run in bubblewrap here (as root: Debian's python3-ipykernel)."""
    sys.path.insert(0, str(REPO / "course"))
    try:
        from kernel_sandbox import KernelSetupError, kernel_setup
    finally:
        sys.path.remove(str(REPO / "course"))
    try:
        _, bwrap = kernel_setup()
    except KernelSetupError as error:
        pytest.skip(str(error))
    if bwrap is None:
        pytest.skip("bubblewrap cannot run here: the kernel would share the file system (documented)")


def _rubric_points() -> dict[str, float]:
    from autograder.rubric import _toml_loader  # tomllib, or tomli on Python 3.10

    rubric = _toml_loader().loads((REPO / "course" / "rubric.toml").read_text())
    return {f"test_{k}": float(v) for k, v in {**rubric["autograded"], **rubric["extra_credit"]}.items()}


def _environment(course: Path, seed: bool = True) -> dict[str, str]:
    """The grader's environment: the seed both in FTR_SECRET_SEED and in the course's seed file."""
    path = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])
    environment = {k: v for k, v in os.environ.items() if not k.startswith("FTR_SECRET")}
    environment["PATH"] = path
    if seed:
        environment["FTR_SECRET_SEED"] = SECRET
        environment["FTR_SECRET_SEED_FILE"] = str(course / "secret_seed.txt")
    else:
        environment["FTR_SECRET_SEED_FILE"] = str(course / "no_seed_here.txt")
    return environment


def _nbgrader(course: Path, *arguments: str, seed: bool = True) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "nbgrader", *arguments], cwd=course, capture_output=True,
                          text=True, env=_environment(course, seed), timeout=1800)


# Formgrader's route: the course's nbgrader_config.py loaded by an nbgrader app, then the API.
API_SCRIPT = """
import json, sys
from nbgrader.apps import NbGraderAPI
from nbgrader.apps.nbgraderapp import NbGraderApp

app = NbGraderApp()
app.load_config_file()
api = NbGraderAPI(parent=app)
results = {student: api.autograde(sys.argv[1], student, force=True) for student in sys.argv[2:]}
print(json.dumps(results))
"""


def _api_autograde(course: Path, *students: str, seed: bool = True) -> dict:
    result = subprocess.run([sys.executable, "-c", API_SCRIPT, ASSIGNMENT, *students], cwd=course,
                            capture_output=True, text=True, env=_environment(course, seed), timeout=1800)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def _cell_index(notebook: dict, grade_id: str) -> int:
    return next(i for i, c in enumerate(notebook["cells"])
                if c["metadata"].get("nbgrader", {}).get("grade_id") == grade_id)


def _code(source: str) -> dict:
    return {"cell_type": "code", "metadata": {}, "source": source, "outputs": [], "execution_count": None}


def _forger_cells(course: Path) -> list[str]:
    """What a student can type into scratch cells to cheat or spy. Every cell prints what it got."""
    classmate = course / "submitted" / "full" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb"
    source = course / "source" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb"
    return [
        # check redefined, in the notebook and in the module the test cells import it from
        "def check(*args, **kwargs):\n    return 65\n"
        "import autograder.notebook as notebook_module\nnotebook_module.check = check\nprint('check forged')",
        # the grader monkeypatched (in the kernel's own modules)
        "import sys, types\nfake = types.ModuleType('autograder.grader')\n"
        "fake.grade_submission = lambda *a, **k: 'full marks'\nsys.modules['autograder.grader'] = fake\n"
        "print('grader patched')",
        # fake result files and a forged gradebook row where nbgrader keeps them
        f"import os, sqlite3\ncourse = {str(course)!r}\n"
        "for target in ['autograded/forger/replanning/results.json', 'gradebook.db.forged', 'results.json']:\n"
        "    try:\n"
        "        with open(os.path.join(course, target), 'w') as f:\n"
        "            f.write('{\"score\": 65}')\n"
        "        print('WROTE', target)\n"
        "    except OSError as e:\n"
        "        print('could not write', target, type(e).__name__)\n"
        "try:\n"
        "    db = sqlite3.connect(os.path.join(course, 'gradebook.db'))\n"
        "    db.execute('update grade set auto_score = 8')\n"
        "    db.commit()\n"
        "    print('WROTE gradebook')\n"
        "except Exception as e:\n"
        "    print('could not write the gradebook', type(e).__name__)",
        # the secret seed, a classmate's notebook, the source notebook, the grader's environment
        "import os\nprint('uid', os.getuid())\nprint('environment', dict(os.environ))\n"
        f"for path in [{str(course / 'secret_seed.txt')!r}, {str(classmate)!r}, {str(source)!r},\n"
        f"             {str(REPO / 'reference' / 'solutions' / 'replanning.py')!r},\n"
        "             '/proc/1/environ', f'/proc/{os.getppid()}/environ', '../../../secret_seed.txt']:\n"
        "    try:\n"
        "        print('READ', path, open(path, 'rb').read()[:100000])\n"
        "    except OSError as e:\n"
        "        print('could not read', path, type(e).__name__)\n"
        "try:\n"
        "    import inspect, reference.solutions.replanning as kit_solution\n"
        "    print('READ the kit', inspect.getsource(kit_solution))\n"
        "except ImportError as e:\n"
        "    print('could not import the kit solutions', e)\n"
        "for pid in [p for p in os.listdir('/proc') if p.isdigit()]:\n"
        "    try:\n"
        "        print('ENV', pid, open(f'/proc/{pid}/environ', 'rb').read())\n"
        "    except OSError:\n"
        "        pass",
    ]


@pytest.fixture(scope="module")
def course(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The course, graded by the command, with feedback."""
    pytest.importorskip("nbgrader")
    skip_without_a_sandboxed_kernel()
    course = tmp_path_factory.mktemp("nbgrader-trust") / "course"
    shutil.copytree(REPO / "course", course, ignore=shutil.ignore_patterns(
        "release", "submitted", "autograded", "feedback", "gradebook.db", "__pycache__", "secret_seed.txt"))
    (course / "secret_seed.txt").write_text(SECRET + "\n")
    (course / "secret_seed.txt").chmod(0o600)
    generated = _nbgrader(course, "generate_assignment", ASSIGNMENT, "--force")
    assert generated.returncode == 0, generated.stderr
    source = json.loads((course / "source" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb").read_text())
    release = json.loads((course / "release" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb").read_text())
    full = json.loads(json.dumps(source))
    full["cells"].insert(_cell_index(full, "binary_heap") + 1, _code(CLASSMATE_MARKER + "\nprint('hello')"))
    forger = json.loads(json.dumps(release))
    at = _cell_index(forger, "imports") + 1
    forger["cells"][at:at] = [_code(text) for text in _forger_cells(course)]
    for student, notebook in {"full": full, "starter": release, "forger": forger}.items():
        folder = course / "submitted" / student / ASSIGNMENT
        folder.mkdir(parents=True)
        (folder / f"{ASSIGNMENT}.ipynb").write_text(json.dumps(notebook))
    command = _nbgrader(course, "autograde", ASSIGNMENT)
    (course / "autograde.log").write_text(command.stderr)
    assert command.returncode == 0, command.stderr
    feedback = _nbgrader(course, "generate_feedback", ASSIGNMENT)
    assert feedback.returncode == 0, feedback.stderr
    return course


def test_a_kit_under_a_closed_folder_still_gets_a_sandboxed_kernel(tmp_path: Path) -> None:
    """A checkout under a folder only root may enter (mktemp -d makes 0700) still gets bubblewrap.

    bubblewrap runs as the kernel's own uid, which cannot reach such a checkout: the kernel's files
    (the public mazes included) are copied into its private folder, so nothing is bound from the kit.
    """
    skip_without_a_sandboxed_kernel()
    closed = tmp_path / "closed"
    closed.mkdir(mode=0o700)
    for part in ("course", "autograder", "reference", "mazes"):
        shutil.copytree(REPO / part, closed / "kit" / part, ignore=shutil.ignore_patterns("__pycache__"))
    probe = ("import sys; sys.path[:0] = ['course', '.']; import kernel_sandbox; "
             "print(kernel_sandbox.kernel_setup()[1] is not None)")
    result = subprocess.run([sys.executable, "-c", probe], cwd=closed / "kit", capture_output=True, text=True,
                            timeout=300)
    assert result.stdout.strip() == "True", result.stderr


def test_nbgrader_reads_the_points_written_into_a_test_cell() -> None:
    """nbgrader's own determine_grade on graded_cell_outputs: 6 of 8 points (4 public + 2 hidden, by
    hand below) are partial credit 6; none is an error and 0."""
    pytest.importorskip("nbgrader")
    import nbformat
    from nbgrader.utils import determine_grade

    sys.path.insert(0, str(REPO / "course"))
    try:
        from grading_guards import graded_cell_outputs
    finally:
        sys.path.remove(str(REPO / "course"))
    from autograder.report import CheckResult, GradeReport

    def cell_with(report: GradeReport) -> nbformat.NotebookNode:
        cell = nbformat.v4.new_code_cell("check('heap', globals())")
        cell.metadata["nbgrader"] = {"grade": True, "solution": False, "grade_id": "test_heap", "points": 8}
        cell.outputs = graded_cell_outputs(report, "test_heap")
        return cell

    partial = GradeReport("alice", "notebook", "public+hidden", [CheckResult("heap", "The heap", 4, 4),
                          CheckResult("heap_hidden", "The heap", 2, 4, ["sequence 3: pop gave 'b'"])], [], 1.0)
    assert determine_grade(cell_with(partial)) == (6, 8)
    nothing = GradeReport("bob", "notebook", "public+hidden", [CheckResult("heap", "The heap", 0, 4, ["no heap"]),
                          CheckResult("heap_hidden", "The heap", 0, 4)], [], 1.0)
    cell = cell_with(nothing)
    assert determine_grade(cell) == (0, 8)
    assert "no heap" in cell.outputs[-1]["evalue"]


def _grades(course: Path, student: str) -> dict[str, float]:
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gradebook:
        notebook = gradebook.find_submission_notebook(ASSIGNMENT, ASSIGNMENT, student)
        return {grade.name: grade.score for grade in notebook.grades if grade.name.startswith("test_")}


def _autograded_text(course: Path, student: str) -> str:
    return (course / "autograded" / student / ASSIGNMENT / f"{ASSIGNMENT}.ipynb").read_text()


def _printed(course: Path, student: str) -> str:
    """Everything the autograded notebook's code cells show (streams, results, errors)."""
    import nbformat

    notebook = nbformat.reads(_autograded_text(course, student), as_version=4)
    return "\n".join(str(output.get("text") or output.get("data") or output.get("evalue"))
                     for cell in notebook.cells if cell.cell_type == "code" for output in cell.outputs)


def _feedback_text(course: Path, student: str) -> str:
    return (course / "feedback" / student / ASSIGNMENT / f"{ASSIGNMENT}.html").read_text()


def test_the_instructors_solution_gets_every_point(course: Path) -> None:
    assert _grades(course, "full") == _rubric_points()


def test_the_starter_gets_nothing(course: Path) -> None:
    assert set(_grades(course, "starter").values()) == {0.0}


def test_a_kernel_that_forges_check_the_grader_and_the_results_gets_nothing(course: Path) -> None:
    assert set(_grades(course, "forger").values()) == {0.0}
    printed = _printed(course, "forger")
    assert "check forged" in printed and "grader patched" in printed  # the attacks did run, in the kernel
    assert "could not write the gradebook" in printed and "WROTE" not in printed
    assert not (course / "gradebook.db.forged").exists() and not (course / "results.json").exists()


def test_the_kernel_reads_no_secret_no_classmate_and_no_source(course: Path) -> None:
    printed = _printed(course, "forger")
    source = json.loads((course / "source" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb").read_text())
    release = json.loads((course / "release" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb").read_text())
    release_lines = {line.strip() for cell in release["cells"] for line in "".join(cell["source"]).splitlines()}
    # A line of solution code that is in the source notebook and not in the release.
    solution_line = next(line.strip() for line in source["cells"][_cell_index(source, "repeated_astar")]["source"].splitlines()
                         if len(line.strip()) > 40 and line.strip() not in release_lines)
    for text in (printed, _autograded_text(course, "forger"), _feedback_text(course, "forger")):
        assert SECRET not in text
        assert CLASSMATE_MARKER not in text
        assert solution_line not in text and json.dumps(solution_line)[1:-1] not in text
        assert "FTR_SECRET" not in text
        assert f"READ {course}" not in text and f"READ {REPO}" not in text  # every read of the course's files failed
    assert "could not import the kit solutions" in printed
    uid = next(line for line in printed.splitlines() if line.startswith("uid "))
    assert os.geteuid() != 0 or int(uid.split()[1]) != 0  # as root, the kernel ran as a sandbox uid


def test_test_cells_show_the_autograders_report_not_the_kernels(course: Path) -> None:
    import nbformat

    forger = nbformat.reads(_autograded_text(course, "forger"), as_version=4)
    test_heap = forger.cells[_cell_index(forger, "test_heap")]
    assert "on the public and the hidden instances together" in "".join(o.get("text", "") for o in test_heap.outputs)
    assert [o.ename for o in test_heap.outputs if o.output_type == "error"] == ["AssertionError"]
    full = nbformat.reads(_autograded_text(course, "full"), as_version=4)
    results = [o.data["text/plain"] for o in full.cells[_cell_index(full, "test_backward")].outputs
               if o.output_type == "execute_result"]
    points = _rubric_points()["test_backward"]
    assert results == [f"{points:g}"]
    feedback = _feedback_text(course, "full").replace("&#39;", "'")
    assert f"Repeated Backward A*: {points:g} / {points:g} on the public and the hidden instances together" in feedback


def test_without_the_seed_the_command_and_the_api_refuse_and_record_nothing(course: Path) -> None:
    before = (course / "gradebook.db").read_bytes()
    command = _nbgrader(course, "autograde", ASSIGNMENT, "--force", seed=False)
    assert command.returncode != 0
    assert "stopped before grading anyone" in command.stderr and "secret seed" in command.stderr
    api = _api_autograde(course, "full", seed=False)
    assert not api["full"]["success"]
    assert "stopped before grading anyone" in api["full"]["log"]
    assert (course / "gradebook.db").read_bytes() == before
    assert (course / "autograded" / "full" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb").exists()


@pytest.mark.slow
def test_formgraders_api_gives_the_instructors_solution_every_point(course: Path) -> None:
    """The API with the course's configuration: without GradeOutsideKernel the kernel's check()
    would refuse (NBGRADER_EXECUTION=autograde) and every test cell would score 0."""
    api = _api_autograde(course, "full")
    assert api["full"]["success"], api["full"]
    assert "graded outside the kernel" in api["full"]["log"]
    assert _grades(course, "full") == _rubric_points()
