"""The standard experiment (SPEC §9): 50 mazes x four algorithm settings, with paired statistics.

>>> from reference.world.instances import load_folder, standard_mazes_dir
>>> settings = [("forward", "larger_g"), ("adaptive", "larger_g")]
>>> rows = run_experiment(load_folder(standard_mazes_dir())[:2], settings, progress=False)
>>> len(rows), sorted(rows[0])[:4]
(4, ['algorithm', 'expansions', 'maze', 'moves'])
>>> [c.label for c in paired_comparisons(rows)]
['forward/larger_g vs adaptive/larger_g']
"""

from __future__ import annotations

import json
import statistics
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Iterable, Sequence

from reference.experiments.report import to_csv
from reference.experiments.tasks import run_tasks
from reference.solutions import solve
from reference.world.fileio import atomic_write_text
from reference.world.instances import Instance
from reference.world.trace import Trace
from reference.world.trace_arrays import TraceArrays

#: The four settings of SPEC §9, as (algorithm, tie_break).
SETTINGS: list[tuple[str, str]] = [
    ("forward", "larger_g"),
    ("forward", "smaller_g"),
    ("backward", "larger_g"),
    ("adaptive", "larger_g"),
]

#: The comparisons the project's questions ask about: (baseline setting, other setting).
COMPARISONS: list[tuple[str, str]] = [
    ("forward/larger_g", "forward/smaller_g"),
    ("forward/larger_g", "backward/larger_g"),
    ("forward/larger_g", "adaptive/larger_g"),
]

MEASURES = ("expansions", "searches", "moves", "seconds")

#: How runs are computed: the compiled twin (default; the same traces, some fifty times faster) or the
#: readable Python reference.
ENGINES = ("compiled", "python")


def setting_name(algorithm: str, tie_break: str) -> str:
    """A setting's name in the experiment's tables.

    >>> setting_name("forward", "larger_g")
    'forward/larger_g'
    """
    return f"{algorithm}/{tie_break}"


def _run_one(task: tuple[int, Instance, str, str, str]) -> dict:
    number, instance, algorithm, tie_break, engine = task
    # CPU time of this process, not the wall clock: other processes (--jobs, a busy machine) do not
    # count, so identical runs give nearly the same number.
    started = time.process_time()
    trace: Trace | TraceArrays
    if engine == "compiled":  # full traces as arrays; only their counts are needed here
        from reference.solutions.compiled.replanning import run_compiled

        trace = run_compiled(instance.grid, instance.start, instance.target, algorithm, tie_break)
    else:
        trace = solve(instance, algorithm, tie_break)
    seconds = time.process_time() - started
    return {"maze": number, "name": instance.name, "algorithm": algorithm, "tie_break": tie_break,
            "setting": setting_name(algorithm, tie_break), **trace.summary(), "seconds": seconds}


def run_experiment(
    instances: Sequence[Instance],
    settings: Iterable[tuple[str, str]] = SETTINGS,
    jobs: int = 1,
    progress: bool = True,
    engine: str = "compiled",
) -> list[dict]:
    """Run every setting on every instance; one row per run, ordered by setting, then maze.

    A row: ``maze`` (its number), ``name``, ``algorithm``, ``tie_break``, ``setting``, ``reached``,
    ``searches``, ``expansions``, ``moves`` and ``seconds`` (the CPU time of the run, measured with
    ``time.process_time`` in the process that ran it). ``jobs > 1`` spreads the runs over that many
    processes. ``engine``: ``"compiled"`` (the Numba twin) or ``"python"`` (the readable reference).
    ``ftr experiment`` calls it.

    Parameters
    ----------
    instances : sequence of Instance
        The mazes (the 50 standard ones: ``load_folder(standard_mazes_dir())``).
    settings : iterable of (str, str)
        ``(algorithm, tie_break)`` pairs; default the four of SPEC §9 (:data:`SETTINGS`).
    jobs : int
        Processes to spread the runs over.
    progress : bool
        Show a progress bar.
    engine : {"compiled", "python"}

    Returns
    -------
    list of dict
        One row per run, ordered by setting, then maze.

    Raises
    ------
    ValueError
        An unknown engine (or an unknown algorithm or tie rule, from the run).

    See Also
    --------
    paired_comparisons, summarise : the statistics over the rows.
    reference.solutions.replanning.repeated_forward_astar : the readable algorithms (``engine="python"``).
    reference.solutions.compiled.replanning.run_compiled : their twin (``engine="compiled"``).

    Examples
    --------
    >>> from reference.world.instances import load_folder, standard_mazes_dir
    >>> rows = run_experiment(load_folder(standard_mazes_dir())[:1], [("adaptive", "larger_g")], progress=False,
    ...                       engine="python")
    >>> [(row["setting"], row["reached"]) for row in rows]
    [('adaptive/larger_g', True)]
    """
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {', '.join(ENGINES)}, got {engine!r}")
    if engine == "compiled":  # load (or compile) the twin once, outside the timed runs
        from reference.solutions.compiled.replanning import warm_up

        warm_up()
    tasks = [(number, instance, algorithm, tie_break, engine)
             for algorithm, tie_break in settings for number, instance in enumerate(instances)]
    return run_tasks(_run_one, tasks, jobs=jobs, description="experiment", progress=progress)


