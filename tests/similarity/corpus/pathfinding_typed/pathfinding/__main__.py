"""python -m pathfinding MAPFILE: run the agent on a MovingAI-style .map file."""
from __future__ import annotations

import sys
from pathlib import Path

from .core import navigate


def read_map(path: Path) -> tuple[set, int, int]:
    lines = path.read_text().splitlines()
    start = lines.index("map") + 1
    grid = lines[start:]
    blocked = {(r, c) for r, row in enumerate(grid) for c, ch in enumerate(row) if ch in "@TW"}
    return blocked, len(grid), len(grid[0])


def main(argv: list[str]) -> int:
    blocked, rows, cols = read_map(Path(argv[1]))
    episode = navigate(blocked, rows, cols, (0, 0), (rows - 1, cols - 1))
    expansions = sum(len(s.expanded) for s in episode.searches)
    print(f"reached={episode.reached} moves={len(episode.trajectory) - 1} searches={len(episode.searches)} "
          f"expansions={expansions}")
    return 0 if episode.reached else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
