"""Guards around ``nbgrader autograde``: grading outside the student's kernel, and what to do with a
damaged submission.

* :class:`GradeOutsideKernel` replaces nbgrader's ``Execute``. Before any kernel starts it grades the
  notebook with the sandboxed autograder (:func:`autograder.grader.grade_submission`, public and
  hidden instances) in the grading process; then it runs the notebook in a sandboxed kernel
  (:mod:`kernel_sandbox`: bubblewrap, a uid of its own, no secret in its environment, nothing of the
  course readable) for the student's own outputs, skipping the test cells; then it writes each test
  cell's report and points as that cell's outputs, which nbgrader's ``SaveAutoGrades`` records. The
  kernel never sees a test cell, and nothing it prints or defines reaches a grade.
* :class:`RequireSecretSeed` is Autograde's exporter: nbgrader makes it once at the start of every
  autograde run (``nbgrader autograde``, ``NbGraderAPI.autograde``, Formgrader's button), before it
  touches any student or the gradebook, and it refuses to exist without the secret seed.

nbgrader on its own gives up on a whole notebook (and sometimes on the whole batch) when a student
hands in invalid JSON, duplicates a graded cell, or runs code that kills the kernel. These guards,
also switched on in ``nbgrader_config.py``, turn each of those into a clear note and a score for
what could be graded:

* :func:`repair_submission` (nbgrader's ``pre_convert_hook``) runs on every submitted notebook
  before nbgrader reads it. Invalid JSON: the file is kept as ``<name>.ipynb.invalid`` and replaced
  by the release notebook, so the student gets a zero with feedback saying why. A graded cell that
  appears twice keeps its first copy; later copies of read-only cells go, later copies of the
  student's cells become plain cells. A deleted read-only cell
  (instructions, the imports, a test cell) is put back from the source notebook, so a test cell the
  student deleted still grades the student's code. The original file is kept as
  ``<name>.ipynb.orig`` whenever something was changed, and a Markdown note at the top of the
  notebook (and so in the feedback) lists every repair.
* :class:`ResilientExecute` (the base of ``GradeOutsideKernel``): when the kernel dies in a cell (say
  ``os._exit``, a segfault or the memory limit) or a cell runs past ``Execute.timeout`` (its kernel
  is then killed: an interrupt can be caught), that cell gets an error output, a fresh kernel
  silently re-runs the code cells before it (except test cells and cells that failed) and execution
  goes on, so the cells after it are graded as usual.
* :class:`ShortTestTracebacks` (a feedback preprocessor) cuts a failing test cell's traceback down
  to its last line, the autograder's message; the full traceback would quote the hidden tests.

>>> cells = [{"cell_type": "code", "metadata": {"nbgrader": {"grade_id": "a", "grade": True}}, "source": ""},
...          {"cell_type": "code", "metadata": {"nbgrader": {"grade_id": "a", "grade": True}}, "source": ""}]
>>> notes = drop_duplicate_grade_ids(cells)
>>> notes, cells[1]["metadata"]
(["the cell 'a' appeared twice; the copy at position 2 is not graded"], {})
"""

from __future__ import annotations

import json
import logging
import shutil
import tempfile
from pathlib import Path
from typing import Any

import nbformat
from jupyter_core.utils import run_sync
from nbclient.exceptions import DeadKernelError
from nbconvert.exporters import NotebookExporter
from nbformat import NotebookNode
from nbgrader.converters.base import NbGraderException
from nbgrader.preprocessors import Execute, NbGraderPreprocessor

from autograder.report import GradeReport
from kernel_sandbox import SandboxedKernelManager, kernel_setup

log = logging.getLogger("ftr.grading_guards")

NOTE_ID = "ftr-grading-notes"


def _grade_id(cell: dict[str, Any]) -> str | None:
    return cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")


def drop_duplicate_grade_ids(cells: list[dict[str, Any]]) -> list[str]:
    """Keep the first cell of each nbgrader ``grade_id``. A later copy of a read-only cell (the
    instructor's text or tests) is removed; a later copy of the student's own cell stays as a plain,
    ungraded cell."""
    seen: set[str] = set()
    notes = []
    kept = []
    for position, cell in enumerate(cells, start=1):
        grade_id = _grade_id(cell)
        if grade_id is not None and grade_id in seen:
            if cell["metadata"]["nbgrader"].get("locked"):
                notes.append(f"the read-only cell {grade_id!r} appeared twice; "
                             f"the copy at position {position} was removed")
                continue
            cell["metadata"].pop("nbgrader")
            notes.append(f"the cell {grade_id!r} appeared twice; the copy at position {position} is not graded")
        if grade_id is not None:
            seen.add(grade_id)
        kept.append(cell)
    cells[:] = kept
    return notes


