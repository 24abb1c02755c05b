"""Grading one submission: run it in the sandbox, judge every reply, score each rubric check.

The checks (points from the rubric, :mod:`autograder.rubric`):

* ``heap``: random op sequences against a model (:mod:`autograder.heapcheck`); credit in proportion
  to the sequences handled exactly.
* ``forward_larger_g``, ``forward_smaller_g``, ``backward``, ``adaptive``: every instance of the set
  is run and judged (:mod:`autograder.searchcheck`). All runs as the reference's: full points. All
  runs correct A* but some break remaining ties (equal f and g) in another order: the rubric's
  ``[policy] other_ties_credit`` of the points. Any run wrong, crashed or too slow: no points, and the first divergences shown.
* ``efficiency``: the 1001 x 1001 probe (forward, larger g) must be correct and take at most the
  rubric's ``[policy] efficiency_ratio`` times the reference's time (measured in the same run) plus a little slack.
* ``heap_from_scratch`` (extra credit): the heap check passes and its source imports no shortcut.

With hidden instances, each search check is split: half its points on the public instances
(visible), half on the hidden ones (shown after the due date on Gradescope).

>>> options = GradingOptions()
>>> options.hidden, options.full, options.efficiency_ratio is None
(False, False, True)
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from reference.world.instances import Instance

from . import heapcheck
from .expected import SETTINGS, expected_run
from .instances import efficiency_probe, hidden_instances, public_instances, secret_seed
from .report import CheckResult, GradeReport
from .rubric import TITLES, load_rubric
from .sandbox import Limits, Sandbox, TaskOutcome
from .searchcheck import RULE_OBSERVE, MalformedRun, judge_run, validate_run, walked_as_sensed
from .submission import Submission, load_submission

EFFICIENCY_SLACK_SECONDS = 0.3
PUBLIC_HEAP_SEED = 2005
SHOWN_PER_CHECK = 3
FULL_SET_TOTAL_SECONDS = 3600.0


@dataclass
class GradingOptions:
    """What to grade on. ``hidden``: public + hidden instances (split points); ``hidden_only``: hidden only."""

    hidden: bool = False
    hidden_only: bool = False
    full: bool = False
    checks: tuple[str, ...] | None = None       # None: every check of the rubric
    limits: Limits = field(default_factory=Limits)
    efficiency_ratio: float | None = None       # None: the rubric's [policy] efficiency_ratio
    progress: bool = False


@dataclass
class InstanceSet:
    suffix: str            # "" or "_hidden": appended to the check id
    instances: list[Instance]
    share: float           # of the check's points
    visibility: str


def instance_sets(options: GradingOptions) -> list[InstanceSet]:
    if options.hidden_only:
        return [InstanceSet("", hidden_instances(), 1.0, "visible")]
    public = public_instances(full=options.full)
    if options.hidden:
        return [InstanceSet("", public, 0.5, "visible"), InstanceSet("_hidden", hidden_instances(), 0.5, "after_due_date")]
    return [InstanceSet("", public, 1.0, "visible")]


def _bits(instance: Instance):
    from array import array

    packed = np.packbits(instance.grid.blocked).tobytes()
    padded = packed + b"\0" * (-len(packed) % 4)
    return array("i", padded), len(packed)


def search_task(task_id: int, instance: Instance, check_id: str) -> tuple[dict, list]:
    _algorithm, tie_break, function = SETTINGS[check_id]
    bits, bit_bytes = _bits(instance)
    header = {"kind": "search", "id": task_id, "function": function, "tie_break": tie_break,
              "height": instance.grid.height, "width": instance.grid.width, "start": list(instance.start),
              "target": list(instance.target), "bit_bytes": bit_bytes,
              "label": f"{function}(..., tie_break={tie_break!r}) on {instance.name}"}
    return header, [bits]


def grade_submission(submission: Submission | str | Path, options: GradingOptions | None = None) -> GradeReport:
    """Grade one submission (a folder or notebook path, or a loaded :class:`Submission`)."""
    began = time.monotonic()
    options = options or GradingOptions()
    if not isinstance(submission, Submission):
        submission = load_submission(submission)
    rubric = load_rubric()
    if options.efficiency_ratio is None:
        options = replace(options, efficiency_ratio=rubric.efficiency_ratio)
    wanted = options.checks or tuple(rubric.autograded) + tuple(rubric.extra_credit)
    sets = instance_sets(options)
    heap_seed = secret_seed() + 1 if (options.hidden or options.hidden_only) else PUBLIC_HEAP_SEED

    # Every task for the child, in one list; outcomes come back by task id.
    tasks, meaning = [], {}
    if "heap" in wanted or "heap_from_scratch" in wanted:
        sequences = heapcheck.make_sequences(heap_seed)
        tasks.append(({"kind": "heap", "id": 0, "sequences": sequences, "label": "the heap check"}, []))
        meaning[0] = ("heap", None, None)
    for check_id in SETTINGS:
        if check_id not in wanted:
            continue
        for instance_set in sets:
            for instance in instance_set.instances:
                task_id = len(meaning) + 1
                tasks.append(search_task(task_id, instance, check_id))
                tasks[-1][0]["group"] = check_id
                meaning[task_id] = (check_id, instance_set, instance)
                expected_run(instance, check_id)  # computed (or loaded) before any student code runs
    probe = efficiency_probe() if "efficiency" in wanted else None
    probe_limit = 0.0
    if probe is not None:
        expected_run(probe, "forward_larger_g")
        probe_limit = options.efficiency_ratio * reference_seconds(probe) + EFFICIENCY_SLACK_SECONDS
        for _ in range(2):  # the faster of two runs counts; a run far over the limit is stopped
            task_id = len(meaning) + 1
            tasks.append(search_task(task_id, probe, "forward_larger_g"))
            tasks[-1][0].update(group="efficiency", seconds=2 * probe_limit + 1.0)
            meaning[task_id] = ("efficiency", None, probe)

    hello: dict = {}
    outcomes: dict[int, TaskOutcome] = {}
    limits = options.limits
    if options.full:  # all 50 mazes: Repeated Backward A* alone expands tens of millions of cells
        limits = replace(limits, total_seconds=max(limits.total_seconds, FULL_SET_TOTAL_SECONDS))
    with Sandbox(submission.files, limits) as sandbox:
        progress = _progress(len(tasks), submission.name, options.progress)
        for outcome in sandbox.run(tasks):
            if outcome.task_id == -1:
                hello = outcome.header or {"errors": {"submission": outcome.failure}, "names": []}
                continue
            outcomes[outcome.task_id] = outcome
            progress.update(1)
        progress.close()

    missing = _missing_names(hello, submission)
    results: list[CheckResult] = []
    for check_id in rubric.autograded:
        if check_id not in wanted:
            continue
        points = rubric.autograded[check_id]
        if check_id == "heap":
            results.append(_heap_result(points, tasks, outcomes, missing))
        elif check_id == "efficiency":
            results.append(_efficiency_result(points, probe, probe_limit, meaning, outcomes, missing, options))
        else:
            for instance_set in sets:
                ids = [i for i, m in meaning.items() if m[0] == check_id and m[1] is instance_set]
                results.append(_search_result(check_id, points, instance_set, ids, meaning, outcomes, missing,
                                              rubric.ties_credit))
    if "heap_from_scratch" in wanted and "heap_from_scratch" in rubric.extra_credit:
        heap_full = next((r.points == r.max_points for r in results if r.id == "heap"), False)
        results.append(_from_scratch_result(rubric.extra_credit["heap_from_scratch"], submission, heap_full))
    return GradeReport(submission.name, submission.kind, _set_label(options), results,
                       submission.warnings + _import_warnings(hello), time.monotonic() - began)


def _set_label(options: GradingOptions) -> str:
    label = "hidden" if options.hidden_only else "public + hidden" if options.hidden else "public"
    return label + (" (all 50 standard mazes)" if options.full and not options.hidden_only else "")


def _progress(total: int, name: str, enabled: bool):
    from tqdm import tqdm

    return tqdm(total=total, desc=f"grading {name}", unit="task", disable=not enabled, leave=False)


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


def _heap_result(points: float, tasks, outcomes: dict[int, TaskOutcome], missing: dict) -> CheckResult:
    result = CheckResult("heap", TITLES["heap"], 0.0, points)
    if "BinaryHeap" in missing:
        result.messages.append(missing["BinaryHeap"])
        return result.finish()
    outcome = outcomes.get(0)
    sequences = tasks[0][0]["sequences"]
    if outcome is None or outcome.failure or outcome.header.get("kind") != "heap":
        reason = (outcome.failure if outcome and outcome.failure else
                  outcome.header.get("error") if outcome else "not run")
        result.messages.append(f"the heap check did not complete: {reason}")
        return result.finish()
    passed, messages = heapcheck.judge_heap(sequences, outcome.header.get("outcomes"))
    result.points = round(points * passed / len(sequences), 2)
    result.messages += messages[:SHOWN_PER_CHECK]
    if len(messages) > SHOWN_PER_CHECK:
        result.messages.append(f"... and {len(messages) - SHOWN_PER_CHECK} more sequences went wrong")
    result.messages.append(f"{passed} of {len(sequences)} random operation sequences handled exactly")
    return result.finish()


def _failure_text(outcome: TaskOutcome | None, check_id: str = "") -> str:
    if outcome is None:
        return "not run"
    if outcome.failure:
        return outcome.failure
    text = str(outcome.header.get("error", "an unexpected reply"))
    if "sensed first from" in text:
        text += "\n(" + RULE_OBSERVE + ")"
    elif "jumped from" in text and check_id == "backward":
        text += ("\n(is the path reversed? a backward search's tree pointers already lead from the agent to the "
                 "target, in walking order)")
    return text


def _judge(check_id: str, instance: Instance, outcome: TaskOutcome | None):
    """(tier, message or None, note or None) for one instance's run."""
    if outcome is None or outcome.failure or outcome.header.get("kind") != "trace":
        return "wrong", f"{instance.name}: {_failure_text(outcome, check_id)}", None
    algorithm, tie_break, _ = SETTINGS[check_id]
    verdict = judge_run(instance, algorithm, tie_break, outcome.header, outcome.arrays, expected_run(instance, check_id))
    return verdict.tier, verdict.problem, verdict.note


