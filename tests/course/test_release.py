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

REPO = Path(__file__).resolve().parents[2]


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
    """Built with only the system's folders on PATH (the kit's venv not activated), from elsewhere."""
    pytest.importorskip("nbgrader")
    out = tmp_path_factory.mktemp("release") / "bundle"
    environment = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    environment["PATH"] = "/usr/bin:/bin"
    result = subprocess.run([sys.executable, "-m", "reference.cli", "release", "--out", str(out)],
                            capture_output=True, text=True, cwd=out.parent, env=environment)
    assert result.returncode == 0, result.stderr
    assert [p.name for p in out.parent.iterdir()] == ["bundle"]  # no temporary folder left beside it
    return out


def test_bundle_has_what_a_student_needs(bundle: Path) -> None:
    for needed in ("starter/heap.py", "starter/replanning.py", "starter/README.md", "reference/world/grid.py",
                   "reference/world/sensing.py", "reference/world/trace.py", "replanning.ipynb",
                   "mazes/maze_00.map", "mazes/maze_49.map", "mazes/mazes.scen", "self_check.py",
                   "requirements.txt", "README.md", "course/rubric.toml", "CONTRACT.md",
                   "mazes/handout/example1.map", "mazes/handout/example1.scen", "mazes/handout/mazes.scen"):
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
                      "make_source.py", "grading_guards.py", "nbgrader_config.py", "kernel_sandbox.py",
                      "batch.py", "export.py", "gradescope.py", "similarity.py", "similarity_page.py"):
        assert forbidden not in names
    answer_key = REPO / "course" / "answer_key.md"
    if answer_key.exists():
        key_lines = {line.strip() for line in answer_key.read_text().splitlines() if len(line.strip()) >= 40}
        for relative, text in _bundle_files(bundle).items():
            assert not {line.strip() for line in text.splitlines()} & key_lines, f"{relative} quotes the answer key"


def test_the_bundle_ships_part_one_of_the_contract_and_says_python3(bundle: Path) -> None:
    contract = (bundle / "CONTRACT.md").read_text()
    assert contract.startswith("# The kit's contract") and "## 11. What a student writes" in contract
    assert "# Part II" not in contract and "## 12." not in contract  # the advanced modules stay out
    readme = (bundle / "README.md").read_text()
    assert "CONTRACT.md" in readme and "Python 3.10" in readme
    commands = [line.strip() for line in readme.splitlines() if "self_check.py" in line or "-m venv" in line]
    assert commands and all(c.startswith("python3 ") for c in commands), commands
    assert "SPEC.md" not in readme + (bundle / "starter" / "README.md").read_text()  # a file no bundle has


def _self_check(bundle: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "self_check.py", *args], cwd=bundle, capture_output=True, text=True,
                          timeout=600)


@pytest.mark.parametrize("make, expected", [
    (lambda tmp: tmp / "nowhere", "no such file or folder"),
    (lambda tmp: tmp, "found neither heap.py"),
    (lambda tmp: (tmp / "mine.ipynb").write_text("this is not JSON") and tmp / "mine.ipynb", "not a readable notebook"),
], ids=["missing path", "empty folder", "not JSON"])
def test_self_check_says_in_one_line_what_is_not_a_submission(bundle: Path, tmp_path: Path, make, expected) -> None:
    """Like ``ftr check``: one line on stderr naming the problem, exit code 2, no traceback."""
    result = _self_check(bundle, str(make(tmp_path)))
    assert result.returncode == 2, result.stderr
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("self_check: error: ")
    assert expected in result.stderr and not result.stdout


def test_self_check_exit_status_is_0_at_full_marks_and_1_below(bundle: Path, tmp_path: Path) -> None:
    """With a one-check rubric (FTR_RUBRIC) so that it runs in seconds: the reference's heap earns all
    8 points (exit 0), the untouched starter none (exit 1)."""
    from autograder.export import export_solution

    rubric = tmp_path / "rubric.toml"
    rubric.write_text("[autograded]\nheap = 8\n")
    environment = {**os.environ, "FTR_RUBRIC": str(rubric)}
    solution = export_solution(tmp_path / "solution")
    for submission, status, total in ((solution, 0, "Total: 8 / 8"), (bundle / "starter", 1, "Total: 0 / 8")):
        result = subprocess.run([sys.executable, "self_check.py", str(submission)], cwd=bundle, capture_output=True,
                                text=True, timeout=600, env=environment)
        assert result.returncode == status, result.stdout + result.stderr
        assert total in result.stdout


