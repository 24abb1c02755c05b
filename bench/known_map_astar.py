"""Benchmark: the compiled known-map A* of this kit against another checkout's, in alternating processes.

    python bench/known_map_astar.py --baseline /tmp/old-kit            # 300 lines of bg512/AR0011SR, 5 rounds each
    python bench/known_map_astar.py --baseline /tmp/old-kit --map ../shared/movingai/bgmaps/AR0700SR.map --random 40
    python bench/known_map_astar.py --baseline /tmp/old-kit --three-part-keys --connectivity 4

Each round starts one process per kit (this one first on odd rounds, the baseline first on even ones);
a process loads the compiled A* (``astar_cost``: ``compiled/shortest_paths.py``, or ``compiled/astar.py``
in older checkouts), warms it up on the first line, then times the scenario lines (CPU seconds) and
prints the expansions and costs, which must agree between the kits. The best and median rounds are
printed with the ratio this kit / baseline. ``--random N`` replaces the scenario lines by N random pairs
of passable cells (seed 1), for maps without a ``.scen`` file. ``--three-part-keys`` turns the packed
keys off in both kits (``key_plan`` answers None), so that the fallback ``astar_arrays`` is timed in
place of ``astar_packed``; ``--connectivity 4`` times four-connected searches.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
MOVINGAI = REPO.parent / "shared" / "movingai"
ONE_PROCESS = """
import json, sys, time
import numpy as np
try:
    from reference.solutions.compiled.shortest_paths import astar_cost
except ImportError:  # checkouts before the twins mirrored the readable tree
    from reference.solutions.compiled.astar import astar_cost
from reference.world.maps import read_scen, read_terrain
from reference.world.terrain import passable, scenario_capability
if {three_part_keys}:  # every search on the heap of (f, tie, stamp) triples: astar_arrays
    import reference.solutions.compiled.shortest_paths as kernels
    kernels.key_plan = lambda height, width, connectivity: None
terrain = read_terrain({map!r})
problems = []
if {random}:
    import numpy as np
    rng = np.random.default_rng(1)
    cells = np.argwhere(np.ones(terrain.shape, dtype=bool))
    while len(problems) < {random}:
        start, target = (tuple(int(x) for x in cells[i]) for i in rng.integers(len(cells), size=2))
        blocked = ~passable(terrain, scenario_capability(terrain, start))
        if not blocked[start] and not blocked[target]:
            problems.append((blocked, start, target))
else:
    for scenario in read_scen({scen!r})[-{lines}:]:
        problems.append((~passable(terrain, scenario_capability(terrain, scenario.start)), scenario.start, scenario.target))
astar_cost(*problems[0], connectivity={connectivity})
began = time.process_time()
answers = [astar_cost(*problem, connectivity={connectivity}) for problem in problems]
print(json.dumps([time.process_time() - began, answers]))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--baseline", type=Path, required=True, metavar="DIR", help="the other checkout")
    parser.add_argument("--map", type=Path, default=MOVINGAI / "bg512" / "AR0011SR.map")
    parser.add_argument("--lines", type=int, default=300)
    parser.add_argument("--random", type=int, default=0, metavar="N", help="N random problems instead of the .scen lines")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--connectivity", type=int, choices=(4, 8), default=8)
    parser.add_argument("--three-part-keys", action="store_true",
                        help="turn the packed keys off in both kits: time astar_arrays, not astar_packed")
    args = parser.parse_args()
    map_path = args.map.resolve()  # the processes run in the kits' folders
    code = ONE_PROCESS.format(map=str(map_path), scen=str(map_path) + ".scen", lines=args.lines, random=args.random,
                              connectivity=args.connectivity, three_part_keys=args.three_part_keys)
    kits = {"this kit": REPO, "baseline": args.baseline.resolve()}
    seconds: dict[str, list[float]] = {name: [] for name in kits}
    answers = {}
    for round_number in range(args.rounds):
        order = list(kits) if round_number % 2 == 0 else list(kits)[::-1]
        for name in order:
            out = subprocess.run([sys.executable, "-c", code], cwd=kits[name], check=True, capture_output=True, text=True,
                                 env={**os.environ, "PYTHONPATH": str(kits[name])}).stdout
            spent, answers[name] = json.loads(out)
            seconds[name].append(spent)
        assert answers["this kit"] == answers["baseline"], "the two kits' A* disagree"
    problems = f"{args.random} random problems" if args.random else f"{args.lines} lines"
    kernel = "astar_arrays (three-part keys)" if args.three_part_keys else "packed keys where they fit"
    expansions = sum(answer[1] for answer in answers["this kit"])
    print(f"{args.map.name}, {problems}, {args.connectivity}-connected, {kernel}: {expansions:,} expansions; "
          f"CPU s over {args.rounds} rounds")
    for name, times in seconds.items():
        print(f"  {name}: best {min(times):.3f}, median {statistics.median(times):.3f}")
    print(f"  this kit / baseline: best {min(seconds['this kit']) / min(seconds['baseline']):.3f}, "
          f"median {statistics.median(seconds['this kit']) / statistics.median(seconds['baseline']):.3f}")


if __name__ == "__main__":
    main()
