"""Benchmark: what one expansion and one planning episode cost each real-time / incremental planner.

    python bench/realtime.py                  # 301 x 301: 1 maze and 4 random grids
    python bench/realtime.py --size 101 --mazes 2 --grids 4
    python bench/realtime.py --tie-order --size 101 --mazes 8 --grids 24


For every planner setting it runs the same grids (GC off, one process) and reports CPU
microseconds per expansion and per episode, and the share of the run's time that is planning (the
rest is moving, sensing and recording the trace). Koenig's Figure 7 argues that planning time is
roughly proportional to expansions; in Python a fixed cost per episode (a fresh priority queue,
the Dijkstra pass, the clock itself) also shows, most at small lookaheads.

``--tie-order`` instead measures how much LRTA* with lookahead one depends on the order in which
it breaks ties between equally good neighbours: the kit's fixed east-south-west-north order against
a random choice among the tied neighbours (Koenig 2004, Section 8: "it is beneficial for LRTA* with
small lookaheads to generate the successors of states ... in a random order rather than a fixed one").
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from reference.experiments.report import format_table  # noqa: E402
from reference.experiments.realtime import make_instance  # noqa: E402
from reference.solutions.compiled.realtime import run_compiled, warm_up  # noqa: E402
from reference.solutions.realtime import KorfLRTA, run_algorithm  # noqa: E402
from reference.solutions.realtime.agent import INFINITY  # noqa: E402
from reference.world.sensing import FogOfWarWorld  # noqa: E402


def trusted_world(instance) -> FogOfWarWorld:
    """The instance's world for a long run: sensing is a look-up, moves are not checked."""
    return FogOfWarWorld(instance.grid, instance.start, check_moves=False)


SETTINGS = [("dstar_lite", "strong", 1), ("lrta", "weak", 1), ("lrta_astar", "weak", 1), ("lrta_astar", "weak", 9),
            ("lrta_astar", "weak", 49), ("lrta_bfs", "weak", 9), ("lrta_bfs", "weak", 49)]
COLUMNS = ["planner", "h", "expansions", "episodes", "python us/exp", "twin us/exp", "python planning share",
           "twin planning share", "python run s", "twin run s", "run speed-up", "planning speed-up"]
TIE_COLUMNS = ["grids", "h", "n", "fixed: mean moves", "fixed: median", "random ties: mean", "random ties: median"]


class RandomTiesLRTA(KorfLRTA):
    """Korf's LRTA* that picks at random among the neighbours tied for the smallest 1 + h."""

    def __init__(self, *args, seed: int = 0, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.rng = random.Random(seed)

    def plan(self, agent: int) -> tuple[list[int], list[int]]:
        options = [(1 + self.h(t), t) for t in self.free_neighbours(agent)]
        best_cost = min((cost for cost, _ in options), default=INFINITY)
        tied = [t for cost, t in options if cost == best_cost]
        self.value[agent] = max(self.h(agent), best_cost)
        if not tied or self.value[agent] >= self.cell_count - self.known_blocked_count:
            return [agent], []
        return [agent], [agent, self.rng.choice(tied)]


def tie_order(args: argparse.Namespace) -> None:
    """Path length of LRTA* (lookahead one) with fixed and with random tie breaking."""
    rows = []
    for kind, count in (("maze", args.mazes), ("random", args.grids)):
        if count == 0:
            continue
        instances = [make_instance(kind, n, args.size) for n in range(count)]
        for heuristic in ("strong", "weak"):
            fixed = [KorfLRTA(trusted_world(i), i.start, i.target, heuristic).run().moves for i in instances]
            shuffled = [statistics.fmean(RandomTiesLRTA(trusted_world(i), i.start, i.target, heuristic, seed=s).run().moves
                                         for s in range(3)) for i in instances]
            rows.append([kind, heuristic, count, statistics.fmean(fixed), statistics.median(fixed),
                         statistics.fmean(shuffled), statistics.median(shuffled)])
            print(format_table(TIE_COLUMNS, rows[-1:]).splitlines()[-1], flush=True)
    print()
    print(f"LRTA* with lookahead one, {args.size} x {args.size}; random ties: mean of 3 seeds per grid")
    print(format_table(TIE_COLUMNS, rows))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=101)
    parser.add_argument("--mazes", type=int, default=2)
    parser.add_argument("--grids", type=int, default=8)
    parser.add_argument("--tie-order", action="store_true", help="fixed vs random tie breaking of LRTA* (lookahead one)")
    args = parser.parse_args()
    if args.tie_order:
        tie_order(args)
        return
    instances = [make_instance("maze", n, args.size) for n in range(args.mazes)]
    instances += [make_instance("random", n, args.size) for n in range(args.grids)]
    warm_up()  # compiling the twins is not part of any run's time
    rows = []
    for algorithm, heuristic, lookahead in SETTINGS:
        expansions = episodes = 0
        planning = {"python": 0.0, "compiled": 0.0}
        total = {"python": 0.0, "compiled": 0.0}
        for instance in instances:  # the two engines side by side on each grid: the same machine load
            gc.disable()
            began = time.process_time()
            run = run_algorithm(algorithm, trusted_world(instance), instance.start, instance.target,
                                heuristic=heuristic, lookahead=lookahead)
            total["python"] += time.process_time() - began
            gc.enable()
            began = time.process_time()
            twin = run_compiled(instance.grid, instance.start, instance.target, algorithm, heuristic=heuristic, lookahead=lookahead)
            total["compiled"] += time.process_time() - began
            assert (twin.expansions, twin.moves) == (run.expansions, run.moves), "the twin must give the same run"
            expansions, episodes = expansions + run.expansions, episodes + run.episodes
            planning["python"] += run.planning_time
            planning["compiled"] += twin.planning_time
        label = algorithm if algorithm == "dstar_lite" else f"{algorithm} (lookahead {lookahead})"
        rows.append([label, heuristic, expansions, episodes,
                     planning["python"] * 1e6 / expansions, planning["compiled"] * 1e6 / expansions,
                     f"{100 * planning['python'] / total['python']:.0f}%",
                     f"{100 * planning['compiled'] / total['compiled']:.0f}%",
                     total["python"], total["compiled"], total["python"] / total["compiled"],
                     planning["python"] / planning["compiled"]])
        print(format_table(COLUMNS, rows[-1:]).splitlines()[-1], flush=True)
    print()
    print(f"{args.mazes} maze(s) and {args.grids} random grid(s), {args.size} x {args.size}; CPU time, GC off; "
          "each run on the reference (python) and on the compiled twin (with its trace), one after the other")
    print(format_table(COLUMNS, rows))


if __name__ == "__main__":
    main()
