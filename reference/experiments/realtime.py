"""Koenig's comparison of real-time and incremental search (Koenig 2004), reproduced on the kit.

Two kinds of 301 x 301 four-connected grids, as in the paper (Sections 6 and 7):

* ``maze``: acyclic depth-first-search mazes with no walls removed
  (``generate_maze(seed, size, extra_openings=0)``; start and target are corridor nodes, so a path
  always exists);
* ``random``: 25% of the cells blocked uniformly at random, start and target random unblocked cells
  with a path between them (redrawn until there is one).

On each grid it runs D* Lite and LRTA* (A* lookahead, and breadth-first lookahead) with lookaheads
1, 3, ..., 49 and both heuristics, and tabulates what the paper tabulates:

* Table 1: planning time and path length, strong vs weak heuristic;
* Table 2 (mazes: D* Lite strong, LRTA* weak) and Table 3 (random grids: both strong): (a) lookahead,
  (b) expansions, (c) planning episodes, (d) moves, (e) moves per episode, (f) planning time,
  (g) planning time per episode, (h) planning time per move, all averages over the grids (the
  per-episode and per-move columns are ratios of averages, as the paper's numbers show);
* Table 4: LRTA* with A* vs breadth-first local search (expansions and moves);

draws Figures 7 (planning time vs expansions) and 8 (planning time vs path length), answers the
paper's three planning objectives (Section 6: planning time + x * path length, and the shortest path
under a time limit per episode or per move; :func:`optimal_lookahead_by_x`, :func:`best_under_limit`,
Figure 9), and checks the paper's findings against the numbers (:data:`CLAIMS`, one function per
claim). Times are in microseconds, as in the paper.

>>> rows = run_comparison(mazes=1, grids=1, size=21, lookaheads=(1, 9), progress=False, engine="python")
>>> sorted({(r["kind"], r["algorithm"]) for r in rows})[:3]
[('maze', 'dstar_lite'), ('maze', 'lrta_astar'), ('maze', 'lrta_bfs')]
>>> all(r["reached"] for r in rows)
True
"""

from __future__ import annotations

import csv
import gc
import statistics
import time
from functools import lru_cache, partial
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

import numpy as np

from reference.experiments.tasks import prepare, run_tasks
from reference.experiments.report import (
    DOES_NOT_HOLD, HOLDS, INCONCLUSIVE, LARGE_RUNS, Claim, Finding, bootstrap_interval, check, ci95, findings_markdown,
    bootstrap_values, for_every, for_some, open_runs, runs_file, to_csv, to_markdown, verdict, verdict_of_difference, write_runs,
)
from reference.solutions.compiled.realtime import RealtimeRun as CompiledRealtimeRun, run_compiled, warm_up
from reference.solutions.realtime import RealtimeRun, run_algorithm
from reference.world.fileio import atomic_write_text
from reference.world.generator import generate_maze
from reference.world.grid import Gridworld, shortest_distance
from reference.world.instances import Instance
from reference.world.sensing import FogOfWarWorld

#: The paper's lookaheads: 1, 3, ..., 49.
LOOKAHEADS: tuple[int, ...] = tuple(range(1, 50, 2))
#: The paper's sample sizes (Section 5): 1000 mazes and 5000 random grids, 301 x 301.
PAPER_MAZES, PAPER_GRIDS, PAPER_SIZE = 1000, 5000, 301
#: What ``ftr realtime compare`` runs by default: a few minutes on two cores.
DEFAULT_MAZES, DEFAULT_GRIDS, DEFAULT_SIZE = 6, 24, 101
DEFAULT_SEED = 2004
#: How long compiling the twins takes when Numba has nothing cached (measured: 89 CPU-seconds on a
#: quiet machine, several minutes of wall-clock time on a loaded one); cached, loading takes about 0.2 s.
COMPILE_TIME = "about 1.5 CPU-minutes of compiling"
OBSTACLE_DENSITY = 0.25
KINDS = ("maze", "random")

#: The heuristic the paper settles on for each kind of grid (Section 6: "D* Lite with the strong
#: heuristics and LRTA* with the weak heuristics" in mazes; Section 7: both strong on random grids).
BEST_HEURISTIC = {("maze", "dstar_lite"): "strong", ("maze", "lrta_astar"): "weak", ("maze", "lrta_bfs"): "weak",
                  ("random", "dstar_lite"): "strong", ("random", "lrta_astar"): "strong",
                  ("random", "lrta_bfs"): "strong"}


# -- the grids ---------------------------------------------------------------------------------------


@lru_cache(maxsize=4)
def make_instance(kind: str, number: int, size: int = PAPER_SIZE, seed: int = DEFAULT_SEED) -> Instance:
    """Grid ``number`` of the given kind; the same arguments always give the same grid.

    >>> maze = make_instance("maze", 0, size=11)
    >>> maze.grid.blocked_count            # a perfect 11 x 11 maze has 36 nodes and 35 open walls
    50
    >>> grid = make_instance("random", 0, size=20)
    >>> grid.grid.blocked_count, shortest_distance(grid.grid, grid.start, grid.target) is not None
    (100, True)
    """
    if kind == "maze":
        maze = generate_maze([seed, 0, number], size, extra_openings=0)
        return Instance(f"maze_{number:04d}", maze.grid, maze.start, maze.target)
    if kind != "random":
        raise ValueError(f"kind must be 'maze' or 'random', got {kind!r}")
    rng = np.random.default_rng([seed, 1, number])
    cells = size * size
    while True:  # redraw until start and target are connected (the paper's restriction)
        blocked = np.zeros(cells, dtype=bool)
        blocked[rng.choice(cells, size=round(OBSTACLE_DENSITY * cells), replace=False)] = True
        grid = Gridworld(size, size, blocked.reshape(size, size))
        first, second = rng.choice(np.flatnonzero(~blocked), size=2, replace=False)
        start, target = divmod(int(first), size), divmod(int(second), size)
        if shortest_distance(grid, start, target) is not None:
            return Instance(f"random_{number:04d}", grid, start, target)


# -- running --------------------------------------------------------------------------------------


#: The planners the comparison runs, and the heuristics ("best": each planner's :data:`BEST_HEURISTIC`).
ALGORITHMS = ("dstar_lite", "lrta_astar", "lrta_bfs")
HEURISTICS = ("strong", "weak", "best")


def settings_for(kind: str, lookaheads: Sequence[int] = LOOKAHEADS, algorithms: Sequence[str] = ALGORITHMS,
                 heuristics: Sequence[str] = HEURISTICS) -> list[tuple[str, str, int | None]]:
    """(algorithm, heuristic, lookahead) triples run on every grid of ``kind``.

    D* Lite and LRTA* with A* lookahead with both heuristics (Table 1), and LRTA* with
    breadth-first lookahead with the kind's best heuristic (Table 4); ``algorithms`` and
    ``heuristics`` keep only some of them (a part of a large sample; the heuristic ``"best"`` keeps
    the settings of Tables 2-4, each planner with the heuristic the paper settles on for ``kind``).

    >>> settings_for("maze", (1, 3))[:3]
    [('dstar_lite', 'strong', None), ('dstar_lite', 'weak', None), ('lrta_astar', 'strong', 1)]
    >>> settings_for("random", (1, 3), algorithms=["lrta_astar"], heuristics=["strong"])
    [('lrta_astar', 'strong', 1), ('lrta_astar', 'strong', 3)]
    >>> settings_for("maze", (7,), algorithms=["dstar_lite", "lrta_astar"], heuristics=["best"])
    [('dstar_lite', 'strong', None), ('lrta_astar', 'weak', 7)]
    """
    settings: list[tuple[str, str, int | None]] = [("dstar_lite", "strong", None), ("dstar_lite", "weak", None)]
    for heuristic in ("strong", "weak"):
        settings += [("lrta_astar", heuristic, n) for n in lookaheads]
    settings += [("lrta_bfs", BEST_HEURISTIC[(kind, "lrta_bfs")], n) for n in lookaheads]
    return [(algorithm, heuristic, n) for algorithm, heuristic, n in settings if algorithm in algorithms
            and (heuristic in heuristics or ("best" in heuristics and heuristic == BEST_HEURISTIC[(kind, algorithm)]))]


#: The engines that run the planners: the compiled twins (default) or the readable reference.
ENGINES = ("compiled", "python")


def order_seed(seed: int, number: int) -> int:
    """The seed of the random successor order on grid ``number``: one stream per grid, the same for
    every setting run on it (so the fixed and random orders, and two lookaheads, pair grid by grid)."""
    return (int(seed) << 32) + int(number)


def run_one(task: tuple) -> dict[str, Any]:
    """One run: ``(kind, number, size, seed, algorithm, heuristic, lookahead, engine[, successors])``
    -> a row of numbers. ``successors``: ``"fixed"`` (east, south, west, north; the default) or
    ``"random"`` (Koenig's recommendation, seeded by :func:`order_seed`); only the LRTA* lookahead
    searches use it.

    Both engines give the same counts (the twins' traces are the reference's); only the times differ.
    """
    kind, number, size, seed, algorithm, heuristic, lookahead, engine, *rest = task
    successors = rest[0] if rest else "fixed"
    successor_seed = order_seed(seed, number)
    instance = make_instance(kind, number, size, seed)
    if engine == "compiled":
        warm_up()  # compiling (or loading the compiled code) is not part of the first run's time
    run: CompiledRealtimeRun | RealtimeRun   # the twin has the same counts and summary()
    began = time.perf_counter()
    if engine == "compiled":  # counts only: a comparison reads no traces
        run = run_compiled(instance.grid, instance.start, instance.target, algorithm, heuristic=heuristic,
                           lookahead=lookahead or 1, record=False, successors=successors, seed=successor_seed)
    else:
        gc.disable()  # a collection in the middle of an episode would be charged to its planning time
        try:
            world = FogOfWarWorld(instance.grid, instance.start, check_moves=False)  # sense: a look-up
            run = run_algorithm(algorithm, world, instance.start, instance.target,
                                heuristic=heuristic, lookahead=lookahead or 1, successors=successors, seed=successor_seed)
        finally:
            gc.enable()
    seconds = time.perf_counter() - began
    summary = run.summary()
    return {
        "kind": kind, "instance": number, "size": size, "algorithm": algorithm, "heuristic": heuristic,
        "lookahead": lookahead, "engine": engine, "successors": successors,
        **{key: summary[key] for key in ("reached", "expansions", "episodes", "moves", "planning_us",
                                         "max_expansions_per_episode")},
        "seconds": seconds,
    }


