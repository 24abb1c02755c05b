"""Hernández & Baier (2011), *Fast Subgoaling for Pathfinding via Real-Time Search*, reproduced.

The paper's evaluation (its Figure 2 and the paragraphs around it): on eight game maps, 500 random
problems each, A*, LRTA* (lookahead one) and LRTA* with subgoaling, eight-connected, octile h;
mean solution cost, cost above optimal, the time of the first planning episode and the total
planning time; the subgoal trees' sizes and the time to build the tree of every cell of a map.

**The maps.** The paper names none of its eight maps: "the four videogame maps used by Bulitko and
Björnsson (2009) (2 from Baldur's Gate, and 2 from World of Warcraft), and 4 maps from Dragon Age:
Origins", with 17,789 unblocked cells on average. The MovingAI sets the kit uses have no World of Warcraft
maps (its Warcraft III maps are 512 × 512 with about 100,000 free cells each), so the kit takes
four Dragon Age maps and four Baldur's Gate maps (two standing in for World of Warcraft), chosen
for sizes near the paper's: 18,018 free cells on average (:data:`MAPS`).

**Problems.** Start and goal drawn uniformly (seeded) among the free cells of a map, redrawn until
the goal is reachable and differs from the start. A plain ground agent (SPEC §12).

**Times** are CPU times of one engine for all three algorithms, so that their *ratios* can be set
beside the paper's (absolute values cannot: C++ in 2011 against Python or Numba here). The default
engine is the compiled one (:mod:`reference.solutions.compiled.subgoaling`: LRTA* and LRTA* with
subgoaling; :mod:`reference.solutions.compiled.shortest_paths`: A*), which walks the same trajectories as the
readable code (tests compare them); ``engine="python"`` times the readable code instead (the same
successor function and heap for all three). Subgoal trees count as preprocessing, as in the paper
(not in the planning times); the time to build *every* tree of a map comes from the compiled tree
builder in both cases (the readable one is some 35 times slower, `bench/subgoaling.py`).
"""

from __future__ import annotations

import csv
import gc
import statistics
import time
from dataclasses import dataclass
from functools import lru_cache, partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Sequence

import numpy as np

from reference.experiments.movingai_data import movingai_dir
from reference.experiments.report import (
    DOES_NOT_HOLD, INCONCLUSIVE, Claim, Finding, bootstrap_interval, check, ci95, findings_markdown, open_runs, to_csv, to_markdown, verdict,
    write_runs,
)
from reference.experiments.tasks import one_local_cluster, prepare, run_tasks
from reference.solutions.subgoaling import KnownMapRun, build_subgoal_tree, run_algorithm
from reference.world.fileio import atomic_write_text
from reference.world.grid import Cell, Gridworld, cost_value
from reference.world.maps import read_map

if TYPE_CHECKING:   # for an annotation only: the compiled engine (Numba) is imported when a run uses it
    from reference.solutions.compiled.subgoaling import KnownMapRun as CompiledKnownMapRun


@dataclass(frozen=True)
class GameMap:
    """One map of the evaluation: its folder and file under ``movingai/``, and why it is there."""

    folder: str
    name: str
    role: str

    @property
    def label(self) -> str:
        return self.name.removesuffix(".map")


#: The eight maps (see the module docstring for why these).
MAPS: tuple[GameMap, ...] = (
    GameMap("dao", "lak304d.map", "Dragon Age: Origins"),
    GameMap("dao", "ost003d.map", "Dragon Age: Origins"),
    GameMap("dao", "hrt201n.map", "Dragon Age: Origins"),
    GameMap("dao", "den520d.map", "Dragon Age: Origins"),
    GameMap("bgmaps", "AR0204SR.map", "Baldur's Gate"),
    GameMap("bgmaps", "AR0701SR.map", "Baldur's Gate"),
    GameMap("bgmaps", "AR0307SR.map", "Baldur's Gate, for World of Warcraft"),
    GameMap("bgmaps", "AR0411SR.map", "Baldur's Gate, for World of Warcraft"),
)

#: The algorithms of the paper's Figure 2, plus the alternatives the kit offers for Algorithm 3's
#: line 5 (first goal ``Sub(start)``) and line 8 (next subgoal only on arrival).
ALGORITHM_LABELS: dict[str, str] = {
    "astar": "A*",
    "lrta": "LRTA*",
    "lrta_subgoal": "LRTA*+sub",
    "lrta_subgoal_sub": "LRTA*+sub, first goal Sub(start)",
    "lrta_subgoal_arrival": "LRTA*+sub, switch on arrival",
    "lrta_subgoal_sub_arrival": "LRTA*+sub, Sub(start) and switch on arrival",
    "knn_lrta_1000": "kNN LRTA* (1000)",
    "knn_lrta_10000": "kNN LRTA* (10000)",
    "d_lrta_3": "D LRTA* (3)",
    "d_lrta_5": "D LRTA* (5)",
    "d_lrta_once_3": "D LRTA* (3), goal kept until reached (kit)",
    "d_lrta_once_5": "D LRTA* (5), goal kept until reached (kit)",
}
#: One colour per algorithm, the same in every figure (matplotlib's default cycle has 10 colours, and a
#: comparison of everything draws 12 algorithms).
ALGORITHM_COLOURS: dict[str, str] = {
    "astar": "black", "lrta": "tab:red", "lrta_subgoal": "tab:blue", "lrta_subgoal_sub": "tab:green",
    "lrta_subgoal_arrival": "tab:purple", "lrta_subgoal_sub_arrival": "tab:olive", "knn_lrta_1000": "tab:orange",
    "knn_lrta_10000": "tab:brown", "d_lrta_3": "tab:pink", "d_lrta_5": "tab:cyan", "d_lrta_once_3": "tab:grey",
    "d_lrta_once_5": "gold",
}
#: The paper's own algorithms (the default of ``ftr subgoal compare``); the rest of
#: :data:`ALGORITHM_LABELS` are the algorithms it compares with (online: readable code only; one
#: preprocessing per map: :func:`run_map_with_database`).
SUBGOALING_ALGORITHMS = ("astar", "lrta", "lrta_subgoal", "lrta_subgoal_sub", "lrta_subgoal_arrival",
                         "lrta_subgoal_sub_arrival")
DATABASE_ALGORITHMS = tuple(name for name in ALGORITHM_LABELS if name not in SUBGOALING_ALGORITHMS)
#: Readable subgoal trees timed per map (their mean, times the free cells, is the readable code's
#: preprocessing time, set beside the other algorithms' readable preprocessing).
READABLE_TREE_SAMPLE = 20
#: The same with the compiled tree builder (the compiled engine's preprocessing comparison).
COMPILED_TREE_SAMPLE = 1000

#: The paper's numbers (Figure 2: cost, time of the first search and total time in milliseconds).
PAPER_FIGURE_2 = {"astar": (198, 3.101, 3.101), "lrta": (39_232, 0.001, 34.446), "lrta_subgoal": (220, 0.024, 0.251)}
PAPER_PROBLEMS = 500
DEFAULT_PROBLEMS = 500
DEFAULT_SEED = 2011
#: kNN LRTA*'s records are drawn with this much added to the problems' seed: with the same seed
#: (the first version) record i *was* problem i, so every problem found itself in the database.
DATABASE_SEED_OFFSET = 10_000
#: LRTA* runs longer than this many moves end unreached (none did in the committed results).
MAX_MOVES = 2_000_000
#: D LRTA* runs stop unreached after this many times their optimal cost in actions (the dynamic-control
#: study's limit, ``reference.experiments.dynamic``): under the paper's per-action goal an agent can
#: cross a region border back and forth for ever, each action a search of up to depth 20.
D_LRTA_MOVE_FACTOR = 20


@lru_cache(maxsize=2)
def load_map(path: str) -> Gridworld:
    """The map at ``path`` (a MovingAI ``.map`` file)."""
    return read_map(path)


def map_path(game_map: GameMap, movingai: str | Path | None) -> Path:
    """Where ``game_map`` is: ``MOVINGAI/FOLDER/NAME`` (None: the folder ``ftr movingai where`` names)."""
    return movingai_dir(movingai) / game_map.folder / game_map.name


def draw_problems(grid: Gridworld, count: int, seed: int) -> list[tuple[Cell, Cell]]:
    """``count`` problems: start and goal uniform among free cells, redrawn until the goal is
    reachable (the same connected component) and differs from the start (kNN LRTA*'s
    :func:`~reference.solutions.subgoaling.knn_lrta.random_problems`, which refuses a map with no
    two connected free cells instead of drawing for ever).

    >>> draw_problems(Gridworld.from_strings([".@.", ".@."]), 2, seed=1)
    [((1, 2), (0, 2)), ((0, 2), (1, 2))]
    """
    from reference.solutions.subgoaling.knn_lrta import random_problems

    return random_problems(grid, count, seed)


#: The engines: ``compiled`` (the default, Numba) and ``python`` (the readable reference code).
ENGINES = ("compiled", "python")


#: The compiled LRTA*'s workspace, reserved before each problem (a no-op once it is large enough):
#: h tables for this many goals (the evaluation's runs pursue at most 41; 69 MB on the largest
#: map, 89,670 cells) and trajectories of this many moves (16 MB).
RESERVED_GOALS, RESERVED_MOVES = 64, 1 << 20


