"""HAA* on the paper's own terrain construction and problem set (Harabor & Botea 2008, CIG; docs/haa.md).

The paper's experimental setup (read in the authors' sources, ``papers/aha/experimentalsetup.tex``
and ``aha/AHAScenarioManager.cpp`` of ``quinntai97/ahastar``):

* the 120 Baldur's Gate maps, and five derivative sets in which every traversable tile became a
  second terrain with probability 10, 20, 30, 40 or 50 % ("soft obstacles", SO): 720 maps, two
  terrains, three capabilities ({ground}, {trees}, {ground, trees});
* per map 100 experiments, each a random valid problem (a random capability, then random start and
  goal that agent may stand on, kept when AA* finds a path; HOG draws them for a minimum agent size),
  each solved by a small (1 × 1) and a large (2 × 2) agent: 144,000 problems;
* HAA* with cluster sizes 10, 15, 20 on high- and low-quality graphs against AA*.

The kit reads "two agent sizes in each experiment" as: the problem is drawn valid for the large agent
(HOG's ``generateExperiments(map, n, minsize)``), so the small agent can solve it too, and both do.
Figures per SO level: graph size, path quality, small against large agents at cluster size 15, and the
search effort and time by path length on SO 20 % (the set the paper's search-effort figure uses).

>>> [round(p, 1) for p in SO_LEVELS]
[0.0, 0.1, 0.2, 0.3, 0.4, 0.5]
"""

from __future__ import annotations

import math
from pathlib import Path
from functools import partial
from typing import NamedTuple, Sequence

import numpy as np

from reference.experiments.haa import (CLUSTER_SIZES, QUALITIES, QUALITY_BANDS, Problem, _error, _haa_rows, _mean, bg_maps,
                                       evaluate_map, graph_size_table, map_seed, plot_speed, quality_table,
                                       random_problems, speed_finding, speed_tables)
from reference.experiments.movingai_data import movingai_dir, require_movingai
from reference.experiments.report import (
    DOES_NOT_HOLD, HOLDS, INCONCLUSIVE, Claim, Finding, check, findings_markdown, for_every, to_csv, to_markdown,
    verdict, verdict_of_difference,
)
from reference.solutions.haa.multiterrain import SOFT_OBSTACLE_LEVELS, with_soft_obstacles
from reference.world.fileio import atomic_write_bytes, atomic_write_text
from reference.world.maps import read_terrain

SO_LEVELS = SOFT_OBSTACLE_LEVELS
#: The paper's capabilities on two terrains: {ground} (1), {trees} (2), {ground, trees} (3).
PAPER_MASKS = (1, 2, 3)
PAPER_SIZES = (2, 1)  # each experiment drawn valid for the large agent, then solved by both
PAPER_EXPERIMENTS = 100
PAPER_MAX_SIZE = 2


def paper_problems(terrain: np.ndarray, experiments: int, seed: int) -> list[Problem]:
    """``experiments`` random valid problems for the large agent, each followed by the same
    start, goal and capability for the small agent (with its own optimal cost)."""
    from reference.solutions.compiled.haa.abstraction import distances_compiled
    from reference.solutions.haa.clearance import true_clearance
    from reference.solutions.haa.capabilities import capability_of

    problems = []
    for large in random_problems(terrain, experiments, seed, masks=PAPER_MASKS, sizes=(PAPER_SIZES[0],)):
        problems.append(large)
        open_cells = true_clearance(terrain, capability_of(large.mask)) >= PAPER_SIZES[1]
        a, b = distances_compiled(~open_cells, large.start)
        problems.append(Problem(PAPER_SIZES[1], large.mask, large.start, large.goal,
                                (int(a[large.goal]), int(b[large.goal]))))
    return problems