# -- statistics -----------------------------------------------------------------------------------


def summarise(rows: Sequence[dict]) -> dict[str, dict[str, dict[str, float]]]:
    """Per setting and measure: mean, median, standard deviation (n - 1), total, count."""
    summary: dict[str, dict[str, dict[str, float]]] = {}
    for setting in dict.fromkeys(r["setting"] for r in rows):
        chosen = [r for r in rows if r["setting"] == setting]
        summary[setting] = {}
        for measure in MEASURES:
            values = [float(r[measure]) for r in chosen]
            summary[setting][measure] = {
                "mean": statistics.fmean(values),
                "median": statistics.median(values),
                "std": statistics.stdev(values) if len(values) > 1 else 0.0,
                "total": sum(values),
                "count": len(values),
            }
    return summary


@dataclass
class Comparison:
    """A paired comparison of two settings on the same mazes, by expansions."""

    label: str
    setting_a: str
    setting_b: str
    pairs: int
    mean_a: float
    mean_b: float
    ratio_of_totals: float      # total(b) / total(a)
    b_fewer: int                # mazes where b expanded fewer cells than a
    a_fewer: int
    wilcoxon_p: float | None    # two-sided Wilcoxon signed-rank test (None: too few or all equal)
    t_test_p: float | None      # two-sided paired t-test
    median_difference: float = 0.0      # median of b - a over the mazes
    top_five_share: float = 0.0         # share of sum |b - a| in the five largest |b - a|

    def sentence(self, alpha: float = 0.05) -> str:
        """One line: the means, both tests, the verdict of the Wilcoxon test (the one to trust here)."""
        verdict = "no significant difference"
        if self.wilcoxon_p is not None and self.wilcoxon_p < alpha:
            better = self.setting_b if self.b_fewer > self.a_fewer else self.setting_a
            verdict = f"{better} expands fewer cells on most mazes"
        return (f"{self.label}: {self.mean_a:,.0f} vs {self.mean_b:,.0f} expansions per maze "
                f"(ratio {self.ratio_of_totals:.2f}); {self.setting_b} fewer on {self.b_fewer} of {self.pairs} "
                f"mazes; Wilcoxon p = {_p(self.wilcoxon_p)}, paired t-test p = {_p(self.t_test_p)}: "
                f"{verdict} (alpha = {alpha}).")

    def disagreement(self, alpha: float = 0.05) -> str | None:
        """Why the two tests disagree, when they do (one below ``alpha``, the other not)."""
        if self.wilcoxon_p is None or self.t_test_p is None or (self.wilcoxon_p < alpha) == (self.t_test_p < alpha):
            return None
        return (f"The tests disagree on {self.label}. The paired t-test asks whether the MEAN difference is "
                f"zero, assuming roughly normal differences; here they are heavy-tailed: the median "
                f"difference is {self.median_difference:,.0f} expansions, but the five largest of the "
                f"{self.pairs} differences make up {self.top_five_share:.0%} of their total size, so a few "
                f"mazes dominate the mean and its spread. The Wilcoxon signed-rank test ranks the "
                f"differences and asks whether one SIGN dominates: {self.setting_b} is better on "
                f"{self.b_fewer} mazes, worse on {self.a_fewer}. Trust the Wilcoxon test for 'better on a "
                f"typical maze'; the t-test says the saving on average is not reliably different from zero.")


def _p(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.2g}"


