"""Benchmark: what one expansion and one planning episode cost each real-time / incremental planner.

    python bench/realtime.py                  # 301 x 301: 1 maze and 4 random grids
    python bench/realtime.py --size 101 --mazes 2 --grids 4

For every planner setting it runs the same grids (GC off, one process) and reports CPU
microseconds per expansion and per episode, and the share of the run's time that is planning (the
rest is moving, sensing and recording the trace). Koenig's Figure 7 argues that planning time is
roughly proportional to expansions; in Python a fixed cost per episode (a fresh priority queue,
the Dijkstra pass, the clock itself) also shows, most at small lookaheads.
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from reference.cli._common import format_table  # noqa: E402
from reference.experiments.realtime import SensorWorld, make_instance  # noqa: E402
from reference.solutions.realtime import run_algorithm  # noqa: E402

SETTINGS = [("dstar_lite", "strong", 1), ("lrta", "weak", 1), ("lrta_astar", "weak", 1), ("lrta_astar", "weak", 9),
            ("lrta_astar", "weak", 49), ("lrta_bfs", "weak", 9), ("lrta_bfs", "weak", 49)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=301)
    parser.add_argument("--mazes", type=int, default=1)
    parser.add_argument("--grids", type=int, default=4)
    args = parser.parse_args()
    instances = [make_instance("maze", n, args.size) for n in range(args.mazes)]
    instances += [make_instance("random", n, args.size) for n in range(args.grids)]
    rows = []
    for algorithm, heuristic, lookahead in SETTINGS:
        expansions = episodes = 0
        planning = total = 0.0
        for instance in instances:
            gc.disable()
            began = time.process_time()
            run = run_algorithm(algorithm, SensorWorld(instance.grid), instance.start, instance.target,
                                heuristic, lookahead)
            total += time.process_time() - began
            gc.enable()
            expansions, episodes, planning = expansions + run.expansions, episodes + run.episodes, planning + run.planning_time
        label = algorithm if algorithm == "dstar_lite" else f"{algorithm} (lookahead {lookahead})"
        rows.append([label, heuristic, expansions, episodes, planning * 1e6 / expansions, planning * 1e6 / episodes,
                     f"{100 * planning / total:.0f}%", total])
        print(format_table(["planner", "h", "expansions", "episodes", "us/expansion", "us/episode",
                            "planning share", "run seconds"], rows[-1:]).splitlines()[-1], flush=True)
    print()
    print(f"{args.mazes} maze(s) and {args.grids} random grid(s), {args.size} x {args.size}; CPU time, GC off")
    print(format_table(["planner", "h", "expansions", "episodes", "us/expansion", "us/episode", "planning share",
                        "run seconds"], rows))


if __name__ == "__main__":
    main()