def run_paper_map(task: tuple[str, float, int, int, Sequence[int]]) -> dict[str, list[dict]]:
    """One map at one soft-obstacle level: ``task = (map path, probability, experiments, seed, cluster sizes)``."""
    path, probability, experiments, seed, cluster_sizes = task
    name = Path(path).stem
    terrain = with_soft_obstacles(read_terrain(path), name, probability, seed=seed)
    so = round(probability * 100)
    problems = paper_problems(terrain, experiments, map_seed(f"{name}/SO{so}", seed))
    return evaluate_map(terrain, name, problems, cluster_sizes, PAPER_MAX_SIZE, timing_every=0, extra={"so": so})


def run_paper_study(maps: int | None = None, experiments: int = PAPER_EXPERIMENTS, seed: int = 2008,
                    levels: Sequence[float] = SO_LEVELS, cluster_sizes: Sequence[int] = CLUSTER_SIZES, jobs: int = 1,
                    progress: bool = True, movingai: Path | None = None, scheduler: str | None = None,
                    store: str | Path | None = None) -> dict[str, list[dict]]:
    """Every (map, SO level): ``{"graphs": [...], "runs": [...]}``.

    ``ftr haa compare --construction paper`` calls it, then :func:`write_paper_report`.

    Parameters
    ----------
    maps : int, optional
        Use the first ``maps`` Baldur's Gate maps (default: all).
    experiments : int
        Problems per map and soft-obstacle level (each a large and a small agent).
    seed : int
        Seeds the soft obstacles and the problems.
    levels : sequence of float
        The soft-obstacle probabilities (the paper's SO levels).
    cluster_sizes : sequence of int
        The cluster sides to build.
    jobs : int
        Processes, one (map, level) each.
    progress : bool
        Show a progress bar.
    movingai : Path, optional
        The MovingAI folder (default: see ``ftr movingai where``).
    scheduler : str, optional
        The address of a Dask scheduler to run the tasks on (:mod:`reference.experiments.tasks`).
    store : str or Path, optional
        A folder keeping finished tasks; a rerun with it skips them.

    Returns
    -------
    dict of str to list of dict
        ``"graphs"``: size per map, level, cluster size and quality; ``"runs"``: one row per query.

    Raises
    ------
    FileNotFoundError
        No Baldur's Gate maps under the MovingAI folder.

    See Also
    --------
    reference.experiments.haa.run_comparison : the kit's own construction of the evaluation.
    reference.solutions.compiled.haa.query.haa_star : the compiled query it runs (twin of
        :func:`reference.solutions.haa.query.haa_star`).
    """
    from reference.experiments.tasks import run_tasks

    paths = bg_maps(movingai)[:maps] if maps is not None else bg_maps(movingai)
    if not paths:
        require_movingai(movingai_dir(movingai), "bgmaps")
        raise FileNotFoundError(f"no Baldur's Gate maps under {movingai_dir(movingai) / 'bgmaps'}")
    tasks = [(str(p), level, experiments, seed, tuple(cluster_sizes)) for level in levels for p in paths]
    per_map = run_tasks(run_paper_map, tasks, jobs=jobs, scheduler=scheduler, store=store,
                        description="maps x SO levels", progress=progress)
    return {"graphs": [g for m in per_map for g in m["graphs"]], "runs": [r for m in per_map for r in m["runs"]]}


# -- tables ------------------------------------------------------------------------------------------


def _levels(rows: Sequence[dict]) -> list[int]:
    return sorted({int(r["so"]) for r in rows})


def graph_size_by_so(graphs: Sequence[dict]) -> list[dict]:
    """The paper's graph-size figure: nodes, edges and memory as % of the map's, per SO, cluster size, quality."""
    return [{"SO [%]": so, **row} for so in _levels(graphs)
            for row in graph_size_table([g for g in graphs if g["so"] == so])]


