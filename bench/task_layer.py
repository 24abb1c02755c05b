"""Benchmark: what the task layer's batches buy a comparison of many small tasks on a local cluster.

    python bench/task_layer.py              # the realtime default (2,310 runs of about 1.4 ms), 3 rounds
    python bench/task_layer.py --rounds 5 --mazes 2 --grids 8

Runs the same comparison (``reference.experiments.realtime.run_comparison``, compiled engine) three
ways, one after the other in each round (the order turning between rounds), and reports the median
wall time of each and its ratio to one process:

* ``one process``: ``jobs=1``;
* ``cluster, batches``: ``jobs=2``, a local Dask cluster, tasks handed over in batches of about
  ``tasks.BATCH_SECONDS`` of work (the kit's default);
* ``cluster, one task each``: the same with ``BATCH_SECONDS = 0`` (every batch one task).

Each cluster run starts its own local cluster, as ``ftr realtime compare --jobs 2`` does; that
start-up is part of what a user waits for, so it is part of the time. The three must return the
same rows, times aside (checked).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from reference.experiments import tasks  # noqa: E402
from reference.experiments.realtime import (DEFAULT_GRIDS, DEFAULT_MAZES, DEFAULT_SIZE, run_comparison,  # noqa: E402
                                            without_times)
from reference.experiments.report import format_table  # noqa: E402
from reference.solutions.compiled.realtime import warm_up  # noqa: E402

WAYS = {"one process": (1, None), "cluster, batches": (2, tasks.BATCH_SECONDS), "cluster, one task each": (2, 0.0)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--mazes", type=int, default=DEFAULT_MAZES)
    parser.add_argument("--grids", type=int, default=DEFAULT_GRIDS)
    parser.add_argument("--size", type=int, default=DEFAULT_SIZE)
    args = parser.parse_args()
    if not tasks.have_distributed():
        sys.exit(f"this benchmark needs Dask's distributed engine: {tasks.INSTALL_HINT}")
    warm_up()  # compiling is not part of any way's time (the workers load the cache it leaves)
    seconds: dict[str, list[float]] = {way: [] for way in WAYS}
    reference_rows = None
    for round_number in range(args.rounds):
        order = list(WAYS) if round_number % 2 == 0 else list(reversed(WAYS))
        for way in order:
            jobs, batch_seconds = WAYS[way]
            if batch_seconds is not None:
                tasks.BATCH_SECONDS = batch_seconds   # read by the client when it sizes each batch
            began = time.perf_counter()
            rows = run_comparison(args.mazes, args.grids, args.size, jobs=jobs, progress=False)
            seconds[way].append(time.perf_counter() - began)
            rows = without_times(rows)
            reference_rows = reference_rows or rows
            assert rows == reference_rows, f"{way}: other rows than the first way's"
            print(f"round {round_number + 1}: {way}: {seconds[way][-1]:.1f} s", flush=True)
    serial = statistics.median(seconds["one process"])
    table = [[way, len(reference_rows), statistics.median(times), statistics.median(times) / serial]
             for way, times in seconds.items()]
    print()
    print(f"{args.mazes} mazes and {args.grids} random grids of {args.size} x {args.size}; "
          f"wall time, median of {args.rounds} rounds")
    print(format_table(["way", "tasks", "wall s", "/ one process"], table))


if __name__ == "__main__":
    main()
