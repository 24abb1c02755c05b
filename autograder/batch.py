"""``ftr grade-all``: grade a folder of submissions, one report each, and a CSV gradebook.

Each entry of the folder (a sub-folder, or a ``.ipynb`` file) is one student's submission. For
each, ``OUT/<report name>.json`` and ``.txt`` are written atomically. Already graded submissions (a
report exists whose recorded content hash and grading options match) are skipped unless ``force``.
``OUT/gradebook.csv`` is rewritten as each grading ends, so an interrupted batch keeps every
finished grade. A submission that breaks the grader itself gets an error report with 0 points; the
batch carries on.

Students choose their folder names: a report name is the entry's name when that is plain, else its
escaped, shortened form plus a hash of the original bytes (:func:`report_names`); the gradebook
shows the original name escaped, never as a live spreadsheet formula.

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

from reference.world.fileio import spreadsheet_row

from .grader import GradingOptions, default_workers, grade_submission
from .report import error_report, printable, write_private
from .sandbox import SandboxSetupError, sandbox_setup
from .submission import (MAX_NOTEBOOK_BYTES, Entry, SubmissionError, Unreadable, kind_of, list_folder, load_submission,
                         open_regular)

GRADEBOOK_FIRST_COLUMNS = ("submission", "score", "max_score", "extra_credit", "error")


def submission_entries(folder: Path) -> list[Path]:
    """The submissions in ``folder``: sub-folders, notebooks and symbolic links, by name (dot-files
    skipped). A link is never followed: it is listed so that its student gets a report saying why
    nothing was graded, rather than no row in the gradebook."""
    return sorted(p for p in folder.iterdir()
                  if not p.name.startswith((".", "_"))
                  and (p.is_symlink() or p.is_dir() or p.suffix == ".ipynb"))


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


#: The longest report name in bytes (a file name may have 255, and the atomic writer adds a suffix).
MAX_REPORT_NAME_BYTES = 100


def _stem(path: Path) -> str:
    """The student's name for an entry: a folder's name, a notebook's without ``.ipynb``."""
    return path.name[:-len(".ipynb")] if path.name.endswith(".ipynb") and not path.is_dir() else path.name


def display_name(path: Path) -> str:
    """The entry's name as the gradebook and reports show it: undecodable bytes and controls escaped.

    >>> display_name(Path(os.fsdecode(b"caf\\xe9\\x1b[2J")))
    'caf\\\\xe9\\\\x1b[2J'
    """
    return printable(_stem(path), newlines=False)


def report_name(path: Path) -> str:
    """A safe file name for the entry's reports: its name (a notebook's without ``.ipynb``) if that is
    printable UTF-8 of at most ``MAX_REPORT_NAME_BYTES`` bytes, else an escaped, shortened form plus
    the first 10 hex digits of the SHA-256 of the name's bytes.

    >>> report_name(Path("ada")), report_name(Path("x" * 300))[-12:]
    ('ada', 'x-0d4e2ca9e9')
    """
    stem = _stem(path)
    safe = printable(stem, newlines=False)
    if safe == stem and len(stem.encode()) <= MAX_REPORT_NAME_BYTES and stem not in ("gradebook", ""):
        return stem
    return _with_hash(safe, path)


def _with_hash(name: str, path: Path) -> str:
    """``name`` cut to fit, then ``-`` and 10 hex digits of the SHA-256 of the entry's name's bytes."""
    digest = hashlib.sha256(os.fsencode(path.name)).hexdigest()[:10]
    cut = name.encode()[:MAX_REPORT_NAME_BYTES - 11].decode("utf-8", "ignore")
    return f"{cut}-{digest}"


def report_names(entries: list[Path]) -> dict[Path, str]:
    """:func:`report_name` of each entry, with the hash added to every name that two entries share
    (a folder ``ada`` and a notebook ``ada.ipynb``)."""
    names = {path: report_name(path) for path in entries}
    counts: dict[str, int] = {}
    for name in names.values():
        counts[name] = counts.get(name, 0) + 1
    for path, name in names.items():
        if counts[name] > 1:
            names[path] = _with_hash(name, path)
    return names


