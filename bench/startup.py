"""Benchmark: how long a whole ``ftr run`` process takes on one maze, cold and warm, beside baselines.

    python bench/startup.py                              # 9 warm rounds, 3 cold runs (a minute or two)
    python bench/startup.py --rounds 15 --cold 5
    python bench/startup.py --maze 7 --cold 0            # scenario line 7 (mazes/maze_07.map), warm only
    python bench/startup.py --baseline /tmp/old-kit      # and the same processes of another checkout

Each measurement is a whole process started with ``subprocess`` and timed with ``time.perf_counter``
(wall) and the children's ``resource`` usage (CPU: user + system), so start-up, imports, loading the
compiled code and the search all count. The processes, in rounds (every round runs each once, in
a rotating order, so that all of them see the same machine):

* ``python -c pass``: the interpreter alone;
* ``python -c "import numpy"``, ``python -c "import numba"``: what the imports cost;
* ``ftr --help``: the command line alone (every command registered);
* ``ftr run maze_00 --engine python``: the readable reference, no Numba;
* ``ftr run maze_00``: the compiled twin, warm: the module compiled ahead of time, no Numba
  (``reference/cli/_ahead_of_time.py``; built first if it is missing);
* ``ftr run maze_00`` with ``FTR_NO_AHEAD_OF_TIME=1``: the Numba twin, warm (Numba's cache filled);
* with ``--baseline DIR``: the two ``ftr run`` processes again with the kit of ``DIR`` (a checkout of an
  older commit, e.g. ``git archive COMMIT | tar -x -C DIR``), interleaved with the others.

Children run with Python's bytecode cache on (``PYTHONDONTWRITEBYTECODE`` removed from their
environment), as an installed kit has it. Cold runs are timed apart, alternating between the kits: each first empties a private Numba cache
(``NUMBA_CACHE_DIR`` pointing to a fresh folder per kit, so the kit's own cache is never touched),
then runs ``ftr run`` with ``FTR_NO_AHEAD_OF_TIME=1``, which compiles the Numba twin. Medians are
printed, with ratios to the bare interpreter, and the load average; then where the CPU time of a warm
start goes, phase by phase, measured inside one process of this kit, for either compiled twin.
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
FTR = [sys.executable, "-m", "reference.cli"]
WARM, NUMBA = "ftr run (compiled twin), warm", "ftr run, the Numba twin (FTR_NO_AHEAD_OF_TIME=1), warm"
COLD, READABLE = "ftr run, the Numba twin, cold", "ftr run --engine python"
#: The environment variable that makes ``ftr run`` use the Numba twin (reference/cli/run.py).
NUMBA_ONLY = {"FTR_NO_AHEAD_OF_TIME": "1"}


def maze_arguments(index: int) -> list[str]:
    """``ftr run``'s arguments for scenario line ``index`` of the standard mazes."""
    return [f"mazes/maze_{index:02d}.map", "--scen", "mazes/mazes.scen", "--index", str(index)]


def processes(maze: list[str]) -> dict[str, tuple[list[str], dict[str, str]]]:
    """The warm processes: name -> (command, what it adds to the environment)."""
    run = [*FTR, "run", *maze]
    return {
        "python -c pass": ([sys.executable, "-c", "pass"], {}),
        "python -c 'import numpy'": ([sys.executable, "-c", "import numpy"], {}),
        "python -c 'import numba'": ([sys.executable, "-c", "import numba"], {}),
        "ftr --help": ([*FTR, "--help"], {}),
        READABLE: ([*run, "--engine", "python"], {}),
        WARM: (run, {}),
        NUMBA: (run, NUMBA_ONLY),
    }


# The first phases of both tables below: NumPy, then `ftr run`'s parser.
START_PHASES = """
import json, sys, time
sys.path.insert(0, {repo!r})
clock = [time.process_time()]
import numpy
clock.append(time.process_time())
from reference.cli import build_parser  # as `ftr run` builds it: its own module only
build_parser("run")
clock.append(time.process_time())
"""

# Inside one warm process of this kit: CPU seconds of each phase of the compiled twin's start, as
# `ftr run` runs it by default (the module compiled ahead of time, no Numba).
AHEAD_PHASES = START_PHASES + """from reference.cli._ahead_of_time import load_ahead_of_time_module, run_ahead_of_time
module = load_ahead_of_time_module()   # the sources' digest, then the extension module
clock.append(time.process_time())
from reference.world.instances import load_from_scen
instance = load_from_scen({maze!r}, {scen!r}, {index})
clock.append(time.process_time())
run_ahead_of_time(module, instance.grid, instance.start, instance.target, "forward", "larger_g", False)
clock.append(time.process_time())
print(json.dumps([b - a for a, b in zip(clock, clock[1:])] + ["numba" in sys.modules]))
"""
AHEAD_PHASE_NAMES = ["import numpy", "the command line: `ftr run`'s own module registered",
                     "the module compiled ahead of time: digest of the twins' sources, import",
                     "reading the maze", "the run (search, counts only)"]
# The same for the Numba twin (FTR_NO_AHEAD_OF_TIME=1).
PHASES = START_PHASES + """import reference.solutions.compiled  # Numba (SciPy hidden; its registries are not filled)
clock.append(time.process_time())
from reference.solutions.compiled.replanning import run_compiled
from reference.world.instances import load_from_scen
clock.append(time.process_time())
instance = load_from_scen({maze!r}, {scen!r}, {index})
run_compiled(instance.grid, instance.start, instance.target)  # loads the cached code, then searches
clock.append(time.process_time())
run_compiled(instance.grid, instance.start, instance.target)  # the search alone
clock.append(time.process_time())
print(json.dumps([b - a for a, b in zip(clock, clock[1:])] + [any(m.startswith("scipy") for m in sys.modules)]))
"""
PHASE_NAMES = ["import numpy", "the command line: `ftr run`'s own module registered",
               "import reference.solutions.compiled: Numba", "the twin's modules",
               "first run: load the compiled code + search", "second run: the search alone"]


