"""Figure 8 of Bulitko et al. (2007): dynamic-control LRTA* against the state of the art.

The paper compares its methods with Koenig's LRTA* (Koenig 2004), prioritized LRTA* (Rayner et al.
2007) and PR LRTS (Bulitko, Sturtevant & Kazakevich 2005) "for various parameter settings", keeping
only the settings whose *worst-case* expansions per move stay within 1,000. The three run here on
the study's problems (the same seeded ones as ``runs.csv``, so every point pairs problem by
problem) with the readable planners of :mod:`reference.solutions.dynamic` (fast enough in Python);
the dynamic-control points are read from the study's ``runs.csv`` on the same problems.

>>> surviving([{"max_expansions_per_action": 1000}, {"max_expansions_per_action": 1001}])
[{'max_expansions_per_action': 1000}]
"""

from __future__ import annotations

import time
from functools import partial
from pathlib import Path
from typing import Callable, NamedTuple, Sequence

import numpy as np

from reference.experiments.report import (
    DOES_NOT_HOLD, HOLDS, INCONCLUSIVE, Claim, Finding, check, ci95, findings_list, for_every, for_some, verdict,
)

#: The paper's constraint: worst-case states expanded per move.
WORST_CASE = 1000
KOENIG_LOOKAHEADS = (1, 4, 16, 64, 256, 1000)
PRIORITIZED_UPDATES = (1, 5, 10, 20, 40)     # states taken from the queue per action
PRIORITIZED_QUEUE = 40
PR_LRTS_LEVELS = (3, 4, 5)
PR_LRTS_DEPTHS = (1, 3, 5)                   # the paper's zoom: level 4, γ = 1, depths 1, 3, 5
BASELINES = ("Koenig's LRTA*", "prioritized LRTA*", *(f"PR LRTS, level {level}" for level in PR_LRTS_LEVELS))
#: The study's methods shown beside them.
DYNAMIC = ("fixed", "tree, same maps", "pdb G", "pdb G+I", "pdb I", "pdb G+I, once", "pdb I, once")
#: The pattern databases with intermediate goals, under both goal rules (the paper's and the kit's).
INTERMEDIATE_GOAL_METHODS = ("pdb G+I", "pdb I", "pdb G+I, once", "pdb I, once")


def surviving(points: Sequence[dict]) -> list[dict]:
    """The settings within the paper's worst case of expansions per move."""
    return [p for p in points if p["max_expansions_per_action"] <= WORST_CASE]


def run_baselines(movingai: Path, maps: Sequence[str], per_map: int, *, max_actions_factor: int = 20,
                  progress: bool = True, log: Callable[[str], None] = print) -> list[dict]:
    """Koenig's LRTA*, prioritized LRTA* and PR LRTS on the first ``per_map`` study problems of each map."""
    from tqdm import tqdm

    from reference.experiments.dynamic import STUDY_MAPS, Runner, action_limit, load_map, pick_problems, run_problem
    from reference.solutions.dynamic.abstraction import clique_hierarchy
    from reference.solutions.dynamic.koenig_lrta import koenig_lrta
    from reference.solutions.dynamic.lrta import Neighbours
    from reference.solutions.dynamic.pr_lrts import AbstractMap, pr_lrts
    from reference.solutions.dynamic.prioritized_lrta import prioritized_lrta

    # One maker per method, so that each runner(start, goal, max_actions) holds its own setting.
    def koenig(neighbours: Neighbours, lookahead: int) -> Runner:
        return lambda start, goal, limit: koenig_lrta(neighbours, start, goal, lookahead, max_actions=limit)

    def prioritized(neighbours: Neighbours, updates: int) -> Runner:
        return lambda start, goal, limit: prioritized_lrta(neighbours, start, goal, updates,
                                                           queue_size=PRIORITIZED_QUEUE, max_actions=limit)

    def refined(neighbours: Neighbours, abstract: AbstractMap, depth: int) -> Runner:
        return lambda start, goal, limit: pr_lrts(neighbours, start, goal, abstract.level, depth,
                                                  max_actions=limit, abstract=abstract)

    rows = []
    settings = len(KOENIG_LOOKAHEADS) + len(PRIORITIZED_UPDATES) + len(PR_LRTS_LEVELS) * len(PR_LRTS_DEPTHS)
    with tqdm(total=len(maps) * per_map * settings, desc="Figure 8 runs", unit="run", disable=not progress) as bar:
        for i, name in enumerate(maps):
            blocked = load_map(movingai, name)
            neighbours = Neighbours(blocked)
            # the study's seed of this map, so these are the first problems of runs.csv
            seed = STUDY_MAPS.index(name) if name in STUDY_MAPS else i
            problems = pick_problems(blocked, per_map, seed=seed, map_name=name)
            hierarchy = clique_hierarchy(neighbours, max(PR_LRTS_LEVELS))
            runners = [("Koenig's LRTA*", k, koenig(neighbours, k)) for k in KOENIG_LOOKAHEADS]
            runners += [("prioritized LRTA*", n, prioritized(neighbours, n)) for n in PRIORITIZED_UPDATES]
            for level in PR_LRTS_LEVELS:
                abstract = AbstractMap(hierarchy, level)
                runners += [(f"PR LRTS, level {level}", d, refined(neighbours, abstract, d)) for d in PR_LRTS_DEPTHS]
            for method, setting, runner in runners:
                began = time.process_time()
                for number, problem in enumerate(problems):
                    rows.append({"method": method, "setting": setting, "map": name, "problem": number,
                                 **run_problem(problem, runner, action_limit(problem, max_actions_factor))})
                    bar.update(1)
                log(f"{name} {method} {setting}: {time.process_time() - began:.1f} processor s")
    return rows


