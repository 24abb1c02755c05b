"""Benchmark: whole processes, `ftr run --jsonl` against the independent C program, CPU and peak memory.

    python bench/processes.py                      # 5 rounds of the standard workload, then 1001 x 1001
    python bench/processes.py --rounds 0 --side 501   # the large maze only

* **The standard workload**: ``ftr run mazes --jsonl --algorithm A --tie-break T`` for the four
  settings of ``ftr experiment`` (50 mazes each, counts only: no ``--trace``), against the same four
  runs of bench/c/student.c built as a program (``cc -O2 -DSTUDENT_MAIN``), which reads the same
  ``mazes.scen`` and prints the same JSON lines. Both outputs must be identical, line for line.
* **One large maze**: bench/scale.py's maze 0 of side ``--side`` (default 1001: the independent
  C's 64-bit packed key holds f, tie and stamp up to about a million cells), written as a
  ``.map`` and a one-line ``.scen`` in a temporary folder, forward A* with ties to the larger g,
  by both; peak memory divided by the cells is the bytes per cell each holds.

Each process is timed by GNU time (``/usr/bin/time``: user + system CPU, peak resident set of the
process itself); the engines alternate within a round and the order alternates between rounds; medians.
Numba's cache must be warm (run ``ftr run`` once first; this script does).
"""

from __future__ import annotations

import argparse
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


def build_program(folder: Path) -> Path:
    """bench/c/student.c as a program, built with ``cc -O2`` in ``folder``."""
    compiler = c_compiler()
    if compiler is None:
        raise SystemExit("no C compiler found: this benchmark needs one")
    program = folder / "student"
    subprocess.run([compiler, "-O2", "-DSTUDENT_MAIN", "-o", str(program), str(SOURCE)], check=True)
    return program


GNU_TIME = "/usr/bin/time"


def measure(command: list[str]) -> tuple[str, float, int]:
    """Run ``command``: (its stdout, CPU seconds, peak resident bytes).

    Through GNU time (``/usr/bin/time -f "%U %S %M"``): a child forked straight from this Python
    process would count this process's resident pages, copied at the fork, in its own peak.
    """
    with tempfile.NamedTemporaryFile("r", suffix=".time") as report:
        done = subprocess.run([GNU_TIME, "-f", "%U %S %M", "-o", report.name, *command], cwd=REPO,
                              capture_output=True, text=True)
        if done.returncode:
            raise SystemExit(f"{' '.join(command)} failed: {done.stderr.strip()}")
        user, system, peak_kib = report.read().split()[-3:]
    return done.stdout, float(user) + float(system), int(peak_kib) * 1024


def ftr_run(folder_or_scen: list[str], algorithm: str, tie_break: str) -> list[str]:
    return [sys.executable, "-m", "reference.cli", "run", *folder_or_scen, "--jsonl", "--algorithm", algorithm,
            "--tie-break", tie_break]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=5, help="rounds of the standard workload (default 5)")
    parser.add_argument("--side", type=int, default=1001, help="side of the large maze (default 1001)")
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

        side = args.side
        big = maze(side, 0)
        write_map(big.grid, folder / "big.map")
        write_scen([Scenario(0, "big.map", side, side, big.start, big.target, 0.0)], folder / "big.scen")
        scen = str(folder / "big.scen")
        runs = {"C": [str(program), scen, "forward", "larger_g"],
                "ftr": ftr_run([str(folder / "big.map"), "--scen", scen, "--index", "0"], "forward", "larger_g")}
        _, _, bare_peak = measure([sys.executable, "-c", "import numba, numpy"])
        results = {name: measure(command) for name, command in runs.items()}
        if results["C"][0].strip() != results["ftr"][0].strip():
            raise SystemExit(f"the C program and ftr run disagree on the {side} x {side} maze")
        cells = side * side
        print(f"\nOne {side} x {side} maze (bench/scale.py's maze 0), forward, ties to the larger g, counts only: "
              f"{results['C'][0].strip()}\n")
        print("| process | CPU s | peak MiB | bytes per cell | / C |\n|---|---:|---:|---:|---:|")
        for name, label in (("C", "C program"), ("ftr", "ftr run --jsonl")):
            _, seconds, resident = results[name]
            print(f"| {label} | {seconds:.2f} | {resident / 2**20:.1f} | {resident / cells:.1f} | "
                  f"{resident / results['C'][2]:.2f} |")
        print(f"| ftr run, less `python -c 'import numba, numpy'` ({bare_peak / 2**20:.1f} MiB) | - | - | "
              f"{(results['ftr'][2] - bare_peak) / cells:.1f} | {(results['ftr'][2] - bare_peak) / results['C'][2]:.2f} |")
    finally:
        shutil.rmtree(folder)


if __name__ == "__main__":
    main()
