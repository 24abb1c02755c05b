"""Benchmark: the readable dynamic-control LRTA* against its compiled twins, side by side.

    python bench/dynamic.py                          # AR0405SR, 10 problems (optimal cost 90-100)
    python bench/dynamic.py --problems 4 --level 6   # quicker

For each setting, every problem is run by both engines one after the other (the same machine load),
processor time summed per engine; the runs must be identical (path, cost, depths, expansions). The
database rows time the whole build (clique abstraction, one Dijkstra per goal region, the optimal
depth of every pair). The compiled code is compiled once before timing.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from reference.experiments.report import format_table  # noqa: E402
from reference.experiments.dynamic import Engine, load_map, pick_problems  # noqa: E402
from reference.experiments.movingai import default_movingai_dir  # noqa: E402
from reference.world.grid import cost_value  # noqa: E402

COLUMNS = ["setting", "runs", "actions", "expansions", "python s", "compiled s", "speed-up"]


def timed(function):
    began = time.process_time()
    result = function()
    return result, time.process_time() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--map", default="bgmaps/AR0405SR.map")
    parser.add_argument("--movingai", type=Path, default=None)
    parser.add_argument("--problems", type=int, default=10)
    parser.add_argument("--level", type=int, default=5, help="abstraction level of the database (default 5)")
    parser.add_argument("--cap", type=int, default=20)
    args = parser.parse_args()
    blocked = load_map(args.movingai or default_movingai_dir(), args.map)
    problems = pick_problems(blocked, args.problems, seed=0)
    engines = {kind: Engine(blocked, kind) for kind in ("python", "compiled")}
    # compile (or load from Numba's cache) before any timing
    engines["compiled"].fixed(2)(problems[0].start, problems[0].goal, 50)
    rows = []

    def row(label, runs, actions, expansions, python, compiled):
        rows.append([label, runs, actions, expansions, python, compiled, python / compiled])
        print(format_table(COLUMNS, rows[-1:]).splitlines()[-1], flush=True)

    databases = {}
    for kind in ("python", "compiled"):
        databases[kind], seconds = timed(lambda: engines[kind].database(args.level, args.cap))
        databases[kind + " s"] = seconds
    assert (databases["python"].depth == databases["compiled"].depth).all()
    assert (databases["python"].next_region == databases["compiled"].next_region).all()
    row(f"database build, level {args.level} ({databases['python'].regions} regions, cap {args.cap})", 1, "", "",
        databases["python s"], databases["compiled s"])

    settings = [(f"fixed depth {d}", lambda e, d=d: e.fixed(d)) for d in (1, 4, 10)]
    settings += [("oracle d_max 10", lambda e: e.oracle(10))]
    settings += [(f"pdb {name} level {args.level}",
                  lambda e, goals=goals: e.with_database(databases[e.kind], goals))
                 for goals, name in (("g", "G"), ("gi", "G+I"), ("i", "I"))]
    for label, make in settings:
        seconds = {"python": 0.0, "compiled": 0.0}
        actions = expansions = 0
        for problem in problems:
            limit = 20 * int(cost_value(problem.optimal) + 1)   # as the study
            runs = {}
            for kind, engine in engines.items():
                runs[kind], took = timed(lambda: make(engine)(problem.start, problem.goal, limit))
                seconds[kind] += took
            a, b = runs["python"], runs["compiled"]
            assert (a.path, a.cost, a.depths, a.expansions) == (b.path, b.cost, b.depths, b.expansions), label
            actions += a.actions
            expansions += sum(a.expansions)
        row(label, len(problems), actions, expansions, seconds["python"], seconds["compiled"])
    print()
    print(f"{args.map}, {len(problems)} problems with optimal cost 90-100; processor seconds per engine, summed")
    print(format_table(COLUMNS, rows))


if __name__ == "__main__":
    main()
