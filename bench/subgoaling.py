"""Benchmark: the subgoaling module, readable (Python) against the compiled twins (Numba), side by side.

    python bench/subgoaling.py                       # lak304d (Dragon Age, 18,059 free cells)
    python bench/subgoaling.py --map ../shared/movingai/bgmaps/AR0204SR.map --problems 20 --goals 50

Two measurements, each in one process, GC off, the twins compiled (or loaded from Numba's cache)
before timing, readable and compiled runs interleaved problem by problem:

* the runs: ``--problems`` problems drawn as the experiment draws them (seed 2011), every algorithm of
  ``ftr subgoal`` on both engines, checked to walk the same walk. CPU milliseconds per problem as the
  experiment counts them (planning time: the episodes' times, not the trace the readable code builds
  as it goes) and of the whole call; the compiled / readable speed-up of each;
* the trees: ``--goals`` random goals, Algorithm 2 on both (the same arcs); milliseconds per tree
  and what every tree of the map would take.
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from reference.experiments.report import format_table  # noqa: E402
from reference.experiments.subgoaling import DEFAULT_SEED, MAX_MOVES, draw_problems  # noqa: E402
from reference.solutions import subgoaling as readable  # noqa: E402
from reference.solutions.compiled import subgoaling as compiled  # noqa: E402
from reference.world.maps import read_map  # noqa: E402

DEFAULT_MAP = Path(__file__).resolve().parents[2] / "shared" / "movingai" / "dao" / "lak304d.map"


def bench_runs(grid, problems: int, seed: int) -> list[list]:
    """Per algorithm: readable and compiled planning ms and whole-call ms per problem, and the speed-ups."""
    tasks = draw_problems(grid, problems, seed)
    planning = {(name, engine): 0.0 for name in readable.ALGORITHMS for engine in ("python", "compiled")}
    whole = dict(planning)
    compiled.reserve(grid.size, 64, 1 << 20)
    for start, goal in tasks:
        trees = {"python": readable.build_subgoal_tree(grid, goal, 8), "compiled": compiled.compiled_tree(grid, goal, 8)}
        for name in readable.ALGORITHMS:
            walks = {}
            for engine in ("python", "compiled"):
                began = time.process_time()
                run = (compiled.run_compiled(grid, start, goal, name, tree=trees[engine], max_moves=MAX_MOVES)
                       if engine == "compiled" else readable.run_algorithm(name, grid, start, goal, tree=trees[engine], max_moves=MAX_MOVES))
                whole[name, engine] += time.process_time() - began
                planning[name, engine] += run.total_seconds
                walks[engine] = (run.reached, run.cost, run.moves, run.first_goal)
            assert walks["python"] == walks["compiled"], f"the engines differ: {name}, {start} -> {goal}"
    rows = []
    for name in readable.ALGORITHMS:
        ms = {key: 1e3 * planning[name, key] / problems for key in ("python", "compiled")}
        call = {key: 1e3 * whole[name, key] / problems for key in ("python", "compiled")}
        rows.append([name, ms["python"], ms["compiled"], f"{ms['python'] / ms['compiled']:.0f}x",
                     call["python"], call["compiled"], f"{call['python'] / call['compiled']:.0f}x"])
    return rows


def bench_trees(grid, goals: int, seed: int) -> tuple[list[list], float]:
    free = [divmod(int(i), grid.width) for i in np.flatnonzero(~grid.blocked.ravel())]
    chosen = [free[i] for i in np.random.default_rng(seed).choice(len(free), goals, replace=False)]
    seconds = {"readable": 0.0, "compiled": 0.0}
    for goal in chosen:
        began = time.process_time()
        slow = readable.build_subgoal_tree(grid, goal, 8).arcs
        seconds["readable"] += time.process_time() - began
        began = time.process_time()
        fast = compiled.subgoal_tree_arcs(grid, goal, 8)
        seconds["compiled"] += time.process_time() - began
        assert slow == fast, f"the twins differ at goal {goal}"
    per_tree = {name: 1e3 * s / goals for name, s in seconds.items()}
    return ([[name, per_tree[name], per_tree[name] * len(free) / 1e3] for name in per_tree],
            seconds["readable"] / seconds["compiled"])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--map", type=Path, default=DEFAULT_MAP)
    parser.add_argument("--problems", type=int, default=10, help="problems for the runs (default 10)")
    parser.add_argument("--goals", type=int, default=30, help="goals for the trees (default 30)")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    args = parser.parse_args()
    grid = read_map(args.map)
    free = int((~grid.blocked).sum())
    warm = draw_problems(grid, 1, args.seed + 1)[0]
    for name in compiled.ALGORITHMS:   # compile (or load Numba's cache) before timing
        compiled.run_compiled(grid, *warm, name)
    gc.disable()
    runs = bench_runs(grid, args.problems, args.seed)
    trees, tree_speedup = bench_trees(grid, args.goals, args.seed)
    gc.enable()
    print(f"{args.map.name}: {free:,} free cells; {args.problems} problems (the same walks on both engines)")
    print(format_table(["algorithm", "python planning ms", "compiled planning ms", "speed-up",
                        "python whole call ms", "compiled whole call ms", "speed-up"], runs))
    print(f"\nsubgoal trees: {args.goals} goals (the same trees from both)")
    print(format_table(["builder", "ms per tree", "every tree of the map [s]"], trees))
    print(f"compiled / readable speed-up: {tree_speedup:.0f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
