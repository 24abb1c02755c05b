"""Benchmark: the standard experiment on four implementations of the same SPEC, side by side in one run.

    python bench/standard.py                 # all 50 mazes x 4 settings (a few minutes: the Python engines)
    python bench/standard.py --limit 10      # a quicker look
    python bench/standard.py --compiled-only # C and the compiled twin, each with heap and buckets (seconds)

* C, heap / buckets    bench/c/ftr.c, built here with ``cc -O2`` (skipped without a C compiler), with
                       OPEN as the binary heap or as the twin's two-level bucket queue
* compiled twin        reference/solutions/compiled (Numba), full traces as arrays, with OPEN as the
                       bucket queue (its default) or the binary heap (``queue="heap"``)
* readable reference   reference.solutions (pure Python, the code students are shown)
* heapq + dict peer    bench/baseline.py: how a good student writes it first

Every implementation must give the same traces: the arrays of each C and twin variant are compared
with the default twin's cell for cell, the Python engines' traces with the twin's converted to a
Trace (not timed; the conversion is timed separately, to show what turning arrays into tuples
costs). Times are CPU seconds of this
process (``time.process_time``: a busy shared machine slows the runs but does not add the time
spent waiting for a core), interleaved maze by maze so that all engines see the same machine. C and
the twin take milliseconds per run, so each of their runs is the best of ``--repeats``, and the
order of the compiled engines rotates from maze to maze. The load average is printed with the
numbers.

Memory: the bytes per cell of each engine's search state on a 1001 x 1001 grid, and the bytes of
trace kept per expansion.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402
from tqdm import tqdm  # noqa: E402

from bench import c_engine  # noqa: E402
from bench.baseline import baseline_run  # noqa: E402
from reference.experiments.standard import SETTINGS  # noqa: E402
from reference.solutions import solve  # noqa: E402
from reference.solutions.compiled.replanning import allocate_state, run_compiled, warm_up  # noqa: E402
from reference.world.grid import Gridworld  # noqa: E402
from reference.world.instances import Instance, load_folder, standard_mazes_dir  # noqa: E402

C, C_BUCKETS = "C, heap (cc -O2)", "C, buckets (cc -O2)"
TWIN, TWIN_HEAP = "compiled twin, buckets (Numba)", "compiled twin, heap (Numba)"
REFERENCE, PEER = "readable reference (Python)", "heapq + dict peer"
COMPILED = {C: ("c", "heap"), C_BUCKETS: ("c", "buckets"), TWIN: ("twin", "buckets"), TWIN_HEAP: ("twin", "heap")}


def best_time(function, repeats: int):
    """(result, the smallest CPU time of ``repeats`` calls)."""
    best = float("inf")
    for _ in range(repeats):
        started = time.process_time()
        result = function()
        best = min(best, time.process_time() - started)
    return result, best


def time_experiment(instances: list[Instance], settings, engines: list[str], repeats: int) -> dict:
    totals = {name: 0.0 for name in engines}
    totals["twin: arrays -> Trace"] = 0.0
    expansions = 0
    instance_number = 0
    with tqdm(total=len(instances) * len(settings), desc="benchmark", unit="run") as bar:
        for algorithm, tie_break in settings:
            for instance in instances:
                grid, start, target = instance.grid, instance.start, instance.target
                where = f"{instance.name} {algorithm}/{tie_break}"
                flat = np.ascontiguousarray(grid.blocked, np.uint8).reshape(-1)
                compiled = [name for name in engines if name in COMPILED]
                turn = (instance_number := instance_number + 1) % len(compiled)
                runs = {}
                for name in compiled[turn:] + compiled[:turn]:  # rotate: no engine always runs first
                    kind, queue = COMPILED[name]
                    if kind == "c":
                        (runs[name], _), seconds = best_time(
                            lambda: c_engine.c_run(flat, grid.height, grid.width, start, target, algorithm, tie_break,
                                                   queue), repeats)
                    else:
                        runs[name], seconds = best_time(
                            lambda: run_compiled(grid, start, target, algorithm, tie_break, queue=queue), repeats)
                    totals[name] += seconds
                twin = runs[TWIN]
                expansions += twin.expansions
                for name, run in runs.items():
                    if not run.same_run(twin):
                        raise SystemExit(f"the {name} and the {TWIN} disagree on {where}")
                if REFERENCE in engines or PEER in engines:
                    trace, seconds = best_time(twin.to_trace, 1)
                    totals["twin: arrays -> Trace"] += seconds
                    for name, run in ((REFERENCE, lambda: solve(instance, algorithm, tie_break)),
                                      (PEER, lambda: baseline_run(grid, start, target, algorithm, tie_break))):
                        if name in engines:
                            other, seconds = best_time(run, 1)
                            totals[name] += seconds
                            if other != trace:
                                raise SystemExit(f"the {name} and the twin disagree on {where}")
                bar.update()
    return {"seconds": totals, "expansions": expansions}


def state_bytes_per_cell(side: int = 1001) -> dict[str, str]:
    """Bytes per cell of each engine's search state on a side x side open grid (a 10-cell run)."""
    cells = side * side
    grid = Gridworld(side, side)
    start, target = (0, 0), (0, 10)
    sizes = {}
    for label, adaptive in (("", False), (" (adaptive)", True)):
        for name, (kind, queue) in COMPILED.items():
            if kind == "twin":
                sizes[name + label] = sum(a.nbytes for a in allocate_state(cells, adaptive, queue).values()) / cells
            elif c_engine.build() is not None:
                flat = np.zeros(cells, np.uint8)
                _, state_bytes = c_engine.c_run(flat, side, side, start, target, "adaptive" if adaptive else "forward",
                                                "larger_g", queue)
                sizes[name + label] = state_bytes / cells
        for name, run in ((REFERENCE, lambda: solve(Instance("open", grid, start, target),
                                                     "adaptive" if adaptive else "forward")),
                          (PEER, lambda: baseline_run(grid, start, target, "adaptive" if adaptive else "forward"))):
            tracemalloc.start()
            run()
            sizes[name + label] = tracemalloc.get_traced_memory()[1] / cells
            tracemalloc.stop()
    return sizes