@lru_cache(maxsize=1)
def warm_up_compiled() -> None:
    """Compile (or load from Numba's cache) every compiled function once per process, on a tiny map,
    so that no problem's planning time includes it (``ftr subgoal run`` calls it too)."""
    from reference.solutions.compiled import subgoaling as compiled

    grid = Gridworld.from_strings(["....", ".@@.", "...."])
    for connectivity in (4, 8):
        tree = compiled.compiled_tree(grid, (2, 2), connectivity)
        for name in compiled.ALGORITHMS:
            compiled.run_compiled(grid, (0, 1), (2, 2), name, connectivity=connectivity, tree=tree)


def run_problem(task: tuple[str, str, int, Cell, Cell, Sequence[str], str]) -> list[dict[str, Any]]:
    """One problem: ``(map path, map label, number, start, goal, algorithms, engine)`` -> a row per algorithm."""
    path, label, number, start, goal, algorithms, engine = task
    grid = load_map(path)
    if engine == "compiled":
        from reference.solutions.compiled import subgoaling as compiled

        warm_up_compiled()
        compiled.reserve(grid.size, RESERVED_GOALS, RESERVED_MOVES)   # no table grows in a timed run
        began = time.process_time()
        compiled_tree = compiled.compiled_tree(grid, goal, 8)
        tree_seconds = time.process_time() - began
        optimal = compiled_tree.g(start)
        tree_size = compiled_tree.size
    else:
        began = time.process_time()
        readable_tree = build_subgoal_tree(grid, goal, 8)
        tree_seconds = time.process_time() - began
        optimal = readable_tree.g[start]
        tree_size = readable_tree.size
    assert optimal is not None  # draw_problems puts every start in its goal's connected component
    rows = []
    for algorithm in algorithms:
        run: CompiledKnownMapRun | KnownMapRun   # the twin: the same counts and trajectories
        gc.disable()  # a collection in the middle of an episode would be charged to its planning time
        try:
            run = (compiled.run_compiled(grid, start, goal, algorithm, tree=compiled_tree, max_moves=MAX_MOVES)
                   if engine == "compiled"
                   else run_algorithm(algorithm, grid, start, goal, tree=readable_tree, max_moves=MAX_MOVES))
        finally:
            gc.enable()
        rows.append({
            "map": label, "problem": number, "algorithm": algorithm, "engine": engine, "reached": run.reached,
            # run.cost is None exactly when the run did not reach the goal
            "cost": cost_value(run.cost) if run.cost is not None else float("nan"), "optimal": cost_value(optimal),
            "moves": run.moves, "expansions": run.expansions, "episodes": run.episodes,
            "first_episode_ms": run.first_episode_seconds * 1e3, "total_ms": run.total_seconds * 1e3,
            "first_goal": "{},{}".format(*(run.first_goal or goal)),
            "tree_size": tree_size, "tree_ms": tree_seconds * 1e3,
        })
    return rows


def build_database(algorithm: str, grid: Gridworld, seed: int, engine: str = "python"):
    """The preprocessing of ``algorithm`` (``knn_lrta_RECORDS``, ``d_lrta_LEVEL`` or
    ``d_lrta_once_LEVEL``) on ``grid``, its searches run by ``engine`` (``"python"`` or ``"compiled"``:
    the same database either way)."""
    from reference.solutions.subgoaling import d_lrta, knn_lrta

    if engine not in ("python", "compiled"):
        raise ValueError(f"engine must be 'python' or 'compiled', got {engine!r}")
    if engine == "compiled":
        from reference.solutions.compiled.subgoaling import d_lrta as d_twin, knn_lrta as knn_twin
        build_knn, build_d = knn_twin.build_knn_database, d_twin.build_d_lrta_database
    else:
        build_knn, build_d = knn_lrta.build_knn_database, d_lrta.build_d_lrta_database
    number = int(algorithm.rsplit("_", 1)[1])
    if algorithm.startswith("knn_lrta_"):
        return build_knn(grid, records=number, seed=seed)
    key = (id(grid), number, engine)
    if key not in _D_LRTA_DATABASES:   # built once per process for both goal rules (the same table)
        _D_LRTA_DATABASES.clear()
        _D_LRTA_DATABASES[key] = (grid, build_d(grid, level=number))
    return _D_LRTA_DATABASES[key][1]


#: The last D LRTA* database built, ``(id(grid), level, engine) -> (grid, database)`` (the grid kept so
#: that its id stays its own): ``d_lrta_L`` and ``d_lrta_once_L`` read the same table, and its
#: ``seconds`` is the one build's.
_D_LRTA_DATABASES: dict[tuple[int, int, str], tuple[Gridworld, Any]] = {}


def run_with_database(algorithm: str, grid: Gridworld, start: Cell, goal: Cell, database, engine: str = "python",
                      max_moves: int = MAX_MOVES):
    """One run of kNN LRTA* or D LRTA* with its ``database``, online part by ``engine`` (the same run
    either way); D LRTA* under the paper's goal rule, ``d_lrta_once_*`` under the kit's."""
    from reference.solutions.compiled.subgoaling import d_lrta as d_twin, knn_lrta as knn_twin
    from reference.solutions.subgoaling import d_lrta, knn_lrta

    if algorithm.startswith("knn_lrta_"):
        knn = knn_twin.knn_lrta_star if engine == "compiled" else knn_lrta.knn_lrta_star
        return knn(grid, start, goal, database, 8, max_moves=max_moves)
    d = d_twin.d_lrta_star if engine == "compiled" else d_lrta.d_lrta_star
    return d(grid, start, goal, database, rule="once" if "_once_" in algorithm else "paper", max_moves=max_moves)


def move_limit(algorithm: str, optimal: tuple[int, int]) -> int:
    """How many moves a run of ``algorithm`` (of :data:`DATABASE_ALGORITHMS`) may make on a problem
    whose optimal cost is ``optimal``: D LRTA*'s :data:`D_LRTA_MOVE_FACTOR` times it, kNN LRTA*'s
    :data:`MAX_MOVES`.

    >>> move_limit("d_lrta_5", (10, 2)), move_limit("knn_lrta_1000", (10, 2))   # 10 + 2·√2 = 12.8
    (260, 2000000)
    """
    return MAX_MOVES if algorithm.startswith("knn") else D_LRTA_MOVE_FACTOR * int(cost_value(optimal) + 1)


def run_map_with_database(task: tuple[str, str, str, list[tuple[Cell, Cell]], int, str]) -> list[dict[str, Any]]:
    """One map, one algorithm of :data:`DATABASE_ALGORITHMS`: its preprocessing, searches run by the
    task's engine (one ``algorithm == "preprocessing"`` row: CPU seconds, expansions, size), and a
    row per problem as :func:`run_problem` writes them, online part by the task's engine too
    (``optimal`` from an A* of the same engine, not timed). kNN LRTA*'s rows say whether a record
    fitted (``record_used``; else the run was plain LRTA*), D LRTA*'s stop after
    :data:`D_LRTA_MOVE_FACTOR` times the optimal cost in actions."""
    from reference.solutions.compiled.shortest_paths import astar_cost
    from reference.solutions.shortest_paths import astar
    from reference.solutions.subgoaling.knn_lrta import choose_record

    path, label, algorithm, problems, seed, engine = task
    grid = load_map(path)
    database = build_database(algorithm, grid, seed, engine)
    knn = algorithm.startswith("knn")
    rows: list[dict[str, Any]] = [{"map": label, "algorithm": "preprocessing", "method": algorithm,
                                   "engine": engine, "preprocessing_s": database.seconds,
                                   "preprocessing_expansions": database.expansions if knn else float("nan"),
                                   "database_size": len(database.records) if knn else database.regions}]
    for number, (start, goal) in enumerate(problems):
        optimal = (astar_cost(grid.blocked, start, goal, connectivity=8)[0] if engine == "compiled"
                   else astar(grid, start, goal, connectivity=8).cost)
        assert optimal is not None  # draw_problems puts every start in its goal's connected component
        limit = move_limit(algorithm, optimal)
        gc.disable()
        try:
            run = run_with_database(algorithm, grid, start, goal, database, engine, limit)
        finally:
            gc.enable()
        row = {
            "map": label, "problem": number, "algorithm": algorithm, "engine": engine, "reached": run.reached,
            "cost": cost_value(run.cost) if run.reached else float("nan"), "optimal": cost_value(optimal),
            "moves": run.moves, "expansions": run.expansions, "episodes": run.episodes,
            "first_episode_ms": run.first_episode_seconds * 1e3, "total_ms": run.total_seconds * 1e3,
            "first_goal": "{},{}".format(*(run.first_goal or goal)), "tree_size": float("nan"),
            "tree_ms": float("nan"),
        }
        if knn:   # the first episode's choice again, untimed: did a record fit?
            row["record_used"] = choose_record(grid, start, goal, database)[0] is not None
        rows.append(row)
    return rows


