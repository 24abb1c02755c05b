"""The heap check: random operation sequences against a model (:mod:`autograder.heapcheck`); credit in
proportion to the sequences handled exactly.

>>> task = HeapTask(0, "heap", 30.0, 8 << 20, "the heap check", sequences=[[["pop", 0, [0]]]])
>>> header, arrays = task.frame()
>>> header["kind"], header["sequences"], arrays
('heap', [[['pop', 0, [0]]]], [])
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .. import heapcheck
from ..report import CheckResult
from ..rubric import TITLES
from ..sandbox import TaskOutcome
from .base import SHOWN_PER_CHECK, CheckKind, Judged, Planner, Scoring, Task, error_reply, reply

#: The largest heap reply the grader reads (a heap that raises on every operation sends ~1.7 MB).
REPLY_BYTES = 8 << 20


@dataclass
class HeapTask(Task):
    """The heap check's random operation sequences, answered in one reply."""

    sequences: list = field(default_factory=list)

    def frame(self) -> tuple[dict, list]:
        return ({"kind": "heap", "id": self.id, "sequences": self.sequences, "label": self.label,
                 "cpu_seconds": self.cpu_seconds, "reply_bytes": self.reply_bytes}, [])


def heap_task(planner: Planner, check: str, label: str) -> HeapTask:
    """A task that runs the planner's operation sequences on the student's ``BinaryHeap``."""
    return HeapTask(planner.next_id(), check, planner.task_seconds, REPLY_BYTES, label, sequences=planner.sequences)


def plan(check_id: str, planner: Planner) -> None:
    """One heap task in the main lane."""
    planner.add(heap_task(planner, "heap", "the heap check"))


def judge(task: Task, outcome: TaskOutcome) -> Judged:
    """How many sequences the reply handled exactly, and what went wrong in the others."""
    assert isinstance(task, HeapTask)
    judged = Judged.of(outcome)
    answer = reply(outcome, "heap")
    if answer is None:
        reason = outcome.failure or error_reply(outcome)[:3000]
        judged.messages = [f"the heap check did not complete: {reason}"]
    else:
        judged.passed, judged.messages = heapcheck.judge_heap(task.sequences, answer[0].get("outcomes"))
    return judged


def score(check_id: str, points: float, scoring: Scoring) -> list[CheckResult]:
    """The heap check's result: points in proportion to the sequences handled exactly."""
    result = CheckResult("heap", TITLES["heap"], 0.0, points)
    count = len(scoring.plan.sequences)
    tasks = scoring.plan.of_check("heap")
    judged = scoring.replies.judged.get(tasks[0].id) if tasks else None
    if "BinaryHeap" in scoring.missing:
        result.messages.append(scoring.missing["BinaryHeap"])
        return [result.finish()]
    if judged is None:
        result.messages.append("the heap check did not complete: not run")
        return [result.finish()]
    result.points = round(points * judged.passed / count, 2)
    result.messages += judged.messages[:SHOWN_PER_CHECK]
    if len(judged.messages) > SHOWN_PER_CHECK:
        result.messages.append(f"... and {len(judged.messages) - SHOWN_PER_CHECK} more sequences went wrong")
    result.messages.append(f"{judged.passed} of {count} random operation sequences handled exactly")
    return [result.finish()]


KIND = CheckKind(plan, judge, score)
