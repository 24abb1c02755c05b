"""Render the handout's figures from the kit's own runs of the handout's examples.

Every number in a figure comes from a real trace (the reference solution's run on the example)
re-read by :mod:`reference.world.pictures`, so the handout and the kit cannot disagree::

    python course/make_figures.py          # writes course/handout/figures/*.png

>>> [(example.name, example.start, example.target) for example in EXAMPLES]
[('example1', (4, 2), (4, 4)), ('example2', (4, 1), (4, 4)), ('example3', (0, 0), (4, 4))]
"""

from __future__ import annotations

import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from reference.solutions import solve  # noqa: E402  (instructor-side: the handout shows the reference's runs)
from reference.world.instances import Instance, load_folder  # noqa: E402
from reference.world.kitdata import handout_examples_dir  # noqa: E402
from reference.world.pictures import (draw_knowledge_views, draw_search, search_legend_entries,  # noqa: E402
                                      search_view)

FIGURES = Path(__file__).resolve().parent / "handout" / "figures"

#: The handout's three examples, as the kit ships them (mazes/handout/mazes.scen, in order).
EXAMPLES = load_folder(handout_examples_dir())


def _save(figure, path: Path, rect: tuple[float, float, float, float] = (0, 0, 1, 1)) -> Path:
    """Lay out ``figure`` (inside ``rect``, leaving room for a title), write it to ``path`` and close it
    (the legends under the grids included)."""
    figure.tight_layout(rect=rect)
    figure.savefig(path, dpi=110, bbox_inches="tight")
    plt.close(figure)
    return path


def _legend_under(figure, updated_h: bool = False) -> None:
    """One key for every panel of ``figure``, under them (the panels are drawn without their own)."""
    title, entries = search_legend_entries(numbers=True, hidden_walls=True, updated_h=updated_h)
    figure.legend([handle for _, handle in entries], [label for label, _ in entries], loc="lower center", ncol=3,
                  fontsize=9, title=title, title_fontsize=9, frameon=False)


#: The share of a figure's height its legend takes at the bottom.
LEGEND_BAND = 0.16


def _two_searches(instance: Instance, algorithm: str, title: str, path: Path) -> Path:
    """The first two searches of ``algorithm`` side by side (the handout's Figures 5-7)."""
    trace = solve(instance, algorithm)
    figure, axes = plt.subplots(1, 2, figsize=(10, 6.4))
    for index, ax in enumerate(axes):
        view = search_view(instance.grid, trace, index)
        draw_search(view, ax=ax, title=f"search {index + 1}: {len(view.record.expanded)} expansions", legend=False)
    figure.suptitle(title)
    _legend_under(figure, updated_h=algorithm == "adaptive")
    return _save(figure, path, rect=(0, LEGEND_BAND, 1, 0.95))


def _knowledge(instance: Instance, path: Path) -> Path:
    """The true world, what the agent knows and the freespace view before the first move (Figure 2)."""
    trace = solve(instance, "forward")
    figure, axes = plt.subplots(1, 3, figsize=(12, 4.4))
    draw_knowledge_views(instance.grid, trace, 0, axes=axes)
    return _save(figure, path, rect=(0, 0, 1, 0.93))  # room for the title the views put above the panels


def _first_search(instance: Instance, title: str, tie_break: str, ax) -> None:
    """Draw the first search of Repeated Forward A* on ``ax``."""
    trace = solve(instance, "forward", tie_break)
    view = search_view(instance.grid, trace, 0)
    draw_search(view, ax=ax, title=f"{title}: {len(view.record.expanded)} expansions", legend=False)


def _ties(instance: Instance, path: Path) -> Path:
    """Example 3 (no walls): ties to the larger g against ties to the smaller g."""
    figure, axes = plt.subplots(1, 2, figsize=(10, 6.4))
    _first_search(instance, "ties to the larger g", "larger_g", axes[0])
    _first_search(instance, "ties to the smaller g", "smaller_g", axes[1])
    _legend_under(figure)
    return _save(figure, path, rect=(0, LEGEND_BAND, 1, 1))


def _example_2(instance: Instance, path: Path) -> Path:
    figure, ax = plt.subplots(figsize=(6.4, 7.2))
    _first_search(instance, "first search", "larger_g", ax)
    _legend_under(figure)
    return _save(figure, path, rect=(0, LEGEND_BAND + 0.04, 1, 1))


def make_figures(folder: Path = FIGURES) -> list[Path]:
    """Write every figure of the handout into ``folder``; return their paths."""
    folder.mkdir(parents=True, exist_ok=True)
    example_1, example_2, example_3 = EXAMPLES
    return [
        _knowledge(example_1, folder / "example1_knowledge.png"),
        _two_searches(example_1, "forward", "Repeated Forward A*, example 1", folder / "example1_forward.png"),
        _two_searches(example_1, "backward", "Repeated Backward A*, example 1", folder / "example1_backward.png"),
        _two_searches(example_1, "adaptive", "Adaptive A*, example 1", folder / "example1_adaptive.png"),
        _example_2(example_2, folder / "example2_first_search.png"),
        _ties(example_3, folder / "example3_ties.png"),
    ]


if __name__ == "__main__":
    for written in make_figures(Path(sys.argv[1]) if len(sys.argv) > 1 else FIGURES):
        print(written)