def readable_trees(task: tuple[str, str, int, int, str]) -> dict[str, Any]:
    """The tree builder's preprocessing on one map (``engine``'s: readable or compiled), timed on
    ``cells`` random goals and extrapolated to every free cell (a ``preprocessing`` row beside the
    other algorithms')."""
    from reference.solutions.compiled.subgoaling import every_tree_size

    path, label, cells, seed, engine = task
    grid = load_map(path)
    free = [divmod(int(i), grid.width) for i in np.flatnonzero(~grid.blocked.ravel())]
    chosen = np.random.default_rng(seed).choice(len(free), min(cells, len(free)), replace=False)
    if engine == "compiled":
        every_tree_size(grid, 8, [free[0]])   # compile (or load) it before the clock starts
    began = time.process_time()
    if engine == "compiled":
        sizes = every_tree_size(grid, 8, [free[i] for i in sorted(chosen)])[0].tolist()
    else:
        sizes = [build_subgoal_tree(grid, free[i], 8).size for i in sorted(chosen)]
    seconds = time.process_time() - began
    return {"map": label, "algorithm": "preprocessing", "method": "subgoal_trees", "engine": engine,
            "preprocessing_s": seconds * len(free) / len(chosen), "preprocessing_expansions": float("nan"),
            "database_size": statistics.fmean(sizes)}


def run_comparison(problems: int = DEFAULT_PROBLEMS, maps: Sequence[GameMap] = MAPS, jobs: int = 1,
                   progress: bool = True, seed: int = DEFAULT_SEED, movingai: str | Path | None = None,
                   tree_cells: int | None = None,
                   algorithms: Sequence[str] = SUBGOALING_ALGORITHMS,
                   engine: str = "compiled", scheduler: str | None = None,
                   store: str | Path | None = None) -> list[dict[str, Any]]:
    """Run ``algorithms`` on ``problems`` problems of each map with ``engine`` (:data:`ENGINES`);
    rows of :func:`run_problem`. ``jobs`` / ``scheduler`` / ``store``: where the tasks run and where
    finished ones are kept (:func:`~reference.experiments.tasks.run_tasks`).

    The tree rows (``algorithm == "trees"``, one per map) come from :func:`every_tree`:
    ``tree_cells`` goals per map (None: every free cell, as the paper; 0: none). Algorithms of
    :data:`DATABASE_ALGORITHMS` run on ``engine`` too (the same runs), after their preprocessing on
    each map (:func:`run_map_with_database`), whose searches ``engine`` runs (the same databases);
    then the tree builder of the same engine is timed on a sample of goals (:func:`readable_trees`),
    so that every preprocessing time is one engine's.
    """
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {', '.join(ENGINES)}, got {engine!r}")
    unknown = [name for name in algorithms if name not in ALGORITHM_LABELS]
    if unknown:
        raise ValueError(f"unknown algorithm {unknown[0]!r}; choose from {', '.join(ALGORITHM_LABELS)}")
    classic = tuple(a for a in algorithms if a in SUBGOALING_ALGORITHMS)
    with_database = [a for a in algorithms if a in DATABASE_ALGORITHMS]
    tasks, database_tasks = [], []
    for index, game_map in enumerate(maps):
        path = map_path(game_map, movingai)
        grid = load_map(str(path))
        drawn = draw_problems(grid, problems, seed + index)
        for number, (start, goal) in enumerate(drawn if classic else []):
            tasks.append((str(path), game_map.label, number, start, goal, classic, engine))
        database_tasks += [(str(path), game_map.label, name, drawn, DATABASE_SEED_OFFSET + seed + index, engine)
                           for name in with_database]
    if engine == "compiled" and scheduler is None:   # compile here once; local workers then load the cache
        prepare(warm_up_compiled, "the compiled engine (Numba)", "about 15 CPU-seconds of compiling", progress)

    with one_local_cluster(jobs, scheduler) as cluster:   # every part on one local cluster, started once

        def run(function, units: list, description: str) -> list:
            return run_tasks(function, units, jobs=jobs, scheduler=cluster, store=store, description=description,
                             progress=progress)

        rows = [row for rows in run(run_problem, tasks, "subgoaling problems") for row in rows]
        if with_database:
            rows += [row for rows in run(run_map_with_database, database_tasks, "kNN / D LRTA* (a map each)")
                     for row in rows]
            sample = READABLE_TREE_SAMPLE if engine == "python" else COMPILED_TREE_SAMPLE
            rows += run(readable_trees, [(str(map_path(m, movingai)), m.label, sample, seed, engine) for m in maps],
                        "trees (timed)")
        if tree_cells != 0:
            rows += run(every_tree, [(str(map_path(m, movingai)), m.label, tree_cells, seed) for m in maps],
                        "every tree of a map")
    return rows


def every_tree(task: tuple[str, str, int | None, int]) -> dict[str, Any]:
    """The paper's preprocessing on one map: the subgoal tree of every free cell (or of a seeded
    sample of ``cells`` of them), built by the compiled twin. One row: sizes and CPU time."""
    from reference.solutions.compiled.subgoaling import every_tree_size

    path, label, cells, seed = task
    grid = load_map(path)
    free = [divmod(int(i), grid.width) for i in np.flatnonzero(~grid.blocked.ravel())]
    goals = free
    if cells is not None and cells < len(free):
        chosen = np.random.default_rng(seed).choice(len(free), cells, replace=False)
        goals = [free[i] for i in sorted(chosen)]
    sizes, _, seconds = every_tree_size(grid, 8, goals)
    return {"map": label, "algorithm": "trees", "free_cells": len(free), "trees_built": len(goals),
            "tree_size_mean": float(sizes.mean()), "tree_size_min": int(sizes.min()),
            "tree_size_max": int(sizes.max()), "trees_s": seconds,
            "all_trees_s": seconds * len(free) / len(goals)}


def read_runs(path: str | Path) -> list[dict[str, Any]]:
    """Rows written by :func:`write_report` (``runs.csv`` or ``runs.csv.gz``), numbers as numbers."""
    rows = []
    with open_runs(path) as handle:
        for raw in csv.DictReader(handle):
            row: dict[str, Any] = {}
            for key, value in raw.items():
                if value == "":
                    continue
                if value in ("True", "False"):
                    row[key] = value == "True"
                else:
                    try:
                        row[key] = int(value)
                    except ValueError:
                        try:
                            row[key] = float(value)
                        except ValueError:
                            row[key] = value
            rows.append(row)
    return rows


# -- tables -----------------------------------------------------------------------------------------


def _problem_rows(rows: Iterable[dict]) -> list[dict]:
    return [r for r in rows if r["algorithm"] not in ("trees", "preprocessing")]


def figure2_table(rows: Sequence[dict]) -> list[dict]:
    """The paper's Figure 2 over every problem: mean cost, cost above optimal (ratio of the means, as
    the paper's 220 vs 198), mean time of the first planning episode and total time (ms), and more."""
    rows = _problem_rows(rows)
    table = []
    for algorithm, label in ALGORITHM_LABELS.items():
        mine = [r for r in rows if r["algorithm"] == algorithm]
        if not mine:
            continue
        reached = [r for r in mine if r["reached"]]
        cost = statistics.fmean(r["cost"] for r in reached) if reached else float("nan")
        optimal = statistics.fmean(r["optimal"] for r in reached) if reached else float("nan")
        paper = PAPER_FIGURE_2.get(algorithm)
        table.append({
            "algorithm": label, "problems": len(mine), "reached": len(reached), "cost": cost,
            "above_optimal_%": 100 * (cost / optimal - 1),
            "first_search_ms": statistics.fmean(r["first_episode_ms"] for r in mine),
            "total_ms": statistics.fmean(r["total_ms"] for r in mine),
            "expansions": statistics.fmean(r["expansions"] for r in mine),
            "moves": statistics.fmean(r["moves"] for r in mine),
            "paper_cost": paper[0] if paper else "", "paper_first_ms": paper[1] if paper else "",
            "paper_total_ms": paper[2] if paper else "",
        })
    return table


FIGURE2_COLUMNS = [("algorithm", "algorithm"), ("problems", "problems"), ("reached", "reached"), ("cost", "cost"),
                   ("above_optimal_%", "above optimal [%]"), ("first_search_ms", "time first search [ms]"),
                   ("total_ms", "total time [ms]"), ("expansions", "expansions"), ("moves", "moves"),
                   ("paper_cost", "paper: cost"), ("paper_first_ms", "paper: first [ms]"),
                   ("paper_total_ms", "paper: total [ms]")]


def per_map_table(rows: Sequence[dict]) -> list[dict]:
    """Per map: optimal cost and each algorithm's cost above optimal and total time."""
    rows = _problem_rows(rows)
    table = []
    for label in dict.fromkeys(r["map"] for r in rows):
        mine = [r for r in rows if r["map"] == label]
        one_each = list({r["problem"]: r for r in mine}.values())   # one row per problem
        with_tree = list({r["problem"]: r for r in mine if r["tree_size"] == r["tree_size"]}.values())   # NaN: no tree
        line: dict[str, Any] = {"map": label, "problems": len(one_each),
                                "optimal": statistics.fmean(r["optimal"] for r in one_each)}
        for algorithm, name in ALGORITHM_LABELS.items():
            runs = [r for r in mine if r["algorithm"] == algorithm and r["reached"]]
            if runs:
                line[f"{name}: above optimal [%]"] = 100 * (statistics.fmean(r["cost"] for r in runs)
                                                            / statistics.fmean(r["optimal"] for r in runs) - 1)
                line[f"{name}: total [ms]"] = statistics.fmean(r["total_ms"] for r in runs)
        line["tree size"] = statistics.fmean(r["tree_size"] for r in with_tree) if with_tree else float("nan")
        table.append(line)
    return table


