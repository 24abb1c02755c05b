"""Grading one submission: run it in the sandbox, judge every reply as it arrives, score each rubric check.

The checks (points from the rubric, :mod:`autograder.rubric`):

* ``heap``: random op sequences against a model (:mod:`autograder.heapcheck`); credit in proportion
  to the sequences handled exactly.
* ``forward_larger_g``, ``forward_smaller_g``, ``backward``, ``adaptive``: every instance is run
  and judged (:mod:`autograder.searchcheck`). The instances come in groups (the handout's examples,
  the hand-made cases, the standard mazes, the hidden ones), each worth the rubric's ``[groups]``
  share of the check, all or nothing per group: every run as the SPEC says, full; all runs correct
  A* but some break remaining ties (equal f and g) in another order, the rubric's ``[policy]
  other_ties_credit`` of the group; any run wrong, crashed or too slow, nothing for that group.
* ``efficiency``: a probe on a 1001 x 1001 grid (derived from the secret seed, so a regrade times the
  same probe; a random one where there is no seed but the reference solutions are installed) is run
  twice, each time in a fresh child; each run must do real search (a trace that reaches the target
  along the walk the world saw, with expansions that could be real A* work: not whether it is the
  SPEC's run, which the search checks charge for once), and the faster one's CPU time (the child's
  whole process tree) be at most the rubric's ``[policy] efficiency_ratio`` times the reference's CPU
  time, scaled by the run's own verified work where it expanded more, plus a little slack.
* ``heap_from_scratch`` (extra credit): the heap check passes again in a child where ``heapq``,
  ``queue``, ``bisect`` and their kin cannot be imported, and no module or cell names them.

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
import secrets
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from reference.world.grid import manhattan
from reference.world.instances import Instance

from . import heapcheck
from .expected import SETTINGS, ExpectedRun, compute_expected, expected_run
from .instances import (GROUP_TITLES, derived_seed, efficiency_probe, grouped_public_instances, hidden_instances,
                        secret_seed)
from .report import CheckResult, GradeReport, printable
from .rubric import TITLES, load_rubric
from .sandbox import Lane, Limits, Sandbox, TaskOutcome
from .searchcheck import RULE_OBSERVE, judge_run, real_search_problem
from .submission import Submission, load_submission

EFFICIENCY_SLACK_SECONDS = 0.3
PUBLIC_HEAP_SEED = 2005
SHOWN_PER_CHECK = 3
HELLO, SCRATCH_HELLO = -1, -2   # the task ids of the children's first messages (the main one, the from-scratch one)
#: A task's CPU budget: the limit's ``task_seconds`` plus this much per expansion of the reference's run
#: (a correct Python solution expands 50,000 to 300,000 cells a second: this allows 10,000).
SECONDS_PER_EXPANSION = 1e-4
FULL_SET_TOTAL_SECONDS = 7200.0
#: A submission's CPU budget for all its tasks: this much plus twice the slow student's time on every
#: instance (``SECONDS_PER_EXPANSION`` per expansion of the reference's runs). A correct submission
#: spends 2-30 s of CPU on the public and hidden instances; a loop, a fork bomb or a memory hog in
#: every function stops after a few time-outs instead of one per check and instance set.
BUDGET_FLOOR_SECONDS = 120.0
#: The smallest reply cap of a search task: 4 million cells of trace, several times what any legal run
#: of the kit's instances returns (the largest seen: 0.5 million), and few enough for the grader to replay.
REPLY_FLOOR_BYTES = 16 << 20


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


@dataclass
class InstanceSet:
    """One part of a search check: its id suffix, its (group, instance) pairs and Gradescope visibility."""

    suffix: str            # "" or "_hidden": appended to the check id
    instances: list[tuple[str, Instance]]
    visibility: str
    hidden: bool = False   # made from the secret seed: run in children of their own, after the public ones


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


def _bits(instance: Instance):
    from array import array

    packed = np.packbits(instance.grid.blocked).tobytes()
    padded = packed + b"\0" * (-len(packed) % 4)
    return array("i", padded), len(packed)


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
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return max(1, os.cpu_count() or 1)


@dataclass
class Task:
    """One run the grader asks a child for, and what it needs to judge the reply.

    ``check``: ``heap``, ``heap_from_scratch``, ``efficiency`` or a search check's id; a search task
    also has its instance, its instance set and group, and the reference's run on it. ``frame()`` is
    the message the child gets (:mod:`autograder.wire`): everything in it reaches the student's code.
    """

    id: int
    check: str
    cpu_seconds: float                  # the task's CPU budget
    reply_bytes: int                    # the largest reply the grader reads
    label: str                          # what a failure says was running: the function, never the instance
    instance: Instance | None = None
    instance_set: InstanceSet | None = None
    group: str | None = None
    expected: ExpectedRun | None = None

    @property
    def name(self) -> str:
        """What the grader's messages call the task: its instance's name, else "the heap check"."""
        return self.instance.name if self.instance is not None else "the heap check"

    def frame(self) -> tuple[dict, list]:
        """The task's message to the child: a JSON header and its int32 arrays."""
        raise NotImplementedError


