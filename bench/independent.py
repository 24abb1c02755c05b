"""Benchmark: the compiled twin and the kit's C against an independent C, with the breadth-first floor.

    python bench/independent.py                  # 50 mazes x 4 settings, 5 interleaved rounds
    python bench/independent.py --rounds 3 --limit 20

Engines, all on the standard experiment (SPEC §3 mazes, the four settings of ``ftr experiment``):

* independent C       bench/c/student.c: the straightforward fast C a systems student writes (indexed
                      binary heap of 64-bit packed keys: an improved cell's entry moves up; counts only),
                      written apart from the kit
* kit's C, heap / buckets   bench/c/ftr.c (bench/c_engine.py), full traces
* compiled twin, buckets / heap   reference/solutions/compiled/replanning.py, full traces
* BFS floor           a plain FIFO breadth-first search of the true maze from the start (student.c):
                      the least work per expanded cell, reported as ns per expansion only

Every run's counts (reached, searches, expansions, moves) must agree with the twin's; the kit's C
and the twin's other queue are compared with the twin cell for cell. Times are CPU seconds of this
process (``time.process_time``), each run the best of ``--repeats``; the engines run maze by maze in
an order that rotates, and the whole experiment is repeated ``--rounds`` times: the table gives each
engine's median round and the median over rounds of its ratio to the independent C.
"""

from __future__ import annotations

import argparse
import ctypes
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402
from tqdm import tqdm  # noqa: E402

from bench import c_engine  # noqa: E402
from bench.standard import best_time  # noqa: E402
from reference.experiments.standard import SETTINGS  # noqa: E402
from reference.solutions.compiled.replanning import run_compiled, warm_up  # noqa: E402
from reference.world.instances import load_folder, standard_mazes_dir  # noqa: E402

SOURCE = Path(__file__).with_name("c") / "student.c"
STUDENT, C_HEAP, C_BUCKETS = "independent C (heap, cc -O2)", "kit's C, heap", "kit's C, buckets"
TWIN, TWIN_HEAP = "compiled twin, buckets (full traces)", "compiled twin, heap (full traces)"
ENGINES = [STUDENT, C_HEAP, C_BUCKETS, TWIN, TWIN_HEAP]


def build_student() -> ctypes.CDLL:
    """Compile bench/c/student.c with ``cc -O2`` into a temporary folder and load it."""
    library = c_engine.load_shared_library(SOURCE)
    if library is None:
        raise SystemExit("no C compiler found: this benchmark needs one")
    library.student_run.restype = ctypes.c_int
    library.student_run.argtypes = [ctypes.c_void_p] + [ctypes.c_int32] * 4 + [ctypes.c_int] * 3 + [ctypes.c_void_p]
    library.bfs_expansions.restype = ctypes.c_int64
    library.bfs_expansions.argtypes = [ctypes.c_void_p] + [ctypes.c_int32] * 3
    return library


