"""``ftr subgoal``: LRTA* with subgoaling (Hernández & Baier 2011) on known game maps, and the paper's evaluation.

    ftr subgoal run ../shared/movingai/dao/arena.map --scen ../shared/movingai/dao/arena.map.scen --index 40
    ftr subgoal run MAP --scen FILE --index 7 --algorithm lrta --jsonl
    ftr subgoal run MAP --scen FILE --index 7 --picture tree.png     # the subgoal tree and the walk
    ftr subgoal run MAP --scen FILE --index 7 --engine python         # the readable reference code
    ftr subgoal compare --out docs/subgoaling --jobs 2                 # the paper's 8 maps x 500 problems

Both commands run the compiled twins by default (``--engine compiled``: the same trajectories as the
readable code, tests compare them); ``--engine python`` runs the readable code.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from reference.cli._tasks import add_task_options, task_store
from reference.experiments.report import format_table

from . import UsageError
from ._common import load_scenario_line

if TYPE_CHECKING:   # for the annotations only: the commands import the engine they run when they run it
    from reference.solutions.compiled.subgoaling import CompiledTree, KnownMapRun as CompiledKnownMapRun
    from reference.solutions.subgoaling import KnownMapRun, SubgoalTree

ALGORITHM_NAMES = ("astar", "lrta", "lrta_subgoal", "lrta_subgoal_sub", "lrta_subgoal_arrival", "lrta_subgoal_sub_arrival")
#: The algorithms the paper compares with (``compare`` only; readable code, a preprocessing per map).
COMPARED_NAMES = ("knn_lrta_1000", "knn_lrta_10000", "d_lrta_3", "d_lrta_5", "d_lrta_once_3", "d_lrta_once_5")
ENGINE_HELP = ("compiled: the Numba twins, the same walks, much faster; python: the readable reference code "
               "(default compiled)")


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``ftr subgoal`` and its subcommands (``run``, ``compare``) to ``subparsers``."""
    parser = subparsers.add_parser(
        "subgoal", help="LRTA* with subgoaling on known game maps, and Hernández & Baier's evaluation",
        description="Run A*, LRTA* or LRTA* with subgoaling (Hernández & Baier 2011) on a known, eight-connected "
        "game map, or reproduce the paper's evaluation.")
    commands = parser.add_subparsers(title="subgoal commands", metavar="COMMAND")

    run = commands.add_parser(
        "run", help="solve one scenario line",
        description="Solve one line of a MovingAI scenario file on MAP (known terrain, eight-connected, octile h; "
        "a ground agent, or a water agent if it starts on water). Prints a table, or with --jsonl exactly one "
        'object {"index", "reached", "cost", "optimal", "moves", "expansions", "first_episode_s", "total_s"}.')
    run.add_argument("map", metavar="MAP", type=Path, help="a MovingAI .map file")
    run.add_argument("--scen", type=Path, required=True, help="the .scen file to take the problem from")
    run.add_argument("--index", type=int, default=0, help="which scenario line (0 = first; default 0)")
    run.add_argument("--algorithm", choices=ALGORITHM_NAMES, default="lrta_subgoal",
                     help="astar; lrta: Korf's LRTA* (lookahead one); lrta_subgoal: with subgoaling as the paper writes "
                     "it (first goal the tree state nearest by h, line 5; next subgoal on any tree state, line 8); "
                     "_sub: first goal Sub(start); _arrival: next subgoal only on reaching the current one "
                     "(default lrta_subgoal)")
    run.add_argument("--connectivity", type=int, choices=(4, 8), default=8, help="moves (default 8)")
    run.add_argument("--engine", choices=("compiled", "python"), default="compiled", help=ENGINE_HELP)
    run.add_argument("--jsonl", action="store_true", help="one JSON object on stdout, nothing else")
    run.add_argument("--trace", metavar="FILE", help="write the trace (one record per planning episode) as JSON")
    run.add_argument("--picture", metavar="PNG", help="draw the goal's subgoal tree and the agent's walk")
    run.set_defaults(handler=run_command)

    compare = commands.add_parser(
        "compare", help="reproduce the paper's evaluation: Figure 2, tree sizes, findings",
        description="Run A*, LRTA* and LRTA* with subgoaling (both first-goal rules) on random problems of eight "
        "MovingAI game maps (`ftr movingai where`), build the subgoal tree of every cell of each map (compiled), and "
        "write Figure 2, per-map and tree tables (CSV, Markdown), plots and findings.md into --out.")
    compare.add_argument("--out", type=Path, required=True, metavar="DIR", help="folder for the results")
    compare.add_argument("--problems", type=int, default=None, help="problems per map (default 500, the paper's)")
    compare.add_argument("--maps", metavar="NAME,...", help="only these maps of the eight (e.g. lak304d,ost003d)")
    compare.add_argument("--tree-cells", type=int, default=None, metavar="N",
                         help="build the trees of N random cells per map and extrapolate (default: every cell)")
    compare.add_argument("--movingai", type=Path, default=None, metavar="DIR",
                         help="the MovingAI folder (default: see `ftr movingai where`)")
    add_task_options(compare)
    compare.add_argument("--engine", choices=("compiled", "python"), default="compiled",
                         help=ENGINE_HELP + "; every algorithm is timed on the same engine")
    compare.add_argument("--seed", type=int, default=None, help="base seed of the problems")
    compare.add_argument("--quiet", action="store_true", help="no progress bar")
    compare.add_argument("--algorithms", metavar="NAME,...", help=f"only these (default: {','.join(ALGORITHM_NAMES)}); the paper's comparison adds "
                         f"{','.join(COMPARED_NAMES)} (kNN LRTA* with 1000 or 10000 records, D LRTA* at abstraction "
                         "level 3 or 5 with the paper's per-action goal, or _once_: the kit's goal kept until reached; "
                         "a preprocessing per map: compiled searches under --engine compiled; their online "
                         "part too)")
    compare.add_argument("--no-trees", action="store_true", help="skip building every tree of each map")
    compare.add_argument("--runs", type=Path, action="append", metavar="CSV",
                         help="instead of running: re-make the report from runs.csv files (repeat to merge runs)")
    compare.set_defaults(handler=compare_command)


