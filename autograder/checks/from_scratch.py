"""Extra credit ``heap_from_scratch``: the heap check passes again in a child where ``heapq``, ``queue``,
``bisect`` and their kin cannot be imported, and no module or notebook cell names them
(:func:`autograder.heapcheck.from_scratch_problems`).

Its task is the heap check's, run in a lane of its own whose child has ``{"from_scratch": True}``;
that child's first message (which names it found) comes back as ``Replies.scratch_hello``.
"""

from __future__ import annotations

from .. import heapcheck
from ..report import CheckResult
from ..rubric import TITLES
from .base import SCRATCH_HELLO, SHOWN_PER_CHECK, CheckKind, Planner, Scoring
from .heap import heap_task, judge


def plan(check_id: str, planner: Planner) -> None:
    """The heap check again in a lane where heapq and the other shortcuts cannot be imported (extra credit only)."""
    if "heap_from_scratch" in planner.rubric.extra_credit:
        planner.add_lane([heap_task(planner, "heap_from_scratch", "the heap check (from scratch)")],
                         settings={"from_scratch": True}, hello=SCRATCH_HELLO)


def score(check_id: str, points: float, scoring: Scoring) -> list[CheckResult]:
    """Every sequence passed where the shortcuts cannot be imported, and none of them named in the source."""
    result = CheckResult("heap_from_scratch", TITLES["heap_from_scratch"], 0.0, points, extra_credit=True)
    submission, count = scoring.submission, len(scoring.plan.sequences)
    judged = scoring.replies.judged.get(scoring.plan.of_check("heap_from_scratch")[0].id)
    scratch_hello = scoring.replies.scratch_hello
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
    return [result.finish()]


#: The main child's first message (the names it found) comes with the public heap task.
KIND = CheckKind(plan, judge, score, also_plans=("heap",))
