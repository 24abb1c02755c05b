"""``ftr release --out DIR``: build the bundle students get.

The bundle holds what a student needs and nothing an instructor must keep:

    DIR/
      README.md            how to install, where to write code, how to self-check
      CONTRACT.md          the rules every implementation follows (Part I of docs/contract.md)
      requirements.txt     the only packages it needs: numpy, matplotlib, tqdm
      requirements-notebook.txt   the same plus jupyterlab, for the notebook route
      self_check.py        python3 self_check.py starter/   (or your notebook .ipynb)
      replanning.ipynb     nbgrader's release notebook (solutions and hidden tests removed)
      starter/             heap.py, replanning.py, README.md
      reference/world/     the public world model (grid, maps, sensing, trace, replay, pictures, the player
                           and its player.html, ...)
      autograder/          the checks and the sandbox, with the expected results of PUBLIC instances only
      mazes/               the 50 standard mazes and mazes.scen; handout/: the handout's examples
      course/rubric.toml   the points
      handout/             the handout and its figures

Never in it: ``reference/solutions``, the source notebook (``### BEGIN SOLUTION``), hidden tests,
the answer key, the secret seed, the instructor guide. :func:`audit_bundle` checks the built folder
for each of these and the command refuses to finish if any is found.

The bundle is built in a temporary folder next to ``DIR`` and renamed into place only when it is
complete and clean: a failed build leaves nothing behind. It runs on Python 3.10 and newer
(``self_check.py`` says so in one line on an older one), with ``python3``.

>>> STUDENT_REQUIREMENTS
['numpy>=1.24', 'matplotlib>=3.7', 'tqdm>=4.60', "tomli>=1.1; python_version < '3.11'"]
"""

from __future__ import annotations

import argparse
import importlib.resources
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

from reference.world.fileio import current_umask

from . import UsageError

#: The source tree the bundle is made from (the checkout: starter/, course/source/ are not in a wheel).
KIT_ROOT = Path(str(importlib.resources.files("reference"))).parent
ASSIGNMENT = "replanning"

#: requirements.txt: what the world modules and the self-check need.
STUDENT_REQUIREMENTS = ["numpy>=1.24", "matplotlib>=3.7", "tqdm>=4.60",
                        # the self-check reads the rubric; Python 3.10 has no tomllib
                        "tomli>=1.1; python_version < '3.11'"]
#: requirements-notebook.txt: those, plus Jupyter for the notebook route.
NOTEBOOK_REQUIREMENTS = ["-r requirements.txt", "jupyterlab"]

#: Markers and files that must never reach students.
FORBIDDEN_TEXT = ("### BEGIN SOLUTION", "### BEGIN HIDDEN TESTS", "BEGIN MARK SCHEME")
FORBIDDEN_NAMES = ("solutions", "answer_key.md", "INSTRUCTOR.md", "secret_seed.txt", "source", "gradebook.db")

