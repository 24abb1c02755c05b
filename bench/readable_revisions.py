"""Benchmark: the readable Repeated A* of another git revision beside today's and the heapq peer.

    python bench/readable_revisions.py --rev c47217f --limit 20

Runs ``reference/solutions/replanning.py`` as it stood at ``--rev`` (read with ``git show``), as it
is now, and the heapq + dict peer (``bench/baseline.py``) on the first ``--limit`` standard mazes in
the standard experiment's four settings, interleaved maze by maze with the order rotating, and
checks that the three give identical traces. Times are CPU seconds of this process
(``time.process_time``), so a busy machine slows every engine alike but adds no waiting time.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.baseline import baseline_run  # noqa: E402
from reference.experiments.standard import SETTINGS  # noqa: E402
from reference.solutions import replanning  # noqa: E402
from reference.world.instances import load_folder, standard_mazes_dir  # noqa: E402
from reference.world.sensing import FogOfWarWorld  # noqa: E402

RUNS = {"forward": "repeated_forward_astar", "backward": "repeated_backward_astar", "adaptive": "adaptive_astar"}


def replanning_at(revision: str, folder: Path):
    """The module ``reference/solutions/replanning.py`` of ``revision``, imported beside today's."""
    text = subprocess.run(["git", "show", f"{revision}:reference/solutions/replanning.py"], cwd=REPO,
                          capture_output=True, text=True, check=True).stdout
    path = folder / "replanning_then.py"
    path.write_text(text, encoding="utf-8")
    # In the package, so that its relative imports (.agent, .heap) find today's modules.
    spec = importlib.util.spec_from_file_location("reference.solutions.replanning_then", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rev", required=True, help="the git revision to compare with (e.g. c47217f)")
    parser.add_argument("--limit", type=int, default=20, help="how many standard mazes (default 20)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        then = replanning_at(args.rev, Path(folder))
    engines = {
        f"readable at {args.rev}": lambda i, a, t: getattr(then, RUNS[a])(FogOfWarWorld(i.grid, i.start), i.start, i.target, t),
        "readable now": lambda i, a, t: getattr(replanning, RUNS[a])(FogOfWarWorld(i.grid, i.start), i.start, i.target, t),
        "heapq + dict peer": lambda i, a, t: baseline_run(i.grid, i.start, i.target, a, t),
    }
    names = list(engines)
    seconds = dict.fromkeys(names, 0.0)
    instances = load_folder(standard_mazes_dir())[: args.limit]
    load_before, turn = os.getloadavg()[0], 0
    for algorithm, tie_break in SETTINGS:
        for instance in instances:
            turn += 1
            traces = {}
            for name in names[turn % len(names):] + names[:turn % len(names)]:  # no engine always first
                began = time.process_time()
                traces[name] = engines[name](instance, algorithm, tie_break)
                seconds[name] += time.process_time() - began
            if not all(trace == traces[names[0]] for trace in traces.values()):
                raise SystemExit(f"the engines disagree on {instance.name} {algorithm}/{tie_break}")
    print(f"{len(instances)} mazes x {len(SETTINGS)} settings, identical traces; "
          f"load average {load_before:.1f} before, {os.getloadavg()[0]:.1f} after\n")
    print(f"| engine | CPU s | time / readable at {args.rev} | time / heapq peer |\n|---|---:|---:|---:|")
    for name in names:
        print(f"| {name} | {seconds[name]:.2f} | {seconds[name] / seconds[names[0]]:.2f} | "
              f"{seconds[name] / seconds[names[2]]:.2f} |")


if __name__ == "__main__":
    main()
