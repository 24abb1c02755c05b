"""Harabor & Botea's evaluation of HAA*, reproduced (SPEC §14; docs/haa.md).

The paper: 120 Baldur's Gate maps made multi-terrain, random valid problems per map for small and
large agents and random capabilities, HAA* on high- (HQ) and low-quality (LQ) graphs with clusters
of side 10, 15 and 20 against Annotated A* (AA*). Measured: the abstract graph's size against the
map's, path length above optimal, nodes expanded (insertion + abstract search + refinement), time.
The Warcraft III maps (512 × 512, real trees and water) add build time and memory at scale.

Engines: the abstractions are built with the compiled in-cluster distances (the same graph as the
readable builder, a tested property). Both planners run compiled on every problem
(:mod:`reference.solutions.compiled.haa.query`: the same paths and expansions as the readable
queries, a tested property), and that is the time the speed verdict uses (``compiled_seconds``);
both also run readable on every ``timing_every``-th problem (``seconds``), the Python-time ratio
kept beside it.

>>> from reference.world.terrain import terrain_from_strings
>>> map_graph_size(terrain_from_strings(["..", ".@"]))   # 3 cells; 2 straight moves, no diagonal
(3, 2)
>>> [p.size for p in random_problems(terrain_from_strings(["....", "....", "...."]), 3, seed=1)]
[2, 1, 2]
"""

from __future__ import annotations

import math
import statistics
import time
import zlib
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from reference.experiments.movingai_data import movingai_dir, require_movingai
from reference.experiments.report import (
    DOES_NOT_HOLD, HOLDS, INCONCLUSIVE, Claim, Finding, check, findings_markdown, to_csv, to_markdown, verdict,
)
from reference.solutions.compiled.haa import query as compiled_query
from reference.solutions.compiled.haa.abstraction import build_abstraction as build_compiled, distances_compiled
from reference.solutions.haa import build_abstraction, haa_star
from reference.solutions.haa.capabilities import CAPABILITY_MASKS, capability_of, mask_name
from reference.solutions.haa.query import annotated_astar
from reference.solutions.haa.multiterrain import with_terrain
from reference.world.fileio import atomic_write_text
from reference.world.grid import cost_value
from reference.world.maps import read_terrain
from reference.world.terrain import OUT_OF_BOUNDS

CLUSTER_SIZES = (10, 15, 20)
QUALITIES = ("high", "low")
#: The text's quality bands, % above optimal: "high quality abstractions produce, on average, paths
#: with lengths 3-5% longer than optimal while low quality abstractions are in the 6-10% range".
QUALITY_BANDS = {"high": (3.0, 5.0), "low": (6.0, 10.0)}
DEFAULT_PROBLEMS = 20
DEFAULT_SEED = 2008
MAX_SIZE = 3


def bg_maps(movingai: Path | None = None) -> list[Path]:
    """The 120 Baldur's Gate maps of the MovingAI folder (``ftr movingai where``; empty when absent)."""
    return sorted((movingai_dir(movingai) / "bgmaps").glob("*.map"))


def wc3_maps(movingai: Path | None = None) -> list[Path]:
    """The Warcraft III maps (512 × 512, with trees and water)."""
    return sorted((movingai_dir(movingai) / "wc3maps512").glob("*.map"))


@dataclass
class Problem:
    """One query: agent ``(size, mask)``, start, goal, and AA*'s answer (exact optimal cost)."""

    size: int
    mask: int
    start: tuple[int, int]
    goal: tuple[int, int]
    optimal: tuple[int, int]


def random_problems(terrain: np.ndarray, count: int, seed: int, max_size: int = MAX_SIZE,
                    masks: Sequence[int] = CAPABILITY_MASKS, sizes: Sequence[int] | None = None) -> list[Problem]:
    """``count`` valid problems, drawn as the paper describes ("randomly creating valid problems
    between arbitrarily chosen pairs of locations and some random capability"): a random capability
    (of ``masks``) and size (of ``sizes``, default 1..max_size), start and goal drawn among all the
    cells that agent may stand on; kept when the goal is reachable from the start, otherwise
    everything is drawn again."""
    from reference.solutions.haa.clearance import all_clearances

    sizes = tuple(sizes) if sizes is not None else tuple(range(1, max_size + 1))
    rng = np.random.default_rng(seed)
    clearances = dict(zip(CAPABILITY_MASKS, all_clearances(terrain).values()))
    problems: list[Problem] = []
    attempts = 0
    while len(problems) < count and attempts < 100 * count:
        attempts += 1
        mask = masks[int(rng.integers(len(masks)))]
        size = int(sizes[rng.integers(len(sizes))]) if len(sizes) > 1 else int(sizes[0])
        open_cells = clearances[mask] >= size
        cells = np.argwhere(open_cells)
        if len(cells) < 2:
            continue
        start, goal = ((int(cells[i, 0]), int(cells[i, 1])) for i in rng.integers(len(cells), size=2))
        a, b = distances_compiled(~open_cells, start)
        if start == goal or a[goal] < 0:
            continue
        problems.append(Problem(size, mask, start, goal, (int(a[goal]), int(b[goal]))))
    return problems


def map_graph_size(terrain: np.ndarray) -> tuple[int, int]:
    """Nodes and edges of the map as a graph (every passable cell; every legal eight-connected move
    between two of them for an agent that passes every terrain, each counted once)."""
    free = terrain != OUT_OF_BOUNDS
    nodes = int(free.sum())
    straight = int((free[:, :-1] & free[:, 1:]).sum() + (free[:-1, :] & free[1:, :]).sum())
    square = free[:-1, :-1] & free[1:, 1:] & free[:-1, 1:] & free[1:, :-1]  # no corner cutting
    return nodes, straight + 2 * int(square.sum())


def map_seed(name: str, seed: int) -> int:
    """The seed of one map's problems: the run's seed mixed with the map's name."""
    return (seed * 1_000_003 + zlib.crc32(name.encode())) % 2**32


def run_map(task: tuple[str, int, int, Sequence[int], int]) -> dict[str, list[dict]]:
    """Everything for one Baldur's Gate map: graph sizes per (cluster size, quality), and per problem
    AA*'s and HAA*'s answers. ``task = (map path, problems, seed, cluster sizes, timing_every)``."""
    path, count, seed, cluster_sizes, timing_every = task
    name = Path(path).stem
    terrain = with_terrain(read_terrain(path), name, seed=seed)
    problems = random_problems(terrain, count, map_seed(name, seed))
    return evaluate_map(terrain, name, problems, cluster_sizes, MAX_SIZE, timing_every)


def _timed(function, *arguments, repeats: int = 1):
    """``(result, seconds)``: the fastest of ``repeats`` runs (on a shared machine a run that loses the
    processor for a moment takes milliseconds longer; the fastest run is the query's own time)."""
    best = math.inf
    for _ in range(repeats):
        began = time.perf_counter()
        result = function(*arguments)
        best = min(best, time.perf_counter() - began)
    return result, best


#: Compiled queries take microseconds: each is timed as the fastest of this many runs.
COMPILED_REPEATS = 3


