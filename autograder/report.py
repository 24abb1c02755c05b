"""Reports of a grading: the terminal text, a JSON document, and Gradescope's results.json.

>>> check = CheckResult("heap", "Binary heap", 6.0, 8.0, ["2 sequences went wrong"]).finish()
>>> report = GradeReport("alice", "folder", "public", [check], [], 1.5)
>>> report.score, report.max_score, check.status
(6.0, 8.0, 'partial')
>>> report.gradescope()["tests"][0]["status"]
'failed'

Everything a student chose (folder names, exception messages, printed output) passes through
:func:`printable` (:func:`reference.world.fileio.printable`) before it reaches a terminal, a text
report, the gradebook or Gradescope.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path

# the kit's one escaper of student text, shared with the CSV-injection guard (the grader imports it from here)
from reference.world.fileio import printable


@dataclass
class CheckResult:
    """One rubric check's outcome. ``status``: passed (all points), partial, or failed (none)."""

    id: str
    title: str
    points: float
    max_points: float
    messages: list[str] = field(default_factory=list)
    visibility: str = "visible"          # Gradescope: visible, hidden, after_due_date, after_published
    extra_credit: bool = False
    seconds: float = 0.0
    status: str = "failed"

    def finish(self) -> CheckResult:
        self.points = round(self.points, 2)
        self.status = ("passed" if self.points >= self.max_points else "partial" if self.points > 0 else "failed")
        return self


@dataclass
class GradeReport:
    """One submission's grade: the result of every check, warnings, the time it took and, if it could not be
    graded, why.
    """
    submission: str
    kind: str                      # folder or notebook
    instances: str                 # which instance sets
    checks: list[CheckResult]
    warnings: list[str]
    seconds: float
    error: str | None = None       # why the submission could not be graded (then every check is 0)
    #: Where the grading's CPU time went, in seconds: ``student`` (the tasks: the student's code and the
    #: harness around it), ``startup`` (the children's start-up: interpreter, NumPy, the world, the
    #: student's import), ``grader`` (this process: planning, the reference's runs, judging). Not in reports.
    cost: dict | None = None

    @property
    def score(self) -> float:
        return round(sum(c.points for c in self.checks if not c.extra_credit), 2)

    @property
    def max_score(self) -> float:
        return round(sum(c.max_points for c in self.checks if not c.extra_credit), 2)

    @property
    def extra_credit(self) -> float:
        return round(sum(c.points for c in self.checks if c.extra_credit), 2)

    def points(self) -> dict[str, float]:
        """Points per check id (``forward_larger_g_hidden`` for the hidden part)."""
        return {c.id: c.points for c in self.checks}

    def to_dict(self) -> dict:
        record = {"submission": self.submission, "kind": self.kind, "instances": self.instances,
                  "score": self.score, "max_score": self.max_score, "extra_credit": self.extra_credit,
                  "seconds": round(self.seconds, 2), "warnings": self.warnings,
                  "checks": [asdict(c) for c in self.checks]}
        if self.error:
            record["error"] = self.error
        return record

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2) + "\n"

    def to_text(self, width: int = 100) -> str:
        """The terminal report; everything in it is :func:`printable`, and a message's later lines are
        indented, so that nothing a student wrote can pass for a line of the grader's own."""
        lines = [f"Submission {printable(self.submission, newlines=False)} ({self.kind}), {self.instances} instances", ""]
        if self.error:
            lines += _indented("error: ", printable(self.error)) + [""]
        for warning in self.warnings:
            lines += _indented("warning: ", printable(warning))
        id_width = max(len(c.id) for c in self.checks) if self.checks else 10
        for check in self.checks:
            mark = {"passed": "ok  ", "partial": "part", "failed": "FAIL"}[check.status]
            extra = " (extra credit)" if check.extra_credit else ""
            lines.append(f"[{mark}] {check.id.ljust(id_width)}  {check.points:g} / {check.max_points:g}{extra}"
                         f"  {check.title}")
            for message in check.messages:
                for number, line in enumerate(printable(message).split("\n")):
                    lines.append(("       - " if number == 0 else "         ") + line[:width * 10])
        lines += ["", f"Total: {self.score:g} / {self.max_score:g}"
                  + (f"  (+{self.extra_credit:g} extra credit)" if self.extra_credit else "")
                  + f"   graded in {self.seconds:.1f} s"]
        return "\n".join(lines)

    def gradescope(self) -> dict:
        """Gradescope's results.json: score, output, and one test per check."""
        tests = []
        for check in self.checks:
            tests.append({
                "name": check.title + (" (extra credit)" if check.extra_credit else ""),
                "number": check.id,
                "score": check.points,
                "max_score": 0.0 if check.extra_credit else check.max_points,
                "status": "passed" if check.status == "passed" else "failed",
                "output": printable("\n".join(check.messages)),
                "visibility": check.visibility,
            })
        output = f"Autograded: {self.score:g} / {self.max_score:g}"
        if self.error:
            output = f"Your submission could not be graded: {self.error}\n" + output
        if self.extra_credit:
            output += f" (+{self.extra_credit:g} extra credit)"
        if self.warnings:
            output += "\n" + "\n".join(f"warning: {w}" for w in self.warnings)
        return {"score": round(self.score + self.extra_credit, 2), "output": printable(output), "visibility": "visible",
                "stdout_visibility": "hidden", "tests": tests}


def _indented(label: str, text: str) -> list[str]:
    """``label`` before the first line of ``text``, its later lines indented under it."""
    first, *rest = text.split("\n")
    return [label + first] + [" " * len(label) + line for line in rest]


def error_report(name: str, message: str, kind: str = "unknown", instances: str = "public") -> GradeReport:
    """A report for a submission that could not be graded: every check of the rubric at 0 of its points,
    so that a gradebook row still has its maximum."""
    from .rubric import TITLES, load_rubric

    try:
        rubric = load_rubric()
        checks = [CheckResult(check_id, TITLES.get(check_id, check_id), 0.0, points, [message]).finish()
                  for check_id, points in rubric.autograded.items()]
        checks += [CheckResult(check_id, TITLES.get(check_id, check_id), 0.0, points, [message],
                               extra_credit=True).finish() for check_id, points in rubric.extra_credit.items()]
    except Exception as error:  # noqa: BLE001 - a broken rubric must not stop the report either
        checks = []
        message += f" (and the rubric could not be read: {error})"
    return GradeReport(name, kind, instances, checks, [], 0.0, error=message)


def write_private(path: str | os.PathLike, data: str | bytes) -> None:
    """Write a report (text, or bytes such as ``autograder.zip``) atomically, readable by the grader only
    (0600): never by the students' code."""
    from reference.world.fileio import atomic_write_bytes, atomic_write_text

    path = Path(path)
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT, 0o600))  # the atomic write keeps this mode
    os.chmod(path, 0o600)
    if isinstance(data, bytes):
        atomic_write_bytes(path, data)
    else:
        atomic_write_text(path, data)