def figure8_rows(baseline_rows: Sequence[dict], study_rows: Sequence[dict]) -> list[dict]:
    """The baselines' runs and the study's methods' runs on the same (map, problem) pairs."""
    ran = {(r["map"], r["problem"]) for r in baseline_rows}
    return [*baseline_rows, *(r for r in study_rows if r["method"] in DYNAMIC and (r["map"], r["problem"]) in ran)]


def figure8_points(rows: Sequence[dict]) -> list[dict]:
    """Every setting's summary over :func:`figure8_rows` (the same problems for all)."""
    from reference.experiments.dynamic import summarise

    return summarise(rows)

#: One axis of the figure on which two settings are compared run by run.
AXES = ("suboptimality", "expansions_per_action")

#: What :func:`better_on` says when two settings give the same value on every problem.
EQUAL = "equal"


class Figure8Tables(NamedTuple):
    """What Figure 8's claims read: the surviving settings (:func:`surviving`) and every run of them,
    each setting's runs on the same problems (:func:`figure8_rows`)."""

    alive: Sequence[dict]
    runs: dict[tuple, dict[tuple, dict]]   # (method, setting) -> (map, problem) -> run

    @classmethod
    def of(cls, alive: Sequence[dict], rows: Sequence[dict]) -> "Figure8Tables":
        runs: dict[tuple, dict[tuple, dict]] = {}
        for r in rows:
            runs.setdefault((r["method"], r["setting"]), {})[(r["map"], r["problem"])] = r
        return cls(alive, runs)


def better_on(axis: str, first: dict, second: dict, tables: Figure8Tables) -> str:
    """Is ``first`` lower than ``second`` on ``axis``? The paired difference, first minus second on
    the problems both ran, judged below 0 by the rule (Student's t over the problems); :data:`EQUAL`
    when it is 0 on every problem. An unsolved run's sub-optimality is a lower bound: when only
    ``second`` has unsolved runs the difference is an upper bound (it can hold, never fail), when only
    ``first`` has, a lower bound; when both have, it counts as measured if both solved at least 90 %,
    and is inconclusive otherwise.

    >>> t = Figure8Tables.of([], [{"method": m, "setting": 1, "map": "m", "problem": i, "reached": True,
    ...                            "suboptimality": s, "expansions_per_action": 1.0}
    ...                           for m, subs in (("a", (1.0, 1.2)), ("b", (1.5, 1.9))) for i, s in enumerate(subs)])
    >>> a, b = {"method": "a", "setting": 1}, {"method": "b", "setting": 1}
    >>> better_on("suboptimality", a, b, t), better_on("expansions_per_action", a, b, t)   # -0.6 +- 1.27
    ('inconclusive', 'equal')
    """
    from reference.experiments.dynamic import RELIABLE   # the study's 90 % rule (docs/verdicts.md, "Bounds")

    mine, theirs = tables.runs[(first["method"], first["setting"])], tables.runs[(second["method"], second["setting"])]
    common = [key for key in mine if key in theirs]
    differences = [mine[k][axis] - theirs[k][axis] for k in common]
    if len(differences) < 2:
        return INCONCLUSIVE
    if not any(differences):
        return EQUAL
    bound = None
    if axis == "suboptimality":
        unsolved = [sum(not runs[k]["reached"] for k in common) for runs in (mine, theirs)]
        if unsolved[0] and unsolved[1]:
            if max(unsolved) > (1 - RELIABLE) * len(common):
                return INCONCLUSIVE
        elif unsolved[1]:
            bound = "upper"
        elif unsolved[0]:
            bound = "lower"
    mean, half = float(np.mean(differences)), ci95(differences)
    return verdict(mean - half, mean + half, below=0.0, bound=bound)