def trees_table(rows: Sequence[dict]) -> list[dict]:
    """Per map: free cells, trees built, tree sizes, CPU time for every tree (compiled twin)."""
    return [{key: r[key] for key in ("map", "free_cells", "trees_built", "tree_size_mean", "tree_size_min",
                                     "tree_size_max", "trees_s", "all_trees_s")}
            for r in rows if r["algorithm"] == "trees"]


def first_goal_table(rows: Sequence[dict]) -> list[dict]:
    """The two readings of Algorithm 3's line 5 side by side: over every problem, and over the
    problems where they pick different first goals."""
    rows = _problem_rows(rows)
    by_problem: dict[tuple, dict[str, dict]] = {}
    for r in rows:
        by_problem.setdefault((r["map"], r["problem"]), {})[r["algorithm"]] = r
    pairs = [(p["lrta_subgoal"], p["lrta_subgoal_sub"]) for p in by_problem.values()
             if "lrta_subgoal" in p and "lrta_subgoal_sub" in p and p["lrta_subgoal"]["reached"]
             and p["lrta_subgoal_sub"]["reached"]]
    differ = [(a, b) for a, b in pairs if a["first_goal"] != b["first_goal"]]
    table = []
    for subset, name in ((pairs, "every problem"), (differ, "first goals differ")):
        if not subset:
            continue
        optimal = statistics.fmean(a["optimal"] for a, _ in subset)
        table.append({"problems": name, "count": len(subset),
                      "line 5 as written: above optimal [%]": 100 * (statistics.fmean(a["cost"] for a, _ in subset) / optimal - 1),
                      "Sub(start): above optimal [%]": 100 * (statistics.fmean(b["cost"] for _, b in subset) / optimal - 1),
                      "Sub(start) cheaper": sum(b["cost"] < a["cost"] for a, b in subset),
                      "as written cheaper": sum(a["cost"] < b["cost"] for a, b in subset)})
    return table


def preprocessing_table(rows: Sequence[dict]) -> list[dict]:
    """Per preprocessing (subgoal trees, kNN LRTA*'s records, D LRTA*'s database), over the maps:
    the mean CPU seconds per map (of the engine that timed them), the smallest and largest, and what it holds."""
    table = []
    methods = {"subgoal_trees": "subgoal trees (every free cell; extrapolated)", **ALGORITHM_LABELS}
    # one row per (method, map): runs read back together may time the same preprocessing twice; the last counts
    pre = list({(r["method"], r["map"]): r for r in rows if r["algorithm"] == "preprocessing"}.values())
    for method, label in methods.items():
        mine = [r for r in pre if r["method"] == method]
        if mine:
            table.append({"preprocessing": label, "maps": len(mine),
                          "mean s per map": statistics.fmean(r["preprocessing_s"] for r in mine),
                          "min s": min(r["preprocessing_s"] for r in mine),
                          "max s": max(r["preprocessing_s"] for r in mine),
                          "size (mean tree arcs / records / regions)": statistics.fmean(r["database_size"] for r in mine)})
    return table


#: The four Baldur's Gate maps, standing in for "the maps of Bulitko and Björnsson (2009)".
BULITKO_BJORNSSON_MAPS = ("AR0204SR", "AR0701SR", "AR0307SR", "AR0411SR")


def _above_optimal(cost, optimal) -> float:
    return 100 * (float(np.sum(cost)) / float(np.sum(optimal)) - 1)


def _ratio_interval(pairs: Sequence[tuple[float, float]], fallback: float) -> tuple[float, float]:
    """95% bootstrap interval of mean(second) / mean(first) over paired problems (``fallback`` twice
    with fewer than two pairs)."""
    if len(pairs) < 2:
        return fallback, fallback
    return bootstrap_interval(pairs, lambda x, y: float(np.mean(y) / np.mean(x)))


def _paired(rows: Sequence[dict], first: str, second: str, maps: Sequence[str] | None = None,
            solved: bool = True) -> list[tuple[dict, dict]]:
    """The problems both algorithms solved (``solved=False``: ran) on ``maps`` (None: all), as pairs of rows."""
    by_problem: dict[tuple, dict[str, dict]] = {}
    for r in _problem_rows(rows):
        if maps is None or r["map"] in maps:
            by_problem.setdefault((r["map"], r["problem"]), {})[r["algorithm"]] = r
    return [(p[first], p[second]) for p in by_problem.values()
            if first in p and second in p and (not solved or (p[first]["reached"] and p[second]["reached"]))]


def _quality(pairs: Sequence[tuple[dict, dict]], side: int) -> tuple[float, tuple[float, float]]:
    """% above optimal of one side (0: the first algorithm, 1: the second) of paired rows, and its
    95% bootstrap interval."""
    data = [(p[side]["cost"], p[side]["optimal"]) for p in pairs]
    return _above_optimal(*np.asarray(data).T), bootstrap_interval(data, _above_optimal)


def _quality_difference(pairs: Sequence[tuple[dict, dict]]) -> tuple[float, float]:
    """The 95% paired bootstrap interval of the first side's % above optimal minus the second's."""
    both = [(a["cost"], a["optimal"], b["cost"], b["optimal"]) for a, b in pairs]
    return bootstrap_interval(both, lambda c1, o1, c2, o2: _above_optimal(c1, o1) - _above_optimal(c2, o2))


def _words(value: float, interval: tuple[float, float]) -> str:
    return f"{value:.1f}% [{interval[0]:.1f}, {interval[1]:.1f}]"


def _preprocessing_ratio(rows: Sequence[dict], method: str, maps: Sequence[str]
                         ) -> tuple[float, float, float, tuple[float, float] | None, int] | None:
    """Mean preprocessing seconds per map of the subgoal trees and of ``method`` over the ``maps`` both
    ran, their ratio, its 95% bootstrap interval over those maps (None for one map) and the number of
    maps (None if no map has both)."""
    pre: dict[str, dict[str, float]] = {}
    for r in rows:
        if r["algorithm"] == "preprocessing":
            pre.setdefault(r["method"], {})[r["map"]] = r["preprocessing_s"]
    if method not in pre or "subgoal_trees" not in pre:
        return None
    common = [m for m in maps if m in pre[method] and m in pre["subgoal_trees"]]
    if not common:
        return None
    mine = statistics.fmean(pre["subgoal_trees"][m] for m in common)
    other = statistics.fmean(pre[method][m] for m in common)
    interval = _ratio_interval([(pre["subgoal_trees"][m], pre[method][m]) for m in common], 0.0) if len(common) > 1 else None
    return mine, other, other / mine, interval, len(common)


def _factor_verdict(value: float, interval: tuple[float, float] | None, target: float, factor: float) -> tuple[str, str]:
    """The verdict on "``value`` within ``factor`` of ``target``" on its 95% interval (inconclusive
    without one: a single map), and the interval in words."""
    if interval is None:
        return INCONCLUSIVE, " (one map: no interval)"
    return verdict(*interval, above=target / factor, below=target * factor), f" [{interval[0]:.2f}, {interval[1]:.2f}]"


#: Why the subgoal trees' preprocessing differs from the others' (said where a factor claim fails).
PREPROCESSING_BECAUSE = (": does not hold, because the subgoal trees are one backward Dijkstra search per free "
                         "cell, the others' preprocessing a search per record or per abstract region")


def _knn_pairs(rows: Sequence[dict], knn: str) -> tuple[list[tuple[dict, dict]], str] | None:
    """The problems of Bulitko and Björnsson's maps both LRTA* with subgoaling and ``knn`` solved with a
    record (the paper's figure measures kNN LRTA*: a problem where no record fitted ran plain LRTA*,
    thousands of times the optimal cost, and is counted apart), and the words saying how many had
    none; None with fewer than two such problems."""
    present = {r["algorithm"] for r in _problem_rows(rows)}
    if knn not in present or "lrta_subgoal" not in present:
        return None
    every_pair = _paired(rows, "lrta_subgoal", knn, list(BULITKO_BJORNSSON_MAPS))
    pairs = [(a, b) for a, b in every_pair if b.get("record_used", True)]
    if len(pairs) < 2:
        return None
    fallback = len(every_pair) - len(pairs)
    return pairs, (f"; {fallback} of {len(every_pair)} problems ({100 * fallback / len(every_pair):.1f}%) "
                   "had no usable record (plain LRTA*) and are left out")


def subgoaling_beats_knn(rows: Sequence[dict], knn: str, paper_quality: float) -> Finding | None:
    """LRTA* with subgoaling finds better solutions than kNN LRTA*: the paired bootstrap interval of
    the difference in % above optimal (subgoaling's minus kNN's, on the same problems) below 0."""
    found = _knn_pairs(rows, knn)
    if found is None:
        return None
    pairs, fallback_words = found
    (sub, sub_ci), (other, other_ci) = _quality(pairs, 0), _quality(pairs, 1)
    low, high = _quality_difference(pairs)
    label, judged = ALGORITHM_LABELS[knn], verdict(low, high, below=0)
    return Finding(
        f"On the maps of Bulitko and Björnsson, LRTA* with subgoaling (13% above optimal) finds better solutions "
        f"than {label} ({paper_quality}%)", judged,
        f"{len(pairs)} problems on {', '.join(sorted({a['map'] for a, _ in pairs}))}: LRTA*+sub {_words(sub, sub_ci)}, "
        f"{label} {_words(other, other_ci)}; difference {sub - other:+.1f} points [{low:+.1f}, {high:+.1f}] (paired "
        f"95% bootstrap interval){fallback_words}"
        + ("" if judged != DOES_NOT_HOLD else f": does not hold, because {label} is ahead on the same problems"))


