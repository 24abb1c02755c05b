"""A built wheel works outside the checkout: its data (mazes, the handout's examples, the rubric, the
expected results) travel as package data, found through ``reference.world.kitdata``.

The wheel is built once per module with pip from a copy of the repository's files (so no stale
``build/`` folder of the checkout can slip into it). The default run imports the kit from the
unpacked wheel, in a folder far from the checkout, with the test venv's NumPy/SciPy/Matplotlib;
the slow test installs it into a fresh venv of its own, as a user would.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
NOT_SOURCE = shutil.ignore_patterns(".git", ".venv", "build", "dist", "*.egg-info", "__pycache__", "results",
                                    ".pytest_cache", ".hypothesis", ".benchmarks", "release", "submitted",
                                    "autograded", "feedback", "gradebook.db", "secret_seed.txt")


def _pip_failed_offline(result: subprocess.CompletedProcess) -> bool:
    text = result.stdout + result.stderr
    return result.returncode != 0 and ("Could not find a version" in text or "No matching distribution" in text)


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    work = tmp_path_factory.mktemp("wheel")
    source = work / "source"
    shutil.copytree(REPO, source, ignore=NOT_SOURCE)
    result = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(work / "dist"),
                             str(source)], capture_output=True, text=True, timeout=600)
    if _pip_failed_offline(result):
        pytest.skip("pip cannot reach an index for the build backend (setuptools)")
    assert result.returncode == 0, result.stderr[-3000:]
    (built,) = (work / "dist").glob("ftr_kit-*.whl")
    return built


@pytest.fixture(scope="module")
def site(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel unpacked once for the module's two unpacked-wheel tests. Shared, the second test loads
    the compiled twin from the Numba cache the first one wrote in ``site`` (a cold compile in each of
    two folders cost about 20 CPU s more); the first still compiles it cold, from the wheel's files."""
    folder = tmp_path_factory.mktemp("unpacked") / "site"
    zipfile.ZipFile(wheel).extractall(folder)
    return folder