def test_self_check_without_an_argument_prints_its_usage(bundle: Path) -> None:
    result = _self_check(bundle)
    assert result.returncode == 2 and result.stderr.startswith("usage: python3 self_check.py")


def test_self_check_on_an_old_python_says_so_in_one_line(bundle: Path) -> None:
    """Python 3.9 is not installed here: the check runs with ``sys.version_info`` set back to 3.9."""
    script = ("import sys; sys.version_info = (3, 9, 7, 'final', 0); sys.argv = ['self_check.py', 'starter']; "
              "exec(compile(open('self_check.py').read(), 'self_check.py', 'exec'), {'__name__': '__main__'})")
    result = subprocess.run([sys.executable, "-c", script], cwd=bundle, capture_output=True, text=True)
    assert result.returncode == 2  # nothing was checked: not the status of a submission below full marks
    assert result.stderr.strip().splitlines() == [result.stderr.strip()]
    assert "needs Python 3.10 or newer" in result.stderr and "Traceback" not in result.stderr


#: Standard-library modules and names that Python 3.10 does not have (new in 3.11-3.13).
NEWER_MODULES = {"tomllib", "wsgiref.types"}
NEWER_NAMES = {("typing", "Self"), ("typing", "LiteralString"), ("typing", "Never"), ("typing", "assert_never"),
               ("typing", "reveal_type"), ("typing", "TypeVarTuple"), ("typing", "Unpack"), ("typing", "Required"),
               ("typing", "NotRequired"), ("typing", "override"), ("enum", "StrEnum"), ("datetime", "UTC"),
               ("hashlib", "file_digest"), ("contextlib", "chdir"), ("itertools", "batched")}


def _imports_without_fallback(tree: ast.AST) -> list[str]:
    """Imports of 3.11+ modules or names that no ``try: ... except ImportError`` guards."""
    guarded: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Try) and any(
                isinstance(h.type, ast.Name) and h.type.id in ("ImportError", "ModuleNotFoundError")
                or isinstance(h.type, ast.Tuple) and {getattr(e, "id", "") for e in h.type.elts}
                & {"ImportError", "ModuleNotFoundError"} for h in node.handlers):
            guarded.update(id(inner) for statement in node.body for inner in ast.walk(statement))
    found = []
    for node in ast.walk(tree):
        if id(node) in guarded:
            continue
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names if alias.name in NEWER_MODULES]
        elif isinstance(node, ast.ImportFrom) and node.module:
            if node.module in NEWER_MODULES:
                found.append(node.module)
            found += [f"{node.module}.{a.name}" for a in node.names if (node.module, a.name) in NEWER_NAMES]
    return found


def test_every_bundle_module_is_python_3_10(bundle: Path) -> None:
    """Python 3.10 is not installable here, so: every .py of the bundle parses with 3.10's grammar, and
    none imports a standard-library module or name newer than 3.10 without an ImportError fallback."""
    modules = sorted(bundle.rglob("*.py"))
    assert len(modules) > 20
    offenders = {}
    for module in modules:
        source = module.read_text(encoding="utf-8")
        tree = ast.parse(source, filename=str(module), feature_version=(3, 10))  # SyntaxError: newer syntax
        newer = _imports_without_fallback(tree)
        if newer:
            offenders[str(module.relative_to(bundle))] = newer
    assert _imports_without_fallback(ast.parse("import tomllib")) == ["tomllib"]  # the probe itself works
    assert not _imports_without_fallback(ast.parse(
        "try:\n    import tomllib\nexcept ModuleNotFoundError:\n    import tomli as tomllib"))
    if offenders and all(path.startswith("autograder/") for path in offenders):
        pytest.xfail(f"3.11-only imports in the autograder (its tomli fallback is being added there): {offenders}")
    assert not offenders, offenders