SELF_CHECK = '''\
"""The public self-check: run every autograded check on the public instances.

    python3 self_check.py starter/          # a folder with heap.py and replanning.py
    python3 self_check.py replanning.ipynb  # or your notebook
    python3 self_check.py starter/ --only adaptive --instance example_1   # rerun one check, one instance

It prints each check's points and the first places where your run differs from the rules
(CONTRACT.md), and below full marks the line that reruns the first check that lost points.
Grading adds hidden instances made the same way.

Exit status: 0 at full marks, 1 below full marks, 2 when nothing could be checked (a path that is
not a submission, no argument, a Python older than 3.10 or without the requirements, a sandbox that
cannot start), with one line saying why.
"""

import sys

if sys.version_info < (3, 10):
    print("self_check: error: this bundle needs Python 3.10 or newer; this is Python "
          + sys.version.split()[0] + " (run it with python3.10, python3.11, ...)", file=sys.stderr)
    sys.exit(2)

from pathlib import Path  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))

import argparse  # noqa: E402
import shlex  # noqa: E402

try:
    import numpy  # noqa: F401 - the requirements, asked for here so that a missing one is named at once
    import tqdm  # noqa: F401
    from autograder.grader import GradingOptions, SelectionError, grade_submission, rerun_command, selection
    from autograder.sandbox import SandboxSetupError
    from autograder.submission import SubmissionError, load_submission
except ModuleNotFoundError as missing:  # numpy, tqdm...: run outside the venv the README makes
    print(f"self_check: error: {sys.executable} has no {missing.name}: run it with the bundle's venv "
          "(. .venv/bin/activate, then python3 self_check.py ...; README.md, step 1 makes it: "
          "pip install -r requirements.txt)", file=sys.stderr)
    sys.exit(2)


def main(arguments):
    parser = argparse.ArgumentParser(prog="python3 self_check.py",
                                     description="Check your submission on the public instances.")
    parser.add_argument("submission", help="a folder with heap.py and replanning.py, or a .ipynb")
    parser.add_argument("--only", action="append", metavar="CHECK", help="run only this check (as the report names it)")
    parser.add_argument("--instance", action="append", metavar="NAME",
                        help="run the search checks on this instance only (as the messages name it)")
    try:
        args = parser.parse_args(arguments)
    except SystemExit as error:
        return error.code
    try:
        options = GradingOptions(**selection(args.only, args.instance))
        report = grade_submission(load_submission(args.submission), options)
    except (SubmissionError, SandboxSetupError, SelectionError) as error:
        print(f"self_check: error: {error}", file=sys.stderr)
        return 2
    print(report.to_text())
    hint = rerun_command(report, "python3 self_check.py " + shlex.quote(args.submission))
    if hint:
        print(hint)
    return 0 if report.score >= report.max_score else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
'''

