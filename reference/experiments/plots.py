"""Pictures of the standard experiment (SPEC §9): what people would rather see than a table.

Every function takes the experiment's rows, one dict per (maze, setting) as
``reference.experiments.standard.run_experiment`` returns them::

    {"maze": 0, "name": "maze_00", "algorithm": "forward", "tie_break": "larger_g",
     "setting": "forward/larger_g", "reached": True, "searches": 31, "expansions": 4711,
     "moves": 212, "seconds": 0.02}

and draws on a Matplotlib ``Axes`` (a new figure when ``ax`` is None).
:func:`experiment_figures` writes the PNGs that ``ftr experiment`` publishes.

>>> rows = [{"maze": m, "setting": s, "expansions": e, "seconds": e / 1e5}
...         for m, (a, b) in enumerate([(900, 300), (400, 350)])
...         for s, e in (("forward/larger_g", a), ("adaptive/larger_g", b))]
>>> ax = plot_paired(rows, "forward/larger_g", "adaptive/larger_g")
>>> ax.get_xscale(), ax.get_yscale()
('log', 'log')
"""

from __future__ import annotations

import io
import os
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import NullFormatter

from reference.world.fileio import atomic_write_bytes

Row = Mapping[str, Any]

#: The comparisons the handout's questions ask about, as (baseline, contender, file stem).
PAIRED_COMPARISONS: tuple[tuple[str, str, str], ...] = (
    ("forward/larger_g", "forward/smaller_g", "paired_larger_vs_smaller_g"),
    ("forward/larger_g", "backward/larger_g", "paired_forward_vs_backward"),
    ("forward/larger_g", "adaptive/larger_g", "paired_forward_vs_adaptive"),
)

#: One colour per setting, the same in every figure (Matplotlib's default cycle).
_COLOURS = ("tab:blue", "tab:orange", "tab:green", "tab:red", "tab:purple", "tab:brown", "tab:pink", "tab:gray")


def settings_in(rows: Iterable[Row]) -> list[str]:
    """The settings that occur in ``rows``, in order of first appearance.

    >>> settings_in([{"setting": "b"}, {"setting": "a"}, {"setting": "b"}])
    ['b', 'a']
    """
    return list(dict.fromkeys(row["setting"] for row in rows))


def values_by_setting(rows: Iterable[Row], column: str) -> dict[str, dict[int, float]]:
    """``{setting: {maze: value}}`` for one column, e.g. ``"expansions"``.

    >>> values_by_setting([{"setting": "s", "maze": 3, "moves": 7}], "moves")
    {'s': {3: 7}}
    """
    table: dict[str, dict[int, float]] = {}
    for row in rows:
        table.setdefault(row["setting"], {})[row["maze"]] = row[column]
    return table


def _new_axes(ax: Axes | None, size: tuple[float, float] = (6.4, 4.8)) -> Axes:
    """``ax`` itself, or the axes of a new figure (pyplot's, so that a notebook shows it)."""
    if ax is not None:
        return ax
    import matplotlib.pyplot as plt

    _figure, ax = plt.subplots(figsize=size)
    return ax


def _colour(index: int) -> str:
    return _COLOURS[index % len(_COLOURS)]


def plot_expansions(rows: Sequence[Row], ax: Axes | None = None) -> Axes:
    """Expansions per setting: a box per setting with every maze as a (jittered) point, log y.

    The box shows the quartiles and the whiskers 1.5 IQR; the white diamond is the mean, which
    is what the experiment's table reports.
    """
    ax = _new_axes(ax)
    table = values_by_setting(rows, "expansions")
    settings = list(table)
    data = [np.array(list(table[s].values()), dtype=float) for s in settings]
    positions = np.arange(1, len(settings) + 1)
    ax.boxplot(data, positions=positions, widths=0.5, showfliers=False,
               medianprops={"color": "black"}, boxprops={"color": "0.3"}, whiskerprops={"color": "0.3"})
    jitter = np.random.default_rng(0)  # fixed, so the same rows always give the same picture
    for index, (position, values) in enumerate(zip(positions, data)):
        x = position + jitter.uniform(-0.15, 0.15, size=len(values))
        ax.scatter(x, values, s=12, alpha=0.6, color=_colour(index), zorder=3)
        if len(values):
            ax.scatter([position], [values.mean()], marker="D", s=40, color="white", edgecolor="black", zorder=4)
    ax.set_xticks(positions, [s.replace("/", "\n") for s in settings])
    ax.set_yscale("log")
    ax.set_ylabel("cells expanded per maze (log scale)")
    ax.set_title(f"Expansions per setting ({max((len(v) for v in data), default=0)} mazes)")
    ax.grid(axis="y", which="both", alpha=0.3)
    return ax