def evaluate_map(terrain: np.ndarray, name: str, problems: Sequence[Problem], cluster_sizes: Sequence[int],
                 max_size: int, timing_every: int, extra: dict | None = None) -> dict[str, list[dict]]:
    """Graph sizes per (cluster size, quality) and, per problem, AA*'s and HAA*'s answers with their
    compiled times (every problem) and readable times (every ``timing_every``-th; 0: never).
    ``extra`` columns (such as the soft-obstacle share) are added to every row."""
    from reference.solutions.haa.clearance import all_clearances

    extra = extra or {}
    map_nodes, map_edges = map_graph_size(terrain)
    clearances = dict(zip(CAPABILITY_MASKS, all_clearances(terrain).values()))
    graphs, runs = [], []
    readable_turn = (lambda index: timing_every > 0 and index % timing_every == 0)
    for index, problem in enumerate(problems):
        capability = capability_of(problem.mask)
        blocked = clearances[problem.mask] < problem.size
        compiled_query.annotated_astar_cost(blocked, problem.start, problem.start)  # code and scratch made before timing
        (cost, expansions, _), compiled_seconds = _timed(
            compiled_query.annotated_astar_cost, blocked, problem.start, problem.goal, repeats=COMPILED_REPEATS)
        assert cost == problem.optimal, "compiled A* and compiled Dijkstra disagree"
        seconds = math.nan
        if readable_turn(index):
            _, seconds = _timed(annotated_astar, terrain, problem.start, problem.goal, problem.size, capability)
        runs.append(dict(map=name, **extra, problem=index, algorithm="AA*", cluster_size="", quality="",
                         size=problem.size, capability=mask_name(problem.mask), optimal=cost_value(problem.optimal),
                         length=cost_value(cost), expansions=expansions, insertion=0, abstract=0, refinement=0,
                         seconds=seconds, compiled_seconds=compiled_seconds))
    for cluster_size in cluster_sizes:
        for quality in QUALITIES:
            graph = build_compiled(terrain, cluster_size=cluster_size, quality=quality, max_size=max_size)
            summary = graph.summary()
            graphs.append(dict(map=name, **extra, height=terrain.shape[0], width=terrain.shape[1],
                               cluster_size=cluster_size, quality=quality, nodes=summary["nodes"],
                               inter_edges=summary["inter_edges"], intra_edges=summary["intra_edges"],
                               map_nodes=map_nodes, map_edges=map_edges, build_seconds=graph.build_seconds,
                               graph_bytes=graph.graph_bytes()))
            if problems:  # the graph's flat arrays and the compiled code, made before timing
                compiled_query.haa_star(graph, problems[0].start, problems[0].start, problems[0].size,
                                        capability_of(problems[0].mask))
                compiled_query.haa_star(graph, problems[0].start, problems[0].goal, problems[0].size,
                                        capability_of(problems[0].mask))
            for index, problem in enumerate(problems):
                capability = capability_of(problem.mask)
                result, compiled_seconds = _timed(compiled_query.haa_star, graph, problem.start, problem.goal,
                                                  problem.size, capability, repeats=COMPILED_REPEATS)
                seconds = math.nan
                if readable_turn(index):
                    readable, seconds = _timed(haa_star, graph, problem.start, problem.goal, problem.size, capability)
                    assert (readable.cost, readable.expansions) == (result.cost, result.expansions), "twins disagree"
                runs.append(dict(map=name, **extra, problem=index, algorithm="HAA*", cluster_size=cluster_size,
                                 quality=quality, size=problem.size, capability=mask_name(problem.mask),
                                 optimal=cost_value(problem.optimal), length=result.length,
                                 expansions=result.expansions, insertion=result.insertion_expansions,
                                 abstract=result.abstract_expansions, refinement=result.refinement_expansions,
                                 seconds=seconds, compiled_seconds=compiled_seconds))
    return {"graphs": graphs, "runs": runs}


def run_wc3(path: str, cluster_sizes: Sequence[int] = (10, 16)) -> list[dict]:
    """Build time and memory of the abstraction of one Warcraft III map (real terrain, 512 × 512),
    against the map's own memory (one byte per cell for the terrain; clearance arrays as stored)."""
    from reference.solutions.haa.clearance import all_clearances

    terrain = read_terrain(path)
    began = time.perf_counter()
    clearances = all_clearances(terrain)
    clearance_seconds = time.perf_counter() - began
    map_nodes, map_edges = map_graph_size(terrain)
    rows = []
    for cluster_size in cluster_sizes:
        for quality in QUALITIES:
            graph = build_compiled(terrain, cluster_size=cluster_size, quality=quality, max_size=MAX_SIZE)
            s = graph.summary()
            rows.append(dict(map=Path(path).stem, height=terrain.shape[0], width=terrain.shape[1],
                             cluster_size=cluster_size, quality=quality, nodes=s["nodes"],
                             inter_edges=s["inter_edges"], intra_edges=s["intra_edges"], map_nodes=map_nodes,
                             map_edges=map_edges, build_seconds=round(graph.build_seconds, 2),
                             clearance_seconds=round(clearance_seconds, 2), graph_kib=round(graph.graph_bytes() / 1024, 1),
                             terrain_kib=round(terrain.nbytes / 1024, 1),
                             clearance_kib=round(sum(c.nbytes for c in clearances.values()) / 1024, 1)))
    return rows


def run_comparison(maps: int | None = None, problems: int = DEFAULT_PROBLEMS, seed: int = DEFAULT_SEED,
                   cluster_sizes: Sequence[int] = CLUSTER_SIZES, wc3: int | None = None, timing_every: int = 4,
                   jobs: int = 1, progress: bool = True, movingai: Path | None = None, scheduler: str | None = None,
                   store: str | Path | None = None) -> dict[str, list[dict]]:
    """The whole evaluation: ``{"graphs": [...], "runs": [...], "wc3": [...]}`` (one dict per row).

    ``ftr haa compare`` calls it, then :func:`write_report`.

    Parameters
    ----------
    maps : int, optional
        Use the first ``maps`` Baldur's Gate maps (default: all).
    problems : int
        Random valid problems per map.
    seed : int
        Seeds the terrain and the problems of every map.
    cluster_sizes : sequence of int
        The cluster sides to build (the paper's 10, 15, 20).
    wc3 : int, optional
        Build the abstraction of the first ``wc3`` Warcraft III maps (default: all).
    timing_every : int
        Also run the readable queries on every ``timing_every``-th problem.
    jobs : int
        Processes, one map each.
    progress : bool
        Show progress bars.
    movingai : Path, optional
        The MovingAI folder (default: see ``ftr movingai where``).
    scheduler : str, optional
        The address of a Dask scheduler to run the tasks on (:mod:`reference.experiments.tasks`).
    store : str or Path, optional
        A folder keeping finished tasks; a rerun with it skips them.

    Returns
    -------
    dict of str to list of dict
        ``"graphs"``: size per map, cluster size and quality; ``"runs"``: one row per query
        (AA* and HAA*); ``"wc3"``: build time and memory per Warcraft III map.

    Raises
    ------
    FileNotFoundError
        No Baldur's Gate maps under the MovingAI folder (:class:`MovingAIDataMissing` says how to get them).

    See Also
    --------
    reference.solutions.haa.query.haa_star, reference.solutions.haa.query.annotated_astar : the readable queries.
    reference.solutions.compiled.haa.query.haa_star, reference.solutions.compiled.haa.query.annotated_astar :
        their twins, which the timing uses.
    """
    from reference.experiments.tasks import run_tasks

    paths = bg_maps(movingai)[:maps] if maps is not None else bg_maps(movingai)
    if not paths:
        require_movingai(movingai_dir(movingai), "bgmaps")
        raise FileNotFoundError(f"no Baldur's Gate maps under {movingai_dir(movingai) / 'bgmaps'}")
    tasks = [(str(p), problems, seed, tuple(cluster_sizes), timing_every) for p in paths]
    per_map = run_tasks(run_map, tasks, jobs=jobs, scheduler=scheduler, store=store, description="Baldur's Gate maps",
                        progress=progress)
    wc3_paths = wc3_maps(movingai)[:wc3] if wc3 is not None else wc3_maps(movingai)
    # one at a time on this machine: each Warcraft III build holds its map's whole abstraction in memory
    wc3_rows = run_tasks(run_wc3, [str(p) for p in wc3_paths], jobs=1, scheduler=scheduler, store=store,
                         description="Warcraft III builds", progress=progress)
    return {"graphs": [g for m in per_map for g in m["graphs"]], "runs": [r for m in per_map for r in m["runs"]],
            "wc3": [row for rows in wc3_rows for row in rows]}


