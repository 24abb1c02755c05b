"""``ftr dynamic``: LRTA* that chooses its own depth and goal (Bulitko et al. 2007; SPEC §15).

    ftr dynamic run arena.map --scen arena.map.scen --index 7 --method fixed --depth 4
    ftr dynamic run arena.map --scen arena.map.scen --index 7 --method pdb --level 4 --goals i --jsonl
    ftr dynamic run arena.map --scen arena.map.scen --index 7 --method pdb --goals gi --goal-rule paper
    ftr dynamic run arena.map --scen arena.map.scen --index 7 --method tree --depth 10
    ftr dynamic compare --out docs/dynamic                 # the paper's study at its size (see docs/dynamic.md)
    ftr dynamic compare --out DIR --scheduler tcp://HOST:8786   # its tasks on a Dask cluster (docs/cluster.md)

``run`` prints exactly {"index", "reached", "cost", "optimal", "suboptimality",
"expansions_per_action", "max_expansions_per_action"} (suboptimality = cost / optimal; optimal is
A*'s exact cost). ``--method tree`` first trains its decision tree (``--depth`` is d_max) on up to
eight other lines of the same scenario file; ``--method pdb`` first builds the pattern database.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from . import UsageError
from ._common import load_scenario_line
from ._tasks import add_task_options, task_store

METHODS = ("fixed", "tree", "pdb")


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``ftr dynamic`` and its subcommands (``run``, ``compare``, ``figure8``) to ``subparsers``."""
    parser = subparsers.add_parser(
        "dynamic", help="dynamic control in LRTA*: fixed depth, decision-tree depth, pattern databases",
        description="General LRTA* (Bulitko et al. 2007) on known eight-connected game maps, octile h.")
    commands = parser.add_subparsers(title="subcommands", metavar="SUBCOMMAND")
    run = commands.add_parser("run", help="one scenario line with one method; prints the result",
                              description=__doc__.split("\n\n")[2])
    run.add_argument("map", metavar="MAP", type=Path, help="the .map file")
    run.add_argument("--scen", type=Path, metavar="FILE", required=True, help="the .scen file")
    run.add_argument("--index", type=int, metavar="I", required=True, help="the scenario line (0 = first)")
    run.add_argument("--method", choices=METHODS, default="fixed", help="how line 3 of Figure 1 picks the depth")
    run.add_argument("--depth", type=int, metavar="D", help="fixed: the depth (default 1); tree: d_max (default 10)")
    run.add_argument("--level", type=int, metavar="L", default=4, help="pdb: abstraction level (default 4)")
    run.add_argument("--cap", type=int, metavar="C", default=20, help="pdb: depth cap (default 20)")
    run.add_argument("--goals", choices=("g", "gi", "i"), default="g", help="pdb: goal selection G, G+I or I")
    run.add_argument("--goal-rule", choices=("paper", "once"), default="once",
                     help="pdb: the intermediate goal re-selected at every action (paper; agents can oscillate) or "
                          "kept until reached, each at most once (once, the kit's repair; default)")
    run.add_argument("--max-actions", type=int, default=100_000, help="give up after this many actions")
    run.add_argument("--jsonl", action="store_true", help="print only the JSON object")
    run.add_argument("--engine", choices=("compiled", "python"), default="compiled",
                     help="compiled twins (default; Numba) or the readable reference code: the same run")
    run.set_defaults(handler=run_line)
    compare = commands.add_parser(
        "compare", help="the paper's study: Figures 5-7, Table 2, findings.md",
        description="Run the paper's study (fixed depth, decision trees, oracle, pattern databases) and write its "
        "runs, Table 2, Figures 5-7 and findings.md into --out. The runs are tasks (one per map and setting; a "
        "pattern database's build and runs per map and level) on --jobs local processes or the Dask cluster at "
        "--scheduler, the same results either way; finished tasks are kept in OUT/.tasks/ and a rerun skips them.")
    compare.add_argument("--out", type=Path, default=Path("docs/dynamic"), metavar="DIR")
    compare.add_argument("--movingai", type=Path, metavar="DIR", help="the MovingAI folder (default: see `ftr movingai where`)")
    compare.add_argument("--problems", type=int, default=100, help="problems per map (default 100, as the paper)")
    compare.add_argument("--levels", type=int, nargs="+", default=[1, 2, 3, 4, 5, 6],
                         help="abstraction levels (default 1-6; compiled, level 1 takes about 2 min per map; "
                              "level 0 builds only the columns toward the problems' goals and runs pdb G only, "
                              "unless --full-level-0)")
    compare.add_argument("--full-level-0", action="store_true",
                         help="level 0: build the whole table (|V|^2 pairs: 58-87 million, about 0.5 GB and 10-30 "
                              "processor minutes per study map) and run pdb G+I and I there too")
    compare.add_argument("--depths", type=int, nargs="+", default=list(range(1, 15)), help="fixed depths (default 1-14)")
    compare.add_argument("--tree-depths", type=int, nargs="+", default=[5, 10, 15, 20],
                         help="d_max of the trees (default 5 10 15 20)")
    compare.add_argument("--scaling-problems", type=int, default=100,
                         help="problems on the 512 x 512 map (default 100; 0: skip the scaling run)")
    compare.add_argument("--replot", action="store_true",
                         help="no new runs: rebuild summary, figures and findings.md from DIR/runs.csv")
    compare.add_argument("--only-scaling", action="store_true", help="run only the 512 x 512 scaling run")
    compare.add_argument("--scaling-levels", type=int, nargs="+", default=[4, 5, 6, 7],
                         help="levels of the scaling run (default 4-7; level 3 would take about 20 min)")
    compare.add_argument("--engine", choices=("compiled", "python"), default="compiled",
                         help="compiled twins (default; Numba) or the readable reference code: the same runs, slower")
    compare.add_argument("--tree-trajectories", choices=("each", "deepest"), default="each",
                         help="the trees' training agent follows each tree's own d_max (default, the paper) or the "
                              "deepest d_max for all trees (one run labels them all; cheaper)")
    compare.add_argument("--goal-rules", choices=("paper", "once"), nargs="+", default=["paper", "once"],
                         help="goal rules of the G+I and I runs (default both: paper = re-selected at every action, "
                              "once = kept until reached, each at most once)")
    compare.add_argument("--parts", choices=("fixed", "trees", "cv", "pdb"), nargs="+",
                         default=["fixed", "trees", "cv", "pdb"],
                         help="run only these methods (trees: trained on other maps; cv: on the same maps, 10-fold "
                              "cross-validation, the paper's protocol); the other parts' rows are kept from DIR's "
                              "last run (default all)")
    compare.add_argument("--scaling-tree-depths", type=int, nargs="+", default=[5, 10, 15, 20], metavar="D",
                         help="d_max of the scaling run's trees (same map, 10-fold; default 5 10 15 20)")
    compare.add_argument("--maps", nargs="+", metavar="NAME",
                         help="only these of the study's maps (each keeps its problems; default: all three)")
    compare.add_argument("--quick", action="store_true", help="a tiny run (one map, 2 problems) to try the pipeline")
    add_task_options(compare)
    compare.set_defaults(handler=run_compare)
    figure8 = commands.add_parser("figure8", help="Figure 8: Koenig's LRTA*, prioritized LRTA*, PR LRTS beside the study")
    figure8.add_argument("--out", type=Path, default=Path("docs/dynamic"), metavar="DIR",
                         help="where the study's runs.csv is and figure8.png, figure8.md, figure8_runs.csv go")
    figure8.add_argument("--movingai", type=Path, metavar="DIR", help="the MovingAI folder (default: see `ftr movingai where`)")
    figure8.add_argument("--problems", type=int, default=100, help="the first N study problems of each map (default 100)")
    figure8.add_argument("--replot", action="store_true", help="figure and findings again from figure8_runs.csv")
    figure8.set_defaults(handler=run_figure8)
    parser.set_defaults(handler=lambda args: (parser.print_help(), 2)[1])