@dataclass
class HeapTask(Task):
    """The heap check's random operation sequences, answered in one reply."""

    sequences: list = field(default_factory=list)

    def frame(self) -> tuple[dict, list]:
        return ({"kind": "heap", "id": self.id, "sequences": self.sequences, "label": self.label,
                 "cpu_seconds": self.cpu_seconds, "reply_bytes": self.reply_bytes}, [])


@dataclass
class SearchTask(Task):
    """One run of a student's function on one instance. ``setting``: the :data:`SETTINGS` entry it
    runs (the efficiency probe runs ``forward_larger_g``); ``skip_group``: the tasks a time-out skips
    (one check's instance set, or one probe run), a neutral name."""

    setting: str = ""
    skip_group: str = ""

    def frame(self) -> tuple[dict, list]:
        assert self.instance is not None  # every search task has its instance
        instance = self.instance
        _algorithm, tie_break, function = SETTINGS[self.setting]
        bits, bit_bytes = _bits(instance)
        return ({"kind": "search", "id": self.id, "function": function, "tie_break": tie_break,
                 "height": instance.grid.height, "width": instance.grid.width, "start": list(instance.start),
                 "target": list(instance.target), "bit_bytes": bit_bytes, "group": self.skip_group,
                 "cpu_seconds": self.cpu_seconds, "reply_bytes": self.reply_bytes, "label": self.label}, [bits])


def search_task(task_id: int, check_id: str, instance: Instance, task_seconds: float, skip_group: str,
                expected: ExpectedRun | None = None, **fields) -> SearchTask:
    """The task for one run, with its CPU budget and reply size cap from the reference's run.

    Its label names the function, never the instance (the grader names the instance in its own
    messages), and ``skip_group`` is neutral: both reach the child."""
    setting = "forward_larger_g" if check_id == "efficiency" else check_id
    _algorithm, tie_break, function = SETTINGS[setting]
    expected = expected or expected_run(instance, setting)  # computed (or loaded) before any student code runs
    # A correct reply holds about 4 bytes x (2 expansions + 5 searches + 2 moves); allow 8 times that, and
    # never less than REPLY_FLOOR_BYTES: a legal A* with other remaining ties can walk another way and
    # search far more (Repeated Backward A* on maze_42 with last-inserted-first ties: 85 times the
    # expansions, a 2 MB reply), and must not be refused for it.
    reply_bytes = max(REPLY_FLOOR_BYTES,
                      (1 << 20) + 32 * (2 * expected.expansions + 5 * expected.searches + 2 * expected.moves))
    return SearchTask(task_id, check_id, round(task_seconds + SECONDS_PER_EXPANSION * expected.expansions, 1),
                      reply_bytes, f"{function}(..., tie_break={tie_break!r})", instance, expected=expected,
                      setting=setting, skip_group=skip_group, **fields)


@dataclass
class Probe:
    """The efficiency probe of one grading: the instance, the reference's run and CPU time, the ratio
    allowed and the limit it gives (``ratio`` x the reference's time + the slack)."""

    instance: Instance
    expected: ExpectedRun
    reference_seconds: float
    ratio: float
    limit: float


