"""What every experiment's report is made of: tables (Markdown and CSV), runs files, findings, intervals.

Every file is written atomically (:mod:`reference.world.fileio`): a reader never sees half a report.

>>> table = [{"lookahead": 1, "moves": 12.5}]
>>> print(to_markdown(table), end="")
| lookahead | moves |
|---:|---:|
| 1 | 12.50 |
>>> print(to_csv(table), end="")
lookahead,moves
1,12.5

A paper's claim is a small named function of the measured table(s) that returns a :class:`Finding`
(its text, its numbers and its verdict, :func:`verdict`); an experiment's findings are its list of
claims, judged by :func:`check` and rendered by :func:`findings_markdown` (a table) or
:func:`findings_list` (a bulleted list):

>>> def paths_get_shorter(moves):
...     return Finding("paths get shorter", moves[-1] < moves[0], f"{moves[0]} -> {moves[-1]} moves")
>>> print(findings_markdown(check([paths_get_shorter], [12, 9])).splitlines()[2])
| paths get shorter | yes | 12 -> 9 moves |
"""

from __future__ import annotations

import csv
import gzip
import io
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

from reference.world.fileio import atomic_write_bytes, atomic_write_text, spreadsheet_cell

# -- numbers in tables --------------------------------------------------------------------------------


def two_decimals(value: Any) -> str:
    """A table cell with floats to two decimals (the paper tables' style): ``12.5`` -> ``"12.50"``."""
    return f"{value:.2f}" if isinstance(value, float) else str(value)


def three_significant(value: Any) -> str:
    """A table cell with floats to three significant digits, thousands whole; ``None`` as a dash.

    >>> three_significant(0.012345), three_significant(123456.7), three_significant(None)
    ('0.0123', '123,457', '–')
    """
    if isinstance(value, float):
        return f"{value:.3g}" if abs(value) < 1000 else f"{value:,.0f}"
    return "–" if value is None else str(value)


# -- tables ---------------------------------------------------------------------------------------------


def to_markdown(table: Sequence[dict], columns: Sequence[tuple[str, str] | str] | None = None, *,
                number: Callable[[Any], str] = two_decimals, rule: str = "---:",
                empty: str | None = "(no runs)\n") -> str:
    """A GitHub Markdown table, one line per row.

    ``columns``: (key, header) pairs, or keys that are their own headers; default every key of any
    row in first-seen order (as :func:`to_csv`), a row without a key leaving its cell empty.
    ``number`` writes a cell; ``rule`` is each column's line under the header (``"---:"``
    right-aligned, ``"---"`` the default alignment); an empty ``table`` gives ``empty``, or, when
    ``empty`` is None, the header alone.

    >>> print(to_markdown([{"level": 2, "cost": 1234.5}], ["level", "cost"], number=three_significant, rule="---"), end="")
    | level | cost |
    |---|---|
    | 2 | 1,234 |
    """
    if not table and (empty is not None or columns is None):
        return empty or ""
    keys = list(dict.fromkeys(key for row in table for key in row))
    pairs = [(c, c) if isinstance(c, str) else c for c in (columns or keys)]
    lines = ["| " + " | ".join(header for _, header in pairs) + " |", "|" + "|".join(rule for _ in pairs) + "|"]
    lines += ["| " + " | ".join(number(row.get(key, "")) for key, _ in pairs) + " |" for row in table]
    return "\n".join(lines) + "\n"


def format_table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """A plain-text table for a terminal, numbers right-aligned (what ``ftr`` commands print).

    >>> print(format_table(["maze", "moves"], [[0, 12], [1, 7]]))
    maze  moves
    ----  -----
       0     12
       1      7
    """
    cells = [[_text(v) for v in row] for row in rows]
    widths = [max([len(h)] + [len(r[i]) for r in cells]) for i, h in enumerate(headers)]
    numeric = [all(isinstance(row[i], (int, float)) and not isinstance(row[i], bool) for row in rows) for i in range(len(headers))]

    def line(values: Sequence[str]) -> str:
        parts = [v.rjust(w) if num else v.ljust(w) for v, w, num in zip(values, widths, numeric)]
        return "  ".join(parts).rstrip()

    return "\n".join([line(headers), line(["-" * w for w in widths])] + [line(r) for r in cells])


