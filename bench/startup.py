"""Benchmark: how long a whole ``ftr run`` process takes on one maze, cold and warm, beside baselines.

    python bench/startup.py                 # 9 warm rounds, 3 cold runs (about a minute on an idle machine)
    python bench/startup.py --rounds 15 --cold 5

Each measurement is a whole process started with ``subprocess`` and timed with ``time.perf_counter``
(wall) and the children's ``resource`` usage (CPU: user + system), so start-up, imports, loading the
compiled code and the search all count. The processes, in rounds (every round runs each once, in
a rotating order, so that all of them see the same machine):

* ``python -c pass``: the interpreter alone;
* ``python -c "import numpy"``, ``python -c "import numba"``: what the imports cost;
* ``ftr run maze_00 --engine python``: the readable reference, no Numba;
* ``ftr run maze_00``: the compiled twin, warm (Numba's cache filled).

Cold runs are timed apart: each first empties a private Numba cache (``NUMBA_CACHE_DIR`` pointing
to a fresh folder, so the kit's own cache is never touched), then runs ``ftr run``, which compiles
the twin. Medians are printed, with ratios to the bare interpreter, and the load average; then
where the CPU time of a warm start goes, phase by phase, measured inside the process.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
MAZE = ["mazes/maze_00.map", "--scen", "mazes/mazes.scen", "--index", "0"]
FTR_RUN = [sys.executable, "-m", "reference.cli", "run", *MAZE]
PROCESSES = {
    "python -c pass": [sys.executable, "-c", "pass"],
    "python -c 'import numpy'": [sys.executable, "-c", "import numpy"],
    "python -c 'import numba'": [sys.executable, "-c", "import numba"],
    "ftr run (readable reference)": [*FTR_RUN, "--engine", "python"],
    "ftr run (compiled twin), warm": FTR_RUN,
}
COLD = "ftr run (compiled twin), cold"
# Inside one warm process: CPU seconds of each phase of the compiled twin's start.
PHASES = """
import json, sys, time
sys.path.insert(0, {repo!r})
clock = [time.process_time()]
import numpy
clock.append(time.process_time())
import numba
clock.append(time.process_time())
from numba.core.registry import cpu_target  # what Numba's first dispatch does: register every
cpu_target.target_context.refresh()          # implementation (numba.np.arraymath imports SciPy's BLAS)
cpu_target.typing_context.refresh()
clock.append(time.process_time())
from reference.solutions.compiled.replanning import run_compiled
from reference.world.instances import load_from_scen
clock.append(time.process_time())
instance = load_from_scen({maze!r}, {scen!r}, 0)
run_compiled(instance.grid, instance.start, instance.target)  # loads the cached code, then searches
clock.append(time.process_time())
run_compiled(instance.grid, instance.start, instance.target)  # the search alone
clock.append(time.process_time())
print(json.dumps([b - a for a, b in zip(clock, clock[1:])]))
"""
PHASE_NAMES = ["import numpy", "import numba", "Numba's registries (incl. SciPy's BLAS)", "the kit's modules",
               "first run: load the compiled code + search", "second run: the search alone"]


def timed(command: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one whole process; it must succeed."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(command, cwd=REPO, env=env, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=9, help="warm rounds, every process once (default 9)")
    parser.add_argument("--cold", type=int, default=3, help="cold runs, each compiling the twin (default 3)")
    args = parser.parse_args()
    cache = Path(tempfile.mkdtemp(prefix="ftr-numba-cache-"))
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache), "PYTHONPATH": str(REPO)}
    load_before = os.getloadavg()[0]
    results: dict[str, list[tuple[float, float]]] = {name: [] for name in [*PROCESSES, COLD]}
    try:
        for _ in range(args.cold):
            shutil.rmtree(cache)
            cache.mkdir()
            results[COLD].append(timed(FTR_RUN, env))  # compiles, and leaves the cache filled
        if not args.cold:
            timed(FTR_RUN, env)  # fill the cache for the warm runs
        names = list(PROCESSES)
        for round_number in range(args.rounds):
            turn = round_number % len(names)
            for name in names[turn:] + names[:turn]:
                results[name].append(timed(PROCESSES[name], env))
        phases = []
        for _ in range(args.rounds):
            out = subprocess.run([sys.executable, "-c", PHASES.format(repo=str(REPO), maze=str(REPO / MAZE[0]),
                                                                      scen=str(REPO / MAZE[2]))],
                                 cwd=REPO, env=env, check=True, capture_output=True, text=True).stdout
            phases.append(json.loads(out))
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    print(f"\nWhole processes on {' '.join(MAZE[:1])} (scenario line 0): medians of {args.rounds} warm rounds "
          f"and {args.cold} cold runs; load average {load_before:.1f} before, {os.getloadavg()[0]:.1f} after\n")
    base_wall = statistics.median(w for w, _ in results["python -c pass"])
    base_cpu = statistics.median(c for _, c in results["python -c pass"])
    print("| process | wall s (median) | CPU s (median) | wall / bare python | CPU / bare python |")
    print("|---|---:|---:|---:|---:|")
    for name, runs in results.items():
        if not runs:
            continue
        wall, cpu = statistics.median(w for w, _ in runs), statistics.median(c for _, c in runs)
        print(f"| {name} | {wall:.3f} | {cpu:.3f} | {wall / base_wall:.1f} | {cpu / base_cpu:.1f} |")
    print(f"\nInside a warm `ftr run`-like process, CPU seconds per phase (medians of {args.rounds}):\n")
    print("| phase | CPU s |\n|---|---:|")
    for number, name in enumerate(PHASE_NAMES):
        print(f"| {name} | {statistics.median(p[number] for p in phases):.3f} |")


if __name__ == "__main__":
    main()
