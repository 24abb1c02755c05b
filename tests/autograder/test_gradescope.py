"""The Gradescope zip, run as Gradescope runs it: setup.sh for real, then run_autograder.

A real ``/autograder`` layout in a temporary root (``FTR_AUTOGRADER_ROOT``): the zip unpacked into
``source/``, ``setup.sh`` run verbatim with a plain PATH, so that it finds the machine's own
``python3``, makes a real venv and pip-installs what grading needs (from the index, or pip's
cache); nothing of the test's interpreter is used. Then ``run_autograder`` on the exported reference
solution (full marks, hidden tests included) and on the untouched starter (0). The venv has no
Numba, so a grading step that imported it would fail: the hidden instances' expected runs come
from the zip.

The slow test does the same with pyenv's Python 3.10 as the image's ``python3`` (Ubuntu 22.04,
Gradescope's usual base, has 3.10).
"""

from __future__ import annotations

import ast
import gzip
import json
import os
import shutil
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest

from autograder.export import export_solution

REPO = Path(__file__).resolve().parents[2]
SEED = 24680
PYENV = Path("/root/.pyenv/versions")


def _build(tmp_path: Path) -> Path:
    out = tmp_path / "autograder.zip"
    environment = {**os.environ, "FTR_SECRET_SEED": str(SEED)}
    built = subprocess.run([sys.executable, "-m", "reference.cli", "gradescope", "build", "--out", str(out)],
                           capture_output=True, text=True, env=environment, timeout=600)
    assert built.returncode == 0, built.stderr
    return out


def _unpacked(archive: Path, root: Path) -> Path:
    """Gradescope's tree: the zip in root/source, run_autograder copied to root/."""
    (root / "submission").mkdir(parents=True)
    with zipfile.ZipFile(archive) as opened:
        opened.extractall(root / "source")
    shutil.copy(root / "source" / "run_autograder", root / "run_autograder")
    (root / "run_autograder").chmod(0o755)
    return root


def _plain_environment(root: Path, path: str = "/usr/local/bin:/usr/bin:/bin") -> dict:
    """What a fresh container has: a plain PATH (no venv, no pyenv shims), no kit variables; pip's own
    settings (index, cache) kept."""
    environment = {"PATH": path, "HOME": str(root / "home"), "LANG": "C.UTF-8", "FTR_AUTOGRADER_ROOT": str(root)}
    environment.update({k: v for k, v in os.environ.items() if k.startswith("PIP_")})
    return environment


def _setup(root: Path, environment: dict) -> tuple[subprocess.CompletedProcess, float]:
    began = time.monotonic()
    result = subprocess.run(["bash", "./setup.sh"], cwd=root / "source", env=environment, capture_output=True,
                            text=True, timeout=1200)
    seconds = time.monotonic() - began
    text = result.stdout + result.stderr
    if result.returncode != 0 and ("Could not find a version" in text or "No matching distribution" in text):
        pytest.skip("pip cannot reach a package index for NumPy")
    assert result.returncode == 0, text[-3000:]
    return result, seconds


def _grade(root: Path, submission: Path, environment: dict) -> tuple[dict, float]:
    target = root / "submission"
    shutil.rmtree(target)
    shutil.copytree(submission, target)
    began = time.monotonic()
    result = subprocess.run([str(root / "run_autograder")], cwd=root, env=environment, capture_output=True,
                            text=True, timeout=1200)
    seconds = time.monotonic() - began
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads((root / "results" / "results.json").read_text()), seconds


