"""The study of Bulitko et al. (2007), scaled to this machine: ``ftr dynamic compare`` (SPEC §15).

Problems: on each map, random start/goal pairs (seeded) whose optimal cost lies in [90, 100], as
in the paper. Every method runs general LRTA* (:mod:`reference.solutions.dynamic.lrta`) with its
own line 3 of Figure 1: fixed depth, the decision tree (trained on the *other* maps' problems),
the oracle, and pattern databases at several abstraction levels with goal selection G, G+I, I.
A point of a figure is one setting: mean sub-optimality (cost / optimal) against mean expansions
per action, both averaged over problems.

>>> blocked = np.zeros((30, 30), dtype=bool)
>>> [p.optimal for p in pick_problems(blocked, 2, low=10, high=12, seed=1)]    # doctest: +ELLIPSIS
[(...), (...)]
"""

from __future__ import annotations

import csv
import io
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

import numpy as np

from reference.world.grid import Cell, Cost, cost_value, octile
from reference.solutions.compiled.astar import astar_cost
from reference.solutions.dynamic.lrta import Controller, Neighbours, Run, fixed_depth, general_lrta
from reference.solutions.dynamic.pattern_database import PatternDatabase, build_pattern_database
from reference.solutions.dynamic.tree import DepthTree, collect_samples, oracle, train_depth_tree

ENGINES = ("compiled", "python")

#: The three maps of the study (Baldur's Gate II, 176 x 176 and 160 x 160): the paper used three
#: 161-193 cell maps of a real-time strategy game; these are the MovingAI game maps in that range
#: with the fewest free cells (chosen when the databases were built in pure Python; kept so results compare).
STUDY_MAPS = ("bgmaps/AR0405SR.map", "bgmaps/AR0505SR.map", "bgmaps/AR0412SR.map")
SCALING_MAP = "bg512/AR0011SR.map"
SCALING_COST_RANGE = (270.0, 300.0)   # about three times the study's 90-100, as the paper's maps grew
SCALING_CAP = 30


@dataclass(frozen=True)
class Problem:
    map: str
    start: Cell
    goal: Cell
    optimal: Cost


def pick_problems(blocked: np.ndarray, count: int, *, low: float = 90.0, high: float = 100.0, seed: int = 0,
                  map_name: str = "", tries: int = 200_000) -> list[Problem]:
    """``count`` random start/goal pairs whose optimal cost lies in [low, high] (A*, exact costs)."""
    rng = np.random.default_rng(seed)
    free = np.argwhere(~blocked)
    problems: list[Problem] = []
    for _ in range(tries):
        if len(problems) == count:
            break
        start, goal = (tuple(int(v) for v in free[i]) for i in rng.integers(len(free), size=2))
        if not low / np.sqrt(2) <= octile(start, goal) <= high:  # octile <= optimal <= ~√2·octile-ish: cheap filter
            continue
        cost, _ = astar_cost(blocked, start, goal, connectivity=8)
        if cost is not None and low <= cost_value(cost) <= high:
            problems.append(Problem(map_name, start, goal, cost))
    return problems


#: One way to run general LRTA* on a problem: ``runner(start, goal, max_actions) -> Run``.
Runner = Callable[[Cell, Cell, int], Run]


