"""Grading from inside a notebook (nbgrader test cells, or a student's own self-check).

A test cell calls ``check("forward_larger_g", globals())``; the last line's value (the points) is
what nbgrader (>= 0.6) records as the cell's partial credit. The student's definitions are *not*
run in the notebook's kernel: their source is taken from the kernel's input history (``In``; the
cells executed so far) or, without IPython, from ``inspect``, and graded in the sandbox like a
notebook submission.

    from autograder.notebook import check
    check("heap", globals())          # prints a short report; returns 8.0 when all is right

``instances="hidden"`` grades on the hidden instances made from the instructor's secret seed
(``FTR_SECRET_SEED``, or the file named in docs/autograder.md); ``instances="both"`` on the public
and the hidden instances, split by the rubric's ``[groups]`` weights (half each by default): exactly the
check's points in ``ftr grade --hidden``.

The course's test cells check the public instances and then, in their hidden part, ``"both"``:
that is what a student (public part only) or the instructor (with the seed) sees when running the
notebook. Where the secret seed is present, the public line only reports and never raises, so the
cell's points are the ``"both"`` line's.

``nbgrader autograde`` does not call ``check``: a student's kernel could redefine it. The course's
``GradeOutsideKernel`` (course/grading_guards.py) grades the submitted notebook in the grading
process and writes :func:`cell_grade_report` into each test cell. Inside a kernel that nbgrader runs
for autograding (``NBGRADER_EXECUTION=autograde``) ``check`` refuses, so an autograde run without the
course's configuration gives no test cell any points rather than trusting the kernel.
"""

from __future__ import annotations

import inspect
import os
import types
import typing
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .grader import GradingOptions, grade_submission
from .report import GradeReport
from .instances import SecretSeedMissing, secret_seed
from .rubric import load_rubric
from .submission import from_statements, notebook_statements


def namespace_statements(namespace: Mapping[str, Any]) -> list[dict]:
    """The definitions of a notebook's namespace, as kept statements (see :mod:`autograder.submission`)."""
    history = namespace.get("In")
    if isinstance(history, list) and any(isinstance(cell, str) and cell.strip() for cell in history):
        # In[n] is what the student sees as "In [n]" (In[0] is empty).
        cells = [{"cell_type": "code", "source": cell, "execution_count": number}
                 for number, cell in enumerate(history) if isinstance(cell, str)]
        statements = notebook_statements({"cells": cells})
    else:
        statements = _statements_from_objects(namespace)
    return statements


def _statements_from_objects(namespace: Mapping[str, Any]) -> list[dict]:
    """Without IPython's history: imports of the modules and names in use, simple constants, then each
    definition's source."""
    imports, definitions = [], []
    for name, value in namespace.items():
        if name.startswith("_"):
            continue
        if _is_constant(value):  # constants such as INFINITY = 1 << 62
            imports.append(f"{name} = {value!r}")
        elif isinstance(value, typing.TypeVar):
            imports.append(f"from typing import TypeVar\n{name} = TypeVar({value.__name__!r})")
        elif isinstance(value, types.ModuleType):
            if value.__name__.split(".")[0] == "autograder":
                continue
            imports.append(f"import {value.__name__}" + (f" as {name}" if name != value.__name__ else ""))
        elif inspect.isclass(value) or inspect.isfunction(value):
            module = getattr(value, "__module__", "")
            if module == namespace.get("__name__", "__main__"):
                try:
                    definitions.append(inspect.getsource(value))
                except (OSError, TypeError):
                    continue
            elif module and not module.startswith(("autograder", "reference.solutions")):
                imports.append(f"from {module} import {value.__name__}" + (f" as {name}" if name != value.__name__ else ""))
    return [{"cell": "the notebook", "source": source} for source in imports + definitions]


def _is_constant(value: Any) -> bool:
    """Numbers, strings, booleans, and tuples of them: values whose repr rebuilds them."""
    if type(value) is tuple:
        return all(_is_constant(v) for v in value)
    return type(value) in (int, float, str, bool)