#: A run's fields that depend on the machine and its load; every other field is the same wherever it runs.
TIME_FIELDS = ("planning_us", "seconds")


def without_times(rows: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rows without their :data:`TIME_FIELDS`: what two runs of one comparison must share.

    >>> without_times([{"moves": 12, "planning_us": 3.5, "seconds": 0.01}])
    [{'moves': 12}]
    """
    return [{key: value for key, value in row.items() if key not in TIME_FIELDS} for row in rows]


def run_comparison(mazes: int = DEFAULT_MAZES, grids: int = DEFAULT_GRIDS, size: int = DEFAULT_SIZE,
                   lookaheads: Sequence[int] = LOOKAHEADS, jobs: int = 1, progress: bool = True,
                   seed: int = DEFAULT_SEED, engine: str = "compiled", first_maze: int = 0,
                   first_grid: int = 0, successors: str = "fixed", algorithms: Sequence[str] = ALGORITHMS,
                   heuristics: Sequence[str] = HEURISTICS, scheduler: str | None = None,
                   store: str | Path | None = None) -> list[dict[str, Any]]:
    """Run every setting of :func:`settings_for` on ``mazes`` mazes and ``grids`` random grids.

    Returns one row per run (see :func:`run_one`). ``jobs > 1`` spreads the runs over processes
    (planning times then include some contention for the cores). ``engine``: ``"compiled"`` (the
    twins) or ``"python"`` (the readable reference). ``first_maze`` / ``first_grid``: the number of
    the first grid of each kind, so that a large sample can be run in parts and merged.
    ``successors``: the LRTA* lookahead searches' successor order, ``"fixed"`` or ``"random"``.
    ``algorithms`` / ``heuristics``: run only these of :func:`settings_for`'s settings.
    ``scheduler`` / ``store``: a Dask cluster to run on, a folder keeping finished runs
    (:func:`~reference.experiments.tasks.run_tasks`).
    """
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {', '.join(ENGINES)}, got {engine!r}")
    tasks = [(kind, number, size, seed, algorithm, heuristic, lookahead, engine, successors)
             for kind, first, count in (("maze", first_maze, mazes), ("random", first_grid, grids))
             for number in range(first, first + count)
             for algorithm, heuristic, lookahead in settings_for(kind, lookaheads, algorithms, heuristics)]
    if engine == "compiled" and scheduler is None:   # compile here once; local workers then load the cache
        prepare(warm_up, "the compiled engine (Numba)", COMPILE_TIME, progress)
    return run_tasks(run_one, tasks, jobs=jobs, scheduler=scheduler, store=store, description="realtime comparison",
                     progress=progress)


def read_runs(path: str | Path) -> list[dict[str, Any]]:
    """The rows of a ``runs.csv`` (or ``runs.csv.gz``) that :func:`write_report` wrote, with their types back.

    ``DIR/runs.csv`` reads ``DIR/runs.csv.gz`` where only that exists (a large comparison's runs are
    written gzipped), so one command merges parts of any size.
    """
    integers = ("instance", "size", "expansions", "episodes", "moves", "max_expansions_per_episode")
    rows = []
    with open_runs(runs_file(path)) as file:
        for raw in csv.DictReader(file):
            row: dict[str, Any] = dict(raw)
            row.setdefault("engine", "python")  # runs.csv files from before the compiled twins
            row.setdefault("successors", "fixed")  # ... and from before the random successor order
            for key in integers:
                row[key] = int(raw[key])
            row["lookahead"] = int(raw["lookahead"]) if raw["lookahead"] else None
            row["reached"] = raw["reached"] == "True"
            row["planning_us"], row["seconds"] = float(raw["planning_us"]), float(raw["seconds"])
            rows.append(row)
    return rows


# -- tables ---------------------------------------------------------------------------------------

#: The columns of the paper's Tables 2 and 3, with the letters it gives them.
PAPER_COLUMNS = (
    ("lookahead", "(a) lookahead"), ("expansions", "(b) expansions"), ("expansions_ci95", "±"),
    ("episodes", "(c) planning episodes"), ("episodes_ci95", "±"), ("moves", "(d) moves"), ("moves_ci95", "±"),
    ("moves_per_episode", "(e) moves per episode"), ("planning_us", "(f) planning time [us]"),
    ("planning_us_ci95", "±"), ("planning_us_per_episode", "(g) per episode [us]"),
    ("planning_us_per_move", "(h) per move [us]"), ("runs", "n"),
)


#: A setting of the comparison: ``(kind, algorithm, heuristic, lookahead)`` (lookahead None: D* Lite).
Setting = tuple[str, str, str, int | None]


class RunGroups(dict[Setting, list[dict[str, Any]]]):
    """Rows grouped by setting, ``(kind, algorithm, heuristic, lookahead)`` -> rows in their order.

    Every table, figure and finding averages over settings many times; grouping the rows once
    keeps that from scanning every row per setting (the paper's sample has 462,000 rows).
    """


#: What the tables, figures and findings read: the rows of runs, or those rows already grouped.
Runs = Iterable[dict[str, Any]] | RunGroups


def group_runs(rows: Runs) -> RunGroups:
    """The rows as :class:`RunGroups` (rows already grouped are returned as they are)."""
    if isinstance(rows, RunGroups):
        return rows
    groups = RunGroups()
    for r in rows:
        groups.setdefault((r["kind"], r["algorithm"], r["heuristic"], r["lookahead"]), []).append(r)
    return groups


#: The measures averaged over the grids of a setting, each with its 95% confidence interval.
MEASURES = ("expansions", "episodes", "moves", "planning_us")


def averages(rows: Runs, kind: str, algorithm: str, heuristic: str, lookahead: int | None) -> dict | None:
    """Mean expansions, episodes, moves and planning time over the grids of one setting (None if no runs).

    ``runs`` is the sample size; ``<measure>_ci95`` the half-width of the mean's 95% confidence interval.
    """
    chosen = group_runs(rows).get((kind, algorithm, heuristic, lookahead))
    if not chosen:
        return None
    mean = {m: statistics.fmean(r[m] for r in chosen) for m in MEASURES}
    return {
        "lookahead": "-" if lookahead is None else lookahead, **mean, "runs": len(chosen),
        **{f"{m}_ci95": ci95([r[m] for r in chosen]) for m in MEASURES},
        "moves_per_episode": mean["moves"] / mean["episodes"] if mean["episodes"] else 0.0,
        "planning_us_per_episode": mean["planning_us"] / mean["episodes"] if mean["episodes"] else 0.0,
        "planning_us_per_move": mean["planning_us"] / mean["moves"] if mean["moves"] else 0.0,
    }


def lookaheads_in(rows: Runs) -> list[int]:
    """The lookaheads the runs used, smallest first (D* Lite's runs have none)."""
    return sorted({lookahead for _, _, _, lookahead in group_runs(rows) if lookahead is not None})


def paper_table(rows: Runs, kind: str) -> list[dict]:
    """Table 2 (``kind="maze"``) or Table 3 (``"random"``): D* Lite, then LRTA* per lookahead."""
    groups = group_runs(rows)
    table = []
    dstar = averages(groups, kind, "dstar_lite", BEST_HEURISTIC[(kind, "dstar_lite")], None)
    if dstar:
        table.append({"algorithm": "D* Lite", **dstar})
    for n in lookaheads_in(groups):
        line = averages(groups, kind, "lrta_astar", BEST_HEURISTIC[(kind, "lrta_astar")], n)
        if line:
            table.append({"algorithm": "LRTA*", **line})
    return table


def heuristics_table(rows: Runs) -> list[dict]:
    """Table 1: planning time and moves of D* Lite and LRTA* with the strong and the weak heuristic."""
    groups = group_runs(rows)
    table = []
    for algorithm, lookaheads in (("dstar_lite", [None]), ("lrta_astar", lookaheads_in(groups))):
        for n in lookaheads:
            line: dict[str, Any] = {"algorithm": "D* Lite" if algorithm == "dstar_lite" else "LRTA*",
                                    "lookahead": "-" if n is None else n}
            for kind in KINDS:
                for heuristic in ("strong", "weak"):
                    a = averages(groups, kind, algorithm, heuristic, n)
                    if a:
                        line[f"{kind} {heuristic}: planning [us]"] = a["planning_us"]
                        line[f"{kind} {heuristic}: planning ±"] = a["planning_us_ci95"]
                        line[f"{kind} {heuristic}: moves"] = a["moves"]
                        line[f"{kind} {heuristic}: moves ±"] = a["moves_ci95"]
                        line[f"{kind} {heuristic}: n"] = a["runs"]
            if len(line) > 2:  # only settings that ran (a report of LRTA* alone has no D* Lite row)
                table.append(line)
    return table


def bfs_table(rows: Runs) -> list[dict]:
    """Table 4: LRTA* with A* vs breadth-first local search, (b) expansions and (c) moves per grid kind."""
    groups = group_runs(rows)
    table = []
    for n in lookaheads_in(groups):
        line: dict[str, Any] = {"lookahead": n}
        for kind in KINDS:
            for algorithm, label in (("lrta_astar", "A*"), ("lrta_bfs", "BFS")):
                a = averages(groups, kind, algorithm, BEST_HEURISTIC[(kind, algorithm)], n)
                if a:
                    line[f"{kind} {label}: expansions"] = a["expansions"]
                    line[f"{kind} {label}: moves"] = a["moves"]
                    line[f"{kind} {label}: moves ±"] = a["moves_ci95"]
                    line[f"{kind} {label}: planning [us]"] = a["planning_us"]
                    line[f"{kind} {label}: n"] = a["runs"]
        table.append(line)
    return table


# -- the paper's findings ---------------------------------------------------------------------------


def _series(rows: Runs, kind: str, algorithm: str, heuristic: str, measure: str) -> dict[int, float]:
    groups = group_runs(rows)
    result = {}
    for n in lookaheads_in(groups):
        a = averages(groups, kind, algorithm, heuristic, n)
        if a:
            result[n] = a[measure]
    return result


def _spearman(xs: Sequence[float], ys: Sequence[float]) -> float:
    from scipy.stats import spearmanr

    if len(xs) < 3 or len(set(ys)) == 1:
        return 0.0  # no trend to speak of
    return float(spearmanr(xs, ys).statistic)


def paired_difference(rows: Runs, kind: str, first: tuple, second: tuple,
                      measure: str | Callable[[dict], float]) -> tuple[float, float, int]:
    """Mean over the grids that ran both settings of (first - second), its 95% CI half-width, and the count.

    ``measure``: a column of the rows, or a function of a row (e.g. planning time per episode).

    Settings are ``(algorithm, heuristic, lookahead)``; pairing the same grids removes the variation
    between grids, which dwarfs the difference between two planners on random grids.
    """
    groups = group_runs(rows)
    value = measure if callable(measure) else (lambda r: r[measure])
    a = {r["instance"]: value(r) for r in groups.get((kind, *first), [])}
    b = {r["instance"]: value(r) for r in groups.get((kind, *second), [])}
    differences = [a[i] - b[i] for i in a if i in b]
    if not differences:
        return 0.0, 0.0, 0
    return statistics.fmean(differences), ci95(differences), len(differences)


#: Koenig's Table 4 (moves, 301 x 301; mazes: weak h, random grids: strong h) at the lookaheads of its
#: claim, and Table 4's A* expansions on random grids: the paper's own numbers, to tell a verdict that
#: rests on a setting the kit does not reproduce (docs/verdicts.md, "reproduction gaps").
PAPER_NUMBERS: dict[tuple[str, str, str], dict[int, float]] = {
    ("maze", "lrta_astar", "moves"): {5: 477525.03, 7: 382949.65, 9: 321547.69, 11: 272841.73, 13: 252374.66,
                                      15: 239072.72},
    ("maze", "lrta_bfs", "moves"): {5: 339733.20, 7: 239418.18, 9: 204921.68, 11: 189936.61, 13: 165348.26,
                                    15: 177181.12},
    ("random", "lrta_astar", "moves"): {5: 337.67, 7: 329.00, 9: 322.19, 11: 315.32, 13: 310.35, 15: 307.15},
    ("random", "lrta_bfs", "moves"): {5: 340.95, 7: 331.05, 9: 322.09, 11: 317.84, 13: 316.33, 15: 313.97},
    ("random", "lrta_astar", "expansions"): {1: 498.55, 3: 622.46, 5: 686.46, 7: 796.09, 9: 902.13, 11: 1013.99,
                                             13: 1128.42, 15: 1238.49, 17: 1353.46, 19: 1464.02, 21: 1578.59,
                                             23: 1701.07, 25: 1822.36, 27: 1953.37, 29: 2077.55},
}


def reproduction_gap(groups: RunGroups, kind: str, algorithm: str, heuristic: str, lookahead: int,
                     measure: str) -> str:
    """"" when the paper's number for this setting lies inside the kit's 95% interval (or the paper
    gives none, or the grids are not the paper's 301 x 301); otherwise a few words saying how far."""
    paper = PAPER_NUMBERS.get((kind, algorithm, measure), {}).get(lookahead)
    chosen = groups.get((kind, algorithm, heuristic, lookahead)) or []
    if paper is None or not chosen or any(r.get("size", PAPER_SIZE) != PAPER_SIZE for r in chosen):
        return ""
    ours = averages(groups, kind, algorithm, heuristic, lookahead)
    assert ours is not None
    if abs(ours[measure] - paper) <= ours[f"{measure}_ci95"]:
        return ""
    name = "breadth-first" if algorithm == "lrta_bfs" else "A*"
    return (f"{name} lookahead {lookahead}: {ours[measure]:,.1f} ± {ours[f'{measure}_ci95']:,.1f} {measure} here, "
            f"the paper's {paper:,.2f} outside ({100 * (ours[measure] / paper - 1):+.0f}%)")


def claim_at_each(groups: RunGroups, kind: str, pairs: Sequence[tuple[int, tuple, tuple]],
                  measure: str | Callable[[dict], float], positive: bool, gap_measure: str | None = None,
                  unit: str = "") -> tuple[str, str]:
    """A claim made at several lookaheads, each a paired difference (first minus second, on the same
    grids) claimed above zero (``positive``) or below it, judged by :func:`verdict_of_difference` and
    combined by :func:`for_every`. A lookahead that does not hold while the kit misses the paper's own
    number for one of its two settings (``gap_measure``, :func:`reproduction_gap`) counts as
    inconclusive: the verdict would rest on the reproduction, not on the claim.

    Returns the verdict and the evidence: the differences at the lookaheads that do not hold (or at
    the first and last), with the gaps named."""
    judged, gaps = [], []
    for n, first, second in pairs:
        mean, half, count = paired_difference(groups, kind, first, second, measure)
        if count < 2:
            continue
        one = verdict_of_difference(mean, half, positive=positive)
        if one == DOES_NOT_HOLD and gap_measure:
            missed = [gap for gap in (reproduction_gap(groups, kind, algorithm, heuristic, lookahead, gap_measure)
                                      for algorithm, heuristic, lookahead in (first, second)
                                      if lookahead is not None) if gap]
            if missed:
                one = INCONCLUSIVE
                gaps.extend(missed)   # one setting may miss in several pairs: named once below
        judged.append((n, mean, half, count, one))
    if not judged:
        return INCONCLUSIVE, "no paired runs"
    overall = for_every([j[4] for j in judged])
    shown = [j for j in judged if j[4] != HOLDS] or [judged[0], judged[-1]]
    digits = 0 if max(abs(j[1]) for j in judged) >= 100 else 2
    text = ", ".join(f"{n}: {mean:+,.{digits}f} ± {half:,.{digits}f}{unit} ({one})" for n, mean, half, _, one in shown[:8])
    more = len(shown) - 8
    text = (f"paired on the same {'mazes' if kind == 'maze' else 'grids'} ({judged[0][3]}), 95% CI, at lookahead "
            + text + (f" and {more} more" if more > 0 else "") + f"; {sum(j[4] == HOLDS for j in judged)} of "
            f"{len(judged)} lookaheads hold")
    if gaps:
        text += ". Reproduction gaps (the paper's own number outside the kit's interval): " + "; ".join(dict.fromkeys(gaps))
    return overall, text


def _grid_by_lookahead(groups: RunGroups, kind: str, algorithm: str, heuristic: str, lookaheads: Sequence[int],
                       measure: str) -> dict[int, list[float]]:
    """Each grid's ``measure`` at every one of ``lookaheads``, in their order (grids missing one are left out)."""
    values: dict[int, dict[int, float]] = {}
    for n in lookaheads:
        for r in groups.get((kind, algorithm, heuristic, n), []):
            values.setdefault(r["instance"], {})[n] = r[measure]
    return {grid: [by_n[n] for n in lookaheads] for grid, by_n in values.items() if len(by_n) == len(lookaheads)}


def path_length_falls(groups: RunGroups, kind: str) -> Finding | None:
    """Koenig: LRTA*'s path length falls as the lookahead grows: on the same grids, the mean moves over
    the smallest quarter of the lookaheads minus those over the largest quarter, its 95% interval
    above 0 (the rank correlation of the mean curve is shown beside it)."""
    heuristic = BEST_HEURISTIC[(kind, "lrta_astar")]
    moves = _series(groups, kind, "lrta_astar", heuristic, "moves")
    if len(moves) < 4:
        return None
    rho = _spearman(list(moves), list(moves.values()))
    quarter = max(1, len(moves) // 4)
    small, large = sorted(moves)[:quarter], sorted(moves)[-quarter:]
    small_mean = statistics.fmean(moves[n] for n in small)
    large_mean = statistics.fmean(moves[n] for n in large)
    at_small = _grid_by_lookahead(groups, kind, "lrta_astar", heuristic, small, "moves")
    at_large = _grid_by_lookahead(groups, kind, "lrta_astar", heuristic, large, "moves")
    differences = [statistics.fmean(at_small[g]) - statistics.fmean(at_large[g]) for g in at_small if g in at_large]
    if len(differences) < 2:
        return Finding(f"{kind}: LRTA*'s path length falls as the lookahead grows", INCONCLUSIVE,
                       f"mean moves {small_mean:.0f} at lookaheads {small[0]}-{small[-1]}, {large_mean:.0f} at "
                       f"{large[0]}-{large[-1]}: {len(differences)} grid(s) ran both, no interval to judge on")
    mean, half = statistics.fmean(differences), ci95(differences)
    return Finding(
        f"{kind}: LRTA*'s path length falls as the lookahead grows", verdict_of_difference(mean, half),
        f"mean moves {small_mean:.0f} at lookaheads {small[0]}-{small[-1]}, {large_mean:.0f} at "
        f"{large[0]}-{large[-1]}; paired on the same {len(differences)} {'mazes' if kind == 'maze' else 'grids'}, "
        "the first minus the second "
        f"{mean:+,.0f} ± {half:,.0f} (95% CI); Spearman rank correlation of the mean curve with the lookahead {rho:.2f}")


def planning_time_falls_then_rises(groups: RunGroups) -> Finding | None:
    """Koenig, mazes: LRTA*'s planning time is least at a middle lookahead: some lookahead between the
    smallest and the largest takes less time than both, each paired difference's 95% interval above 0
    (:func:`claim_at_each` per middle lookahead, then :func:`for_some`)."""
    heuristic = BEST_HEURISTIC[("maze", "lrta_astar")]
    time_ = _series(groups, "maze", "lrta_astar", heuristic, "planning_us")
    if len(time_) < 3:
        return None
    best = min(time_, key=time_.__getitem__)
    first, last = min(time_), max(time_)

    def setting(n: int) -> tuple:
        return ("lrta_astar", heuristic, n)

    judged = {middle: claim_at_each(groups, "maze", [(first, setting(first), setting(middle)),
                                                     (last, setting(last), setting(middle))],
                                    "planning_us", positive=True)[0]
              for middle in sorted(time_)[1:-1]}
    holding = [middle for middle, one in judged.items() if one == HOLDS]
    return Finding(
        "maze: LRTA*'s planning time first falls, then rises as the lookahead grows", for_some(list(judged.values())),
        f"{time_[first]:.0f} us at lookahead {first}, least {time_[best]:.0f} us at {best}, "
        f"{time_[last]:.0f} us at {last}; paired on the same mazes (95% CI), "
        + (f"{len(holding)} of the {len(judged)} lookaheads between take less time than both (from {holding[0]} "
           f"to {holding[-1]})" if holding else f"no lookahead between {first} and {last} takes less time than both"))


def weak_heuristic_wins_in_mazes(groups: RunGroups) -> Finding | None:
    """Table 1, mazes: the weak heuristic gives LRTA* shorter paths at lookaheads up to 9 (paired)."""
    strong = _series(groups, "maze", "lrta_astar", "strong", "moves")
    weak = _series(groups, "maze", "lrta_astar", "weak", "moves")
    small = [n for n in strong if n in weak and n <= 9]
    if not small:
        return None
    judged, paired = claim_at_each(groups, "maze", [(n, ("lrta_astar", "weak", n), ("lrta_astar", "strong", n))
                                                    for n in small], "moves", positive=False)
    return Finding(
        "maze: the weak heuristic serves LRTA* better than the strong one at small lookaheads (shorter paths)",
        judged, "moves weak vs strong: " + ", ".join(f"{n}: {weak[n]:.0f} vs {strong[n]:.0f}" for n in small)
        + f"; weak minus strong {paired}")


def _relative_differences(groups: RunGroups, kind: str, lookaheads: Sequence[int],
                          strong: dict[int, float]) -> dict[int, tuple[float, float]]:
    """Per lookahead, the paired difference of moves weak - strong and its 95% half-width, both
    relative to strong's mean (lookaheads with fewer than two pairs left out)."""
    relative = {}
    for n in lookaheads:
        mean, half, count = paired_difference(groups, kind, ("lrta_astar", "weak", n), ("lrta_astar", "strong", n), "moves")
        if count > 1:
            relative[n] = (mean / strong[n], half / strong[n])
    return relative


def heuristics_alike_on_random_grids(groups: RunGroups) -> Finding | None:
    """Table 1, random grids: the two heuristics give paths within 5% of each other from lookahead 25."""
    strong = _series(groups, "random", "lrta_astar", "strong", "moves")
    weak = _series(groups, "random", "lrta_astar", "weak", "moves")
    large = [n for n in strong if n in weak and n >= 25]
    if not large:
        return None
    relative = _relative_differences(groups, "random", large, strong)
    each = {n: verdict(m - h, m + h, above=-0.05, below=0.05) for n, (m, h) in relative.items()}
    widest = max(relative, key=lambda n: abs(relative[n][0]), default=None)
    return Finding(
        "random: LRTA* performs about the same with the strong and the weak heuristic at larger lookaheads "
        "(Table 1; taken here as mean path lengths within 5% of each other at every lookahead from 25)",
        for_every(list(each.values())),
        "moves weak vs strong: " + ", ".join(f"{n}: {weak[n]:.1f} vs {strong[n]:.1f}" for n in large[::4])
        + ("" if widest is None else
           f"; the largest paired difference {100 * relative[widest][0]:+.1f} ± {100 * relative[widest][1]:.1f}% "
           f"of strong's moves (lookahead {widest}, 95% CI); {sum(v == HOLDS for v in each.values())} of "
           f"{len(each)} lookaheads inside +-5% with their intervals"))


def dstar_paths_shorter_in_mazes(groups: RunGroups) -> Finding | None:
    """Mazes: D* Lite's paths are shorter than LRTA*'s at every lookahead (paired)."""
    maze_lrta = BEST_HEURISTIC[("maze", "lrta_astar")]
    dstar = averages(groups, "maze", "dstar_lite", "strong", None)
    moves = _series(groups, "maze", "lrta_astar", maze_lrta, "moves")
    if not (dstar and moves):
        return None
    judged, paired = claim_at_each(groups, "maze", [(n, ("lrta_astar", maze_lrta, n), ("dstar_lite", "strong", None))
                                                    for n in sorted(moves)], "moves", positive=True)
    return Finding(
        "maze: D* Lite's paths are shorter than LRTA*'s (every lookahead)", judged,
        f"D* Lite {dstar['moves']:.0f} moves; LRTA* from {max(moves.values()):.0f} to "
        f"{min(moves.values()):.0f}; LRTA* minus D* Lite {paired}")


def lrta_plans_less_on_random_grids(groups: RunGroups) -> Finding | None:
    """Random grids: LRTA*'s total planning time is below D* Lite's at every lookahead (paired)."""
    dstar = averages(groups, "random", "dstar_lite", "strong", None)
    time_ = _series(groups, "random", "lrta_astar", "strong", "planning_us")
    if not (dstar and time_):
        return None
    judged, paired = claim_at_each(groups, "random", [(n, ("lrta_astar", "strong", n), ("dstar_lite", "strong", None))
                                                      for n in sorted(time_)], "planning_us", positive=False, unit=" us")
    return Finding(
        "random: LRTA*'s total planning time is below D* Lite's (every lookahead)", judged,
        f"D* Lite {dstar['planning_us']:.0f} us; LRTA* from {min(time_.values()):.0f} to "
        f"{max(time_.values()):.0f} us; LRTA* minus D* Lite {paired}")


def lrta_paths_shorter_on_random_grids(groups: RunGroups) -> Finding | None:
    """Random grids: LRTA*'s paths are shorter than D* Lite's at every lookahead above 13 (paired)."""
    dstar = averages(groups, "random", "dstar_lite", "strong", None)
    time_ = _series(groups, "random", "lrta_astar", "strong", "planning_us")
    if not (dstar and time_):
        return None
    above_13 = [n for n in sorted(_series(groups, "random", "lrta_astar", "strong", "moves")) if n > 13]
    judged, paired = claim_at_each(groups, "random", [(n, ("lrta_astar", "strong", n), ("dstar_lite", "strong", None))
                                                      for n in above_13], "moves", positive=False)
    return Finding(
        "random: LRTA*'s paths are shorter than D* Lite's for lookaheads above 13", judged if above_13 else INCONCLUSIVE,
        f"D* Lite {dstar['moves']:.1f} ± {dstar['moves_ci95']:.1f} moves; LRTA* minus D* Lite {paired}")


def _least_and_lookahead_one(groups: RunGroups, measure: str) -> tuple[dict[int, float], int, int, tuple[float, float, int]]:
    """Random grids, strong h: LRTA*'s mean ``measure`` per lookahead, the lookahead where it is least,
    the best lookahead other than 1, and lookahead 1 minus that one on the same grids
    (:func:`paired_difference`)."""
    series = _series(groups, "random", "lrta_astar", "strong", measure)
    least = min(series, key=series.__getitem__)
    other = min((n for n in series if n != 1), key=series.__getitem__)
    return series, least, other, paired_difference(groups, "random", ("lrta_astar", "strong", 1),
                                                   ("lrta_astar", "strong", other), measure)


def lookahead_one_is_fastest_on_random_grids(groups: RunGroups) -> Finding | None:
    """Section 7: on random grids a lookahead of one minimises LRTA*'s planning time; a lookahead that
    fails where the kit misses the paper's own expansions is inconclusive (:func:`claim_at_each`)."""
    time_ = _series(groups, "random", "lrta_astar", "strong", "planning_us")
    if len(time_) < 2 or 1 not in time_:
        return None
    _, best, runner_up, (difference, half_width, grids) = _least_and_lookahead_one(groups, "planning_us")
    expansions, fewest, other, (more, more_half_width, _) = _least_and_lookahead_one(groups, "expansions")
    judged, paired = claim_at_each(groups, "random", [(n, ("lrta_astar", "strong", 1), ("lrta_astar", "strong", n))
                                                      for n in sorted(time_) if n != 1], "planning_us",
                                   positive=False, gap_measure="expansions", unit=" us")
    return Finding(
        "random: a lookahead of one minimises LRTA*'s planning time (Section 7; paper: 498.6 expansions at "
        "lookahead 1, 622.5 at 3)", judged,
        f"least planning time at lookahead {best} ({time_[best]:.0f} us); lookahead 1 {time_[1]:.0f} us, the "
        f"best other lookahead {runner_up} {time_[runner_up]:.0f} us; lookahead 1 minus {runner_up} on the same "
        f"grids {difference:+.0f} ± {half_width:.0f} us (95% CI, {grids} grids). Expansions (machine-independent): "
        f"fewest at lookahead {fewest} ({expansions[fewest]:.1f}); lookahead 1 {expansions[1]:.1f}, lookahead "
        f"{other} {expansions[other]:.1f}, lookahead 1 minus {other} on the same grids {more:+.1f} ± "
        f"{more_half_width:.1f}. Lookahead 1 minus each other lookahead in time, {paired}")


def time_follows_expansions(groups: RunGroups, kind: str) -> Finding | None:
    """Figure 7: LRTA*'s planning time is roughly proportional to its expansions: the Pearson
    correlation of the two mean curves over the lookaheads, its 95% bootstrap interval (grids
    resampled, the curves averaged again) above 0.9."""
    heuristic = BEST_HEURISTIC[(kind, "lrta_astar")]
    expansions = _series(groups, kind, "lrta_astar", heuristic, "expansions")
    time_ = _series(groups, kind, "lrta_astar", heuristic, "planning_us")
    if len(expansions) < 3:
        return None
    r = float(np.corrcoef(list(expansions.values()), list(time_.values()))[0, 1])
    claim = f"{kind}: LRTA*'s planning time is roughly proportional to its expansions (Figure 7)"
    lookaheads = sorted(expansions)
    by_expansions = _grid_by_lookahead(groups, kind, "lrta_astar", heuristic, lookaheads, "expansions")
    by_time = _grid_by_lookahead(groups, kind, "lrta_astar", heuristic, lookaheads, "planning_us")
    grids = sorted(set(by_expansions) & set(by_time))
    if len(grids) < 2:
        return Finding(claim, INCONCLUSIVE, f"Pearson correlation over the lookaheads {r:.2f}; one grid: no interval")
    count = len(lookaheads)

    def correlation(*columns: np.ndarray) -> float:   # a grid's row: its expansions, then its times
        return float(np.corrcoef(np.mean(columns[:count], axis=1), np.mean(columns[count:], axis=1))[0, 1])

    low, high = bootstrap_interval([by_expansions[g] + by_time[g] for g in grids], correlation)
    return Finding(claim, verdict(low, high, above=0.9),
                   f"Pearson correlation over the lookaheads {r:.2f} [{low:.2f}, {high:.2f}] (95% bootstrap "
                   f"interval over the {len(grids)} grids)")


#: Table 4 and the conclusions, per kind of grid: the claim, the local search with the shorter paths,
#: and the digits its moves are written with (breadth-first wins in mazes, A* on random grids).
LOCAL_SEARCH_CLAIMS = {
    "maze": ("maze: LRTA* with breadth-first local search finds shorter paths than with A* at smaller lookaheads "
             "(5 to 15; Table 4)", "lrta_bfs", 0),
    "random": ("random: LRTA* with A* local search finds shorter paths than with breadth-first at smaller lookaheads "
               "(5 to 15; Table 4: A* 'performs well on grids with random obstacles', breadth-first in mazes)",
               "lrta_astar", 1),
}


def local_search_wins(groups: RunGroups, kind: str) -> Finding | None:
    """Table 4: at lookaheads 5 to 15 one local search gives shorter paths (:data:`LOCAL_SEARCH_CLAIMS`)."""
    claim, shorter, digits = LOCAL_SEARCH_CLAIMS[kind]
    longer = "lrta_astar" if shorter == "lrta_bfs" else "lrta_bfs"
    winner = _series(groups, kind, shorter, BEST_HEURISTIC[(kind, shorter)], "moves")
    loser = _series(groups, kind, longer, BEST_HEURISTIC[(kind, longer)], "moves")
    small = [n for n in winner if n in loser and 5 <= n <= 15]
    if not small:
        return None
    names = "BFS vs A*" if shorter == "lrta_bfs" else "A* vs BFS"
    judged, paired = claim_at_each(
        groups, kind, [(n, (shorter, BEST_HEURISTIC[(kind, shorter)], n), (longer, BEST_HEURISTIC[(kind, longer)], n))
                       for n in small], "moves", positive=False, gap_measure="moves")
    return Finding(claim, judged, f"moves {names}: " + ", ".join(
        f"{n}: {winner[n]:.{digits}f} vs {loser[n]:.{digits}f}" for n in small)
        + f"; {names.replace(' vs ', ' minus ')} {paired}")


def real_time_bound(groups: RunGroups) -> Finding:
    """An exact count: no LRTA* episode expands more states than the lookahead."""
    broken = [r for group in groups.values() for r in group
              if r["algorithm"] != "dstar_lite" and r["max_expansions_per_episode"] > r["lookahead"]]
    return Finding("LRTA* never expands more states in an episode than its lookahead (the real-time bound)",
                   not broken, f"{len(broken)} runs broke the bound")


# -- the planning objectives (Section 6: which lookahead, or D* Lite, for which objective) ------------

#: The exponents of x (planning time + x * path length; x in microseconds per move) that
#: :func:`optimal_lookahead_by_x` tries: 10^-4 to 10^+4 in steps of 10^0.01, the paper's resolution.
X_EXPONENTS = tuple(round(-4 + k / 100, 2) for k in range(801))


def _curves(rows: Runs, kind: str) -> tuple[dict[int, dict], dict | None]:
    """LRTA*'s (A*, the kind's best heuristic) averages per lookahead, and D* Lite's (strong h)."""
    groups = group_runs(rows)
    heuristic = BEST_HEURISTIC[(kind, "lrta_astar")]
    lrta = {n: a for n in lookaheads_in(groups) if (a := averages(groups, kind, "lrta_astar", heuristic, n))}
    return lrta, averages(groups, kind, "dstar_lite", "strong", None)


def optimal_lookahead_by_x(rows: Runs, kind: str, exponents: Sequence[float] = X_EXPONENTS) -> list[dict]:
    """The paper's first objective, planning time + x * path length (its tables "range of x ->
    optimal lookahead"): the ranges of x over which one lookahead minimises LRTA*'s mean sum, and
    whether D* Lite's sum is smaller there. Times in microseconds, so x is microseconds per move.
    Ties go to the smaller lookahead.

    >>> rows = [dict(kind="maze", instance=0, algorithm="lrta_astar", heuristic="weak", lookahead=n,
    ...              expansions=0, episodes=1, moves=m, planning_us=t) for n, m, t in ((1, 100, 10.0), (3, 50, 20.0))]
    >>> [(r["from"], r["to"], r["lookahead"]) for r in optimal_lookahead_by_x(rows, "maze", (-1, 0, 1))]
    [('10^-1.00', '10^-1.00', 1), ('10^+0.00', '10^+1.00', 3)]
    """
    lrta, dstar = _curves(rows, kind)
    if not lrta:
        return []
    table: list[dict] = []
    for e in exponents:
        x = 10.0 ** e
        best = min(lrta, key=lambda n: (lrta[n]["planning_us"] + x * lrta[n]["moves"], n))
        total = lrta[best]["planning_us"] + x * lrta[best]["moves"]
        dstar_total = dstar["planning_us"] + x * dstar["moves"] if dstar else None
        better = "D* Lite" if dstar_total is not None and dstar_total < total else "LRTA*"
        if table and table[-1]["lookahead"] == best and table[-1]["better"] == better:
            table[-1]["to"] = f"10^{e:+.2f}"
            continue
        table.append({"from": f"10^{e:+.2f}", "to": f"10^{e:+.2f}", "lookahead": best, "better": better,
                      "LRTA* moves": lrta[best]["moves"], "LRTA* planning [us]": lrta[best]["planning_us"]})
    return table


def best_under_limit(rows: Runs, kind: str, per: str) -> list[dict]:
    """The paper's second and third objectives: the shortest path when the planning time per
    episode (``per="episode"``, its column (g)) or per move (``"move"``, (h)) may not exceed a limit.

    One line per limit at which the choice changes: LRTA*'s lookahead with the shortest mean path
    among those whose mean time per episode (move) fits, whether D* Lite fits, and which of the two
    gives the shorter path. Like the paper, it argues with averages (a hard limit would bound each
    episode's time, not the mean).
    """
    column = {"episode": "planning_us_per_episode", "move": "planning_us_per_move"}[per]
    lrta, dstar = _curves(rows, kind)
    limits = sorted({a[column] for a in lrta.values()} | ({dstar[column]} if dstar else set()))
    table: list[dict] = []
    for limit in limits:
        fits = [n for n in lrta if lrta[n][column] <= limit]
        best = min(fits, key=lambda n: (lrta[n]["moves"], n)) if fits else None
        dstar_fits = dstar is not None and dstar[column] <= limit
        dstar_shorter = dstar is not None and (best is None or dstar["moves"] < lrta[best]["moves"])
        if dstar_fits and dstar_shorter:
            choice = "D* Lite"
        else:
            choice = "LRTA*" if best is not None else "-"
        line = {f"limit per {per} [us]": limit, "LRTA* lookahead": "-" if best is None else best,
                "LRTA* moves": lrta[best]["moves"] if best is not None else "-",
                "D* Lite fits": "yes" if dstar_fits else "no", "use": choice}
        if table and all(table[-1][k] == line[k] for k in ("LRTA* lookahead", "D* Lite fits", "use")):
            continue
        table.append(line)
    return table


#: The paper's answers for its planning objectives (Section 6): the lookahead that minimises planning
#: time, the x from which D* Lite's sum is smaller, the largest lookahead within D* Lite's time per episode
#: and per move.
PAPER_OBJECTIVES: dict[str, dict[str, int | str]] = {"maze": {"least": 21, "x": "10^-0.27", "episode": 75, "move": 165},
                                                     "random": {"least": 1}}

# The objectives argue with averages over the grids, as the paper does: the lookahead whose *mean* sum
# is least, the mean time per episode that fits a limit. So each claim about them is a quantity of the
# mean curves (the statistics below), judged by the rule on its 95% bootstrap interval: the grids are
# resampled, the curves averaged again and the quantity computed again (:func:`_on_the_means`). The
# statistics take each setting's mean planning time, episodes and moves in one order: LRTA*'s
# lookaheads, smallest first, then D* Lite.

#: x itself (microseconds per move) at each of :data:`X_EXPONENTS`.
X_VALUES = 10.0 ** np.asarray(X_EXPONENTS)


def _sums(time: np.ndarray, moves: np.ndarray) -> np.ndarray:
    """Planning time + x * path length for every x (rows) and setting (columns)."""
    return time[None, :] + X_VALUES[:, None] * moves[None, :]


def optimal_lookahead_never_falls(lookaheads: Sequence[int], time: np.ndarray, episodes: np.ndarray,
                                  moves: np.ndarray) -> float:
    """1.0 when the lookahead with the least sum (ties: the smaller) never falls as x grows and starts,
    at the smallest x, at the lookahead with the least planning time; 0.0 otherwise.

    Lookahead 1 (5 us, 10 moves) is the fastest, 9 (7 us, 4 moves) wins from x = 1/3 on; D* Lite
    (last) does not count:

    >>> optimal_lookahead_never_falls([1, 9], np.array([5.0, 7.0, 9.0]), None, np.array([10.0, 4.0, 1.0]))
    1.0
    """
    optimal = np.asarray(lookaheads)[np.argmin(_sums(time[:-1], moves[:-1]), axis=1)]
    least = lookaheads[int(np.argmin(time[:-1]))]
    return float(np.all(np.diff(optimal) >= 0) and optimal[0] == least)


#: What :func:`dstar_threshold` returns when D* Lite's sum is the smaller at every x of the range, and
#: when it is not at the largest: one step outside the range at either end.
ALWAYS, NEVER = round(X_EXPONENTS[0] - 0.01, 2), round(X_EXPONENTS[-1] + 0.01, 2)


def dstar_threshold(lookaheads: Sequence[int], time: np.ndarray, episodes: np.ndarray, moves: np.ndarray) -> float:
    """The exponent of the smallest x from which D* Lite's sum is below every lookahead's, at that x
    and at every larger one (:data:`ALWAYS`, :data:`NEVER`: at every x of the range, not at the largest).

    D* Lite (1000 us, 100 moves) against one lookahead (300 us, 400 moves): 1000 + 100x < 300 + 400x
    for x > 7/3 = 10^0.368, so from 10^0.37 on the exponents' steps of 0.01:

    >>> dstar_threshold([9], np.array([300.0, 1000.0]), None, np.array([400.0, 100.0]))
    0.37
    """
    sums = _sums(time, moves)
    wins = sums[:, -1] < sums[:, :-1].min(axis=1)
    if not wins[-1]:
        return NEVER
    losing = np.flatnonzero(~wins)
    return X_EXPONENTS[losing[-1] + 1] if len(losing) else ALWAYS


def lrta_margin(lookaheads: Sequence[int], time: np.ndarray, episodes: np.ndarray, moves: np.ndarray) -> float:
    """The least, over the x of the range, of D* Lite's sum minus the optimal lookahead's, as a share
    of D* Lite's: above 0 when LRTA* with the optimal lookahead has the smaller sum at every x.

    One lookahead (50 us, 10 moves) against D* Lite (100 us, 10 moves): 1 - (50 + 10x) / (100 + 10x)
    is least at the largest x, 10^4: 1 - 100050/100100 = 0.0005.

    >>> round(lrta_margin([1], np.array([50.0, 100.0]), None, np.array([10.0, 10.0])), 6)
    0.0005
    """
    sums = _sums(time, moves)
    return float(np.min(1.0 - sums[:, :-1].min(axis=1) / sums[:, -1]))


#: Objectives 2 and 3: a limit on the planning time per episode, or per move.
LIMITS = ("episode", "move")


def _time_per(per: str, time: np.ndarray, episodes: np.ndarray, moves: np.ndarray) -> np.ndarray:
    """Each setting's mean planning time per episode or per move (a ratio of means, as the paper's)."""
    return time / (episodes if per == "episode" else moves)


def fastest_share(lookaheads: Sequence[int], time: np.ndarray, episodes: np.ndarray, moves: np.ndarray, *,
                  per: str) -> float:
    """The least time per ``per`` (episode or move) of a lookahead, as a share of D* Lite's: below 1
    when some lookahead fits under D* Lite's time."""
    limited = _time_per(per, time, episodes, moves)
    return float(limited[:-1].min() / limited[-1])


def shortest_share(lookaheads: Sequence[int], time: np.ndarray, episodes: np.ndarray, moves: np.ndarray) -> float:
    """The shortest path of a lookahead, as a share of D* Lite's: above 1 when none is as short."""
    return float(moves[:-1].min() / moves[-1])


def fits_and_as_short_share(lookaheads: Sequence[int], time: np.ndarray, episodes: np.ndarray, moves: np.ndarray, *,
                            per: str) -> float:
    """The least, over the lookaheads, of the larger of a lookahead's two shares of D* Lite's (time
    per ``per``, path length): below 1 when some lookahead fits under D* Lite's time and finds paths
    no longer than D* Lite's.

    Lookahead 1 plans 0.5 us per move (D* Lite: 10) with 10 times D* Lite's moves, lookahead 9 plans
    5 us with 0.9 times: max(0.05, 10) = 10 and max(0.5, 0.9) = 0.9, so 0.9:

    >>> fits_and_as_short_share([1, 9], np.array([500.0, 450.0, 1000.0]), None, np.array([1000.0, 90.0, 100.0]),
    ...                         per="move")
    0.9
    """
    limited = _time_per(per, time, episodes, moves)
    return float(np.maximum(limited[:-1] / limited[-1], moves[:-1] / moves[-1]).min())


def _on_the_means(groups: RunGroups, kind: str, statistic: Callable[..., float], resample: bool = True
                  ) -> tuple[float, np.ndarray | None, int]:
    """``statistic`` of the mean curves (LRTA* with the kind's best heuristic, then D* Lite) over the
    grids that ran every setting, its values on 2,000 bootstrap resamples of those grids (None for
    fewer than two grids, or not asked for: ``resample=False``) and the number of grids."""
    heuristic = BEST_HEURISTIC[(kind, "lrta_astar")]
    lookaheads = [n for n in lookaheads_in(groups) if groups.get((kind, "lrta_astar", heuristic, n))]
    settings = [("lrta_astar", heuristic, n) for n in lookaheads] + [("dstar_lite", "strong", None)]
    by_grid: dict[int, dict[int, dict]] = {}
    for i, setting in enumerate(settings):
        for r in groups.get((kind, *setting), []):
            by_grid.setdefault(r["instance"], {})[i] = r
    # one row per grid: every setting's planning time, then every setting's episodes, then moves
    samples = [[by_setting[i][m] for m in ("planning_us", "episodes", "moves") for i in range(len(settings))]
               for by_setting in by_grid.values() if len(by_setting) == len(settings)]

    def on_means(*columns: np.ndarray) -> float:
        return statistic(lookaheads, *np.mean(columns, axis=1).reshape(3, len(settings)))

    if not samples:
        return float("nan"), None, 0
    value = on_means(*np.asarray(samples, dtype=float).T)
    return value, bootstrap_values(samples, on_means) if resample and len(samples) > 1 else None, len(samples)


def _judged(groups: RunGroups, kind: str, statistic: Callable[..., float], name: str, digits: int = 2, *,
            above: float | None = None, below: float | None = None) -> tuple[str, str]:
    """The verdict on ``statistic`` (:func:`_on_the_means`) claimed ``above``/``below`` a value, and
    the evidence: its value on the means and its 95% bootstrap interval."""
    value, resampled, grids = _on_the_means(groups, kind, statistic)
    where = "mazes" if kind == "maze" else "grids"
    if resampled is None:
        return INCONCLUSIVE, f"{name} {value:.{digits}f} ({grids} {where}: no interval)"
    low, high = np.percentile(resampled, [2.5, 97.5])
    return (verdict(float(low), float(high), above=above, below=below),
            f"{name} {value:.{digits}f} [{low:.{digits}f}, {high:.{digits}f}] (95% bootstrap over the {grids} {where})")


def optimal_lookahead_grows(groups: RunGroups, kind: str) -> Finding | None:
    """Objective 1: minimising planning time + x * path length, the optimal lookahead grows with x, from
    the lookahead that minimises planning time (:func:`optimal_lookahead_by_x`). Judged on the share of
    bootstrap resamples whose mean curves show it (:func:`optimal_lookahead_never_falls`): the 95%
    interval of that 0-or-1 quantity lies above 0.5 when at least 97.5% of the resamples do."""
    lrta, _ = _curves(groups, kind)
    if len(lrta) < 3:
        return None
    by_x = optimal_lookahead_by_x(groups, kind)
    _, resampled, grids = _on_the_means(groups, kind, optimal_lookahead_never_falls)
    where = "mazes" if kind == "maze" else "grids"
    if resampled is None:
        judged, share = INCONCLUSIVE, f"{grids} {where}: no resamples"
    else:
        low, high = np.percentile(resampled, [2.5, 97.5])
        judged = verdict(float(low), float(high), above=0.5)
        share = (f"the optimal lookahead never falls as x grows on the mean curves of {100 * resampled.mean():.1f}% of "
                 f"2,000 bootstrap resamples of the {grids} {where}")
    return Finding(
        f"{kind}: minimising planning time + x * path length, the optimal lookahead grows with x, starting "
        f"at the lookahead that minimises planning time (paper: {PAPER_OBJECTIVES[kind]['least']})", judged,
        "x (us per move) -> lookahead: " + "; ".join(
            f"{line['from']}-{line['to']}: {line['lookahead']}" + (" (D* Lite better)" if line["better"] == "D* Lite" else "")
            for line in by_x) + f"; {share}")


def _exponent(value: float) -> str:
    """An exponent of x as the findings write it, or what :func:`dstar_threshold`'s two ends mean."""
    return "never (up to 10^+4.00)" if value >= NEVER else "at every x" if value <= ALWAYS else f"10^{value:+.2f}"


def dstar_wins_above_some_x(groups: RunGroups) -> Finding | None:
    """Objective 1 in mazes: above some x D* Lite has the smaller planning time + x * path length,
    below it LRTA* with the optimal lookahead: the x from which D* Lite's sum is smaller
    (:func:`dstar_threshold`) lies inside the range of x, 10^-4 to 10^4. (The sums are straight lines
    in x, so D* Lite's lead over the least of LRTA*'s is convex in x: where it leads is one interval.)"""
    lrta, dstar = _curves(groups, "maze")
    if len(lrta) < 3 or not dstar:
        return None
    value, resampled, grids = _on_the_means(groups, "maze", dstar_threshold)
    if resampled is None:
        judged, interval = INCONCLUSIVE, f" ({grids} mazes: no interval)"
    else:
        low, high = (float(v) for v in np.percentile(resampled, [2.5, 97.5]))
        judged = verdict(low, high, above=X_EXPONENTS[0], below=X_EXPONENTS[-1])
        interval = f", 95% bootstrap interval over the {grids} mazes from {_exponent(low)} to {_exponent(high)}"
    return Finding(
        "maze: for x above some threshold D* Lite has the smaller planning time + x * path length, below it "
        f"LRTA* with the optimal lookahead (paper: {PAPER_OBJECTIVES['maze']['x']})", judged,
        f"D* Lite better from x = {_exponent(value)}{interval}")


def lrta_wins_for_every_x(groups: RunGroups) -> Finding | None:
    """Objective 1 on random grids: LRTA* with the optimal lookahead has the smaller sum at every x of
    the range (:func:`lrta_margin` above 0)."""
    lrta, dstar = _curves(groups, "random")
    if len(lrta) < 3 or not dstar:
        return None
    judged, margin = _judged(groups, "random", lrta_margin, "D* Lite's sum minus LRTA*'s at the x where it is "
                             "least, as a share of D* Lite's:", digits=3, above=0.0)
    threshold, _, _ = _on_the_means(groups, "random", dstar_threshold, resample=False)   # words only: no interval
    return Finding(
        "random: for every x, LRTA* with the optimal lookahead has a smaller planning time + x * path length "
        "than D* Lite", judged,
        f"D* Lite better from x = {'never (10^-4.00 to 10^+4.00)' if threshold >= NEVER else _exponent(threshold)}; "
        f"{margin}")


def _time_limit_evidence(groups: RunGroups, kind: str, per: str, lrta: dict[int, dict], dstar: dict) -> str:
    """Objectives 2 and 3 in words: D* Lite's time per episode (move) and moves, and the lookaheads
    that plan faster."""
    column = f"planning_us_per_{per}"
    below = 0  # the largest lookahead up to which every lookahead plans faster per episode (move) than D* Lite
    for n in sorted(lrta):
        if lrta[n][column] >= dstar[column]:
            break
        below = n
    largest = max(lrta)
    return (f"D* Lite {dstar[column]:.2f} us per {per}, {dstar['moves']:.1f} moves; LRTA* plans faster per {per} up to "
            f"lookahead {below or 'none'}" + (f" (paper: {PAPER_OBJECTIVES[kind][per]})" if kind == "maze" else "")
            + f"; at lookahead {largest} {lrta[largest][column]:.2f} us per {per} and {lrta[largest]['moves']:.1f} moves")


def time_limit_choice(groups: RunGroups, kind: str, per: str) -> Finding | None:
    """Objectives 2 and 3: under a limit on the time per episode (move), LRTA* below D* Lite's time and
    D* Lite above it in mazes (some lookahead fits under D* Lite's time, :func:`fastest_share` below
    1, and none finds paths as short, :func:`shortest_share` above 1); LRTA* always on random grids
    (some lookahead fits and finds paths no longer, :func:`fits_and_as_short_share` below 1)."""
    lrta, dstar = _curves(groups, kind)
    if len(lrta) < 3 or not dstar:
        return None
    evidence = _time_limit_evidence(groups, kind, per, lrta, dstar)
    if kind == "maze":
        fits, fits_text = _judged(groups, kind, partial(fastest_share, per=per),
                                  f"the least time per {per} of a lookahead over D* Lite's:", digits=3, below=1.0)
        longer, longer_text = _judged(groups, kind, shortest_share,
                                      "the shortest path of a lookahead over D* Lite's:", digits=3, above=1.0)
        return Finding(
            f"maze: with a time limit per {per} LRTA* (the largest lookahead that fits) is the choice below D* "
            f"Lite's time per {per}, D* Lite above it: no lookahead run gives paths as short as D* Lite's",
            for_every([fits, longer]), f"{evidence}; {fits_text}; {longer_text}")
    judged, text = _judged(groups, kind, partial(fits_and_as_short_share, per=per),
                           f"the least, over the lookaheads, of the larger of time per {per} and path length as "
                           "shares of D* Lite's:", digits=3, below=1.0)
    return Finding(
        f"random: with a time limit per {per} LRTA* is always the choice: some lookahead plans at most D* "
        f"Lite's time per {per} and finds paths no longer than D* Lite's", judged, f"{evidence}; {text}")


#: Koenig's claims, in the order findings.md lists them: Sections 6-7 and Tables 1-4, then the
#: planning objectives.
CLAIMS: list[Claim] = [
    *(partial(path_length_falls, kind=kind) for kind in KINDS),
    planning_time_falls_then_rises, weak_heuristic_wins_in_mazes, heuristics_alike_on_random_grids,
    dstar_paths_shorter_in_mazes, lrta_plans_less_on_random_grids, lrta_paths_shorter_on_random_grids,
    lookahead_one_is_fastest_on_random_grids,
    *(partial(time_follows_expansions, kind=kind) for kind in KINDS),
    *(partial(local_search_wins, kind=kind) for kind in KINDS),
    real_time_bound,
    partial(optimal_lookahead_grows, kind="maze"), dstar_wins_above_some_x,
    *(partial(time_limit_choice, kind="maze", per=per) for per in LIMITS),
    partial(optimal_lookahead_grows, kind="random"), lrta_wins_for_every_x,
    *(partial(time_limit_choice, kind="random", per=per) for per in LIMITS),
]


def findings(rows: Runs) -> list[Finding]:
    """The paper's findings (:data:`CLAIMS`) checked on ``rows``."""
    return check(CLAIMS, group_runs(rows))


def objectives_markdown(rows: Runs) -> str:
    """The three objectives' tables for each kind of grid that ``rows`` holds, as Markdown."""
    parts = []
    for kind in KINDS:
        by_x = optimal_lookahead_by_x(rows, kind)
        if not by_x:
            continue
        parts += [f"### {kind}: planning time + x * path length (x in us per move)", "", to_markdown(by_x)]
        for per in ("episode", "move"):
            parts += [f"### {kind}: shortest path under a time limit per {per}", "", to_markdown(best_under_limit(rows, kind, per))]
    return "\n".join(parts)


def plot_planning_objectives(rows: Runs):
    """Figure 9 (not in the paper, which gives tables): for each kind of grid, the optimal lookahead
    against x, and the shortest mean path against a time limit per episode and per move."""
    from matplotlib.figure import Figure
    from matplotlib.ticker import NullFormatter

    groups = group_runs(rows)
    kinds = [kind for kind in KINDS if optimal_lookahead_by_x(groups, kind)] or list(KINDS)
    figure = Figure(figsize=(16, 4.3 * len(kinds)), layout="constrained")
    axes = figure.subplots(len(kinds), 3, squeeze=False)
    for row_axes, kind in zip(axes, kinds):
        lrta, dstar = _curves(groups, kind)
        heuristic = BEST_HEURISTIC[(kind, "lrta_astar")]
        if not lrta:  # nothing to choose between
            for ax in row_axes:
                ax.text(0.5, 0.5, f"{kind}: no LRTA* runs", ha="center", va="center", transform=ax.transAxes)
            continue
        ax = row_axes[0]
        xs = [10.0 ** e for e in X_EXPONENTS]
        optimal = [min(lrta, key=lambda n: (lrta[n]["planning_us"] + x * lrta[n]["moves"], n)) for x in xs]
        ax.step(xs, optimal, where="post", label=f"LRTA* ({heuristic} h): optimal lookahead")
        if dstar:
            better = [dstar["planning_us"] + x * dstar["moves"] < lrta[n]["planning_us"] + x * lrta[n]["moves"]
                      for x, n in zip(xs, optimal)]
            if any(better):
                ax.axvspan(xs[better.index(True)], xs[-1], color="tab:red", alpha=0.12,
                           label="D* Lite's sum smaller than LRTA*'s")
            else:
                ax.plot([], [], " ", label="D* Lite's sum never smaller here")
        ax.set(xscale="log", title=f"{kind}: minimise planning time + x * path length",
               xlabel="x [us of planning per move]", ylabel="optimal lookahead")
        for ax, per, column in ((row_axes[1], "episode", "planning_us_per_episode"),
                                (row_axes[2], "move", "planning_us_per_move")):
            limits = sorted(a[column] for a in lrta.values())
            if dstar:
                limits = sorted(set(limits) | {dstar[column]})
            top = max(limits) * 1.5 if limits else 1.0
            best = [min((lrta[n]["moves"] for n in lrta if lrta[n][column] <= limit), default=float("nan"))
                    for limit in limits]
            ax.step(limits + [top], best + best[-1:], where="post",
                    label=f"LRTA* ({heuristic} h), best lookahead that fits")
            points = sorted(lrta)
            ax.scatter([lrta[n][column] for n in points], [lrta[n]["moves"] for n in points], s=10, color="tab:blue",
                       alpha=0.5, label="LRTA*, one point per lookahead")
            where = {n: (lrta[n][column], lrta[n]["moves"]) for n in points}
            # spaced, not every k-th: on random grids the large lookaheads crowd the flat end of the curve
            for n in spaced_labels(where, [points[0], points[-1]], gap=0.12):
                ax.annotate(str(n), where[n], textcoords="offset points", xytext=(3, 3), fontsize=7)
            if dstar:
                ax.hlines(dstar["moves"], dstar[column], top, color="tab:red", label="D* Lite (fits from its time)")
                ax.plot([dstar[column]], [dstar["moves"]], "s", color="tab:red", markersize=7)
            ax.set(xscale="log", yscale="log", title=f"{kind}: shortest path, time limit per {per}",
                   xlabel=f"limit on the mean planning time per {per} [us]", ylabel="path length [moves] (mean)")
            ax.xaxis.set_minor_formatter(NullFormatter())  # labels on the powers of ten only
        for ax in row_axes:
            ax.legend(fontsize=8)
            ax.grid(alpha=0.3)
    return figure


# -- figures ----------------------------------------------------------------------------------------


def _figure(rows: Runs):
    """A figure with one panel per kind of grid that ``rows`` holds; returns it, the axes and the kinds."""
    from matplotlib.figure import Figure

    kinds = [kind for kind in KINDS if any(key[0] == kind for key in group_runs(rows))] or list(KINDS)
    figure = Figure(figsize=(5.5 * len(kinds), 4.5), layout="constrained")
    return figure, figure.subplots(1, len(kinds), squeeze=False)[0], kinds


def plot_time_vs_expansions(rows: Runs):
    """Figure 7: LRTA*'s planning time against its expansions, one point per lookahead (log-log)."""
    from matplotlib.ticker import NullFormatter

    groups = group_runs(rows)
    figure, axes, kinds = _figure(groups)
    for ax, kind in zip(axes, kinds):
        labelled: list[tuple[float, float]] = []  # the label positions of both series, kept apart
        drawn = False
        for algorithm, label in (("lrta_astar", "LRTA* (A*)"), ("lrta_bfs", "LRTA* (BFS)")):
            heuristic = BEST_HEURISTIC[(kind, algorithm)]
            x = _series(groups, kind, algorithm, heuristic, "expansions")
            if not x:  # a run of some settings only (the planning objectives): no legend entry for nothing
                continue
            y = _series(groups, kind, algorithm, heuristic, "planning_us")
            x_ci = _series(groups, kind, algorithm, heuristic, "expansions_ci95")
            y_ci = _series(groups, kind, algorithm, heuristic, "planning_us_ci95")
            ax.errorbar([x[n] for n in x], [y[n] / 1e3 for n in x],
                        xerr=_log_bars([x[n] for n in x], [x_ci[n] for n in x]),
                        yerr=_log_bars([y[n] / 1e3 for n in x], [y_ci[n] / 1e3 for n in x]),
                        fmt="o", capsize=2, elinewidth=0.8, label=f"{label}, {heuristic} h (numbers: lookahead)")
            drawn = True
            points = {n: (x[n], y[n] / 1e3) for n in x}
            for n in spaced_labels(points, [min(points), max(points)], occupied=labelled):
                ax.annotate(str(n), points[n], textcoords="offset points", xytext=(4, 4), fontsize=7)
        ax.set(title=f"{kind} grids: planning time vs expansions",
               xlabel="state expansions (mean per run; bars: 95% CI, cut at mean / 2 below)",
               ylabel="planning time per run [ms]")
        if drawn:  # a log axis needs points, a legend something to name
            ax.set_xscale("log")  # lookahead one expands far more than the rest; proportional = slope one
            ax.set_yscale("log")
            ax.xaxis.set_minor_formatter(NullFormatter())  # labels on the powers of ten only
            ax.legend(fontsize=8)
        ax.grid(alpha=0.3)
    return figure


def spaced_labels(points: dict[int, tuple[float, float]], first: Sequence[int] = (), gap: float = 0.1,
                  occupied: list[tuple[float, float]] | None = None) -> list[int]:
    """The points to label on a log-log plot so that no two labels run into each other: ``first``
    (in order), then the rest in order, each kept only if it lies at least ``gap`` (a share of the
    points' span, in log units on each axis) from every point already labelled. ``occupied``: the
    positions another series of the same axes labelled (the span is then measured over both); the
    positions labelled here are added to it. A point at zero or below (no place on a log axis) is
    never labelled, even if ``first`` names it.

    >>> spaced_labels({1: (1e6, 600.0), 3: (7e5, 220.0), 47: (1.02e5, 90.0), 49: (1e5, 92.0)}, first=[1, 49])
    [1, 49, 3]
    >>> spaced_labels({1: (0.0, 600.0), 3: (7e5, 220.0)}, first=[1])
    [3]
    >>> spaced_labels({})
    []
    """
    occupied = [] if occupied is None else occupied
    logs = {n: (float(np.log10(x)), float(np.log10(y))) for n, (x, y) in points.items() if x > 0 and y > 0}
    taken = [(float(np.log10(x)), float(np.log10(y))) for x, y in occupied]
    every = [*logs.values(), *taken]
    if not logs:  # no point a log axis can place: nothing to label
        return []
    spans = [max(max(v[i] for v in every) - min(v[i] for v in every), 1e-9) for i in (0, 1)]
    chosen: list[int] = []
    for n in [*dict.fromkeys(first), *points]:
        if n in chosen or n not in logs:
            continue
        if all(max(abs(logs[n][i] - t[i]) / spans[i] for i in (0, 1)) >= gap for t in taken):
            chosen.append(n)
            taken.append(logs[n])
            occupied.append(points[n])
    return chosen


def _log_bars(means: Sequence[float], half_widths: Sequence[float]) -> list[list[float]]:
    """Error bars for a log axis: the confidence interval, its lower arm cut at half the mean (never <= 0)."""
    return [[min(h, m / 2) for m, h in zip(means, half_widths)], list(half_widths)]


def plot_time_vs_path_length(rows: Runs):
    """Figure 8: planning time against path length; LRTA* one point per lookahead, D* Lite one point."""
    from matplotlib.ticker import NullFormatter

    groups = group_runs(rows)
    figure, axes, kinds = _figure(groups)
    for ax, kind in zip(axes, kinds):
        heuristic = BEST_HEURISTIC[(kind, "lrta_astar")]
        moves = _series(groups, kind, "lrta_astar", heuristic, "moves")
        time_ = _series(groups, kind, "lrta_astar", heuristic, "planning_us")
        moves_ci = _series(groups, kind, "lrta_astar", heuristic, "moves_ci95")
        time_ci = _series(groups, kind, "lrta_astar", heuristic, "planning_us_ci95")
        ax.errorbar([moves[n] for n in moves], [time_[n] / 1e3 for n in moves],
                    xerr=_log_bars([moves[n] for n in moves], [moves_ci[n] for n in moves]),
                    yerr=_log_bars([time_[n] / 1e3 for n in moves], [time_ci[n] / 1e3 for n in moves]),
                    fmt="o-", capsize=2, elinewidth=0.8, label=f"LRTA*, {heuristic} h (numbers: lookahead)")
        if moves:
            points = {n: (moves[n], time_[n] / 1e3) for n in moves}
            first = [min(points), max(points), min(points, key=lambda n: points[n][1])]  # ends and least time
            for n in spaced_labels(points, first):
                ax.annotate(f"{n}", points[n], textcoords="offset points", xytext=(5, 4), fontsize=7)
        dstar = averages(groups, kind, "dstar_lite", "strong", None)
        if dstar:
            ax.errorbar([dstar["moves"]], [dstar["planning_us"] / 1e3],
                        xerr=_log_bars([dstar["moves"]], [dstar["moves_ci95"]]),
                        yerr=_log_bars([dstar["planning_us"] / 1e3], [dstar["planning_us_ci95"] / 1e3]), fmt="s", color="tab:red", markersize=9, capsize=2,
                        label="D* Lite, strong h")
        ax.set(title=f"{kind} grids: planning time vs path length",
               xlabel="path length [moves] (mean per run; bars: 95% CI, cut at mean / 2 below)",
               ylabel="planning time per run [ms]")
        if moves or dstar:  # a log axis needs points (a run of breadth-first lookahead alone has none here)
            ax.set_xscale("log")  # lookahead one's paths are far longer than the rest
            ax.set_yscale("log")
            ax.xaxis.set_minor_formatter(NullFormatter())  # labels on the powers of ten only
        ax.legend(fontsize=8)
        ax.grid(alpha=0.3)
    return figure


# -- the report ------------------------------------------------------------------------------------


def write_report(rows: Sequence[dict], outdir: str | Path, command: str = "") -> list[Path]:
    """Write the tables (CSV and Markdown), the raw runs, both figures and ``findings.md`` into ``outdir``."""
    from reference.experiments.plots import save_figure

    outdir = Path(outdir)
    written: list[Path] = []

    def text(name: str, content: str) -> None:
        atomic_write_text(outdir / name, content)
        written.append(outdir / name)

    runs = write_runs(outdir, rows, large=LARGE_RUNS)  # LARGE_RUNS read here: a test lowers it
    written.append(runs)
    groups = group_runs(rows)
    tables = {
        "table1_heuristics": (heuristics_table(groups), None),
        "table2_mazes": (paper_table(groups, "maze"), [("algorithm", "algorithm"), *PAPER_COLUMNS]),
        "table3_random": (paper_table(groups, "random"), [("algorithm", "algorithm"), *PAPER_COLUMNS]),
        "table4_bfs": (bfs_table(groups), None),
    }
    for stem, (table, columns) in tables.items():
        text(f"{stem}.csv", to_csv(table))
        text(f"{stem}.md", to_markdown(table, columns))
    text("table5_objectives.md", "# The paper's planning objectives (Section 6), on these runs\n\n" + (
        objectives_markdown(groups) or "(no LRTA* runs)\n"))
    for stem, plot in (("figure7_time_vs_expansions", plot_time_vs_expansions),
                       ("figure8_time_vs_path_length", plot_time_vs_path_length),
                       ("figure9_planning_objectives", plot_planning_objectives)):
        written.append(save_figure(plot(groups), outdir / f"{stem}.png", dpi=110))
    kinds = {kind: len({r["instance"] for r in rows if r["kind"] == kind}) for kind in KINDS}
    sizes = sorted({r["size"] for r in rows})
    found = findings(groups)
    report = [
        "# Koenig (2004) reproduced: real-time vs incremental search", "",
        f"{kinds['maze']} mazes and {kinds['random']} random grids, {' / '.join(f'{s} x {s}' for s in sizes)}, "
        f"lookaheads {', '.join(map(str, lookaheads_in(groups)))}; engine: "
        f"{', '.join(sorted({r.get('engine', 'python') for r in rows}))} (the same counts either way); LRTA*'s "
        f"lookahead searches generate successors in {' and '.join(sorted({r.get('successors', 'fixed') for r in rows}))} "
        "order (fixed: east, south, west, north; random: seeded per grid, Koenig's Section 8). Times in "
        "microseconds on a shared machine: compare shapes and ratios with the paper, not absolute values. "
        "`±`: half-width of the 95% confidence interval of the mean over the `n` grids (Student's t).",
    ]
    if command:
        report += ["", f"Made with `{command}`."]
    report += ["", "## The paper's findings, checked", "", findings_markdown(found),
               "## Table 2: mazes (D* Lite strong h, LRTA* weak h)", "",
               to_markdown(tables["table2_mazes"][0], tables["table2_mazes"][1]),
               "## Table 3: random grids (both strong h)", "",
               to_markdown(tables["table3_random"][0], tables["table3_random"][1]),
               f"Other tables: `table1_heuristics.md`, `table4_bfs.md`, `table5_objectives.md` (the planning "
               f"objectives: optimal lookahead against x, shortest path under a time limit per episode and per move); "
               f"every run: `{runs.name}`; figures: `figure7_time_vs_expansions.png`, "
               "`figure8_time_vs_path_length.png`, `figure9_planning_objectives.png`.", ""]
    text("findings.md", "\n".join(report))
    return written
