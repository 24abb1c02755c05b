"""The student bundle (`ftr release --out DIR`) holds no solution code and works on its own.

The bundle is built once per test module with the real command (which runs real nbgrader). The
checks here are independent of the command's own audit: they look for the reference solutions'
actual code lines, the source notebook's solution and hidden-test lines, and instructor files.
"""

from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def _bundle_files(bundle: Path) -> dict[Path, str]:
    return {p.relative_to(bundle): p.read_text(encoding="utf-8", errors="replace")
            for p in bundle.rglob("*") if p.is_file() and not p.name.endswith((".gz", ".png", ".gif", ".map"))}


def _distinctive_lines(text: str) -> set[str]:
    """Code lines long enough that finding one elsewhere means copying. Docstrings, comments and
    signatures are left out: the starter shares the public API and its documentation on purpose."""
    docstring_lines: set[int] = set()
    for node in ast.walk(ast.parse(text)):
        documented = isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        if documented and ast.get_docstring(node):
            first = node.body[0]
            docstring_lines.update(range(first.lineno, first.end_lineno + 1))
    lines = set()
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.split("  #")[0].strip()
        skipped = line.startswith(("#", "from ", "import ", "def ", "class "))
        if number not in docstring_lines and len(line) >= 40 and not skipped:
            lines.add(line)
    return lines


def _source_notebook_secrets() -> set[str]:
    """The lines between the source notebook's solution and hidden-test markers."""
    notebook = json.loads((REPO / "course" / "source" / "replanning" / "replanning.ipynb").read_text())
    secret = set()
    for cell in notebook["cells"]:
        source = cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])
        inside = False
        for line in source.splitlines():
            stripped = line.strip()
            if stripped in ("### BEGIN SOLUTION", "### BEGIN HIDDEN TESTS"):
                inside = True
            elif stripped in ("### END SOLUTION", "### END HIDDEN TESTS"):
                inside = False
            elif inside and len(stripped) >= 25:
                secret.add(stripped)
    return secret


@pytest.fixture(scope="module")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("nbgrader")
    out = tmp_path_factory.mktemp("release") / "bundle"
    result = subprocess.run([sys.executable, "-m", "reference.cli", "release", "--out", str(out)],
                            capture_output=True, text=True, cwd=REPO)
    assert result.returncode == 0, result.stderr
    return out


def test_bundle_has_what_a_student_needs(bundle: Path) -> None:
    for needed in ("starter/heap.py", "starter/replanning.py", "starter/README.md", "reference/world/grid.py",
                   "reference/world/sensing.py", "reference/world/trace.py", "replanning.ipynb",
                   "mazes/maze_00.map", "mazes/maze_49.map", "mazes/mazes.scen", "self_check.py",
                   "requirements.txt", "README.md", "course/rubric.toml"):
        assert (bundle / needed).is_file(), needed
    release = json.loads((bundle / "replanning.ipynb").read_text())
    test_cells = [c for c in release["cells"] if c["metadata"].get("nbgrader", {}).get("grade")
                  and c["cell_type"] == "code"]
    assert len(test_cells) == 7  # six autograded checks and the extra credit


def test_bundle_has_no_solution_code(bundle: Path) -> None:
    assert not (bundle / "reference" / "solutions").exists()
    files = _bundle_files(bundle)
    reference_lines = set()
    for module in (REPO / "reference" / "solutions").glob("*.py"):
        reference_lines |= _distinctive_lines(module.read_text())
    secrets = _source_notebook_secrets()
    assert len(reference_lines) > 50 and len(secrets) > 30  # the probes themselves are not empty
    for relative, text in files.items():
        lines = {line.strip() for line in text.splitlines()}
        lines |= {line.split("  #")[0].strip() for line in text.splitlines()}  # as _distinctive_lines cuts them
        assert not lines & reference_lines, f"{relative} contains reference solution lines: {lines & reference_lines}"
        assert not lines & secrets, f"{relative} contains solution or hidden-test lines of the source notebook"
        for marker in ("### BEGIN SOLUTION", "### BEGIN HIDDEN TESTS"):
            assert marker not in text, f"{relative} contains {marker!r}"