# -- tables ----------------------------------------------------------------------------------------


def _mean(values: Sequence[float]) -> float:
    values = [v for v in values if not (isinstance(v, float) and math.isnan(v))]
    return float(np.mean(values)) if values else math.nan


def graph_size_table(graphs: Sequence[dict]) -> list[dict]:
    """The paper's Table I: abstract graph size as a percentage of the map's, per cluster size and quality."""
    table = []
    for cluster_size in sorted({g["cluster_size"] for g in graphs}):
        for quality in QUALITIES:
            rows = [g for g in graphs if g["cluster_size"] == cluster_size and g["quality"] == quality]
            if not rows:
                continue
            nodes = sum(g["nodes"] for g in rows) / sum(g["map_nodes"] for g in rows) * 100
            edges = sum(g["inter_edges"] + g["intra_edges"] for g in rows) / sum(g["map_edges"] for g in rows) * 100
            # The paper's memory count: one byte per map node and edge; abstract edges carry one more
            # byte of annotation (capability and clearance).
            memory = (sum(g["nodes"] + 2 * (g["inter_edges"] + g["intra_edges"]) for g in rows)
                      / sum(g["map_nodes"] + g["map_edges"] for g in rows) * 100)
            table.append({"cluster size": cluster_size, "quality": quality, "maps": len(rows),
                          "nodes [% of map]": nodes, "edges [% of map]": edges, "memory [% of map]": memory,
                          "mean nodes": _mean([g["nodes"] for g in rows]),
                          "mean edges": _mean([g["inter_edges"] + g["intra_edges"] for g in rows]),
                          "build [s, mean]": _mean([g["build_seconds"] for g in rows])})
    return table


def _haa_rows(runs: Sequence[dict], cluster_size: Any, quality: str) -> list[dict]:
    return [r for r in runs if r["algorithm"] == "HAA*" and r["cluster_size"] == cluster_size and r["quality"] == quality]


def _error(row: dict) -> float:
    return (row["length"] - row["optimal"]) / row["optimal"] * 100


def quality_table(runs: Sequence[dict]) -> list[dict]:
    """Path length above optimal (the paper's %error), expansions and time against AA*."""
    aa = {(r["map"], r["problem"]): r for r in runs if r["algorithm"] == "AA*"}
    table = []
    for cluster_size in sorted({r["cluster_size"] for r in runs if r["algorithm"] == "HAA*"}):
        for quality in QUALITIES:
            rows = _haa_rows(runs, cluster_size, quality)
            if not rows:
                continue
            timed = [(r, aa[(r["map"], r["problem"])]) for r in rows if not math.isnan(aa[(r["map"], r["problem"])]["seconds"])]
            table.append({
                "cluster size": cluster_size, "quality": quality, "problems": len(rows),
                "found": sum(1 for r in rows if math.isfinite(r["length"])),
                "error [%] all": _mean([_error(r) for r in rows]),
                "error [%] size 1": _mean([_error(r) for r in rows if r["size"] == 1]),
                "error [%] sizes 2-3": _mean([_error(r) for r in rows if r["size"] > 1]),
                "expansions HAA*": _mean([r["expansions"] for r in rows]),
                "expansions AA*": _mean([aa[(r["map"], r["problem"])]["expansions"] for r in rows]),
                "time HAA* [ms]": _mean([h["seconds"] * 1e3 for h, _ in timed]),
                "time AA* [ms]": _mean([a["seconds"] * 1e3 for _, a in timed]),
                "speed-up (time)": (sum(a["seconds"] for _, a in timed) / sum(h["seconds"] for h, _ in timed)) if timed else math.nan,
                "compiled time HAA* [us]": _mean([r.get("compiled_seconds", math.nan) * 1e6 for r in rows]),
                "compiled time AA* [us]": _mean([aa[(r["map"], r["problem"])].get("compiled_seconds", math.nan) * 1e6 for r in rows]),
            })
    return table


def effort_by_length_table(runs: Sequence[dict], cluster_size: Any) -> list[dict]:
    """The paper's search-effort figure as numbers: mean expansions per optimal-length bucket."""
    edges = [0, 25, 50, 100, 150, 200, 300, 450, 10**9]
    table = []
    for low, high in zip(edges, edges[1:]):
        line: dict[str, str | int | float] = {"optimal length": f"{low}-{high}" if high < 10**9 else f">= {low}"}
        aa = [r["expansions"] for r in runs if r["algorithm"] == "AA*" and low <= r["optimal"] < high]
        if not aa:
            continue
        line["problems"] = len(aa)
        line["AA*"] = _mean(aa)
        for quality in QUALITIES:
            line[f"HAA* {quality}"] = _mean([r["expansions"] for r in _haa_rows(runs, cluster_size, quality)
                                            if low <= r["optimal"] < high])
        table.append(line)
    return table


LENGTH_EDGES = (0, 25, 50, 100, 150, 200, 300, 450, 10**9)


def _problem_key(row: dict) -> tuple:
    return (row["map"], row.get("so", ""), row["problem"])


def ratio_interval(numerators: Sequence[float], denominators: Sequence[float], seed: int = 0,
                   resamples: int = 1000) -> tuple[float, float, float]:
    """``sum(numerators) / sum(denominators)`` and its 95% bootstrap interval (problems resampled).

    >>> ratio_interval([2.0, 4.0, 6.0], [1.0, 2.0, 3.0])
    (2.0, 2.0, 2.0)
    """
    num, den = np.asarray(numerators, dtype=float), np.asarray(denominators, dtype=float)
    if len(num) == 0:
        return math.nan, math.nan, math.nan
    rng = np.random.default_rng(seed)
    batches = []
    for _ in range(0, resamples, 100):  # 100 resamples at a time: bounded memory on 100,000 problems
        index = rng.integers(len(num), size=(100, len(num)))
        batches.append(num[index].sum(axis=1) / den[index].sum(axis=1))
    boots = np.concatenate(batches)
    return float(num.sum() / den.sum()), float(np.quantile(boots, 0.025)), float(np.quantile(boots, 0.975))


def speed_table(runs: Sequence[dict], cluster_size: Any, quality: str, time_key: str = "compiled_seconds") -> list[dict]:
    """AA* against HAA* by optimal path length (the paper's search-effort figure) and over all
    problems: mean expansions and times, and the ratios AA* / HAA* of their sums with 95% intervals."""
    aa = {_problem_key(r): r for r in runs if r["algorithm"] == "AA*"}
    pairs = [(aa[_problem_key(r)], r) for r in _haa_rows(runs, cluster_size, quality) if _problem_key(r) in aa]
    table = []
    buckets = [(f"{low}-{high}" if high < 10**9 else f">= {low}", low, high) for low, high in zip(LENGTH_EDGES, LENGTH_EDGES[1:])]
    for label, low, high in buckets + [("all", 0, 10**9)]:
        chosen = [(a, h) for a, h in pairs if low <= a["optimal"] < high]
        timed = [(a, h) for a, h in chosen if not (math.isnan(a.get(time_key, math.nan)) or math.isnan(h.get(time_key, math.nan)))]
        if not chosen:
            continue
        expansions = ratio_interval([a["expansions"] for a, _ in chosen], [h["expansions"] for _, h in chosen])
        # Without inserting start and goal (one in-cluster Dijkstra per end): abstract search + refinement.
        searched = ratio_interval([a["expansions"] for a, _ in chosen],
                                  [h["expansions"] - h.get("insertion", 0) for _, h in chosen])
        seconds = ratio_interval([a[time_key] for a, _ in timed], [h[time_key] for _, h in timed])
        table.append({"optimal length": label, "problems": len(chosen), "timed": len(timed),
                      "expansions AA*": _mean([a["expansions"] for a, _ in chosen]),
                      "expansions HAA*": _mean([h["expansions"] for _, h in chosen]),
                      "expansions AA*/HAA*": expansions[0], "expansions 95% low": expansions[1],
                      "expansions 95% high": expansions[2],
                      "insertion share": sum(h.get("insertion", 0) for _, h in chosen) / max(1, sum(h["expansions"] for _, h in chosen)),
                      "expansions AA*/HAA* w/o insertion": searched[0], "w/o insertion 95% low": searched[1],
                      "w/o insertion 95% high": searched[2],
                      "time AA* [us]": _mean([a[time_key] * 1e6 for a, _ in timed]),
                      "time HAA* [us]": _mean([h[time_key] * 1e6 for _, h in timed]),
                      "time AA*/HAA*": seconds[0], "time 95% low": seconds[1], "time 95% high": seconds[2]})
    return table


