"""The Gradescope autograder: build ``autograder.zip``, and grade inside Gradescope's container.

Gradescope unpacks the zip into ``/autograder/source``, runs ``setup.sh`` once to build the image,
then for every submission runs ``run_autograder``, which grades ``/autograder/submission`` (a
folder with heap.py and replanning.py, or one notebook) on the public and hidden instances and
writes ``/autograder/results/results.json``. Tests on hidden instances are shown to students
after the due date. The root (``/autograder``) can be changed with ``--root`` or
``FTR_AUTOGRADER_ROOT``, which is how the tests run it in a temporary folder.

The zip is built where the secret seed is known, so the hidden instances' expected runs are
computed then and shipped (``expected_hidden.json.gz``, root-only like the seed): the image needs
the image's own Python (3.10 or newer), NumPy and tqdm, and no compiler. The zip carries no
compiled reference, no experiments and no command line: grading never imports Numba.

    python -m autograder.gradescope --root /autograder
"""

from __future__ import annotations

import argparse
import importlib.resources
import io
import json
import os
import shlex
import sys
import traceback
import zipfile
from pathlib import Path

from reference.world.fileio import atomic_write_text
from reference.world.kitdata import kit_path

#: The kit's packages in the zip, minus what grading never uses (files and folders): the compiled twins
#: and the grader's compiled screen need Numba, the experiments SciPy, the pictures Matplotlib; the paper modules, the command line, the
#: step-through player and copy detection serve no grading. tests/autograder/test_gradescope.py checks that nothing left in imports any of them.
PACKAGES = ("reference", "autograder")
LEFT_OUT = ("reference/cli", "reference/experiments", "reference/world/_data", "reference/solutions/compiled",
            "reference/solutions/realtime", "reference/solutions/haa", "reference/solutions/subgoaling",
            "reference/solutions/dynamic", "reference/world/pictures.py", "reference/world/animation.py",
            "reference/world/map_pictures.py", "reference/world/player.py", "reference/world/player.html",
            "autograder/similarity.py", "autograder/similarity_page.py", "autograder/searchcheck_compiled.py")

#: What grading needs of the kit's dependencies (no SciPy, Matplotlib or Numba: they are for experiments
#: and speed). tests/autograder/test_gradescope.py checks that the pins agree with pyproject.toml.
GRADING_REQUIREMENTS = ("numpy>=1.24", "tqdm>=4.60", 'tomli>=1.1; python_version < "3.11"')

#: In the zip, readable by root only: the seed and the hidden instances' expected runs.
SEED_NAME = "secret_seed.txt"
EXPECTED_NAME = "expected_hidden.json.gz"

SETUP_SH = """#!/usr/bin/env bash
# Gradescope runs this once to build the autograder image: a venv of the image's own Python (3.10 or
# newer; Ubuntu 22.04 has 3.10, 24.04 has 3.12, Debian 13 has 3.13) holding what grading needs:
# NumPy and tqdm (tomli on 3.10). No compiler: the hidden instances' expected runs come in the zip.
# apt-get runs only for what is missing (a Python, its venv module, bubblewrap).
set -euo pipefail
ROOT="${FTR_AUTOGRADER_ROOT:-/autograder}"
SOURCE="$ROOT/source"
say() { echo "setup.sh: $*" >&2; }
APT_UPDATED=""
apt_install() {  # apt_install PACKAGE...: false where there is no apt or it fails
    command -v apt-get >/dev/null && [ "$(id -u)" = 0 ] || return 1
    if [ -z "$APT_UPDATED" ]; then apt-get update -qq || return 1; APT_UPDATED=1; fi
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@"
}
find_python() {  # the first of these that is Python 3.10 or newer
    local candidate
    for candidate in python3 python3.13 python3.12 python3.11 python3.10; do
        if command -v "$candidate" >/dev/null \\
            && "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 10))' 2>/dev/null; then
            command -v "$candidate"; return 0
        fi
    done
    return 1
}
PYTHON="$(find_python || true)"
if [ -z "$PYTHON" ]; then
    say "no Python 3.10 or newer on this image: installing the distribution's python3"
    apt_install python3 python3-venv || true
    PYTHON="$(find_python || true)"
fi
if [ -z "$PYTHON" ]; then
    say "error: this image has no Python 3.10 or newer ($(python3 --version 2>&1 || echo 'no python3')); choose Gradescope's Ubuntu 22.04 base image or newer"
    exit 1
fi
VERSION="$("$PYTHON" -c 'import sys; print("%d.%d" % sys.version_info[:2])')"
say "Python $VERSION at $PYTHON"
rm -rf "$ROOT/venv"
if ! "$PYTHON" -m venv "$ROOT/venv" >/dev/null 2>&1; then   # Debian and Ubuntu ship venv apart
    rm -rf "$ROOT/venv"
    say "installing python$VERSION-venv"
    apt_install "python$VERSION-venv" || apt_install python3-venv \\
        || { say "error: $PYTHON has no venv module and apt cannot install one"; exit 1; }
    "$PYTHON" -m venv "$ROOT/venv"
fi
"$ROOT/venv/bin/python" -m pip install --quiet --disable-pip-version-check {requirements}
# bubblewrap walls students off from each other where the container allows user namespaces; else
# the plain sandbox is used (each Gradescope submission has a container of its own anyway).
command -v bwrap >/dev/null || apt_install bubblewrap || say "bubblewrap not installed: the plain sandbox will be used"
chmod -R go+rX "$ROOT/venv"   # student code (as a uid of its own) runs this interpreter
# Only root may read the kit (the reference solutions), the secret seed and the hidden expected runs.
chmod 700 "$SOURCE"
chmod 600 "$SOURCE/{seed}" "$SOURCE/{expected}"
say "ready"
"""