def knn_quality_as_paper(rows: Sequence[dict], knn: str, paper_quality: float) -> Finding | None:
    """kNN LRTA*'s % above optimal within a factor of 1.5 of the paper's (its bootstrap interval
    inside that band)."""
    found = _knn_pairs(rows, knn)
    if found is None:
        return None
    pairs, fallback_words = found
    other, other_ci = _quality(pairs, 1)
    label, judged = ALGORITHM_LABELS[knn], verdict(*other_ci, above=paper_quality / 1.5, below=paper_quality * 1.5)
    return Finding(
        f"{label} is {paper_quality}% above optimal on those maps (within a factor of 1.5: "
        f"{paper_quality / 1.5:.0f}-{paper_quality * 1.5:.0f}%)", judged,
        f"{_words(other, other_ci)}, {len(pairs)} problems{fallback_words}" + ("" if judged != DOES_NOT_HOLD else
            f": does not hold, because the kit's {label} is {'better' if other < paper_quality else 'worse'} "
            "than that on these problems"))


#: kNN LRTA*'s preprocessing claims: the words, and the paper's factor over the subgoal trees' time.
KNN_PREPROCESSING = {
    "knn_lrta_1000": ("computes subgoals in a time comparable to LRTA* with subgoaling's trees (51.6 s on those maps; "
                      "within a factor of 3)", 1),
    "knn_lrta_10000": ("needs 6.23 minutes of preprocessing, 7.2× the subgoal trees' 51.6 s (within a factor of 3: "
                       "2.4-22×)", 7.2),
}


def knn_preprocessing_as_paper(rows: Sequence[dict], knn: str) -> Finding | None:
    """kNN LRTA*'s preprocessing time over the subgoal trees' within a factor of 3 of the paper's."""
    ratio = _preprocessing_ratio(rows, knn, BULITKO_BJORNSSON_MAPS) if _knn_pairs(rows, knn) else None
    if ratio is None:
        return None
    mine, theirs, factor, interval, count = ratio
    (claim, paper_factor), label = KNN_PREPROCESSING[knn], ALGORITHM_LABELS[knn]
    judged, words = _factor_verdict(factor, interval, paper_factor, 3)
    return Finding(
        f"{label} {claim}", judged,
        f"{_preprocessing_words(rows)}, CPU seconds per map, mean over {count} map(s): subgoal trees of every free cell "
        f"{mine:.0f} s (extrapolated from a sample per map), {label} {theirs:.0f} s: {factor:.2f}×{words} (95% "
        "bootstrap interval over the maps)" + ("" if judged != DOES_NOT_HOLD else PREPROCESSING_BECAUSE))


def _solved_pairs(rows: Sequence[dict], other: str) -> list[tuple[dict, dict]] | None:
    """The problems both LRTA* with subgoaling and ``other`` solved (None with fewer than two)."""
    present = {r["algorithm"] for r in _problem_rows(rows)}
    if other not in present or "lrta_subgoal" not in present:
        return None
    pairs = _paired(rows, "lrta_subgoal", other)
    return pairs if len(pairs) >= 2 else None


def d_lrta_quality_comparable(rows: Sequence[dict], d: str) -> Finding | None:
    """LRTA* with subgoaling within 10 points above optimal of D LRTA* (the paired bootstrap interval
    of the difference inside -10 to +10)."""
    pairs = _solved_pairs(rows, d)
    if pairs is None:
        return None
    (sub, sub_ci), (other, other_ci) = _quality(pairs, 0), _quality(pairs, 1)
    low, high = _quality_difference(pairs)
    label, judged = ALGORITHM_LABELS[d], verdict(low, high, above=-10, below=10)
    d_rows = [r for r in _problem_rows(rows) if r["algorithm"] == d]
    solved = (f" ({label} reached {sum(r['reached'] for r in d_rows)} of {len(d_rows)} goals within "
              f"{D_LRTA_MOVE_FACTOR}× the optimal cost in actions; the others are left out)")
    return Finding(
        f"LRTA* with subgoaling finds solutions of a quality comparable to {label}'s (within 10 points above "
        "optimal)", judged, f"{len(pairs)} problems on {', '.join(sorted({p[0]['map'] for p in pairs}))}: LRTA*+sub "
        f"{_words(sub, sub_ci)}, {label} {_words(other, other_ci)}; difference {sub - other:+.1f} points "
        f"[{low:+.1f}, {high:+.1f}] (paired){solved}"
        + ("" if judged != DOES_NOT_HOLD else f": does not hold, because they differ by {abs(sub - other):.1f} points"))


def d_lrta_preprocessing_comparable(rows: Sequence[dict], d: str) -> Finding | None:
    """The subgoal trees' preprocessing time within a factor of 3 of D LRTA*'s."""
    pairs = _solved_pairs(rows, d)
    ratio = None if pairs is None else _preprocessing_ratio(rows, d, sorted({p[0]["map"] for p in pairs}))
    if ratio is None:
        return None
    mine, theirs, factor, interval, count = ratio
    label, (judged, words) = ALGORITHM_LABELS[d], _factor_verdict(factor, interval, 1, 3)
    return Finding(
        f"... and preprocessing times comparable to {label}'s (within a factor of 3)", judged,
        f"{_preprocessing_words(rows)}, CPU seconds per map, mean over {count} map(s): subgoal trees {mine:.0f} s, "
        f"{label} {theirs:.0f} s: {factor:.2f}×{words} (95% bootstrap interval over the maps)"
        + ("" if judged != DOES_NOT_HOLD else PREPROCESSING_BECAUSE))


def d_lrta_5_expands_more(rows: Sequence[dict]) -> Finding | None:
    """D LRTA* (5) needs 19.98 times LRTA* with subgoaling's expansions (within a factor of 3: the
    paired bootstrap interval of the ratio inside 6.7-60)."""
    pairs = _solved_pairs(rows, "d_lrta_5")
    if pairs is None:
        return None
    expansions = statistics.fmean(b["expansions"] for _, b in pairs) / statistics.fmean(a["expansions"] for a, _ in pairs)
    interval = bootstrap_interval([(a["expansions"], b["expansions"]) for a, b in pairs],
                                  lambda x, y: float(np.mean(y) / np.mean(x)))
    judged = verdict(*interval, above=19.98 / 3, below=19.98 * 3)
    return Finding(
        f"{ALGORITHM_LABELS['d_lrta_5']} requires 19.98 times more expansions than LRTA* with subgoaling (within a "
        "factor of 3: 6.7-60)", judged,
        f"{expansions:.2f}× [{interval[0]:.2f}, {interval[1]:.2f}] (mean expansions per problem, {len(pairs)} "
        "problems)" + ("" if judged != DOES_NOT_HOLD else ": does not hold, because the depths D LRTA* (5) reads from its database "
                       "toward the next region's representative are mostly shallow on these maps"))


def rival_needs_more_time(rows: Sequence[dict], rival: str) -> Finding | None:
    """The rival needs more total planning time than LRTA* with subgoaling: the paired bootstrap
    interval of the ratio of their mean times above 1."""
    pairs = _solved_pairs(rows, rival)
    if pairs is None:
        return None
    per_episode = statistics.fmean(b["expansions"] / max(b["episodes"], 1) for _, b in pairs)
    time_ratio = statistics.fmean(b["total_ms"] for _, b in pairs) / statistics.fmean(a["total_ms"] for a, _ in pairs)
    interval = bootstrap_interval([(a["total_ms"], b["total_ms"]) for a, b in pairs], lambda x, y: float(np.mean(y) / np.mean(x)))
    judged = verdict(*interval, above=1)
    return Finding(
        f"{ALGORITHM_LABELS[rival]} needs more total planning time than LRTA* with subgoaling (the paper: it "
        "needs several expansions per planning episode)", judged,
        f"total planning time {time_ratio:.2f}× LRTA*+sub's [{interval[0]:.2f}, {interval[1]:.2f}] ({len(pairs)} "
        f"problems, {_engine_words([a for a, _ in pairs] + [b for _, b in pairs])}); {per_episode:.3f} expansions per "
        "episode (LRTA*+sub: 1): " + ("the kit's version looks ahead one state, plus the hill-climbing checks of its "
                                      "first episode" if "knn" in rival else "a breadth-first search to the depth its "
                                      "database stores, as Bulitko et al. (2007) define it")
        + ("" if judged != DOES_NOT_HOLD else "; does not hold, because the interval puts it below LRTA*+sub's"))


def _d_lrta_claims(d: str) -> list[Claim]:
    """D LRTA* ``d``'s claims: quality and preprocessing, and for D LRTA* (5) its expansions."""
    claims: list[Claim] = [partial(d_lrta_quality_comparable, d=d), partial(d_lrta_preprocessing_comparable, d=d)]
    return claims + [d_lrta_5_expands_more] if d == "d_lrta_5" else claims