def paired_comparisons(rows: Sequence[dict], comparisons: Iterable[tuple[str, str]] = COMPARISONS) -> list[Comparison]:
    """Compare expansions maze by maze for each pair of settings present in ``rows``."""
    from scipy import stats

    by_setting: dict[str, dict[int, int]] = {}
    for r in rows:
        by_setting.setdefault(r["setting"], {})[r["maze"]] = r["expansions"]
    results = []
    for a, b in comparisons:
        if a not in by_setting or b not in by_setting:
            continue
        mazes = sorted(set(by_setting[a]) & set(by_setting[b]))
        xs = [by_setting[a][m] for m in mazes]
        ys = [by_setting[b][m] for m in mazes]
        differences = [y - x for x, y in zip(xs, ys)]
        wilcoxon_p = t_p = None
        if len(mazes) >= 2 and any(differences):
            wilcoxon_p = float(stats.wilcoxon(xs, ys).pvalue)
            t_p = float(stats.ttest_rel(xs, ys).pvalue)
        sizes = sorted((abs(d) for d in differences), reverse=True)
        results.append(Comparison(
            label=f"{a} vs {b}", setting_a=a, setting_b=b, pairs=len(mazes),
            mean_a=statistics.fmean(xs) if xs else 0.0, mean_b=statistics.fmean(ys) if ys else 0.0,
            ratio_of_totals=(sum(ys) / sum(xs)) if sum(xs) else float("nan"),
            b_fewer=sum(d < 0 for d in differences), a_fewer=sum(d > 0 for d in differences),
            wilcoxon_p=wilcoxon_p, t_test_p=t_p,
            median_difference=float(statistics.median(differences)) if differences else 0.0,
            top_five_share=sum(sizes[:5]) / sum(sizes) if sum(sizes) else 0.0,
        ))
    return results


# -- outputs --------------------------------------------------------------------------------------


#: The columns of ``per_maze.csv``, one row per run.
PER_MAZE_COLUMNS = ("maze", "name", "algorithm", "tie_break", "setting", "reached", "searches", "expansions",
                    "moves", "seconds")


def write_results(rows: Sequence[dict], outdir: str | Path, summary: dict | None = None,
                  comparisons: Sequence[Comparison] | None = None) -> list[Path]:
    """Write per_maze.csv, per_maze.json, summary.json and summary.md into ``outdir`` (atomically).

    ``summary`` and ``comparisons`` are computed from ``rows`` unless the caller has them already.
    """
    outdir = Path(outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    summary = summarise(rows) if summary is None else summary
    comparisons = paired_comparisons(rows) if comparisons is None else comparisons
    files = {
        "per_maze.csv": to_csv(rows, columns=PER_MAZE_COLUMNS),
        "per_maze.json": json.dumps(list(rows), indent=1) + "\n",
        "summary.json": json.dumps({"summary": summary, "comparisons": [asdict(c) for c in comparisons]},
                                   indent=1) + "\n",
        "summary.md": summary_markdown(summary, comparisons),
    }
    written = []
    for name, text in files.items():
        atomic_write_text(outdir / name, text)
        written.append(outdir / name)
    return written


def summary_table(summary: dict) -> tuple[list[str], list[list[object]]]:
    """Headers and rows of the summary: one row per setting."""
    headers = ["setting", "mazes", "expansions mean", "median", "std", "total", "searches mean", "moves mean",
               "CPU seconds total"]
    rows = []
    for setting, measures in summary.items():
        e = measures["expansions"]
        rows.append([setting, int(e["count"]), e["mean"], e["median"], e["std"], int(e["total"]),
                     measures["searches"]["mean"], measures["moves"]["mean"], measures["seconds"]["total"]])
    return headers, rows


def summary_markdown(summary: dict, comparisons: Sequence[Comparison]) -> str:
    """``summary.md``: the summary table, the paired comparisons and what each test says, as Markdown."""
    headers, rows = summary_table(summary)

    def cell(v: object) -> str:
        return f"{v:,.1f}" if isinstance(v, float) else str(v)

    lines = ["# The standard experiment", "", "| " + " | ".join(headers) + " |",
             "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in rows]
    lines += ["", TIME_NOTE, "", "## Paired comparisons (expansions per maze)", ""]
    lines += ["| comparison | mean a | mean b | b fewer on | median b - a | Wilcoxon p | paired t-test p |",
              "|---|---|---|---|---|---|---|"]
    lines += [f"| {c.label} | {c.mean_a:,.0f} | {c.mean_b:,.0f} | {c.b_fewer} of {c.pairs} | "
              f"{c.median_difference:,.0f} | {_p(c.wilcoxon_p)} | {_p(c.t_test_p)} |" for c in comparisons]
    lines += [""] + [f"- {c.sentence()}" for c in comparisons]
    notes = [note for note in (c.disagreement() for c in comparisons) if note]
    if notes:
        lines += ["", "### When the two tests disagree", ""] + notes
    return "\n".join(lines) + "\n"


#: What the time columns measure, printed under the summary.
TIME_NOTE = ("Times are CPU seconds per run (time.process_time in the process that ran it), not wall-clock "
             "time: other processes and --jobs barely change them.")