RUN_AUTOGRADER = """#!/usr/bin/env bash
# Gradescope runs this for every submission; results go to $ROOT/results/results.json, whatever happens.
ROOT="${FTR_AUTOGRADER_ROOT:-/autograder}"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
SOURCE="$ROOT/source"
[ -d "$SOURCE/autograder" ] || SOURCE="$HERE"
PYTHON="${FTR_AUTOGRADER_PYTHON:-$ROOT/venv/bin/python}"
RESULTS="$ROOT/results/results.json"
mkdir -p "$ROOT/results"
rm -f "$RESULTS"
export FTR_SECRET_SEED_FILE="$SOURCE/{seed}" FTR_EXPECTED_FILE="$SOURCE/{expected}" FTR_MAZES="$SOURCE/mazes"
if [ -x "$PYTHON" ]; then
    FULL=""; [ -f "$SOURCE/full_set" ] && FULL="--full"   # all 50 standard mazes (ftr gradescope build --full)
    (cd "$SOURCE" && "$PYTHON" -m autograder.gradescope --root "$ROOT" $FULL)
    STATUS="exit code $?"
else
    STATUS="no interpreter at $PYTHON: did setup.sh run?"
fi
if [ ! -s "$RESULTS" ]; then   # the grader itself crashed: still a result, and a clear one
    printf '{"score": 0.0, "output": "The autograder failed before it could grade your submission (%s). Please tell your instructor.", "visibility": "visible", "stdout_visibility": "hidden", "tests": []}\\n' "$STATUS" > "$RESULTS"
fi
exit 0
"""


def setup_script() -> str:
    """setup.sh, with the grading requirements filled in."""
    return (SETUP_SH.replace("{requirements}", " ".join(shlex.quote(r) for r in GRADING_REQUIREMENTS))
            .replace("{seed}", SEED_NAME).replace("{expected}", EXPECTED_NAME))


def run_script() -> str:
    """run_autograder."""
    return RUN_AUTOGRADER.replace("{seed}", SEED_NAME).replace("{expected}", EXPECTED_NAME)


def kit_files() -> list[tuple[str, Path]]:
    """``(name in the zip, file)`` for what the zip carries of the kit, from the installed packages (a
    checkout or a wheel alike): the two packages minus :data:`LEFT_OUT`, the mazes and the rubric."""
    files: list[tuple[str, Path]] = []
    for package in PACKAGES:
        folder = Path(str(importlib.resources.files(package)))
        for file in sorted(folder.rglob("*")):
            name = f"{package}/{file.relative_to(folder).as_posix()}"
            if (not file.is_file() or "__pycache__" in file.parts or file.suffix == ".pyc"
                    or any(name == left or name.startswith(left + "/") for left in LEFT_OUT)):
                continue
            files.append((name, file))
    mazes = kit_path("mazes")
    files += [(f"mazes/{file.relative_to(mazes).as_posix()}", file) for file in sorted(mazes.rglob("*"))
              if file.is_file() and file.suffix in (".map", ".scen")]
    rubric = kit_path("course", "rubric.toml")
    if rubric.is_file():
        files.append(("course/rubric.toml", rubric))
    return files