def quality_by_so(runs: Sequence[dict]) -> list[dict]:
    """The paper's path-quality figure (a): % above optimal per SO, cluster size and quality, with
    the small and large agents apart (figure (b) is its CS15 columns)."""
    table = []
    for so in _levels(runs):
        rows_so = [r for r in runs if r["so"] == so]
        for row in quality_table(rows_so):
            cs, q = row["cluster size"], row["quality"]
            haa = _haa_rows(rows_so, cs, q)
            errors = [_error(r) for r in haa if math.isfinite(r["length"])]
            half = 1.96 * float(np.std(errors, ddof=1)) / math.sqrt(len(errors)) if len(errors) > 1 else math.nan
            table.append({"SO [%]": so, "cluster size": cs, "quality": q, "queries": row["problems"],
                          "found": row["found"], "error [%]": row["error [%] all"], "error 95% half-width": half,
                          "error [%] small (1x1)": _mean([_error(r) for r in haa if r["size"] == 1]),
                          "error [%] large (2x2)": _mean([_error(r) for r in haa if r["size"] == 2]),
                          "expansions HAA*": row["expansions HAA*"], "expansions AA*": row["expansions AA*"]})
    return table


# -- findings ------------------------------------------------------------------------------------------


class PaperTables(NamedTuple):
    """What the paper-construction claims read: the runs, :func:`quality_by_so` and :func:`graph_size_by_so`."""

    runs: Sequence[dict]
    quality: Sequence[dict]
    sizes: Sequence[dict]

    @property
    def levels(self) -> list[int]:
        return _levels(self.runs)

    @property
    def cluster_sizes(self) -> list[int]:
        return sorted({row["cluster size"] for row in self.quality})