#: An "order of magnitude" is read as a ratio of at least this (10 rounded down on a log scale would be 3.2).
ORDER_OF_MAGNITUDE = 5.0


def time_key_of(runs: Sequence[dict]) -> str:
    """``compiled_seconds`` when the run timed the compiled queries, else ``seconds`` (readable times:
    runs made before the compiled twins existed)."""
    compiled = any(isinstance(value := r.get("compiled_seconds"), float) and not math.isnan(value) for r in runs)
    return "compiled_seconds" if compiled else "seconds"


def speed_tables(runs: Sequence[dict]) -> list[dict]:
    """:func:`speed_table` for every cluster size and quality, one table with those two columns first."""
    cluster_sizes = sorted({r["cluster_size"] for r in runs if r["algorithm"] == "HAA*"})
    key = time_key_of(runs)
    return [{"cluster size": c, "quality": q, **row} for q in QUALITIES for c in cluster_sizes
            for row in speed_table(runs, c, q, key)]


def plot_speed(runs: Sequence[dict], title: str = ""):
    """AA* / HAA* by optimal path length: compiled time (left) and expansions (right), 95% intervals."""
    from matplotlib.figure import Figure

    figure = Figure(figsize=(12, 4.2), layout="constrained")
    axes = figure.subplots(1, 2, sharey=True)
    cluster_sizes = sorted({r["cluster_size"] for r in runs if r["algorithm"] == "HAA*"})
    for ax, (column, low, high, label) in zip(axes, (("time AA*/HAA*", "time 95% low", "time 95% high", "compiled time"),
                                                     ("expansions AA*/HAA*", "expansions 95% low", "expansions 95% high", "nodes expanded"))):
        for quality, style in (("high", "-"), ("low", "--")):
            for c in cluster_sizes:
                table = [row for row in speed_table(runs, c, quality, time_key_of(runs)) if row["optimal length"] != "all"]
                x = [_bucket_centre(row["optimal length"]) for row in table]
                y = np.array([row[column] for row in table])
                errors = np.array([[row[column] - row[low] for row in table], [row[high] - row[column] for row in table]])
                ax.errorbar(x, y, yerr=errors, fmt="o" + style, capsize=2, label=f"{quality} quality, CS{c}")
        ax.axhline(1, color="black", linewidth=0.8)
        ax.axhline(10, color="grey", linestyle=":", label="an order of magnitude")
        ax.set_yscale("log")
        ax.set(title=f"AA* / HAA*: {label}" + (f" ({title})" if title else ""), xlabel="optimal path length (bucket centre)",
               ylabel="ratio of sums (log)")
        ax.grid(alpha=0.3)
    axes[0].legend(fontsize=7, ncol=2)
    return figure


def _speed_words(quality: str, c: Any, table: Sequence[dict]) -> str:
    """One setting's :func:`speed_table` in words: time and expansions over all problems (with and
    without inserting start and goal), the longest bucket of 20 timed problems, and where HAA* first wins."""
    every = table[-1]
    longest = next((row for row in reversed(table[:-1]) if row["timed"] >= 20), every)
    crossing = next((row["optimal length"] for row in table[:-1] if row["time AA*/HAA*"] > 1), "never")
    return (f"{quality[0].upper()}Q CS{c}: time {every['time AA*/HAA*']:.2f}x "
            f"[{every['time 95% low']:.2f}, {every['time 95% high']:.2f}] (n = {every['timed']}), expansions "
            f"{every['expansions AA*/HAA*']:.2f}x [{every['expansions 95% low']:.2f}, "
            f"{every['expansions 95% high']:.2f}] (n = {every['problems']}), without inserting start and "
            f"goal {every['expansions AA*/HAA* w/o insertion']:.2f}x [{every['w/o insertion 95% low']:.2f}, "
            f"{every['w/o insertion 95% high']:.2f}] (insertion {every['insertion share']:.0%} of HAA*'s "
            "expansions); longest bucket with 20 timed "
            f"problems, {longest['optimal length']} (n = {longest['timed']}): time "
            f"{longest['time AA*/HAA*']:.1f}x [{longest['time 95% low']:.1f}, {longest['time 95% high']:.1f}], "
            f"expansions {longest['expansions AA*/HAA*']:.1f}x; HAA* first faster at length {crossing}")


def _speed_verdict_words(runs: Sequence[dict], holds: str, best: tuple, overall: dict[tuple, dict]) -> str:
    """Where the speed claim holds, or why it is inconclusive or does not hold."""
    if holds == HOLDS:
        return f". Holds at {best[1]} quality CS{best[0]}"
    if holds == INCONCLUSIVE:
        return f". Inconclusive: the best setting's interval ({best[1]} quality CS{best[0]}) contains {ORDER_OF_MAGNITUDE:g}x"
    short = float(np.mean([r["optimal"] < 50 for r in runs if r["algorithm"] == "AA*"]))
    return (f". Does not hold, because the best setting ({best[1]} quality, CS{best[0]}) is "
            f"{overall[best]['time AA*/HAA*']:.1f}x in time and {overall[best]['expansions AA*/HAA*']:.1f}x in "
            f"expansions: most random valid problems are short ({short:.0%} shorter than 50), and insertion costs one "
            "whole-cluster Dijkstra per end whatever the distance (the paper's own figure has HAA* CS20 trail AA* up "
            "to length 250); the ratio grows with the path length (the longest bucket above)")


def speed_finding(runs: Sequence[dict], where: str) -> Finding:
    """The paper's "an order of magnitude faster than AA*", judged on compiled times and on
    expansions, over all problems and by optimal path length, for every cluster size and quality:
    the best setting's time ratio above :data:`ORDER_OF_MAGNITUDE` with its whole interval."""
    key = time_key_of(runs)
    tables = {(c, q): table for q in QUALITIES for c in sorted({r["cluster_size"] for r in runs if r["algorithm"] == "HAA*"})
              if (table := speed_table(runs, c, q, key))}
    overall = {setting: table[-1] for setting, table in tables.items()}
    best = max(overall, key=lambda k: overall[k]["time AA*/HAA*"])
    holds = verdict(overall[best]["time 95% low"], overall[best]["time 95% high"], above=ORDER_OF_MAGNITUDE)
    searched = max(overall, key=lambda k: overall[k]["expansions AA*/HAA* w/o insertion"])
    # where, by path length, the time ratio does reach the criterion (the paper's figure is by length)
    reached = [f"{q[0].upper()}Q CS{c} at {row['optimal length']} ({row['time AA*/HAA*']:.1f}x, n = {row['timed']})"
               for (c, q), table in tables.items() for row in table[:-1]
               if row["timed"] >= 20 and row["time 95% low"] >= ORDER_OF_MAGNITUDE]
    timing = ("compiled times (both planners compiled, identical results to the readable code)" if key == "compiled_seconds"
              else "readable Python times on every 4th problem (this run predates the compiled twins; "
                   "`ftr haa compare` times both compiled now)")
    w = overall[searched]
    return Finding("HAA* is an order of magnitude faster than AA* (time and expansions, by path length)", holds,
                   f"{where}. AA* / HAA* over all problems, ratio of summed {timing} and of summed expansions, "
                   "95% bootstrap intervals: " + "; ".join(_speed_words(q, c, t) for (c, q), t in tables.items())
                   + f". Criterion (the kit's rule, docs/verdicts.md): the best setting's time ratio above "
                   f"{ORDER_OF_MAGNITUDE:g}x with its whole interval. Without the insertion of start and goal (not timed "
                   f"apart; on expansions) the best setting is {searched[1]} quality CS{searched[0]}, "
                   f"{w['expansions AA*/HAA* w/o insertion']:.1f}x [{w['w/o insertion 95% low']:.1f}, "
                   f"{w['w/o insertion 95% high']:.1f}]: {verdict(w['w/o insertion 95% low'], w['w/o insertion 95% high'], above=ORDER_OF_MAGNITUDE)} "
                   "on that measure. By path length (buckets of at least 20 timed problems) the time ratio reaches it "
                   + (("at: " + ", ".join(reached)) if reached else "nowhere") + _speed_verdict_words(runs, holds, best, overall))