@dataclass
class Plan:
    """Every task of one grading, in lanes: public ones first, hidden ones in children of their own."""

    tasks: dict[int, Task]
    public_lanes: list[Lane]
    hidden_lanes: list[Lane]
    sets: list[InstanceSet]
    sequences: list
    limits: Limits
    workers: int
    probe: Probe | None = None

    def of_check(self, check: str, instance_set: InstanceSet | None = None) -> list[Task]:
        return [task for task in self.tasks.values()
                if task.check == check and (instance_set is None or task.instance_set is instance_set)]


@dataclass
class _Judged:
    """What the grader keeps of one reply once it is judged (the reply itself is dropped)."""

    tier: str = "wrong"                 # exact, ties or wrong (heap: the number of sequences passed)
    problem: str | None = None
    note: str | None = None
    seconds: float = 0.0
    cpu_seconds: float | None = None
    timed_out: bool = False
    passed: int = 0
    messages: list[str] = field(default_factory=list)
    work: int = 0                       # an efficiency run: its verified expansions (searchcheck.verified_work)


@dataclass
class Replies:
    """What came back from the children, judged: per task id, and the children's first messages."""

    judged: dict[int, _Judged] = field(default_factory=dict)
    hello: dict = field(default_factory=dict)
    scratch_hello: dict = field(default_factory=dict)
    task_cpu: float = 0.0       # the children's CPU time on tasks
    children_cpu: float = 0.0   # the children's CPU time in all, start-up included


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
    """Every task of a grading and its lanes. Two phases: the public one (the heap, public instances,
    the probe, from scratch), then the hidden one, whose children start only after every public task
    has been answered, so nothing a child learns of a hidden instance can reach a visible check."""
    sets = instance_sets(options)
    graded_hidden = options.hidden or options.hidden_only
    heap_seed = derived_seed(secret_seed(), "heap sequences") if graded_hidden else PUBLIC_HEAP_SEED
    limits = options.limits
    if options.full:  # all 50 mazes: Repeated Backward A* alone expands millions of cells on some
        limits = replace(limits, total_seconds=max(limits.total_seconds, FULL_SET_TOTAL_SECONDS))
    sequences = heapcheck.make_sequences(heap_seed)
    tasks: dict[int, Task] = {}
    public: list[Task] = []
    hidden: list[Task] = []

    def add(task: Task) -> Task:
        tasks[task.id] = task
        return task

    def heap_task(check: str, label: str) -> Task:
        return add(HeapTask(len(tasks), check, limits.task_seconds, 8 << 20, label, sequences=sequences))

    if "heap" in wanted or "heap_from_scratch" in wanted:
        public.append(heap_task("heap", "the heap check"))
    for check_id in SETTINGS:
        if check_id not in wanted:
            continue
        for number, instance_set in enumerate(sets):
            for group, instance in instance_set.instances:
                (hidden if instance_set.hidden else public).append(add(search_task(
                    len(tasks), check_id, instance, limits.task_seconds, f"{check_id}/{number}",
                    instance_set=instance_set, group=group)))
    workers = max(1, options.workers or default_workers())
    public_lanes = _balanced_lanes(public, workers) if public else []
    hidden_lanes = _balanced_lanes(hidden, workers) if hidden else []
    if "heap_from_scratch" in wanted and "heap_from_scratch" in rubric.extra_credit:
        public_lanes.append(Lane([heap_task("heap_from_scratch", "the heap check (from scratch)").frame()],
                                 settings={"from_scratch": True}, hello=SCRATCH_HELLO))
    probe = None
    if "efficiency" in wanted:
        instance = efficiency_probe(probe_seed())
        reference_cpu, expected = reference_seconds(instance)
        ratio = options.efficiency_ratio if options.efficiency_ratio is not None else rubric.efficiency_ratio
        probe = Probe(instance, expected, reference_cpu, ratio, ratio * reference_cpu + EFFICIENCY_SLACK_SECONDS)
        runs = []
        for number in range(2):  # the faster of two runs counts; a run far over is stopped (not the other)
            task = add(search_task(len(tasks), "efficiency", instance, limits.task_seconds, f"efficiency/{number}",
                                   expected))
            # room for a run that does more work than the reference's (another tie order; its limit scales)
            task.cpu_seconds = round(3 * probe.limit + 1.0, 2)
            runs.append(task.frame())
        # fresh: each timed run in a new child, which cannot replay an earlier run from memory
        public_lanes.append(Lane(runs, fresh=True))
    if not public_lanes and not hidden_lanes:
        raise ValueError(f"nothing to grade: none of the checks {wanted} is in the rubric")
    if limits.cpu_budget_seconds is None:  # the submission's whole budget: a few times a correct one's
        work = sum(SECONDS_PER_EXPANSION * expected_run(task.instance, task.check).expansions
                   for task in tasks.values() if task.check in SETTINGS and task.instance is not None)
        limits = replace(limits, cpu_budget_seconds=round(BUDGET_FLOOR_SECONDS + 2 * work, 1))
    (public_lanes or hidden_lanes)[0].hello = HELLO
    return Plan(tasks, public_lanes, hidden_lanes, sets, sequences, limits, workers, probe)


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
                    replies.judged[outcome.task_id] = _judge_safely(outcome, plan.tasks.get(outcome.task_id),
                                                                    plan.sequences)
                    bar.update(1)
        bar.close()
    replies.task_cpu, replies.children_cpu = sandbox.cpu_spent, sandbox.children_cpu
    return replies


