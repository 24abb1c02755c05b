"""``ftr release --out DIR``: build the bundle students get.

The bundle holds what a student needs and nothing an instructor must keep:

    DIR/
      README.md            how to install, where to write code, how to self-check
      requirements.txt     the only packages it needs: numpy, matplotlib, tqdm
      requirements-notebook.txt   the same plus jupyterlab, for the notebook route
      self_check.py        python self_check.py starter/   (or your notebook .ipynb)
      replanning.ipynb     nbgrader's release notebook (solutions and hidden tests removed)
      starter/             heap.py, replanning.py, README.md
      reference/world/     the public world model (grid, maps, sensing, trace, replay, pictures, ...)
      autograder/          the checks and the sandbox, with the expected results of PUBLIC instances only
      mazes/               the 50 standard mazes and mazes.scen
      course/rubric.toml   the points
      handout/             the handout and its figures

Never in it: ``reference/solutions``, the source notebook (``### BEGIN SOLUTION``), hidden tests,
the answer key, the secret seed, the instructor guide. :func:`audit_bundle` checks the built folder
for each of these and the command refuses to finish if any is found.

>>> STUDENT_REQUIREMENTS
['numpy>=1.24', 'matplotlib>=3.7', 'tqdm>=4.60']
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from . import UsageError

KIT_ROOT = Path(__file__).resolve().parents[2]
ASSIGNMENT = "replanning"

#: requirements.txt: what the world modules and the self-check need.
STUDENT_REQUIREMENTS = ["numpy>=1.24", "matplotlib>=3.7", "tqdm>=4.60"]
#: requirements-notebook.txt: those, plus Jupyter for the notebook route.
NOTEBOOK_REQUIREMENTS = ["-r requirements.txt", "jupyterlab"]

#: Markers and files that must never reach students.
FORBIDDEN_TEXT = ("### BEGIN SOLUTION", "### BEGIN HIDDEN TESTS", "BEGIN MARK SCHEME")
FORBIDDEN_NAMES = ("solutions", "answer_key.md", "INSTRUCTOR.md", "secret_seed.txt", "source", "gradebook.db")

SELF_CHECK = '''\
"""The public self-check: run every autograded check on the public instances.

    python self_check.py starter/          # a folder with heap.py and replanning.py
    python self_check.py replanning.ipynb  # or your notebook

It prints each check's points and the first places where your run differs from the rules.
Grading adds hidden instances made the same way.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from autograder.grader import grade_submission  # noqa: E402

if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    report = grade_submission(sys.argv[1])
    print(report.to_text())
'''

README = """\
# Fast Trajectory Replanning: your bundle

1. Install what it needs (a virtual environment keeps it tidy):

       python -m venv .venv && . .venv/bin/activate
       pip install -r requirements.txt            # the notebook route: requirements-notebook.txt

2. Write your code, either way:
   - in `starter/heap.py` and `starter/replanning.py` (read `starter/README.md`), or
   - in the notebook `replanning.ipynb` (`jupyter lab replanning.ipynb`, started from this folder).

3. Check it on the public instances, as often as you like:

       python self_check.py starter/
       python self_check.py replanning.ipynb

   The notebook's test cells run the same checks.

The handout is `handout/handout.md`; the 50 standard mazes are in `mazes/`. Your code may import
`reference.world` (the public world model) and nothing else from this bundle.
"""


def register(subparsers: argparse._SubParsersAction) -> None:
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
    out: Path = args.out
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise UsageError(f"{out} already exists and is not an empty folder; choose a new --out")
    files = build_bundle(out)
    print(f"student bundle written to {out} ({files} files); checked: no solutions, hidden tests or answer key")
    return 0


def build_bundle(out: Path) -> int:
    """Write the bundle into ``out``; return the number of files. Raises RuntimeError if the audit fails."""
    out.mkdir(parents=True, exist_ok=True)
    copies = [
        (KIT_ROOT / "starter", out / "starter", ("*.py", "*.md")),
        (KIT_ROOT / "reference" / "world", out / "reference" / "world", ("*.py",)),
        (KIT_ROOT / "autograder", out / "autograder", ("*.py",)),
        (KIT_ROOT / "autograder" / "data", out / "autograder" / "data", ("expected_public*",)),
        (KIT_ROOT / "mazes", out / "mazes", ("*.map", "*.scen")),
        (KIT_ROOT / "course" / "handout", out / "handout", ("*.md",)),
        (KIT_ROOT / "course" / "handout" / "figures", out / "handout" / "figures", ("*.png",)),
    ]
    for source, target, patterns in copies:
        _copy_matching(source, target, patterns)
    shutil.copyfile(KIT_ROOT / "reference" / "__init__.py", out / "reference" / "__init__.py")
    (out / "course").mkdir(exist_ok=True)
    shutil.copyfile(KIT_ROOT / "course" / "rubric.toml", out / "course" / "rubric.toml")
    write_release_notebook(out / f"{ASSIGNMENT}.ipynb")
    (out / "self_check.py").write_text(SELF_CHECK, encoding="utf-8")
    (out / "README.md").write_text(README, encoding="utf-8")
    (out / "requirements.txt").write_text("\n".join(STUDENT_REQUIREMENTS) + "\n", encoding="utf-8")
    (out / "requirements-notebook.txt").write_text("\n".join(NOTEBOOK_REQUIREMENTS) + "\n", encoding="utf-8")
    problems = audit_bundle(out)
    if problems:
        raise RuntimeError("the student bundle is not safe to hand out:\n" + "\n".join(problems))
    return sum(1 for p in out.rglob("*") if p.is_file())


def _copy_matching(source: Path, target: Path, patterns: tuple[str, ...]) -> None:
    if not source.is_dir():
        return
    target.mkdir(parents=True, exist_ok=True)
    for pattern in patterns:
        for file in sorted(source.glob(pattern)):
            if file.is_file():
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
            cwd=course, capture_output=True, text=True,
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
