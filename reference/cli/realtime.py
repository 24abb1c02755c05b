"""``ftr realtime``: real-time and incremental search (LRTA*, D* Lite) and Koenig's comparison.

    ftr realtime run mazes/maze_00.map --scen mazes/mazes.scen --algorithm dstar_lite
    ftr realtime run --maze 3 --size 301 --algorithm lrta_astar --lookahead 21 --heuristic weak
    ftr realtime compare --out results/realtime            # the compiled twins; --engine python: the reference
    ftr realtime compare --out results/realtime --paper    # the paper's 1000 mazes and 5000 grids
    ftr realtime compare --out part2 --size 301 --mazes 10 --first-maze 10 --grids 0   # a sample in parts
    ftr realtime compare --out big --mazes 5 --grids 0 --size 301 --heuristics best --algorithms dstar_lite,lrta_astar \
        --lookaheads 1,3,49,75,165,241                     # Table 2's settings only, lookaheads past 49
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from pathlib import Path

from reference.cli._tasks import add_task_options, task_store
from reference.experiments.report import format_table

from . import UsageError
from ._common import load_instances, parse_cell

ALGORITHM_NAMES = ("lrta", "lrta_astar", "lrta_bfs", "dstar_lite")


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``ftr realtime`` and its subcommands (``run``, ``compare``) to ``subparsers``."""
    parser = subparsers.add_parser(
        "realtime", help="real-time (LRTA*) and incremental (D* Lite) search, and Koenig's comparison",
        description="Run LRTA* (Korf's, or Koenig's with A* or breadth-first lookahead) or D* Lite for the "
        "fog-of-war agent, or reproduce Koenig (2004), 'A Comparison of Fast Search Methods for Real-Time "
        "Situated Agents'.")
    commands = parser.add_subparsers(title="realtime commands", metavar="COMMAND")

    run = commands.add_parser(
        "run", help="run one algorithm on instances",
        description="Run one real-time or incremental planner on the instances of a folder (its mazes.scen), "
        "on one instance of a .map, or on one grid of the comparison (--maze N or --random-grid N). Prints "
        "the paper's columns per instance, or with --jsonl one JSON object per instance.")
    run.add_argument("path", metavar="PATH", type=Path, nargs="?",
                     help="a folder with mazes.scen (every instance), or one .map file")
    run.add_argument("--scen", type=Path, help="with a .map: the .scen file to take --index from")
    run.add_argument("--index", type=int, default=0, help="with --scen: which scenario line (0 = first)")
    run.add_argument("--start", type=parse_cell, metavar="R,C", help="with a .map: the agent's start cell")
    run.add_argument("--target", type=parse_cell, metavar="R,C", help="with a .map: the target cell")
    run.add_argument("--maze", type=int, metavar="N", help="instead of PATH: maze N of the comparison")
    run.add_argument("--random-grid", type=int, metavar="N", help="instead of PATH: random grid N of the comparison")
    run.add_argument("--size", type=int, default=301, help="with --maze/--random-grid: the side length (default 301)")
    run.add_argument("--algorithm", choices=ALGORITHM_NAMES, default="lrta_astar",
                     help="lrta: Korf's, lookahead one; lrta_astar / lrta_bfs: Koenig's with A* / breadth-first "
                     "lookahead; dstar_lite: D* Lite (default lrta_astar)")
    run.add_argument("--heuristic", choices=("strong", "weak"), default="strong",
                     help="strong: Manhattan; weak: max(|dx|, |dy|) (default strong)")
    run.add_argument("--lookahead", type=int, default=1, help="expansions per episode for lrta_astar / lrta_bfs")
    run.add_argument("--known", action="store_true", help="known terrain: the agent is given the whole grid")
    add_engine_argument(run)
    run.add_argument("--jsonl", action="store_true", help="one JSON object per instance on stdout, nothing else")
    run.add_argument("--trace", metavar="FILE",
                     help="write the trace (one record per planning episode): an object for one instance, a list for several")
    run.set_defaults(handler=run_command)

    compare = commands.add_parser(
        "compare", help="reproduce Koenig's comparison: tables, figures, findings",
        description="Run D* Lite and LRTA* (A* and breadth-first lookahead, strong and weak heuristic, "
        "lookaheads 1, 3, ..., 49) on acyclic mazes and on grids with 25% random obstacles, and write the "
        "paper's tables (CSV and Markdown), its planning objectives (table5_objectives.md), Figures 7 and 8 and "
        "Figure 9 (the objectives) as PNG, every run (runs.csv) and findings.md (which of the paper's findings hold "
        "here) into --out.")
    compare.add_argument("--out", type=Path, required=True, metavar="DIR", help="folder for the results")
    compare.add_argument("--mazes", type=int, help="number of mazes (default 6; --paper: 1000)")
    compare.add_argument("--grids", type=int, help="number of random grids (default 24; --paper: 5000)")
    compare.add_argument("--size", type=int, help="side length of every grid (default 101; --paper: 301)")
    compare.add_argument("--lookaheads", metavar="N,N,...",
                         help="comma-separated lookaheads (default 1,3,...,49)")
    compare.add_argument("--algorithms", metavar="NAME,...",
                         help="run only these planners: dstar_lite, lrta_astar, lrta_bfs (default all three)")
    compare.add_argument("--heuristics", metavar="NAME,...",
                         help="run only these heuristics: strong, weak, best (each planner's heuristic in the "
                              "paper's Tables 2-4: D* Lite strong, LRTA* weak in mazes and strong on random grids); "
                              "default strong and weak")
    compare.add_argument("--paper", action="store_true",
                         help="the paper's sample: 1000 mazes and 5000 random grids of 301 x 301 (hours with the compiled "
                         "engine, weeks with --engine python; see docs/realtime.md)")
    add_engine_argument(compare)
    compare.add_argument("--first-maze", type=int, default=0, metavar="N",
                         help="number of the first maze (default 0): run a large sample in parts, merge with --runs")
    compare.add_argument("--first-grid", type=int, default=0, metavar="N",
                         help="number of the first random grid (default 0)")
    add_task_options(compare)
    compare.add_argument("--successors", choices=("fixed", "random"), default="fixed",
                         help="LRTA*'s lookahead searches generate successors east, south, west, north (fixed, "
                              "default) or in a random order seeded per grid (random; Koenig's recommendation)")
    compare.add_argument("--seed", type=int, default=None, help="base seed of the grids")
    compare.add_argument("--quiet", action="store_true", help="no progress bar")
    compare.add_argument("--runs", type=Path, action="append", metavar="CSV",
                         help="instead of running: re-make the report from runs.csv files of earlier "
                         "comparisons (repeat to merge, e.g. mazes and random grids run separately)")
    compare.set_defaults(handler=compare_command)