def score(plan: Plan, replies: Replies, rubric, wanted: tuple[str, ...], submission: Submission) -> list[CheckResult]:
    """Each wanted check's result from the judged replies, in the rubric's order."""
    missing = _missing_names(replies.hello, submission)
    judged = replies.judged
    results: list[CheckResult] = []
    for check_id, points in rubric.autograded.items():
        if check_id not in wanted:
            continue
        if check_id == "heap":
            heap = plan.of_check("heap")
            results.append(_heap_result(points, len(plan.sequences), judged.get(heap[0].id) if heap else None,
                                        missing))
        elif check_id == "efficiency":
            runs = [judged.get(task.id) for task in plan.of_check("efficiency")]
            assert plan.probe is not None  # plan_tasks makes the probe whenever "efficiency" is wanted
            results.append(_efficiency_result(points, plan.probe, runs, missing))
        else:
            weights = rubric.groups
            in_play = {group for instance_set in plan.sets for group, _ in instance_set.instances}
            total_weight = sum(weights[group] for group in in_play) or 1.0
            for instance_set in plan.sets:
                results.append(_search_result(check_id, points / total_weight, weights, instance_set,
                                              plan.of_check(check_id, instance_set), judged, missing,
                                              rubric.ties_credit))
    if "heap_from_scratch" in wanted and "heap_from_scratch" in rubric.extra_credit:
        scratch = plan.of_check("heap_from_scratch")[0]
        results.append(_from_scratch_result(rubric.extra_credit["heap_from_scratch"], submission, len(plan.sequences),
                                            judged.get(scratch.id), replies.scratch_hello))
    return results


def probe_seed() -> int | None:
    """The efficiency probe's seed: derived from the secret seed where there is one (a regrade times the
    same probe), else random where the reference solutions can time a fresh probe, else None (the
    public probe: the student bundle)."""
    from .instances import SecretSeedMissing

    try:
        return derived_seed(secret_seed(), "efficiency probe")
    except SecretSeedMissing:
        return secrets.randbits(64) if _has_reference() else None


def _judge_safely(outcome: TaskOutcome, task: Task | None, sequences: list) -> _Judged:
    """Judge one reply; any exception while judging (a reply crafted to break the grader) is that
    task's error, never the grader's."""
    judged = _Judged(seconds=outcome.seconds, cpu_seconds=outcome.cpu_seconds, timed_out=outcome.timed_out)
    if task is None:
        judged.problem = "a reply for a task the grader never sent"
        return judged
    instance = task.instance
    try:
        if task.check in ("heap", "heap_from_scratch"):
            reply = _reply(outcome, "heap")
            if reply is None:
                reason = outcome.failure or _error_reply(outcome)[:3000]
                judged.messages = [f"the heap check did not complete: {reason}"]
            else:
                judged.passed, judged.messages = heapcheck.judge_heap(sequences, reply[0].get("outcomes"))
        else:
            assert instance is not None  # plan_tasks gives every search and efficiency task its instance
            if task.check == "efficiency":
                if not outcome.timed_out:
                    judged.problem, judged.work = _probe_problem(instance, outcome)
                judged.tier = "exact" if judged.problem is None and not outcome.timed_out else "wrong"
            else:
                judged.tier, judged.problem, judged.note = _judge(task.check, instance, outcome)
    except Exception as error:  # noqa: BLE001
        judged.tier = "wrong"
        judged.problem = f"{task.name}: the reply could not be judged ({type(error).__name__})"
        judged.messages = [judged.problem]
    return judged


