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

``--successor-order`` measures what that random order costs in time: the compiled LRTA* with A*
lookahead (weak h) in fixed and in random successor order, side by side on each maze: planning
time per expansion in nanoseconds and its ratio per maze, and the time of drawing one order alone.
The cost moves the planning objectives' threshold x (docs/realtime.md, "Successors in random order
in all 1,000 mazes").

    python bench/realtime.py --successor-order --size 301 --mazes 20 --lookahead 23
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from reference.experiments.report import format_table  # noqa: E402
from reference.experiments.realtime import DEFAULT_SEED, make_instance, order_seed  # noqa: E402
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


ORDER_COLUMNS = ["lookahead", "mazes", "expansions: fixed", "expansions: random", "ns/exp: fixed", "ns/exp: random",
                 "random / fixed: median", "min", "max"]


def successor_order_cost(args: argparse.Namespace) -> None:
    """Planning time per expansion of the compiled LRTA* (weak h) in fixed and in random order."""
    warm_up()  # compiling the twins is not part of any run's time
    orders = ("fixed", "random")
    expansions = dict.fromkeys(orders, 0)
    per_expansion: dict[str, list[float]] = {order: [] for order in orders}  # ns, one per maze
    for number in range(args.mazes):
        instance = make_instance("maze", number, args.size)
        best, counts = dict.fromkeys(orders, float("inf")), {}
        for _ in range(3):  # both orders, one after the other, three times: the same machine load
            for order in orders:
                run = run_compiled(instance.grid, instance.start, instance.target, "lrta_astar", heuristic="weak",
                                   lookahead=args.lookahead, record=False, successors=order,
                                   seed=order_seed(DEFAULT_SEED, number))  # the comparison's own order
                best[order] = min(best[order], run.planning_time * 1e9 / run.expansions)
                counts[order] = run.expansions  # the same every time: a run is deterministic
        for order in orders:
            per_expansion[order].append(best[order])
            expansions[order] += counts[order]
    ratios = [r / f for f, r in zip(per_expansion["fixed"], per_expansion["random"])]
    draw_ns = order_draw_ns()
    print(f"LRTA* with A* lookahead, weak h, {args.mazes} maze(s) of {args.size} x {args.size}; "
          "planning time per expansion, best of 3 per maze; ns/exp and ratio: medians over the mazes")
    print(format_table(ORDER_COLUMNS, [[args.lookahead, args.mazes, expansions["fixed"], expansions["random"],
                                        statistics.median(per_expansion["fixed"]),
                                        statistics.median(per_expansion["random"]),
                                        statistics.median(ratios), min(ratios), max(ratios)]]))
    print(f"drawing one expansion's random order alone: {draw_ns:.1f} ns (the rest of the difference is the "
          "lookahead's own work with the neighbours visited in an order that changes at every expansion)")


def order_draw_ns(draws: int = 10_000_000) -> float:
    """CPU nanoseconds of one draw of an expansion's successor order (the compiled lookahead's own code)."""
    from numba import njit

    from reference.solutions.compiled.realtime.lookahead import _shuffle_directions

    @njit
    def draw_many(n, order, rng):
        first = 0
        for _ in range(n):
            _shuffle_directions(order, rng)
            first += order[0]  # used, so the compiler cannot drop the draws
        return first

    order, rng = np.zeros(4, np.int64), np.array([DEFAULT_SEED], np.uint64)
    draw_many(10, order, rng)  # compile first
    began = time.process_time()
    draw_many(draws, order, rng)
    return (time.process_time() - began) * 1e9 / draws


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=101)
    parser.add_argument("--mazes", type=int, default=2)
    parser.add_argument("--grids", type=int, default=8)
    parser.add_argument("--tie-order", action="store_true", help="fixed vs random tie breaking of LRTA* (lookahead one)")
    parser.add_argument("--successor-order", action="store_true",
                        help="time per expansion of the compiled LRTA* in fixed vs random successor order (mazes)")
    parser.add_argument("--lookahead", type=int, default=23, help="the lookahead of --successor-order (default 23)")
    args = parser.parse_args()
    if args.tie_order:
        tie_order(args)
        return
    if args.successor_order:
        successor_order_cost(args)
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
