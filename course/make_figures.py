"""Render the handout's figures from the kit's own runs of the handout's examples.

Every number in a figure comes from a real trace (the reference solution's run on the example)
re-read by :mod:`reference.world.pictures`, so the handout and the kit cannot disagree::

    python course/make_figures.py          # writes course/handout/figures/*.png

>>> [name for name, _ in EXAMPLES]
['example_1', 'example_2', 'example_3']
"""

from __future__ import annotations

import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from reference.solutions import solve  # noqa: E402  (instructor-side: the handout shows the reference's runs)
from reference.world.grid import Gridworld  # noqa: E402
from reference.world.instances import Instance  # noqa: E402
from reference.world.pictures import draw_knowledge_views, draw_search, search_view  # noqa: E402

FIGURES = Path(__file__).resolve().parent / "handout" / "figures"

FIGURE_2 = [".....", "..@..", "..@@.", "..@@.", "...@."]
EXAMPLES = [
    ("example_1", Instance("example_1", Gridworld.from_strings(FIGURE_2), (4, 2), (4, 4))),
    ("example_2", Instance("example_2", Gridworld.from_strings(FIGURE_2), (4, 1), (4, 4))),
    ("example_3", Instance("example_3", Gridworld.from_strings(["....."] * 5), (0, 0), (4, 4))),
]


def _save(figure, path: Path, rect: tuple[float, float, float, float] = (0, 0, 1, 1)) -> Path:
    """Lay out ``figure`` (inside ``rect``, leaving room for a title), write it to ``path`` and close it."""
    figure.tight_layout(rect=rect)
    figure.savefig(path, dpi=110)
    plt.close(figure)
    return path


def _two_searches(instance: Instance, algorithm: str, title: str, path: Path) -> Path:
    """The first two searches of ``algorithm`` side by side (the handout's Figures 5-7)."""
    trace = solve(instance, algorithm)
    figure, axes = plt.subplots(1, 2, figsize=(10, 5.4))
    for index, ax in enumerate(axes):
        view = search_view(instance.grid, trace, index)
        draw_search(view, ax=ax, title=f"search {index + 1}: {len(view.record.expanded)} expansions")
    figure.suptitle(title)
    return _save(figure, path, rect=(0, 0, 1, 0.95))


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
    draw_search(view, ax=ax, title=f"{title}: {len(view.record.expanded)} expansions")


def _ties(instance: Instance, path: Path) -> Path:
    """Example 3 (no walls): ties to the larger g against ties to the smaller g."""
    figure, axes = plt.subplots(1, 2, figsize=(10, 5.4))
    _first_search(instance, "ties to the larger g", "larger_g", axes[0])
    _first_search(instance, "ties to the smaller g", "smaller_g", axes[1])
    return _save(figure, path)


def _example_2(instance: Instance, path: Path) -> Path:
    figure, ax = plt.subplots(figsize=(5.2, 5.4))
    _first_search(instance, "first search", "larger_g", ax)
    return _save(figure, path)


def make_figures(folder: Path = FIGURES) -> list[Path]:
    """Write every figure of the handout into ``folder``; return their paths."""
    folder.mkdir(parents=True, exist_ok=True)
    example_1, example_2, example_3 = (instance for _, instance in EXAMPLES)
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