def _reply(outcome: TaskOutcome | None, kind: str) -> tuple[dict, list] | None:
    """The child's reply (header, arrays) if it is one of ``kind`` ("heap", "trace"); None for a task
    not run, a failure, or a reply of another kind (the child's error reply)."""
    # The sandbox gives every outcome either a failure or a header (sandbox.TaskOutcome).
    if outcome is None or outcome.failure or outcome.header is None or outcome.header.get("kind") != kind:
        return None
    return outcome.header, outcome.arrays


def _error_reply(outcome: TaskOutcome) -> str:
    """The error named by the reply of a task that did not fail but did not answer as asked either."""
    # Not a failure, so a reply: the sandbox gives every outcome either a failure or a header.
    assert outcome.header is not None, "an outcome without a failure carries the child's reply"
    return str(outcome.header.get("error", "an unexpected reply"))


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


def _heap_result(points: float, count: int, judged: _Judged | None, missing: dict) -> CheckResult:
    result = CheckResult("heap", TITLES["heap"], 0.0, points)
    if "BinaryHeap" in missing:
        result.messages.append(missing["BinaryHeap"])
        return result.finish()
    if judged is None:
        result.messages.append("the heap check did not complete: not run")
        return result.finish()
    result.points = round(points * judged.passed / count, 2)
    result.messages += judged.messages[:SHOWN_PER_CHECK]
    if len(judged.messages) > SHOWN_PER_CHECK:
        result.messages.append(f"... and {len(judged.messages) - SHOWN_PER_CHECK} more sequences went wrong")
    result.messages.append(f"{judged.passed} of {count} random operation sequences handled exactly")
    return result.finish()


def _failure_text(outcome: TaskOutcome | None, check_id: str = "", instance: Instance | None = None) -> str:
    if outcome is None:
        return "not run"
    if outcome.failure:
        return outcome.failure
    text = _error_reply(outcome)
    if "sensed first from" in text:
        text += "\n(" + RULE_OBSERVE + ")"
    elif check_id == "backward" and instance is not None and _jumped_to_the_targets_end(text, instance):
        text += ("\n(the step goes to the target's end of the path: is the path reversed? a backward search's tree "
                 "pointers already lead from the agent to the target, in walking order)")
    return text


def _jumped_to_the_targets_end(error: str, instance: Instance) -> bool:
    """Evidence that a backward search's path was walked reversed: the agent's illegal step lands on the
    target or next to it, from a cell that is not.

    >>> from reference.world import Gridworld
    >>> maze = Instance("m", Gridworld(1, 9), (0, 0), (0, 8))
    >>> _jumped_to_the_targets_end("the agent jumped from (0, 0) to (0, 7): it moves one cell at a time", maze)
    True
    >>> _jumped_to_the_targets_end("the agent jumped from (0, 0) to (0, 2): it moves one cell at a time", maze)
    False
    """
    import re

    match = re.search(r"jumped from \((\d+), (\d+)\) to \((\d+), (\d+)\)", error)
    if not match:
        return False
    here, there = (int(match[1]), int(match[2])), (int(match[3]), int(match[4]))
    target = instance.target
    return manhattan(there, target) <= 1 < manhattan(here, target) - 1


def _judge(check_id: str, instance: Instance, outcome: TaskOutcome | None):
    """(tier, message or None, note or None) for one instance's run."""
    reply = _reply(outcome, "trace")
    if reply is None:
        expected = expected_run(instance, check_id)
        text = _too_large_text(outcome, expected) or _failure_text(outcome, check_id, instance)
        return "wrong", f"{instance.name}: {text}{_size_hint(text, expected)}", None
    algorithm, tie_break, _ = SETTINGS[check_id]
    header, arrays = reply
    verdict = judge_run(instance, algorithm, tie_break, header, arrays, expected_run(instance, check_id))
    return verdict.tier, verdict.problem, verdict.note