def trace_bytes_per_expansion(instance: Instance) -> dict[str, float]:
    """Bytes of trace per expansion: the twin's arrays, and the same trace as Python objects."""
    arrays = run_compiled(instance.grid, instance.start, instance.target, "forward", "larger_g")
    tracemalloc.start()
    trace = arrays.to_trace()
    as_objects = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    del trace
    return {"arrays (TraceArrays)": arrays.nbytes() / arrays.expansions,
            "Python objects (Trace)": as_objects / arrays.expansions}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--limit", type=int, default=50, help="how many standard mazes (default 50)")
    parser.add_argument("--repeats", type=int, default=3, help="C and twin: best of this many runs (default 3)")
    parser.add_argument("--compiled-only", action="store_true", help="only C and the compiled twin")
    args = parser.parse_args()
    instances = load_folder(standard_mazes_dir())[: args.limit]
    engines = [TWIN, TWIN_HEAP]
    if c_engine.build() is not None:
        engines = [C, C_BUCKETS] + engines
    else:
        print("no C compiler found: the C column is skipped", file=sys.stderr)
    if not args.compiled_only:
        engines += [REFERENCE, PEER]
    warm_up()
    load_before = os.getloadavg()[0]
    result = time_experiment(instances, SETTINGS, engines, args.repeats)
    seconds = result["seconds"]
    print(f"\nThe standard experiment: {len(instances)} mazes x {len(SETTINGS)} settings = "
          f"{len(instances) * len(SETTINGS)} runs, {result['expansions']:,} expansions, identical traces; "
          f"best of {args.repeats}; load average {load_before:.1f} before, {os.getloadavg()[0]:.1f} after\n")
    print("| engine | CPU time (s) | expansions/s | time / C heap | time / C buckets | time / twin | "
          "time / heapq peer |")
    print("|---|---:|---:|---:|---:|---:|---:|")

    def ratio(name: str, other: str) -> str:
        return f"{seconds[name] / seconds[other]:.2f}" if other in seconds and other in engines else "-"

    for name in engines + (["twin: arrays -> Trace"] if seconds["twin: arrays -> Trace"] else []):
        rate = f"{result['expansions'] / seconds[name]:,.0f}" if name in engines else "-"
        print(f"| {name} | {seconds[name]:.2f} | {rate} | {ratio(name, C)} | {ratio(name, C_BUCKETS)} | "
              f"{ratio(name, TWIN)} | {ratio(name, PEER)} |")
    print("\nSearch state on a 1001 x 1001 grid, bytes per cell (Python engines: tracemalloc peak of a "
          "10-cell run divided by the cells):\n")
    print("| engine | bytes per cell |\n|---|---:|")
    for name, size in state_bytes_per_cell().items():
        print(f"| {name} | {size:.2f} |")
    print("\nTrace kept per expansion (forward/larger_g on the first maze):\n")
    for name, size in trace_bytes_per_expansion(instances[0]).items():
        print(f"- {name}: {size:.1f} bytes per expansion")


if __name__ == "__main__":
    main()