def scenario_problem(map_path: Path, scen_path: Path, index: int):
    """The line's agent's grid, start, goal and the line's optimal length (or a UsageError)."""
    from reference.world.grid import Gridworld

    terrain, scenarios, blocked = load_scenario_line(map_path, scen_path, index)
    scenario = scenarios[index]
    height, width = terrain.shape
    return Gridworld(height, width, blocked=blocked), scenario.start, scenario.target, scenario.optimal_length


def run_command(args: argparse.Namespace) -> int:
    """``ftr subgoal run``: one scenario line with one known-map algorithm; prints the result."""
    from reference.world.fileio import atomic_write_text
    from reference.world.grid import cost_value

    grid, start, goal, optimal = scenario_problem(args.map, args.scen, args.index)
    with_tree = args.algorithm.startswith("lrta_subgoal") or args.picture
    # Either engine's tree and run: the twins have the same size, goal and arcs, and the same counts and trace.
    tree: CompiledTree | SubgoalTree | None
    run: CompiledKnownMapRun | KnownMapRun
    if args.engine == "compiled":   # imported only when used: loading Numba takes a second
        from reference.experiments.subgoaling import warm_up_compiled
        from reference.solutions.compiled.subgoaling import compiled_tree, run_compiled

        warm_up_compiled()   # loading the compiled code is not part of the first episode's time
        tree = compiled_tree(grid, goal, args.connectivity) if with_tree else None
        run = run_compiled(grid, start, goal, args.algorithm, connectivity=args.connectivity, tree=tree)
    else:
        from reference.solutions.subgoaling import build_subgoal_tree, run_algorithm

        tree = build_subgoal_tree(grid, goal, args.connectivity) if with_tree else None
        run = run_algorithm(args.algorithm, grid, start, goal, connectivity=args.connectivity, tree=tree)
    # run.cost is None exactly when the run did not reach the goal
    result = {"index": args.index, "reached": run.reached, "cost": cost_value(run.cost) if run.cost is not None else None,
              "optimal": optimal, "moves": run.moves, "expansions": run.expansions,
              "first_episode_s": run.first_episode_seconds, "total_s": run.total_seconds}
    if args.jsonl:
        print(json.dumps(result), flush=True)
    else:
        print(f"{args.algorithm} on {args.map.name}, scenario {args.index}: start {start}, goal {goal} (row, col); "
              f"{args.engine} engine")
        print(format_table(["reached", "cost", "optimal", "moves", "expansions", "first episode ms", "total ms",
                            "subgoal tree"],
                           [["yes" if run.reached else "NO", result["cost"] if run.reached else "-", optimal,
                             run.moves, run.expansions, run.first_episode_seconds * 1e3, run.total_seconds * 1e3,
                             f"{tree.size} arcs" if tree else "-"]]))
    if args.trace:
        atomic_write_text(args.trace, run.trace.to_json() + "\n")
    if args.picture:
        from matplotlib.figure import Figure

        from reference.experiments.subgoaling import draw_subgoal_tree

        figure = Figure(figsize=(8, 8 * grid.height / grid.width + 0.6), layout="constrained")
        draw_subgoal_tree(grid, tree, figure.subplots(), run, f"{args.map.name}, scenario {args.index}")
        figure.savefig(args.picture, dpi=110)
    return 0