def _too_large_text(outcome: TaskOutcome | None, expected: ExpectedRun) -> str | None:
    """For a run whose trace the child measured as over the reply cap (``child.run_search_task``): what the
    run did, beside the expected run, and the stop rule only where a search went on past its goal.

    >>> reply = {"kind": "error", "error": "too large", "too_large": {"bytes": 90_000_000, "searches": 500,
    ...          "expansions": 20_000_000, "moves": 900, "past_goal": 0}}
    >>> print(_too_large_text(TaskOutcome(1, header=reply), ExpectedRun(True, 100, 20_000, 300, "", "")))
    your run's trace is 90,000,000 bytes, more than the grader reads: it made 500 searches (about 5 times the expected 100), 20,000,000 expansions (about 1000 times the expected 20,000) and 900 moves (the expected run: 300)
    """
    if outcome is None or outcome.failure or not outcome.header:
        return None
    counts = outcome.header.get("too_large")
    names = ("bytes", "searches", "expansions", "moves", "past_goal")
    if not isinstance(counts, dict) or not all(type(counts.get(k)) is int and counts[k] >= 0 for k in names):
        return None

    def times(done: int, wanted: int) -> str:
        return f"about {done / max(1, wanted):.0f} times the expected {wanted:,}"

    text = (f"your run's trace is {counts['bytes']:,} bytes, more than the grader reads: it made "
            f"{counts['searches']:,} searches ({times(counts['searches'], expected.searches)}), "
            f"{counts['expansions']:,} expansions ({times(counts['expansions'], expected.expansions)}) and "
            f"{counts['moves']:,} moves (the expected run: {expected.moves:,})")
    if counts["past_goal"]:
        text += (f"; {counts['past_goal']:,} of its searches expanded their goal: a search stops as soon as g(goal) "
                 "is no larger than the smallest f in OPEN, before the goal is expanded")
    return text


def _size_hint(failure: str, expected: ExpectedRun) -> str:
    """For a reply the channel refused as too large (a child that did not measure its own trace): how far
    it is from the expected run's data.

    >>> run = ExpectedRun(True, 100, 20_000, 300, "", "")
    >>> _size_hint("a message of 900,000 bytes is larger than the limit of 800,000 bytes", run)
    '\\n(your run returned about 5 times the data of the expected run: 100 searches, 20,000 expansions, 300 moves)'
    """
    import re

    match = re.search(r"a message of ([\d,]+) bytes is larger than the limit", failure)
    if not match:
        return ""
    size = int(match.group(1).replace(",", ""))
    # what a correct reply holds: 4 bytes per cell (2 per expansion, 5 per search, 2 per move), plus its header
    correct = 4 * (2 * expected.expansions + 5 * expected.searches + 2 * expected.moves) + 200
    return (f"\n(your run returned about {size / correct:.0f} times the data of the expected run: "
            f"{expected.searches:,} searches, {expected.expansions:,} expansions, {expected.moves:,} moves)")


def _search_result(check_id: str, point_per_weight: float, weights: dict[str, float], instance_set: InstanceSet,
                   tasks: list[Task], judged: dict[int, _Judged], missing: dict, ties_credit: float) -> CheckResult:
    """One part of a search check: each instance group all or nothing (with the ties tier)."""
    title = TITLES[check_id] + (" — hidden instances" if instance_set.suffix else "")
    groups = list(dict.fromkeys(group for group, _ in instance_set.instances))
    result = CheckResult(check_id + instance_set.suffix, title, 0.0,
                         round(point_per_weight * sum(weights[g] for g in groups), 2), visibility=instance_set.visibility)
    needed = SETTINGS[check_id][2]  # the student's function this check calls
    if needed in missing:
        result.messages.append(missing[needed])
        return result.finish()
    problems, summaries, points = [], [], 0.0
    for group in groups:
        verdicts = [judged.get(task.id) or _Judged(problem=f"{task.name}: not run") for task in tasks
                    if task.group == group]
        result.seconds += sum(v.seconds for v in verdicts)
        group_points = point_per_weight * weights[group]
        wrong = [v for v in verdicts if v.tier not in ("exact", "ties")]
        ties = [v for v in verdicts if v.tier == "ties"]
        name = GROUP_TITLES[group]
        if wrong:
            problems += [v.problem or "an unexpected reply" for v in wrong]
            summaries.append(f"{name}: {len(wrong)} of {len(verdicts)} instances wrong: 0 / {group_points:.3g}")
        elif ties:
            points += group_points * ties_credit
            result.messages += [v.note for v in ties if v.note][:1]
            summaries.append(f"{name}: {len(ties)} of {len(verdicts)} instances a legal A* (every expansion a least "
                             f"key on your OPEN), but remaining ties (equal f and g) not taken first-inserted-first as "
                             f"the SPEC says: {ties_credit:.0%} of {group_points:.3g}")
        else:
            points += group_points
            summaries.append(f"{name}: all {len(verdicts)} instances exactly as the SPEC says: "
                             f"{group_points:.3g} / {group_points:.3g}")
    shown = _deduplicate(problems)
    result.messages = shown[:SHOWN_PER_CHECK] + result.messages
    if len(shown) > SHOWN_PER_CHECK:
        result.messages.append(f"({len(shown) - SHOWN_PER_CHECK} more failures not shown)")
    result.messages += summaries
    result.points = min(result.max_points, round(points, 2))
    return result.finish()