def dominates(first: dict, second: dict, tables: Figure8Tables) -> str:
    """Is ``first`` better than ``second`` on one axis and no worse on the other (:func:`better_on`
    on both): holds when one axis holds and the other holds or is equal, does not hold when either
    does not (or both are equal), inconclusive otherwise."""
    axes = [better_on(axis, first, second, tables) for axis in AXES]
    if DOES_NOT_HOLD in axes or axes == [EQUAL, EQUAL]:
        return DOES_NOT_HOLD
    return HOLDS if HOLDS in axes and set(axes) <= {HOLDS, EQUAL} else INCONCLUSIVE


#: The main panel shows sub-optimality up to this (higher points: figure8.md's table).
Y_TOP = 4.0


def plot_figure8(points: Sequence[dict], title: str):
    """Sub-optimality against expansions per action, surviving settings only (left), the legend
    (middle), and the paper's zoom on the level-4 abstraction methods, PR LRTS and the
    intermediate-goal pattern databases (right). Returns the figure."""
    from matplotlib import colormaps
    from matplotlib.colors import ListedColormap
    from matplotlib.figure import Figure

    from reference.experiments.dynamic import plot_tradeoff

    alive = surviving(points)
    methods = [m for m in (*DYNAMIC, *BASELINES) if any(p["method"] == m for p in alive)]
    figure = Figure(figsize=(15, 6.5))
    main = figure.add_axes((0.05, 0.09, 0.46, 0.83))
    tab20 = colormaps["tab20"]  # a listed colour map: its colours are a tuple of 20 RGB triples
    assert isinstance(tab20, ListedColormap) and isinstance(tab20.colors, tuple)
    main.set_prop_cycle(color=tab20.colors)   # more methods than the default 10 colours
    plot_tradeoff(alive, methods, f"{title}\n(sub-optimality above {Y_TOP:g} cut off: see figure8.md)", ax=main)
    main.set_ylim(0.95, Y_TOP)
    handles, labels = main.get_legend_handles_labels()
    legend = main.get_legend()
    assert legend is not None  # plot_tradeoff draws one
    legend.remove()
    figure.legend(handles, labels, loc="center", bbox_to_anchor=(0.625, 0.5), fontsize=8, frameon=False)
    zoom = figure.add_axes((0.75, 0.09, 0.23, 0.83))
    level4 = [p for p in alive if p["method"] == "PR LRTS, level 4"
              or (p["method"] in INTERMEDIATE_GOAL_METHODS and p["setting"] == 4)]
    for method in dict.fromkeys(p["method"] for p in level4):
        shown = sorted((p for p in level4 if p["method"] == method), key=lambda p: p["expansions_per_action"])
        zoom.errorbar([p["expansions_per_action"] for p in shown], [p["suboptimality"] for p in shown],
                      yerr=[p["suboptimality_se"] for p in shown], marker="o" if method.startswith("PR") else "D",
                      capsize=2, label=method.replace("PR LRTS, level 4", "PR LRTS level 4 (label: depth)")
                      + ("" if method.startswith("PR") else " level 4"))
        for p in shown:
            if method.startswith("PR"):
                zoom.annotate(str(p["setting"]), (p["expansions_per_action"], p["suboptimality"]), fontsize=8,
                              xytext=(3, 3), textcoords="offset points")
    zoom.set_title("zoom: level 4, PR LRTS (gamma = 1) and intermediate goals", fontsize=9)
    zoom.set_xlabel("mean states expanded per action")
    zoom.grid(which="both", alpha=0.3)
    zoom.legend(fontsize=7)
    return figure


def _point(p: dict) -> str:
    return f"{p['suboptimality']:.2f} at {p['expansions_per_action']:.1f}"


def _named(settings: Sequence[dict]) -> str:
    return "; ".join(f"{p['method']} {p['setting']} ({_point(p)})" for p in settings)


