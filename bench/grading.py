"""Benchmark: what grading costs: a child's start (with and without bubblewrap), one submission on
each instance set, all 50 standard mazes on one core and on all, and a batch.

    python bench/grading.py                        # everything below
    python bench/grading.py --only full            # just all 50 mazes (one core, then every core)
    python bench/grading.py --batch 8 --jobs 2
    python bench/grading.py --only rate            # CPU per expansion in-process, and all 50 mazes' cost from it

The submission is tests/submissions/correct_dicts, a correct Python submission of our own (plain
dicts and tuples, about as fast as a good student's). "student CPU" is the CPU time the sandboxed
children spent on their tasks (read from /proc by the grader); "wall" is the whole grading.
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

from autograder import sandbox as sandbox_module
from autograder.batch import grade_all
from autograder.grader import GradingOptions, default_workers, grade_submission
from autograder.sandbox import Lane, Sandbox
from autograder.submission import load_submission

SUBMISSION = Path(__file__).resolve().parents[1] / "tests" / "submissions" / "correct_dicts"


def child_start_seconds(mode: str, count: int = 10) -> float:
    """Mean wall time to start a child (interpreter, NumPy, the student's import), answer one empty
    task and stop it, in the ``auto`` (bubblewrap where it runs) or ``plain`` sandbox."""
    os.environ["FTR_SANDBOX"] = mode
    sandbox_module._SETUP.clear()
    sandbox_module.sandbox_setup()
    files = load_submission(SUBMISSION).files
    with Sandbox(files) as box:
        lane = Lane([({"kind": "heap", "id": i, "sequences": [], "cpu_seconds": 10}, []) for i in range(count)],
                    fresh=True)
        began = time.perf_counter()
        list(box.run([lane]))
        seconds = (time.perf_counter() - began) / count
    os.environ.pop("FTR_SANDBOX")
    sandbox_module._SETUP.clear()
    return seconds


def expansion_rate() -> None:
    """The submission's CPU time per expansion on the default eight mazes (in this process, no sandbox),
    and what all 50 mazes cost at that rate (the reference's expansion counts are the shipped ones).
    On a loaded machine this is the number to trust: CPU time, and minutes instead of hours."""
    import importlib.util

    from autograder.expected import SETTINGS, expected_run
    from autograder.instances import DEFAULT_STANDARD, standard_instances
    from reference.world.sensing import FogOfWarWorld

    sys.path.insert(0, str(SUBMISSION))
    spec = importlib.util.spec_from_file_location("bench_replanning", SUBMISSION / "replanning.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    cpu = expansions = 0
    for instance in standard_instances(DEFAULT_STANDARD):
        for check_id, (_algorithm, tie_break, function) in SETTINGS.items():
            began = time.process_time()
            getattr(module, function)(FogOfWarWorld(instance.grid, instance.start), instance.start, instance.target,
                                      tie_break)
            cpu += time.process_time() - began
            expansions += expected_run(instance, check_id).expansions
    everything = sum(expected_run(i, c).expansions for i in standard_instances(range(50)) for c in SETTINGS)
    rate = expansions / cpu
    print(f"default 8 mazes x 4 settings: {expansions:,} expansions in {cpu:.1f} s CPU ({rate:,.0f} per second)")
    print(f"all 50 mazes x 4 settings: {everything:,} expansions: about {everything / rate:.0f} s CPU at that rate",
          flush=True)


def timed_grading(options: GradingOptions) -> dict:
    """Grade once; the wall time, and the CPU time the children spent on their tasks."""
    cpu = [0.0]
    original = Sandbox.run

    def run(self, lanes, workers=1, deadline=None):
        for outcome in original(self, lanes, workers, deadline):
            cpu[0] += outcome.cpu_seconds or 0.0
            yield outcome

    Sandbox.run = run
    try:
        began = time.perf_counter()
        report = grade_submission(SUBMISSION, options)
        wall = time.perf_counter() - began
    finally:
        Sandbox.run = original
    return {"wall": wall, "cpu": cpu[0], "score": report.score, "max": report.max_score}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--batch", type=int, default=6, help="submissions in the batch (copies of one)")
    parser.add_argument("--jobs", type=int, default=2, help="parallel jobs for the second batch run")
    parser.add_argument("--only", choices=("start", "rate", "sets", "full", "batch"), help="run one part only")
    args = parser.parse_args()
    os.environ.setdefault("FTR_SECRET_SEED", "314159")
    cores = default_workers()
    print(f"{cores} cores, load average {os.getloadavg()[0]:.1f}", flush=True)
    if args.only in (None, "start"):
        plain = child_start_seconds("plain")
        wrapped = child_start_seconds("auto")
        print(f"child start + one task + stop: plain {plain:.3f} s, bubblewrap {wrapped:.3f} s "
              f"({wrapped / plain:.2f} x)", flush=True)
    if args.only in (None, "rate"):
        expansion_rate()
    if args.only in ("start", "rate"):
        return 0
    timed_grading(GradingOptions(checks=("heap",)))  # warm-up: the sandbox set-up, page cache
    rows = []
    if args.only in (None, "sets"):
        rows += [("public (default: 8 mazes)", GradingOptions()),
                 ("public + hidden", GradingOptions(hidden=True))]
    if args.only in (None, "full"):
        rows += [("all 50 mazes, 1 core", GradingOptions(full=True, workers=1)),
                 (f"all 50 mazes, {cores} cores", GradingOptions(full=True, workers=cores)),
                 (f"all 50 + hidden, {cores} cores", GradingOptions(full=True, hidden=True, workers=cores))]
    if rows:
        print(f"{'set':<32}{'wall s':>8}{'student CPU s':>15}  score")
    for label, options in rows:
        row = timed_grading(options)
        print(f"{label:<32}{row['wall']:8.1f}{row['cpu']:15.1f}  {row['score']:g}/{row['max']:g}", flush=True)
    if args.only in (None, "batch"):
        work = Path(tempfile.mkdtemp(prefix="ftr-bench-grading-"))
        try:
            submissions = work / "batch"
            for number in range(args.batch):
                shutil.copytree(SUBMISSION, submissions / f"student_{number:03d}")
            for jobs in (1, args.jobs):
                began = time.perf_counter()
                grade_all(submissions, work / f"out_{jobs}", GradingOptions(hidden=True), jobs=jobs, progress=False)
                wall = time.perf_counter() - began
                print(f"batch of {args.batch}, public + hidden, --jobs {jobs}: {wall:.1f} s "
                      f"({wall / args.batch:.1f} s per submission, {3600 * args.batch / wall:.0f} per hour)", flush=True)
        finally:
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