def test_the_package_list_names_every_package() -> None:
    """pyproject.toml lists the packages by hand (it maps data folders into the wheel); a new package
    left out of the list would be missing from every wheel."""
    from autograder.rubric import _toml_loader  # tomllib, or tomli on Python 3.10

    declared = set(_toml_loader().loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    on_disk = {".".join(p.parent.relative_to(REPO).parts) for top in ("reference", "autograder")
               for p in (REPO / top).rglob("__init__.py")}
    assert on_disk <= declared, f"add to [tool.setuptools] packages: {sorted(on_disk - declared)}"


def test_the_wheel_carries_the_kits_data(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    data = "reference/world/_data/"
    for number in (0, 49):
        assert f"{data}mazes/maze_{number:02d}.map" in names
    for needed in ("mazes/mazes.scen", "mazes/handout/example1.map", "mazes/handout/example3.scen",
                   "mazes/handout/mazes.scen", "mazes/handmade/mazes.scen", "mazes/handmade/target_walled_in.map",
                   "course/rubric.toml", "course/handout/handout.md"):
        assert data + needed in names, needed
    assert "autograder/data/expected_public.json.gz" in names
    assert "reference/solutions/replanning.py" in names
    # Only data is mapped in from course/: none of its scripts, nothing instructor-only.
    assert not [n for n in names if n.startswith(data) and n.endswith(".py")]
    assert not [n for n in names if "answer_key" in n or "INSTRUCTOR" in n or "secret_seed" in n]


def _ftr(python: Path | str, cwd: Path, *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([str(python), "-c", "import sys; from reference.cli import main; sys.exit(main())", *args],
                          cwd=cwd, capture_output=True, text=True, timeout=600, env=env)


def _use_the_wheel(python: Path | str, away: Path, env: dict, submission: Path) -> None:
    """ftr experiment, ftr check, ftr grade in ``away``, with the kit that ``python`` imports."""
    where = subprocess.run([str(python), "-c", "import reference.world.instances as m, reference.world.kitdata as k; "
                            "print(m.standard_mazes_dir()); print(k.kit_path('course', 'rubric.toml'))"],
                           cwd=away, capture_output=True, text=True, env=env, check=True)
    mazes, rubric = where.stdout.split()
    assert str(REPO) not in mazes and Path(mazes).name == "mazes" and "_data" in mazes
    assert Path(rubric).is_file() and str(REPO) not in rubric

    experiment = _ftr(python, away, "experiment", "--limit", "2", "--no-plots", "--out", str(away / "results"), env=env)
    assert experiment.returncode == 0, experiment.stderr[-3000:]
    assert "forward/larger_g vs adaptive/larger_g" in experiment.stdout
    assert (away / "results" / "summary.md").is_file()

    drawn = _ftr(python, away, "draw", f"{Path(mazes) / 'handout' / 'example1.map'}", "--start", "4,2",
                 "--target", "4,4", "--search", "1", "--out", str(away / "fig.png"), env=env)
    assert drawn.returncode == 0, drawn.stderr[-3000:]

    check = _ftr(python, away, "check", str(submission), env=env)
    assert check.returncode == 0, check.stderr[-3000:]
    assert "Total: 60 / 60" in check.stdout
    grade = _ftr(python, away, "grade", str(submission), "--json", str(away / "report.json"), env=env)
    assert grade.returncode == 0, grade.stderr[-3000:]
    assert "Total: 60 / 60" in grade.stdout and (away / "report.json").is_file()
    assert str(REPO) not in check.stdout + grade.stdout


def _instructor_commands(python: Path | str, away: Path, env: dict, site: Path) -> None:
    """Every instructor command, run in ``away`` with the kit ``python`` imports from ``site``: it works, or
    refuses in one line; the secret seed goes to the user's config folder; nothing is written into ``site``
    (``__pycache__`` aside: Python's and Numba's caches)."""
    def files() -> set[Path]:
        return {p for p in site.rglob("*") if "__pycache__" not in p.parts}

    before = files()
    config = Path(env["XDG_CONFIG_HOME"])
    mazes = _ftr(python, away, "mazes", "path", env=env)
    assert mazes.returncode == 0, mazes.stderr
    folder = Path(mazes.stdout.strip())
    assert (folder / "mazes.scen").is_file() and (folder / "maze_49.map").is_file() and str(site) in str(folder)
    drawn = _ftr(python, away, "draw", "--standard", "--maze", "7", "--algorithm", "adaptive", "--search", "2",
                 "--out", str(away / "maze7.png"), env=env)
    assert drawn.returncode == 0, drawn.stderr[-3000:]
    assert (away / "maze7.png").read_bytes()[:4] == b"\x89PNG"

    no_seed = _ftr(python, away, "gradescope", "build", "--out", str(away / "autograder.zip"), env=env)
    assert no_seed.returncode == 2 and no_seed.stderr.count("\n") == 1 and "ftr secret-seed" in no_seed.stderr
    seed = _ftr(python, away, "secret-seed", env=env)
    assert seed.returncode == 0, seed.stderr
    seed_file = config / "ftr-kit" / "secret_seed.txt"
    assert str(seed_file) in seed.stdout and seed_file.stat().st_mode & 0o777 == 0o600
    built = _ftr(python, away, "gradescope", "build", "--out", str(away / "autograder.zip"), env=env)
    assert built.returncode == 0, built.stderr[-3000:]
    names = set(zipfile.ZipFile(away / "autograder.zip").namelist())
    assert {"setup.sh", "run_autograder", "secret_seed.txt", "expected_hidden.json.gz", "course/rubric.toml",
            "mazes/mazes.scen", "mazes/handout/example1.map", "autograder/grader.py",
            "reference/solutions/replanning.py"} <= names
    assert not [n for n in names if n.startswith("reference/world/_data")]

    exported = _ftr(python, away, "solution", "export", str(away / "solution"), env=env)
    assert exported.returncode == 0 and (away / "solution" / "replanning.py").is_file(), exported.stderr
    generated = _ftr(python, away, "mazes", "generate", str(away / "two"), "--count", "2", env=env)
    assert generated.returncode == 0 and (away / "two" / "mazes.scen").is_file(), generated.stderr
    release = _ftr(python, away, "release", "--out", str(away / "bundle"), env=env)
    assert release.returncode == 2 and release.stderr.count("\n") == 1, release.stderr
    assert "source checkout" in release.stderr and not (away / "bundle").exists()
    assert files() == before, sorted(map(str, files() ^ before))


def _environment(**extra: str) -> dict:
    environment = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "FTR_MAZES", "FTR_RUBRIC")}
    environment.update(extra)
    return environment


def test_the_unpacked_wheel_runs_experiment_check_and_grade(site: Path, tmp_path: Path) -> None:
    """The kit imported from the unpacked wheel (first on sys.path, before the editable checkout)."""
    from autograder.export import export_solution

    away = tmp_path / "elsewhere"
    away.mkdir()
    submission = export_solution(tmp_path / "student")
    environment = _environment(PYTHONPATH=str(site))
    imported = subprocess.run([sys.executable, "-c", "import reference; print(reference.__file__)"], cwd=away,
                              capture_output=True, text=True, env=environment, check=True)
    assert imported.stdout.strip().startswith(str(site))
    _use_the_wheel(sys.executable, away, environment, submission)


def test_every_instructor_command_works_from_the_unpacked_wheel(site: Path, tmp_path: Path) -> None:
    away = tmp_path / "elsewhere"
    away.mkdir()
    environment = _environment(PYTHONPATH=str(site), HOME=str(tmp_path / "home"),
                               XDG_CONFIG_HOME=str(tmp_path / "config"), FTR_SECRET_SEED="",
                               FTR_SECRET_SEED_FILE="")
    _instructor_commands(sys.executable, away, environment, site)


@pytest.mark.slow
def test_the_wheel_installed_in_a_fresh_venv(wheel: Path, tmp_path: Path) -> None:
    """pip install the wheel (its dependencies from the index or pip's cache) into a new venv outside
    the checkout; the kit's repository is not importable there."""
    from autograder.export import export_solution

    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = venv / "bin" / "python"
    install = subprocess.run([str(python), "-m", "pip", "install", "-q", "--find-links", str(wheel.parent), str(wheel)],
                             capture_output=True, text=True, timeout=1200)
    if _pip_failed_offline(install):
        pytest.skip("no package index reachable for the wheel's dependencies")
    assert install.returncode == 0, install.stderr[-3000:]
    away = tmp_path / "elsewhere"
    away.mkdir()
    environment = _environment()
    imported = subprocess.run([str(python), "-c", "import reference; print(reference.__file__)"], cwd=away,
                              capture_output=True, text=True, env=environment, check=True)
    assert imported.stdout.strip().startswith(str(venv))
    # the venv's own ftr script, called by its path (nothing from PATH)
    ftr = subprocess.run([str(venv / "bin" / "ftr"), "run", "--help"], cwd=away, capture_output=True, text=True,
                         env=environment)
    assert ftr.returncode == 0, ftr.stderr
    _use_the_wheel(python, away, environment, export_solution(tmp_path / "student"))
    site = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                               capture_output=True, text=True, check=True).stdout.strip())
    _instructor_commands(python, away, {**environment, "HOME": str(tmp_path / "home"),
                                        "XDG_CONFIG_HOME": str(tmp_path / "config"), "FTR_SECRET_SEED": "",
                                        "FTR_SECRET_SEED_FILE": ""}, site)