def _text(value: object) -> str:
    if isinstance(value, float):
        return f"{value:.3f}" if abs(value) < 10 else f"{value:,.1f}"
    return str(value)


def to_csv(table: Sequence[dict], line_end: str = "\n", *, columns: Sequence[str] | None = None) -> str:
    """The rows as CSV text, every cell through :func:`~reference.world.fileio.spreadsheet_cell`.

    ``columns``: these keys in this order, the header written even when there are no rows (a row's
    other keys are left out); default every key of any row in first-seen order ("" if no rows).
    ``line_end``: ``"\\n"``, or ``"\\r\\n"`` (the csv module's own, which some studies' files keep).

    >>> print(to_csv([{"maze": 0, "moves": 12, "note": "=1+1"}], columns=["maze", "note"]), end="")
    maze,note
    0,'=1+1
    >>> to_csv([], columns=["maze", "moves"])
    'maze,moves\\n'
    """
    if not table and columns is None:
        return ""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(columns or dict.fromkeys(k for row in table for k in row)),
                            lineterminator=line_end, extrasaction="ignore")
    writer.writeheader()
    writer.writerows({key: spreadsheet_cell(value) for key, value in row.items()} for row in table)
    return out.getvalue()


def write_csv(table: Sequence[dict], path: str | Path, line_end: str = "\n", *,
              columns: Sequence[str] | None = None) -> Path:
    """:func:`to_csv` written atomically to ``path``; returns the path."""
    atomic_write_text(path, to_csv(table, line_end, columns=columns))
    return Path(path)


# -- runs files -----------------------------------------------------------------------------------------

#: A runs file whose CSV is longer than this is written gzipped (``runs.csv.gz``): the paper-scale
#: comparison's 410,025 runs are about 40 MB of CSV, the subgoaling evaluation's 24,000 runs 4 MB.
LARGE_RUNS = 2_000_000


def write_runs(outdir: str | Path, rows: Sequence[dict], name: str = "runs.csv", line_end: str = "\n",
               large: int = LARGE_RUNS) -> Path:
    """Write every run into ``outdir`` as ``name``, or as ``name.gz`` when its CSV is longer than
    ``large`` characters, and remove the other one if an earlier report left it; returns the file's
    path. :func:`open_runs` reads either."""
    text = to_csv(rows, line_end)
    plain = Path(outdir) / name
    zipped = plain.with_name(plain.name + ".gz")
    if len(text) <= large:
        atomic_write_text(plain, text)
        zipped.unlink(missing_ok=True)
        return plain
    # mtime=0: the same rows give the same bytes, so a re-made report does not change the file
    atomic_write_bytes(zipped, gzip.compress(text.encode(), mtime=0))
    plain.unlink(missing_ok=True)
    return zipped


def runs_file(path: str | Path) -> Path:
    """``path``, or ``path.gz`` if only that exists (where :func:`write_runs` put a large file)."""
    path = Path(path)
    zipped = path.with_name(path.name + ".gz")
    return zipped if not path.is_file() and zipped.is_file() else path


def open_runs(path: str | Path):
    """A runs file :func:`write_runs` wrote, opened for reading as text (gzipped or not)."""
    if str(path).endswith(".gz"):
        return gzip.open(path, "rt", newline="", encoding="utf-8")
    return open(path, newline="", encoding="utf-8")


# -- findings and intervals -------------------------------------------------------------------------------


#: The three verdicts a claim can get (docs/verdicts.md).
HOLDS, DOES_NOT_HOLD, INCONCLUSIVE = "holds", "does not hold", "inconclusive"


