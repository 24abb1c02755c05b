"""Benchmark: reading a notebook's cells in the grader's own process, before any child runs (issue 19,
item 5), the previous algorithm against the current one, side by side.

    python bench/notebook_reading.py                  # 1,000 .. 20,000 one-line assignments in one cell
    python bench/notebook_reading.py --old-up-to 2000 # the previous algorithm is quadratic: keep it small

The notebook is the previous algorithm's worst case: ``x0 = 1``, ``x1 = x0``, ... and
``BinaryHeap = x{n-1}`` in one cell, all needed, one found per pass of its fixpoint loop. The
previous algorithm is the referee copied into tests/autograder/test_autograder_reading.py.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from test_autograder_reading import chain_notebook, referee_statements  # noqa: E402

from autograder.submission import notebook_statements  # noqa: E402


def seconds(function, notebook: dict, repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        began = time.perf_counter()
        function(notebook)
        best = min(best, time.perf_counter() - began)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1_000, 2_000, 4_000, 20_000])
    parser.add_argument("--old-up-to", type=int, default=4_000, help="largest size the previous algorithm runs")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    print(f"{'statements':>10}  {'previous s':>10}  {'current s':>9}  {'ratio':>7}")
    for size in args.sizes:
        notebook = chain_notebook(size)
        current = seconds(notebook_statements, notebook, args.repeats)
        previous = seconds(referee_statements, notebook, 1) if size <= args.old_up_to else None
        ratio = f"{previous / current:7.0f}" if previous else "      -"
        print(f"{size:>10,}  {previous if previous else float('nan'):>10.2f}  {current:>9.3f}  {ratio}")


if __name__ == "__main__":
    main()