def phase_table(code: str, rounds: int, env: dict[str, str], index: int) -> list[list]:
    """``code`` (one of the PHASES) run ``rounds`` times in fresh processes; each run's list of CPU seconds."""
    runs = []
    for _ in range(rounds):
        out = subprocess.run([sys.executable, "-c", code.format(repo=str(REPO), maze=str(REPO / maze_arguments(index)[0]),
                                                                scen=str(REPO / "mazes/mazes.scen"), index=index)],
                             cwd=REPO, env=env, check=True, capture_output=True, text=True).stdout
        runs.append(json.loads(out))
    return runs


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
    parser.add_argument("--maze", type=int, default=0, help="which scenario line of the standard mazes (default 0)")
    parser.add_argument("--baseline", type=Path, metavar="DIR",
                        help="another checkout of the kit whose ftr run to time side by side")
    args = parser.parse_args()
    maze = maze_arguments(args.maze)
    run = [*FTR, "run", *maze]
    kits = {"": REPO}
    if args.baseline:
        kits[" [baseline]"] = args.baseline.resolve()
    caches = {label: Path(tempfile.mkdtemp(prefix="ftr-numba-cache-")) for label in kits}
    # Python's bytecode cache on, as an installed kit has it (PYTHONDONTWRITEBYTECODE would make every
    # process compile the kit's modules from source again, about 0.1 CPU s).
    python_env = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
    envs = {label: {**python_env, "NUMBA_CACHE_DIR": str(caches[label]), "PYTHONPATH": str(root)}
            for label, root in kits.items()}
    # (name, command, added environment, kit label) of the warm processes; the baselines only for ftr run
    warm = processes(maze)
    timed_processes = [(name, command, added, "") for name, (command, added) in warm.items()]
    timed_processes += [(name + label, *warm[name], label) for label in kits if label for name in (READABLE, WARM)]
    load_before = os.getloadavg()[0]
    colds = [COLD + label for label in kits]
    results: dict[str, list[tuple[float, float]]] = {name: [] for name in [name for name, *_ in timed_processes] + colds}
    try:
        for _ in range(args.cold):
            for label, root in kits.items():
                shutil.rmtree(caches[label])
                caches[label].mkdir()
                # compiles the Numba twin, leaves the cache filled
                results[COLD + label].append(timed(run, root, {**envs[label], **NUMBA_ONLY}))
        for label, root in kits.items():
            timed(run, root, envs[label])  # builds the module compiled ahead of time if it is missing
            timed(run, root, {**envs[label], **NUMBA_ONLY})  # fills Numba's cache if --cold 0
        for round_number in range(args.rounds):
            turn = round_number % len(timed_processes)
            for name, command, added, label in timed_processes[turn:] + timed_processes[:turn]:
                results[name].append(timed(command, kits[label], {**envs[label], **added}))
        ahead_phases = phase_table(AHEAD_PHASES, args.rounds, envs[""], args.maze)
        numba_phases = phase_table(PHASES, args.rounds, envs[""], args.maze)
    finally:
        for cache in caches.values():
            shutil.rmtree(cache, ignore_errors=True)
    print(f"\nWhole processes on {maze[0]} (scenario line {args.maze}): medians of {args.rounds} warm rounds "
          f"and {args.cold} cold runs; load average {load_before:.1f} before, {os.getloadavg()[0]:.1f} after")
    if args.baseline:
        print(f"[baseline]: the kit in {args.baseline}")
    print()
    base_wall = statistics.median(w for w, _ in results["python -c pass"])
    base_cpu = statistics.median(c for _, c in results["python -c pass"])
    numpy_cpu = statistics.median(c for _, c in results["python -c 'import numpy'"])
    print("| process | wall s (median) | CPU s (median) | wall / bare python | CPU / bare python | CPU / import numpy |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, runs in results.items():
        if not runs:
            continue
        wall, cpu = statistics.median(w for w, _ in runs), statistics.median(c for _, c in runs)
        print(f"| {name} | {wall:.3f} | {cpu:.3f} | {wall / base_wall:.1f} | {cpu / base_cpu:.1f} | {cpu / numpy_cpu:.2f} |")
    if args.baseline:
        for name in (WARM, COLD, READABLE):
            new, old = results[name], results[name + " [baseline]"]
            if new and old:
                print(f"\n{name}: this kit / baseline = wall {statistics.median(w for w, _ in new) / statistics.median(w for w, _ in old):.2f}, "
                      f"CPU {statistics.median(c for _, c in new) / statistics.median(c for _, c in old):.2f}", end="")
        print()
    for title, names, phases, flag in (("`ftr run` (the module compiled ahead of time)", AHEAD_PHASE_NAMES, ahead_phases, "Numba"),
                                       ("the Numba twin", PHASE_NAMES, numba_phases, "SciPy")):
        print(f"\nInside a warm process of this kit running {title}, CPU seconds per phase (medians of {args.rounds}):\n")
        print("| phase | CPU s |\n|---|---:|")
        for number, name in enumerate(names):
            print(f"| {name} | {statistics.median(p[number] for p in phases):.3f} |")
        print(f"\n{flag} imported in that process: {'yes' if any(p[-1] for p in phases) else 'no'}")


if __name__ == "__main__":
    main()