def _search_result(check_id: str, points: float, instance_set: InstanceSet, ids: list[int], meaning: dict,
                   outcomes: dict[int, TaskOutcome], missing: dict, ties_credit: float) -> CheckResult:
    title = TITLES[check_id] + (" — hidden instances" if instance_set.suffix else "")
    result = CheckResult(check_id + instance_set.suffix, title, 0.0, round(points * instance_set.share, 2),
                         visibility=instance_set.visibility)
    needed = SETTINGS[check_id][2]  # the student's function this check calls
    if needed in missing:
        result.messages.append(missing[needed])
        return result.finish()
    tiers, problems, notes, seconds = [], [], [], 0.0
    for task_id in ids:
        instance = meaning[task_id][2]
        outcome = outcomes.get(task_id)
        tier, problem, note = _judge(check_id, instance, outcome)
        seconds += outcome.seconds if outcome else 0.0
        tiers.append(tier)
        if problem:
            problems.append(problem)
        if note:
            notes.append(note)
    result.seconds = seconds
    wrong, ties = tiers.count("wrong"), tiers.count("ties")
    shown = _deduplicate(problems)
    result.messages += shown[:SHOWN_PER_CHECK]
    if wrong:
        result.messages.append(f"{wrong} of {len(tiers)} instances wrong" +
                               (f" ({len(shown) - SHOWN_PER_CHECK} more not shown)" if len(shown) > SHOWN_PER_CHECK else ""))
    elif ties:
        result.points = round(result.max_points * ties_credit, 2)
        result.messages += notes[:1]
        result.messages.append(f"{ties} of {len(tiers)} instances: a correct A*, but remaining ties (equal f and g) "
                               f"are not broken by insertion order as the SPEC says: {ties_credit:.0%} of the points")
    else:
        result.points = result.max_points
        result.messages.append(f"all {len(tiers)} instances exactly as the SPEC says")
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


