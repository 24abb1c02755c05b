"""How big the step-through player's page gets (``ftr animate --html``) on the 50 standard 101 x 101 mazes.

    python bench/player.py                  # all 50 mazes x forward, backward, adaptive (larger_g)
    python bench/player.py --mazes 5

Printed: the smallest, median and largest page in MB, with the run's expansions and searches, and
the CPU seconds to build a page (the reference's solve not counted).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from reference.solutions import solve
from reference.world.instances import load_folder, standard_mazes_dir
from reference.world.player import player_html


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mazes", type=int, default=50)
    args = parser.parse_args()
    pages, building = [], 0.0
    for number, instance in enumerate(load_folder(standard_mazes_dir())[: args.mazes]):
        for algorithm in ("forward", "backward", "adaptive"):
            trace = solve(instance, algorithm, "larger_g")
            began = time.process_time()
            size = len(player_html(instance.grid, trace).encode())
            building += time.process_time() - began
            pages.append((size, number, algorithm, trace.expansions, len(trace.searches)))
    pages.sort()
    for label, (size, number, algorithm, expansions, searches) in (("smallest", pages[0]),
                                                                   ("median", pages[len(pages) // 2]),
                                                                   ("largest", pages[-1])):
        print(f"{label:8}  {size / 1e6:.2f} MB  maze {number:2d} {algorithm:8}  {expansions:,} expansions, {searches} searches")
    print(f"{len(pages)} pages, {building / len(pages):.2f} CPU s each to build on average")


if __name__ == "__main__":
    main()