def _gradescope_round(tmp_path: Path, environment_path: str) -> str:
    """Build, set up, grade the solution (full marks), the starter (0) and a student whose heap breaks
    the remaining ties its own way (the tie credit, from the grader's readable screen: no Numba
    here); the timings, as a line."""
    root = _unpacked(_build(tmp_path), tmp_path / "autograder")
    environment = _plain_environment(root, environment_path)
    setup, setup_seconds = _setup(root, environment)
    venv_python = root / "venv" / "bin" / "python"
    assert venv_python.exists()
    assert subprocess.run([str(venv_python), "-c", "import numba"], capture_output=True).returncode != 0
    assert subprocess.run([str(venv_python), "-c", "import scipy"], capture_output=True).returncode != 0
    for private in ("secret_seed.txt", "expected_hidden.json.gz"):
        assert (root / "source" / private).stat().st_mode & 0o777 == 0o600
    assert (root / "source").stat().st_mode & 0o777 == 0o700

    results, solution_seconds = _grade(root, export_solution(tmp_path / "solution"), environment)
    assert results["score"] == 65, results["output"]  # 60 autograded + 5 extra credit
    tests = results["tests"]
    assert all(t["score"] == t["max_score"] for t in tests if t["max_score"]), json.dumps(tests, indent=1)[:3000]
    hidden = [t for t in tests if t["visibility"] == "after_due_date"]
    assert hidden and all("hidden" in t["name"] for t in hidden)
    starter, starter_seconds = _grade(root, REPO / "starter", environment)
    assert starter["score"] == 0 and all(t["score"] == 0 for t in starter["tests"])
    # a heapq of (f, -g, row, col): every run replayed; 49 of 60 as tests/submissions/styles/EXPECTED.toml
    # declares (the efficiency and heap points in full, the tie credit in every search check)
    ties, ties_seconds = _grade(root, REPO / "tests" / "submissions" / "styles" / "heapq_tuples", environment)
    assert ties["score"] == 49, ties["output"]
    assert all("remaining ties" in t["output"] for t in ties["tests"] if t["score"] < t["max_score"]), ties["tests"]
    version = subprocess.run([str(venv_python), "--version"], capture_output=True, text=True).stdout.strip()
    return (f"{version}: setup.sh {setup_seconds:.1f} s, run_autograder {solution_seconds:.1f} s on the "
            f"solution, {starter_seconds:.1f} s on the starter, {ties_seconds:.1f} s on a heap-order student")


def test_setup_sh_builds_its_own_venv_and_grades_without_numba(tmp_path: Path, capsys) -> None:
    """About 30 s here: setup.sh with the machine's python3 (pip from its cache), two submissions."""
    timing = _gradescope_round(tmp_path, "/usr/local/bin:/usr/bin:/bin")
    with capsys.disabled():
        print(f"\n    Gradescope emulated: {timing}")


def unreachable_for_other_users(path: Path) -> Path | None:
    """The first folder on the way to ``path`` (resolved) that other users cannot enter, or None. The
    sandbox runs student code as uids of its own, which must be able to run the interpreter."""
    for folder in reversed(path.resolve().parents):
        if not folder.stat().st_mode & 0o001:
            return folder
    return None


@pytest.mark.slow
def test_setup_sh_on_python_3_10(tmp_path: Path, capsys) -> None:
    """The image's python3 is 3.10 (Ubuntu 22.04): pyenv's 3.10 first on a PATH of its own."""
    python = PYENV / "3.10.13" / "bin" / "python3.10"
    if not python.exists():
        pytest.skip(f"no {python}")
    closed = unreachable_for_other_users(python)
    if closed is not None:  # an image's python3 is in /usr/bin
        pytest.skip(f"{python} is inside {closed} (mode {closed.stat().st_mode & 0o777:o}), which the sandbox's uids "
                    "cannot enter")
    bin_dir = tmp_path / "image-bin"
    bin_dir.mkdir()
    (bin_dir / "python3").symlink_to(python)
    timing = _gradescope_round(tmp_path, f"{bin_dir}:/usr/local/bin:/usr/bin:/bin")
    assert timing.startswith("Python 3.10"), timing
    with capsys.disabled():
        print(f"\n    Gradescope emulated: {timing}")