def check(check_id: str, namespace: Mapping[str, Any], instances: str = "public") -> float:
    """Run rubric check ``check_id`` on the definitions in ``namespace``; print a report; return the points.

    Raises AssertionError naming the first divergences when the check earns nothing, and
    RuntimeError inside nbgrader's autograding kernel (grading happens outside it).
    """
    if os.environ.get("NBGRADER_EXECUTION") == "autograde":
        raise RuntimeError("check() does not grade inside nbgrader's autograding kernel: the course's "
                           "nbgrader_config.py grades the notebook outside it (GradeOutsideKernel)")
    rubric = load_rubric()
    known = set(rubric.autograded) | set(rubric.extra_credit)
    if check_id not in known:
        raise ValueError(f"unknown check {check_id!r}; the rubric has {', '.join(sorted(known))}")
    if instances not in ("public", "hidden", "both"):
        raise ValueError(f"instances must be 'public', 'hidden' or 'both', got {instances!r}")
    submission = from_statements("notebook", Path("notebook"), namespace_statements(namespace))
    checks = ("heap", "heap_from_scratch") if check_id == "heap_from_scratch" else (check_id,)
    options = GradingOptions(checks=checks, hidden=instances == "both", hidden_only=instances == "hidden")
    report = grade_submission(submission, options)
    if instances == "both":
        points, text, messages = cell_grade_report(report, check_id, public_details=check_id not in _PUBLIC_SHOWN)
        print(text)
    else:
        # The report has the check once ("<id>", or "<id>_hidden" with hidden_only).
        results = [c for c in report.checks if c.id in (check_id, check_id + "_hidden")]
        points = round(sum(c.points for c in results), 2)
        which = {"public": "the public instances: the handout's examples, the hand-made cases, the standard mazes",
                 "hidden": "the hidden instances made from the instructor's secret seed"}[instances]
        print(f"{results[0].title}: {points:g} / {sum(c.max_points for c in results):g} on {which}")
        messages = [m for c in results for m in c.messages]
        for message in messages:
            print("  - " + message.replace("\n", "\n    "))
        _PUBLIC_SHOWN.add(check_id)
    if points <= 0 and not (instances == "public" and _hidden_part_follows()):
        raise AssertionError(f"{check_id}: no points. " + " | ".join(messages[:3]))
    return points


def cell_grade_report(report: GradeReport, check_id: str, public_details: bool = True) -> tuple[float, str, list[str]]:
    """A course test cell's grade from a ``hidden=True`` report: (points, the text it shows, messages).

    The points are the check's public and hidden parts together (``<id>`` and ``<id>_hidden``),
    exactly what ``ftr grade --hidden`` gives the check. ``public_details=False`` leaves out the
    public part's messages (a public check printed them just before).

    >>> from autograder.report import CheckResult, GradeReport
    >>> report = GradeReport("alice", "notebook", "public+hidden", [CheckResult("heap", "The heap", 4, 4),
    ...     CheckResult("heap_hidden", "The heap", 2, 4, ["sequence 3: pop gave 'b'"])], [], 1.0)
    >>> points, text, messages = cell_grade_report(report, "heap")
    >>> points, messages
    (6, ["sequence 3: pop gave 'b'"])
    """
    results = [c for c in report.checks if c.id in (check_id, check_id + "_hidden")]
    public, hidden = results[0], results[-1]
    points = round(sum(c.points for c in results), 2)
    lines = [f"{public.title}: {points:g} / {sum(c.max_points for c in results):g} on the public and the hidden "
             "instances together (the grade for this cell)"]
    if report.error:
        lines.append(f"  not graded: {report.error}")
    lines.append(f"  public instances (the handout's examples, the hand-made cases, the standard mazes): "
                 f"{public.points:g} / {public.max_points:g}" + ("" if public_details else " (details above)"))
    if public_details:
        lines += ["    - " + message.replace("\n", "\n      ") for message in public.messages]
    lines.append(f"  hidden instances (made from the instructor's secret seed): {hidden.points:g} / {hidden.max_points:g}")
    lines += ["    - " + message.replace("\n", "\n      ") for message in hidden.messages]
    messages = ([report.error] if report.error else []) + [m for c in results for m in c.messages]
    return points, "\n".join(lines), messages


_PUBLIC_SHOWN: set[str] = set()


def _hidden_part_follows() -> bool:
    """Whether the instructor's secret seed is here: then a test cell's hidden part gives its points."""
    try:
        secret_seed()
    except SecretSeedMissing:
        return False
    return True