#: Problems at least this long (optimal length) are "long": the paper's problems reached length 450,
#: while most random valid problems here are short (three capabilities live in small lakes and woods).
LONG = 100


def error_by_length_table(runs: Sequence[dict]) -> list[dict]:
    """Mean % above optimal per optimal-length bucket, cluster size and quality."""
    edges = [0, 25, 50, LONG, 200, 10**9]
    table = []
    for cluster_size in sorted({r["cluster_size"] for r in runs if r["algorithm"] == "HAA*"}):
        for quality in QUALITIES:
            rows = _haa_rows(runs, cluster_size, quality)
            line = {"cluster size": cluster_size, "quality": quality}
            for low, high in zip(edges, edges[1:]):
                bucket = [_error(r) for r in rows if low <= r["optimal"] < high]
                label = f"{low}-{high}" if high < 10**9 else f">= {low}"
                line[f"error [%] length {label}"] = _mean(bucket)
            line[f"error [%] length >= {LONG}"] = _mean([_error(r) for r in rows if r["optimal"] >= LONG])
            table.append(line)
    return table


def read_result(folder: str | Path) -> dict[str, list[dict]]:
    """The rows a report was made from, read back from its ``runs.csv``, ``graphs.csv`` and
    ``table4_wc3_build.csv`` (to remake a report without running again)."""
    import csv

    def rows(name: str) -> list[dict]:
        path = Path(folder) / name
        if not path.is_file():
            raise FileNotFoundError(f"{path}: no such file (run 'ftr haa compare' first)")
        result = []
        for row in csv.DictReader(path.open()):
            result.append({key: _parse(value) for key, value in row.items()})
        return result

    return {"runs": rows("runs.csv"), "graphs": rows("graphs.csv"), "wc3": rows("table4_wc3_build.csv")}


def _parse(text: str) -> Any:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


# -- findings ----------------------------------------------------------------------------------------


def _cluster_sizes(runs: Sequence[dict]) -> list[Any]:
    """The cluster sizes of :func:`quality_table` (those HAA* ran at)."""
    return sorted({row["cluster size"] for row in quality_table(runs)})


def kit_speed(result: dict[str, list[dict]]) -> Finding:
    """"An order of magnitude faster than AA*" on the kit's construction (:func:`speed_finding`)."""
    return speed_finding(result["runs"], "The kit's construction (Baldur's Gate maps with lakes, woods on 20% of the "
                                         "ground; sizes 1-3, seven capabilities)")


def _quality_evidence(runs: Sequence[dict], q: str, cluster_sizes: Sequence[Any], every: dict[Any, list[float]]) -> str:
    """Path quality ``q`` by cluster size, by optimal length and on the long problems, in words."""
    by_length = {(row["cluster size"], row["quality"]): row for row in error_by_length_table(runs)}
    buckets = [key for key in by_length[(cluster_sizes[0], q)] if key.startswith("error [%] length ")
               and key != f"error [%] length >= {LONG}"]
    return (", ".join(f"CS{c}: {_mean(every[c]):.1f}% (n = {len(every[c])})" for c in cluster_sizes)
            + f" (queries of one problem at {len(cluster_sizes)} cluster sizes are not independent: the interval "
            "is optimistic)"
            + ". By optimal length (mean over the cluster sizes; problems): "
            + ", ".join(f"{key.removeprefix('error [%] length ')}: "
                        f"{_mean([by_length[(c, q)][key] for c in cluster_sizes]):.1f}% ({_in_bucket(runs, key)})"
                        for key in buckets)
            + f". Beside it, problems of optimal length >= {LONG} only (not the paper's measure): "
            + ", ".join(f"CS{c}: {by_length[(c, q)][f'error [%] length >= {LONG}']:.1f}%" for c in cluster_sizes))


def path_quality_in_band(result: dict[str, list[dict]], q: str) -> Finding:
    """The text's band of % above optimal for quality ``q`` (:data:`QUALITY_BANDS`), judged on the
    interval over all problems (every cluster size), as the paper's figure is over all its problems."""
    runs, cluster_sizes = result["runs"], _cluster_sizes(result["runs"])
    low, high = QUALITY_BANDS[q]
    every = {c: [_error(r) for r in _haa_rows(runs, c, q) if math.isfinite(r["length"])] for c in cluster_sizes}
    pooled = [e for c in cluster_sizes for e in every[c]]
    mean_all = _mean(pooled)
    half_width = 1.96 * statistics.stdev(pooled) / math.sqrt(len(pooled)) if len(pooled) > 1 else math.nan
    holds = verdict(mean_all - half_width, mean_all + half_width, above=low, below=high)
    text = (f"all {len(pooled)} queries (every cluster size): {mean_all:.1f}% ± {half_width:.1f} (95% interval); "
            + _quality_evidence(runs, q, cluster_sizes, every)
            + f". Band {low:.0f}-{high:.0f}% (the text's), judged on the interval over all problems")
    if holds == DOES_NOT_HOLD:
        text += (": the short problems, most of ours, carry the error (a detour through a transition point is "
                 "large relative to a short path); the long ones are nearer the paper's range")
    return Finding(f"{'High' if q == 'high' else 'Low'}-quality paths are {low:.0f}-{high:.0f}% above optimal "
                   "(all problems, as the paper's figure)", holds, text)


def low_quality_graph_is_half(result: dict[str, list[dict]]) -> Finding:
    """The low-quality graph (nodes + edges) is at most 0.6 of the high-quality one at every cluster size."""
    sizes = {(row["cluster size"], row["quality"]): row for row in graph_size_table(result["graphs"])}
    halves = {c: (sizes[(c, "low")]["mean nodes"] + sizes[(c, "low")]["mean edges"])
              / (sizes[(c, "high")]["mean nodes"] + sizes[(c, "high")]["mean edges"]) for c in _cluster_sizes(result["runs"])}
    holds = all(v <= 0.6 for v in halves.values())
    return Finding(
        "The low-quality graph is about half the size of the high-quality one, or smaller (the article: "
        "'can be more than 50% smaller')", holds,
        "LQ / HQ (nodes + edges): " + ", ".join(f"CS{c}: {v:.2f}" for c, v in halves.items())
        + ("" if holds else ". Does not hold at every cluster size (above 0.6)"))