def plot_paired(rows: Sequence[Row], setting_a: str, setting_b: str, ax: Axes | None = None) -> Axes:
    """One point per maze: ``setting_a``'s expansions (x) against ``setting_b``'s (y), log-log.

    Points below the diagonal y = x are mazes where ``setting_b`` expanded fewer cells. The title
    counts them, so the picture and the sign test tell the same story.
    """
    ax = _new_axes(ax, (5.2, 5.2))
    table = values_by_setting(rows, "expansions")
    for setting in (setting_a, setting_b):
        if setting not in table:
            raise ValueError(f"no rows for setting {setting!r}; the rows have {', '.join(table) or 'none'}")
    mazes = sorted(set(table[setting_a]) & set(table[setting_b]))
    x = np.array([table[setting_a][m] for m in mazes], dtype=float)
    y = np.array([table[setting_b][m] for m in mazes], dtype=float)
    ax.scatter(x, y, s=16, alpha=0.7, color=_colour(1), zorder=3)
    if len(mazes):
        low = max(1.0, min(x.min(), y.min()) / 1.5)
        high = max(x.max(), y.max()) * 1.5
        ax.plot([low, high], [low, high], color="0.4", linestyle="--", linewidth=1, label="y = x (equal)")
        ax.set_xlim(low, high)
        ax.set_ylim(low, high)
        ax.legend(loc="best")
    ax.set_xscale("log")
    ax.set_yscale("log")
    for axis in (ax.xaxis, ax.yaxis):  # label only the powers of ten: minor labels collide
        axis.set_minor_formatter(NullFormatter())
    ax.set_aspect("equal", adjustable="box")
    ax.set_xlabel(f"{setting_a}: cells expanded")
    ax.set_ylabel(f"{setting_b}: cells expanded")
    fewer = int((y < x).sum())
    ax.set_title(f"{setting_b} vs {setting_a}\nfewer expansions on {fewer} of {len(mazes)} mazes", fontsize=10)
    ax.grid(which="both", alpha=0.3)
    return ax


def plot_runtime_vs_expansions(rows: Sequence[Row], ax: Axes | None = None) -> Axes:
    """CPU time per run against expansions, one colour per setting, log-log.

    On one machine the points of all settings fall close to one line: expansions are a good,
    machine-independent stand-in for running time.
    """
    ax = _new_axes(ax)
    for index, setting in enumerate(settings_in(rows)):
        mine = [row for row in rows if row["setting"] == setting]
        ax.scatter([row["expansions"] for row in mine], [row["seconds"] * 1000 for row in mine],
                   s=14, alpha=0.7, color=_colour(index), label=setting)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("cells expanded (log scale)")
    ax.set_ylabel("CPU time per run in ms (log scale)")
    ax.set_title("Running time follows expansions")
    ax.grid(which="both", alpha=0.3)
    if rows:
        ax.legend(fontsize=8)
    return ax


def save_figure(figure: Figure, path: str | os.PathLike, dpi: int = 120) -> Path:
    """Write ``figure`` as a PNG atomically (a reader never sees half a file); return the path."""
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=dpi, bbox_inches="tight")
    atomic_write_bytes(path, buffer.getvalue())
    return Path(path)


def experiment_figures(rows: Sequence[Row], outdir: str | os.PathLike) -> list[Path]:
    """Write the experiment's figures into ``outdir`` and return their paths.

    ``expansions.png`` and ``runtime_vs_expansions.png`` always; a ``paired_*.png`` for each of
    :data:`PAIRED_COMPARISONS` whose two settings both occur in ``rows``. Figures are built
    without pyplot, so this works in threads and never opens a window.
    """
    outdir = Path(outdir)
    present = set(settings_in(rows))
    written = []

    figure = Figure(figsize=(7, 4.8))
    plot_expansions(rows, figure.add_subplot())
    written.append(save_figure(figure, outdir / "expansions.png"))

    for setting_a, setting_b, stem in PAIRED_COMPARISONS:
        if setting_a in present and setting_b in present:
            figure = Figure(figsize=(5.2, 5.4))
            plot_paired(rows, setting_a, setting_b, figure.add_subplot())
            written.append(save_figure(figure, outdir / f"{stem}.png"))

    figure = Figure(figsize=(6.4, 4.8))
    plot_runtime_vs_expansions(rows, figure.add_subplot())
    written.append(save_figure(figure, outdir / "runtime_vs_expansions.png"))
    return written