def test_bundle_has_no_instructor_files(bundle: Path) -> None:
    names = {p.name for p in bundle.rglob("*")}
    for forbidden in ("answer_key.md", "INSTRUCTOR.md", "secret_seed.txt", "gradebook.db", "solutions",
                      "make_source.py", "grading_guards.py", "nbgrader_config.py"):
        assert forbidden not in names
    answer_key = REPO / "course" / "answer_key.md"
    if answer_key.exists():
        key_lines = {line.strip() for line in answer_key.read_text().splitlines() if len(line.strip()) >= 40}
        for relative, text in _bundle_files(bundle).items():
            assert not {line.strip() for line in text.splitlines()} & key_lines, f"{relative} quotes the answer key"


def test_release_refuses_a_folder_that_is_not_empty(tmp_path: Path) -> None:
    (tmp_path / "something.txt").write_text("keep me")
    result = subprocess.run([sys.executable, "-m", "reference.cli", "release", "--out", str(tmp_path)],
                            capture_output=True, text=True, cwd=REPO)
    assert result.returncode == 2
    assert "not an empty folder" in result.stderr and "Traceback" not in result.stderr
    assert (tmp_path / "something.txt").read_text() == "keep me"


@pytest.mark.slow
def test_bundle_works_alone_in_a_fresh_virtual_environment(bundle: Path, tmp_path: Path) -> None:
    """python -m venv; pip install -r requirements.txt; the self-check on the untouched starter: 0 points."""
    copy = tmp_path / "student"
    shutil.copytree(bundle, copy)  # a place the kit's repository is nowhere near
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = venv / "bin" / "python"
    install = subprocess.run([str(python), "-m", "pip", "install", "-q", "-r", "requirements.txt"],
                             cwd=copy, capture_output=True, text=True)
    if install.returncode != 0 and "Could not find a version" in install.stderr + install.stdout:
        pytest.skip("no package index reachable")
    assert install.returncode == 0, install.stderr
    environment = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "FTR_MAZES", "FTR_RUBRIC")}
    # The kit itself must not be importable in the venv: the bundle has to carry everything.
    probe = subprocess.run([str(python), "-c", "import reference"], cwd=tmp_path, capture_output=True, env=environment)
    assert probe.returncode != 0
    check = subprocess.run([str(python), "self_check.py", "starter"], cwd=copy, capture_output=True, text=True,
                           env=environment, timeout=600)
    assert check.returncode == 0, check.stderr
    assert "Total: 0 / 60" in check.stdout
    assert "NotImplementedError" in check.stdout and "TODO" in check.stdout  # a useful message per check
    assert str(REPO) not in check.stdout + check.stderr


@pytest.mark.slow
def test_release_notebook_checks_itself_inside_the_bundle(bundle: Path, tmp_path: Path) -> None:
    """The release notebook, filled in with the source's solutions and run from the bundle's folder
    (which the kit's repository is not), shows full public points in every test cell."""
    nbformat = pytest.importorskip("nbformat")
    from nbclient import NotebookClient

    copy = tmp_path / "student"
    shutil.copytree(bundle, copy)
    release = nbformat.read(copy / "replanning.ipynb", as_version=4)
    source = json.loads((REPO / "course" / "source" / "replanning" / "replanning.ipynb").read_text())
    solutions = {c["metadata"]["nbgrader"]["grade_id"]: c["source"] for c in source["cells"]
                 if c["metadata"].get("nbgrader", {}).get("solution")}
    for cell in release.cells:
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
        if grade_id in ("binary_heap", "repeated_astar"):
            cell.source = "\n".join(line for line in solutions[grade_id].splitlines()
                                    if "### BEGIN SOLUTION" not in line and "### END SOLUTION" not in line)
    NotebookClient(release, timeout=600, allow_errors=True, resources={"metadata": {"path": str(copy)}}).execute()
    points = {}
    for cell in release.cells:
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id", "")
        if grade_id.startswith("test_"):
            results = [o for o in cell.outputs if o.output_type == "execute_result"]
            assert results and not [o for o in cell.outputs if o.output_type == "error"], grade_id
            points[grade_id] = float(results[-1]["data"]["text/plain"])
            assert cell.metadata["nbgrader"]["points"] == points[grade_id]
    assert len(points) == 7