def graph_is_a_fraction(result: dict[str, list[dict]]) -> Finding:
    """The abstract graph needs less memory than the map (the paper's byte count) at every cluster size."""
    sizes = {(row["cluster size"], row["quality"]): row for row in graph_size_table(result["graphs"])}
    cluster_sizes = _cluster_sizes(result["runs"])
    memory = {c: sizes[(c, "high")]["memory [% of map]"] for c in cluster_sizes}
    return Finding(
        "The abstract graph needs only a fraction of the map's memory (paper: 8.7-63.8% HQ, 1.8-40.4% LQ)",
        all(v < 100 for v in memory.values()),
        "HQ memory, paper's byte count: " + ", ".join(f"CS{c}: {v:.1f}%" for c, v in memory.items())
        + "; LQ: " + ", ".join(f"CS{c}: {sizes[(c, 'low')]['memory [% of map]']:.1f}%" for c in cluster_sizes))


def haa_is_complete(result: dict[str, list[dict]]) -> Finding:
    """Representational completeness, an exact count: HAA* finds a path for every valid problem."""
    runs = result["runs"]
    missing = [r for r in runs if r["algorithm"] == "HAA*" and not math.isfinite(r["length"])]
    return Finding("HAA* is complete: it finds a path for every valid problem (representational completeness)",
                   not missing, f"{len(missing)} of {sum(1 for r in runs if r['algorithm'] == 'HAA*')} HAA* queries "
                   "found no path")


#: The paper's claims on the kit's construction, in the order findings.md lists them.
CLAIMS: list[Claim] = [kit_speed, *(partial(path_quality_in_band, q=q) for q in QUALITY_BANDS),
                       low_quality_graph_is_half, graph_is_a_fraction, haa_is_complete]


def findings(result: dict[str, list[dict]]) -> list[Finding]:
    """The paper's claims (:data:`CLAIMS`) checked on a comparison's runs and graphs."""
    return check(CLAIMS, result)


def _in_bucket(runs: Sequence[dict], key: str) -> int:
    """How many problems (AA* rows) an ``error [%] length LOW-HIGH`` or ``>= LOW`` bucket holds."""
    label = key.removeprefix("error [%] length ")
    low, high = (float(label[3:]), math.inf) if label.startswith(">=") else map(float, label.split("-"))
    return sum(1 for r in runs if r["algorithm"] == "AA*" and low <= r["optimal"] < high)


# -- figures -----------------------------------------------------------------------------------------


def plot_graph_size(graphs: Sequence[dict]):
    """The abstract graph's nodes and edges as % of the map graph's, per cluster size and quality."""
    from matplotlib.figure import Figure

    table = graph_size_table(graphs)
    figure = Figure(figsize=(10, 4), layout="constrained")
    axes = figure.subplots(1, 2)
    cluster_sizes = sorted({row["cluster size"] for row in table})
    x = np.arange(len(cluster_sizes))
    for ax, column in zip(axes, ("nodes [% of map]", "edges [% of map]")):
        for offset, quality in ((-0.2, "high"), (0.2, "low")):
            values = [next(r[column] for r in table if r["cluster size"] == c and r["quality"] == quality) for c in cluster_sizes]
            ax.bar(x + offset, values, width=0.4, label=f"{quality} quality")
        ax.set_xticks(x, [f"CS{c}" for c in cluster_sizes])
        ax.set(title=f"abstract graph: {column.split(' ')[0]} as % of the map's", ylabel="% of the map graph",
               xlabel="cluster size")
        ax.legend()
        ax.grid(axis="y", alpha=0.3)
    return figure


def plot_path_quality(runs: Sequence[dict]):
    """Path length above optimal: per cluster size and quality (with the text's bands), small and large agents,
    by optimal length.
    """
    from matplotlib.figure import Figure

    table = quality_table(runs)
    figure = Figure(figsize=(15, 4), layout="constrained")
    axes = figure.subplots(1, 3)
    cluster_sizes = sorted({row["cluster size"] for row in table})
    x = np.arange(len(cluster_sizes))
    for offset, quality in ((-0.2, "high"), (0.2, "low")):
        values = [next(r["error [%] all"] for r in table if r["cluster size"] == c and r["quality"] == quality) for c in cluster_sizes]
        axes[0].bar(x + offset, values, width=0.4, label=f"{quality} quality, all problems")
        long_rows = {(r["cluster size"], r["quality"]): r for r in error_by_length_table(runs)}
        long_values = [long_rows[(c, quality)][f"error [%] length >= {LONG}"] for c in cluster_sizes]
        axes[0].plot(x + offset, long_values, "D", color="black", markersize=6,
                     label=f"optimal length >= {LONG}" if quality == "high" else None)
    for quality, colour in (("high", "tab:blue"), ("low", "tab:orange")):
        low, high = QUALITY_BANDS[quality]
        axes[0].axhspan(low, high, color=colour, alpha=0.12, label=f"paper: {quality[0].upper()}Q {low:g}-{high:g}%")
    axes[0].set_xticks(x, [f"CS{c}" for c in cluster_sizes])
    axes[0].set(title="path length above optimal", ylabel="mean % above AA*'s optimal", xlabel="cluster size")
    axes[0].legend(fontsize=8, ncol=2, loc="upper center", bbox_to_anchor=(0.5, -0.2))   # below: inside, it hid bars
    sizes = (("size 1", "error [%] size 1"), ("sizes 2-3", "error [%] sizes 2-3"))
    for quality, (label, key) in [(q, s) for q in QUALITIES for s in sizes]:
        values = [next(r[key] for r in table if r["cluster size"] == c and r["quality"] == quality) for c in cluster_sizes]
        axes[1].plot(x, values, "o-", label=f"{quality} quality, {label}")
    axes[1].set_xticks(x, [f"CS{c}" for c in cluster_sizes])
    axes[1].set(title="small and large agents", ylabel="mean % above optimal", xlabel="cluster size")
    axes[1].legend(fontsize=8)
    # by optimal length, as the paper's figure: one line per quality and cluster size
    by_length = {(r["cluster size"], r["quality"]): r for r in error_by_length_table(runs)}
    keys = [k for k in by_length[(cluster_sizes[0], "high")] if k.startswith("error [%] length ")
            and k != f"error [%] length >= {LONG}"]
    labels = [f"{k.removeprefix('error [%] length ')}\n({_in_bucket(runs, k)})" for k in keys]
    for quality, style in (("high", "-"), ("low", "--")):
        for c in cluster_sizes:
            axes[2].plot(range(len(keys)), [by_length[(c, quality)][k] for k in keys], "o" + style,
                         label=f"{quality} quality, CS{c}")
    for quality, colour in (("high", "tab:blue"), ("low", "tab:orange")):
        axes[2].axhspan(*QUALITY_BANDS[quality], color=colour, alpha=0.12)
    axes[2].set_xticks(range(len(keys)), labels, fontsize=8)
    axes[2].set(title="by optimal path length (problems)", ylabel="mean % above optimal", xlabel="optimal length")
    axes[2].legend(fontsize=7, ncol=2)
    for ax in axes:
        ax.grid(axis="y", alpha=0.3)
    return figure


def plot_search_effort(runs: Sequence[dict]):
    """Nodes expanded by HAA* and AA* against optimal path length, high- and low-quality graphs."""
    from matplotlib.figure import Figure

    cluster_sizes = sorted({r["cluster_size"] for r in runs if r["algorithm"] == "HAA*"})
    figure = Figure(figsize=(10, 4), layout="constrained")
    axes = figure.subplots(1, 2, sharey=True)
    for ax, quality in zip(axes, QUALITIES):
        for cluster_size in cluster_sizes:
            table = effort_by_length_table(runs, cluster_size)
            centres = [_bucket_centre(row["optimal length"]) for row in table]
            ax.plot(centres, [row[f"HAA* {quality}"] for row in table], "o-", label=f"HAA* CS{cluster_size}")
        table = effort_by_length_table(runs, cluster_sizes[0])
        ax.plot([_bucket_centre(row["optimal length"]) for row in table], [row["AA*"] for row in table], "s--",
                color="black", label="AA*")
        ax.set(title=f"search effort, {quality}-quality graphs", xlabel="optimal path length (bucket)",
               ylabel="nodes expanded (mean)")
        ax.set_yscale("log")
        ax.legend(fontsize=8)
        ax.grid(alpha=0.3)
    return figure


