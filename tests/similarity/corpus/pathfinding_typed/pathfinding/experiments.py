"""Experiment: blocked density 0.1..0.4 on 20 seeded 64 x 64 maps each; prints a markdown table."""
from __future__ import annotations

import random
import statistics

from .core import navigate


def density_sweep(seeds: int = 20, size: int = 64) -> list[tuple[float, float, float]]:
    table = []
    for density in (0.1, 0.2, 0.3, 0.4):
        expansions, moves = [], []
        for seed in range(seeds):
            rng = random.Random(seed)
            truth = {(r, c) for r in range(size) for c in range(size) if rng.random() < density}
            truth -= {(0, 0), (size - 1, size - 1)}
            episode = navigate(truth, size, size, (0, 0), (size - 1, size - 1))
            expansions.append(sum(len(s.expanded) for s in episode.searches))
            moves.append(len(episode.trajectory) - 1)
        table.append((density, statistics.mean(expansions), statistics.mean(moves)))
    return table


if __name__ == "__main__":
    print("| density | expansions | moves |\n|---|---|---|")
    for density, expansions, moves in density_sweep():
        print(f"| {density:.1f} | {expansions:.0f} | {moves:.0f} |")