def add_engine_argument(parser: argparse.ArgumentParser) -> None:
    """Add ``--engine compiled|python`` to ``parser``."""
    parser.add_argument("--engine", choices=("compiled", "python"), default="compiled",
                        help="compiled: the Numba twins (default); python: the readable reference planners "
                        "(the same traces, 100-1000 times slower)")


def _instances(args: argparse.Namespace):
    from reference.experiments.realtime import make_instance

    generated = [(kind, n) for kind, n in (("maze", args.maze), ("random", args.random_grid)) if n is not None]
    if generated:
        if args.path or len(generated) > 1:
            raise UsageError("give one of PATH, --maze N and --random-grid N")
        kind, number = generated[0]
        if number < 0 or args.size < 3:
            raise UsageError("--maze/--random-grid need a number >= 0 and --size >= 3")
        return [make_instance(kind, number, args.size)]
    if args.path is None:
        raise UsageError("say which instances: PATH (a folder or a .map), --maze N or --random-grid N")
    return load_instances(args)


def run_command(args: argparse.Namespace) -> int:
    """``ftr realtime run``: one LRTA* or D* Lite run on a maze or a random grid; prints the result."""
    from reference.solutions.compiled.realtime import RealtimeRun as CompiledRealtimeRun, run_compiled
    from reference.solutions.realtime import RealtimeRun, knowledge_of, run_algorithm
    from reference.world.fileio import atomic_write_text
    from reference.world.sensing import FogOfWarWorld

    if args.lookahead < 1:
        raise UsageError(f"--lookahead must be at least 1, got {args.lookahead}")
    instances = _instances(args)
    rows, traces = [], []
    for number, instance in enumerate(instances):
        knowledge = knowledge_of(instance.grid) if args.known else None
        run: CompiledRealtimeRun | RealtimeRun   # the twin has the same counts, summary() and trace
        if args.engine == "compiled":
            run = run_compiled(instance.grid, instance.start, instance.target, args.algorithm, heuristic=args.heuristic,
                               lookahead=args.lookahead, knowledge=knowledge, record=bool(args.trace))
        else:
            run = run_algorithm(args.algorithm, FogOfWarWorld(instance.grid, instance.start), instance.start,
                                instance.target, heuristic=args.heuristic, lookahead=args.lookahead, knowledge=knowledge)
        summary = run.summary()
        if args.jsonl:
            print(json.dumps({"instance": number, "name": instance.name, **summary}), flush=True)
        rows.append([number, instance.name, "yes" if run.reached else "NO", run.expansions, run.episodes,
                     run.moves, summary["moves_per_episode"], summary["planning_us"] / 1e3,
                     summary["planning_us_per_episode"], summary["planning_us_per_move"]])
        if args.trace:
            traces.append(run.trace.to_dict())
    if not args.jsonl:
        lookahead = f", lookahead {args.lookahead}" if args.algorithm in ("lrta_astar", "lrta_bfs") else ""
        terrain = "known" if args.known else "unknown"
        print(f"{args.algorithm}, {args.heuristic} heuristic{lookahead}, {terrain} terrain")
        print(format_table(["#", "name", "reached", "expansions", "episodes", "moves", "moves/episode",
                            "planning ms", "us/episode", "us/move"], rows))
    if args.trace:
        single = len(traces) == 1 and not (args.path and args.path.is_dir())
        atomic_write_text(args.trace, json.dumps(traces[0] if single else traces) + "\n")
        if not args.jsonl:
            print(f"trace written to {args.trace}", file=sys.stderr)
    return 0