def test_setup_sh_refuses_a_python_older_than_3_10_in_one_line(tmp_path: Path) -> None:
    """An image whose only python3 is 3.9 and that has no apt-get: setup.sh stops, saying what to choose."""
    old = PYENV / "3.9.18" / "bin" / "python3.9"
    if not old.exists():
        pytest.skip(f"no {old}")
    root = tmp_path / "autograder"
    (root / "source").mkdir(parents=True)
    from autograder.gradescope import setup_script

    (root / "source" / "setup.sh").write_text(setup_script())
    bin_dir = tmp_path / "image-bin"  # python3 (3.9) and the few tools setup.sh uses; no apt-get
    bin_dir.mkdir()
    (bin_dir / "python3").symlink_to(old)
    for tool in ("rm", "id", "chmod"):
        (bin_dir / tool).symlink_to(shutil.which(tool))
    result = subprocess.run(["/bin/bash", "./setup.sh"], cwd=root / "source", capture_output=True, text=True,
                            env={"PATH": str(bin_dir), "FTR_AUTOGRADER_ROOT": str(root)}, timeout=60)
    assert result.returncode == 1
    errors = [line for line in result.stderr.splitlines() if "error" in line]
    assert len(errors) == 1 and "Python 3.10 or newer" in errors[0] and "3.9" in errors[0], result.stderr
    assert not (root / "venv").exists()


def test_the_zip_ships_the_hidden_expectations_and_nothing_that_needs_a_compiler(tmp_path: Path) -> None:
    """The expected runs in the zip (computed by the build, with the compiled twin where Numba is
    installed) equal the readable reference's runs on the hidden instances of the same seed; no module
    in the zip imports Numba, SciPy, Matplotlib or scikit-learn."""
    from autograder.expected import SETTINGS, compute_expected, fingerprint
    from autograder.instances import hidden_instances

    built = _build(tmp_path)
    assert built.stat().st_mode & 0o777 == 0o600  # the zip holds the seed: its owner's only
    archive = zipfile.ZipFile(built)
    names = archive.namelist()
    modes = {info.filename: (info.external_attr >> 16) & 0o777 for info in archive.infolist()}
    assert modes["secret_seed.txt"] == modes["expected_hidden.json.gz"] == 0o600
    assert archive.read("secret_seed.txt").decode().strip() == str(SEED)
    shipped = json.loads(gzip.decompress(archive.read("expected_hidden.json.gz")))
    instances = hidden_instances(SEED)
    assert set(shipped) == {fingerprint(instance) for instance in instances}
    for instance in instances:
        for check_id in SETTINGS:
            readable = compute_expected(instance, check_id, engine="python")
            assert shipped[fingerprint(instance)][check_id] == readable.__dict__, (instance.name, check_id)

    heavy = ("numba", "scipy", "matplotlib", "sklearn")
    for name in names:
        if not name.endswith(".py"):
            continue
        for node in ast.walk(ast.parse(archive.read(name), filename=name)):
            modules = ([alias.name for alias in node.names] if isinstance(node, ast.Import)
                       else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            assert not [m for m in modules if m.split(".")[0] in heavy], (name, modules)
    assert not [n for n in names if n.startswith(("reference/solutions/compiled", "reference/experiments",
                                                  "reference/cli"))]
    assert "pyproject.toml" not in names  # the zip is built from the installed packages, not the checkout


def test_grading_requirements_agree_with_pyproject() -> None:
    """setup.sh installs GRADING_REQUIREMENTS: the same pins as the kit's own dependencies."""
    from autograder.gradescope import GRADING_REQUIREMENTS, setup_script
    from autograder.rubric import _toml_loader

    def normal(requirement: str) -> str:
        return requirement.replace(" ", "").replace('"', "'")

    declared = {normal(r) for r in _toml_loader().loads((REPO / "pyproject.toml").read_text())["project"]["dependencies"]}
    assert {normal(r) for r in GRADING_REQUIREMENTS} <= declared
    assert {r.split(">")[0] for r in GRADING_REQUIREMENTS} == {"numpy", "tqdm", "tomli"}
    setup = setup_script()
    assert "numba" not in setup.lower() and "scipy" not in setup and "matplotlib" not in setup
