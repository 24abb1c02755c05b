"""Benchmark: how long a whole ``ftr run`` process takes on one maze, cold and warm, beside baselines.

    python bench/startup.py                              # 9 warm rounds, 3 cold runs (a minute or two)
    python bench/startup.py --rounds 15 --cold 5
    python bench/startup.py --baseline /tmp/old-kit      # and the same processes of another checkout

Each measurement is a whole process started with ``subprocess`` and timed with ``time.perf_counter``
(wall) and the children's ``resource`` usage (CPU: user + system), so start-up, imports, loading the
compiled code and the search all count. The processes, in rounds (every round runs each once, in
a rotating order, so that all of them see the same machine):

* ``python -c pass``: the interpreter alone;
* ``python -c "import numpy"``, ``python -c "import numba"``: what the imports cost;
* ``ftr --help``: the command line alone (every command registered);
* ``ftr run maze_00 --engine python``: the readable reference, no Numba;
* ``ftr run maze_00``: the compiled twin, warm (Numba's cache filled);
* with ``--baseline DIR``: the two ``ftr run`` processes again with the kit of ``DIR`` (a checkout of an
  older commit, e.g. ``git archive COMMIT | tar -x -C DIR``), interleaved with the others.

Children run with Python's bytecode cache on (``PYTHONDONTWRITEBYTECODE`` removed from their
environment), as an installed kit has it. Cold runs are timed apart, alternating between the kits: each first empties a private Numba cache
(``NUMBA_CACHE_DIR`` pointing to a fresh folder per kit, so the kit's own cache is never touched),
then runs ``ftr run``, which compiles the twin. Medians are printed, with ratios to the bare
interpreter, and the load average; then where the CPU time of a warm start goes, phase by phase,
measured inside one process of this kit.
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
FTR = [sys.executable, "-m", "reference.cli"]
FTR_RUN = [*FTR, "run", *MAZE]
WARM, COLD, READABLE = "ftr run (compiled twin), warm", "ftr run (compiled twin), cold", "ftr run --engine python"
PROCESSES = {
    "python -c pass": [sys.executable, "-c", "pass"],
    "python -c 'import numpy'": [sys.executable, "-c", "import numpy"],
    "python -c 'import numba'": [sys.executable, "-c", "import numba"],
    "ftr --help": [*FTR, "--help"],
    READABLE: [*FTR_RUN, "--engine", "python"],
    WARM: FTR_RUN,
}
# Inside one warm process of this kit: CPU seconds of each phase of the compiled twin's start.
PHASES = """
import json, sys, time
sys.path.insert(0, {repo!r})
clock = [time.process_time()]
import numpy
clock.append(time.process_time())
from reference.cli import build_parser  # as `ftr run` builds it: its own module only
build_parser("run")
clock.append(time.process_time())
import reference.solutions.compiled  # Numba (SciPy hidden; its registries are not filled)
clock.append(time.process_time())
from reference.solutions.compiled.replanning import run_compiled
from reference.world.instances import load_from_scen
clock.append(time.process_time())
instance = load_from_scen({maze!r}, {scen!r}, 0)
run_compiled(instance.grid, instance.start, instance.target)  # loads the cached code, then searches
clock.append(time.process_time())
run_compiled(instance.grid, instance.start, instance.target)  # the search alone
clock.append(time.process_time())
print(json.dumps([b - a for a, b in zip(clock, clock[1:])] + [any(m.startswith("scipy") for m in sys.modules)]))
"""
PHASE_NAMES = ["import numpy", "the command line: `ftr run`'s own module registered",
               "import reference.solutions.compiled: Numba", "the twin's modules",
               "first run: load the compiled code + search", "second run: the search alone"]


def timed(command: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one whole process; it must succeed."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(command, cwd=cwd, env=env, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=9, help="warm rounds, every process once (default 9)")
    parser.add_argument("--cold", type=int, default=3, help="cold runs per kit, each compiling the twin (default 3)")
    parser.add_argument("--baseline", type=Path, metavar="DIR",
                        help="another checkout of the kit whose ftr run to time side by side")
    args = parser.parse_args()
    kits = {"": REPO}
    if args.baseline:
        kits[" [baseline]"] = args.baseline.resolve()
    caches = {label: Path(tempfile.mkdtemp(prefix="ftr-numba-cache-")) for label in kits}
    # Python's bytecode cache on, as an installed kit has it (PYTHONDONTWRITEBYTECODE would make every
    # process compile the kit's modules from source again, about 0.1 CPU s).
    python_env = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
    envs = {label: {**python_env, "NUMBA_CACHE_DIR": str(caches[label]), "PYTHONPATH": str(root)}
            for label, root in kits.items()}
    # (name, command, kit label) of the warm processes; the baselines only for the two ftr runs
    processes = [(name, command, "") for name, command in PROCESSES.items()]
    processes += [(name + label, PROCESSES[name], label) for label in kits if label for name in (READABLE, WARM)]
    load_before = os.getloadavg()[0]
    colds = [COLD + label for label in kits]
    results: dict[str, list[tuple[float, float]]] = {name: [] for name in [name for name, _, _ in processes] + colds}
    try:
        for _ in range(args.cold):
            for label, root in kits.items():
                shutil.rmtree(caches[label])
                caches[label].mkdir()
                results[COLD + label].append(timed(FTR_RUN, root, envs[label]))  # compiles, leaves the cache filled
        if not args.cold:
            for label, root in kits.items():
                timed(FTR_RUN, root, envs[label])  # fill the cache for the warm runs
        for round_number in range(args.rounds):
            turn = round_number % len(processes)
            for name, command, label in processes[turn:] + processes[:turn]:
                results[name].append(timed(command, kits[label], envs[label]))
        phases = []
        for _ in range(args.rounds):
            out = subprocess.run([sys.executable, "-c", PHASES.format(repo=str(REPO), maze=str(REPO / MAZE[0]),
                                                                      scen=str(REPO / MAZE[2]))],
                                 cwd=REPO, env=envs[""], check=True, capture_output=True, text=True).stdout
            phases.append(json.loads(out))
    finally:
        for cache in caches.values():
            shutil.rmtree(cache, ignore_errors=True)
    print(f"\nWhole processes on {' '.join(MAZE[:1])} (scenario line 0): medians of {args.rounds} warm rounds "
          f"and {args.cold} cold runs; load average {load_before:.1f} before, {os.getloadavg()[0]:.1f} after")
    if args.baseline:
        print(f"[baseline]: the kit in {args.baseline}")
    print()
    base_wall = statistics.median(w for w, _ in results["python -c pass"])
    base_cpu = statistics.median(c for _, c in results["python -c pass"])
    print("| process | wall s (median) | CPU s (median) | wall / bare python | CPU / bare python |")
    print("|---|---:|---:|---:|---:|")
    for name, runs in results.items():
        if not runs:
            continue
        wall, cpu = statistics.median(w for w, _ in runs), statistics.median(c for _, c in runs)
        print(f"| {name} | {wall:.3f} | {cpu:.3f} | {wall / base_wall:.1f} | {cpu / base_cpu:.1f} |")
    if args.baseline:
        for name in (WARM, COLD, READABLE):
            new, old = results[name], results[name + " [baseline]"]
            if new and old:
                print(f"\n{name}: this kit / baseline = wall {statistics.median(w for w, _ in new) / statistics.median(w for w, _ in old):.2f}, "
                      f"CPU {statistics.median(c for _, c in new) / statistics.median(c for _, c in old):.2f}", end="")
        print()
    print(f"\nInside a warm `ftr run`-like process of this kit, CPU seconds per phase (medians of {args.rounds}):\n")
    print("| phase | CPU s |\n|---|---:|")
    for number, name in enumerate(PHASE_NAMES):
        print(f"| {name} | {statistics.median(p[number] for p in phases):.3f} |")
    print(f"\nSciPy imported in the phases' process: {'yes' if any(p[-1] for p in phases) else 'no'}")


if __name__ == "__main__":
    main()
