"""Benchmark: building subgoal trees, readable (Python) against the compiled twin (Numba), side by side.

    python bench/subgoaling.py                       # 30 goals on lak304d (Dragon Age, 18,059 free cells)
    python bench/subgoaling.py --map ../shared/movingai/bgmaps/AR0204SR.map --goals 50

The same goals, in one process, GC off; the compiled twin is compiled before timing. Reports CPU
milliseconds per tree for each and their ratio, and what every tree of the map would take.
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from reference.cli._common import format_table  # noqa: E402
from reference.solutions.compiled.subgoaling import subgoal_tree_arcs  # noqa: E402
from reference.solutions.subgoaling import build_subgoal_tree  # noqa: E402
from reference.world.maps import read_map  # noqa: E402

DEFAULT_MAP = Path(__file__).resolve().parents[2] / "shared" / "movingai" / "dao" / "lak304d.map"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--map", type=Path, default=DEFAULT_MAP)
    parser.add_argument("--goals", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    grid = read_map(args.map)
    free = [divmod(int(i), grid.width) for i in np.flatnonzero(~grid.blocked.ravel())]
    rng = np.random.default_rng(args.seed)
    goals = [free[i] for i in rng.choice(len(free), args.goals, replace=False)]
    subgoal_tree_arcs(grid, goals[0])  # compile (or load Numba's cache) before timing
    seconds = {"readable": 0.0, "compiled": 0.0}
    gc.disable()
    for goal in goals:
        began = time.process_time()
        readable = build_subgoal_tree(grid, goal, 8).arcs
        seconds["readable"] += time.process_time() - began
        began = time.process_time()
        compiled = subgoal_tree_arcs(grid, goal, 8)
        seconds["compiled"] += time.process_time() - began
        assert readable == compiled, f"the twins differ at goal {goal}"
    gc.enable()
    per_tree = {name: 1e3 * s / len(goals) for name, s in seconds.items()}
    print(f"{args.map.name}: {len(free):,} free cells, {len(goals)} goals (same trees from both)")
    print(format_table(["builder", "ms per tree", "every tree of the map [s]"],
                       [[name, per_tree[name], per_tree[name] * len(free) / 1e3] for name in per_tree]))
    print(f"compiled / readable speed-up: {seconds['readable'] / seconds['compiled']:.0f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