def compare_command(args: argparse.Namespace) -> int:
    """``ftr subgoal compare``: Hernández & Baier's evaluation (or its report again from ``--runs``)."""
    from reference.experiments import subgoaling as experiment

    command = f"ftr subgoal compare --out {shlex.quote(str(args.out))}"
    if args.runs:
        for path in args.runs:
            if not path.is_file():
                raise UsageError(f"{path}: no such file")
        rows = [row for path in args.runs for row in experiment.read_runs(path)]
        command += "".join(f" --runs {shlex.quote(str(path))}" for path in args.runs)
        return _report(experiment, rows, args.out, command, args.movingai, experiment.MAPS)
    algorithms = ALGORITHM_NAMES
    if args.algorithms:
        algorithms = tuple(args.algorithms.split(","))
        unknown = [name for name in algorithms if name not in ALGORITHM_NAMES + COMPARED_NAMES]
        if unknown:
            raise UsageError(f"--algorithms: unknown algorithm {unknown[0]!r}; choose from "
                             f"{', '.join(ALGORITHM_NAMES + COMPARED_NAMES)}")
        command += f" --algorithms {args.algorithms}"
    maps = experiment.MAPS
    if args.maps:
        wanted = args.maps.split(",")
        known = {m.label: m for m in experiment.MAPS}
        unknown = [name for name in wanted if name not in known]
        if unknown:
            raise UsageError(f"--maps: unknown map {unknown[0]!r}; choose from {', '.join(known)}")
        maps = tuple(known[name] for name in wanted)
        command += f" --maps {args.maps}"
    for game_map in maps:
        if not experiment.map_path(game_map, args.movingai).is_file():
            raise UsageError(f"{experiment.map_path(game_map, args.movingai)}: no such file (`ftr movingai fetch "
                             f"--set {game_map.folder}` gets it; or give the folder with --movingai DIR)")
    problems = experiment.DEFAULT_PROBLEMS if args.problems is None else args.problems
    if problems < 1 or args.jobs < 1 or (args.tree_cells is not None and args.tree_cells < 0):
        raise UsageError("--problems and --jobs must be at least 1, --tree-cells at least 0")
    seed = experiment.DEFAULT_SEED if args.seed is None else args.seed
    tree_cells = 0 if args.no_trees else args.tree_cells
    scaled = [words for words, smaller in (
        (f"{problems} problems per map (the paper: {experiment.PAPER_PROBLEMS})", problems < experiment.PAPER_PROBLEMS),
        (f"{len(maps)} of the {len(experiment.MAPS)} maps", len(maps) < len(experiment.MAPS)),
        (f"the trees of {tree_cells} cells per map, extrapolated (the paper: every cell)", bool(tree_cells)),
        ("no subgoal trees of every cell", tree_cells == 0)) if smaller]
    if scaled and not args.quiet:
        print(f"scaled down: {'; '.join(scaled)}", file=sys.stderr)
    rows = experiment.run_comparison(problems, maps, args.jobs, not args.quiet, seed, args.movingai, tree_cells, algorithms,
                                     args.engine, scheduler=args.scheduler, store=task_store(args, args.out))
    command += f" --problems {problems} --seed {seed} --jobs {args.jobs} --engine {args.engine}"
    if args.no_trees:
        command += " --no-trees"
    elif args.tree_cells is not None:
        command += f" --tree-cells {args.tree_cells}"
    return _report(experiment, rows, args.out, command, args.movingai, maps)


def _report(experiment, rows: list[dict], out: Path, command: str, movingai, maps) -> int:
    written = experiment.write_report(rows, out, command, movingai, maps)
    print(f"{len(rows)} rows; wrote {len(written)} files to {out}")
    for finding in experiment.findings(rows) + experiment.comparison_findings(rows):
        print(f"  [{'holds' if finding.holds else str(finding.verdict).upper()}] {finding.claim}")
    return 0


COMMANDS = [(65, register)]