def run_line(args: argparse.Namespace) -> int:
    """``ftr dynamic run``: one scenario line with one depth-control method; prints the result."""
    from reference.experiments.dynamic import Engine, Problem, run_problem
    from reference.solutions.compiled.shortest_paths import astar_cost

    for name in ("depth", "level", "cap", "max_actions"):
        value = getattr(args, name)
        if value is not None and value < (0 if name == "level" else 1):
            raise UsageError(f"--{name.replace('_', '-')} must be at least {0 if name == 'level' else 1}, not {value}")
    _, scenarios, blocked = load_scenario_line(args.map, args.scen, args.index)
    scenario = scenarios[args.index]
    optimal, _ = astar_cost(blocked, scenario.start, scenario.target, connectivity=8)
    if optimal is None:
        raise UsageError(f"{args.scen}, line {args.index}: the goal cannot be reached from the start")
    engine = Engine(blocked, args.engine)
    if args.method == "fixed":
        runner = engine.fixed(args.depth or 1)
    elif args.method == "tree":
        runner = engine.tree(_train_tree(args, scenarios, blocked, engine))
    else:
        runner = engine.with_database(engine.database(args.level, args.cap), args.goals, args.goal_rule)
    row = run_problem(Problem(scenario.map, scenario.start, scenario.target, optimal), runner, args.max_actions)
    print(json.dumps({"index": args.index, **row}))
    return 0


def _train_tree(args, scenarios, blocked, engine):
    import numpy as np

    from reference.solutions.dynamic.tree import train_depth_tree

    d_max = args.depth or 10
    others = [s for i, s in enumerate(scenarios) if i != args.index and not blocked[s.start] and not blocked[s.target]
              and s.map == scenarios[args.index].map]
    others = sorted(others, key=lambda s: abs(s.optimal_length - scenarios[args.index].optimal_length))[:8]
    if not others:
        raise UsageError(f"{args.scen}: no other line on this map to train the decision tree on")
    xs, ys = [], []
    for s in others:
        x, y = engine.samples(s.start, s.target, [d_max], 20 * int(s.optimal_length + 2))
        xs.append(x)
        ys.append(y[d_max])
    return train_depth_tree(np.vstack(xs), np.concatenate(ys))


