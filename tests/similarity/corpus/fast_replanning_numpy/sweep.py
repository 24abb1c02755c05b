"""Generate 50 maps, run both planners on each, write sweep.csv and maps.npy."""
import numpy as np

from planner import GridPlanner

rng = np.random.default_rng(2024)
maps = rng.random((50, 101, 101)) < 0.3
maps[:, 0, 0] = maps[:, -1, -1] = False
np.save("maps.npy", maps)
lines = ["map,forward,adaptive"]
for i, truth in enumerate(maps):
    counts = []
    for adaptive in (False, True):
        _, expanded, _ = GridPlanner(truth.shape, adaptive).navigate(truth, (0, 0), (100, 100))
        counts.append(expanded)
    lines.append(f"{i},{counts[0]},{counts[1]}")
open("sweep.csv", "w").write("\n".join(lines) + "\n")
