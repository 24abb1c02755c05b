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

draws Figures 7 (planning time vs expansions) and 8 (planning time vs path length), and checks the
paper's findings against the numbers (:func:`findings`). Times are in microseconds, as in the paper.

>>> rows = run_comparison(mazes=1, grids=1, size=21, lookaheads=(1, 9), progress=False)
>>> sorted({(r["kind"], r["algorithm"]) for r in rows})[:3]
[('maze', 'dstar_lite'), ('maze', 'lrta_astar'), ('maze', 'lrta_bfs')]
>>> all(r["reached"] for r in rows)
True
"""

from __future__ import annotations

import csv
import gc
import gzip
import io
import statistics
import time
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable, Sequence

import numpy as np

from reference.experiments.parallel import map_with_progress
from reference.solutions.compiled.realtime import run_compiled, warm_up
from reference.solutions.realtime import run_algorithm
from reference.world.fileio import atomic_write_bytes, atomic_write_text
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


def settings_for(kind: str, lookaheads: Sequence[int] = LOOKAHEADS) -> list[tuple[str, str, int | None]]:
    """(algorithm, heuristic, lookahead) triples run on every grid of ``kind``.

    D* Lite and LRTA* with A* lookahead with both heuristics (Table 1), and LRTA* with
    breadth-first lookahead with the kind's best heuristic (Table 4).

    >>> settings_for("maze", (1, 3))[:3]
    [('dstar_lite', 'strong', None), ('dstar_lite', 'weak', None), ('lrta_astar', 'strong', 1)]
    """
    settings: list[tuple[str, str, int | None]] = [("dstar_lite", "strong", None), ("dstar_lite", "weak", None)]
    for heuristic in ("strong", "weak"):
        settings += [("lrta_astar", heuristic, n) for n in lookaheads]
    settings += [("lrta_bfs", BEST_HEURISTIC[(kind, "lrta_bfs")], n) for n in lookaheads]
    return settings


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
    order = {"successors": successors, "seed": order_seed(seed, number)}
    instance = make_instance(kind, number, size, seed)
    if engine == "compiled":
        warm_up()  # compiling (or loading the compiled code) is not part of the first run's time
    began = time.perf_counter()
    if engine == "compiled":  # counts only: a comparison reads no traces
        run = run_compiled(algorithm, instance.grid, instance.start, instance.target, heuristic, lookahead or 1,
                           record=False, **order)
    else:
        gc.disable()  # a collection in the middle of an episode would be charged to its planning time
        try:
            world = FogOfWarWorld(instance.grid, instance.start, check_moves=False)  # sense: a look-up
            run = run_algorithm(algorithm, world, instance.start, instance.target,
                                heuristic, lookahead or 1, **order)
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


def run_comparison(mazes: int = DEFAULT_MAZES, grids: int = DEFAULT_GRIDS, size: int = DEFAULT_SIZE,
                   lookaheads: Sequence[int] = LOOKAHEADS, jobs: int = 1, progress: bool = True,
                   seed: int = DEFAULT_SEED, engine: str = "compiled", first_maze: int = 0,
                   first_grid: int = 0, successors: str = "fixed") -> list[dict[str, Any]]:
    """Run every setting of :func:`settings_for` on ``mazes`` mazes and ``grids`` random grids.

    Returns one row per run (see :func:`run_one`). ``jobs > 1`` spreads the runs over processes
    (planning times then include some contention for the cores). ``engine``: ``"compiled"`` (the
    twins) or ``"python"`` (the readable reference). ``first_maze`` / ``first_grid``: the number of
    the first grid of each kind, so that a large sample can be run in parts and merged.
    ``successors``: the LRTA* lookahead searches' successor order, ``"fixed"`` or ``"random"``.
    """
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {', '.join(ENGINES)}, got {engine!r}")
    tasks = [(kind, number, size, seed, algorithm, heuristic, lookahead, engine, successors)
             for kind, first, count in (("maze", first_maze, mazes), ("random", first_grid, grids))
             for number in range(first, first + count)
             for algorithm, heuristic, lookahead in settings_for(kind, lookaheads)]
    return map_with_progress(run_one, tasks, jobs, "realtime comparison", progress)


def read_runs(path: str | Path) -> list[dict[str, Any]]:
    """The rows of a ``runs.csv`` (or ``runs.csv.gz``) that :func:`write_report` wrote, with their types back."""
    integers = ("instance", "size", "expansions", "episodes", "moves", "max_expansions_per_episode")
    rows = []
    with open_runs(path) as file:
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


class RunGroups(dict):
    """Rows grouped by setting, ``(kind, algorithm, heuristic, lookahead)`` -> rows in their order.

    Every table, figure and finding averages over settings many times; grouping the rows once
    keeps that from scanning every row per setting (the paper's sample has 462,000 rows).
    """


def group_runs(rows: Iterable[dict]) -> RunGroups:
    """The rows as :class:`RunGroups` (rows already grouped are returned as they are)."""
    if isinstance(rows, RunGroups):
        return rows
    groups = RunGroups()
    for r in rows:
        groups.setdefault((r["kind"], r["algorithm"], r["heuristic"], r["lookahead"]), []).append(r)
    return groups


def ci95(values: Sequence[float]) -> float:
    """Half-width of the 95% confidence interval of the mean of ``values`` (Student's t; 0 for fewer than 2).

    >>> round(ci95([1.0, 2.0, 3.0, 4.0]), 3)        # 3.182 (t, 3 degrees of freedom) * 1.291 / 2
    2.054
    """
    from scipy.stats import t

    n = len(values)
    if n < 2:
        return 0.0
    return float(t.ppf(0.975, n - 1) * statistics.stdev(values) / n ** 0.5)


#: The measures averaged over the grids of a setting, each with its 95% confidence interval.
MEASURES = ("expansions", "episodes", "moves", "planning_us")


def averages(rows: Iterable[dict], kind: str, algorithm: str, heuristic: str, lookahead: int | None) -> dict | None:
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


def lookaheads_in(rows: Iterable[dict]) -> list[int]:
    return sorted({lookahead for _, _, _, lookahead in group_runs(rows) if lookahead is not None})


def paper_table(rows: Sequence[dict], kind: str) -> list[dict]:
    """Table 2 (``kind="maze"``) or Table 3 (``"random"``): D* Lite, then LRTA* per lookahead."""
    rows = group_runs(rows)
    table = []
    dstar = averages(rows, kind, "dstar_lite", BEST_HEURISTIC[(kind, "dstar_lite")], None)
    if dstar:
        table.append({"algorithm": "D* Lite", **dstar})
    for n in lookaheads_in(rows):
        line = averages(rows, kind, "lrta_astar", BEST_HEURISTIC[(kind, "lrta_astar")], n)
        if line:
            table.append({"algorithm": "LRTA*", **line})
    return table


def heuristics_table(rows: Sequence[dict]) -> list[dict]:
    """Table 1: planning time and moves of D* Lite and LRTA* with the strong and the weak heuristic."""
    rows = group_runs(rows)
    table = []
    for algorithm, lookaheads in (("dstar_lite", [None]), ("lrta_astar", lookaheads_in(rows))):
        for n in lookaheads:
            line: dict[str, Any] = {"algorithm": "D* Lite" if algorithm == "dstar_lite" else "LRTA*",
                                    "lookahead": "-" if n is None else n}
            for kind in KINDS:
                for heuristic in ("strong", "weak"):
                    a = averages(rows, kind, algorithm, heuristic, n)
                    if a:
                        line[f"{kind} {heuristic}: planning [us]"] = a["planning_us"]
                        line[f"{kind} {heuristic}: planning ±"] = a["planning_us_ci95"]
                        line[f"{kind} {heuristic}: moves"] = a["moves"]
                        line[f"{kind} {heuristic}: moves ±"] = a["moves_ci95"]
                        line[f"{kind} {heuristic}: n"] = a["runs"]
            table.append(line)
    return table


def bfs_table(rows: Sequence[dict]) -> list[dict]:
    """Table 4: LRTA* with A* vs breadth-first local search, (b) expansions and (c) moves per grid kind."""
    rows = group_runs(rows)
    table = []
    for n in lookaheads_in(rows):
        line: dict[str, Any] = {"lookahead": n}
        for kind in KINDS:
            for algorithm, label in (("lrta_astar", "A*"), ("lrta_bfs", "BFS")):
                a = averages(rows, kind, algorithm, BEST_HEURISTIC[(kind, algorithm)], n)
                if a:
                    line[f"{kind} {label}: expansions"] = a["expansions"]
                    line[f"{kind} {label}: moves"] = a["moves"]
                    line[f"{kind} {label}: moves ±"] = a["moves_ci95"]
                    line[f"{kind} {label}: planning [us]"] = a["planning_us"]
                    line[f"{kind} {label}: n"] = a["runs"]
        table.append(line)
    return table


def _number(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.2f}"
    return str(value)


def to_markdown(table: Sequence[dict], columns: Sequence[tuple[str, str]] | None = None) -> str:
    """A GitHub Markdown table. ``columns``: (key, header) pairs; default every key of the first row.

    >>> print(to_markdown([{"lookahead": 1, "moves": 12.5}]), end="")
    | lookahead | moves |
    |---:|---:|
    | 1 | 12.50 |
    """
    if not table:
        return "(no runs)\n"
    columns = list(columns or [(key, key) for key in table[0]])
    lines = ["| " + " | ".join(header for _, header in columns) + " |",
             "|" + "|".join("---:" for _ in columns) + "|"]
    lines += ["| " + " | ".join(_number(row.get(key, "")) for key, _ in columns) + " |" for row in table]
    return "\n".join(lines) + "\n"


def to_csv(table: Sequence[dict]) -> str:
    if not table:
        return ""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(dict.fromkeys(k for row in table for k in row)), lineterminator="\n")
    writer.writeheader()
    writer.writerows(table)
    return out.getvalue()


#: A runs file whose CSV is longer than this is written gzipped (``runs.csv.gz``): the paper-scale
#: comparison's 410,025 runs are about 40 MB of CSV, the subgoaling evaluation's 24,000 runs 4 MB.
LARGE_RUNS = 2_000_000


def write_runs(outdir: Path, rows: Sequence[dict]) -> Path:
    """Write every run into ``outdir`` as ``runs.csv``, or as ``runs.csv.gz`` when its CSV is longer
    than :data:`LARGE_RUNS` characters; returns the file's path. :func:`open_runs` reads either."""
    text = to_csv(rows)
    if len(text) <= LARGE_RUNS:
        atomic_write_text(outdir / "runs.csv", text)
        return outdir / "runs.csv"
    # mtime=0: the same rows give the same bytes, so a re-made report does not change the file
    atomic_write_bytes(outdir / "runs.csv.gz", gzip.compress(text.encode(), mtime=0))
    return outdir / "runs.csv.gz"


def open_runs(path: str | Path):
    """A runs file :func:`write_runs` wrote, opened for reading as text (gzipped or not)."""
    if str(path).endswith(".gz"):
        return gzip.open(path, "rt", newline="", encoding="utf-8")
    return open(path, newline="", encoding="utf-8")


# -- the paper's findings ---------------------------------------------------------------------------


@dataclass
class Finding:
    """One claim of the paper, whether the measured numbers bear it out, and the numbers."""

    claim: str
    holds: bool
    evidence: str


def _series(rows: Sequence[dict], kind: str, algorithm: str, heuristic: str, measure: str) -> dict[int, float]:
    rows = group_runs(rows)
    result = {}
    for n in lookaheads_in(rows):
        a = averages(rows, kind, algorithm, heuristic, n)
        if a:
            result[n] = a[measure]
    return result


def _spearman(xs: Sequence[float], ys: Sequence[float]) -> float:
    from scipy.stats import spearmanr

    if len(xs) < 3 or len(set(ys)) == 1:
        return 0.0  # no trend to speak of
    return float(spearmanr(xs, ys).statistic)


def paired_difference(rows: Sequence[dict], kind: str, first: tuple, second: tuple, measure: str) -> tuple[float, float, int]:
    """Mean over the grids that ran both settings of (first - second), its 95% CI half-width, and the count.

    Settings are ``(algorithm, heuristic, lookahead)``; pairing the same grids removes the variation
    between grids, which dwarfs the difference between two planners on random grids.
    """
    groups = group_runs(rows)
    a = {r["instance"]: r[measure] for r in groups.get((kind, *first), [])}
    b = {r["instance"]: r[measure] for r in groups.get((kind, *second), [])}
    differences = [a[i] - b[i] for i in a if i in b]
    if not differences:
        return 0.0, 0.0, 0
    return statistics.fmean(differences), ci95(differences), len(differences)


def findings(rows: Sequence[dict]) -> list[Finding]:
    """Check the paper's findings (the list in the issue, plus Figure 7's and Table 4's) on ``rows``."""
    rows = group_runs(rows)
    result: list[Finding] = []
    maze_lrta = BEST_HEURISTIC[("maze", "lrta_astar")]
    for kind in KINDS:
        moves = _series(rows, kind, "lrta_astar", BEST_HEURISTIC[(kind, "lrta_astar")], "moves")
        if len(moves) >= 4:
            # A trend, not a staircase: the rank correlation is negative, and the smallest quarter
            # of the lookaheads gives longer paths on average than the largest quarter.
            rho = _spearman(list(moves), list(moves.values()))
            quarter = max(1, len(moves) // 4)
            small, large = sorted(moves)[:quarter], sorted(moves)[-quarter:]
            small_mean = statistics.fmean(moves[n] for n in small)
            large_mean = statistics.fmean(moves[n] for n in large)
            result.append(Finding(
                f"{kind}: LRTA*'s path length falls as the lookahead grows",
                rho < 0 and large_mean < small_mean,
                f"mean moves {small_mean:.0f} at lookaheads {small[0]}-{small[-1]}, {large_mean:.0f} at "
                f"{large[0]}-{large[-1]}; Spearman rank correlation with the lookahead {rho:.2f}"))
    time_ = _series(rows, "maze", "lrta_astar", maze_lrta, "planning_us")
    if len(time_) >= 3:
        best = min(time_, key=time_.get)
        first, last = min(time_), max(time_)
        result.append(Finding(
            "maze: LRTA*'s planning time first falls, then rises as the lookahead grows",
            first < best < last and time_[best] < time_[first] and time_[best] < time_[last],
            f"{time_[first]:.0f} us at lookahead {first}, least {time_[best]:.0f} us at {best}, "
            f"{time_[last]:.0f} us at {last}"))
    strong = _series(rows, "maze", "lrta_astar", "strong", "moves")
    weak = _series(rows, "maze", "lrta_astar", "weak", "moves")
    small = [n for n in strong if n in weak and n <= 9]
    if small:
        better = [n for n in small if weak[n] < strong[n]]
        evidence = "moves weak vs strong: " + ", ".join(f"{n}: {weak[n]:.0f} vs {strong[n]:.0f}" for n in small)
        difference, half_width, n = paired_difference(rows, "maze", ("lrta_astar", "weak", small[0]),
                                                      ("lrta_astar", "strong", small[0]), "moves")
        if n > 1:
            evidence += (f"; at lookahead {small[0]}, weak minus strong on the same mazes: {difference:+.0f} ± "
                         f"{half_width:.0f} moves (95% CI, {n} mazes)")
        result.append(Finding(
            "maze: the weak heuristic serves LRTA* better than the strong one at small lookaheads (shorter paths)",
            len(better) == len(small), evidence))
    dstar = averages(rows, "maze", "dstar_lite", "strong", None)
    moves = _series(rows, "maze", "lrta_astar", maze_lrta, "moves")
    if dstar and moves:
        longer = [n for n in moves if moves[n] > dstar["moves"]]
        result.append(Finding(
            "maze: D* Lite's paths are shorter than LRTA*'s (every lookahead)",
            len(longer) == len(moves),
            f"D* Lite {dstar['moves']:.0f} moves; LRTA* from {max(moves.values()):.0f} to "
            f"{min(moves.values()):.0f}; LRTA* longer at {len(longer)} of {len(moves)} lookaheads"))
    dstar = averages(rows, "random", "dstar_lite", "strong", None)
    time_ = _series(rows, "random", "lrta_astar", "strong", "planning_us")
    moves = _series(rows, "random", "lrta_astar", "strong", "moves")
    if dstar and time_:
        below = [n for n in time_ if time_[n] < dstar["planning_us"]]
        result.append(Finding(
            "random: LRTA*'s total planning time is below D* Lite's (every lookahead)",
            len(below) == len(time_),
            f"D* Lite {dstar['planning_us']:.0f} us; LRTA* from {min(time_.values()):.0f} to "
            f"{max(time_.values()):.0f} us; below D* Lite at {len(below)} of {len(time_)} lookaheads"))
        shorter = [n for n in moves if moves[n] < dstar["moves"]]
        evidence = f"D* Lite {dstar['moves']:.1f} ± {dstar['moves_ci95']:.1f} moves; LRTA* shorter at lookaheads {shorter or 'none'}"
        largest = max(moves)
        difference, half_width, n = paired_difference(rows, "random", ("lrta_astar", "strong", largest),
                                                      ("dstar_lite", "strong", None), "moves")
        if n:
            evidence += (f"; at lookahead {largest}, LRTA* minus D* Lite on the same grids: "
                         f"{difference:+.2f} ± {half_width:.2f} moves (95% CI, {n} grids)")
        result.append(Finding(
            "random: LRTA*'s paths are shorter than D* Lite's for lookaheads above 13",
            all(n in shorter for n in moves if n > 13) and bool([n for n in moves if n > 13]), evidence))
    time_ = _series(rows, "random", "lrta_astar", "strong", "planning_us")
    if len(time_) >= 2 and 1 in time_:
        best = min(time_, key=time_.get)
        runner_up = min((n for n in time_ if n != 1), key=time_.get)
        difference, half_width, n = paired_difference(rows, "random", ("lrta_astar", "strong", 1),
                                                      ("lrta_astar", "strong", runner_up), "planning_us")
        expansions = _series(rows, "random", "lrta_astar", "strong", "expansions")
        fewest = min(expansions, key=expansions.get)
        other = min((n for n in expansions if n != 1), key=expansions.get)
        more, more_half_width, _ = paired_difference(rows, "random", ("lrta_astar", "strong", 1),
                                                     ("lrta_astar", "strong", other), "expansions")
        result.append(Finding(
            "random: a lookahead of one minimises LRTA*'s planning time (Section 7; paper: 498.6 expansions at "
            "lookahead 1, 622.5 at 3)",
            best == 1,
            f"least planning time at lookahead {best} ({time_[best]:.0f} us); lookahead 1 {time_[1]:.0f} us, the "
            f"best other lookahead {runner_up} {time_[runner_up]:.0f} us; lookahead 1 minus {runner_up} on the same "
            f"grids {difference:+.0f} ± {half_width:.0f} us (95% CI, {n} grids). Expansions (machine-independent): "
            f"fewest at lookahead {fewest} ({expansions[fewest]:.1f}); lookahead 1 {expansions[1]:.1f}, lookahead "
            f"{other} {expansions[other]:.1f}, lookahead 1 minus {other} on the same grids {more:+.1f} ± "
            f"{more_half_width:.1f}"))
    for kind in KINDS:
        heuristic = BEST_HEURISTIC[(kind, "lrta_astar")]
        expansions = _series(rows, kind, "lrta_astar", heuristic, "expansions")
        time_ = _series(rows, kind, "lrta_astar", heuristic, "planning_us")
        if len(expansions) >= 3:
            r = float(np.corrcoef(list(expansions.values()), list(time_.values()))[0, 1])
            result.append(Finding(
                f"{kind}: LRTA*'s planning time is roughly proportional to its expansions (Figure 7)",
                r > 0.9, f"Pearson correlation over the lookaheads {r:.2f}"))
    astar = _series(rows, "maze", "lrta_astar", maze_lrta, "moves")
    bfs = _series(rows, "maze", "lrta_bfs", BEST_HEURISTIC[("maze", "lrta_bfs")], "moves")
    small = [n for n in astar if n in bfs and 5 <= n <= 15]
    if small:
        better = [n for n in small if bfs[n] < astar[n]]
        result.append(Finding(
            "maze: LRTA* with breadth-first local search finds shorter paths than with A* at smaller "
            "lookaheads (5 to 15; Table 4)",
            len(better) == len(small),
            "moves BFS vs A*: " + ", ".join(f"{n}: {bfs[n]:.0f} vs {astar[n]:.0f}" for n in small)))
    bound = [r for group in rows.values() for r in group
             if r["algorithm"] != "dstar_lite" and r["max_expansions_per_episode"] > r["lookahead"]]
    result.append(Finding("LRTA* never expands more states in an episode than its lookahead (the real-time bound)",
                          not bound, f"{len(bound)} runs broke the bound"))
    return result


def findings_markdown(found: Sequence[Finding]) -> str:
    lines = ["| finding | holds here | numbers |", "|---|:---:|---|"]
    lines += [f"| {f.claim} | {'yes' if f.holds else '**no**'} | {f.evidence} |" for f in found]
    return "\n".join(lines) + "\n"


# -- figures ----------------------------------------------------------------------------------------


def _figure(rows: Sequence[dict]):
    """A figure with one panel per kind of grid that ``rows`` holds; returns it, the axes and the kinds."""
    from matplotlib.figure import Figure

    kinds = [kind for kind in KINDS if any(key[0] == kind for key in group_runs(rows))] or list(KINDS)
    figure = Figure(figsize=(5.5 * len(kinds), 4.5), layout="constrained")
    return figure, figure.subplots(1, len(kinds), squeeze=False)[0], kinds


def plot_time_vs_expansions(rows: Sequence[dict]):
    """Figure 7: LRTA*'s planning time against its expansions, one point per lookahead (log-log)."""
    from matplotlib.ticker import NullFormatter

    rows = group_runs(rows)
    figure, axes, kinds = _figure(rows)
    for ax, kind in zip(axes, kinds):
        for algorithm, label in (("lrta_astar", "LRTA* (A*)"), ("lrta_bfs", "LRTA* (BFS)")):
            heuristic = BEST_HEURISTIC[(kind, algorithm)]
            x = _series(rows, kind, algorithm, heuristic, "expansions")
            y = _series(rows, kind, algorithm, heuristic, "planning_us")
            x_ci = _series(rows, kind, algorithm, heuristic, "expansions_ci95")
            y_ci = _series(rows, kind, algorithm, heuristic, "planning_us_ci95")
            ax.errorbar([x[n] for n in x], [y[n] / 1e3 for n in x],
                        xerr=_log_bars([x[n] for n in x], [x_ci[n] for n in x]),
                        yerr=_log_bars([y[n] / 1e3 for n in x], [y_ci[n] / 1e3 for n in x]),
                        fmt="o", capsize=2, elinewidth=0.8, label=f"{label}, {heuristic} h (numbers: lookahead)")
            for n in list(x)[:: max(1, len(x) // 6)]:
                ax.annotate(str(n), (x[n], y[n] / 1e3), textcoords="offset points", xytext=(4, 4), fontsize=7)
        ax.set(title=f"{kind} grids: planning time vs expansions",
               xlabel="state expansions (mean per run; bars: 95% CI, cut at mean / 2 below)",
               ylabel="planning time per run [ms]")
        if any(_series(rows, kind, algorithm, BEST_HEURISTIC[(kind, algorithm)], "expansions")
               for algorithm in ("lrta_astar", "lrta_bfs")):  # a log axis needs points
            ax.set_xscale("log")  # lookahead one expands far more than the rest; proportional = slope one
            ax.set_yscale("log")
            ax.xaxis.set_minor_formatter(NullFormatter())  # labels on the powers of ten only
        ax.legend(fontsize=8)
        ax.grid(alpha=0.3)
    return figure


def _log_bars(means: Sequence[float], half_widths: Sequence[float]) -> list[list[float]]:
    """Error bars for a log axis: the confidence interval, its lower arm cut at half the mean (never <= 0)."""
    return [[min(h, m / 2) for m, h in zip(means, half_widths)], list(half_widths)]


def plot_time_vs_path_length(rows: Sequence[dict]):
    """Figure 8: planning time against path length; LRTA* one point per lookahead, D* Lite one point."""
    from matplotlib.ticker import NullFormatter

    rows = group_runs(rows)
    figure, axes, kinds = _figure(rows)
    for ax, kind in zip(axes, kinds):
        heuristic = BEST_HEURISTIC[(kind, "lrta_astar")]
        moves = _series(rows, kind, "lrta_astar", heuristic, "moves")
        time_ = _series(rows, kind, "lrta_astar", heuristic, "planning_us")
        moves_ci = _series(rows, kind, "lrta_astar", heuristic, "moves_ci95")
        time_ci = _series(rows, kind, "lrta_astar", heuristic, "planning_us_ci95")
        ax.errorbar([moves[n] for n in moves], [time_[n] / 1e3 for n in moves],
                    xerr=_log_bars([moves[n] for n in moves], [moves_ci[n] for n in moves]),
                    yerr=_log_bars([time_[n] / 1e3 for n in moves], [time_ci[n] / 1e3 for n in moves]),
                    fmt="o-", capsize=2, elinewidth=0.8, label=f"LRTA*, {heuristic} h (numbers: lookahead)")
        for n in list(moves)[:: max(1, len(moves) // 6)]:
            ax.annotate(f"{n}", (moves[n], time_[n] / 1e3), textcoords="offset points", xytext=(4, 4), fontsize=7)
        dstar = averages(rows, kind, "dstar_lite", "strong", None)
        if dstar:
            ax.errorbar([dstar["moves"]], [dstar["planning_us"] / 1e3],
                        xerr=_log_bars([dstar["moves"]], [dstar["moves_ci95"]]),
                        yerr=_log_bars([dstar["planning_us"] / 1e3], [dstar["planning_us_ci95"] / 1e3]), fmt="s", color="tab:red", markersize=9, capsize=2,
                        label="D* Lite, strong h")
        ax.set(title=f"{kind} grids: planning time vs path length",
               xlabel="path length [moves] (mean per run; bars: 95% CI, cut at mean / 2 below)",
               ylabel="planning time per run [ms]")
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

    runs = write_runs(outdir, rows)
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
    for stem, plot in (("figure7_time_vs_expansions", plot_time_vs_expansions),
                       ("figure8_time_vs_path_length", plot_time_vs_path_length)):
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
               f"Other tables: `table1_heuristics.md`, `table4_bfs.md`; every run: `{runs.name}`; figures: "
               "`figure7_time_vs_expansions.png`, `figure8_time_vs_path_length.png`.", ""]
    text("findings.md", "\n".join(report))
    return written
