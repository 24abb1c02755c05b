"""The kit runs on Python 3.10 to 3.13 (pyproject.toml: requires-python >= 3.10).

Default run, quick: every tracked .py of the repository is compiled by each of pyenv's 3.10, 3.12
and 3.13 that is installed here (their real grammar, in one process each, nothing written), and
none imports a standard-library module or name newer than 3.10 without an ImportError fallback.

Slow, per version present: a fresh venv, ``pip install`` of the kit from a copy of the checkout
(its dependencies from the index or pip's cache); the core tests with that interpreter in the copy;
then, far from the checkout, a short job: ``ftr run --standard`` (the compiled twin), a short
``ftr experiment``, ``ftr solution export`` and ``ftr check`` on it (full marks; as root only where
the sandbox's uids can reach the interpreter: pyenv's under /root they cannot, and the test says
so). Versions absent here are skipped with their path.
"""

from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PYENV = Path(os.environ.get("PYENV_ROOT", "/root/.pyenv")) / "versions"
VERSIONS = ("3.10.13", "3.12.1", "3.13.0")


def _tracked_python_files() -> list[Path]:
    listed = subprocess.run(["git", "ls-files", "*.py"], cwd=REPO, capture_output=True, text=True)
    if listed.returncode == 0 and listed.stdout.strip():
        return [REPO / name for name in listed.stdout.split()]
    return [p for p in REPO.rglob("*.py") if ".venv" not in p.parts and "build" not in p.parts]


def _interpreter(version: str) -> Path:
    python = PYENV / version / "bin" / f"python{version.rsplit('.', 1)[0]}"
    if not python.exists():
        pytest.skip(f"Python {version} is not installed here ({python})")
    return python


#: Compiles every file named on stdin with the running interpreter's own grammar; prints the failures.
COMPILE_ALL = """
import json, sys
failures = {}
for name in sys.stdin.read().split():
    try:
        compile(open(name, encoding="utf-8").read(), name, "exec", dont_inherit=True)
    except SyntaxError as error:
        failures[name] = f"line {error.lineno}: {error.msg}"
print(json.dumps(failures))
"""


@pytest.mark.parametrize("version", VERSIONS)
def test_every_file_compiles_with_python(version: str) -> None:
    python = _interpreter(version)
    files = _tracked_python_files()
    assert len(files) > 100
    result = subprocess.run([str(python), "-I", "-c", COMPILE_ALL], input="\n".join(map(str, files)),
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {}


def test_nothing_imports_what_python_3_10_lacks() -> None:
    """tomllib, typing.Self, datetime.UTC, ...: only behind an ImportError fallback (tomli for tomllib)."""
    from tests.course.test_release import _imports_without_fallback

    offenders = {}
    for module in _tracked_python_files():
        newer = _imports_without_fallback(ast.parse(module.read_text(encoding="utf-8"), filename=str(module)))
        if newer:
            offenders[str(module.relative_to(REPO))] = newer
    assert not offenders, offenders


@pytest.mark.slow
@pytest.mark.parametrize("version", VERSIONS)
def test_a_fresh_venv_installs_the_kit_and_runs_a_short_job(version: str, tmp_path: Path, capsys) -> None:
    """Several minutes per version the first time (NumPy, SciPy, Numba, ... from the index)."""
    from tests.autograder.test_gradescope import unreachable_for_other_users
    from tests.test_wheel import NOT_SOURCE, _pip_failed_offline

    python = _interpreter(version)
    source = tmp_path / "source"
    shutil.copytree(REPO, source, ignore=NOT_SOURCE)
    venv = tmp_path / "venv"
    subprocess.run([str(python), "-m", "venv", str(venv)], check=True)
    installed = subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "-q", f"{source}[test]"],
                               capture_output=True, text=True, timeout=3600)
    if _pip_failed_offline(installed):
        pytest.skip(f"pip cannot reach a package index for Python {version}'s wheels")
    assert installed.returncode == 0, installed.stderr[-3000:]
    away = tmp_path / "elsewhere"  # the installed kit, far from any checkout
    away.mkdir()
    environment = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "FTR_MAZES", "FTR_RUBRIC")}
    environment.update(HOME=str(tmp_path / "home"), XDG_CONFIG_HOME=str(tmp_path / "config"))
    ftr = str(venv / "bin" / "ftr")

    def run(*command: str) -> subprocess.CompletedProcess:
        result = subprocess.run(list(command), cwd=away, capture_output=True, text=True, env=environment,
                                timeout=1800)
        assert result.returncode == 0, f"{command}: {result.stderr[-3000:]}"
        return result

    table = run(ftr, "run", "--standard", "--algorithm", "adaptive").stdout
    assert "maze_49" in table and "total:" in table
    run(ftr, "experiment", "--limit", "3", "--no-plots", "--out", "results")
    # The core tests, with this interpreter, in the copy of the checkout (they read its files).
    units = subprocess.run([str(venv / "bin" / "python"), "-m", "pytest", "-q", "-p", "no:cacheprovider", "-m",
                            "not slow", "tests/autograder/test_autograder_units.py", "tests/solutions/test_replanning_examples.py"],
                           cwd=source, capture_output=True, text=True, env=environment, timeout=1800)
    assert units.returncode == 0 and " passed" in units.stdout, units.stdout[-3000:]
    run(ftr, "solution", "export", "solution")
    closed = unreachable_for_other_users(python) if os.geteuid() == 0 else None
    if closed is None:  # as root the sandbox runs children as uids of their own: they must reach the interpreter
        assert "Total: 60 / 60" in run(ftr, "check", "solution").stdout
    else:
        with capsys.disabled():
            print(f"\n    Python {version}: ftr check not run: {python} is inside {closed}, closed to the "
                  "sandbox's uids")