#: The paper's kNN LRTA* numbers on Bulitko and Björnsson's maps (% above optimal).
KNN_QUALITY = {"knn_lrta_1000": 49.91, "knn_lrta_10000": 19.52}
D_LRTA = tuple(a for a in DATABASE_ALGORITHMS if a.startswith("d_lrta"))
#: The paper's claims about kNN LRTA* and D LRTA* (quoted from Bulitko and Björnsson 2009), in order.
COMPARISON_CLAIMS: list[Claim] = [
    *(claim for knn, paper in KNN_QUALITY.items()
      for claim in (partial(subgoaling_beats_knn, knn=knn, paper_quality=paper),
                    partial(knn_quality_as_paper, knn=knn, paper_quality=paper),
                    partial(knn_preprocessing_as_paper, knn=knn))),
    *(claim for d in D_LRTA for claim in _d_lrta_claims(d)),
    *(partial(rival_needs_more_time, rival=rival) for rival in DATABASE_ALGORITHMS),
]


def comparison_findings(rows: Sequence[dict]) -> list[Finding]:
    """The paper's claims about kNN LRTA* and D LRTA* (:data:`COMPARISON_CLAIMS`), checked on the
    problems both algorithms of a claim solved; 95% bootstrap intervals."""
    return check(COMPARISON_CLAIMS, rows)


# -- the paper's findings ---------------------------------------------------------------------------


def _preprocessing_words(rows: Sequence[dict]) -> str:
    """Which code timed the rows' preprocessing (``kNN LRTA*``'s and ``D LRTA*``'s, and the sampled trees)."""
    engines = {r.get("engine", "python") for r in rows if r["algorithm"] == "preprocessing"}
    words = {"compiled": "compiled searches (Numba)", "python": "readable code"}
    return " and ".join(words[e] for e in sorted(engines)) or "no preprocessing"


def _over_maps(values: Sequence[float], target: float, factor: float) -> tuple[str, str]:
    """The verdict on "the mean over the maps of ``values`` within ``factor`` of ``target``", judged on
    its 95% interval (Student's t over the maps; inconclusive for one map), and the interval in words."""
    mean, half = statistics.fmean(values), ci95(values)
    if len(values) < 2:
        return INCONCLUSIVE, "one map: no interval"
    return (verdict(mean - half, mean + half, above=target / factor, below=target * factor),
            f"{mean - half:,.1f}-{mean + half:,.1f} (95% CI over the {len(values)} maps)")


#: Figure 2's lines by algorithm label (:func:`figure2_table`): the table the headline claims read.
Figure2 = dict[str, dict]


def subgoaling_near_optimal(rows: Sequence[dict], figure2: Figure2) -> Finding | None:
    """LRTA* with subgoaling is about 11% above optimal: 6-16%, judged on a bootstrap interval."""
    sub = figure2.get(ALGORITHM_LABELS["lrta_subgoal"])
    if not sub:
        return None
    above = sub["above_optimal_%"]
    solved = [(r["cost"], r["optimal"]) for r in _problem_rows(rows) if r["algorithm"] == "lrta_subgoal" and r["reached"]]
    low, high = bootstrap_interval(solved, _above_optimal) if len(solved) > 1 else (above, above)
    judged = verdict(low, high, above=6, below=16)
    return Finding(
        "LRTA* with subgoaling finds solutions about 11% above optimal (within 5 points: 6-16%)",
        judged, f"{above:.1f}% above optimal [{low:.1f}, {high:.1f}] (95% bootstrap interval; mean cost "
        f"{sub['cost']:.1f}, {sub['reached']} problems)"
        + ("" if judged != DOES_NOT_HOLD else ": does not hold, because a few problems carry the mean") + ". "
        + excess_tail(rows, "lrta_subgoal") + " " + per_map_excess(rows, "lrta_subgoal")
        + (" The paper names none of its eight maps (\"the four videogame maps used by Bulitko and Björnsson "
           "(2009)\", two Baldur's Gate and two World of Warcraft, \"and 4 maps from the game Dragon Age: "
           "Origins\"), so its per-map numbers cannot be matched to ours; it reports 13% on the four maps of "
           "Bulitko and Björnsson."))


def lrta_two_orders_worse(rows: Sequence[dict], figure2: Figure2) -> Finding | None:
    """LRTA*'s mean cost over LRTA* with subgoaling's is 10^1.5-10^2.5 (paired bootstrap interval)."""
    sub, lrta = (figure2.get(ALGORITHM_LABELS[a]) for a in ("lrta_subgoal", "lrta"))
    if not (sub and lrta):
        return None
    ratio = lrta["cost"] / sub["cost"]
    pairs = [(a["cost"], b["cost"]) for a, b in _paired(rows, "lrta_subgoal", "lrta")]
    low, high = _ratio_interval(pairs, ratio)
    return Finding(
        "LRTA* is two orders of magnitude worse in solution cost (a ratio of 10^1.5 to 10^2.5, 32-316)",
        verdict(low, high, above=10 ** 1.5, below=10 ** 2.5),
        f"mean cost LRTA* {lrta['cost']:.0f} vs {sub['cost']:.1f}: {ratio:.0f}× [{low:.0f}, {high:.0f}] (95% "
        f"bootstrap interval over the {len(pairs)} problems both solved)")


def subgoaling_faster_than(rows: Sequence[dict], figure2: Figure2, name: str, paper_ratio: float) -> Finding | None:
    """LRTA* with subgoaling is ``paper_ratio`` times faster in total time than ``name`` (within a
    factor of 3, on a paired bootstrap interval over every problem both ran)."""
    sub, other = figure2.get(ALGORITHM_LABELS["lrta_subgoal"]), figure2.get(ALGORITHM_LABELS[name])
    if not (sub and other):
        return None
    ratio = other["total_ms"] / sub["total_ms"]
    times = [(a["total_ms"], b["total_ms"]) for a, b in _paired(rows, "lrta_subgoal", name, solved=False)]
    low, high = _ratio_interval(times, ratio)
    return Finding(
        f"LRTA* with subgoaling is {paper_ratio}× faster in total time than {other['algorithm']} "
        f"(within a factor of 3: {paper_ratio / 3:.1f}-{paper_ratio * 3:.0f}×)",
        verdict(low, high, above=paper_ratio / 3, below=paper_ratio * 3),
        f"{other['total_ms']:.2f} ms vs {sub['total_ms']:.3f} ms: {ratio:.1f}× [{low:.1f}, {high:.1f}] (95% "
        f"bootstrap interval, {len(times)} problems)")


def first_episode_longest(rows: Sequence[dict], figure2: Figure2) -> Finding | None:
    """LRTA* with subgoaling's first planning episode takes longer than its mean episode: the paired
    bootstrap interval of the ratio (first episode over mean episode, means over the problems) above 1."""
    sub = figure2.get(ALGORITHM_LABELS["lrta_subgoal"])
    if not sub:
        return None
    times = [(r["total_ms"] / r["episodes"], r["first_episode_ms"]) for r in _problem_rows(rows)
             if r["algorithm"] == "lrta_subgoal" and r["episodes"]]
    if not times:
        return None
    later = statistics.fmean(mean for mean, _ in times)
    first = statistics.fmean(first for _, first in times)
    low, high = _ratio_interval(times, first / later)
    return Finding(
        "LRTA* with subgoaling spends more time in its first planning episode than in the others "
        "(0.024 vs 0.001 ms)", verdict(low, high, above=1),
        f"first {first * 1e3:.1f} µs, mean episode {later * 1e3:.1f} µs: {first / later:.1f}× [{low:.1f}, {high:.1f}] "
        f"(95% bootstrap interval, {len(times)} problems)")


def line_8_reaches_every_goal(rows: Sequence[dict], figure2: Figure2, written: str, fixed: str) -> Finding | None:
    """The kit's check: Algorithm 3 with line 8 as written (``written``) reaches every goal; beside it
    the variant that switches subgoals on arrival (``fixed``). An exact count."""
    mine, other = figure2.get(ALGORITHM_LABELS[written]), figure2.get(ALGORITHM_LABELS[fixed])
    if not (mine and other):
        return None
    return Finding(
        f"(the kit's check, not the paper's) {mine['algorithm']} reaches every goal; with line 8 as written "
        f"it may cycle (a run ends unreached after {MAX_MOVES:,} moves)",
        mine["reached"] == mine["problems"],
        f"reached {mine['reached']} of {mine['problems']}; switching on arrival: {other['reached']} of "
        f"{other['problems']}, {other['above_optimal_%']:.1f}% above optimal")


def trees_hold_200_states(rows: Sequence[dict], figure2: Figure2) -> Finding | None:
    """Subgoal trees hold 198 states on average (within a factor of 1.5): the mean over the maps of
    each map's mean size, judged on its interval over the maps (the paper's maps are others)."""
    trees = trees_table(rows)
    if not trees:
        return None
    size = statistics.fmean(t["tree_size_mean"] for t in trees)
    cells = statistics.fmean(t["free_cells"] for t in trees)
    judged, interval = _over_maps([t["tree_size_mean"] for t in trees], 198, 1.5)
    return Finding(
        "Subgoal trees hold about 200 states on average (198) on maps of about 18,000 free cells (17,789) "
        "(within a factor of 1.5: 132-297)", judged,
        f"{size:.0f} arcs on average, {interval} ({size / 198:.2f}× the paper's; the largest tree is judged apart, below) "
        f"over the {sum(t['trees_built'] for t in trees):,} trees of the {len(trees)} maps, on maps of "
        f"{cells:,.0f} free cells on average; per map " + ", ".join(f"{t['map']} {t['tree_size_mean']:.0f}" for t in trees))