def verdict(low: float, high: float, *, above: float | None = None, below: float | None = None,
            bound: str | None = None) -> str:
    """The kit's one rule for a claim about a measured quantity (docs/verdicts.md).

    The claim says the true value lies above ``above`` and/or below ``below``; ``low``-``high`` is
    the 95% interval measured for it. The claim **holds** when the whole interval lies on the claim's
    side, **does not hold** when it lies wholly on the other side, and is **inconclusive** when it
    contains a claimed limit. A *bound* (unsolved runs counted with the cost run up so far) is an
    interval open on one side: ``bound="lower"`` means the true value is at least ``low`` (it may be
    any larger), ``bound="upper"`` at most ``high``.

    >>> verdict(3.0, 4.1, above=4)                  # dynamic control's "four times better": 3.54x (3.0-4.1)
    'inconclusive'
    >>> verdict(9.5, 15.6, above=9), verdict(3.4, 7.5, above=9)
    ('holds', 'does not hold')
    >>> verdict(5.2, 6.1, above=4, bound="lower")   # at least 5.2x: above 4x whatever the rest
    'holds'
    >>> verdict(2.0, 3.0, above=4, bound="lower")   # at least 2x: could still be above 4x
    'inconclusive'
    >>> verdict(3.2, 4.6, above=3, below=5), verdict(5.5, 7.0, above=3, below=5), verdict(4.5, 5.5, above=3, below=5)
    ('holds', 'does not hold', 'inconclusive')
    """
    if above is None and below is None:
        raise ValueError("a claim needs a side: above=, below= or both")
    if bound not in (None, "lower", "upper"):
        raise ValueError(f"bound must be 'lower', 'upper' or None, got {bound!r}")
    if low > high:
        raise ValueError(f"the interval {low}-{high} is reversed")
    if bound == "lower":
        high = float("inf")
    elif bound == "upper":
        low = float("-inf")
    inside = (above is None or low > above) and (below is None or high < below)
    outside = (above is not None and high <= above) or (below is not None and low >= below)
    return HOLDS if inside else DOES_NOT_HOLD if outside else INCONCLUSIVE


def verdict_of_difference(mean: float, half_width: float, *, positive: bool = True) -> str:
    """:func:`verdict` for a paired difference ``mean ± half_width`` claimed above zero (``positive``)
    or below it: ``verdict_of_difference(+5.0, 2.0)`` holds, ``(+1.0, 2.0)`` is inconclusive."""
    low, high = mean - half_width, mean + half_width
    return verdict(low, high, above=0.0) if positive else verdict(low, high, below=0.0)


def for_every(verdicts: Sequence[str]) -> str:
    """The verdict of a claim made at several settings at once ("at every lookahead from 25"): it
    holds when it holds at each, does not hold when it fails at one, and is inconclusive otherwise."""
    if any(v == DOES_NOT_HOLD for v in verdicts):
        return DOES_NOT_HOLD
    return HOLDS if verdicts and all(v == HOLDS for v in verdicts) else INCONCLUSIVE


def for_some(verdicts: Sequence[str]) -> str:
    """The verdict of a claim that *some* setting achieves a thing ("nine times less computation"):
    it holds when it holds at one, does not hold when it fails at each (and one was judged), and is
    inconclusive otherwise."""
    if any(v == HOLDS for v in verdicts):
        return HOLDS
    return DOES_NOT_HOLD if verdicts and all(v == DOES_NOT_HOLD for v in verdicts) else INCONCLUSIVE


#: What a list of findings says of a claim the measured tables hold nothing to judge it on (not a verdict).
NOT_MEASURED = "not measured"


@dataclass
class Finding:
    """One claim of a paper, its verdict on the measured numbers, and the numbers.

    ``verdict``: one of :func:`verdict`'s (``"holds"``, ``"does not hold"``, ``"inconclusive"``),
    or a bool for a claim about exact counts, where there is no interval to judge (``True`` is
    ``"holds"``), or :data:`NOT_MEASURED`. ``because``: why a claim does not hold (or why it was not
    measured), said beside those two verdicts in :func:`findings_list` (and ignored with the others).
    ``holds`` is True only for ``"holds"``.

    >>> Finding("a bound is never broken", True, "0 runs broke it").verdict
    'holds'
    """

    claim: str
    verdict: bool | str
    evidence: str
    because: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.verdict, str):   # a bool, or NumPy's (a comparison of measured numbers)
            self.verdict = HOLDS if self.verdict else DOES_NOT_HOLD
        if self.verdict not in (HOLDS, DOES_NOT_HOLD, INCONCLUSIVE, NOT_MEASURED):
            raise ValueError(f"a finding's verdict must be holds / does not hold / inconclusive, got {self.verdict!r}")

    @property
    def holds(self) -> bool:
        return self.verdict == HOLDS

    def verdict_words(self) -> str:
        """The verdict with its reason, if it has one: ``"does not hold, because ..."``, ``"not measured (...)"``."""
        if self.because and self.verdict == DOES_NOT_HOLD:
            return f"{self.verdict}, because {self.because}"
        return f"{self.verdict} ({self.because})" if self.because and self.verdict == NOT_MEASURED else str(self.verdict)


