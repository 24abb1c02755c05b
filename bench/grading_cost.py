"""Benchmark: where one grading's CPU time goes, and what a class of 500 costs.

    python bench/grading_cost.py                 # the exported solution, a slower correct student and
                                                 # one whose heap breaks the remaining ties its own way
    python bench/grading_cost.py --repeats 3
    python bench/grading_cost.py --by-check      # the exported solution's task CPU per check, and its children

Each grading (public + hidden instances, every check, ``workers=1`` as in ``grade-all --jobs 2`` on two
cores) reports ``GradeReport.cost``: ``student`` (the children's CPU time on their tasks: the
student's code and the harness that calls it), ``startup`` (the children's CPU time outside tasks:
interpreter, NumPy, the world, the student's import, stopping) and ``grader`` (the grading process:
planning, the reference's runs it needs, judging every reply). The class estimate is
500 x (student + startup + grader) / 2 cores. The first grading of a process also pays for
importing the compiled engine and timing the reference on the probe (once per probe and process, as
in a batch), so it is reported apart and the medians are of the later ones.

``--by-check`` splits the children's task time of the exported solution by check and counts the
children a grading starts (one per lane, one per task of a ``fresh`` lane): what a class of 500
costs before any start-up or judging.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from autograder.export import export_solution
from autograder.grader import GradingOptions, grade_submission, plan_tasks, run_tasks
from autograder.rubric import load_rubric
from autograder.submission import load_submission

HERE = Path(__file__).resolve().parents[1]
#: A second correct submission of our own, slower than the exported one: an Agent and a Planner class,
#: dict-of-objects state and a Trace of NumPy integers.
SLOW = HERE / "tests" / "submissions" / "correct_classes"
#: The way published solutions are written: a heapq of (f, -g, row, col), so remaining ties go to the
#: smaller cell and no run hashes like the reference's: the grader replays every search (49 of 60).
HEAP_ORDER = HERE / "tests" / "submissions" / "styles" / "heapq_tuples"


def one(folder: Path, score: float | None) -> dict:
    report = grade_submission(folder, GradingOptions(hidden=True, workers=1))
    assert report.score == (report.max_score if score is None else score), report.to_text()
    cost = dict(report.cost or {})
    cost["total"] = sum(cost.values())
    return cost


def by_check(folder: Path, repeats: int) -> None:
    """The children's task CPU per check (median of ``repeats`` gradings) and the children started."""
    options = GradingOptions(hidden=True, workers=1)
    rubric = load_rubric()
    plan = plan_tasks(options, rubric, tuple(rubric.autograded) + tuple(rubric.extra_credit))
    lanes = plan.public_lanes + plan.hidden_lanes
    children = sum(len(lane.tasks) if lane.fresh else 1 for lane in lanes)
    submission = load_submission(folder)
    seconds: dict[str, list[float]] = {}
    for _ in range(repeats):
        replies = run_tasks(submission, plan)
        spent: dict[str, float] = {}
        for task_id, judged in replies.judged.items():
            check = plan.tasks[task_id].check
            spent[check] = spent.get(check, 0.0) + (judged.cpu_seconds or 0.0)
        for check, value in spent.items():
            seconds.setdefault(check, []).append(value)
    counts: dict[str, int] = {}
    for task in plan.tasks.values():
        counts[task.check] = counts.get(task.check, 0) + 1
    total = sum(statistics.median(values) for values in seconds.values())
    print(f"exported solution, {children} children, {len(plan.tasks)} tasks; task CPU per check (median of {repeats}):")
    for check, values in seconds.items():
        print(f"  {check}: {counts[check]} tasks, {statistics.median(values):.2f} s")
    print(f"  all: {total:.2f} s; a class of 500 with --jobs 2 on 2 cores, this alone: {500 * total / 2 / 60:.0f} min")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--by-check", action="store_true", help="the exported solution's task CPU per check")
    args = parser.parse_args()
    os.environ.setdefault("FTR_SECRET_SEED", "271828")
    work = Path(tempfile.mkdtemp())
    try:
        solution = work / "solution"
        export_solution(solution)
        if args.by_check:
            by_check(solution, max(1, args.repeats))
            return
        for name, folder, score in (("exported solution", solution, None), ("correct_classes", SLOW, None),
                                    ("heapq_tuples", HEAP_ORDER, 49.0)):
            first = one(folder, score)
            runs = [one(folder, score) for _ in range(args.repeats)]
            median = {key: statistics.median(run[key] for run in runs) for key in first}
            share = median["grader"] / median["total"]
            print(f"{name}: first grading {first['total']:.2f} s of CPU (grader {first['grader']:.2f} s); then "
                  f"student {median['student']:.2f} s, start-up {median['startup']:.2f} s, grader "
                  f"{median['grader']:.2f} s = {median['total']:.2f} s (grader's share {share:.0%}); a class of 500 "
                  f"with --jobs 2 on 2 cores: {500 * median['total'] / 2 / 60:.0f} min")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
