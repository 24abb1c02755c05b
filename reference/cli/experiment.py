"""``ftr experiment``: the standard experiment (SPEC §9) with tables, statistics and plots."""

from __future__ import annotations

import argparse
import os
from pathlib import Path


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``ftr experiment`` to ``subparsers``."""
    parser = subparsers.add_parser(
        "experiment",
        help="the standard experiment: four settings on the 50 mazes, statistics and plots",
        description="Run forward/larger_g, forward/smaller_g, backward/larger_g and adaptive/larger_g on "
        "every maze of MAZES (default: the bundled mazes), print the summary and the paired comparisons "
        "(Wilcoxon signed-rank and paired t-test on expansions, and why they disagree when they do), and "
        "write per_maze.csv, per_maze.json, summary.json, summary.md and plots into --out. Times are CPU "
        "time per run.",
    )
    parser.add_argument("mazes", nargs="?", type=Path, metavar="MAZES",
                        help="a folder with mazes.scen (default: the kit's mazes/)")
    parser.add_argument("--out", type=Path, default=Path("results/experiment"),
                        help="where to write tables and plots (default: results/experiment)")
    parser.add_argument("--jobs", type=int, default=1,
                        help=f"worker processes (default 1; this machine has {os.cpu_count()} cores)")
    parser.add_argument("--limit", type=int, metavar="N", help="only the first N mazes (a quick look)")
    parser.add_argument("--no-plots", action="store_true", help="skip the figures")
    parser.add_argument("--engine", choices=["compiled", "python"], default="compiled",
                        help="compiled: the Numba twin (default, the same traces in seconds); "
                        "python: the readable reference")
    parser.set_defaults(handler=experiment)


def experiment(args: argparse.Namespace) -> int:
    """``ftr experiment``: the standard experiment's four settings on a maze folder; prints the summary and
    writes results and plots.
    """
    from reference.experiments.standard import (TIME_NOTE, paired_comparisons, run_experiment, summarise, summary_table,
                                                write_results)
    from reference.world.instances import load_folder, standard_mazes_dir

    from . import UsageError
    from reference.experiments.report import format_table

    folder = args.mazes or standard_mazes_dir()
    if not folder.is_dir():
        raise UsageError(f"{folder}: not a folder (expected a folder with mazes.scen and its .map files)")
    if args.jobs < 1:
        raise UsageError(f"--jobs must be at least 1, got {args.jobs}")
    instances = load_folder(folder)
    if args.limit is not None:
        if args.limit < 1:
            raise UsageError(f"--limit must be at least 1, got {args.limit}")
        instances = instances[: args.limit]
    rows = run_experiment(instances, jobs=args.jobs, engine=args.engine)
    summary, comparisons = summarise(rows), paired_comparisons(rows)
    headers, table = summary_table(summary)
    print(format_table(headers, table))
    print(TIME_NOTE)
    print()
    for comparison in comparisons:
        print(comparison.sentence())
    for note in filter(None, (comparison.disagreement() for comparison in comparisons)):
        print()
        print(note)
    written = write_results(rows, args.out, summary, comparisons)
    if not args.no_plots:
        from reference.experiments.plots import experiment_figures

        written += experiment_figures(rows, args.out)
    print(f"\nwrote {', '.join(p.name for p in written)} to {args.out}")
    return 0


COMMANDS = [(30, register)]
