"""``ftr grade-all``: grade a folder of submissions, one report each, and a CSV gradebook.

Each entry of the folder (a sub-folder, or a ``.ipynb`` file) is one student's submission. For
each, ``OUT/<name>.json`` and ``OUT/<name>.txt`` are written atomically; ``OUT/gradebook.csv`` is
rebuilt from all reports at the end. Already graded submissions (a report exists whose recorded
content hash matches the submission's files) are skipped unless ``force``. A submission that
breaks the grader itself gets an error report with 0 points; the batch carries on.

>>> sorted(GRADEBOOK_FIRST_COLUMNS)
['error', 'extra_credit', 'max_score', 'score', 'submission']
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import traceback
from functools import partial
from pathlib import Path

from reference.world.fileio import atomic_write_text

from .grader import GradingOptions, grade_submission
from .submission import SubmissionError, load_submission

GRADEBOOK_FIRST_COLUMNS = ("submission", "score", "max_score", "extra_credit", "error")


def submission_entries(folder: Path) -> list[Path]:
    """The submissions in ``folder``: sub-folders and notebooks, by name (dot-files skipped)."""
    return sorted(p for p in folder.iterdir()
                  if not p.name.startswith((".", "_")) and (p.is_dir() or p.suffix == ".ipynb"))


def content_hash(path: Path) -> str:
    """A hash of a submission's files, so a changed resubmission is graded again."""
    digest = hashlib.sha256()
    files = [path] if path.is_file() else sorted(p for p in path.rglob("*") if p.is_file() and "__pycache__" not in p.parts)
    for file in files:
        digest.update(str(file.relative_to(path.parent if path.is_file() else path)).encode() + b"\0")
        digest.update(file.read_bytes())
    return digest.hexdigest()


def report_name(path: Path) -> str:
    return path.stem if path.is_file() else path.name


def grade_one(path: Path, out: Path, options: GradingOptions) -> dict:
    """Grade one submission and write its reports; never raises (errors become an error report)."""
    name = report_name(path)
    record: dict
    try:
        report = grade_submission(load_submission(path), options)
        record = report.to_dict()
        text = report.to_text()
    except SubmissionError as error:
        record = {"submission": name, "score": 0.0, "max_score": None, "extra_credit": 0.0, "checks": [],
                  "error": str(error)}
        text = f"Submission {name}: {error}\n"
    except Exception as error:  # noqa: BLE001 - one broken submission must not stop the batch
        record = {"submission": name, "score": 0.0, "max_score": None, "extra_credit": 0.0, "checks": [],
                  "error": f"grader error: {type(error).__name__}: {error}",
                  "traceback": traceback.format_exc()[-3000:]}
        text = f"Submission {name}: the grader failed ({type(error).__name__}: {error}); please report this\n"
    record["content_hash"] = content_hash(path)
    atomic_write_text(out / f"{name}.txt", text + "\n")
    atomic_write_text(out / f"{name}.json", json.dumps(record, indent=2) + "\n")
    return record


def already_graded(path: Path, out: Path) -> bool:
    report = out / f"{report_name(path)}.json"
    if not report.exists():
        return False
    try:
        return json.loads(report.read_text()).get("content_hash") == content_hash(path)
    except (OSError, json.JSONDecodeError):
        return False


def grade_all(folder: str | os.PathLike, out: str | os.PathLike, options: GradingOptions | None = None,
              jobs: int = 1, force: bool = False, progress: bool = True) -> Path:
    """Grade every submission in ``folder`` into ``out``; return the gradebook's path."""
    # Imported here: the student bundle ships this module but not reference.experiments.
    from reference.experiments.parallel import map_with_progress

    folder, out = Path(folder), Path(out)
    options = options or GradingOptions()
    out.mkdir(parents=True, exist_ok=True)
    entries = submission_entries(folder)
    todo = [p for p in entries if force or not already_graded(p, out)]
    map_with_progress(partial(grade_one, out=out, options=options), todo, jobs=jobs, description="grading",
                      progress=progress)
    return write_gradebook(out, [report_name(p) for p in entries])


def write_gradebook(out: Path, names: list[str]) -> Path:
    """``gradebook.csv``: one row per submission, total and points per check."""
    records = []
    for name in names:
        try:
            records.append(json.loads((out / f"{name}.json").read_text()))
        except (OSError, json.JSONDecodeError):
            records.append({"submission": name, "error": "no report"})
    check_ids: list[str] = []
    for record in records:
        for check in record.get("checks", []):
            if check["id"] not in check_ids:
                check_ids.append(check["id"])
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(list(GRADEBOOK_FIRST_COLUMNS) + check_ids)
    for record in records:
        points = {c["id"]: c["points"] for c in record.get("checks", [])}
        writer.writerow([record.get("submission"), record.get("score", 0.0), record.get("max_score"),
                         record.get("extra_credit", 0.0), record.get("error", "")]
                        + [points.get(check_id, "") for check_id in check_ids])
    path = out / "gradebook.csv"
    atomic_write_text(path, buffer.getvalue())
    return path