def _bucket_centre(label: str) -> float:
    if label.startswith(">="):
        return float(label[2:]) * 1.2
    low, high = (float(v) for v in label.split("-"))
    return (low + high) / 2


# -- the report ----------------------------------------------------------------------------------------


def write_report(result: dict[str, list[dict]], outdir: str | Path, command: str = "", scaled_down: str = "") -> list[Path]:
    """Tables (CSV + Markdown), raw rows, figures and ``findings.md`` into ``outdir``."""
    from reference.experiments.plots import save_figure

    outdir = Path(outdir)
    written: list[Path] = []

    def text(name: str, content: str) -> None:
        atomic_write_text(outdir / name, content)
        written.append(outdir / name)

    runs, graphs, wc3 = result["runs"], result["graphs"], result["wc3"]
    text("runs.csv", to_csv(runs))
    text("graphs.csv", to_csv(graphs))
    tables = {
        "table1_graph_size": graph_size_table(graphs),
        "table2_path_quality": quality_table(runs),
        "table3_search_effort": effort_by_length_table(runs, min(r["cluster_size"] for r in graphs)),
        "table5_error_by_length": error_by_length_table(runs),
        "table6_speed_by_length": speed_tables(runs),
        "table4_wc3_build": wc3,
    }
    for stem, table in tables.items():
        text(f"{stem}.csv", to_csv(table))
        text(f"{stem}.md", to_markdown(table))
    for stem, plot, rows in (("figure_graph_size", plot_graph_size, graphs),
                             ("figure_path_quality", plot_path_quality, runs),
                             ("figure_search_effort", plot_search_effort, runs),
                             ("figure_speed_by_length", plot_speed, runs)):
        written.append(save_figure(plot(rows), outdir / f"{stem}.png", dpi=110))
    maps = len({g["map"] for g in graphs})
    problems = len({(r["map"], r["problem"]) for r in runs if r["algorithm"] == "AA*"})
    report = [
        "# Harabor & Botea (2008), HAA*, reproduced", "",
        f"{maps} Baldur's Gate maps made multi-terrain (docs/haa.md, 'Data'), {problems} random valid problems "
        f"(agent sizes 1-{MAX_SIZE}, all seven capabilities), HAA* on high- and low-quality graphs with "
        f"cluster sizes {', '.join(str(c) for c in sorted({g['cluster_size'] for g in graphs}))} against AA*. "
        "Expansions: HAA*'s insertion + abstract search + refinement. Times: both planners compiled on every "
        "problem (the speed verdict, Table 6), and both readable on every 4th problem (Table 2's Python times).",
    ]
    if scaled_down:
        report += ["", f"Scaled down: {scaled_down}"]
    if command:
        report += ["", f"Made with `{command}`."]
    report += ["", "## The paper's headlines, checked", "", findings_markdown(findings(result)),
               "## Table 1: abstract graph size against the map", "", to_markdown(tables["table1_graph_size"]),
               "## Table 2: path quality, search effort and time", "", to_markdown(tables["table2_path_quality"]),
               "## Table 3: nodes expanded by optimal path length (smallest cluster size)", "",
               to_markdown(tables["table3_search_effort"]),
               "## Table 6: AA* / HAA* by optimal path length, compiled time and expansions (95% intervals)", "",
               to_markdown(tables["table6_speed_by_length"]),
               "## Table 5: path length above optimal, by optimal path length", "",
               to_markdown(tables["table5_error_by_length"]),
               "## Table 4: Warcraft III maps (512 x 512, real trees and water): build time and memory", "",
               to_markdown(wc3),
               "Figures: `figure_graph_size.png`, `figure_path_quality.png`, `figure_search_effort.png`, "
               "`figure_speed_by_length.png`; "
               "every query: `runs.csv`; every graph: `graphs.csv`.", ""]
    text("findings.md", "\n".join(report))
    return written


# -- pictures -------------------------------------------------------------------------------------------

#: Terrain colours: ground, trees, water, out of bounds.
TERRAIN_COLOURS = ("#f4f1e8", "#7fb069", "#6fa8dc", "#222222")
#: One colour per capability mask (for edges and paths).
MASK_COLOURS = {1: "#8c564b", 2: "#2ca02c", 4: "#1f77b4", 3: "#bcbd22", 5: "#17becf", 6: "#9467bd", 7: "#d62728"}

#: The toy map of the pictures: ground, a pond, woods and rocks (10 × 10, like the article's figures).
TOY_MAP = [
    "..........",
    "..........",
    "..@@...WW.",
    "..@@..WWW.",
    "......WWW.",
    ".TT...WW..",
    ".TTT......",
    ".TT...@...",
    "......@...",
    "..........",
]


def _draw_terrain(ax, terrain: np.ndarray) -> None:
    from matplotlib.colors import ListedColormap

    ax.imshow(terrain, cmap=ListedColormap(TERRAIN_COLOURS), vmin=-0.5, vmax=3.5, interpolation="nearest")
    ax.set_xticks([])
    ax.set_yticks([])


def _terrain_legend(ax, **kwargs) -> None:
    from matplotlib.patches import Patch

    names = ("ground", "trees", "water", "out of bounds")
    ax.legend(handles=[Patch(facecolor=c, edgecolor="grey", label=n) for c, n in zip(TERRAIN_COLOURS, names)],
              fontsize=7, **kwargs)


def plot_clearance_numbers(terrain: np.ndarray):
    """The article's Figures 2, 7 and 8-10 on a small map: brushfire and true clearance (ground), and
    true clearance for water and for ground+water, each value written in its cell."""
    from matplotlib.figure import Figure

    from reference.solutions.haa.clearance import brushfire, true_clearance
    from reference.world.terrain import GROUND, WATER

    panels = [("brushfire, {ground} (Fig. 2)", brushfire(terrain, {GROUND})),
              ("true clearance, {ground} (Figs. 7, 8)", true_clearance(terrain, {GROUND})),
              ("true clearance, {water} (Fig. 9)", true_clearance(terrain, {WATER})),
              ("true clearance, {ground, water} (Fig. 10)", true_clearance(terrain, {GROUND, WATER}))]
    figure = Figure(figsize=(16, 4.6), layout="constrained")
    for ax, (title, values) in zip(figure.subplots(1, 4), panels):
        _draw_terrain(ax, terrain)
        for (r, c), value in np.ndenumerate(values):
            if value:
                ax.text(c, r, str(value), ha="center", va="center", fontsize=9,
                        color="white" if terrain[r, c] == 2 else "black")
        ax.set_title(title, fontsize=10)
    _terrain_legend(figure.axes[0], loc="upper left", bbox_to_anchor=(0, -0.02), ncol=4)
    return figure


def plot_clearance_scale(terrain: np.ndarray, name: str):
    """True clearance on a big map as a colour scale, for three capabilities."""
    from matplotlib.figure import Figure

    from reference.solutions.haa.clearance import true_clearance
    from reference.world.terrain import GROUND, TREES, WATER

    capabilities = [("ground", {GROUND}), ("ground+trees", {GROUND, TREES}), ("ground+trees+water", {GROUND, TREES, WATER})]
    figure = Figure(figsize=(16, 5.2), layout="constrained")
    axes = figure.subplots(1, 4)
    _draw_terrain(axes[0], terrain)
    axes[0].set_title(f"{name}: terrain", fontsize=10)
    _terrain_legend(axes[0], loc="upper left", bbox_to_anchor=(0, -0.02), ncol=2)
    top = max(int(true_clearance(terrain, c).max()) for _, c in capabilities)
    for ax, (label, capability) in zip(axes[1:], capabilities):
        values = np.ma.masked_equal(true_clearance(terrain, capability), 0)
        image = ax.imshow(values, cmap="viridis", norm=_log_norm(top), interpolation="nearest")
        ax.set_facecolor("#222222")
        ax.set_xticks([])
        ax.set_yticks([])
        ax.set_title(f"true clearance, {label}", fontsize=10)
    figure.colorbar(image, ax=axes[1:], shrink=0.8, label="clearance (largest square, log scale); black: 0")
    return figure


