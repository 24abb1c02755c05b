"""Command line: python cli.py --maps maps.npy --adaptive"""
import argparse

import numpy as np

from planner import GridPlanner

parser = argparse.ArgumentParser()
parser.add_argument("--maps", default="maps.npy", help="an array of shape (n, rows, cols), True = blocked")
parser.add_argument("--adaptive", action="store_true")
parser.add_argument("--index", type=int, default=None)
options = parser.parse_args()

maps = np.load(options.maps)
chosen = range(len(maps)) if options.index is None else [options.index]
for i in chosen:
    truth = maps[i]
    rows, cols = truth.shape
    planner = GridPlanner(truth.shape, adaptive=options.adaptive)
    visited, expanded, ok = planner.navigate(truth, (0, 0), (rows - 1, cols - 1))
    print(f"map {i:3d}: {'ok ' if ok else 'FAIL'} moves {len(visited) - 1:6d} expanded {expanded:8d}")