def reference_seconds(probe: Instance, repeats: int = 2) -> float:
    """The reference's best time on the probe, measured now (or, without the reference, an estimate)."""
    try:
        from reference.solutions import solve
    except ImportError:  # the student bundle: calibrate with the grader's own A* replay of the probe
        return _calibrated_seconds(probe)
    best = float("inf")
    for _ in range(repeats):
        began = time.perf_counter()
        solve(probe, "forward", "larger_g")
        best = min(best, time.perf_counter() - began)
    return best


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
    began = time.perf_counter()
    knowledge = Knowledge(probe.grid.height, probe.grid.width)
    repeats = max(1, run.expansions // len(cells))
    for _ in range(repeats):
        check_search(SearchRecord(cells[0], cells[-1], cells[:-1], []), knowledge, lambda c: width - c[1], "larger_g")
    return CALIBRATION_FACTOR * (time.perf_counter() - began)


def _efficiency_result(points: float, probe: Instance, limit: float, meaning: dict,
                       outcomes: dict[int, TaskOutcome], missing: dict, options: GradingOptions) -> CheckResult:
    result = CheckResult("efficiency", TITLES["efficiency"], 0.0, points)
    if "repeated_forward_astar" in missing:
        result.messages.append(missing["repeated_forward_astar"])
        return result.finish()
    runs = [outcomes.get(i) for i, m in meaning.items() if m[0] == "efficiency"]
    reference = (limit - EFFICIENCY_SLACK_SECONDS) / options.efficiency_ratio
    problems = [None if o is not None and o.timed_out else _probe_problem(probe, o) for o in runs]
    if problems[0]:
        result.messages.append(f"the probe's run must reach the target before its speed counts: {problems[0]}")
        return result.finish()
    good = [o.seconds for o, problem in zip(runs, problems) if o is not None and not o.timed_out and not problem]
    student = min(good) if good else runs[0].seconds
    result.seconds = student
    took = f"took {student:.2f} s" if good else f"was stopped after {student:.2f} s"
    estimated = "" if _has_reference() else " (estimated: this installation has no reference solutions)"
    summary = (f"{probe.grid.height} x {probe.grid.width} grid, {expected_run(probe, 'forward_larger_g').searches} "
               f"small searches: your code {took}, the reference {reference:.2f} s{estimated} "
               f"(limit {options.efficiency_ratio:g} x reference + {EFFICIENCY_SLACK_SECONDS} s = {limit:.2f} s)")
    if good and student <= limit:
        result.points = points
        result.messages.append(summary)
    else:
        result.messages.append(summary + ": too slow. Does every search visit every cell? Only the first "
                               "initialisation may; use counter and search(s) to initialise g lazily (SPEC §5)")
    return result.finish()


def _probe_problem(probe: Instance, outcome: TaskOutcome | None) -> str | None:
    """Why a probe run does not count for speed: it failed, is malformed, or did not reach the target.

    Only this is required: whether each search is exactly right is the other checks' business, so a
    mistake in the searches does not cost the efficiency points too.
    """
    if outcome is None or outcome.failure or outcome.header.get("kind") != "trace":
        return _failure_text(outcome)
    try:
        validate_run(outcome.header, outcome.arrays, probe.grid.height, probe.grid.width)
    except MalformedRun as error:
        return f"the returned trace is malformed: {error}"
    trajectory, visited = outcome.arrays[0], outcome.arrays[4]
    target = probe.target[0] * probe.grid.width + probe.target[1]
    if not outcome.header["reached"] or trajectory[-1] != target or not walked_as_sensed(trajectory, visited, target, True):
        return "the agent did not walk to the target"
    return None


def _from_scratch_result(points: float, submission: Submission, heap_full: bool) -> CheckResult:
    result = CheckResult("heap_from_scratch", TITLES["heap_from_scratch"], 0.0, points, extra_credit=True)
    problems = heapcheck.from_scratch_problems(submission.heap_sources)
    if not submission.heap_sources:
        result.messages.append("no heap source found")
    elif problems:
        result.messages += problems[:SHOWN_PER_CHECK]
        result.messages.append("the heap must not use heapq, queue.PriorityQueue, sortedcontainers or bisect")
    elif not heap_full:
        result.messages.append("the source is from scratch, but the heap check must pass in full first")
    else:
        result.points = points
        result.messages.append("written from scratch, and it passes the heap check")
    return result.finish()