def one_round(student: ctypes.CDLL, instances, repeats: int, rotation: int) -> tuple[dict[str, float], int]:
    """One pass over every maze and setting: CPU seconds per engine, and the expansions."""
    seconds = dict.fromkeys(ENGINES, 0.0)
    expansions = 0
    turn = rotation
    for algorithm, tie_break in SETTINGS:
        for instance in instances:
            grid, start, target = instance.grid, instance.start, instance.target
            width = grid.width
            flat = np.ascontiguousarray(grid.blocked, np.uint8).reshape(-1)
            counts = np.zeros(5, np.int64)
            jobs = {
                STUDENT: lambda: student.student_run(
                    flat.ctypes.data, grid.height, width, start[0] * width + start[1], target[0] * width + target[1],
                    algorithm == "backward", algorithm == "adaptive", tie_break == "larger_g", counts.ctypes.data),
                C_HEAP: lambda: c_engine.c_run(flat, grid.height, width, start, target, algorithm, tie_break, "heap")[0],
                C_BUCKETS: lambda: c_engine.c_run(flat, grid.height, width, start, target, algorithm, tie_break,
                                                  "buckets")[0],
                TWIN: lambda: run_compiled(grid, start, target, algorithm, tie_break, queue="buckets"),
                TWIN_HEAP: lambda: run_compiled(grid, start, target, algorithm, tie_break, queue="heap"),
            }
            turn += 1
            order = ENGINES[turn % len(ENGINES):] + ENGINES[:turn % len(ENGINES)]
            runs = {}
            for name in order:
                runs[name], spent = best_time(jobs[name], repeats)
                seconds[name] += spent
            twin = runs[TWIN]
            expansions += twin.expansions
            where = f"{instance.name} {algorithm}/{tie_break}"
            if runs[STUDENT] != 0:
                raise SystemExit(f"the independent C refused {where} (key too wide)")
            if [bool(counts[0]), *map(int, counts[1:4])] != [twin.reached, twin.searches, twin.expansions, twin.moves]:
                raise SystemExit(f"the independent C and the twin disagree on {where}: {counts[:4]} vs {twin.summary()}")
            for name in (C_HEAP, C_BUCKETS, TWIN_HEAP):
                if not runs[name].same_run(twin):
                    raise SystemExit(f"the {name} and the twin disagree on {where}")
    return seconds, expansions


def bfs_floor(student: ctypes.CDLL, instances, repeats: int) -> float:
    """Nanoseconds per expansion of a plain FIFO BFS over the true mazes (best of ``repeats``)."""
    best = float("inf")
    for _ in range(repeats):
        started, expanded = time.process_time(), 0
        for instance in instances:
            grid = instance.grid
            flat = np.ascontiguousarray(grid.blocked, np.uint8).reshape(-1)
            for _ in range(20):  # a BFS of one maze takes tens of microseconds: repeat to measure
                expanded += student.bfs_expansions(flat.ctypes.data, grid.height, grid.width,
                                                   instance.start[0] * grid.width + instance.start[1])
        best = min(best, (time.process_time() - started) / expanded * 1e9)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--limit", type=int, default=50, help="how many standard mazes (default 50)")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds of the experiment (default 5)")
    parser.add_argument("--repeats", type=int, default=3, help="each run: best of this many (default 3)")
    args = parser.parse_args()
    instances = load_folder(standard_mazes_dir())[: args.limit]
    student = build_student()
    if c_engine.build() is None:
        raise SystemExit("no C compiler found: this benchmark needs one")
    warm_up()
    load_before = os.getloadavg()[0]
    rounds, floors = [], []
    for number in tqdm(range(args.rounds), desc="rounds", unit="round"):
        seconds, expansions = one_round(student, instances, args.repeats, number)
        rounds.append(seconds)
        floors.append(bfs_floor(student, instances, args.repeats))
    print(f"\nThe standard experiment: {len(instances)} mazes x {len(SETTINGS)} settings, {expansions:,} expansions, "
          f"counts identical everywhere; {args.rounds} interleaved rounds, each run the best of {args.repeats}; "
          f"load average {load_before:.1f} before, {os.getloadavg()[0]:.1f} after\n")
    print("| engine | CPU s (median round) | ns per expansion | time / independent C (median of rounds) | "
          "range over rounds |")
    print("|---|---:|---:|---:|---:|")
    for name in ENGINES:
        median = statistics.median(r[name] for r in rounds)
        ratios = [r[name] / r[STUDENT] for r in rounds]
        print(f"| {name} | {median:.3f} | {median / expansions * 1e9:.1f} | {statistics.median(ratios):.2f} | "
              f"{min(ratios):.2f}-{max(ratios):.2f} |")
    floor = statistics.median(floors)
    student_ns = statistics.median(r[STUDENT] for r in rounds) / expansions * 1e9
    twin_ns = statistics.median(r[TWIN] for r in rounds) / expansions * 1e9
    print(f"\nBFS floor (plain FIFO breadth-first search of the true mazes): {floor:.1f} ns per expansion; "
          f"the independent C is {student_ns / floor:.1f} times it, the twin {twin_ns / floor:.1f} times.")


if __name__ == "__main__":
    main()