def _level_zero_words(unabstracted: Sequence[dict], without: dict[int, str], others: Sequence[dict]) -> str:
    """The intermediate-goal settings at level 0, and the verdict without them (``without``: each
    other setting's verdict against the abstraction settings but level 0)."""
    if not unabstracted:
        return ""
    undominated = [others[i] for i, v in without.items() if v == DOES_NOT_HOLD]
    overall = for_every(list(without.values()))
    return ("; every setting counts, level 0 (the identity abstraction, a table of every pair of cells) too: "
            + "; ".join(f"{p['method']} ({_point(p)})" for p in unabstracted) + f"; without level 0: {overall}"
            + (f" ({_named(undominated)} would not be dominated)" if undominated else ""))


def abstraction_dominates(tables: Figure8Tables) -> Finding:
    """"Of the surviving algorithms, PR LRTS and the pattern database with intermediate goals (both
    with abstraction) clearly dominate the others": every other surviving setting is dominated by
    some abstraction setting (:func:`dominates`, run by run on the same problems; :func:`for_some`
    over the abstraction settings, then :func:`for_every` over the others). No setting is dropped
    (docs/verdicts.md): every level of the intermediate-goal pattern database counts as that
    method's, level 0 too (the identity abstraction, every cell its own region: the whole |V|^2
    table); the verdict without level 0 is said beside it."""
    alive = tables.alive
    unabstracted = [p for p in alive if p["method"] in INTERMEDIATE_GOAL_METHODS and p["setting"] == 0]
    abstraction = [p for p in alive if p["method"].startswith("PR LRTS") or p["method"] in INTERMEDIATE_GOAL_METHODS]
    others = [p for p in alive if p not in abstraction and not (p["method"].startswith("pdb") and p["setting"] == 0)]

    def dominated_by(by: Sequence[dict]) -> dict[int, str]:
        return {i: for_some([dominates(a, p, tables) for a in by]) for i, p in enumerate(others)}

    judged = dominated_by(abstraction)
    overall = for_every(list(judged.values()))
    without = dominated_by([a for a in abstraction if a not in unabstracted])
    count = {v: sum(w == v for w in judged.values()) for v in (HOLDS, DOES_NOT_HOLD, INCONCLUSIVE)}
    problems = len(next(iter(tables.runs.values()), {}))
    return Finding(
        "*Of the surviving algorithms, PR LRTS and the pattern database with intermediate goals (both with "
        "abstraction) clearly dominate the others*", overall,
        f"{count[HOLDS]} of {len(others)} other surviving settings are dominated by some PR LRTS or intermediate-goal "
        f"setting (better on one axis, no worse on the other), {count[INCONCLUSIVE]} inconclusive (each axis a paired "
        f"difference over the {problems} problems, 95% CI)" + _level_zero_words(unabstracted, without, others),
        because=_named([others[i] for i, v in judged.items() if v == DOES_NOT_HOLD])
        + (" is" if count[DOES_NOT_HOLD] == 1 else " are") + " not dominated by any abstraction setting")


def neither_dominates_at_level_4(tables: Figure8Tables, method: str) -> Finding | None:
    """"At level 4, PR LRTS (depth 5, γ = 1) searches slightly fewer nodes and the pattern database
    returns slightly better solutions; neither dominates", for the pattern database ``method``: both
    paired differences (:func:`better_on`) judged by the rule."""
    pr = next((p for p in tables.alive if p["method"] == "PR LRTS, level 4" and p["setting"] == 5), None)
    pdb = next((p for p in tables.alive if p["method"] == method and p["setting"] == 4), None)
    if pr is None or pdb is None:
        return None
    fewer, better = better_on("expansions_per_action", pr, pdb, tables), better_on("suboptimality", pdb, pr, tables)
    return Finding(
        "*At level 4, PR LRTS (depth 5, γ = 1) searches slightly fewer nodes and the pattern database returns slightly "
        f"better solutions; neither dominates* ({method})", for_every([fewer, better]),
        f"PR LRTS {pr['suboptimality']:.3f} at {pr['expansions_per_action']:.1f} expansions per action; {method} "
        f"level 4 {pdb['suboptimality']:.3f} at {pdb['expansions_per_action']:.1f}; solved {pr['reached']} and "
        f"{pdb['reached']} of {pr['problems']}; paired over the problems (95% CI): fewer states {fewer}, better "
        f"solutions {better}",
        because="PR LRTS does not search fewer states" if fewer == DOES_NOT_HOLD else
        "the pattern database's solutions are not better")