def run_compare(args: argparse.Namespace) -> int:
    """``ftr dynamic compare``: the paper's study (or ``--replot`` from its runs): Figures 5-7, Table 2,
    findings.md.
    """
    from reference.experiments.dynamic import (
        SCALING_CAP, SCALING_COST_RANGE, SCALING_MAP, STUDY_MAPS, Study, compare, compare_scaling,
    )
    from reference.experiments.movingai_data import movingai_dir, require_movingai

    if args.replot:
        from reference.experiments.dynamic import replot, runs_file
        from reference.experiments.dynamic_figure8 import figure8_report

        if not runs_file(args.out / "runs.csv").is_file():
            raise UsageError(f"{args.out / 'runs.csv'}: no such file (run compare without --replot first)")
        paths = replot(args.out)
        if runs_file(args.out / "figure8_runs.csv").is_file():
            paths += figure8_report(args.out)   # Figure 8's part, when its runs are there
        for path in paths:
            print(path)
        return 0
    movingai = require_movingai(movingai_dir(args.movingai), *sorted({m.split("/")[0] for m in (*STUDY_MAPS, SCALING_MAP)}))
    missing = [m for m in (*STUDY_MAPS, SCALING_MAP) if not (movingai / m).is_file()]
    if missing:
        raise UsageError(f"{movingai}: missing {', '.join(missing)} (`ftr movingai fetch` gets them)")
    if args.quick:
        study = Study(maps=STUDY_MAPS[:1], problems=2, fixed_depths=(1, 4), tree_depths=(4,), levels=(7,),
                      engine=args.engine, goal_rules=tuple(args.goal_rules), parts=tuple(args.parts))
        scaling = None
    else:
        unknown = [m for m in args.maps or () if m not in STUDY_MAPS]
        if unknown:
            raise UsageError(f"--maps: {', '.join(unknown)} is not a study map ({', '.join(STUDY_MAPS)})")
        study = Study(maps=tuple(args.maps or STUDY_MAPS), problems=args.problems, levels=tuple(args.levels), fixed_depths=tuple(args.depths),
                      tree_depths=tuple(args.tree_depths), engine=args.engine,
                      tree_trajectories=args.tree_trajectories, goal_rules=tuple(args.goal_rules),
                      parts=tuple(args.parts), full_level_zero=args.full_level_0)
        scaling = None if args.scaling_problems <= 0 else Study(
            maps=(SCALING_MAP,), problems=args.scaling_problems, cost_range=SCALING_COST_RANGE, cap=SCALING_CAP,
            fixed_depths=(1, 2, 4, 6, 8, 10, 14), tree_depths=tuple(args.scaling_tree_depths),
            levels=tuple(args.scaling_levels), engine=args.engine, goal_rules=tuple(args.goal_rules),
            # one map: no other map to train on, so only the paper's same-map trees
            parts=tuple(p for p in args.parts if p != "trees"))
    log = lambda text: print(text, file=sys.stderr)  # noqa: E731
    if args.only_scaling:
        if scaling is None:
            raise UsageError("--only-scaling needs --scaling-problems of at least 1")
        paths = compare_scaling(args.out, movingai, scaling, log=log, jobs=args.jobs, scheduler=args.scheduler,
                                store=task_store(args, args.out))
    else:
        paths = compare(args.out, movingai, study, scaling, log=log, jobs=args.jobs, scheduler=args.scheduler,
                        store=task_store(args, args.out))
    for path in paths:
        print(path)
    return 0


def run_figure8(args: argparse.Namespace) -> int:
    """``ftr dynamic figure8``: Koenig's LRTA*, prioritized LRTA* and PR LRTS beside the study (or ``--replot``)."""
    from reference.experiments.dynamic import STUDY_MAPS, runs_file
    from reference.experiments.dynamic_figure8 import figure8, figure8_report
    from reference.experiments.movingai_data import movingai_dir, require_movingai

    if args.problems < 1:
        raise UsageError(f"--problems must be at least 1, not {args.problems}")
    if args.replot:
        if not runs_file(args.out / "figure8_runs.csv").is_file():
            raise UsageError(f"{args.out / 'figure8_runs.csv'}: no such file (run figure8 without --replot first)")
        paths = figure8_report(args.out)
    else:
        movingai = require_movingai(movingai_dir(args.movingai), "bgmaps")
        paths = figure8(args.out, movingai, STUDY_MAPS, args.problems, log=lambda text: print(text, file=sys.stderr))
    for path in paths:
        print(path)
    return 0


COMMANDS = [(75, register)]