class Engine:
    """The methods of the study on one map, run by the readable code (``"python"``, the reference)
    or by its compiled twins (``"compiled"``, :mod:`reference.solutions.compiled.dynamic`; the same
    runs, tested move for move, only faster)."""

    def __init__(self, blocked: np.ndarray, kind: str = "compiled") -> None:
        if kind not in ENGINES:
            raise ValueError(f"engine must be one of {ENGINES}, not {kind!r}")
        self.kind = kind
        self.neighbours = Neighbours(blocked)
        self.blocked = self.neighbours.blocked
        if kind == "compiled":
            from reference.solutions.compiled import dynamic as compiled

            self.compiled = compiled
            self.lookahead = compiled.Lookahead(self.blocked)

    def controlled(self, controller: Controller) -> Runner:
        """General LRTA* with a Python ``controller`` (line 3 of Figure 1)."""
        if self.kind == "python":
            return lambda start, goal, limit: general_lrta(self.neighbours, start, goal, controller, max_actions=limit)
        return lambda start, goal, limit: self.compiled.general_lrta_compiled(
            self.blocked, start, goal, controller, max_actions=limit, lookahead=self.lookahead)

    def fixed(self, depth: int) -> Runner:
        if self.kind == "python":
            return self.controlled(fixed_depth(depth))
        return lambda start, goal, limit: self.compiled.run_fixed(
            self.blocked, start, goal, depth, max_actions=limit, lookahead=self.lookahead)

    def oracle(self, d_max: int) -> Runner:
        return self.controlled(oracle(d_max) if self.kind == "python" else self.compiled.oracle_compiled(d_max))

    def tree(self, tree: DepthTree) -> Runner:
        return self.controlled(tree.controller())

    def database(self, level: int, cap: int, progress=None) -> PatternDatabase:
        if self.kind == "python":
            return build_pattern_database(self.neighbours, level, cap, progress)
        return self.compiled.build_pattern_database_compiled(self.neighbours, level, cap, progress)

    def with_database(self, database: PatternDatabase, goals: str) -> Runner:
        if self.kind == "python":
            return self.controlled(database.controller(goals))
        return lambda start, goal, limit: self.compiled.run_database(
            self.blocked, start, goal, database, goals, max_actions=limit, lookahead=self.lookahead)

    def samples(self, start: Cell, goal: Cell, d_maxes: Sequence[int], max_actions: int,
                follow: Controller | None = None):
        """Training features and labels (:func:`reference.solutions.dynamic.tree.collect_samples`)."""
        if self.kind == "python":
            return collect_samples(self.neighbours, start, goal, d_maxes, max_actions=max_actions, follow=follow)
        return self.compiled.collect_samples_compiled(self.blocked, start, goal, d_maxes, max_actions=max_actions,
                                                      lookahead=self.lookahead, follow=follow)


def run_problem(problem: Problem, runner: Runner, max_actions: int) -> dict:
    """One run as the CLI reports it (suboptimality = cost / optimal)."""
    run = runner(problem.start, problem.goal, max_actions)
    optimal = cost_value(problem.optimal)
    return {"reached": run.reached, "cost": cost_value(run.cost), "optimal": optimal,
            "suboptimality": cost_value(run.cost) / optimal if optimal else 1.0,
            "expansions_per_action": run.mean_expansions, "max_expansions_per_action": run.max_expansions}


@dataclass
class Study:
    """Settings of a compare run (the paper's numbers are the defaults where they fit)."""

    maps: Sequence[str] = STUDY_MAPS
    problems: int = 100
    cost_range: tuple[float, float] = (90.0, 100.0)
    cap: int = 20
    fixed_depths: Sequence[int] = (1, 2, 3, 4, 6, 8, 10, 14)
    tree_depths: Sequence[int] = (5, 10, 15, 20)
    levels: Sequence[int] = (2, 3, 4, 5)
    max_actions_factor: int = 20   # a run stops unreached after this many times its optimal cost in actions
    seed: int = 0
    engine: str = "compiled"
    tree_trajectories: str = "each"   # "each": training follows each d_max; "deepest": the largest d_max for all


def load_map(movingai: Path, name: str) -> np.ndarray:
    """The blocked array of a MovingAI map (ground-only agent: only passable ground is free)."""
    from reference.world.maps import read_terrain
    from reference.world.terrain import GROUND_ONLY, passable

    return ~passable(read_terrain(movingai / name), GROUND_ONLY)


