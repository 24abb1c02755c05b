"""Benchmark: how long grading takes, per submission and for a batch, and how much of it is the grader's.

    python bench/grading.py                  # one submission (public, public + hidden, --full) and a batch of 6
    python bench/grading.py --batch 20 --jobs 2

The submission is the reference solution exported as a student would hand it in (a correct Python
submission, about as fast as a good student's). "Student" time is the wall time of the sandboxed
child's tasks, measured by the grader around each task; "grader" time is everything else: the
sandbox, the child's start-up, the expected runs, judging and reporting, and timing the reference on
the efficiency probe.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from autograder.batch import grade_all
from autograder.export import export_solution
from autograder.grader import GradingOptions, grade_submission
from autograder.sandbox import Sandbox


def timed_grading(folder: Path, options: GradingOptions) -> dict:
    """Grade once; split the wall time into the student's tasks and the grader's own work."""
    student = [0.0]
    original = Sandbox.run

    def run(self, tasks):
        for outcome in original(self, tasks):
            student[0] += outcome.seconds
            yield outcome

    Sandbox.run = run
    try:
        began = time.perf_counter()
        report = grade_submission(folder, options)
        wall = time.perf_counter() - began
    finally:
        Sandbox.run = original
    return {"wall": wall, "student": student[0], "grader": wall - student[0], "score": report.score,
            "max": report.max_score}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--batch", type=int, default=6, help="submissions in the batch (copies of one)")
    parser.add_argument("--jobs", type=int, default=2, help="parallel jobs for the second batch run")
    args = parser.parse_args()
    os.environ.setdefault("FTR_SECRET_SEED", "314159")
    work = Path(tempfile.mkdtemp(prefix="ftr-bench-grading-"))
    try:
        folder = export_solution(work / "reference")
        timed_grading(folder, GradingOptions())  # warm-up: caches, page cache, first child
        print(f"{'set':<28}{'wall s':>8}{'student s':>11}{'grader s':>10}{'grader/student':>16}  score")
        for label, options in (("public (default)", GradingOptions()),
                               ("public + hidden", GradingOptions(hidden=True)),
                               ("public, all 50 mazes", GradingOptions(full=True))):
            row = timed_grading(folder, options)
            print(f"{label:<28}{row['wall']:8.2f}{row['student']:11.2f}{row['grader']:10.2f}"
                  f"{row['grader'] / row['student']:16.0%}  {row['score']:g}/{row['max']:g}", flush=True)
        submissions = work / "batch"
        for number in range(args.batch):
            shutil.copytree(folder, submissions / f"student_{number:03d}")
        for jobs in (1, args.jobs):
            out = work / f"out_{jobs}"
            began = time.perf_counter()
            grade_all(submissions, out, GradingOptions(hidden=True), jobs=jobs, progress=False)
            wall = time.perf_counter() - began
            print(f"batch of {args.batch}, public + hidden, --jobs {jobs}: {wall:.1f} s "
                  f"({wall / args.batch:.2f} s per submission)", flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