def _deduplicate(problems: list[str]) -> list[str]:
    """The same failure on many instances (e.g. NotImplementedError) is shown once, with a count."""
    seen: dict[str, list] = {}
    for problem in problems:
        name, _, rest = problem.partition(": ")
        seen.setdefault(rest, []).append(name)
    shown = []
    for rest, names in seen.items():
        more = f" (and {len(names) - 1} more instances)" if len(names) > 1 else ""
        shown.append(f"{names[0]}{more}: {rest}")
    return shown


def _has_reference() -> bool:
    import importlib.util

    return importlib.util.find_spec("reference.solutions") is not None


#: The reference's time and run on each probe this process has timed: a batch (one probe, fixed by the
#: secret seed) measures it once per grading process instead of once per student (about 1.3 s of the
#: grader's CPU each; the efficiency check compares CPU times, which the machine's load barely moves).
_REFERENCE_TIMES: dict[tuple[str, int], tuple[float, ExpectedRun]] = {}


def reference_seconds(probe: Instance, repeats: int = 2) -> tuple[float, ExpectedRun]:
    """The reference's best CPU time on the probe and its run (for the probe's budget and message),
    measured once per probe and process. Without the reference (the student bundle, whose probe is the
    public one): an estimate, and the shipped run."""
    from .expected import fingerprint

    key = (fingerprint(probe), repeats)
    if key not in _REFERENCE_TIMES:
        _REFERENCE_TIMES[key] = _measure_reference(probe, repeats)
    return _REFERENCE_TIMES[key]


def _measure_reference(probe: Instance, repeats: int) -> tuple[float, ExpectedRun]:
    try:
        from reference.solutions import solve
    except ImportError:  # the student bundle: calibrate with the grader's own A* replay of the probe
        return _calibrated_seconds(probe), expected_run(probe, "forward_larger_g")
    best = float("inf")
    for _ in range(repeats):
        began = time.process_time()
        solve(probe, "forward", "larger_g")
        best = min(best, time.process_time() - began)
    return best, compute_expected(probe, "forward_larger_g")


#: Without the reference, the probe's reference time is estimated as this many times the time the
#: grader's own A* replay takes for as many expansions (measured with the kit: about 2.2).
CALIBRATION_FACTOR = 2.0