def grading_options_record(options: GradingOptions) -> dict:
    """What decides a grade besides the submission, stored in each report: a report made with other
    options (another instance set, time limit, rubric or secret seed) is graded again, not resumed.
    The secret seed enters as a one-way digest, never itself."""
    from .instances import derived_seed, secret_seed
    from .rubric import load_rubric

    rubric = load_rubric()
    record = {"hidden": options.hidden, "hidden_only": options.hidden_only, "full": options.full,
              "checks": list(options.checks) if options.checks else None,
              "task_seconds": options.limits.task_seconds, "total_seconds": options.limits.total_seconds,
              "efficiency_ratio": options.efficiency_ratio if options.efficiency_ratio is not None
              else rubric.efficiency_ratio,
              "rubric": hashlib.sha256(repr((sorted(rubric.autograded.items()), sorted(rubric.extra_credit.items()),
                                             rubric.ties_credit, sorted(rubric.groups.items()))).encode()).hexdigest()[:16]}
    if options.hidden or options.hidden_only:
        record["secret"] = f"{derived_seed(secret_seed(), 'report fingerprint'):032x}"[:16]
    return record


def _write_record(out: Path, name: str, record: dict, text: str) -> None:
    write_private(out / f"{name}.txt", text + "\n")
    write_private(out / f"{name}.json", json.dumps(record, indent=2) + "\n")


def _error_record(name: str, message: str, options: GradingOptions, detail: str | None = None) -> tuple[dict, str]:
    report = error_report(name, message, instances="public + hidden" if options.hidden else "public")
    record = report.to_dict()
    if detail:
        record["traceback"] = detail[-3000:]
    return record, report.to_text()


def grade_one(path: Path, out: Path, options: GradingOptions, name: str | None = None) -> dict:
    """Grade one submission and write its reports as ``out/<name>``; errors become an error report,
    except :class:`SandboxSetupError` (no one can be graded on this machine), which is raised."""
    name = name or report_name(path)
    shown = display_name(path)
    try:
        submission = load_submission(path)
        submission.name = shown
        report = grade_submission(submission, options)
        record, text = report.to_dict(), report.to_text()
    except SandboxSetupError:
        raise
    except SubmissionError as error:
        record, text = _error_record(shown, printable(error), options)
    except Exception as error:  # noqa: BLE001 - one broken submission must not stop the batch
        record, text = _error_record(shown, printable(f"grader error: {type(error).__name__}: {error}; "
                                                      "please report this"), options, traceback.format_exc())
    record["submission"] = shown
    record["content_hash"] = content_hash(path)
    record["options"] = grading_options_record(options)
    _write_record(out, name, record, text)
    return record


def already_graded(path: Path, out: Path, options: GradingOptions | None = None, name: str | None = None) -> bool:
    """Is there a report of this very content, made with these options (and no grader error)?"""
    report = out / f"{name or report_name(path)}.json"
    if not report.exists():
        return False
    try:
        record = json.loads(report.read_text())
        return (record.get("content_hash") == content_hash(path) and "traceback" not in record
                and record.get("options") == grading_options_record(options or GradingOptions()))
    except (OSError, json.JSONDecodeError):
        return False


