"""Both directions on 50 random 101 x 101 grids (30 % blocked); writes benchmark.json."""
import json
import random

from search import repeated_astar

results = []
for seed in range(50):
    rng = random.Random(seed)
    blocked = {(r, c) for r in range(101) for c in range(101) if rng.random() < 0.3} - {(0, 0), (100, 100)}
    row = {"seed": seed}
    for name, backward in (("forward", False), ("backward", True)):
        _, searches, reached = repeated_astar(blocked, 101, 101, (0, 0), (100, 100), backward)
        row[name] = sum(len(s) for s in searches)
        row[name + "_reached"] = reached
    results.append(row)
json.dump(results, open("benchmark.json", "w"), indent=1)
print("mean forward", sum(r["forward"] for r in results) / 50, "mean backward", sum(r["backward"] for r in results) / 50)
