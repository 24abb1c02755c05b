"""Benchmark: the compiled D* Lite of this kit against another checkout's, in alternating processes.

    python bench/dstar_lite_keys.py --baseline /tmp/old-kit          # 8 mazes + 8 random grids, 301 x 301, 5 rounds

Made to measure U's keys (``compiled/realtime/``: ``(k1, k2, stamp)`` packed into one int64
against the heap of three-part keys), but it times whatever the two checkouts' twins do. Each round
starts one process per kit (this one first on odd rounds, the baseline first on even ones); a
process warms the twin up, then runs D* Lite (strong h, counts only) on the comparison's first
grids of each kind (``ftr realtime compare``'s instances) and prints, per kind, the planning CPU
seconds (the twin's own per-episode clock) and the whole runs' CPU seconds, and the counts (moves,
expansions), which must agree between the kits. Printed: the median and best rounds per kind, and
the ratios this kit / baseline.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
ONE_PROCESS = """
import json, time
from reference.experiments.realtime import make_instance
from reference.solutions.compiled.realtime import warm_up
try:
    from reference.solutions.compiled.realtime import dstar_lite   # the twin by the readable name
except ImportError:   # a baseline from before the twins took the readable names
    from reference.solutions.compiled.realtime import run_compiled
    def dstar_lite(grid, start, target, heuristic, record):
        return run_compiled("dstar_lite", grid, start, target, heuristic, record=record)
warm_up()
out = {{}}
for kind in ("maze", "random"):
    planning = whole = 0.0
    counts = []
    for number in range({grids}):
        instance = make_instance(kind, number, size={size})
        began = time.process_time()
        run = dstar_lite(instance.grid, instance.start, instance.target, "strong", record=False)
        whole += time.process_time() - began
        planning += run.planning_time
        counts.append([run.moves, run.expansions])
    out[kind] = [planning, whole, counts]
print(json.dumps(out))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--baseline", type=Path, required=True, metavar="DIR", help="the other checkout")
    parser.add_argument("--grids", type=int, default=8, help="grids of each kind (default 8)")
    parser.add_argument("--size", type=int, default=301)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    code = ONE_PROCESS.format(grids=args.grids, size=args.size)
    kits = {"this kit": REPO, "baseline": args.baseline.resolve()}
    times: dict[tuple[str, str, int], list[float]] = {}
    answers: dict[str, dict] = {}
    for round_number in range(args.rounds):
        order = list(kits) if round_number % 2 == 0 else list(kits)[::-1]
        for name in order:
            done = subprocess.run([sys.executable, "-c", code], cwd=kits[name], capture_output=True, text=True,
                                  env={**os.environ, "PYTHONPATH": str(kits[name])})
            if done.returncode != 0:
                sys.exit(f"{name} ({kits[name]}) failed: {done.stderr.strip().splitlines()[-1]}")
            answers[name] = json.loads(done.stdout)
            for kind, (planning, whole, _) in answers[name].items():
                times.setdefault((name, kind, 0), []).append(planning)
                times.setdefault((name, kind, 1), []).append(whole)
        assert all(answers["this kit"][kind][2] == answers["baseline"][kind][2] for kind in answers["baseline"]), \
            "the two kits' D* Lite runs disagree"
    print(f"D* Lite, strong h, {args.grids} grids of each kind, {args.size} x {args.size}; CPU s over {args.rounds} rounds")
    for kind, (_, _, counts) in answers["this kit"].items():
        print(f"  {kind}: {sum(c[0] for c in counts):,} moves, {sum(c[1] for c in counts):,} expansions")
        for part, label in ((0, "planning"), (1, "whole runs")):
            new, old = times[("this kit", kind, part)], times[("baseline", kind, part)]
            print(f"    {label}: this kit median {statistics.median(new):.3f} best {min(new):.3f}; baseline median "
                  f"{statistics.median(old):.3f} best {min(old):.3f}; this kit / baseline: median "
                  f"{statistics.median(new) / statistics.median(old):.2f}, best {min(new) / min(old):.2f}")


if __name__ == "__main__":
    main()