#: A paper's claim: a function of the measured table(s) that returns its :class:`Finding`, or None when
#: the tables hold nothing to judge it on (a report of some settings only).
Claim = Callable[..., "Finding | None"]


def check(claims: Sequence[Claim], *measured: Any) -> list[Finding]:
    """Every claim judged on the ``measured`` tables, in order; the claims that return None are left out.

    >>> check([lambda moves: Finding("paths get shorter", moves[-1] < moves[0], ""), lambda moves: None], [12, 9])
    [Finding(claim='paths get shorter', verdict='holds', evidence='', because='')]
    """
    return [found for claim in claims if (found := claim(*measured)) is not None]


#: How a findings table writes each verdict.
VERDICT_CELLS = {HOLDS: "yes", DOES_NOT_HOLD: "**no**", INCONCLUSIVE: "inconclusive", NOT_MEASURED: "not measured"}


def findings_markdown(found: Sequence[Finding]) -> str:
    """The findings as a Markdown table: claim, yes / **no** / inconclusive, the numbers, and a line
    naming the rule (docs/verdicts.md)."""
    lines = ["| finding | holds here | numbers |", "|---|:---:|---|"]
    lines += [f"| {f.claim} | {VERDICT_CELLS[str(f.verdict)]} | {f.evidence} |" for f in found]
    return "\n".join(lines) + "\n\n" + VERDICT_RULE + "\n"


def findings_list(found: Sequence[Finding]) -> str:
    """The findings as a Markdown list, one line each: the claim, its verdict in bold (with the
    reason, :meth:`Finding.verdict_words`) and its numbers in brackets.

    >>> print(findings_list([Finding("*Never capped* (paper: never)", False, "kit: 2 of 90", because="2 are")]), end="")
    - *Never capped* (paper: never): **does not hold, because 2 are** (kit: 2 of 90).
    """
    return "".join(f"- {f.claim}: **{f.verdict_words()}** ({f.evidence}).\n" for f in found)


#: The rule in one sentence, printed under every findings table.
VERDICT_RULE = ("Verdicts: a claim holds when the 95% interval of its measure lies wholly on the claim's side, does "
                "not hold when it lies wholly on the other side, and is inconclusive when it contains the claimed "
                "value; a measure that is only a bound (unsolved runs) counts as open on its other side "
                "(docs/verdicts.md).")


def bootstrap_values(samples: Sequence[Sequence[float]], statistic, resamples: int = 2000,
                     seed: int = 0) -> np.ndarray:
    """``statistic(*columns)`` on each of ``resamples`` bootstrap resamples of the paired ``samples``
    (rows resampled together; the same ``seed``, the same resamples).

    >>> bootstrap_values([(1.0,), (3.0,)], lambda xs: xs.mean(), resamples=4).tolist()
    [3.0, 2.0, 1.0, 1.0]
    """
    data = np.asarray(samples, dtype=float)
    rng = np.random.default_rng(seed)
    return np.array([statistic(*data[rng.integers(0, len(data), len(data))].T) for _ in range(resamples)])


def bootstrap_interval(samples: Sequence[Sequence[float]], statistic, resamples: int = 2000,
                       seed: int = 0) -> tuple[float, float]:
    """A 95% percentile-bootstrap interval of ``statistic(*columns)`` over paired ``samples`` (rows
    resampled together, :func:`bootstrap_values`).

    >>> low, high = bootstrap_interval([(x,) for x in range(100)], lambda xs: sum(xs) / len(xs))
    >>> 43 < low < 49.5 < high < 56
    True
    """
    values = bootstrap_values(samples, statistic, resamples, seed)
    return float(np.percentile(values, 2.5)), float(np.percentile(values, 97.5))


def ci95(values: Sequence[float]) -> float:
    """Half-width of the 95% confidence interval of the mean of ``values`` (Student's t; 0 for fewer than 2).

    >>> round(ci95([1.0, 2.0, 3.0, 4.0]), 3)        # 3.182 (t, 3 degrees of freedom) * 1.291 / 2
    2.054
    """
    import statistics

    from scipy.stats import t  # here, not at the top: the command line imports this module and starts fast without SciPy

    n = len(values)
    if n < 2:
        return 0.0
    return float(t.ppf(0.975, n - 1) * statistics.stdev(values) / n ** 0.5)
