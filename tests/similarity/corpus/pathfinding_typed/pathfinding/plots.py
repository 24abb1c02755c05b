"""Plots of an episode: the expansions of each search as a step chart, and a heat map of visits."""
from __future__ import annotations

from collections import Counter

import matplotlib.pyplot as plt
import numpy as np

from .core import Episode


def expansions_per_search(episode: Episode, out: str = "searches.svg") -> None:
    counts = [len(s.expanded) for s in episode.searches]
    fig, ax = plt.subplots(figsize=(7, 3))
    ax.step(range(1, len(counts) + 1), counts, where="mid")
    ax.set(xlabel="search", ylabel="expansions", title="work per replanning step")
    fig.savefig(out)


def visit_heatmap(episode: Episode, rows: int, cols: int, out: str = "heat.svg") -> None:
    heat = np.zeros((rows, cols))
    for cell, n in Counter(c for s in episode.searches for c in s.expanded).items():
        heat[cell] = n
    fig, ax = plt.subplots()
    ax.imshow(heat, cmap="magma")
    fig.savefig(out)
