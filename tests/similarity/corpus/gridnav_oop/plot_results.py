"""Bar charts of the experiment's CSV: expansions per maze, and a histogram of the moves."""
import csv
import sys

import matplotlib.pyplot as plt


def load(path):
    with open(path) as handle:
        return list(csv.DictReader(handle))


def plot(rows, out="expansions.png"):
    mazes = [int(row["maze"]) for row in rows]
    expansions = [int(row["expanded"]) for row in rows]
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
    left.bar(mazes, expansions, color="steelblue")
    left.set_xlabel("maze")
    left.set_ylabel("expanded cells")
    right.hist([int(row["moves"]) for row in rows], bins=20, color="darkorange")
    right.set_xlabel("moves")
    fig.tight_layout()
    fig.savefig(out, dpi=120)


if __name__ == "__main__":
    plot(load(sys.argv[1] if len(sys.argv) > 1 else "results.csv"))
