"""The search checks (``forward_larger_g``, ``forward_smaller_g``, ``backward``, ``adaptive``): every
instance is run and judged (:mod:`autograder.searchcheck`).

The instances come in groups (the handout's examples, the hand-made cases, the standard mazes, the
hidden ones), each worth the rubric's ``[groups]`` share of the check, all or nothing per group:
every run as the SPEC says, full; all runs correct A* but some break remaining ties (equal f and g)
in another order, the rubric's ``[policy] other_ties_credit`` of the group; any run wrong, crashed or
too slow, nothing for that group. With hidden instances the hidden group's points are a check of
their own (``<id>_hidden``).
"""

from __future__ import annotations

from array import array
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

import numpy as np

from reference.world.grid import manhattan
from reference.world.instances import Instance

from ..expected import SETTINGS, ExpectedRun, default_engine, expected_run
from ..instances import GROUP_TITLES
from ..report import CheckResult
from ..rubric import TITLES
from ..sandbox import TaskOutcome
from ..searchcheck import RULE_OBSERVE, judge_run, readable_screen
from .base import SHOWN_PER_CHECK, CheckKind, InstanceSet, Judged, Planner, Scoring, Task, error_reply, reply

#: A task's CPU budget: the limit's ``task_seconds`` plus this much per expansion of the reference's run
#: (a correct Python solution expands 50,000 to 300,000 cells a second: this allows 10,000).
SECONDS_PER_EXPANSION = 1e-4
#: The smallest reply cap of a search task: 4 million cells of trace, several times what any legal run
#: of the kit's instances returns (the largest seen: 0.5 million), and few enough for the grader to replay.
REPLY_FLOOR_BYTES = 16 << 20


@dataclass
class SearchTask(Task):
    """One run of a student's function on one instance. ``setting``: the :data:`SETTINGS` entry it
    runs (the efficiency probe runs ``forward_larger_g``); ``skip_group``: the tasks a time-out skips
    (one check's instance set, or one probe run), a neutral name: it reaches the child."""

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


def _bits(instance: Instance) -> tuple[array, int]:
    """The grid's blocked flags, one bit per cell, padded to whole int32s; and the bytes that count."""
    packed = np.packbits(instance.grid.blocked).tobytes()
    padded = packed + b"\0" * (-len(packed) % 4)
    return array("i", padded), len(packed)


def _reply_cells(expected: ExpectedRun) -> int:
    """How many numbers a correct reply carries: 2 per expansion, 5 per search, 2 per move."""
    return 2 * expected.expansions + 5 * expected.searches + 2 * expected.moves


def search_task(task_id: int, check_id: str, instance: Instance, task_seconds: float, skip_group: str,
                expected: ExpectedRun | None = None, setting: str | None = None, task_class: type = SearchTask,
                **fields) -> SearchTask:
    """The task for one run, with its CPU budget and reply size cap from the reference's run.

    Its label names the function, never the instance (the grader names the instance in its own
    messages), and ``skip_group`` is neutral: both reach the child. ``setting``: the one it runs (default:
    ``check_id``'s); ``task_class`` and ``fields``: a kind of search task and its own fields."""
    setting = setting or check_id
    _algorithm, tie_break, function = SETTINGS[setting]
    expected = expected or expected_run(instance, setting)  # computed (or loaded) before any student code runs
    # A correct reply holds about 4 bytes per cell of _reply_cells; allow 8 times that, and never less
    # than REPLY_FLOOR_BYTES: a legal A* with other remaining ties can walk another way and search far
    # more (Repeated Backward A* on maze_42 with last-inserted-first ties: 85 times the expansions, a
    # 2 MB reply), and must not be refused for it.
    reply_bytes = max(REPLY_FLOOR_BYTES, (1 << 20) + 32 * _reply_cells(expected))
    return task_class(task_id, check_id, round(task_seconds + SECONDS_PER_EXPANSION * expected.expansions, 1),
                      reply_bytes, f"{function}(..., tie_break={tie_break!r})", instance, expected=expected,
                      setting=setting, skip_group=skip_group, **fields)


