"""The handout's larger-maps question, measured: 1001 x 1001 mazes, all four settings, with the twin.

    python bench/large_mazes.py                  # 50 mazes x 4 settings (a few minutes)
    python bench/large_mazes.py --count 5        # a quicker look
    python bench/large_mazes.py --python 1       # also time the readable reference on 1 maze

The mazes follow SPEC §3 scaled up: the same depth-first construction on a 1001 x 1001 grid, and
extra openings in proportion to the cells, 100 x (1001 / 101)^2 = 9,823 (about 2 % of the
500,000 blocked cells, as 100 of 5,000 are in the standard set), so the mazes have the same
density of loops. Maze ``i`` is ``generate_maze([1001, i], 1001, extra_openings=9823)``.

The twin runs counts-only (``record_cells=False``: a smaller_g run expands tens of millions of
cells, 4 bytes each in a full trace); one run per setting on the first maze is repeated with its
full trace to show what recording costs. Reported per setting: expansions, searches and moves
(mean, median, max), CPU seconds, and memory: the search state (bytes per cell x cells) and the
trace (arrays).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tqdm import tqdm  # noqa: E402

from reference.experiments.standard import SETTINGS, paired_comparisons, setting_name  # noqa: E402
from reference.solutions import solve  # noqa: E402
from reference.solutions.compiled.replanning import allocate_state, run_compiled, warm_up  # noqa: E402
from reference.world.generator import STANDARD_EXTRA_OPENINGS, STANDARD_SIZE, generate_maze  # noqa: E402
from reference.world.instances import Instance  # noqa: E402

SIDE = 1001
#: Openings in proportion to the cells: 100 x (1001 / 101)^2, rounded.
OPENINGS = round(STANDARD_EXTRA_OPENINGS * (SIDE / STANDARD_SIZE) ** 2)
BASE_SEED = 1001


def large_maze(number: int) -> Instance:
    maze = generate_maze([BASE_SEED, number], SIDE, extra_openings=OPENINGS)
    return Instance(f"maze1001_{number:02d}", maze.grid, maze.start, maze.target)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=50, help="how many 1001 x 1001 mazes (default 50)")
    parser.add_argument("--python", type=int, default=0, metavar="N",
                        help="also run the readable reference on the first N mazes, forward/larger_g and "
                        "adaptive/larger_g (about half a minute each)")
    parser.add_argument("--out", type=Path, default=Path("results/large_mazes.json"))
    args = parser.parse_args()
    warm_up()
    rows = []
    for number in tqdm(range(args.count), desc="1001 x 1001 mazes", unit="maze"):
        instance = large_maze(number)
        for algorithm, tie_break in SETTINGS:
            started = time.process_time()
            run = run_compiled(instance.grid, instance.start, instance.target, algorithm, tie_break, record_cells=False)
            seconds = time.process_time() - started
            rows.append({"maze": number, "setting": setting_name(algorithm, tie_break), **run.summary(),
                         "seconds": seconds})
            if number == 0:  # the same run with its full trace: what recording costs
                started = time.process_time()
                full = run_compiled(instance.grid, instance.start, instance.target, algorithm, tie_break)
                rows[-1]["seconds_full_trace"] = time.process_time() - started
                rows[-1]["full_trace_mb"] = full.nbytes() / 1e6
                assert full.same_run(run)
                del full
        if number < args.python:
            for algorithm in ("forward", "adaptive"):
                started = time.process_time()
                trace = solve(instance, algorithm, "larger_g")
                seconds = time.process_time() - started
                twin = next(r for r in rows if r["maze"] == number and r["setting"] == f"{algorithm}/larger_g")
                assert trace.summary() == {k: twin[k] for k in ("reached", "searches", "expansions", "moves")}
                twin["seconds_python"] = seconds

    cells = SIDE * SIDE
    print(f"\n{args.count} mazes of {SIDE} x {SIDE} ({cells:,} cells, {OPENINGS:,} extra openings), "
          "the compiled twin, counts only\n")
    print("| setting | expansions mean | median | max | searches mean | moves mean | CPU s mean | CPU s max | "
          "state MB |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for algorithm, tie_break in SETTINGS:
        name = setting_name(algorithm, tie_break)
        chosen = [r for r in rows if r["setting"] == name]
        expansions = [r["expansions"] for r in chosen]
        state = sum(a.nbytes for a in allocate_state(cells, algorithm == "adaptive").values()) / 1e6
        print(f"| {name} | {statistics.fmean(expansions):,.0f} | {statistics.median(expansions):,.0f} | "
              f"{max(expansions):,} | {statistics.fmean(r['searches'] for r in chosen):,.0f} | "
              f"{statistics.fmean(r['moves'] for r in chosen):,.0f} | "
              f"{statistics.fmean(r['seconds'] for r in chosen):.2f} | {max(r['seconds'] for r in chosen):.2f} | "
              f"{state:.0f} |")
    print("\nMaze 0 with full traces:\n")
    print("| setting | expansions | CPU s, counts only | CPU s, full trace | trace MB | readable reference CPU s |")
    print("|---|---:|---:|---:|---:|---:|")
    for r in (r for r in rows if r["maze"] == 0):
        python = f"{r['seconds_python']:.1f}" if "seconds_python" in r else "-"
        print(f"| {r['setting']} | {r['expansions']:,} | {r['seconds']:.2f} | {r['seconds_full_trace']:.2f} | "
              f"{r['full_trace_mb']:.1f} | {python} |")
    print()
    for comparison in paired_comparisons(rows):
        print(f"- {comparison.sentence()}")
    print(f"\nTotal CPU time of the twin's counts-only runs: {sum(r['seconds'] for r in rows):.1f} s")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(rows, indent=1) + "\n")


if __name__ == "__main__":
    main()