def build_zip(out: str | os.PathLike, seed: int, full: bool = False, progress: bool = False) -> Path:
    """Write the Gradescope autograder zip: setup.sh, run_autograder, the kit, the secret seed and the
    hidden instances' expected runs (computed here, from ``seed``).

    ``full``: grade on all 50 standard mazes (raise Gradescope's time limit: docs/autograder.md).
    """
    from .expected import expected_bytes
    from .instances import hidden_instances
    from .report import write_private

    out = Path(out)

    def add_bytes(archive: zipfile.ZipFile, name: str, data: bytes | str, mode: int) -> None:
        info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
        info.external_attr = (0o100000 | mode) << 16
        info.compress_type = zipfile.ZIP_DEFLATED
        archive.writestr(info, data)

    hidden_expected = expected_bytes(hidden_instances(seed), progress=progress)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        add_bytes(archive, "setup.sh", setup_script(), 0o755)
        add_bytes(archive, "run_autograder", run_script(), 0o755)
        add_bytes(archive, SEED_NAME, f"{seed}\n", 0o600)
        add_bytes(archive, EXPECTED_NAME, hidden_expected, 0o600)
        if full:
            add_bytes(archive, "full_set", "grade on all 50 standard mazes\n", 0o644)
        for name, file in kit_files():
            add_bytes(archive, name, file.read_bytes(), 0o644)
    write_private(out, buffer.getvalue())  # the zip holds the secret seed: readable by its owner only (0600)
    return out


def run(root: str | os.PathLike, full: bool = False) -> dict:
    """Grade ``root/submission`` and write ``root/results/results.json``; return the results.

    Whatever happens (a submission that is not one, a crash of the grader) a results.json is written.
    """
    root = Path(root)
    results_path = root / "results" / "results.json"
    try:
        from .grader import GradingOptions, grade_submission
        from .instances import SecretSeedMissing, secret_seed
        from .sandbox import UNISOLATED_VARIABLE, isolation_refusal
        from .submission import SubmissionError, load_submission

        refusal = isolation_refusal(f"set {UNISOLATED_VARIABLE}=1")  # Gradescope's container: root, isolated
        if refusal and not os.environ.get(UNISOLATED_VARIABLE):
            raise RuntimeError(refusal)
        try:
            secret_seed()
            options = GradingOptions(hidden=True, full=full)
        except SecretSeedMissing:
            options = GradingOptions(full=full)
        try:
            report = grade_submission(load_submission(root / "submission"), options)
            results = report.gradescope()
        except SubmissionError as error:
            results = {"score": 0.0, "output": f"Your submission could not be graded: {error}\nUpload heap.py and "
                       "replanning.py (laid out like starter/), or one .ipynb notebook.", "visibility": "visible",
                       "stdout_visibility": "hidden", "tests": []}
    except BaseException as error:  # noqa: BLE001 - Gradescope must get a result, never its generic failure
        print(traceback.format_exc(), file=sys.stderr)
        results = {"score": 0.0, "output": f"The autograder failed ({type(error).__name__}: {error}). Please tell "
                   "your instructor; your submission is kept.", "visibility": "visible",
                   "stdout_visibility": "hidden", "tests": []}
    atomic_write_text(results_path, json.dumps(results, indent=2) + "\n")
    return results


def main(argv: list[str] | None = None) -> int:
    """Grade the submission under ``--root`` (``run_autograder`` calls this) and write Gradescope's
    ``results/results.json``; returns the exit code.
    """
    parser = argparse.ArgumentParser(description="Grade one Gradescope submission (run by run_autograder).")
    parser.add_argument("--root", default=os.environ.get("FTR_AUTOGRADER_ROOT", "/autograder"),
                        help="the Gradescope tree with submission/ and results/ (default: /autograder)")
    parser.add_argument("--full", action="store_true", help="all 50 standard mazes instead of the default eight")
    args = parser.parse_args(argv)
    results = run(args.root, args.full)
    print(f"score {results['score']}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