def restore_locked_cells(cells: list[dict[str, Any]], source_cells: list[dict[str, Any]]) -> list[str]:
    """Put back every read-only source cell missing from ``cells``, after the source cell before it."""
    present = {_grade_id(c) for c in cells} - {None}
    notes = []
    for index, source_cell in enumerate(source_cells):
        grade_id = _grade_id(source_cell)
        if grade_id is None or grade_id in present or not source_cell["metadata"]["nbgrader"].get("locked"):
            continue
        earlier = [_grade_id(c) for c in source_cells[:index] if _grade_id(c) in present]
        positions = [i for i, c in enumerate(cells) if earlier and _grade_id(c) == earlier[-1]]
        at = positions[0] + 1 if positions else 0
        restored = json.loads(json.dumps(source_cell))
        restored.pop("id", None)  # nbformat gives it a fresh id; the student's may clash
        cells.insert(at, restored)
        present.add(grade_id)
        notes.append(f"the read-only cell {grade_id!r} was missing and has been put back")
    return notes


def _note_cell(notes: list[str]) -> dict[str, Any]:
    text = "**Grading notes.** The autograder repaired this notebook before grading it:\n\n" + "".join(
        f"- {note}\n" for note in notes)
    return {"cell_type": "markdown", "metadata": {"ftr": NOTE_ID}, "source": text}


def repair_notebook(path: Path, source_path: Path, release_path: Path) -> list[str]:
    """Repair one submitted notebook in place (see the module docstring); return the notes."""
    text = path.read_bytes()
    try:
        notebook = json.loads(text)
        cells = notebook["cells"]
        if not isinstance(cells, list) or not all(isinstance(c, dict) for c in cells):
            raise ValueError("'cells' is not a list of cells")
    except (ValueError, KeyError, TypeError) as error:
        kept = path.with_name(path.name + ".invalid")
        shutil.copyfile(path, kept)
        notebook = json.loads(release_path.read_text(encoding="utf-8"))
        notes = [f"the submitted file is not a readable notebook ({error}); it is kept as {kept.name} "
                 "and nothing in it could be graded"]
    else:
        source = json.loads(source_path.read_text(encoding="utf-8"))
        for cell in cells:
            cell.setdefault("metadata", {})
        cells[:] = [c for c in cells if c["metadata"].get("ftr") != NOTE_ID]  # notes of an earlier run
        notes = drop_duplicate_grade_ids(cells) + restore_locked_cells(cells, source["cells"])
        if not notes:
            return []
        shutil.copyfile(path, path.with_name(path.name + ".orig"))
    notebook["cells"].insert(0, _note_cell(notes))
    path.write_text(json.dumps(notebook, indent=1), encoding="utf-8")
    return notes


def repair_submission(assignment: str, student: str, notebooks: list[str]) -> None:
    """nbgrader's ``pre_convert_hook``: repair every notebook of one submission.

    ``notebooks`` are paths ``<course>/submitted/<student>/<assignment>/<name>.ipynb``.
    """
    for name in notebooks:
        path = Path(name)
        course = path.parents[3]
        assignment_id = path.parent.name
        source = course / "source" / assignment_id / path.name
        release = course / "release" / assignment_id / path.name
        if not source.exists() or not release.exists():
            continue
        for note in repair_notebook(path, source, release):
            log.warning("%s, %s: %s", path.parents[1].name, path.name, note)


class ShortTestTracebacks(NbGraderPreprocessor):
    """For feedback: a failing test cell shows only its error line (the divergences), not a traceback
    that would quote the hidden tests' code."""

    def preprocess_cell(self, cell: NotebookNode, resources: dict, index: int) -> tuple[NotebookNode, dict]:
        nbgrader = cell.metadata.get("nbgrader", {})
        if cell.cell_type == "code" and nbgrader.get("grade") and not nbgrader.get("solution"):
            for output in cell.get("outputs", []):
                if output.get("output_type") == "error":
                    output["traceback"] = [f"{output.get('ename', 'Error')}: {output.get('evalue', '')}"]
        return cell, resources


