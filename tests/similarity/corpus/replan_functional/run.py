#!/usr/bin/env python3
"""python run.py maze.txt [--backward]: one run on a maze file ('#' blocked), printed."""
import sys

from search import repeated_astar


def read_maze(path):
    with open(path) as handle:
        lines = [line.rstrip("\n") for line in handle if line.strip()]
    blocked = {(r, c) for r, line in enumerate(lines) for c, ch in enumerate(line) if ch == "#"}
    return blocked, len(lines), len(lines[0])


if __name__ == "__main__":
    blocked, height, width = read_maze(sys.argv[1])
    backward = "--backward" in sys.argv
    trajectory, searches, reached = repeated_astar(blocked, height, width, (0, 0), (height - 1, width - 1), backward)
    print("reached" if reached else "no path", len(trajectory) - 1, "moves,",
          sum(map(len, searches)), "expansions in", len(searches), "searches")
