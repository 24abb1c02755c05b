"""Benchmark: whole processes, `ftr run --jsonl` against the independent C program, CPU and peak memory.

    python bench/processes.py                               # 5 rounds of the standard workload, then the large mazes
    python bench/processes.py --rounds 0 --sides 501 1001   # large mazes only

* **The standard workload**: ``ftr run mazes --jsonl --algorithm A --tie-break T`` for the four
  settings of ``ftr experiment`` (50 mazes each, counts only: no ``--trace``), against the same four
  runs of bench/c/student.c built as a program (``cc -O2 -DSTUDENT_MAIN``), which reads the same
  ``mazes.scen`` and prints the same JSON lines. Both outputs must be identical, line for line.
* **Large mazes** (``--sides``, default 1001 and 2001): bench/scale.py's maze 0 of each side,
  written as a ``.map`` and a one-line ``.scen`` in a temporary folder, forward A* with ties to the
  larger g, by both (the C program with 128-bit keys, ``-DSTUDENT_WIDE_KEY``, where a grid is too
  large for its 64-bit key: above about a million cells). **Bytes per cell** are what a program's
  peak resident memory grows by from an 11 x 11 maze to the large one, divided by the added cells:
  the memory a program holds per cell, without what it holds whatever the size (the interpreter,
  NumPy, Numba and its compiled code, about 135 MiB for ``ftr run``; 1.5 MiB for C).

Each process is timed by GNU time (``/usr/bin/time``: user + system CPU, peak resident set of the
process itself); the engines alternate within a round and the order alternates between rounds; medians.
Numba's cache must be warm (run ``ftr run`` once first; this script does). The children run with
Python's bytecode cache on (``PYTHONDONTWRITEBYTECODE`` removed), as an installed kit has it: without
it every process compiles the kit's modules from source again (about 0.1 CPU s).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.c_engine import c_compiler  # noqa: E402
from bench.scale import maze  # noqa: E402
from reference.experiments.standard import SETTINGS  # noqa: E402
from reference.world.maps import Scenario, write_map, write_scen  # noqa: E402

SOURCE = Path(__file__).with_name("c") / "student.c"
#: The most cells the C program's 64-bit key holds: f, tie and stamp need 63 bits or fewer (student.c).
LARGEST_GRID_64_BIT_KEYS = 1_048_575


def build_program(folder: Path, wide_keys: bool = False) -> Path:
    """bench/c/student.c as a program, built with ``cc -O2`` in ``folder`` (``wide_keys``: 128-bit keys)."""
    compiler = c_compiler()
    if compiler is None:
        raise SystemExit("no C compiler found: this benchmark needs one")
    program = folder / ("student-wide" if wide_keys else "student")
    flags = ["-DSTUDENT_WIDE_KEY"] if wide_keys else []
    subprocess.run([compiler, "-O2", "-DSTUDENT_MAIN", *flags, "-o", str(program), str(SOURCE)], check=True)
    return program


#: The children's environment: Python's bytecode cache on, as in an installed kit (see above).
ENVIRONMENT = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
GNU_TIME = "/usr/bin/time"


def measure(command: list[str]) -> tuple[str, float, int]:
    """Run ``command``: (its stdout, CPU seconds, peak resident bytes).

    Through GNU time (``/usr/bin/time -f "%U %S %M"``): a child forked straight from this Python
    process would count this process's resident pages, copied at the fork, in its own peak.
    """
    with tempfile.NamedTemporaryFile("r", suffix=".time") as report:
        done = subprocess.run([GNU_TIME, "-f", "%U %S %M", "-o", report.name, *command], cwd=REPO,
                              capture_output=True, text=True, env=ENVIRONMENT)
        if done.returncode:
            raise SystemExit(f"{' '.join(command)} failed: {done.stderr.strip()}")
        user, system, peak_kib = report.read().split()[-3:]
    return done.stdout, float(user) + float(system), int(peak_kib) * 1024


def ftr_run(folder_or_scen: list[str], algorithm: str, tie_break: str) -> list[str]:
    return [sys.executable, "-m", "reference.cli", "run", *folder_or_scen, "--jsonl", "--algorithm", algorithm,
            "--tie-break", tie_break]


def write_instance(folder: Path, side: int) -> str:
    """bench/scale.py's maze 0 of ``side`` as ``big{side}.map`` and a one-line ``.scen``; the scen's path."""
    big = maze(side, 0)
    write_map(big.grid, folder / f"big{side}.map")
    write_scen([Scenario(0, f"big{side}.map", side, side, big.start, big.target, 0.0)], folder / f"big{side}.scen")
    return str(folder / f"big{side}.scen")


def large_mazes(folder: Path, narrow_program: Path, sides: list[int]) -> None:
    """Time and weigh forward A* (ties to the larger g) on one maze of each side, against an 11 x 11 one."""
    wide_program = build_program(folder, wide_keys=True)
    small = 11
    print("\nForward A*, ties to the larger g, counts only, on bench/scale.py's maze 0 of each side. Bytes per cell: "
          f"(peak resident on the large maze - peak on a {small} x {small} maze) / added cells.\n")
    print("| side | expansions | process | CPU s | peak MiB | bytes per cell | bytes per cell / C |\n"
          "|---:|---:|---|---:|---:|---:|---:|")
    for side in sides:
        program = narrow_program if side * side <= LARGEST_GRID_64_BIT_KEYS else wide_program
        measured: dict[str, list[tuple[str, float, int]]] = {"C": [], "ftr": []}
        for size in (small, side):
            scen = write_instance(folder, size)
            runs = {"C": [str(program), scen, "forward", "larger_g"],
                    "ftr": ftr_run([str(folder / f"big{size}.map"), "--scen", scen, "--index", "0"], "forward", "larger_g")}
            for name, command in runs.items():
                measured[name].append(measure(command))
            if measured["C"][-1][0].strip() != measured["ftr"][-1][0].strip():
                raise SystemExit(f"the C program and ftr run disagree on the {size} x {size} maze")
        added_cells = side * side - small * small
        per_cell = {name: (runs_[1][2] - runs_[0][2]) / added_cells for name, runs_ in measured.items()}
        expansions = json.loads(measured["C"][1][0])["expansions"]
        labels = {"C": f"C program ({'128' if program == wide_program else '64'}-bit keys)", "ftr": "ftr run --jsonl"}
        for name in ("C", "ftr"):
            _, seconds, resident = measured[name][1]
            print(f"| {side} | {expansions:,} | {labels[name]} | {seconds:.2f} | {resident / 2**20:.1f} | "
                  f"{per_cell[name]:.1f} | {per_cell[name] / per_cell['C']:.2f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=5, help="rounds of the standard workload (default 5)")
    parser.add_argument("--sides", type=int, nargs="*", default=[1001, 2001],
                        help="sides of the large mazes (default 1001 2001)")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="ftr-processes-"))
    try:
        program = build_program(folder)
        measure(ftr_run(["mazes/maze_00.map", "--scen", "mazes/mazes.scen", "--index", "0"], "forward", "larger_g"))
        load_before = os.getloadavg()[0]
        totals: dict[str, list[float]] = {"C": [], "ftr": []}
        peaks: dict[str, list[int]] = {"C": [], "ftr": []}
        for number in range(args.rounds):
            cpu = {"C": 0.0, "ftr": 0.0}
            peak = {"C": 0, "ftr": 0}
            for algorithm, tie_break in SETTINGS:
                commands = {"C": [str(program), "mazes/mazes.scen", algorithm, tie_break],
                            "ftr": ftr_run(["mazes"], algorithm, tie_break)}
                outputs = {}
                for name in (["C", "ftr"] if number % 2 == 0 else ["ftr", "C"]):
                    outputs[name], seconds, resident = measure(commands[name])
                    cpu[name] += seconds
                    peak[name] = max(peak[name], resident)
                if outputs["C"].split("\n") != outputs["ftr"].split("\n"):
                    raise SystemExit(f"the C program and ftr run disagree on {algorithm}/{tie_break}")
            for name in cpu:
                totals[name].append(cpu[name])
                peaks[name].append(peak[name])
            print(f"round {number + 1}: C {cpu['C']:.3f} CPU s, ftr run {cpu['ftr']:.3f} ({cpu['ftr'] / cpu['C']:.2f})",
                  file=sys.stderr)
        if args.rounds:
            ratios = [f / c for f, c in zip(totals["ftr"], totals["C"])]
            print(f"\nThe standard workload (4 settings x 50 mazes, --jsonl, counts identical), {args.rounds} rounds, "
                  f"load average {load_before:.1f} before, {os.getloadavg()[0]:.1f} after:\n")
            print("| process (4 per round) | CPU s, median | peak MiB, median | CPU / C |\n|---|---:|---:|---:|")
            print(f"| C program (bench/c/student.c) | {statistics.median(totals['C']):.3f} | "
                  f"{statistics.median(peaks['C']) / 2**20:.1f} | 1.00 |")
            print(f"| ftr run --jsonl (compiled twin) | {statistics.median(totals['ftr']):.3f} | "
                  f"{statistics.median(peaks['ftr']) / 2**20:.1f} | {statistics.median(ratios):.2f} "
                  f"({min(ratios):.2f}-{max(ratios):.2f}) |")

        if args.sides:
            large_mazes(folder, program, args.sides)
    finally:
        shutil.rmtree(folder)


if __name__ == "__main__":
    main()