def paper_speed(tables: PaperTables) -> Finding:
    """"An order of magnitude faster than AA*" at SO 20% (the set of the paper's search-effort figure)."""
    levels = tables.levels
    effort_level = 20 if 20 in levels else levels[len(levels) // 2]
    return speed_finding([r for r in tables.runs if r["so"] == effort_level],
                         f"The paper's construction, SO {effort_level}% (the set of the paper's search-effort "
                         "figure), agent sizes 1 and 2, three capabilities")


def quality_in_band(tables: PaperTables, q: str) -> Finding:
    """"HQ paths are 3-5% above optimal, LQ 6-10%, in most cases", over the cells (SO, cluster size)
    of :func:`quality_by_so`: each cell is judged by the kit's rule (its 95% interval inside the
    band, outside it, or across an edge); the claim holds when more than half of the cells hold,
    does not hold when more than half do not, and is inconclusive otherwise."""
    low, high = QUALITY_BANDS[q]
    cells = [row for row in tables.quality if row["quality"] == q]
    judged = [(row, verdict(row["error [%]"] - row["error 95% half-width"],
                            row["error [%]"] + row["error 95% half-width"], above=low, below=high)) for row in cells]
    count = {v: sum(1 for _, w in judged if w == v) for v in (HOLDS, DOES_NOT_HOLD, INCONCLUSIVE)}
    overall = (HOLDS if 2 * count[HOLDS] > len(cells) else DOES_NOT_HOLD if 2 * count[DOES_NOT_HOLD] > len(cells)
               else INCONCLUSIVE)
    levels = sorted({int(row["SO [%]"]) for row in tables.quality})
    text = ("mean % above optimal ± 95% half-width per (SO, cluster size), each cell's verdict: "
            + "; ".join(f"SO {so}%: " + ", ".join(f"CS{int(row['cluster size'])} {row['error [%]']:.1f} ± "
                                                  f"{row['error 95% half-width']:.1f} ({w})"
                                                  for row, w in judged if int(row["SO [%]"]) == so) for so in levels)
            + f". Band {low:.0f}-{high:.0f}% (the text's): {count[HOLDS]} of {len(cells)} cells inside, "
            f"{count[DOES_NOT_HOLD]} outside, {count[INCONCLUSIVE]} across an edge")
    return Finding(f"{'HQ' if q == 'high' else 'LQ'} paths are {low:.0f}-{high:.0f}% above optimal in most "
                   "cases (paper's construction)", overall, text)


def quality_findings(quality: Sequence[dict]) -> list[Finding]:
    """:func:`quality_in_band` for both qualities, on :func:`quality_by_so`'s rows (or its CSV)."""
    return check([partial(quality_in_band, q=q) for q in QUALITY_BANDS], PaperTables([], quality, []))


def _mean_and_se(values: Sequence[float]) -> tuple[float, float]:
    """The mean and its standard error (0 for fewer than two values)."""
    if len(values) < 2:
        return _mean(values), 0.0
    return float(np.mean(values)), float(np.std(values, ddof=1)) / math.sqrt(len(values))


def _difference(first: Sequence[float], second: Sequence[float], *, positive: bool) -> tuple[str, str]:
    """mean(first) - mean(second) of two independent samples (problems of different maps), judged
    above 0 (``positive``) or below it on its 95% interval (normal, 1.96 standard errors: thousands
    of problems per side at the paper's scale), and in words."""
    (a, a_se), (b, b_se) = _mean_and_se(first), _mean_and_se(second)
    half = 1.96 * math.hypot(a_se, b_se)
    if min(len(first), len(second)) < 2:
        return INCONCLUSIVE, f"{a - b:+.1f} (too few problems: no interval)"
    return verdict_of_difference(a - b, half, positive=positive), f"{a - b:+.1f} ± {half:.1f}"


def _problem_errors(runs: Sequence[dict], so: int) -> list[float]:
    """Each problem's mean % above optimal over its HAA* queries (every cluster size and quality) at ``so``."""
    by_problem: dict[tuple, list[float]] = {}
    for r in runs:
        if r["algorithm"] == "HAA*" and r["so"] == so and math.isfinite(r["length"]):
            by_problem.setdefault((r["map"], r["problem"], r["size"]), []).append(_error(r))
    return [float(np.mean(errors)) for errors in by_problem.values()]


def error_lowest_at_so_20(tables: PaperTables) -> Finding | None:
    """The error (each problem's mean over cluster sizes and qualities) is lowest at SO 20%, so higher
    at every other level, the top one included: each level minus SO 20% judged above 0 on its 95%
    interval (:func:`for_every`)."""
    levels = tables.levels
    if 20 not in levels or len(levels) < 2:
        return None
    errors = {so: _problem_errors(tables.runs, so) for so in levels}
    judged = {so: _difference(errors[so], errors[20], positive=True) for so in levels if so != 20}
    return Finding(
        "The error is lowest on SO 20% and grows toward SO 50% (both qualities)", for_every([v for v, _ in judged.values()]),
        "mean % above optimal over cluster sizes and qualities: " + ", ".join(f"SO {so}%: {_mean(e):.1f}" for so, e in errors.items())
        + "; each level minus SO 20% (95% CI over the problems): " + ", ".join(
            f"SO {so}% {words} ({v})" for so, (v, words) in judged.items()))


def small_agents_improve(tables: PaperTables) -> Finding | None:
    """At CS15, from SO 20% to the top SO, small agents' error falls and large agents' rises, for
    both qualities: four differences (top SO minus SO 20%) judged on their 95% intervals."""
    levels, cluster_sizes = tables.levels, tables.cluster_sizes
    if 20 not in levels or max(levels) == 20:
        return None
    mid, top = (15 if 15 in cluster_sizes else cluster_sizes[len(cluster_sizes) // 2]), max(levels)

    def errors(so: int, q: str, size: int) -> list[float]:
        return [_error(r) for r in _haa_rows(tables.runs, mid, q)
                if r["so"] == so and r["size"] == size and math.isfinite(r["length"])]

    judged = {(q, size): _difference(errors(top, q, size), errors(20, q, size), positive=size == PAPER_SIZES[0])
              for q in QUALITIES for size in (1, PAPER_SIZES[0])}
    return Finding(
        f"At CS{mid}, small agents keep improving beyond SO 20% while large agents degrade",
        for_every([v for v, _ in judged.values()]),
        "; ".join(f"{q} quality: small " + ", ".join(f"SO {so}% {_mean(errors(so, q, 1)):.1f}" for so in levels)
                  + "; large " + ", ".join(f"SO {so}% {_mean(errors(so, q, PAPER_SIZES[0])):.1f}" for so in levels)
                  for q in QUALITIES)
        + f"; SO {top}% minus SO 20% (95% CI): " + ", ".join(
            f"{q} {'small' if size == 1 else 'large'} {words} ({v})" for (q, size), (v, words) in judged.items()),
        because=", ".join(f"{q} {'small agents do not improve' if size == 1 else 'large agents do not degrade'}"
                          for (q, size), (v, _) in judged.items() if v == DOES_NOT_HOLD))


def _graph_sizes_in_words(tables: PaperTables) -> str:
    """The abstract graphs' sizes beside the paper's: SO 0% at the largest cluster size, the largest
    graphs of each quality, and the largest cluster size's worst cases."""
    levels, largest_cs = tables.levels, max(tables.cluster_sizes)
    size = {(row["SO [%]"], row["cluster size"], row["quality"]): row for row in tables.sizes}
    hq_peak, lq_peak = (max((row for row in tables.sizes if row["quality"] == q), key=lambda row: row["memory [% of map]"])
                        for q in ("high", "low"))
    text = ""
    if 0 in levels:
        hq0, lq0 = size[(0, largest_cs, "high")], size[(0, largest_cs, "low")]
        text += (f"SO 0% CS{largest_cs}: HQ nodes {hq0['nodes [% of map]']:.1f}%, edges {hq0['edges [% of map]']:.1f}% "
                 f"(paper 4.0%, 5.0%); LQ nodes {lq0['nodes [% of map]']:.1f}%, edges {lq0['edges [% of map]']:.1f}% "
                 f"(paper 2.0%, 0.9%); memory HQ {hq0['memory [% of map]']:.1f}% (paper 8.7%), LQ "
                 f"{lq0['memory [% of map]']:.1f}% (paper 1.8%). ")
    text += (f"Largest HQ graph: SO {hq_peak['SO [%]']}% CS{hq_peak['cluster size']}, memory {hq_peak['memory [% of map]']:.1f}% "
             f"(paper: SO 20% CS10, 63.8%); largest LQ graph: SO {lq_peak['SO [%]']}% CS{lq_peak['cluster size']}, "
             f"{lq_peak['memory [% of map]']:.1f}% (paper: SO 50% CS10, 40.4%)")
    if len(levels) > 1:
        text += (f"; CS{largest_cs} worst cases: HQ {max(size[(so, largest_cs, 'high')]['memory [% of map]'] for so in levels):.1f}% "
                 f"(paper 47.0%), LQ {max(size[(so, largest_cs, 'low')]['memory [% of map]'] for so in levels):.1f}% (paper 26.4%)")
    return text


def paper_graph_is_a_fraction(tables: PaperTables) -> Finding:
    """In every case (SO, cluster size, quality) the abstract graph needs less memory than the map."""
    return Finding("In all cases the abstract graph is a fraction of the map graph (memory, the paper's byte count)",
                   all(row["memory [% of map]"] < 100 for row in tables.sizes), _graph_sizes_in_words(tables))


def paper_haa_is_complete(tables: PaperTables) -> Finding:
    """An exact count: HAA* finds a path for every problem of the paper's construction."""
    missing = [r for r in tables.runs if r["algorithm"] == "HAA*" and not math.isfinite(r["length"])]
    return Finding("HAA* is complete on the paper's problems", not missing,
                   f"{len(missing)} of {sum(1 for r in tables.runs if r['algorithm'] == 'HAA*')} HAA* queries found no path")


#: The paper's claims on its own construction, in the order findings.md lists them.
PAPER_CLAIMS: list[Claim] = [paper_speed, *(partial(quality_in_band, q=q) for q in QUALITY_BANDS), error_lowest_at_so_20,
                             small_agents_improve, paper_graph_is_a_fraction, paper_haa_is_complete]


def paper_findings(result: dict[str, list[dict]]) -> list[Finding]:
    """The paper's claims (:data:`PAPER_CLAIMS`) checked on a paper-construction study's runs and graphs."""
    return check(PAPER_CLAIMS, PaperTables(result["runs"], quality_by_so(result["runs"]), graph_size_by_so(result["graphs"])))


# -- figures -------------------------------------------------------------------------------------------


def plot_graph_size_by_so(graphs: Sequence[dict]):
    """The abstract graph's nodes and edges as % of the map graph's, against the share of soft obstacles."""
    from matplotlib.figure import Figure

    table = graph_size_by_so(graphs)
    figure = Figure(figsize=(12, 4), layout="constrained")
    axes = figure.subplots(1, 2)
    for ax, column in zip(axes, ("nodes [% of map]", "edges [% of map]")):
        for quality, style in (("high", "-"), ("low", "--")):
            for c in sorted({row["cluster size"] for row in table}):
                rows = [row for row in table if row["cluster size"] == c and row["quality"] == quality]
                ax.plot([row["SO [%]"] for row in rows], [row[column] for row in rows], "o" + style,
                        label=f"{quality[0].upper()}Q CS{c}")
        ax.set(title=f"abstract graph {column.split(' ')[0]}, % of the map graph's", xlabel="soft obstacles [%]",
               ylabel="% of the map graph")
        ax.grid(alpha=0.3)
    axes[0].legend(fontsize=8, ncol=2)
    return figure


def plot_quality_by_so(table: Sequence[dict]):
    """The paper's path-quality figure from :func:`quality_by_so`'s table (or its CSV): (a) % above
    optimal per SO, cluster size and quality, with the text's bands; (b) small and large agents."""
    from matplotlib.figure import Figure

    figure = Figure(figsize=(12, 4), layout="constrained")
    axes = figure.subplots(1, 2)
    cluster_sizes = sorted({row["cluster size"] for row in table})
    for quality, style in (("high", "-"), ("low", "--")):
        for c in cluster_sizes:
            rows = [row for row in table if row["cluster size"] == c and row["quality"] == quality]
            axes[0].errorbar([row["SO [%]"] for row in rows], [row["error [%]"] for row in rows],
                             yerr=[row["error 95% half-width"] for row in rows], fmt="o" + style, capsize=2,
                             label=f"{quality[0].upper()}Q CS{c}")
    for quality, colour in (("high", "tab:blue"), ("low", "tab:orange")):   # the bands the findings judge by
        low, high = QUALITY_BANDS[quality]
        axes[0].axhspan(low, high, color=colour, alpha=0.12, label=f"paper: {quality[0].upper()}Q {low:g}-{high:g}%")
    axes[0].set(title="(a) path length above optimal", xlabel="soft obstacles [%]", ylabel="mean % above optimal")
    mid = 15 if 15 in cluster_sizes else cluster_sizes[len(cluster_sizes) // 2]
    for quality, style in (("high", "-"), ("low", "--")):
        rows = [row for row in table if row["cluster size"] == mid and row["quality"] == quality]
        for key, label in (("error [%] small (1x1)", "small"), ("error [%] large (2x2)", "large")):
            axes[1].plot([row["SO [%]"] for row in rows], [row[key] for row in rows], "o" + style,
                         label=f"{quality[0].upper()}Q, {label} agents")
    axes[1].set(title=f"(b) small and large agents, CS{mid}", xlabel="soft obstacles [%]", ylabel="mean % above optimal")
    for ax in axes:   # legends below the panels: inside, (b)'s hid the large agents' lines
        ax.legend(fontsize=8, ncol=4, loc="upper center", bbox_to_anchor=(0.5, -0.16))
        ax.grid(alpha=0.3)
    return figure


# -- the report ------------------------------------------------------------------------------------------


def read_paper_result(folder: str | Path) -> dict[str, list[dict]]:
    """The rows of a paper-construction report, read back from its CSVs."""
    import csv

    from reference.experiments.haa import _parse

    import gzip

    def rows(name: str) -> list[dict]:
        path = Path(folder) / name
        if not path.is_file():
            raise FileNotFoundError(f"{path}: no such file (run 'ftr haa compare --construction paper' first)")
        opened = gzip.open(path, "rt") if name.endswith(".gz") else path.open()
        with opened as lines:
            return [{key: _parse(value) for key, value in row.items()} for row in csv.DictReader(lines)]

    return {"runs": rows("runs.csv.gz"), "graphs": rows("graphs.csv")}


def write_paper_report(result: dict[str, list[dict]], outdir: str | Path, command: str = "", scaled_down: str = "") -> list[Path]:
    """Tables, figures and ``findings.md`` of the paper-construction study into ``outdir``."""
    import gzip

    from reference.experiments.plots import save_figure

    outdir = Path(outdir)
    written: list[Path] = []

    def text(name: str, content: str) -> None:
        atomic_write_text(outdir / name, content)
        written.append(outdir / name)

    runs, graphs = result["runs"], result["graphs"]
    levels = _levels(runs)
    effort_level = 20 if 20 in levels else levels[len(levels) // 2]
    effort_runs = [r for r in runs if r["so"] == effort_level]
    # every query, compressed: a million rows at the paper's scale (100 MB as text)
    atomic_write_bytes(outdir / "runs.csv.gz", gzip.compress(to_csv(runs).encode(), compresslevel=9, mtime=0))
    written.append(outdir / "runs.csv.gz")
    text("graphs.csv", to_csv(graphs))
    tables = {"table1_graph_size_by_so": graph_size_by_so(graphs), "table2_path_quality_by_so": quality_by_so(runs),
              "table3_speed_by_length_so20": speed_tables(effort_runs)}
    for stem, table in tables.items():
        text(f"{stem}.csv", to_csv(table))
        text(f"{stem}.md", to_markdown(table))
    for stem, figure in (("figure_graph_size_by_so", plot_graph_size_by_so(graphs)),
                         ("figure_path_quality_by_so", plot_quality_by_so(tables["table2_path_quality_by_so"])),
                         ("figure_speed_by_length_so20", plot_speed(effort_runs, f"SO {effort_level}%"))):
        written.append(save_figure(figure, outdir / f"{stem}.png", dpi=110))
    maps = len({g["map"] for g in graphs})
    experiments = len({(r["map"], r["so"], r["problem"]) for r in runs if r["algorithm"] == "AA*" and r["size"] == 2})
    queries = sum(1 for r in runs if r["algorithm"] == "AA*")
    report = ["# Harabor & Botea (2008), HAA*, on the paper's own terrain construction", "",
              f"{maps} Baldur's Gate maps at SO {', '.join(str(so) for so in levels)}% (each traversable tile "
              f"turned into trees with that probability): {maps * len(levels)} maps, {experiments} experiments "
              f"drawn valid for the 2 x 2 agent and solved by the 1 x 1 and the 2 x 2 agent ({queries} problems; "
              "the paper: 720 maps, 144,000 problems), three capabilities, HAA* with cluster sizes "
              f"{', '.join(str(c) for c in sorted({g['cluster_size'] for g in graphs}))} on high- and low-quality "
              "graphs against AA*, both compiled (identical results to the readable code). The kit's own "
              "three-terrain construction is the study one folder up (`../findings.md`)."]
    if scaled_down:
        report += ["", f"Scaled down: {scaled_down}"]
    if command:
        report += ["", f"Made with `{command}`."]
    report += ["", "## The paper's claims, checked", "", findings_markdown(paper_findings(result)),
               "## Table 1: abstract graph size per SO level (the paper's graph-size figure)", "",
               to_markdown(tables["table1_graph_size_by_so"]),
               "## Table 2: path quality per SO level, small and large agents (the paper's path-quality figure)", "",
               to_markdown(tables["table2_path_quality_by_so"]),
               f"## Table 3: AA* / HAA* by optimal path length on SO {effort_level}% (the paper's search-effort figure)", "",
               to_markdown(tables["table3_speed_by_length_so20"]),
               "Figures: `figure_graph_size_by_so.png`, `figure_path_quality_by_so.png`, "
               "`figure_speed_by_length_so20.png`; every query: `runs.csv.gz`; every graph: `graphs.csv`.", ""]
    text("findings.md", "\n".join(report))
    return written
