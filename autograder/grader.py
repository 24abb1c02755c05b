"""Grading one submission: plan its tasks, run them in the sandbox judging every reply as it arrives,
score each rubric check.

The checks, each a kind with its plan, judge and score (:mod:`autograder.checks`, points from the
rubric, :mod:`autograder.rubric`): ``heap`` (:mod:`autograder.checks.heap`); the search checks
``forward_larger_g``, ``forward_smaller_g``, ``backward``, ``adaptive``
(:mod:`autograder.checks.search`); ``efficiency`` (:mod:`autograder.checks.efficiency`); the extra
credit ``heap_from_scratch`` (:mod:`autograder.checks.from_scratch`). This module keeps the run
loop: which instances (:func:`instance_sets`), the lanes, the sandbox, the children's first messages.

With hidden instances the hidden group's points are a check of their own (``<id>_hidden``, shown
after the due date on Gradescope), and hidden instances run in a second phase, in children of their
own started after every public task is answered: no child that saw a hidden instance ever answers a
public task, and no task's label names an instance.

>>> options = GradingOptions()
>>> options.hidden, options.full, options.efficiency_ratio is None
(False, False, True)
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

from . import heapcheck
from .checks import CHECKS
from .checks.base import HELLO, SCRATCH_HELLO, InstanceSet, Judged, Plan, Planner, Replies, Scoring, Task
from .checks.efficiency import probe_seed  # noqa: F401 - public: the probe a grading times
from .checks.search import SECONDS_PER_EXPANSION
from .expected import SETTINGS
from .instances import derived_seed, grouped_public_instances, hidden_instances, secret_seed
from .report import CheckResult, GradeReport, printable
from .rubric import load_rubric
from .sandbox import Lane, Limits, Sandbox, TaskOutcome
from .submission import Submission, load_submission

PUBLIC_HEAP_SEED = 2005
FULL_SET_TOTAL_SECONDS = 7200.0
#: A submission's CPU budget for all its tasks: this much plus twice the slow student's time on every
#: instance (``SECONDS_PER_EXPANSION`` per expansion of the reference's runs). A correct submission
#: spends 2-30 s of CPU on the public and hidden instances; a loop, a fork bomb or a memory hog in
#: every function stops after a few time-outs instead of one per check and instance set.
BUDGET_FLOOR_SECONDS = 120.0


@dataclass
class GradingOptions:
    """What to grade on. ``hidden``: public + hidden instances; ``hidden_only``: hidden only.

    ``workers``: children run at the same time for one submission (None: every core).
    """

    hidden: bool = False
    hidden_only: bool = False
    full: bool = False
    checks: tuple[str, ...] | None = None       # None: every check of the rubric
    instances: tuple[str, ...] | None = None    # None: every instance; else these public ones (by name)
    limits: Limits = field(default_factory=Limits)
    efficiency_ratio: float | None = None       # None: the rubric's [policy] efficiency_ratio
    progress: bool = False
    workers: int | None = None


class SelectionError(ValueError):
    """``--only`` or ``--instance`` names a check or an instance that does not exist (one line)."""


def selection(only: list[str] | None, instances: list[str] | None, rubric=None) -> dict:
    """The :class:`GradingOptions` fields that rerun part of a grading (``ftr check --only CHECK
    --instance NAME``, ``self_check.py`` likewise): ``{"checks": ..., "instances": ...}``, or a
    :class:`SelectionError` whose one line lists the valid names.

    >>> selection(["adaptive"], ["example_1"])
    {'checks': ('adaptive',), 'instances': ('example_1',)}
    >>> selection(["adaptiv"], None)
    Traceback (most recent call last):
    ...
    autograder.grader.SelectionError: --only: no check 'adaptiv'; the checks are heap, forward_larger_g, forward_smaller_g, backward, adaptive, efficiency, heap_from_scratch
    """
    rubric = rubric or load_rubric()
    checks = list(rubric.autograded) + list(rubric.extra_credit)
    for name in only or ():
        if name not in checks:
            raise SelectionError(f"--only: no check {name!r}; the checks are {', '.join(checks)}")
    chosen: dict = {"checks": tuple(dict.fromkeys(only)) if only else None, "instances": None}
    if instances:
        searches = [check for check in checks if check in SETTINGS]
        names = [instance.name for _, instance in grouped_public_instances(full=True)]
        for name in instances:
            if name not in names:
                raise SelectionError(f"--instance: no public instance {name!r}; the instances are "
                                     f"{', '.join(names[:9])}, ..., {names[-1]}")
        if only and not set(only) & set(searches):
            raise SelectionError(f"--instance: only the search checks run instances ({', '.join(searches)})")
        chosen["checks"] = tuple(check for check in (chosen["checks"] or searches) if check in searches)
        chosen["instances"] = tuple(dict.fromkeys(instances))
    return chosen


def instance_sets(options: GradingOptions) -> list[InstanceSet]:
    """The instance sets ``options`` asks for: the named public instances of a rerun, or the public set (eight
    mazes, or all 50 with ``full``), with the hidden set after it (or alone).
    """
    if options.instances:  # a rerun of named public instances (the standard mazes beyond the eight too)
        return [InstanceSet("", [(group, instance) for group, instance in grouped_public_instances(full=True)
                                 if instance.name in options.instances], "visible")]
    hidden = [("hidden", instance) for instance in hidden_instances()] if options.hidden or options.hidden_only else []
    if options.hidden_only:
        return [InstanceSet("", hidden, "visible", hidden=True)]
    sets = [InstanceSet("", grouped_public_instances(full=options.full), "visible")]
    if hidden:
        sets.append(InstanceSet("_hidden", hidden, "after_due_date", hidden=True))
    return sets


def _balanced_lanes(tasks: list[Task], count: int) -> list[Lane]:
    """Spread tasks over ``count`` lanes, biggest first onto the least loaded (keeping each lane's order)."""
    loads = [0.0] * count
    chosen: list[list] = [[] for _ in range(count)]
    for index in sorted(range(len(tasks)), key=lambda i: -tasks[i].cpu_seconds):
        lane = loads.index(min(loads))
        loads[lane] += tasks[index].cpu_seconds
        chosen[lane].append(index)
    return [Lane([tasks[i].frame() for i in sorted(indices)]) for indices in chosen if indices]


def default_workers() -> int:
    """How many children grade at once by default: the processors this process may run on (at least 1)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return max(1, os.cpu_count() or 1)


def grade_submission(submission: Submission | str | Path, options: GradingOptions | None = None) -> GradeReport:
    """Grade one submission (a folder or notebook path, or a loaded :class:`Submission`):
    plan the tasks, run them in the sandbox judging each reply as it arrives, score the checks.

    The student's code runs only in sandboxed children (:class:`~autograder.sandbox.Sandbox`); what
    comes back is judged against the reference's runs, never trusted.

    Parameters
    ----------
    submission : Submission, str or pathlib.Path
        A submission folder (``heap.py``, ``replanning.py``) or notebook, or one already loaded
        (:func:`~autograder.submission.load_submission`).
    options : GradingOptions, optional
        Which instances and checks, the sandbox's limits, workers, progress bar (default: the public
        instances, every check of the rubric, the rubric's efficiency ratio).

    Returns
    -------
    GradeReport
        One result per check in the rubric's order, the submission's warnings, the time taken;
        ``.to_text()`` and ``.to_dict()`` are the reports ``ftr grade`` prints and writes.

    Raises
    ------
    SubmissionError
        The path is not a submission that can be read (missing, a link, too large, no code).
    SandboxSetupError
        The sandbox cannot start on this machine (one line naming what is missing).
    SecretSeedMissing
        Hidden instances asked for without the instructor's secret seed.
    ValueError
        None of the checks asked for is in the rubric.

    See Also
    --------
    autograder.batch.grade_all : every submission of a folder, with a gradebook (``ftr grade-all``).
    plan_tasks, run_tasks, score : the three steps.
    """
    began, began_cpu = time.monotonic(), time.process_time()
    options = options or GradingOptions()
    if not isinstance(submission, Submission):
        submission = load_submission(submission)
    rubric = load_rubric()
    wanted = options.checks or tuple(rubric.autograded) + tuple(rubric.extra_credit)
    plan = plan_tasks(options, rubric, wanted)
    replies = run_tasks(submission, plan, options.progress)
    results = score(plan, replies, rubric, wanted, submission)
    cost = {"student": round(replies.task_cpu, 3),
            "startup": round(max(0.0, replies.children_cpu - replies.task_cpu), 3),
            "grader": round(time.process_time() - began_cpu, 3)}
    return GradeReport(submission.name, submission.kind, _set_label(options), results,
                       submission.warnings + _import_warnings(replies.hello), time.monotonic() - began, cost=cost)


def plan_tasks(options: GradingOptions, rubric, wanted: tuple[str, ...]) -> Plan:
    """Every task of a grading and its lanes, each check planning its own (:data:`~autograder.checks.CHECKS`,
    in the table's order). Two phases: the public one (the heap, public instances, from scratch, the
    probe), then the hidden one, whose children start only after every public task has been answered,
    so nothing a child learns of a hidden instance can reach a visible check."""
    sets = instance_sets(options)
    graded_hidden = options.hidden or options.hidden_only
    heap_seed = derived_seed(secret_seed(), "heap sequences") if graded_hidden else PUBLIC_HEAP_SEED
    limits = options.limits
    if options.full:  # all 50 mazes: Repeated Backward A* alone expands millions of cells on some
        limits = replace(limits, total_seconds=max(limits.total_seconds, FULL_SET_TOTAL_SECONDS))
    planner = Planner(rubric, wanted, sets, heapcheck.make_sequences(heap_seed), limits.task_seconds,
                      options.efficiency_ratio)
    planned = set(wanted) | {also for check_id in wanted if check_id in CHECKS for also in CHECKS[check_id].also_plans}
    for check_id, kind in CHECKS.items():
        if check_id in planned:
            kind.plan(check_id, planner)
    workers = max(1, options.workers or default_workers())
    public_lanes = (_balanced_lanes(planner.public, workers) if planner.public else []) + planner.lanes
    hidden_lanes = _balanced_lanes(planner.hidden, workers) if planner.hidden else []
    if not public_lanes and not hidden_lanes:
        raise ValueError(f"nothing to grade: none of the checks {wanted} is in the rubric")
    if limits.cpu_budget_seconds is None:  # the submission's whole budget: a few times a correct one's
        work = sum(SECONDS_PER_EXPANSION * task.expected.expansions for task in planner.tasks.values()
                   if task.check in SETTINGS and task.expected is not None)
        limits = replace(limits, cpu_budget_seconds=round(BUDGET_FLOOR_SECONDS + 2 * work, 1))
    (public_lanes or hidden_lanes)[0].hello = HELLO
    return Plan(planner.tasks, public_lanes, hidden_lanes, sets, planner.sequences, limits, workers)


def run_tasks(submission: Submission, plan: Plan, progress: bool = False) -> Replies:
    """Run the plan's lanes in the submission's sandbox, the public phase then the hidden one (one time
    budget for both), and judge each reply as it arrives (it is dropped once judged)."""
    replies = Replies()
    with Sandbox(submission.files, plan.limits) as sandbox:
        bar = _progress(sum(len(lane.tasks) for lane in plan.public_lanes + plan.hidden_lanes), submission.name,
                        progress)
        deadline = time.monotonic() + plan.limits.total_seconds
        for phase in (plan.public_lanes, plan.hidden_lanes):
            if not phase:
                continue
            for outcome in sandbox.run(phase, plan.workers, deadline):
                if outcome.task_id == HELLO:
                    replies.hello = outcome.header or {"errors": {"submission": outcome.failure}, "names": []}
                elif outcome.task_id == SCRATCH_HELLO:
                    replies.scratch_hello = outcome.header or {"errors": {"heap": outcome.failure}, "names": []}
                else:
                    replies.judged[outcome.task_id] = _judge_safely(outcome, plan.tasks.get(outcome.task_id))
                    bar.update(1)
        bar.close()
    replies.task_cpu, replies.children_cpu = sandbox.cpu_spent, sandbox.children_cpu
    return replies


def score(plan: Plan, replies: Replies, rubric, wanted: tuple[str, ...], submission: Submission) -> list[CheckResult]:
    """Each wanted check's result from the judged replies, in the rubric's order (extra credit last)."""
    scoring = Scoring(plan, replies, rubric, submission, _missing_names(replies.hello, submission))
    results: list[CheckResult] = []
    for check_id, points in [*rubric.autograded.items(), *rubric.extra_credit.items()]:
        if check_id in wanted and check_id in CHECKS:
            results += CHECKS[check_id].score(check_id, points, scoring)
    return results


def _judge_safely(outcome: TaskOutcome, task: Task | None) -> Judged:
    """Judge one reply by its check's kind; any exception while judging (a reply crafted to break the
    grader) is that task's error, never the grader's."""
    if task is None:
        return Judged(seconds=outcome.seconds, cpu_seconds=outcome.cpu_seconds, timed_out=outcome.timed_out,
                      problem="a reply for a task the grader never sent")
    try:
        return CHECKS[task.check].judge(task, outcome)
    except Exception as error:  # noqa: BLE001
        problem = f"{task.name}: the reply could not be judged ({type(error).__name__})"
        return Judged(seconds=outcome.seconds, cpu_seconds=outcome.cpu_seconds, timed_out=outcome.timed_out,
                      problem=problem, messages=[problem])


def _set_label(options: GradingOptions) -> str:
    if options.instances:
        return "public (only " + ", ".join(options.instances) + ")"
    label = "hidden" if options.hidden_only else "public + hidden" if options.hidden else "public"
    return label + (" (all 50 standard mazes)" if options.full and not options.hidden_only else "")


def _progress(total: int, name: str, enabled: bool):
    from tqdm import tqdm

    return tqdm(total=total, desc=f"grading {printable(name, newlines=False)}", unit="task", disable=not enabled,
                leave=False)


def _missing_names(hello: dict, submission: Submission) -> dict[str, str]:
    """For each needed name the child did not find, why (with the import error, if any)."""
    names = set(hello.get("names", []))
    errors = hello.get("errors", {}) or {}
    missing = {}
    for name, module in (("BinaryHeap", "heap"), ("repeated_forward_astar", "replanning"),
                         ("repeated_backward_astar", "replanning"), ("adaptive_astar", "replanning")):
        if name in names:
            continue
        error = errors.get(module) or errors.get("submission")
        where = f"{module}.py" if submission.kind == "folder" else "the notebook"
        reason = f"{name} is not defined in {where}"
        if error:
            reason = f"{where} could not be imported, so {name} is missing:\n{error}"
            if "No module named 'reference" in error or "No module named 'autograder" in error:
                reason += "\n(your code may import only reference.world from the kit)"
        missing[name] = reason
    return missing


def _import_warnings(hello: dict) -> list[str]:
    return [f"{where}: {text.splitlines()[0]}" for where, text in (hello.get("errors") or {}).items()
            if where not in ("heap", "replanning", "submission")]


def rerun_command(report: GradeReport, command: str) -> str:
    """How to rerun the first check that lost points, on the first instance its messages name:
    ``rerun: ftr check starter --only adaptive --instance example_1``.

    >>> failed = CheckResult("adaptive", "Adaptive A*", 0.0, 10.0, ["example_1, search 2: ..."]).finish()
    >>> rerun_command(GradeReport("alice", "folder", "public", [failed], [], 1.0), "ftr check starter")
    'rerun one check: ftr check starter --only adaptive --instance example_1  (checks: adaptive)'
    """
    lost = [check for check in report.checks if check.points < check.max_points]
    if not lost:
        return ""
    first = lost[0]
    line = f"rerun one check: {command} --only {first.id.removesuffix('_hidden')}"
    names = {instance.name for _, instance in grouped_public_instances(full=True)}
    for message in first.messages:
        name = message.split(",")[0].split(":")[0].split(" (and ")[0]
        if name in names:
            line += f" --instance {name}"
            break
    return line + f"  (checks: {', '.join(check.id for check in lost)})"