def compare_command(args: argparse.Namespace) -> int:
    """``ftr realtime compare``: Koenig's comparison (or its report again from ``--runs``)."""
    from reference.experiments import realtime as experiment

    if args.runs:
        rows = [row for path in args.runs for row in experiment.read_runs(path)]
        command = "ftr realtime compare --out DIR " + " ".join(f"--runs {shlex.quote(str(p))}" for p in args.runs)
        return _report(experiment, rows, args.out, command)
    mazes = args.mazes if args.mazes is not None else (experiment.PAPER_MAZES if args.paper else experiment.DEFAULT_MAZES)
    grids = args.grids if args.grids is not None else (experiment.PAPER_GRIDS if args.paper else experiment.DEFAULT_GRIDS)
    size = args.size if args.size is not None else (experiment.PAPER_SIZE if args.paper else experiment.DEFAULT_SIZE)
    if args.lookaheads:
        try:
            lookaheads = sorted({int(part) for part in args.lookaheads.split(",")})
        except ValueError:
            raise UsageError(f"--lookaheads: expected whole numbers separated by commas, got {args.lookaheads!r}") from None
    else:
        lookaheads = list(experiment.LOOKAHEADS)
    algorithms = _names("--algorithms", args.algorithms, experiment.ALGORITHMS)
    heuristics = _names("--heuristics", args.heuristics, experiment.HEURISTICS)
    if mazes < 0 or grids < 0 or mazes + grids == 0:
        raise UsageError("--mazes and --grids must not be negative, and not both zero")
    if size < 5 or lookaheads[0] < 1 or args.jobs < 1:
        raise UsageError("--size must be at least 5, every lookahead and --jobs at least 1")
    if args.first_maze < 0 or args.first_grid < 0:
        raise UsageError("--first-maze and --first-grid must not be negative")
    seed = experiment.DEFAULT_SEED if args.seed is None else args.seed
    if (mazes, grids, size) != (experiment.PAPER_MAZES, experiment.PAPER_GRIDS, experiment.PAPER_SIZE) and not args.quiet:
        print(f"scaled down: {mazes} mazes and {grids} random grids of {size} x {size} (the paper: "
              f"{experiment.PAPER_MAZES} mazes and {experiment.PAPER_GRIDS} grids of {experiment.PAPER_SIZE} x "
              f"{experiment.PAPER_SIZE}; --paper runs that, hours on a cluster: docs/cluster.md)", file=sys.stderr)
    rows = experiment.run_comparison(mazes, grids, size, lookaheads, jobs=args.jobs, progress=not args.quiet, seed=seed,
                                     engine=args.engine, first_maze=args.first_maze, first_grid=args.first_grid,
                                     successors=args.successors, algorithms=algorithms, heuristics=heuristics,
                                     scheduler=args.scheduler, store=task_store(args, args.out))
    command = (f"ftr realtime compare --out {shlex.quote(str(args.out))} --mazes {mazes} --grids {grids} "
               f"--size {size} --seed {seed} --jobs {args.jobs} --engine {args.engine}")
    if args.first_maze or args.first_grid:
        command += f" --first-maze {args.first_maze} --first-grid {args.first_grid}"
    if args.lookaheads:
        command += f" --lookaheads {','.join(map(str, lookaheads))}"
    if args.successors != "fixed":
        command += f" --successors {args.successors}"
    if args.algorithms:
        command += f" --algorithms {','.join(algorithms)}"
    if args.heuristics:
        command += f" --heuristics {','.join(heuristics)}"
    return _report(experiment, rows, args.out, command)


def _names(option: str, text: str | None, known: tuple[str, ...]) -> tuple[str, ...]:
    """``"a,b"`` -> ``("a", "b")`` in ``known``'s order (``known`` when not given), or a UsageError naming the stranger."""
    if text is None:
        return known
    names = {part.strip() for part in text.split(",")}
    strangers = sorted(names - set(known))
    if strangers or not names:
        raise UsageError(f"{option}: {', '.join(strangers) or 'nothing'} is not one of {', '.join(known)}")
    return tuple(name for name in known if name in names)


def _report(experiment, rows: list[dict], out: Path, command: str) -> int:
    written = experiment.write_report(rows, out, command)
    print(f"{len(rows)} runs; wrote {len(written)} files to {out}")
    for finding in experiment.findings(rows):
        print(f"  [{'holds' if finding.holds else str(finding.verdict).upper()}] {finding.claim}")
    return 0


COMMANDS = [(60, register)]
