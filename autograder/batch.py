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
import stat
import traceback
from dataclasses import replace
from pathlib import Path

from .grader import GradingOptions, default_workers, grade_submission
from .report import error_report, write_private
from .submission import (MAX_NOTEBOOK_BYTES, Entry, SubmissionError, Unreadable, kind_of, list_folder, load_submission,
                         open_regular)

GRADEBOOK_FIRST_COLUMNS = ("submission", "score", "max_score", "extra_credit", "error")


def submission_entries(folder: Path) -> list[Path]:
    """The submissions in ``folder``: sub-folders and notebooks, by name (dot-files skipped)."""
    return sorted(p for p in folder.iterdir()
                  if not p.name.startswith((".", "_")) and not p.is_symlink()
                  and (p.is_dir() or p.suffix == ".ipynb"))


def content_hash(path: Path) -> str:
    """A hash of a submission's files, so a changed resubmission is graded again.

    What the loader looks at is hashed the way it sees it (:func:`autograder.submission.list_folder`):
    each entry's name and kind; a regular file's size and its first ``MAX_NOTEBOOK_BYTES`` (read in
    chunks, so a 1 GiB sparse file costs 20 MiB of reading and kilobytes of memory); a symbolic link,
    FIFO, socket or device by its kind only, never opened or followed, so nothing here blocks.
    """
    digest = hashlib.sha256()
    try:
        info = os.lstat(path)
    except OSError as error:
        return hashlib.sha256(f"unreadable: {error.strerror}".encode()).hexdigest()
    if stat.S_ISDIR(info.st_mode):
        listing = list_folder(path)
        entries = listing.entries
        digest.update(f"ignored {listing.ignored} truncated {listing.truncated}\0".encode("utf-8", "surrogateescape"))
    else:
        entries = [Entry("", kind_of(info.st_mode), info.st_size, (info.st_dev, info.st_ino))]
    for entry in entries:
        digest.update(f"{entry.relative}\0{entry.kind}\0".encode("utf-8", "surrogateescape"))
        if entry.kind != "file":
            continue
        digest.update(f"{entry.size}\0".encode())
        try:
            fd = open_regular(path, entry.relative, entry.identity)
        except Unreadable as why:
            digest.update(f"unreadable: {why}\0".encode())
            continue
        try:
            left = MAX_NOTEBOOK_BYTES
            while left > 0 and (chunk := os.read(fd, min(1 << 16, left))):
                digest.update(chunk)
                left -= len(chunk)
        finally:
            os.close(fd)
    return digest.hexdigest()


def report_name(path: Path) -> str:
    return path.stem if path.is_file() else path.name


def _write_record(out: Path, name: str, record: dict, text: str) -> None:
    write_private(out / f"{name}.txt", text + "\n")
    write_private(out / f"{name}.json", json.dumps(record, indent=2) + "\n")


def _error_record(name: str, message: str, options: GradingOptions, detail: str | None = None) -> tuple[dict, str]:
    report = error_report(name, message, instances="public + hidden" if options.hidden else "public")
    record = report.to_dict()
    if detail:
        record["traceback"] = detail[-3000:]
    return record, report.to_text()


def grade_one(path: Path, out: Path, options: GradingOptions) -> dict:
    """Grade one submission and write its reports; never raises (errors become an error report)."""
    name = report_name(path)
    try:
        report = grade_submission(load_submission(path), options)
        record, text = report.to_dict(), report.to_text()
    except SubmissionError as error:
        record, text = _error_record(name, str(error), options)
    except Exception as error:  # noqa: BLE001 - one broken submission must not stop the batch
        record, text = _error_record(name, f"grader error: {type(error).__name__}: {error}; please report this",
                                     options, traceback.format_exc())
    record["content_hash"] = content_hash(path)
    _write_record(out, name, record, text)
    return record


def already_graded(path: Path, out: Path) -> bool:
    report = out / f"{report_name(path)}.json"
    if not report.exists():
        return False
    try:
        record = json.loads(report.read_text())
        return record.get("content_hash") == content_hash(path) and "traceback" not in record
    except (OSError, json.JSONDecodeError):
        return False


def grade_all(folder: str | os.PathLike, out: str | os.PathLike, options: GradingOptions | None = None,
              jobs: int = 1, force: bool = False, progress: bool = True) -> Path:
    """Grade every submission in ``folder`` into ``out``; return the gradebook's path.

    ``out`` is made private to the grader (0700, reports 0600). The gradebook is always written, also
    when a grading process dies: its submissions get error reports saying so.
    """
    from concurrent.futures import ProcessPoolExecutor, as_completed

    from tqdm import tqdm

    folder, out = Path(folder), Path(out)
    options = options or GradingOptions()
    if options.workers is None:  # the machine's cores, shared by the submissions graded at once
        options = replace(options, workers=max(1, default_workers() // max(1, jobs)))
    out.mkdir(parents=True, exist_ok=True)
    out.chmod(0o700)
    entries = submission_entries(folder)
    try:
        todo = [p for p in entries if force or not already_graded(p, out)]
        with tqdm(total=len(todo), desc="grading", unit="submission", disable=not progress) as bar:
            if jobs > 1 and len(todo) > 1:
                with ProcessPoolExecutor(max_workers=jobs) as pool:
                    futures = {pool.submit(grade_one, path, out, options): path for path in todo}
                    for future in as_completed(futures):
                        _settle(future, futures[future], out, options)
                        bar.update()
            else:
                for path in todo:
                    grade_one(path, out, options)
                    bar.update()
    finally:
        gradebook = write_gradebook(out, [report_name(p) for p in entries], options)
    return gradebook


def _settle(future, path: Path, out: Path, options: GradingOptions) -> None:
    """A grading process that died (killed, out of memory) leaves an error report, never a gap."""
    try:
        future.result()
    except BaseException as error:  # noqa: BLE001 - BrokenProcessPool and the like
        name = report_name(path)
        record, text = _error_record(name, f"the grading process died ({type(error).__name__}: {error}); "
                                           "grade this submission again", options, traceback.format_exc())
        record["content_hash"] = content_hash(path)
        _write_record(out, name, record, text)


def write_gradebook(out: Path, names: list[str], options: GradingOptions | None = None) -> Path:
    """``gradebook.csv``: one row per submission, total and points per check (error rows too, with
    their maximum filled in)."""
    records = []
    for name in names:
        try:
            records.append(json.loads((out / f"{name}.json").read_text()))
        except (OSError, json.JSONDecodeError):
            records.append(_error_record(name, "no report", options or GradingOptions())[0])
    maximum = next((r.get("max_score") for r in records if not r.get("error") and r.get("max_score")), None)
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
        max_score = maximum if record.get("error") and maximum is not None else record.get("max_score")
        writer.writerow([record.get("submission"), record.get("score", 0.0), max_score,
                         record.get("extra_credit", 0.0), record.get("error", "")]
                        + [points.get(check_id, 0.0 if record.get("error") else "") for check_id in check_ids])
    path = out / "gradebook.csv"
    write_private(path, buffer.getvalue())
    return path