def grade_all(folder: str | os.PathLike, out: str | os.PathLike, options: GradingOptions | None = None,
              jobs: int = 1, force: bool = False, progress: bool = True) -> Path:
    """Grade every submission in ``folder`` into ``out``; return the gradebook's path.

    ``out`` is made private to the grader (0700, reports 0600). The gradebook is always written, also
    when a grading process dies: its submissions get error reports saying so.

    Parameters
    ----------
    folder : str or os.PathLike
        One entry per student: a submission folder or a notebook (:func:`submission_entries`).
    out : str or os.PathLike
        Where each report (``<name>.json`` and ``.txt``) and the gradebook go; made if missing.
    options : GradingOptions, optional
        As for :func:`~autograder.grader.grade_submission`; ``workers`` defaults to the machine's
        cores shared by the ``jobs`` graded at once.
    jobs : int
        Submissions graded at the same time (processes).
    force : bool
        Grade again a submission whose report of the same content and options is already in ``out``.
    progress : bool
        A progress bar on stderr.

    Returns
    -------
    pathlib.Path
        The gradebook.

    Raises
    ------
    SandboxSetupError
        The sandbox cannot start on this machine: no one is graded, and no gradebook is written.
    OSError
        ``folder`` cannot be listed, or ``out`` cannot be made or written.

    See Also
    --------
    grade_one : one submission's reports (what each job runs).
    autograder.grader.grade_submission : the grading of one submission.
    """
    from concurrent.futures import ProcessPoolExecutor, as_completed

    from tqdm import tqdm

    folder, out = Path(folder), Path(out)
    options = options or GradingOptions()
    sandbox_setup()  # SandboxSetupError here: no one is graded, no report or gradebook is written
    if options.workers is None:  # the machine's cores, shared by the submissions graded at once
        options = replace(options, workers=max(1, default_workers() // max(1, jobs)))
    out.mkdir(parents=True, exist_ok=True)
    out.chmod(0o700)
    entries = submission_entries(folder)
    names = report_names(entries)
    todo = [p for p in entries if force or not already_graded(p, out, options, names[p])]
    book = Gradebook(out, [names[p] for p in entries], options, [display_name(p) for p in entries],
                     pending={names[p] for p in todo})
    setup_failed = False
    try:
        book.write()  # from the start: the rows already graded, the others "not graded yet"
        with tqdm(total=len(todo), desc="grading", unit="submission", disable=not progress) as bar:
            if jobs > 1 and len(todo) > 1:
                with ProcessPoolExecutor(max_workers=jobs) as pool:
                    futures = {pool.submit(grade_one, path, out, options, names[path]): path for path in todo}
                    for future in as_completed(futures):
                        _settle(future, futures[future], out, options, names[futures[future]])
                        book.finished(names[futures[future]])
                        bar.update()
            else:
                for path in todo:
                    grade_one(path, out, options, names[path])
                    book.finished(names[path])
                    bar.update()
    except SandboxSetupError:
        setup_failed = True
        raise
    finally:
        if not setup_failed:
            book.write()
    return book.path


def _settle(future, path: Path, out: Path, options: GradingOptions, name: str) -> None:
    """A grading process that died (killed, out of memory) leaves an error report, never a gap."""
    try:
        future.result()
    except SandboxSetupError:
        raise
    except BaseException as error:  # noqa: BLE001 - BrokenProcessPool and the like
        record, text = _error_record(display_name(path), printable(
            f"the grading process died ({type(error).__name__}: {error}); grade this submission again"),
            options, traceback.format_exc())
        record["content_hash"] = content_hash(path)
        _write_record(out, name, record, text)


class Gradebook:
    """``gradebook.csv``, rewritten atomically as each student's grading ends, so a batch that is
    interrupted (killed, the machine restarted) keeps a row for every finished grade; the entries not
    graded yet have a row saying so. Reports are read once each, when they are written."""

    def __init__(self, out: Path, names: list[str], options: GradingOptions | None = None,
                 shown: list[str] | None = None, pending: set[str] | None = None) -> None:
        self.out, self.names, self.options, self.shown = out, names, options or GradingOptions(), shown
        self.pending = set(pending or ())
        self.records: dict[str, dict] = {}
        self.path = out / "gradebook.csv"

    def finished(self, name: str) -> None:
        """``name``'s report is written: read it and write the gradebook again."""
        self.pending.discard(name)
        self.records.pop(name, None)
        self.write()

    def _record(self, name: str) -> dict:
        if name in self.pending:
            return _error_record(name, "not graded yet (the batch stopped before it)", self.options)[0]
        if name not in self.records:
            try:
                self.records[name] = json.loads((self.out / f"{name}.json").read_text())
            except (OSError, json.JSONDecodeError):
                return _error_record(name, "no report", self.options)[0]
        return self.records[name]

    def write(self) -> Path:
        """``gradebook.csv``: one row per submission, total and points per check (error rows too, with
        their maximum filled in). Every text cell goes through :func:`~reference.world.fileio.spreadsheet_cell`."""
        records = []
        for index, name in enumerate(self.names):
            records.append(dict(self._record(name)))
            if self.shown is not None:
                records[-1]["submission"] = self.shown[index]
        return _write_csv(self.path, records)


def _write_csv(path: Path, records: list[dict]) -> Path:
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
        row = ([record.get("submission"), record.get("score", 0.0), max_score, record.get("extra_credit", 0.0),
                record.get("error", "")] + [points.get(check_id, 0.0 if record.get("error") else "")
                                            for check_id in check_ids])
        writer.writerow(spreadsheet_row(row))
    write_private(path, buffer.getvalue())
    return path
