"""``ftr run``: run one Repeated A* variant on one instance or a folder of them."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import TYPE_CHECKING

from reference.experiments.report import format_table

from ._common import add_algorithm_arguments, add_instance_arguments, load_instances

if TYPE_CHECKING:
    from reference.world.trace_arrays import TraceArrays


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``ftr run`` to ``subparsers``."""
    parser = subparsers.add_parser(
        "run",
        help="run Repeated Forward/Backward A* or Adaptive A* on mazes",
        description="Run one algorithm setting on every instance of a folder (its mazes.scen) or on one "
        "instance of a .map. Prints a table, or with --jsonl one JSON object per instance: "
        '{"maze": i, "reached": bool, "searches": n, "expansions": n, "moves": n}.',
    )
    add_instance_arguments(parser)
    add_algorithm_arguments(parser)
    parser.add_argument("--engine", choices=["compiled", "python"], default="compiled",
                        help="compiled: the Numba twin (default, the same traces; compiled ahead of time after the "
                        "first run, which then needs no Numba); python: the readable reference")
    parser.add_argument("--jsonl", action="store_true", help="one JSON object per instance on stdout, nothing else")
    parser.add_argument("--trace", metavar="FILE",
                        help="write the full trace: the trace object of docs/contract.md section 8 for one "
                        "instance, a JSON list for several")
    parser.set_defaults(handler=run, quick_exit=True)  # see reference/cli/__init__.py


def run(args: argparse.Namespace) -> int:
    """``ftr run``: Repeated Forward/Backward A* or Adaptive A* on one maze or a folder; a table, JSON lines or
    traces.
    """
    from reference.world.fileio import atomic_write_text
    from reference.world.trace import Trace

    instances = load_instances(args)
    rows, traces = [], []
    # Speed: the twin compiled ahead of time runs without importing Numba (about half a CPU second of a
    # run on one maze; _ahead_of_time.py). None until it is built (then the Numba twin runs, and the
    # module is built after the output), or when the environment sets FTR_NO_AHEAD_OF_TIME.
    ahead_of_time_wanted = args.engine == "compiled" and not os.environ.get("FTR_NO_AHEAD_OF_TIME")
    ahead_of_time = None
    if ahead_of_time_wanted:
        from ._ahead_of_time import build_ahead_of_time_module, can_build, load_ahead_of_time_module, run_ahead_of_time

        ahead_of_time = load_ahead_of_time_module()
    # With --scen FILE --index I the one instance is scenario line I: report it as maze I, as the
    # folder run of the same scenario file numbers it.
    first_number = args.index if args.scen else 0
    for number, instance in enumerate(instances, start=first_number):
        trace: Trace | TraceArrays | None = None
        if args.engine == "compiled":  # arrays; the contract's Trace only when --trace asks for it
            # Without --trace only the counts are printed: keep no cells (memory stays the search state).
            if ahead_of_time is not None:
                trace = run_ahead_of_time(ahead_of_time, instance.grid, instance.start, instance.target,
                                          args.algorithm, args.tie_break, record_cells=bool(args.trace))
            if trace is None:
                from reference.solutions.compiled.replanning import run_compiled

                trace = run_compiled(instance.grid, instance.start, instance.target, args.algorithm,
                                     args.tie_break, record_cells=bool(args.trace))
        else:
            from reference.solutions import solve

            trace = solve(instance, args.algorithm, args.tie_break)
        summary = {"maze": number, **trace.summary()}
        if args.jsonl:
            print(json.dumps(summary), flush=True)
        rows.append([number, instance.name, "yes" if trace.reached else "NO", summary["searches"],
                     summary["expansions"], summary["moves"]])
        if args.trace:
            traces.append((trace if isinstance(trace, Trace) else trace.to_trace()).to_dict())
    if not args.jsonl:
        print(f"{args.algorithm} A*, ties to {args.tie_break.replace('_', ' ')}")
        print(format_table(["maze", "name", "reached", "searches", "expansions", "moves"], rows))
        if len(rows) > 1:
            total = [sum(r[i] for r in rows) for i in (3, 4, 5)]
            print(f"total: {total[0]} searches, {total[1]} expansions, {total[2]} moves")
    if args.trace:
        payload = traces[0] if len(traces) == 1 and not args.path.is_dir() else traces
        atomic_write_text(args.trace, json.dumps(payload) + "\n")
        if not args.jsonl:
            print(f"trace written to {args.trace}", file=sys.stderr)
    if ahead_of_time_wanted and ahead_of_time is None and can_build():
        sys.stdout.flush()  # the answer first, then the one-time build for the next runs
        build_ahead_of_time_module()
    return 0


COMMANDS = [(10, register)]