def plan(check_id: str, planner: Planner) -> None:
    """One task per instance of every instance set (hidden sets in the hidden phase)."""
    for number, instance_set in enumerate(planner.sets):
        for group, instance in instance_set.instances:
            planner.add(search_task(planner.next_id(), check_id, instance, planner.task_seconds, f"{check_id}/{number}",
                                    instance_set=instance_set, group=group), hidden=instance_set.hidden)


def judge(task: Task, outcome: TaskOutcome) -> Judged:
    """One instance's run against the reference's (the task's ``expected``, loaded when it was planned):
    its tier (exact, ties, wrong), the first problem, the note on where its ties went another way."""
    judged = Judged.of(outcome)
    instance, expected = task.instance, task.expected
    assert instance is not None and expected is not None  # plan gives every search task both
    answer = reply(outcome, "trace")
    if answer is None:
        text = _too_large_text(outcome, expected) or failure_text(outcome, task.check, instance)
        judged.problem = f"{instance.name}: {text}{_size_hint(text, expected)}"
        return judged
    algorithm, tie_break, _ = SETTINGS[task.check]
    header, arrays = answer
    verdict = judge_run(instance, algorithm, tie_break, header, arrays, expected, *run_screens())
    judged.tier, judged.problem, judged.note = verdict.tier, verdict.problem, verdict.note
    return judged


@cache
def run_screens() -> tuple[Callable, Callable | None]:
    """The screens :func:`autograder.searchcheck.judge_run` takes: what makes a run's screen, search by
    search, and the screen of a whole run or None. Where Numba and the compiled twins are installed
    (an instructor's machine): :class:`autograder.searchcheck_compiled.CompiledScreen` and
    :func:`autograder.searchcheck_compiled.screen_run`; else (a Gradescope image, the student's
    bundle) :func:`autograder.searchcheck.readable_screen` alone. All give the same verdicts
    (tests/autograder/test_screen_search.py). Decided once per process."""
    if default_engine() != "compiled":
        return readable_screen, None
    from ..searchcheck_compiled import CompiledScreen, screen_run

    return CompiledScreen, screen_run


def failure_text(outcome: TaskOutcome | None, check_id: str = "", instance: Instance | None = None) -> str:
    """Why a run gave no trace: not run, the sandbox's failure, or the child's error (with a hint where
    the error shows its cause)."""
    if outcome is None:
        return "not run"
    if outcome.failure:
        return outcome.failure
    text = error_reply(outcome)
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
    correct = 4 * _reply_cells(expected) + 200   # what a correct reply holds: 4 bytes per cell, plus its header
    return (f"\n(your run returned about {size / correct:.0f} times the data of the expected run: "
            f"{expected.searches:,} searches, {expected.expansions:,} expansions, {expected.moves:,} moves)")


def _search_result(check_id: str, point_per_weight: float, weights: dict[str, float], instance_set: InstanceSet,
                   tasks: list[Task], judged: dict[int, Judged], missing: dict, ties_credit: float) -> CheckResult:
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
        verdicts = [judged.get(task.id) or Judged(problem=f"{task.name}: not run") for task in tasks
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


def score(check_id: str, points: float, scoring: Scoring) -> list[CheckResult]:
    """One result per instance set (public; hidden, shown after the due date), the check's points
    spread over the groups in play by the rubric's ``[groups]`` weights."""
    rubric, plan = scoring.rubric, scoring.plan
    weights = rubric.groups
    in_play = {group for instance_set in plan.sets for group, _ in instance_set.instances}
    total_weight = sum(weights[group] for group in in_play) or 1.0
    return [_search_result(check_id, points / total_weight, weights, instance_set, plan.of_check(check_id, instance_set),
                           scoring.replies.judged, scoring.missing, rubric.ties_credit)
            for instance_set in plan.sets]


KIND = CheckKind(plan, judge, score)
