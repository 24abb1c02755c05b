"""Benchmark: kNN LRTA*'s and D LRTA*'s online part, readable (Python) against the compiled twins, side by side.

    python bench/subgoaling_rivals.py                     # AR0411SR, 50 problems, the study's four rivals
    python bench/subgoaling_rivals.py --map ../shared/movingai/dao/den520d.map --problems 20 --algorithms d_lrta_3

One process, GC off, the twins compiled (or loaded from Numba's cache) before timing. Each rival's
database is built once (compiled preprocessing: the same database as the readable one, tests compare
them), then ``--problems`` problems drawn as ``ftr subgoal compare`` draws them (seed 2011) run on
both engines, readable and compiled interleaved problem by problem, and checked to be the same run
(reached, cost, moves, expansions, episodes, first goal). CPU milliseconds per problem: the planning
time the experiment records (``total_ms``: the first episode's record choice or look-ups, and every
episode) and the whole call; the readable / compiled ratio of each.
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from reference.experiments.report import format_table  # noqa: E402
from reference.experiments.subgoaling import (  # noqa: E402
    DATABASE_ALGORITHMS, DATABASE_SEED_OFFSET, DEFAULT_SEED, build_database, draw_problems, move_limit,
    run_with_database,
)
from reference.solutions.compiled.shortest_paths import astar_cost  # noqa: E402
from reference.world.maps import read_map  # noqa: E402

DEFAULT_MAP = Path(__file__).resolve().parents[2] / "shared" / "movingai" / "bgmaps" / "AR0411SR.map"
ENGINES = ("python", "compiled")


def bench(grid, algorithm: str, problems: int, seed: int) -> list:
    """One rival: ``[name, readable ms, compiled ms, ratio, readable call ms, compiled call ms, ratio,
    database seconds]`` per problem (means)."""
    database = build_database(algorithm, grid, DATABASE_SEED_OFFSET + seed, "compiled")
    planning = dict.fromkeys(ENGINES, 0.0)
    whole = dict.fromkeys(ENGINES, 0.0)
    run_with_database(algorithm, grid, *draw_problems(grid, 1, seed)[0], database, "compiled")   # compile first
    for start, goal in draw_problems(grid, problems, seed):
        limit = move_limit(algorithm, astar_cost(grid.blocked, start, goal, connectivity=8)[0])   # the experiment's
        seen = {}
        for engine in ENGINES:
            gc.disable()
            began = time.process_time()
            run = run_with_database(algorithm, grid, start, goal, database, engine, limit)
            whole[engine] += time.process_time() - began
            gc.enable()
            planning[engine] += run.total_seconds
            seen[engine] = (run.reached, run.cost, run.moves, run.expansions, run.episodes, run.first_goal)
        assert seen["python"] == seen["compiled"], f"the engines differ: {algorithm}, {start} -> {goal}"
    ms = {engine: 1e3 * planning[engine] / problems for engine in ENGINES}
    call = {engine: 1e3 * whole[engine] / problems for engine in ENGINES}
    return [algorithm, ms["python"], ms["compiled"], f"{ms['python'] / ms['compiled']:.0f}x",
            call["python"], call["compiled"], f"{call['python'] / call['compiled']:.0f}x", database.seconds]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--map", type=Path, default=DEFAULT_MAP, help="a MovingAI .map (default AR0411SR)")
    parser.add_argument("--problems", type=int, default=50)
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--algorithms", default=",".join(DATABASE_ALGORITHMS),
                        help=f"comma-separated (default {','.join(DATABASE_ALGORITHMS)})")
    args = parser.parse_args(argv)
    names = args.algorithms.split(",")
    unknown = [name for name in names if name not in DATABASE_ALGORITHMS]
    if unknown:
        parser.error(f"unknown algorithm {unknown[0]!r}; choose from {', '.join(DATABASE_ALGORITHMS)}")
    grid = read_map(str(args.map))
    rows = [bench(grid, name, args.problems, args.seed) for name in names]
    print(f"{args.map.name}, {args.problems} problems (seed {args.seed}); CPU ms per problem")
    print(format_table(["algorithm", "readable ms", "compiled ms", "speed-up", "readable call ms", "compiled call ms",
                        "call speed-up", "database s"], rows))


if __name__ == "__main__":
    main()
