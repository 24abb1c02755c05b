"""Benchmark: the standard experiment on four implementations of the same SPEC, side by side in one run.

    python bench/standard.py                 # all 50 mazes x 4 settings (a few minutes: the Python engines)
    python bench/standard.py --limit 10      # a quicker look
    python bench/standard.py --compiled-only # C and the compiled twin only (seconds)

* C                    bench/c/ftr.c, built here with ``cc -O2`` (skipped without a C compiler)
* compiled twin        reference/solutions/compiled (Numba), full traces as arrays
* readable reference   reference.solutions (pure Python, the code students are shown)
* heapq + dict peer    bench/baseline.py: how a good student writes it first

Every implementation must give the same traces: C's arrays are compared with the twin's cell for
cell, the Python engines' traces with the twin's converted to a Trace (not timed; the conversion
is timed separately, to show what turning arrays into tuples costs). Times are CPU seconds of this
process (``time.process_time``: a busy shared machine slows the runs but does not add the time
spent waiting for a core), interleaved maze by maze so that all engines see the same machine. C and
the twin take milliseconds per run, so each of their runs is the best of ``--repeats``.

Memory: the bytes per cell of each engine's search state on a 1001 x 1001 grid, and the bytes of
trace kept per expansion.
"""

from __future__ import annotations

import argparse
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

C, TWIN, REFERENCE, PEER = "C (cc -O2)", "compiled twin (Numba)", "readable reference (Python)", "heapq + dict peer"


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
    with tqdm(total=len(instances) * len(settings), desc="benchmark", unit="run") as bar:
        for algorithm, tie_break in settings:
            for instance in instances:
                grid, start, target = instance.grid, instance.start, instance.target
                where = f"{instance.name} {algorithm}/{tie_break}"
                twin, seconds = best_time(lambda: run_compiled(grid, start, target, algorithm, tie_break), repeats)
                totals[TWIN] += seconds
                expansions += twin.expansions
                if C in engines:
                    flat = np.ascontiguousarray(grid.blocked, np.uint8).reshape(-1)
                    (c_trace, _), seconds = best_time(
                        lambda: c_engine.c_run(flat, grid.height, grid.width, start, target, algorithm, tie_break),
                        repeats)
                    totals[C] += seconds
                    if not c_trace.same_run(twin):
                        raise SystemExit(f"C and the twin disagree on {where}")
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
        state = allocate_state(cells, adaptive)
        sizes[TWIN + label] = sum(a.nbytes for a in state.values()) / cells
        if c_engine.build() is not None:
            flat = np.zeros(cells, np.uint8)
            _, state_bytes = c_engine.c_run(flat, side, side, start, target, "adaptive" if adaptive else "forward",
                                            "larger_g")
            sizes[C + label] = state_bytes / cells
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
    engines = [TWIN]
    if c_engine.build() is not None:
        engines.insert(0, C)
    else:
        print("no C compiler found: the C column is skipped", file=sys.stderr)
    if not args.compiled_only:
        engines += [REFERENCE, PEER]
    warm_up()
    result = time_experiment(instances, SETTINGS, engines, args.repeats)
    seconds = result["seconds"]
    print(f"\nThe standard experiment: {len(instances)} mazes x {len(SETTINGS)} settings = "
          f"{len(instances) * len(SETTINGS)} runs, {result['expansions']:,} expansions, identical traces\n")
    print("| engine | CPU time (s) | expansions/s | time / C | time / twin | time / heapq peer |")
    print("|---|---:|---:|---:|---:|---:|")

    def ratio(name: str, other: str) -> str:
        return f"{seconds[name] / seconds[other]:.2f}" if other in seconds and other in engines else "-"

    for name in engines + (["twin: arrays -> Trace"] if seconds["twin: arrays -> Trace"] else []):
        rate = f"{result['expansions'] / seconds[name]:,.0f}" if name in engines else "-"
        print(f"| {name} | {seconds[name]:.2f} | {rate} | {ratio(name, C)} | {ratio(name, TWIN)} | {ratio(name, PEER)} |")
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
