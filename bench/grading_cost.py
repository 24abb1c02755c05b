"""Benchmark: where one grading's CPU time goes, and what a class of 500 costs.

    python bench/grading_cost.py                 # the exported solution, a slower correct student and
                                                 # one whose heap breaks the remaining ties its own way
    python bench/grading_cost.py --repeats 3

Each grading (public + hidden instances, every check, ``workers=1`` as in ``grade-all --jobs 2`` on two
cores) reports ``GradeReport.cost``: ``student`` (the children's CPU time on their tasks: the
student's code and the harness that calls it), ``startup`` (the children's CPU time outside tasks:
interpreter, NumPy, the world, the student's import, stopping) and ``grader`` (the grading process:
planning, the reference's runs it needs, judging every reply). The class estimate is
500 x (student + startup + grader) / 2 cores. The first grading of a process also pays for
importing the compiled engine and timing the reference on the probe (once per probe and process, as
in a batch), so it is reported apart and the medians are of the later ones.
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
from autograder.grader import GradingOptions, grade_submission

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=2)
    args = parser.parse_args()
    os.environ.setdefault("FTR_SECRET_SEED", "271828")
    work = Path(tempfile.mkdtemp())
    try:
        solution = work / "solution"
        export_solution(solution)
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