README = """\
# Fast Trajectory Replanning: your bundle

1. Install what it needs, with Python 3.10 or newer (a virtual environment keeps it tidy):

       python3 -m venv .venv && . .venv/bin/activate
       pip install -r requirements.txt            # the notebook route: requirements-notebook.txt

   (Inside the activated venv `python` and `python3` are the same; without it, Debian and Ubuntu
   have only `python3`.)

2. Write your code, either way:
   - in `starter/heap.py` and `starter/replanning.py` (read `starter/README.md`), or
   - in the notebook `replanning.ipynb` (`jupyter lab replanning.ipynb`, started from this folder).

3. Check it on the public instances, as often as you like:

       python3 self_check.py starter/
       python3 self_check.py replanning.ipynb

   The notebook's test cells run the same checks.

The rules your code follows (grids, files, the agent, the algorithms with their exact tie breaking,
the trace you return, the handout's worked examples) are in `CONTRACT.md`. The handout is
`handout/handout.md`; the 50 standard mazes are in `mazes/`, the handout's three examples in
`mazes/handout/`. Your code may import `reference.world` (the public world model) and nothing else
from this bundle.

To watch a run step by step (every expansion, the g, h and f values on small grids), write it as
one self-contained HTML page and open it in a browser, or show it in a notebook cell:

    from reference.world.player import show_player, write_player
    write_player(grid, trace, "run.html")      # grid: a Gridworld; trace: what your search returned
    show_player(grid, trace)                   # in the notebook
"""


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``ftr release`` to ``subparsers``."""
    parser = subparsers.add_parser(
        "release",
        help="build the student bundle (starter, world modules, release notebook, mazes, self-check)",
        description="Build the folder students get: the starter code, the public world modules, nbgrader's "
        "release notebook, the standard mazes, the handout and the public self-check. It holds no "
        "solution code, hidden tests, answer key or secret seed; the command checks that before it finishes.",
    )
    parser.add_argument("--out", required=True, type=Path, metavar="DIR",
                        help="where to build it (must not exist, or be empty)")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """``ftr release``: build and audit the student bundle in an empty folder."""
    out: Path = args.out
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise UsageError(f"{out} already exists and is not an empty folder; choose a new --out")
    if not (KIT_ROOT / "starter").is_dir() or not (KIT_ROOT / "course" / "source").is_dir():
        raise UsageError(f"ftr release builds from the kit's source checkout (starter/, course/source/); "
                         f"{KIT_ROOT} has none (an installed wheel does not carry them)")
    files = build_bundle(out)
    print(f"student bundle written to {out} ({files} files); checked: no solutions, hidden tests or answer key")
    return 0


def build_bundle(out: Path) -> int:
    """Build the bundle and move it into ``out`` (absent, or an empty folder); return the number of files.

    It is built in a temporary folder beside ``out`` and renamed into place at the end, so a build that
    fails (nbgrader, the audit: RuntimeError) leaves nothing behind.
    """
    out.parent.mkdir(parents=True, exist_ok=True)
    building = Path(tempfile.mkdtemp(dir=out.parent, prefix=f".{out.name}.", suffix=".building"))
    try:
        _write_bundle(building)
        problems = audit_bundle(building)
        if problems:
            raise RuntimeError("the student bundle is not safe to hand out:\n" + "\n".join(problems))
        files = sum(1 for p in building.rglob("*") if p.is_file())
        building.chmod(0o777 & ~current_umask())  # mkdtemp made it private to its owner
        os.replace(building, out)  # atomic; replaces an empty folder
    except BaseException:
        shutil.rmtree(building, ignore_errors=True)
        raise
    return files


#: The autograder's modules for instructors only: batch grading, Gradescope, exporting the reference
#: solution, copy detection (which names nbgrader's solution markers), the compiled screen (it needs
#: Numba and the compiled twins, which the bundle has not). The self-check needs none of them.
INSTRUCTOR_ONLY = frozenset({"batch.py", "export.py", "gradescope.py", "similarity.py", "similarity_page.py",
                             "searchcheck_compiled.py"})
KEEP_ALL: frozenset[str] = frozenset()   # leave nothing out


def _write_bundle(out: Path) -> None:
    # (from, to, the names to copy, the names to leave out)
    copies: list[tuple[Path, Path, tuple[str, ...], frozenset[str]]] = [
        (KIT_ROOT / "starter", out / "starter", ("*.py", "*.md"), KEEP_ALL),
        (KIT_ROOT / "reference" / "world", out / "reference" / "world", ("*.py", "*.html"), KEEP_ALL),  # the player's page
        (KIT_ROOT / "autograder", out / "autograder", ("*.py",), INSTRUCTOR_ONLY),
        (KIT_ROOT / "autograder" / "checks", out / "autograder" / "checks", ("*.py",), KEEP_ALL),
        (KIT_ROOT / "autograder" / "data", out / "autograder" / "data", ("expected_public*",), KEEP_ALL),
        (KIT_ROOT / "mazes", out / "mazes", ("*.map", "*.scen"), KEEP_ALL),
        (KIT_ROOT / "mazes" / "handout", out / "mazes" / "handout", ("*.map", "*.scen"), KEEP_ALL),
        (KIT_ROOT / "mazes" / "handmade", out / "mazes" / "handmade", ("*.map", "*.scen", "*.md"), KEEP_ALL),
        (KIT_ROOT / "course" / "handout", out / "handout", ("*.md",), KEEP_ALL),
        (KIT_ROOT / "course" / "handout" / "figures", out / "handout" / "figures", ("*.png",), KEEP_ALL),
    ]
    for source, target, patterns, leave_out in copies:
        _copy_matching(source, target, patterns, leave_out)
    shutil.copyfile(KIT_ROOT / "reference" / "__init__.py", out / "reference" / "__init__.py")
    (out / "course").mkdir(exist_ok=True)
    shutil.copyfile(KIT_ROOT / "course" / "rubric.toml", out / "course" / "rubric.toml")
    write_release_notebook(out / f"{ASSIGNMENT}.ipynb")
    (out / "CONTRACT.md").write_text(student_contract(KIT_ROOT / "docs" / "contract.md"), encoding="utf-8")
    (out / "self_check.py").write_text(SELF_CHECK, encoding="utf-8")
    (out / "README.md").write_text(README, encoding="utf-8")
    (out / "requirements.txt").write_text("\n".join(STUDENT_REQUIREMENTS) + "\n", encoding="utf-8")
    (out / "requirements-notebook.txt").write_text("\n".join(NOTEBOOK_REQUIREMENTS) + "\n", encoding="utf-8")


#: docs/contract.md's heading where the instructor-side part (the advanced modules) begins.
PART_TWO_HEADING = "# Part II"


def student_contract(contract: Path) -> str:
    """Part I of the kit's contract (everything before its Part II heading): what students are held to."""
    text = contract.read_text(encoding="utf-8")
    cut = text.find("\n" + PART_TWO_HEADING)
    if cut < 0:
        raise RuntimeError(f"{contract}: no line starting with {PART_TWO_HEADING!r}; cannot cut out Part I")
    return text[:cut].rstrip() + "\n"


