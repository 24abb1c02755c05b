"""Scatter plot: forward vs backward expansions per maze, from benchmark.json."""
import json

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

with open("benchmark.json") as f:
    data = json.load(f)
fwd = [d["forward"] for d in data]
bwd = [d["backward"] for d in data]
plt.figure(figsize=(5, 5))
plt.scatter(fwd, bwd, s=12, alpha=0.7)
top = max(fwd + bwd)
plt.plot([0, top], [0, top], "k--", lw=1)
plt.xlabel("Repeated Forward A* expansions")
plt.ylabel("Repeated Backward A* expansions")
plt.title("forward vs backward")
plt.savefig("forward_vs_backward.png", bbox_inches="tight")