def _calibrated_seconds(probe: Instance) -> float:
    """Without the reference: ``CALIBRATION_FACTOR`` x the time of the grader's A* replay doing as many expansions."""
    from reference.world.sensing import Knowledge
    from reference.world.trace import SearchRecord

    from .searchcheck import check_search

    run = expected_run(probe, "forward_larger_g")
    width = probe.grid.width
    row = probe.start[0]
    cells = [(row, c) for c in range(min(width, 200))]
    began = time.process_time()
    knowledge = Knowledge(probe.grid.height, probe.grid.width)
    repeats = max(1, run.expansions // len(cells))
    for _ in range(repeats):
        check_search(SearchRecord(cells[0], cells[-1], cells[:-1], []), knowledge, lambda c: width - c[1], "larger_g")
    return CALIBRATION_FACTOR * (time.process_time() - began)


def _efficiency_result(points: float, timing: Probe, runs: list[_Judged | None], missing: dict) -> CheckResult:
    """Rule 15: the faster timed run within ``ratio`` x the reference's CPU time (+ the slack), the
    reference's time scaled up by the run's own verified work where it did more than the reference's
    run (another tie order can walk another way and search more: it is judged on its own work)."""
    result = CheckResult("efficiency", TITLES["efficiency"], 0.0, points)
    if "repeated_forward_astar" in missing:
        result.messages.append(missing["repeated_forward_astar"])
        return result.finish()
    verdicts = [run or _Judged(problem="not run") for run in runs]
    wrong = next((run.problem for run in verdicts if run.problem and not run.timed_out
                  and not run.problem.startswith("not run")), None)
    if wrong:  # a timed run must do real search, or its time means nothing
        result.messages.append(f"the probe's run does no real search, so its speed cannot count: {wrong}")
        return result.finish()
    probe, reference = timing.instance, timing.reference_seconds
    expected_work = max(1, timing.expected.expansions)
    good = [(run.cpu_seconds if run.cpu_seconds is not None else run.seconds, run.work)
            for run in verdicts if not run.timed_out and not run.problem]
    estimated = "" if _has_reference() else " (estimated: this installation has no reference solutions)"
    if good:
        student, work = min(good)
        scale = max(1.0, round(work / expected_work, 2))  # as the message shows it
        limit = timing.ratio * reference * scale + EFFICIENCY_SLACK_SECONDS
        took = f"took {student:.2f} s of CPU time"
    else:
        student, scale, limit = max(run.seconds for run in verdicts), 1.0, timing.limit
        took = f"was stopped after {student:.2f} s"
    result.seconds = student
    scaled = (f" x {scale:.2f} (your run expanded {scale:.2f} times the cells of the reference's run: each run is "
              "timed against its own work)" if scale > 1 else "")
    summary = (f"{probe.grid.height} x {probe.grid.width} grid, {timing.expected.searches} "
               f"small searches: your code {took}, the reference {reference:.2f} s{estimated} "
               f"(limit {timing.ratio:g} x reference{scaled} + {EFFICIENCY_SLACK_SECONDS} s = {limit:.2f} s)")
    if good and student <= limit:
        result.points = points
        result.messages.append(summary)
    else:
        result.messages.append(summary + ": too slow. Does every search visit every cell? Only the first "
                               "initialisation may; use counter and search(s) to initialise g lazily (SPEC §5)")
    return result.finish()


def _probe_problem(probe: Instance, outcome: TaskOutcome | None) -> tuple[str | None, int]:
    """Why a probe run's time does not count (it failed, or does no real search), or None; and its
    verified work. Whether the run is the SPEC's run is the search checks' business, charged there once:
    a correct A* with other remaining ties, or with a mistake in its searches, is timed like any other."""
    reply = _reply(outcome, "trace")
    if reply is None:
        return _failure_text(outcome), 0
    header, arrays = reply
    return real_search_problem(probe, header, arrays)


def _from_scratch_result(points: float, submission: Submission, count: int, judged: _Judged | None,
                         scratch_hello: dict) -> CheckResult:
    """Extra credit: the heap passes every sequence in a child that cannot import the shortcuts, and no
    module or notebook cell of the submission names them."""
    result = CheckResult("heap_from_scratch", TITLES["heap_from_scratch"], 0.0, points, extra_credit=True)
    problems = heapcheck.from_scratch_problems(submission.all_sources)
    errors = scratch_hello.get("errors") or {}
    if not submission.all_sources:
        result.messages.append("no source found")
    elif problems:
        result.messages += problems[:SHOWN_PER_CHECK]
        result.messages.append("the heap must not use heapq, queue.PriorityQueue, sortedcontainers or bisect")
    elif judged is None or judged.passed < count or "BinaryHeap" not in (scratch_hello.get("names") or []):
        reasons = [f"{where}: {text.splitlines()[0]}" for where, text in errors.items()][:2]
        reasons += (judged.messages[:1] if judged else [])
        result.messages.append("the heap must pass every sequence of the heap check, also where heapq, queue and "
                               "bisect cannot be imported" + ("".join("\n" + r for r in reasons)))
    else:
        result.points = points
        result.messages.append("written from scratch, and it passes the heap check without heapq, queue or bisect")
    return result.finish()


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