class CellTimedOut(DeadKernelError):
    """A cell ran past ``Execute.timeout``: its kernel is killed (an interrupt can be caught)."""


class ResilientExecute(Execute):
    """nbgrader's Execute, but a dead kernel, or a cell past ``Execute.timeout``, costs only that cell.

    A cell over time is not interrupted: a student's cell can catch ``KeyboardInterrupt`` and go on
    (nbgrader would then stop grading the notebook); its kernel is killed and replaced instead.
    """

    _killer_cells: set[int]

    async def _async_handle_timeout(self, timeout: int, cell: NotebookNode | None = None) -> None:
        self.log.error("A cell ran longer than %d s; its kernel is killed", timeout)
        raise CellTimedOut(f"the cell ran longer than {timeout} s (Execute.timeout)")

    async def async_execute_cell(self, cell: NotebookNode, cell_index: int, execution_count: int | None = None,
                                 store_history: bool = True) -> NotebookNode:
        try:
            return await super().async_execute_cell(cell, cell_index, execution_count, store_history)
        except DeadKernelError as error:
            if not hasattr(self, "_killer_cells"):
                self._killer_cells = set()
            self._killer_cells.add(cell_index)
            self.log.error("The kernel died in cell %d; restarting it and re-running the cells before it",
                           cell_index)
            if isinstance(error, CellTimedOut):
                name, why = "CellTimeoutError", str(error)
            else:
                name, why = "KernelDied", "the kernel died while running this cell (os._exit, a crash, or out of memory)"
            cell.outputs.append(NotebookNode(
                output_type="error", ename=name, evalue=why,
                traceback=[f"{name}: {why}; the cells after it ran in a fresh kernel that first re-ran the cells "
                           "before it"],
            ))
            await self._restart_and_replay(cell_index)
            return cell

    # nbconvert calls the synchronous wrapper, which nbclient binds to its own coroutine.
    execute_cell = run_sync(async_execute_cell)

    async def _restart_and_replay(self, failed_index: int) -> None:
        assert self.km is not None and self.kc is not None
        self.kc.stop_channels()
        await self.km.restart_kernel(now=True)
        await self.async_start_new_kernel_client()
        for index, cell in enumerate(self.nb.cells[:failed_index]):
            if index in self._killer_cells:
                continue
            nbgrader = cell.metadata.get("nbgrader", {})
            graded_test = nbgrader.get("grade") and not nbgrader.get("solution")
            failed = any(output.get("output_type") == "error" for output in cell.get("outputs", []))
            if cell.cell_type != "code" or graded_test or failed or not cell.source.strip():
                continue  # test cells are not needed again; failed ones (a time-out, say) would fail again
            # Into the history, as the first run did.
            message_id = self.kc.execute(cell.source, store_history=True)
            try:
                await self.async_wait_for_reply(message_id, cell)
            except DeadKernelError:  # it ran the first time, not now (it looked at the files it left?)
                self.log.error("Re-running cell %d failed; the cells after it run in a fresh, empty kernel", index)
                self.kc.stop_channels()
                await self.km.restart_kernel(now=True)
                await self.async_start_new_kernel_client()
                return


def require_secret_seed(log: logging.Logger | None = None) -> None:
    """Raise NbGraderException (after logging why) when the instructor's secret seed is missing."""
    from autograder.instances import SecretSeedMissing, secret_seed

    try:
        secret_seed()
    except SecretSeedMissing as error:
        message = (f"nbgrader autograde: stopped before grading anyone: {error}. `ftr secret-seed` writes a "
                   "strong one (keep the same seed for the whole term).")
        (log or logging.getLogger("ftr.grading_guards")).error(message)
        raise NbGraderException(message) from None


class RequireSecretSeed(NotebookExporter):
    """Autograde's exporter. nbgrader makes it at the start of every autograde run, whatever started
    it, before any student is looked at: without the secret seed it refuses, and nothing is graded or
    recorded (every hidden test would otherwise score 0)."""

    def __init__(self, **kwargs: Any) -> None:
        parent = kwargs.get("parent")
        require_secret_seed(getattr(parent, "log", None))
        super().__init__(**kwargs)