def _scripts_first_on_path() -> dict[str, str]:
    """This environment with the running Python's scripts folder first on PATH.

    nbgrader starts ``alembic`` by name; where the kit's venv is not activated (a fresh clone, CI,
    cron) that name is not on PATH. The scripts folder of the running interpreter always has it.
    """
    environment = dict(os.environ)
    scripts = sysconfig.get_path("scripts")
    environment["PATH"] = os.pathsep.join(p for p in (scripts, environment.get("PATH", "")) if p)
    return environment


def _copy_matching(source: Path, target: Path, patterns: tuple[str, ...], leave_out: frozenset[str] = frozenset()) -> None:
    if not source.is_dir():
        return
    target.mkdir(parents=True, exist_ok=True)
    for pattern in patterns:
        for file in sorted(source.glob(pattern)):
            if file.is_file() and file.name not in leave_out:
                shutil.copyfile(file, target / file.name)


def write_release_notebook(destination: Path) -> None:
    """Run ``nbgrader generate_assignment`` on a private copy of ``course/``; copy the release notebook."""
    with tempfile.TemporaryDirectory(prefix="ftr-release-") as work:
        course = Path(work) / "course"
        shutil.copytree(KIT_ROOT / "course", course,
                        ignore=shutil.ignore_patterns("release", "submitted", "autograded", "feedback", "gradebook.db",
                                                      "secret_seed.txt", "__pycache__"))
        result = subprocess.run(
            [sys.executable, "-m", "nbgrader", "generate_assignment", ASSIGNMENT, "--force"],
            cwd=course, capture_output=True, text=True, env=_scripts_first_on_path(),
        )
        notebook = course / "release" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb"
        if result.returncode != 0 or not notebook.exists():
            if "No module named nbgrader" in result.stderr:
                raise UsageError("ftr release needs nbgrader: pip install nbgrader")
            tail = "\n".join(result.stderr.strip().splitlines()[-5:])
            raise UsageError(f"nbgrader generate_assignment failed:\n{tail}")
        shutil.copyfile(notebook, destination)


def audit_bundle(out: Path) -> list[str]:
    """Everything in ``out`` that must not reach students, one line each (empty: the bundle is clean)."""
    problems = []
    for path in sorted(out.rglob("*")):
        relative = path.relative_to(out)
        if any(part in FORBIDDEN_NAMES for part in relative.parts):
            problems.append(f"{relative}: instructor-only file or folder")
            continue
        if path.is_file() and path.suffix in (".py", ".ipynb", ".md", ".txt", ".toml", ".json"):
            text = path.read_text(encoding="utf-8", errors="replace")
            for marker in FORBIDDEN_TEXT:
                if marker in text:
                    problems.append(f"{relative}: contains {marker!r}")
    return problems


COMMANDS = [(80, register)]