def test_a_failed_build_leaves_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A kit whose contract document is missing fails late, after nbgrader ran and most files were
    written: neither the bundle folder nor the temporary one remains."""
    pytest.importorskip("nbgrader")
    from reference.cli import release

    kit = tmp_path / "kit"
    ignore = shutil.ignore_patterns("__pycache__", "release", "submitted", "autograded", "feedback", "gradebook.db")
    for part in ("starter", "reference/world", "autograder", "mazes", "course"):
        shutil.copytree(REPO / part, kit / part, ignore=ignore)
    shutil.copy(REPO / "reference" / "__init__.py", kit / "reference")
    monkeypatch.setattr(release, "KIT_ROOT", kit)  # no docs/contract.md in it
    out = tmp_path / "place" / "bundle"
    with pytest.raises(FileNotFoundError):
        release.build_bundle(out)
    assert list((tmp_path / "place").iterdir()) == []


def test_release_refuses_a_folder_that_is_not_empty(tmp_path: Path) -> None:
    (tmp_path / "something.txt").write_text("keep me")
    result = subprocess.run([sys.executable, "-m", "reference.cli", "release", "--out", str(tmp_path)],
                            capture_output=True, text=True, cwd=REPO)
    assert result.returncode == 2
    assert "not an empty folder" in result.stderr and "Traceback" not in result.stderr
    assert (tmp_path / "something.txt").read_text() == "keep me"


@pytest.mark.slow
def test_bundle_works_alone_in_a_fresh_virtual_environment(bundle: Path, tmp_path: Path) -> None:
    """The bundle README's install (python -m venv; pip install -r requirements.txt), then the self-check:
    on the untouched starter 0 points (exit 1), on the reference solution copied into starter/ full
    marks (exit 0)."""
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
    assert check.returncode == 1, check.stderr  # below full marks
    assert "Total: 0 / 60" in check.stdout
    assert "NotImplementedError" in check.stdout and "TODO" in check.stdout  # a useful message per check
    assert str(REPO) not in check.stdout + check.stderr

    from autograder.export import export_solution

    for file in export_solution(tmp_path / "solution").glob("*.py"):
        shutil.copy(file, copy / "starter" / file.name)
    solved = subprocess.run([str(python), "self_check.py", "starter/"], cwd=copy, capture_output=True, text=True,
                            env=environment, timeout=900)
    assert solved.returncode == 0, solved.stdout[-3000:] + solved.stderr[-3000:]
    assert "Total: 60 / 60" in solved.stdout


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


def _pythons_without_numpy() -> list[list[str]]:
    """Interpreters here that lack NumPy (pyenv's 3.10, 3.12, 3.13 on the kit's machine), at most two, and
    on every machine this one without its site-packages (``-S``: no NumPy either), as command lines."""
    found = []
    for candidate in sorted(Path("/root/.pyenv/versions").glob("3.1[0-9]*/bin/python3")) if os.access(
            "/root/.pyenv/versions", os.R_OK) else []:
        if subprocess.run([str(candidate), "-I", "-c", "import numpy"], capture_output=True).returncode != 0:
            found.append([str(candidate), "-I"])
    return found[:2] + [[sys.executable, "-I", "-S"]]


def test_self_check_outside_its_venv_says_how_to_run_it_in_one_line(bundle: Path) -> None:
    for python in _pythons_without_numpy():
        result = subprocess.run([*python, "self_check.py", "starter"], cwd=bundle, capture_output=True, text=True)
        assert result.returncode == 2, result.stderr
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
        assert "has no numpy" in lines[0] and ".venv/bin/activate" in lines[0]


def test_the_bundle_ships_the_player_and_its_readme_says_how_to_use_it(bundle: Path, tmp_path: Path) -> None:
    """The player's page is written from the bundle's own reference.world (not the kit's)."""
    assert (bundle / "reference" / "world" / "player.html").is_file()
    assert "write_player" in (bundle / "README.md").read_text()
    script = ("import sys, reference.world.player as player\n"
              "from reference.world.grid import Gridworld\n"
              "from reference.world.trace import SearchRecord, Trace\n"
              "grid = Gridworld.from_strings(['...', '.@.'])\n"
              "trace = Trace('forward', 'larger_g', True, [(1, 0), (0, 0), (0, 1), (0, 2), (1, 2)],\n"
              "              [SearchRecord((1, 0), (1, 2), [(1, 0), (0, 0), (0, 1), (0, 2)],\n"
              "                            [(1, 0), (0, 0), (0, 1), (0, 2), (1, 2)])])\n"
              f"player.write_player(grid, trace, {str(tmp_path / 'run.html')!r})\n"
              "print(player.__file__)\n")
    environment = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    result = subprocess.run([sys.executable, "-c", script], cwd=bundle, capture_output=True, text=True,
                            env={**environment, "PYTHONPATH": str(bundle)})
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip().startswith(str(bundle))
    page = (tmp_path / "run.html").read_text()
    assert page.startswith("<!DOCTYPE html>") or "<html" in page[:500]