def is_test_cell(cell: NotebookNode) -> bool:
    """An autograded code cell that is not the student's (the course's ``test_<check>`` cells)."""
    nbgrader = cell.get("metadata", {}).get("nbgrader", {})
    return cell.get("cell_type") == "code" and bool(nbgrader.get("grade")) and not nbgrader.get("solution")


def graded_cell_outputs(report: GradeReport, grade_id: str) -> list[NotebookNode]:
    """The outputs a test cell gets from the autograder's report: the report's text, then its points
    (nbgrader's partial credit) or, with no points, an error naming the first divergences."""
    from autograder.notebook import cell_grade_report

    check_id = grade_id.removeprefix("test_")
    if not any(c.id == check_id for c in report.checks):
        return [nbformat.v4.new_output("error", ename="UnknownCheck", evalue=f"the rubric has no check {check_id!r}",
                                       traceback=[f"UnknownCheck: the rubric has no check {check_id!r}"])]
    points, text, messages = cell_grade_report(report, check_id)
    outputs = [nbformat.v4.new_output("stream", name="stdout", text=text + "\n")]
    if points > 0:
        outputs.append(nbformat.v4.new_output("execute_result", data={"text/plain": f"{points:g}"}, execution_count=None))
    else:
        evalue = f"{check_id}: no points. " + " | ".join(messages[:3])
        outputs.append(nbformat.v4.new_output("error", ename="AssertionError", evalue=evalue,
                                              traceback=[f"AssertionError: {evalue}"]))
    return outputs


def grade_outside_kernel(nb: NotebookNode, name: str) -> GradeReport:
    """Grade ``nb`` (public and hidden instances) with the sandboxed autograder, from a private copy."""
    from autograder.grader import GradingOptions, grade_submission

    with tempfile.TemporaryDirectory(prefix="ftr-autograde-") as folder:  # mode 0700
        path = Path(folder) / f"{name}.ipynb"
        nbformat.write(nb, path)
        return grade_submission(path, GradingOptions(hidden=True))


class GradeOutsideKernel(ResilientExecute):
    """nbgrader's Execute, with the grades taken from the sandboxed autograder, not from the kernel.

    1. the secret seed must be here (else NbGraderException: nothing recorded for this student);
    2. the notebook as nbgrader is about to run it (read-only cells already restored from the
       source) is graded by :func:`grade_outside_kernel`, before any kernel exists;
    3. the notebook runs in a :class:`SandboxedKernelManager` kernel, test cells skipped;
    4. each test cell's outputs become :func:`graded_cell_outputs`, what ``SaveAutoGrades`` records.
    """

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("kernel_manager_class", SandboxedKernelManager)
        super().__init__(**kwargs)

    def preprocess(self, nb: NotebookNode, resources: dict | None = None, km: Any = None) -> tuple[NotebookNode, dict]:
        require_secret_seed(self.log)
        names = (resources or {}).get("nbgrader", {})
        student, notebook_id = names.get("student", "student"), names.get("notebook", "notebook")
        sandboxed = issubclass(self.kernel_manager_class, SandboxedKernelManager)
        if sandboxed:
            kernel_setup()  # no usable kernel: one clear error before the 10 s of grading
        if not sandboxed or kernel_setup()[1] is None:
            self.log.warning("%s: the notebook's kernel is not in bubblewrap: it shares this machine's file system "
                             "(the grades do not come from it)", student)
        report = grade_outside_kernel(nb, notebook_id)
        self.log.info("%s, %s: the autograder gives %g / %g (+%g extra credit), graded outside the kernel",
                      student, notebook_id, report.score, report.max_score, report.extra_credit)
        nb, resources = super().preprocess(nb, resources, km)
        for cell in nb.cells:
            if is_test_cell(cell):
                cell.outputs = graded_cell_outputs(report, cell.metadata.nbgrader["grade_id"])
        return nb, resources

    async def async_execute_cell(self, cell: NotebookNode, cell_index: int, execution_count: int | None = None,
                                 store_history: bool = True) -> NotebookNode:
        if is_test_cell(cell):
            cell.outputs = []  # graded outside the kernel; the kernel never sees a test cell
            return cell
        return await super().async_execute_cell(cell, cell_index, execution_count, store_history)

    execute_cell = run_sync(async_execute_cell)

