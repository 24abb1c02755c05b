"""The efficiency check (rule 15): a probe on a 1001 x 1001 grid whose searches are small, timed.

The probe is derived from the secret seed (so a regrade times the same probe; a random one where
there is no seed but the reference solutions are installed) and run twice, each time in a fresh
child; each run must do real search (a trace that reaches the target along the walk the world saw,
with expansions that could be real A* work: not whether it is the SPEC's run, which the search
checks charge for once), and the faster one's CPU time (the child's whole process tree) be at most
the rubric's ``[policy] efficiency_ratio`` times the reference's CPU time, scaled by the run's own
verified work where it expanded more, plus a little slack.
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass

from reference.world.instances import Instance

from ..expected import ExpectedRun, compute_expected, expected_run
from ..instances import derived_seed, efficiency_probe, secret_seed
from ..report import CheckResult
from ..rubric import TITLES
from ..sandbox import TaskOutcome
from ..searchcheck import real_search_problem
from .base import CheckKind, Judged, Planner, Scoring, Task, reply
from .search import SearchTask, failure_text, search_task

EFFICIENCY_SLACK_SECONDS = 0.3


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
class ProbeTask(SearchTask):
    """One timed run of ``repeated_forward_astar`` on the probe."""

    probe: Probe | None = None


def plan(check_id: str, planner: Planner) -> None:
    """Two runs of the probe, each in a fresh child (which cannot replay an earlier run from memory);
    the faster counts, and a run far over is stopped (not the other)."""
    instance = efficiency_probe(probe_seed())
    reference_cpu, expected = reference_seconds(instance)
    ratio = planner.efficiency_ratio if planner.efficiency_ratio is not None else planner.rubric.efficiency_ratio
    probe = Probe(instance, expected, reference_cpu, ratio, ratio * reference_cpu + EFFICIENCY_SLACK_SECONDS)
    runs: list[Task] = []
    for number in range(2):
        task = search_task(planner.next_id() + number, "efficiency", instance, planner.task_seconds,  # (added below)
                           f"efficiency/{number}", expected, setting="forward_larger_g", task_class=ProbeTask,
                           probe=probe)
        # room for a run that does more work than the reference's (another tie order; its limit scales)
        task.cpu_seconds = round(3 * probe.limit + 1.0, 2)
        runs.append(task)
    planner.add_lane(runs, fresh=True)


def judge(task: Task, outcome: TaskOutcome) -> Judged:
    """Real search or not (a run that timed out is judged by its time alone), and its verified work."""
    judged = Judged.of(outcome)
    assert task.instance is not None  # plan gives every probe run its instance
    if not outcome.timed_out:
        judged.problem, judged.work = _probe_problem(task.instance, outcome)
    judged.tier = "exact" if judged.problem is None and not outcome.timed_out else "wrong"
    return judged


def _probe_problem(probe: Instance, outcome: TaskOutcome | None) -> tuple[str | None, int]:
    """Why a probe run's time does not count (it failed, or does no real search), or None; and its
    verified work. Whether the run is the SPEC's run is the search checks' business, charged there once:
    a correct A* with other remaining ties, or with a mistake in its searches, is timed like any other."""
    answer = reply(outcome, "trace")
    if answer is None:
        return failure_text(outcome), 0
    header, arrays = answer
    return real_search_problem(probe, header, arrays)


def probe_seed() -> int | None:
    """The efficiency probe's seed: derived from the secret seed where there is one (a regrade times the
    same probe), else random where the reference solutions can time a fresh probe, else None (the
    public probe: the student bundle)."""
    from ..instances import SecretSeedMissing

    try:
        return derived_seed(secret_seed(), "efficiency probe")
    except SecretSeedMissing:
        return secrets.randbits(64) if has_reference() else None


def has_reference() -> bool:
    """Whether the reference solutions are importable here (a student bundle has none: times are then estimated)."""
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
    from ..expected import fingerprint

    key = (fingerprint(probe), repeats)
    if key not in _REFERENCE_TIMES:
        _REFERENCE_TIMES[key] = _measure_reference(probe, repeats)
    return _REFERENCE_TIMES[key]


def _measure_reference(probe: Instance, repeats: int) -> tuple[float, ExpectedRun]:
    try:
        from reference.solutions import solve
    except ImportError:  # the student bundle: calibrate with the grader's own A* replay of the probe
        run = expected_run(probe, "forward_larger_g")
        return _calibrated_seconds(probe, run), run
    best = float("inf")
    for _ in range(repeats):
        began = time.process_time()
        solve(probe, "forward", "larger_g")
        best = min(best, time.process_time() - began)
    return best, compute_expected(probe, "forward_larger_g")


#: Without the reference, the probe's reference time is estimated as this many times the time the
#: grader's own A* replay takes for as many expansions (measured with the kit: about 2.2).
CALIBRATION_FACTOR = 2.0


def _calibrated_seconds(probe: Instance, run: ExpectedRun) -> float:
    """Without the reference: ``CALIBRATION_FACTOR`` x the time of the grader's A* replay doing as many expansions."""
    from reference.world.sensing import Knowledge
    from reference.world.trace import SearchRecord

    from ..searchcheck import check_search

    width = probe.grid.width
    row = probe.start[0]
    cells = [(row, c) for c in range(min(width, 200))]
    began = time.process_time()
    knowledge = Knowledge(probe.grid.height, probe.grid.width)
    repeats = max(1, run.expansions // len(cells))
    for _ in range(repeats):
        check_search(SearchRecord(cells[0], cells[-1], cells[:-1], []), knowledge, lambda c: width - c[1], "larger_g")
    return CALIBRATION_FACTOR * (time.process_time() - began)


def _efficiency_result(points: float, timing: Probe, runs: list[Judged | None], missing: dict) -> CheckResult:
    """Rule 15: the faster timed run within ``ratio`` x the reference's CPU time (+ the slack), the
    reference's time scaled up by the run's own verified work where it did more than the reference's
    run (another tie order can walk another way and search more: it is judged on its own work)."""
    result = CheckResult("efficiency", TITLES["efficiency"], 0.0, points)
    if "repeated_forward_astar" in missing:
        result.messages.append(missing["repeated_forward_astar"])
        return result.finish()
    verdicts = [run or Judged(problem="not run") for run in runs]
    wrong = next((run.problem for run in verdicts if run.problem and not run.timed_out
                  and not run.problem.startswith("not run")), None)
    if wrong:  # a timed run must do real search, or its time means nothing
        result.messages.append(f"the probe's run does no real search, so its speed cannot count: {wrong}")
        return result.finish()
    probe, reference = timing.instance, timing.reference_seconds
    expected_work = max(1, timing.expected.expansions)
    good = [(run.cpu_seconds if run.cpu_seconds is not None else run.seconds, run.work)
            for run in verdicts if not run.timed_out and not run.problem]
    estimated = "" if has_reference() else " (estimated: this installation has no reference solutions)"
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


def score(check_id: str, points: float, scoring: Scoring) -> list[CheckResult]:
    """The efficiency check's one result: each verified run's CPU time against the reference's on the probe."""
    tasks = scoring.plan.of_check("efficiency")
    probe = tasks[0].probe if tasks and isinstance(tasks[0], ProbeTask) else None
    assert probe is not None  # plan makes the probe whenever "efficiency" is wanted
    runs = [scoring.replies.judged.get(task.id) for task in tasks]
    return [_efficiency_result(points, probe, runs, scoring.missing)]


KIND = CheckKind(plan, judge, score)