#: Figure 8's claims, judged on the settings that survive the worst-case rule.
FIGURE8_CLAIMS: list[Claim] = [abstraction_dominates, *(partial(neither_dominates_at_level_4, method=method)
                                                         for method in ("pdb I", "pdb G+I", "pdb I, once", "pdb G+I, once"))]


def figure8_findings(rows: Sequence[dict]) -> str:
    """figure8.md from every run (:func:`figure8_rows`): the settings that survive the worst-case rule,
    those left out, and :data:`FIGURE8_CLAIMS`."""
    from reference.experiments.dynamic import markdown_table

    points = figure8_points(rows)
    problems = len({(r["map"], r["problem"]) for r in rows})
    alive = surviving(points)
    gone = [p for p in points if p not in alive]
    return "".join([
        "# Figure 8: dynamic control against the state of the art (generated by `ftr dynamic figure8`)\n\n",
        f"{problems} problems (the first of each study map's seeded problems, the same as in `runs.csv`); "
        f"only settings whose worst case stays within {WORST_CASE:,} expansions per move (the paper's rule). "
        "Koenig's LRTA*: lookahead = A* expansions per episode; prioritized LRTA*: states updated from a queue of "
        f"{PRIORITIZED_QUEUE} per action; PR LRTS: abstract lookahead depth at the level named, γ = 1. An "
        "episode's expansions are booked on its first move (mean per action = total over moves).\n\n",
        "![Figure 8](figure8.png)\n\n## Surviving settings\n\n",
        markdown_table(sorted(alive, key=lambda p: (p["method"], p["setting"])),
                       ["method", "setting", "problems", "reached", "suboptimality", "expansions_per_action",
                        "max_expansions_per_action"]),
        "\nLeft out by the worst case: " + (", ".join(f"{p['method']} {p['setting']} ({p['max_expansions_per_action']:,})"
                                                      for p in gone) or "none") + ".\n\n## Claims\n\n",
        findings_list(check(FIGURE8_CLAIMS, Figure8Tables.of(alive, rows)))])


def figure8_report(out: Path) -> list[Path]:
    """figure8.png and figure8.md from ``out``/figure8_runs.csv and the study's runs.csv."""
    from reference.experiments.dynamic import read_csv, runs_file
    from reference.experiments.plots import save_figure
    from reference.world.fileio import atomic_write_text

    baseline = read_csv(out / "figure8_runs.csv")
    study = read_csv(out / "runs.csv") if runs_file(out / "runs.csv").is_file() else []
    rows = figure8_rows(baseline, study)
    points = figure8_points(rows)
    problems = len({(r["map"], r["problem"]) for r in baseline})
    figure = save_figure(plot_figure8(points, f"Figure 8: dynamic control vs the state of the art ({problems} "
                                          f"problems, worst case <= {WORST_CASE} expansions per move)"),
                         out / "figure8.png")
    atomic_write_text(out / "figure8.md", figure8_findings(rows))
    return [figure, out / "figure8.md"]


def figure8(out: Path, movingai: Path, maps: Sequence[str], per_map: int, progress: bool = True,
            log: Callable[[str], None] = print) -> list[Path]:
    """Run the three baselines, write ``figure8_runs.csv``, then :func:`figure8_report`.

    ``ftr dynamic figure8`` calls it.

    Parameters
    ----------
    out : Path
        The report folder (created if missing); the study's ``runs.csv`` there gives the dynamic
        control points.
    movingai : Path
        The MovingAI folder holding ``maps``.
    maps : sequence of str
        The maps, as paths under ``movingai`` (the study's: ``STUDY_MAPS``).
    per_map : int
        Problems per map: the first ``per_map`` of the study's seeded problems.
    progress : bool
        Show a progress bar.
    log : callable
        Where the per-setting times go.

    Returns
    -------
    list of Path
        ``figure8.png`` and ``figure8.md``.

    Raises
    ------
    reference.world.maps.MapFormatError
        A map missing under ``movingai``, or not a MovingAI map.

    See Also
    --------
    run_baselines : the runs alone.
    reference.solutions.dynamic.koenig_lrta.koenig_lrta, reference.solutions.dynamic.prioritized_lrta.prioritized_lrta,
    reference.solutions.dynamic.pr_lrts.pr_lrts : the baselines (readable only: no compiled twin).
    """
    from reference.experiments.dynamic import write_runs_csv

    out.mkdir(parents=True, exist_ok=True)
    write_runs_csv(run_baselines(movingai, maps, per_map, progress=progress, log=log), out / "figure8_runs.csv")
    return figure8_report(out)