def _log_norm(top: int):
    from matplotlib.colors import LogNorm

    return LogNorm(vmin=1, vmax=max(2, top))


def plot_abstraction(graph, title: str = "", ax=None, intra: bool = True):
    """The abstract graph over its map: cluster borders, nodes, inter-edges (thick) and intra-edges
    (thin straight lines), coloured by capability."""
    from matplotlib.figure import Figure
    from matplotlib.lines import Line2D

    figure = None
    if ax is None:
        figure = Figure(figsize=(8, 8), layout="constrained")
        ax = figure.subplots()
    _draw_terrain(ax, graph.terrain)
    height, width = graph.shape
    for k in range(graph.cluster_size, height, graph.cluster_size):
        ax.axhline(k - 0.5, color="grey", lw=0.6, ls="--")
    for k in range(graph.cluster_size, width, graph.cluster_size):
        ax.axvline(k - 0.5, color="grey", lw=0.6, ls="--")
    cells = graph.node_cells
    for edge in graph.edges:
        (r0, c0), (r1, c1) = cells[edge.u], cells[edge.v]
        if edge.inter:
            ax.plot([c0, c1], [r0, r1], color=MASK_COLOURS[edge.mask], lw=3.5, solid_capstyle="butt")
        elif intra:
            ax.plot([c0, c1], [r0, r1], color=MASK_COLOURS[edge.mask], lw=0.7, alpha=0.5)
    if cells:
        ax.plot([c for _, c in cells], [r for r, _ in cells], "o", color="black", markersize=3.5)
    from reference.solutions.haa.capabilities import mask_name

    handles = [Line2D([], [], color=colour, lw=3, label=mask_name(mask)) for mask, colour in MASK_COLOURS.items()
               if any(e.mask == mask for e in graph.edges)]
    handles.append(Line2D([], [], color="black", marker="o", ls="", label="abstract node"))
    ax.legend(handles=handles, fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1), title="edge capability")
    summary = graph.summary()
    ax.set_title(title or f"{graph.quality}-quality abstraction, clusters of {graph.cluster_size}: "
                 f"{summary['nodes']} nodes, {summary['inter_edges']} inter- and {summary['intra_edges']} intra-edges",
                 fontsize=9)
    return figure


def plot_agent_paths(terrain: np.ndarray, graph, start, goal, agents, title: str = ""):
    """Side by side, one panel per agent ``(size, capability)``: AA*'s optimal path and HAA*'s path
    from ``start`` to ``goal``, with the agent's square drawn at the start."""
    from matplotlib.figure import Figure
    from matplotlib.patches import Rectangle

    from reference.world.terrain import capability_name

    figure = Figure(figsize=(4.2 * len(agents), 4.8), layout="constrained")
    for ax, (size, capability) in zip(figure.subplots(1, len(agents)), agents):
        _draw_terrain(ax, terrain)
        optimal = annotated_astar(terrain, start, goal, size, capability)
        found = haa_star(graph, start, goal, size, capability)
        if optimal.found:
            ax.plot([c for _, c in optimal.path], [r for r, _ in optimal.path], color="black", lw=2.5,
                    label=f"AA* (optimal), {optimal.length:.1f}")
        if found.found:
            ax.plot([c for _, c in found.path], [r for r, _ in found.path], color="#d62728", lw=1.5, ls="--",
                    label=f"HAA* ({graph.quality} quality), {found.length:.1f}")
            ax.plot([c for _, c in found.abstract_path], [r for r, _ in found.abstract_path], "o", color="#d62728",
                    markersize=3, label="HAA*'s abstract nodes")
        for cell in (start, goal):
            ax.add_patch(Rectangle((cell[1] - 0.5, cell[0] - 0.5), size, size, fill=False, ec="magenta", lw=1.5))
        ax.set_title(f"size {size}, {capability_name(capability)}" + ("" if optimal.found else ": no path"), fontsize=10)
        if optimal.found or found.found:
            ax.legend(fontsize=7, loc="lower left")
    if title:
        figure.suptitle(title, fontsize=11)
    return figure


def _far_apart(terrain: np.ndarray, size: int, capability, tries: int = 40) -> tuple[tuple[int, int], tuple[int, int]]:
    """Two cells where ``(size, capability)`` may stand, far apart and joined for that agent: of
    ``tries`` seeded random starts, the one whose farthest reachable cell is farthest, and that cell."""
    from reference.solutions.haa.clearance import true_clearance

    open_cells = true_clearance(terrain, capability) >= size
    cells = np.argwhere(open_cells)
    rng = np.random.default_rng(0)
    best = (-1.0, (0, 0), (0, 0))
    for index in rng.integers(len(cells), size=tries):
        start = (int(cells[index, 0]), int(cells[index, 1]))
        a, b = distances_compiled(~open_cells, start)
        lengths = np.where(a >= 0, a + b * math.sqrt(2), -1)
        row, col = np.unravel_index(np.argmax(lengths), lengths.shape)
        goal = (int(row), int(col))
        best = max(best, (float(lengths[goal]), start, goal))
    return best[1], best[2]


def write_pictures(outdir: str | Path, movingai: Path | None = None) -> list[Path]:
    """The pictures of docs/haa.md: clearance numbers on the toy map, a clearance colour scale on a
    Warcraft III map, abstract graphs (toy map: both qualities; a Baldur's Gate map), agents' paths."""
    from reference.experiments.plots import save_figure

    from reference.world.terrain import GROUND, TREES, WATER, terrain_from_strings

    outdir = Path(outdir)
    written = []

    def save(name: str, figure) -> None:
        written.append(save_figure(figure, outdir / name, dpi=110))

    toy = terrain_from_strings(TOY_MAP)
    save("picture_clearance_numbers.png", plot_clearance_numbers(toy))
    from matplotlib.figure import Figure

    figure = Figure(figsize=(15, 6.5), layout="constrained")
    for ax, quality in zip(figure.subplots(1, 2), QUALITIES):
        graph = build_abstraction(toy, cluster_size=5, quality=quality, max_size=2)
        plot_abstraction(graph, ax=ax)
    save("picture_abstraction_toy.png", figure)
    if wc3_maps(movingai):
        path = wc3_maps(movingai)[0]
        save("picture_clearance_scale.png", plot_clearance_scale(read_terrain(path), path.stem))
    if bg_maps(movingai):
        path = bg_maps(movingai)[0]
        terrain = with_terrain(read_terrain(path), path.stem, seed=DEFAULT_SEED)
        window = terrain[40:120, 40:140]
        graph = build_compiled(window, cluster_size=10, quality="low")
        save("picture_abstraction_bg.png", plot_abstraction(graph, title=f"{path.stem} (rows 40-119, cols 40-139), "
                                                            "low quality, clusters of 10 (intra-edges as straight lines)"))
        graph = build_compiled(window, cluster_size=10, quality="high")
        agents = [(1, frozenset({GROUND})), (3, frozenset({GROUND})), (1, frozenset({GROUND, WATER})),
                  (2, frozenset({GROUND, TREES, WATER}))]
        start, goal = _far_apart(window, 3, frozenset({GROUND}))
        save("picture_agent_paths.png", plot_agent_paths(window, graph, start, goal, agents,
                                                         f"{path.stem} (part): one query, four agents"))
    return written