def largest_tree_255_states(rows: Sequence[dict], figure2: Figure2) -> Finding | None:
    """The largest subgoal tree has 255 states (within a factor of 1.5): exact when every tree was built,
    a lower bound when a sample was."""
    trees = trees_table(rows)
    if not trees:
        return None
    largest = max(trees, key=lambda t: t["tree_size_max"])
    # Every tree built: the largest is an exact count. A sample of trees: the largest built is a lower
    # bound on the map's largest (docs/verdicts.md, "Bounds").
    sampled = any(t["trees_built"] < t["free_cells"] for t in trees)
    judged = verdict(largest["tree_size_max"], largest["tree_size_max"], above=255 / 1.5, below=255 * 1.5,
                     bound="lower" if sampled else None)
    return Finding(
        "The largest subgoal tree has 255 states (within a factor of 1.5: 170-383)", judged,
        ("" if judged != DOES_NOT_HOLD else "does not hold, because some of our maps hold larger trees than any of "
         "the paper's (whose maps it does not name): ")
        + ("(the largest of a sample of trees per map: a lower bound) " if sampled else "")
        + f"largest {largest['tree_size_max']} arcs ({largest['tree_size_max'] / 255:.2f} x the paper's, on "
        f"{largest['map']}); the largest per map " + ", ".join(f"{t['map']} {t['tree_size_max']}" for t in trees)
        + f"; smallest {min(t['tree_size_min'] for t in trees)} (the paper: 0, a cell surrounded by obstacles)")


def trees_built_in_73_seconds(rows: Sequence[dict], figure2: Figure2) -> Finding | None:
    """Building every tree of a map takes 73.5 s (within a factor of 3), judged on the interval over the maps."""
    trees = trees_table(rows)
    if not trees:
        return None
    seconds = statistics.fmean(t["all_trees_s"] for t in trees)
    judged, interval = _over_maps([t["all_trees_s"] for t in trees], 73.5, 3)
    return Finding(
        "Building every tree of a map takes about 73.5 s (C++, 2011; the kit's compiled twin, "
        "within a factor of 3: 24-220 s)", judged,
        f"{seconds:.1f} s on average, {interval}, from {min(t['all_trees_s'] for t in trees):.1f} to "
        f"{max(t['all_trees_s'] for t in trees):.1f} s")


#: The paper's headline claims (and the kit's check of line 8), in the order findings.md lists them.
CLAIMS: list[Claim] = [
    subgoaling_near_optimal, lrta_two_orders_worse,
    partial(subgoaling_faster_than, name="astar", paper_ratio=12.4),
    partial(subgoaling_faster_than, name="lrta", paper_ratio=137.4),
    first_episode_longest,
    partial(line_8_reaches_every_goal, written="lrta_subgoal", fixed="lrta_subgoal_arrival"),
    partial(line_8_reaches_every_goal, written="lrta_subgoal_sub", fixed="lrta_subgoal_sub_arrival"),
    trees_hold_200_states, largest_tree_255_states, trees_built_in_73_seconds,
]


def findings(rows: Sequence[dict]) -> list[Finding]:
    """The paper's headline claims (:data:`CLAIMS`) checked on ``rows``; each tolerance is in its claim."""
    return check(CLAIMS, rows, {line["algorithm"]: line for line in figure2_table(rows)})


def excess_tail(rows: Sequence[dict], algorithm: str, worst: int = 20) -> str:
    """How much of the total cost above optimal (summed over the solved problems) the ``worst``
    problems make, and the mean above optimal without them: whether a few problems carry the mean.

    >>> rows = [{"algorithm": "a", "reached": True, "cost": c, "optimal": 10.0} for c in (10.0, 11.0, 19.0)]
    >>> excess_tail(rows, "a", worst=1)        # excess 0 + 1 + 9 = 10; the worst makes 9 of it
    'The 1 worst of 3 problems make 90% of the total cost above optimal; without them the mean is 5.0% above optimal (with them 33.3%).'
    """
    mine = [r for r in _problem_rows(rows) if r["algorithm"] == algorithm and r["reached"]]
    if len(mine) <= worst:
        return ""
    mine.sort(key=lambda r: r["cost"] - r["optimal"], reverse=True)
    total = sum(r["cost"] - r["optimal"] for r in mine)
    top = sum(r["cost"] - r["optimal"] for r in mine[:worst])
    rest = mine[worst:]
    without = 100 * (statistics.fmean(r["cost"] for r in rest) / statistics.fmean(r["optimal"] for r in rest) - 1)
    with_all = 100 * (statistics.fmean(r["cost"] for r in mine) / statistics.fmean(r["optimal"] for r in mine) - 1)
    text = (f"The {worst} worst of {len(mine)} problems make {100 * top / total:.0f}% of the total cost above optimal; "
            f"without them the mean is {without:.1f}% above optimal (with them {with_all:.1f}%).")
    if algorithm == "lrta_subgoal":  # the same problems with the first goal Sub(start) instead of line 5's
        worst_keys = {(r["map"], r["problem"]) for r in mine[:worst]}
        other = [r for r in _problem_rows(rows) if r["algorithm"] == "lrta_subgoal_sub" and r["reached"]
                 and (r["map"], r["problem"]) in worst_keys]
        if other:
            text += (f" On these {len(other)} problems the first goal Sub(start) (the kit's variant) is "
                     f"{100 * (statistics.fmean(r['cost'] for r in other) / statistics.fmean(r['optimal'] for r in other) - 1):.1f}% "
                     f"above optimal, line 5's (the tree state nearest by heuristic) "
                     f"{100 * (statistics.fmean(r['cost'] for r in mine[:worst]) / statistics.fmean(r['optimal'] for r in mine[:worst]) - 1):.0f}%.")
    return text


def per_map_excess(rows: Sequence[dict], algorithm: str) -> str:
    """Per map: % above optimal (ratio of the means over its solved problems)."""
    parts = []
    for label in dict.fromkeys(r["map"] for r in _problem_rows(rows)):
        mine = [r for r in _problem_rows(rows) if r["map"] == label and r["algorithm"] == algorithm and r["reached"]]
        if len(mine) < 2:
            continue
        above = 100 * (statistics.fmean(r["cost"] for r in mine) / statistics.fmean(r["optimal"] for r in mine) - 1)
        parts.append(f"{label} {above:.1f}%")
    return "Per map: " + ", ".join(parts) + "." if parts else ""


# -- figures ----------------------------------------------------------------------------------------


def plot_suboptimality(rows: Sequence[dict]):
    """Per map, each algorithm's solution cost over the optimal one (box plots, log scale)."""
    from matplotlib.figure import Figure

    rows = _problem_rows(rows)
    labels = list(dict.fromkeys(r["map"] for r in rows))
    algorithms = [a for a in ALGORITHM_LABELS if a != "astar"]
    algorithms = [a for a in algorithms if any(r["algorithm"] == a for r in rows)]
    figure = Figure(figsize=(15, 5.2), layout="constrained")
    ax = figure.subplots()
    width = 0.8 / len(algorithms)
    for k, algorithm in enumerate(algorithms):
        colour = ALGORITHM_COLOURS[algorithm]
        data = [[r["cost"] / r["optimal"] for r in rows if r["map"] == label and r["algorithm"] == algorithm
                 and r["reached"] and r["optimal"] > 0] for label in labels]
        positions = [i + (k - (len(algorithms) - 1) / 2) * width for i in range(len(labels))]
        parts = ax.boxplot(data, positions=positions, widths=width * 0.9, patch_artist=True, showfliers=True,
                           flierprops={"markersize": 2})
        for box in parts["boxes"]:
            box.set_facecolor(colour)
            box.set_alpha(0.6)
        ax.plot([], [], "s", color=colour, alpha=0.6, label=ALGORITHM_LABELS[algorithm])
    ax.set_yscale("log")
    ax.set_xticks(range(len(labels)), labels)
    ax.axhline(1.0, color="black", linewidth=0.8, label="optimal (A*)")
    ax.set(title="Solution cost over optimal, per problem", ylabel="cost / optimal cost (log)")
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))   # beside the plot, off the outliers
    ax.grid(alpha=0.3, axis="y")
    return figure


