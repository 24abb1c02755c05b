"""Benchmark: the standard experiment on three implementations of the same SPEC, in one run.

    python bench/standard.py                 # all 50 mazes x 4 settings (a few minutes)
    python bench/standard.py --limit 10      # a quicker look

* reference            the kit's engine with its from-scratch BinaryHeap
* reference on heapq   the same engine with OPEN on heapq (what the from-scratch heap costs)
* baseline             a straightforward heapq + dict implementation (bench/baseline.py)

Every implementation must return identical traces (checked as it runs). Reported: wall time,
expansions per second, ratios to the baseline, peak memory of one run, and the bytes per cell of
the search state on a 1001 x 1001 grid. Timings are interleaved maze by maze so that a noisy
machine slows all three alike.
"""

from __future__ import annotations

import argparse
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tqdm import tqdm  # noqa: E402

from bench.baseline import baseline_run  # noqa: E402
from bench.heapq_open_list import HeapqOpenList  # noqa: E402
from reference.experiments.standard import SETTINGS  # noqa: E402
from reference.solutions.replanning import RepeatedAStar  # noqa: E402
from reference.world.grid import Gridworld  # noqa: E402
from reference.world.instances import load_folder, standard_mazes_dir  # noqa: E402
from reference.world.sensing import FogOfWarWorld  # noqa: E402


def reference_run(grid, start, target, algorithm, tie_break, open_list=None):
    world = FogOfWarWorld(grid, start)
    direction = "backward" if algorithm == "backward" else "forward"
    options = {} if open_list is None else {"open_list": open_list}
    return RepeatedAStar(world, start, target, direction, algorithm == "adaptive", tie_break, **options).run()


IMPLEMENTATIONS = {
    "reference": reference_run,
    "reference on heapq": lambda *args: reference_run(*args, open_list=HeapqOpenList),
    "baseline (heapq + dict)": baseline_run,
}


def time_experiment(instances, settings) -> dict[str, dict[str, float]]:
    totals = {name: {"seconds": 0.0, "expansions": 0} for name in IMPLEMENTATIONS}
    with tqdm(total=len(instances) * len(settings), desc="benchmark", unit="run") as bar:
        for algorithm, tie_break in settings:
            for instance in instances:
                traces = []
                for name, run in IMPLEMENTATIONS.items():
                    started = time.perf_counter()
                    trace = run(instance.grid, instance.start, instance.target, algorithm, tie_break)
                    totals[name]["seconds"] += time.perf_counter() - started
                    totals[name]["expansions"] += trace.expansions
                    traces.append(trace)
                if any(t != traces[0] for t in traces[1:]):
                    raise SystemExit(f"implementations disagree on {instance.name} {algorithm}/{tie_break}")
                bar.update()
    return totals


def peak_memory(instance) -> dict[str, float]:
    """Peak traced memory (MB) of one forward/larger_g run on ``instance``, per implementation."""
    peaks = {}
    for name, run in IMPLEMENTATIONS.items():
        tracemalloc.start()
        run(instance.grid, instance.start, instance.target, "forward", "larger_g")
        peaks[name] = tracemalloc.get_traced_memory()[1] / 2**20
        tracemalloc.stop()
    return peaks


def bytes_per_cell(side: int = 1001) -> tuple[float, float, float]:
    """Bytes per cell of the engine's search state on a side x side grid (Repeated A*, Adaptive A*),
    and the KB one short search allocates there (it must not grow with the grid)."""
    grid = Gridworld(side, side)
    sizes = []
    for adaptive in (False, True):
        tracemalloc.start()
        engine = RepeatedAStar(FogOfWarWorld(grid, (0, 0)), (0, 0), (0, 10), adaptive=adaptive)
        sizes.append(tracemalloc.get_traced_memory()[0] / (side * side))
        tracemalloc.stop()
    engine.observe(0)
    engine.counter = 1
    tracemalloc.start()
    engine.compute_path(0, 10)
    search_kb = tracemalloc.get_traced_memory()[1] / 1024
    tracemalloc.stop()
    return sizes[0], sizes[1], search_kb


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--limit", type=int, default=50, help="how many standard mazes (default 50)")
    args = parser.parse_args()
    instances = load_folder(standard_mazes_dir())[: args.limit]
    totals = time_experiment(instances, SETTINGS)
    baseline = totals["baseline (heapq + dict)"]["seconds"]
    peaks = peak_memory(instances[0])
    print(f"\nThe standard experiment: {len(instances)} mazes x {len(SETTINGS)} settings, identical traces\n")
    print("| implementation | wall time (s) | expansions/s | baseline time / this time | peak memory, one run (MB) |")
    print("|---|---:|---:|---:|---:|")
    for name, total in totals.items():
        rate = total["expansions"] / total["seconds"]
        print(f"| {name} | {total['seconds']:.1f} | {rate:,.0f} | {baseline / total['seconds']:.2f} | {peaks[name]:.1f} |")
    plain, adaptive, search_kb = bytes_per_cell()
    print(f"\nSearch state on a 1001 x 1001 grid: {plain:.1f} bytes per cell (Repeated A*), "
          f"{adaptive:.1f} (Adaptive A*); one short search there allocates {search_kb:.1f} KB.")


if __name__ == "__main__":
    main()
