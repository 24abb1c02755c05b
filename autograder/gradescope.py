"""The Gradescope autograder: build ``autograder.zip``, and grade inside Gradescope's container.

Gradescope unpacks the zip into ``/autograder/source``, runs ``setup.sh`` once to build the image,
then for every submission runs ``run_autograder``, which grades ``/autograder/submission`` (a
folder with heap.py and replanning.py, or one notebook) on the public and hidden instances and
writes ``/autograder/results/results.json``. Tests on hidden instances are shown to students
after the due date. The root (``/autograder``) can be changed with ``--root`` or
``FTR_AUTOGRADER_ROOT``, which is how the tests run it in a temporary folder.

    python -m autograder.gradescope --root /autograder
"""

from __future__ import annotations

import argparse
import io
import json
import os
import shlex
import sys
import traceback
import zipfile
from pathlib import Path

from reference.world.fileio import atomic_write_bytes, atomic_write_text

KIT_ROOT = Path(__file__).resolve().parents[1]

#: What the zip carries of the kit (the reference solutions included: they compute hidden expectations).
PACKAGED = ["pyproject.toml", "README.md", "reference", "autograder", "course/rubric.toml", "mazes"]

#: What grading needs of the kit's dependencies (no SciPy, no Matplotlib: they are for experiments).
GRADING_DEPENDENCIES = ("numpy", "tqdm")

SETUP_SH = """#!/usr/bin/env bash
# Gradescope runs this once to build the autograder image: Python 3.11 in a venv with what grading
# needs. It stops with a message (and a failed build) rather than go on with another Python.
set -euxo pipefail
apt-get update
if ! apt-get install -y python3.11 python3.11-venv; then
    echo "setup.sh: Python 3.11 is not available from apt on this image; choose Ubuntu 22.04 or later" >&2
    exit 1
fi
# bubblewrap walls students off from each other where the container allows user namespaces; else
# the plain sandbox is used (each Gradescope submission has a container of its own anyway).
apt-get install -y bubblewrap || echo "setup.sh: bubblewrap not installed: the plain sandbox will be used" >&2
/usr/bin/python3.11 -m venv /autograder/venv
/autograder/venv/bin/python -c 'import sys; assert sys.version_info >= (3, 10), sys.version'
# Grading's dependencies only: the kit itself runs from /autograder/source, which only root can read.
/autograder/venv/bin/pip install {dependencies}
chmod -R go+rX /autograder/venv   # student code (as a uid of its own) runs this interpreter
# Only root may read the kit (the reference solutions) and the secret seed.
chmod 700 /autograder/source
chmod 600 /autograder/source/secret_seed.txt
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
export FTR_SECRET_SEED_FILE="$SOURCE/secret_seed.txt" FTR_MAZES="$SOURCE/mazes"
if [ -x "$PYTHON" ]; then
    FULL=""; [ -f "$SOURCE/full_set" ] && FULL="--full"   # all 50 standard mazes (ftr gradescope build --full)
    (cd "$SOURCE" && "$PYTHON" -m autograder.gradescope --root "$ROOT" $FULL)
    STATUS="exit code $?"
else
    STATUS="no interpreter at $PYTHON: did setup.sh run?"
fi
if [ ! -s "$RESULTS" ]; then   # the grader itself crashed: still a result, and a clear one
    printf '{"score": 0.0, "output": "The autograder failed before it could grade your submission (%s). Please tell your instructor.", "visibility": "visible", "stdout_visibility": "hidden", "tests": []}\n' "$STATUS" > "$RESULTS"
fi
exit 0
"""


def build_zip(out: str | os.PathLike, seed: int, full: bool = False) -> Path:
    """Write the Gradescope autograder zip: setup.sh, run_autograder, the kit, and the secret seed.

    ``full``: grade on all 50 standard mazes (raise Gradescope's time limit: docs/autograder.md).
    """
    out = Path(out)

    def add_text(archive: zipfile.ZipFile, name: str, text: str, mode: int) -> None:
        info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
        info.external_attr = (0o100000 | mode) << 16
        info.compress_type = zipfile.ZIP_DEFLATED
        archive.writestr(info, text)

    from .rubric import _toml_loader

    with open(KIT_ROOT / "pyproject.toml", "rb") as file:
        declared = _toml_loader().load(file)["project"]["dependencies"]
    dependencies = [d for d in declared if d.split(">")[0].split("=")[0].split("<")[0].strip() in GRADING_DEPENDENCIES]
    setup = SETUP_SH.replace("{dependencies}", " ".join(shlex.quote(d) for d in dependencies))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        add_text(archive, "setup.sh", setup, 0o755)
        add_text(archive, "run_autograder", RUN_AUTOGRADER, 0o755)
        add_text(archive, "secret_seed.txt", f"{seed}\n", 0o600)
        if full:
            add_text(archive, "full_set", "grade on all 50 standard mazes\n", 0o644)
        for entry in PACKAGED:
            path = KIT_ROOT / entry
            files = [path] if path.is_file() else sorted(p for p in path.rglob("*") if p.is_file())
            for file in files:
                if "__pycache__" in file.parts or file.suffix == ".pyc":
                    continue
                archive.write(file, str(file.relative_to(KIT_ROOT)))
    atomic_write_bytes(out, buffer.getvalue())
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
        from .submission import SubmissionError, load_submission

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