def plot_times(rows: Sequence[dict]):
    """Mean total planning time and first-episode time per algorithm, per map (log scale)."""
    from matplotlib.figure import Figure

    rows = _problem_rows(rows)
    labels = list(dict.fromkeys(r["map"] for r in rows))
    algorithms = [a for a in ALGORITHM_LABELS if any(r["algorithm"] == a for r in rows)]
    figure = Figure(figsize=(11, 4.6 + 0.2 * -(-len(algorithms) // 4)), layout="constrained")
    axes = figure.subplots(1, 2)
    for ax, column, title in ((axes[0], "total_ms", "total planning time"),
                              (axes[1], "first_episode_ms", "time of the first planning episode")):
        for algorithm in algorithms:
            values = [[r[column] for r in rows if r["map"] == m and r["algorithm"] == algorithm] for m in labels]
            means = [statistics.fmean(v) if v else float("nan") for v in values]   # NaN: not run on that map
            ax.plot(range(len(labels)), means, "o-", color=ALGORITHM_COLOURS[algorithm], label=ALGORITHM_LABELS[algorithm])
        ax.set_yscale("log")
        ax.set_xticks(range(len(labels)), labels, rotation=30, fontsize=8)
        ax.set(title=f"Mean {title}", ylabel=f"milliseconds (CPU, {_engine_words(rows)}; log)")
        ax.grid(alpha=0.3)
    # one legend for both panels (the same lines), below them: inside a panel it hid lines
    figure.legend(*axes[0].get_legend_handles_labels(), loc="outside lower center", ncol=4, fontsize=8, frameon=False)
    return figure


def _engine_words(rows: Sequence[dict]) -> str:
    """Which code the rows' times are of (rows written before the engines existed: the readable code)."""
    engines = {r.get("engine", "python") for r in _problem_rows(rows)}
    words = {"compiled": "compiled code (Numba)", "python": "readable Python code"}
    return " and ".join(words[e] for e in sorted(engines)) or "no runs"


def plot_tree_sizes(rows: Sequence[dict]):
    """Subgoal tree size (arcs) per map: the mean over every cell's tree, with min and max."""
    from matplotlib.figure import Figure

    trees = trees_table(rows)
    figure = Figure(figsize=(8, 4.2), layout="constrained")
    ax = figure.subplots()
    x = range(len(trees))
    means = [t["tree_size_mean"] for t in trees]
    ax.bar(x, means, color="tab:green", alpha=0.7, label="mean tree size (arcs)")
    ax.errorbar(x, means, yerr=[[m - t["tree_size_min"] for m, t in zip(means, trees)],
                               [t["tree_size_max"] - m for m, t in zip(means, trees)]],
                fmt="none", color="black", capsize=4, label="smallest and largest tree")
    ax.axhline(198, color="tab:red", linestyle="--", label="the paper's mean (198)")
    ax.set_xticks(list(x), [f"{t['map']}\n{t['free_cells']:,} cells" for t in trees], fontsize=7)
    built = "every free cell" if all(t["trees_built"] == t["free_cells"] for t in trees) else \
        f"{min(t['trees_built'] for t in trees):,} random cells per map"
    ax.set(title=f"Subgoal tree sizes (the trees of {built})", ylabel="arcs in the tree")
    ax.legend(fontsize=8)
    return figure


def draw_subgoal_tree(grid: Gridworld | np.ndarray, tree, ax=None, run=None, title: str | None = None):
    """The map (the world's :func:`~reference.world.map_pictures.draw_game_map`: terrain in colour),
    the subgoal tree over it (an arrow from each subgoal to its parent, the next subgoal; the goal,
    the root, a star) and, with ``run``, the agent's trajectory. Returns the axes; the legend, below
    the map, names every mark.
    """
    from matplotlib.figure import Figure
    from matplotlib.patches import Patch

    from reference.world.map_pictures import PATH_COLOUR, TERRAIN_COLOURS, draw_game_map, draw_tree_arcs, terrain_of
    from reference.world.terrain import TERRAIN_NAMES

    if ax is None:
        height, width = grid.shape if isinstance(grid, np.ndarray) else (grid.height, grid.width)
        figure = Figure(figsize=(7, 7 * height / max(width, 1) + 0.8), layout="constrained")
        ax = figure.subplots()
    start = run.trace.trajectory[0] if run is not None else None
    draw_game_map(grid, start=start, goal=tree.goal, title=title or "Subgoal tree", ax=ax, legend=False)
    draw_tree_arcs(ax, tree.arcs, label=f"subgoals ({tree.size}); arrows point to the next subgoal")
    if run is not None:
        path = run.trace.trajectory
        ax.plot([c[1] for c in path], [c[0] for c in path], "-", color=PATH_COLOUR, linewidth=1.2, zorder=3,
                label=f"{ALGORITHM_LABELS.get(run.trace.algorithm, run.trace.algorithm)}: {run.moves} moves")
    terrain = terrain_of(grid)
    handles = [Patch(facecolor=TERRAIN_COLOURS[code], edgecolor="grey", label=TERRAIN_NAMES[code])
               for code in sorted(set(np.unique(terrain).tolist()))]
    handles += ax.get_legend_handles_labels()[0]
    ax.legend(handles=handles, fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.02), ncol=3,
              frameon=False)  # below the map, off the terrain
    ax.set(xticks=[], yticks=[], xlabel="", ylabel="")
    return ax


def plot_example_tree(rows: Sequence[dict], movingai: str | Path | None, maps: Sequence[GameMap] = MAPS):
    """The subgoal tree of one problem of the first map, with LRTA*+sub's trajectory over it."""
    from matplotlib.figure import Figure

    game_map = next(m for m in maps if any(r["map"] == m.label for r in rows))
    grid = load_map(str(map_path(game_map, movingai)))
    # of twenty problems, the one whose start and goal lie farthest apart (a picture worth drawing)
    start, goal = max(draw_problems(grid, 20, DEFAULT_SEED), key=lambda p: abs(p[0][0] - p[1][0]) + abs(p[0][1] - p[1][1]))
    tree = build_subgoal_tree(grid, goal, 8)
    run = run_algorithm("lrta_subgoal", grid, start, goal, tree=tree)
    figure = Figure(figsize=(8, 8.4), layout="constrained")
    draw_subgoal_tree(grid, tree, figure.subplots(), run,
                      f"{game_map.label}: the subgoal tree of one goal, and LRTA* with subgoaling")
    return figure


# -- the report ------------------------------------------------------------------------------------


def write_report(rows: Sequence[dict], outdir: str | Path, command: str = "",
                 movingai: str | Path | None = None, maps: Sequence[GameMap] = MAPS) -> list[Path]:
    """Write every run (:func:`~reference.experiments.realtime.write_runs`), the tables (CSV and Markdown), the figures and findings.md into ``outdir``
    (``maps``: where the rows' maps are, for the example tree's picture)."""
    from reference.experiments.plots import save_figure

    outdir = Path(outdir)
    written: list[Path] = []

    def text(name: str, content: str) -> None:
        atomic_write_text(outdir / name, content)
        written.append(outdir / name)

    runs = write_runs(outdir, rows)
    written.append(runs)
    tables = {"figure2": (figure2_table(rows), FIGURE2_COLUMNS), "per_map": (per_map_table(rows), None),
              "trees": (trees_table(rows), None), "first_goal": (first_goal_table(rows), None),
              "preprocessing": (preprocessing_table(rows), None)}
    for stem, (table, columns) in tables.items():
        text(f"{stem}.csv", to_csv(table))
        text(f"{stem}.md", to_markdown(table, columns))
    plots = [("suboptimality", plot_suboptimality), ("times", plot_times)]
    if tables["trees"][0]:
        plots.append(("tree_sizes", plot_tree_sizes))
    for stem, plot in plots:
        written.append(save_figure(plot(rows), outdir / f"{stem}.png", dpi=110))
    written.append(save_figure(plot_example_tree(rows, movingai, maps), outdir / "example_tree.png", dpi=110))
    problems = _problem_rows(rows)
    map_labels = list(dict.fromkeys(r["map"] for r in problems))
    count = len({(r["map"], r["problem"]) for r in problems})
    report = [
        "# Hernández & Baier (2011) reproduced: subgoaling for real-time search", "",
        f"{count} problems on {len(map_labels)} maps ({', '.join(map_labels)}), eight-connected, octile h. Times are CPU "
        f"milliseconds of the {_engine_words(rows)}, the same engine for every algorithm (compare ratios with "
        "the paper, not absolute values); the time to build every tree of a map is the compiled tree builder's.",
    ]
    if command:
        report += ["", f"Made with `{command}`."]
    report += ["", "## The paper's headline claims, checked", "", findings_markdown(findings(rows))]
    compared = comparison_findings(rows)
    if compared:
        report += ["## kNN LRTA* and D LRTA*: the paper's comparison, checked", "",
                   "The paper quotes these algorithms' numbers from Bulitko and Björnsson (2009) on their four maps "
                   "(here: the four Baldur's Gate maps); the kit builds both (readable code: "
                   "`reference/solutions/subgoaling/knn_lrta.py`, `d_lrta.py`; their preprocessing's searches "
                   "compiled under `--engine compiled`, `reference/solutions/compiled/subgoaling/knn_lrta.py`, `d_lrta.py`: the same "
                   "databases) and runs them on the same problems. "
                   "Intervals: 95% bootstrap over problems.", "", findings_markdown(compared),
                   f"## Preprocessing ({_preprocessing_words(rows)}, CPU seconds per map)", "",
                   to_markdown(tables["preprocessing"][0])]
    report += [
               "## Figure 2", "", to_markdown(tables["figure2"][0], FIGURE2_COLUMNS),
               "## The first goal, both ways (Algorithm 3, line 5, against Sub(start))", "",
               to_markdown(tables["first_goal"][0]),
               "## Per map", "", to_markdown(tables["per_map"][0]),
               "## Subgoal trees (`trees_built` goals per map; `all_trees_s`: the CPU time for every free cell, "
               "extrapolated from `trees_s` when fewer were built)", "", to_markdown(tables["trees"][0]),
               f"Every run: `{runs.name}`; figures: `suboptimality.png`, `times.png`, `tree_sizes.png`, "
               "`example_tree.png`.", ""]
    text("findings.md", "\n".join(report))
    return written
