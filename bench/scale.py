"""Benchmark: the larger-maps question at 1001 x 1001 and 2001 x 2001, the twin against C, side by side.

    python bench/scale.py                          # 2 mazes of 1001 x 1001, 1 of 2001 x 2001, all four settings
    python bench/scale.py --sides 1001 --count 5

The mazes are bench/large_mazes.py's: SPEC §3 scaled up, extra openings in proportion to the cells,
maze ``i`` of side ``n`` is ``generate_maze([n, i], n, extra_openings=round(100 * (n / 101) ** 2))``.
Every run keeps counts only (``record_cells=False`` in both languages: a full trace of a slow
setting is gigabytes at 2001 x 2001). Engines, interleaved run by run in a rotating order, CPU
seconds (``time.process_time``) of one run each:

* C with the binary heap and with the bucket queue (bench/c/ftr.c, ``cc -O2``);
* the compiled twin with the bucket queue (its default) and with the binary heap.

The heap's packed int64 key ``(f * n + tie) * (4n + 2) + stamp`` needs ``8 n^3 < 2^63``: at most
1,048,575 cells. A 1001 x 1001 maze (1,002,001 cells) fits; a 2001 x 2001 maze (4,004,001) does
not, so at that size only the bucket queues run (they keep f and the tie apart, as int32). Every
engine's counts (searches, expansions, moves, per search) must agree with the default twin's.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402

from bench import c_engine  # noqa: E402
from reference.experiments.standard import SETTINGS, setting_name  # noqa: E402
from reference.solutions.compiled.replanning import LARGEST_GRID, allocate_state, run_compiled, warm_up  # noqa: E402
from reference.world.generator import STANDARD_EXTRA_OPENINGS, STANDARD_SIZE, generate_maze  # noqa: E402

ENGINES = {"C, heap": ("c", "heap"), "C, buckets": ("c", "buckets"),
           "twin, buckets": ("twin", "buckets"), "twin, heap": ("twin", "heap")}


def maze(side: int, number: int):
    """Maze ``number`` of side ``side`` (bench/large_mazes.py's for 1001)."""
    openings = round(STANDARD_EXTRA_OPENINGS * (side / STANDARD_SIZE) ** 2)
    return generate_maze([side, number], side, extra_openings=openings)


def state_bytes_per_cell(side: int, engine: str, adaptive: bool) -> float:
    kind, queue = ENGINES[engine]
    cells = side * side
    if kind == "twin":
        return sum(a.nbytes for a in allocate_state(cells, adaptive, queue).values()) / cells
    _, state_bytes = c_engine.c_run(np.zeros(cells, np.uint8), side, side, (0, 0), (0, 1),
                                    "adaptive" if adaptive else "forward", "larger_g", queue, record_cells=False)
    return state_bytes / cells


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sides", type=int, nargs="+", default=[1001, 2001], help="maze sides (default 1001 2001)")
    parser.add_argument("--count", type=int, nargs="+", default=[2, 1],
                        help="mazes per side, one number per side (default 2 1)")
    parser.add_argument("--settings", nargs="+", default=[setting_name(*s) for s in SETTINGS],
                        help="which settings, e.g. forward/larger_g adaptive/larger_g (default all four)")
    args = parser.parse_args()
    if c_engine.build() is None:
        raise SystemExit("bench/scale.py compares with C: no C compiler found (cc, gcc or clang)")
    counts = args.count + [args.count[-1]] * (len(args.sides) - len(args.count))
    settings = [s for s in SETTINGS if setting_name(*s) in args.settings]
    warm_up()
    load_before = os.getloadavg()[0]
    rows = []  # (side, setting, engine, expansions, seconds)
    turn = 0
    for side, count in zip(args.sides, counts):
        engines = [e for e in ENGINES if ENGINES[e][1] == "buckets" or side * side <= LARGEST_GRID]
        for number in range(count):
            instance = maze(side, number)
            flat = np.ascontiguousarray(instance.grid.blocked, np.uint8).reshape(-1)
            for algorithm, tie_break in settings:
                runs = {}
                turn += 1
                for engine in engines[turn % len(engines):] + engines[:turn % len(engines)]:
                    kind, queue = ENGINES[engine]
                    started = time.process_time()
                    if kind == "c":
                        runs[engine], _ = c_engine.c_run(flat, side, side, instance.start, instance.target, algorithm,
                                                         tie_break, queue, record_cells=False)
                    else:
                        runs[engine] = run_compiled(instance.grid, instance.start, instance.target, algorithm,
                                                    tie_break, record_cells=False, queue=queue)
                    rows.append((side, setting_name(algorithm, tie_break), engine, runs[engine].expansions,
                                 time.process_time() - started))
                    print(f"  {engine}: {rows[-1][4]:.2f} CPU s", file=sys.stderr, flush=True)
                for engine, run in runs.items():
                    if not run.same_run(runs["twin, buckets"]):
                        raise SystemExit(f"{engine} and the twin disagree: side {side}, maze {number}, "
                                         f"{algorithm}/{tie_break}")
                print(f"side {side} maze {number} {algorithm}/{tie_break}: {runs['twin, buckets'].expansions:,} "
                      "expansions, same counts in every engine", file=sys.stderr, flush=True)
    print(f"\nCounts-only runs, CPU seconds summed over the mazes, one run per engine, interleaved; load "
          f"average {load_before:.1f} before, {os.getloadavg()[0]:.1f} after\n")
    print("| side | setting | mazes | expansions mean | " + " | ".join(f"{e} s" for e in ENGINES)
          + " | twin buckets / C heap | twin buckets / C buckets | C buckets / C heap |")
    print("|---|---|---:|---:|" + "---:|" * (len(ENGINES) + 3))
    for side, count in zip(args.sides, counts):
        for algorithm, tie_break in settings:
            name = setting_name(algorithm, tie_break)
            chosen = [r for r in rows if r[0] == side and r[1] == name]
            seconds = {e: sum(r[4] for r in chosen if r[2] == e) for e in ENGINES if any(r[2] == e for r in chosen)}
            expansions = statistics.fmean(r[3] for r in chosen if r[2] == "twin, buckets")

            def ratio(a: str, b: str) -> str:
                return f"{seconds[a] / seconds[b]:.2f}" if a in seconds and b in seconds else "-"

            cells = " | ".join(f"{seconds[e]:.2f}" if e in seconds else "-" for e in ENGINES)
            print(f"| {side} | {name} | {count} | {expansions:,.0f} | {cells} | {ratio('twin, buckets', 'C, heap')} | "
                  f"{ratio('twin, buckets', 'C, buckets')} | {ratio('C, buckets', 'C, heap')} |")
    print("\nSearch state, bytes per cell (Repeated A* / Adaptive A*: learned h adds 4):\n")
    print("| side | " + " | ".join(ENGINES) + " |\n|---|" + "---:|" * len(ENGINES))
    for side in args.sides:
        sizes = []
        for engine in ENGINES:
            if ENGINES[engine][1] == "heap" and side * side > LARGEST_GRID:
                sizes.append("- (packed keys overflow)")
            else:
                sizes.append(f"{state_bytes_per_cell(side, engine, False):.1f} / "
                             f"{state_bytes_per_cell(side, engine, True):.1f}")
        print(f"| {side} | " + " | ".join(sizes) + " |")


if __name__ == "__main__":
    main()