def run_study(movingai: Path, study: Study, progress: bool = True,
              log: Callable[[str], None] = print) -> tuple[list[dict], list[dict], list[dict]]:
    """Every method on every problem; returns (rows, database rows for Table 2, one row per tree)."""
    from tqdm import tqdm

    maps = {name: Engine(load_map(movingai, name), study.engine) for name in study.maps}
    low, high = study.cost_range
    problems = {name: pick_problems(n.blocked, study.problems, low=low, high=high, seed=study.seed + i, map_name=name)
                for i, (name, n) in enumerate(maps.items())}
    rows: list[dict] = []
    databases: list[dict] = []
    trees: list[dict] = []

    def evaluate(method: str, setting, name: str, runner: Runner, bar) -> None:
        for number, problem in enumerate(problems[name]):
            limit = study.max_actions_factor * int(cost_value(problem.optimal) + 1)
            row = run_problem(problem, runner, limit)
            rows.append({"method": method, "setting": setting, "map": name, "problem": number, **row})
            bar.update(1)

    per_map = study.problems
    total = len(maps) * per_map * (len(study.fixed_depths) + 3 * len(study.tree_depths) + 3 * len(study.levels))
    with tqdm(total=total, desc="LRTA* runs", unit="run", disable=not progress) as bar:
        for name in maps:
            for depth in study.fixed_depths:
                evaluate("fixed", depth, name, maps[name].fixed(depth), bar)
        # Decision trees: train on the other maps' problems (leave one map out), test on this one.
        # The training agent follows the d_max search of the tree being trained (the paper's training
        # phase), or, with tree_trajectories="deepest", one run at the largest d_max labels them all.
        runs = [[d] for d in study.tree_depths] if study.tree_trajectories == "each" else [list(study.tree_depths)]
        samples: dict[tuple[str, int], tuple[np.ndarray, np.ndarray]] = {}
        for name in maps if study.tree_depths else ():
            for d_maxes in runs:
                xs, ys = [], {d: [] for d in d_maxes}
                for problem in problems[name][: max(5, per_map // 4)]:
                    x, y = maps[name].samples(problem.start, problem.goal, d_maxes,
                                              20 * int(cost_value(problem.optimal) + 1))
                    xs.append(x)
                    for d in d_maxes:
                        ys[d].append(y[d])
                for d in d_maxes:
                    samples[name, d] = (np.vstack(xs), np.concatenate(ys[d]))
        for d_max in study.tree_depths:
            for name in maps:
                others = [m for m in maps if m != name] or [name]
                x = np.vstack([samples[m, d_max][0] for m in others])
                y = np.concatenate([samples[m, d_max][1] for m in others])
                tree = train_depth_tree(x, y, seed=study.seed)
                log(f"tree d_max={d_max} for {name}: {len(y)} samples, min leaf {tree.min_samples_leaf}, "
                    f"ccp_alpha {tree.ccp_alpha:g}, CV accuracy {tree.accuracy:.2f}, {tree.leaves} leaves")
                evaluate("tree", d_max, name, maps[name].tree(tree), bar)
                evaluate("oracle", d_max, name, maps[name].oracle(d_max), bar)
                # Retrained once on the states the tree's own agent visits (DAgger), same problems.
                own_x, own_y = [x], [y]
                for other in others:
                    for problem in problems[other][: max(5, per_map // 4)]:
                        more_x, more_y = maps[other].samples(problem.start, problem.goal, [d_max],
                                                             20 * int(cost_value(problem.optimal) + 1),
                                                             follow=tree.controller())
                        own_x.append(more_x)
                        own_y.append(more_y[d_max])
                retrained = train_depth_tree(np.vstack(own_x), np.concatenate(own_y), seed=study.seed)
                log(f"  retrained on its own runs: {sum(map(len, own_y))} samples, CV accuracy "
                    f"{retrained.accuracy:.2f}, {retrained.leaves} leaves")
                evaluate("tree, retrained", d_max, name, maps[name].tree(retrained), bar)
                trees.append({"test map": name, "d_max": d_max, "samples": len(y), "leaves": tree.leaves,
                              "min_samples_leaf": tree.min_samples_leaf, "ccp_alpha": tree.ccp_alpha,
                              "cv_accuracy": tree.accuracy, "retrained_samples": sum(map(len, own_y)),
                              "retrained_leaves": retrained.leaves, "retrained_cv_accuracy": retrained.accuracy})
        for level in study.levels:
            for name in maps:
                database = maps[name].database(level, study.cap)
                databases.append(database_row(name, database))
                for goals, method in (("g", "pdb G"), ("gi", "pdb G+I"), ("i", "pdb I")):
                    evaluate(method, level, name, maps[name].with_database(database, goals), bar)
    return rows, databases, trees


def database_row(name: str, database: PatternDatabase) -> dict:
    """Table 2's row: size, build time, and how often the cap is reached toward the global goal
    (``capped_pairs``) and toward the intermediate goal (``capped_intermediate``), over the pairs
    of different, connected regions."""
    pairs = database.next_region >= 0
    via = np.where(pairs, database.next_region, 0)
    toward_via = np.take_along_axis(database.depth, via, axis=1)
    return {"map": name, "level": database.level, "regions": database.regions, "size": database.size,
            "seconds": database.seconds,
            "capped_pairs": float(np.mean(database.depth[pairs] > database.cap)) if pairs.any() else 0.0,
            "capped_intermediate": float(np.mean(toward_via[pairs] > database.cap)) if pairs.any() else 0.0}


def summarise(rows: Sequence[dict]) -> list[dict]:
    """One line per (method, setting): means over all problems of all maps.

    An unsolved run (stopped at its action limit) counts with the cost it had run up by then, so its
    sub-optimality is a lower bound; ``reached`` says how many runs solved their problem.
    """
    groups: dict[tuple, list[dict]] = {}
    for row in rows:
        groups.setdefault((row["method"], row["setting"]), []).append(row)
    table = []
    for (method, setting), members in groups.items():
        table.append({"method": method, "setting": setting, "problems": len(members),
                      "reached": sum(bool(r["reached"]) for r in members),
                      "suboptimality": float(np.mean([r["suboptimality"] for r in members])),
                      "suboptimality_se": float(np.std([r["suboptimality"] for r in members]) / np.sqrt(len(members))),
                      "expansions_per_action": float(np.mean([r["expansions_per_action"] for r in members])),
                      "max_expansions_per_action": max(r["max_expansions_per_action"] for r in members)})
    return table


def plot_tradeoff(summary: Sequence[dict], methods: Sequence[str], title: str, ax=None):
    """Sub-optimality against mean expansions per action, one labelled curve per method."""
    from matplotlib.figure import Figure

    if ax is None:
        ax = Figure(figsize=(7, 5)).subplots()
    markers = {"fixed": "s", "tree": "^", "tree, retrained": "<", "oracle": "v", "pdb G": "o", "pdb G+I": "D",
               "pdb I": "P"}
    for method in methods:
        points = sorted((r for r in summary if r["method"] == method), key=lambda r: r["expansions_per_action"])
        if not points:
            continue
        xs = [p["expansions_per_action"] for p in points]
        ys = [p["suboptimality"] for p in points]
        label = {"fixed": "fixed depth (label: d)", "tree": "decision tree (label: d_max)",
                 "tree, retrained": "tree retrained on its own runs (label: d_max)",
                 "oracle": "oracle depth (label: d_max)"}.get(method, f"{method} (label: level)")
        ax.errorbar(xs, ys, yerr=[p["suboptimality_se"] for p in points], marker=markers.get(method, "."),
                    label=label, capsize=2)
        for p in points:
            ax.annotate(str(p["setting"]), (p["expansions_per_action"], p["suboptimality"]), fontsize=7,
                        xytext=(3, 3), textcoords="offset points")
    ax.set_xscale("log")
    ax.set_xlabel("mean states expanded per action (log)")
    ax.set_ylabel("sub-optimality (cost / optimal cost)")
    ax.set_title(title)
    ax.grid(which="both", alpha=0.3)
    ax.legend(fontsize=8)
    return ax


def interpolate_expansions(points: Sequence[dict], quality: float) -> float | None:
    """Expansions per action the fixed-depth curve needs to reach ``quality`` (piecewise-linear in log x)."""
    ordered = sorted(points, key=lambda r: r["expansions_per_action"])
    for a, b in zip(ordered, ordered[1:]):
        low, high = sorted((a["suboptimality"], b["suboptimality"]))
        if low <= quality <= high and a["suboptimality"] != b["suboptimality"]:
            t = (quality - a["suboptimality"]) / (b["suboptimality"] - a["suboptimality"])
            return float(np.exp(np.log(a["expansions_per_action"]) * (1 - t) + np.log(b["expansions_per_action"]) * t))
    return None


def interpolate_quality(points: Sequence[dict], expansions: float) -> float | None:
    """Sub-optimality of the fixed-depth curve at ``expansions`` per action (linear in log x)."""
    ordered = sorted(points, key=lambda r: r["expansions_per_action"])
    for a, b in zip(ordered, ordered[1:]):
        if a["expansions_per_action"] <= expansions <= b["expansions_per_action"]:
            t = np.log(expansions / a["expansions_per_action"]) / np.log(b["expansions_per_action"] / a["expansions_per_action"])
            return float(a["suboptimality"] * (1 - t) + b["suboptimality"] * t)
    return None


#: A setting takes part in the headline checks only if it solved at least this share of its problems
#: (an unsolved run's sub-optimality is only a lower bound).
RELIABLE = 0.9


def reliable(row: dict) -> bool:
    return row["reached"] >= RELIABLE * row["problems"]


def headline_numbers(summary: Sequence[dict]) -> list[dict]:
    """For each dynamic setting: how much less work than fixed depth for its quality, and how much
    better quality (lower sub-optimality − 1) than fixed depth for its work."""
    fixed = [r for r in summary if r["method"] == "fixed" and reliable(r)]
    result = []
    for row in summary:
        if row["method"] == "fixed" or not reliable(row):
            continue
        needed = interpolate_expansions(fixed, row["suboptimality"])
        quality = interpolate_quality(fixed, row["expansions_per_action"])
        result.append({**row,
                       "work_ratio": needed / row["expansions_per_action"] if needed else None,
                       "quality_ratio": (quality - 1) / (row["suboptimality"] - 1)
                       if quality and row["suboptimality"] > 1 else None})
    return result


def write_csv(rows: Sequence[dict], path: Path) -> None:
    from reference.world.fileio import atomic_write_text

    buffer = io.StringIO()
    if rows:
        writer = csv.DictWriter(buffer, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    atomic_write_text(path, buffer.getvalue())


def markdown_table(rows: Sequence[dict], columns: Sequence[str]) -> str:
    def show(value):
        if isinstance(value, float):
            return f"{value:.3g}" if abs(value) < 1000 else f"{value:,.0f}"
        return "–" if value is None else str(value)

    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    lines += ["| " + " | ".join(show(r.get(c)) for c in columns) + " |" for r in rows]
    return "\n".join(lines) + "\n"


def write_figures(summary: Sequence[dict], out: Path, suffix: str = "", where: str = "") -> list[Path]:
    from reference.experiments.plots import save_figure

    paths = []
    for stem, methods, title in (
        ("figure5", ("fixed", "tree", "tree, retrained", "oracle", "pdb G"),
         "Figure 5: margins for improvement over fixed depth"),
        ("figure6", ("fixed", "pdb G", "pdb G+I", "pdb I"), "Figure 6: effects of dynamic goal selection"),
    ):
        ax = plot_tradeoff(summary, methods, title + where)
        paths.append(save_figure(ax.figure, out / f"{stem}{suffix}.png"))
    return paths


def compare(out: Path, movingai: Path, study: Study, scaling: Study | None = None, progress: bool = True,
            log: Callable[[str], None] = print) -> list[Path]:
    """Run the study (and the scaled-up one), write CSVs, tables, figures and findings.md into ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    began = time.time()
    rows, databases, trees = run_study(movingai, study, progress, log)
    write_csv(trees, out / "trees.csv")
    write_csv(rows, out / "runs.csv")
    write_csv(databases, out / "table2.csv")
    written = report(out, study, rows, databases, time.time() - began)
    if scaling is not None:
        written += compare_scaling(out, movingai, scaling, progress, log)
    return written


def report(out: Path, study: Study, rows: Sequence[dict], databases: Sequence[dict], seconds: float | None) -> list[Path]:
    """summary.csv, Figures 5 and 6 and findings.md from the runs (``ftr dynamic compare --replot`` too)."""
    from reference.world.fileio import atomic_write_text

    summary = summarise(rows)
    write_csv(summary, out / "summary.csv")
    written = write_figures(summary, out, where=f" ({len(study.maps)} maps x {study.problems} problems)")
    atomic_write_text(out / "findings.md", findings(study, summary, list(databases), seconds))
    return written + [out / "findings.md"]


def replot(out: Path) -> list[Path]:
    """Rebuild the summary, figures and findings from ``out``/runs.csv and table2.csv (no new runs)."""
    def read(path: Path) -> list[dict]:
        with open(path, newline="") as handle:
            return [{k: _parse(v) for k, v in row.items()} for row in csv.DictReader(handle)]

    rows = read(out / "runs.csv")
    databases = read(out / "table2.csv") if (out / "table2.csv").is_file() else []
    maps = tuple(dict.fromkeys(r["map"] for r in rows))
    study = Study(maps=maps, problems=max(r["problem"] for r in rows) + 1)
    written = report(out, study, rows, databases, None)
    if (out / "runs_512.csv").is_file():
        scaled = read(out / "runs_512.csv")
        scaled_databases = read(out / "table2_512.csv") if (out / "table2_512.csv").is_file() else []
        scaling = Study(maps=tuple(dict.fromkeys(r["map"] for r in scaled)), problems=max(r["problem"] for r in scaled) + 1,
                        cost_range=SCALING_COST_RANGE, cap=SCALING_CAP)
        written += scaling_report(out, scaling, scaled, scaled_databases, None)
    return written


def _parse(text: str):
    if text in ("True", "False"):
        return text == "True"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def compare_scaling(out: Path, movingai: Path, scaling: Study, progress: bool = True,
                    log: Callable[[str], None] = print) -> list[Path]:
    """Only the scaling run (Figure 7 and its Table 2 rows), into ``out``/scaling.md and figure7.png."""
    out.mkdir(parents=True, exist_ok=True)
    began = time.time()
    rows, databases, _ = run_study(movingai, scaling, progress, log)
    write_csv(rows, out / "runs_512.csv")
    write_csv(databases, out / "table2_512.csv")
    return scaling_report(out, scaling, rows, databases, time.time() - began)


def scaling_report(out: Path, scaling: Study, rows: Sequence[dict], databases: Sequence[dict],
                   seconds: float | None) -> list[Path]:
    from reference.experiments.plots import save_figure
    from reference.world.fileio import atomic_write_text

    summary = summarise(rows)
    ax = plot_tradeoff(summary, ("fixed", "tree", "pdb G", "pdb G+I", "pdb I"),
                       f"Figure 7: 512 x 512 map ({scaling.problems} problems, cap {scaling.cap})")
    figure = save_figure(ax.figure, out / "figure7.png")
    heads = headline_numbers(summary)
    took = "" if seconds is None else f"; {seconds / 60:.1f} min wall-clock"
    text = ("# Scaling run (Figure 7; generated by `ftr dynamic compare --only-scaling`)\n\n"
            f"Map {', '.join(scaling.maps)}, {scaling.problems} problems with optimal cost "
            f"{scaling.cost_range[0]:g}-{scaling.cost_range[1]:g}, cap {scaling.cap}{took}. Unsolved runs "
            f"(stopped after {scaling.max_actions_factor} x the optimal cost in actions) count with the cost "
            f"run up by then; ratios only for settings that solved at least {RELIABLE:.0%} of their problems.\n\n"
            + markdown_table(sorted(heads + [r for r in summary if not any(
                h["method"] == r["method"] and h["setting"] == r["setting"] for h in heads)],
                key=lambda r: (r["method"], r["setting"])),
                ["method", "setting", "problems", "reached", "suboptimality", "expansions_per_action",
                 "max_expansions_per_action", "work_ratio", "quality_ratio"])
            + "\n## Table 2 rows (512 x 512)\n\n"
            + markdown_table(list(databases), ["map", "level", "regions", "size", "seconds", "capped_pairs", "capped_intermediate"])
            + "\n## Headlines of the scaling run\n\n" + scaling_headlines(heads, databases, summary))
    atomic_write_text(out / "scaling.md", text)
    return [figure, out / "scaling.md"]


def _best(heads: Sequence[dict], methods: Sequence[str], key: str) -> dict | None:
    return max((h for h in heads if h["method"] in methods and h[key]), key=lambda h: h[key], default=None)


def _setting(row: dict) -> str:
    return f"{row['method']} {row['setting']} (sub-optimality {row['suboptimality']:.3f} at " \
           f"{row['expansions_per_action']:.1f} expansions per action)"


def goal_headline(heads: Sequence[dict], claim: str, summary: Sequence[dict] = ()) -> str:
    """"Intermediate goals expand an order of magnitude fewer states than fixed depth of similar
    sub-optimality" (Figures 6 and 7). Where no reliable intermediate-goal setting lies inside the
    fixed-depth curve, it holds a fortiori if one has a lower sub-optimality than every fixed depth
    (whose unsolved runs make theirs a lower bound) with a tenth of the expansions of the best one."""
    best = _best(heads, ("pdb G+I", "pdb I"), "work_ratio")
    if best is None:
        fixed = [r for r in summary if r["method"] == "fixed"]
        best_fixed = min(fixed, key=lambda r: r["suboptimality"], default=None)
        dominating = [r for r in summary if r["method"] in ("pdb G+I", "pdb I") and reliable(r) and best_fixed
                      and r["suboptimality"] < best_fixed["suboptimality"]
                      and 10 * r["expansions_per_action"] <= best_fixed["expansions_per_action"]]
        if dominating:
            top = min(dominating, key=lambda r: r["suboptimality"])
            return (f"- *{claim}*: **holds** (a fortiori: {len(dominating)} intermediate-goal settings solve at least "
                    f"{RELIABLE:.0%} of their problems with a lower sub-optimality than every fixed depth and a tenth "
                    f"of the expansions of the best one, fixed {best_fixed['setting']} at "
                    f"{best_fixed['suboptimality']:.2f} (a lower bound: it solved {best_fixed['reached']} of "
                    f"{best_fixed['problems']}) with {best_fixed['expansions_per_action']:.0f} expansions per action; "
                    f"e.g. {_setting(top)}).\n")
        return f"- *{claim}*: **not measured** (no reliable intermediate-goal setting inside the fixed-depth curve).\n"
    verdict = "holds" if best["work_ratio"] >= 10 else f"does not hold, because the best saving is {best['work_ratio']:.1f}x"
    return (f"- *{claim}*: **{verdict}** (best: {_setting(best)}; fixed depth needs {best['work_ratio']:.1f}x its "
            "expansions per action for the same sub-optimality).\n")


def scaling_headlines(heads: Sequence[dict], databases: Sequence[dict], summary: Sequence[dict]) -> str:
    text = goal_headline(heads, "Intermediate goals, even at abstraction level 6, expand an order of magnitude fewer "
                                "states than fixed depth of similar sub-optimality (Figure 7)", summary)
    level5 = [d for d in databases if d["level"] == 5]
    if level5:
        capped, intermediate = level5[0]["capped_pairs"], level5[0]["capped_intermediate"]
        about_ten = 0.05 <= capped <= 0.2
        verdict = ("holds" if about_ten and intermediate < 0.01 else
                   f"holds for local goals ({intermediate:.1%}); does not hold for the global goal, because its share "
                   f"is {capped:.0%}" if intermediate < 0.01 else f"does not hold, because the shares are {capped:.0%} "
                   f"and {intermediate:.0%}")
        text += (f"- *At level 5 (cap 30) the global goal reaches the cap about 10% of the time, local goals never*: "
                 f"**{verdict}** (measured over pairs of connected regions, not per action: {capped:.1%} toward the "
                 f"global goal, {intermediate:.1%} toward the intermediate goal).\n")
    return text


def findings(study: Study, summary, databases, seconds: float | None) -> str:
    """The headline claims checked against the measured numbers (filled in by the run)."""
    heads = headline_numbers(summary)
    best_work = max((h for h in heads if h["work_ratio"]), key=lambda h: h["work_ratio"], default=None)
    best_quality = max((h for h in heads if h["quality_ratio"]), key=lambda h: h["quality_ratio"], default=None)
    took = "" if seconds is None else f"; the runs took {seconds / 60:.1f} min of wall-clock time on the shared machine"
    text = ["# Dynamic control in LRTA*: findings (generated by `ftr dynamic compare`)\n\n",
            f"Maps: {', '.join(study.maps)}; {study.problems} problems per map, optimal cost "
            f"{study.cost_range[0]:g}-{study.cost_range[1]:g}, cap {study.cap}{took}. A run stops unreached after "
            f"{study.max_actions_factor} x its optimal cost in actions and then counts with the cost it had "
            "run up (a lower bound on its sub-optimality). Only settings that solved at least "
            f"{RELIABLE:.0%} of their problems take part in the headline checks (work_ratio, quality_ratio).\n\n",
            "## Every setting (means over all problems)\n\n",
            markdown_table(sorted(heads + [r for r in summary if r not in heads and not any(
                h["method"] == r["method"] and h["setting"] == r["setting"] for h in heads)],
                key=lambda r: (r["method"], r["setting"])),
                ["method", "setting", "problems", "reached", "suboptimality", "expansions_per_action",
                 "max_expansions_per_action", "work_ratio", "quality_ratio"]),
            "\n`work_ratio`: expansions per action fixed-depth LRTA* needs for the same sub-optimality "
            "(interpolated along its curve, log scale), divided by this setting's; `quality_ratio`: "
            "fixed depth's excess sub-optimality (sub-optimality − 1) at the same expansions per action, "
            "divided by this setting's. Empty where the setting lies outside the fixed-depth curve or "
            "solved too few problems.\n\n",
            "## Table 2: pattern databases per abstraction level\n\n",
            markdown_table(databases, ["map", "level", "regions", "size", "seconds", "capped_pairs", "capped_intermediate"]),
            "\n`size`: stored pairs (regions²); `seconds`: processor time to build (with the engine the study ran, "
            "compiled by default); `capped_pairs`: share of pairs of connected regions whose optimal depth toward the "
            "global goal exceeds the cap; `capped_intermediate`: the same toward their intermediate goal.\n\n",
            "## Headlines\n\n"]
    if best_work:
        verdict = "holds" if best_work["work_ratio"] >= 9 else (
            f"does not hold, because the best measured saving is {best_work['work_ratio']:.1f}x, not ~9x")
        text.append(f"- *Same quality as fixed-depth LRTA* with about nine times less computation per action*: "
                    f"**{verdict}** (best: {best_work['method']} {best_work['setting']}, sub-optimality "
                    f"{best_work['suboptimality']:.3f} at {best_work['expansions_per_action']:.1f} expansions per "
                    f"action, {best_work['work_ratio']:.1f}x less than fixed depth).\n")
    else:
        text.append("- *Nine times less computation*: **not measured** (no reliable dynamic setting falls inside the fixed-depth curve).\n")
    if best_quality:
        verdict = "holds" if best_quality["quality_ratio"] >= 4 else (
            f"does not hold, because the best measured gain is {best_quality['quality_ratio']:.1f}x, not ~4x")
        text.append(f"- *About four times better quality for the same computation* (excess sub-optimality): "
                    f"**{verdict}** (best: {best_quality['method']} {best_quality['setting']}, "
                    f"{best_quality['quality_ratio']:.1f}x).\n")
    else:
        text.append("- *Four times better quality*: **not measured** (no reliable dynamic setting within the fixed-depth curve's range).\n")
    # Figure 5: "the classifier approach outperforms the baseline for all but the largest depth (20)"
    for method in ("tree", "tree, retrained"):
        rows = sorted((r for r in summary if r["method"] == method), key=lambda r: r["setting"])
        if not rows:
            continue
        better = {r["setting"]: any(h["method"] == method and h["setting"] == r["setting"] and
                                    ((h["work_ratio"] or 0) > 1 or (h["quality_ratio"] or 0) > 1) for h in heads)
                  for r in rows}
        shallow = [d for d in better if d != max(better)]
        verdict = ("not measured (one d_max only)" if not shallow else "holds" if all(better[d] for d in shallow)
                   else "does not hold, because not every smaller d_max lies below the fixed-depth curve")
        text.append(f"- *The classifier outperforms fixed depth for all but the largest d_max* ({method}): "
                    f"**{verdict}**"
                    f" (below the curve: {', '.join(str(d) for d in better if better[d]) or 'none'}; "
                    f"not: {', '.join(str(d) for d in better if not better[d]) or 'none'}).\n")
    text.append(goal_headline(heads, "Intermediate goals expand an order of magnitude fewer states than fixed depth "
                                     "of similar sub-optimality (Figure 6)", summary))
    fixed = [r for r in summary if r["method"] == "fixed"]
    dominating = sorted((r for r in summary if r["method"] != "fixed" and reliable(r) and fixed and all(
        r["suboptimality"] < f["suboptimality"] for f in fixed) and r["expansions_per_action"] <= min(
        f["expansions_per_action"] for f in fixed if f["suboptimality"] == min(g["suboptimality"] for g in fixed))),
        key=lambda r: (r["method"], r["setting"]))
    if dominating:
        text.append("\nBeyond the fixed-depth curve (no ratio can be read off, the curve does not reach them): "
                    + "; ".join(_setting(r) for r in dominating)
                    + " have a lower sub-optimality than every fixed depth, with fewer expansions per action than "
                      "the best fixed depth.\n")
    return "".join(text)
