"""``ftr path``: shortest paths on known game maps (SPEC §12), and the MovingAI check.

    ftr path arena.map --scen arena.map.scen                   # every line, a table
    ftr path arena.map --scen arena.map.scen --index 7 --jsonl
    ftr path arena.map --scen arena.map.scen --index 7 --draw arena7.png
    ftr path --check-all                                       # every MovingAI line; report in docs/gamemaps

A scenario line is solved on MAP when the map it names has MAP's file name, else on the map it
names, looked up beside the scenario file (MovingAI's layout). The agent follows the MovingAI
convention: ground only, or water only if it starts on water. A line whose start or goal the
agent cannot stand on is an error with ``--index``; among all lines it is reported (cost null).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from . import UsageError


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``ftr path`` to ``subparsers``."""
    parser = subparsers.add_parser(
        "path",
        help="A* on known game maps: solve MovingAI scenario lines, check the benchmark, draw paths",
        description="Solve the lines of a MovingAI scenario file with A* on the known map (eight-connected, "
        "diagonals cost √2, no corner cutting, octile h; --connectivity 4 for the handout's moves). Prints a "
        'table, or with --jsonl exactly one JSON object per line: {"index": i, "cost": c, "optimal": o, '
        '"expansions": n} (cost a float, null when there is no path or the line does not fit the map). --check-all checks every line of '
        "every scenario file of the MovingAI folder against its optimal length and writes the report.",
    )
    parser.add_argument("map", metavar="MAP", type=Path, nargs="?", help="the .map file")
    parser.add_argument("--scen", type=Path, metavar="FILE", help="the .scen file whose lines to solve")
    parser.add_argument("--index", type=int, metavar="I", help="solve only line I (0 = the first line after 'version')")
    parser.add_argument("--connectivity", type=int, choices=[4, 8], default=8, help="moves: 8 (default) or 4")
    parser.add_argument("--engine", choices=["compiled", "python"], default="compiled",
                        help="compiled: the Numba twin (default); python: the readable A* (same expansions, slower)")
    parser.add_argument("--readable", dest="engine", action="store_const", const="python",
                        help=argparse.SUPPRESS)  # the old spelling of --engine python
    parser.add_argument("--jsonl", action="store_true", help="one JSON object per line on stdout, nothing else")
    parser.add_argument("--draw", type=Path, metavar="PNG",
                        help="with --index: draw the map's terrain, the expanded cells and the path")
    parser.add_argument("--zoom", type=int, metavar="MARGIN",
                        help="with --draw: show only the cells within MARGIN rows and columns of the search")
    parser.add_argument("--check-all", action="store_true",
                        help="check every MovingAI scenario line against its optimal length (no MAP or --scen)")
    parser.add_argument("--movingai", type=Path, metavar="DIR",
                        help="with --check-all: the MovingAI folder (default: see `ftr movingai where`)")
    parser.add_argument("--out", type=Path, default=Path("docs/gamemaps"), metavar="DIR",
                        help="with --check-all: where the report goes (default docs/gamemaps)")
    parser.add_argument("--sample", type=int, metavar="N", help="with --check-all: only N lines spread over each file")
    parser.set_defaults(handler=run, quick_exit=True)  # see reference/cli/__init__.py


def run(args: argparse.Namespace) -> int:
    """``ftr path``: solve scenario lines with A* on a known map, or ``--check-all`` the benchmark."""
    if args.check_all:
        return check_all(args)
    if args.map is None or args.scen is None:
        raise UsageError("give MAP and --scen FILE (or --check-all)")
    if args.draw and args.index is None:
        raise UsageError("--draw draws one line: say which with --index I")
    return solve_lines(args)


def solve_lines(args: argparse.Namespace) -> int:
    """Solve the chosen lines of a scenario file; print each (JSON lines or a table), draw one if asked."""
    from reference.world.maps import map_beside, read_scen, read_terrain
    from reference.world.terrain import passable, scenario_capability

    if not args.map.is_file():
        raise UsageError(f"{args.map}: no such map file")
    scenarios = read_scen(args.scen)
    if args.index is not None and not 0 <= args.index < len(scenarios):
        raise UsageError(f"{args.scen} has {len(scenarios)} scenario lines; index {args.index} does not exist")
    indices = range(len(scenarios)) if args.index is None else [args.index]
    terrains = {}
    rows = []
    for index in indices:
        scenario = scenarios[index]
        beside = map_beside(args.scen, scenario)
        map_path = args.map if beside.name == args.map.name else beside
        if map_path not in terrains:
            terrains[map_path] = read_terrain(map_path)
        terrain = terrains[map_path]
        if terrain.shape != (scenario.height, scenario.width):
            raise UsageError(f"{args.scen}, line {index}: the scenario's map is {scenario.width} x {scenario.height} "
                             f"(width x height), {map_path} is {terrain.shape[1]} x {terrain.shape[0]}")
        blocked = ~passable(terrain, scenario_capability(terrain, scenario.start))
        unpassable = [label for label, cell in (("start", scenario.start), ("goal", scenario.target)) if blocked[cell]]
        if unpassable and args.index is not None:
            cell = scenario.start if unpassable[0] == "start" else scenario.target
            raise UsageError(f"{args.scen}, line {index}: the {unpassable[0]} (row {cell[0]}, col {cell[1]}) "
                             f"is not passable for the scenario's agent on {map_path.name}")
        if unpassable:  # a line that does not fit this map (Warcraft III files): reported, no search
            cost, expansions, shown = None, 0, f"{unpassable[0]} blocked"
        else:
            result = _astar(args)(blocked, scenario.start, scenario.target, connectivity=args.connectivity)
            cost, expansions = (result.length if result.found else None), result.expansions
            shown = "no path" if cost is None else f"{cost:.5f}"
            if args.draw:
                _draw(args, terrain, scenario, index, result)
        if args.jsonl:
            print(json.dumps({"index": index, "cost": cost, "optimal": scenario.optimal_length,
                              "expansions": expansions}), flush=True)
        rows.append([index, map_path.name, f"{scenario.start[0]},{scenario.start[1]}",
                     f"{scenario.target[0]},{scenario.target[1]}", shown, f"{scenario.optimal_length:g}", expansions])
    if not args.jsonl:
        from reference.experiments.report import format_table

        print(f"A*, {args.connectivity}-connected, {'readable' if args.engine == 'python' else 'compiled'}")
        print(format_table(["index", "map", "start", "goal", "cost", "optimal", "expansions"], rows))
    return 0


def _astar(args: argparse.Namespace):
    if args.engine == "python":
        from reference.solutions.shortest_paths import astar
    else:
        from reference.solutions.compiled.shortest_paths import astar
    return astar


def _draw(args: argparse.Namespace, terrain, scenario, index: int, result) -> None:
    import matplotlib

    matplotlib.use("Agg")
    from reference.experiments.plots import save_figure
    from reference.world.map_pictures import draw_game_map

    cost = f"cost {result.length:.4f}" if result.found else "no path"
    title = (f"{Path(scenario.map).name} line {index}: A* {args.connectivity}-connected, {cost}, "
             f"{result.expansions:,} expansions")
    ax = draw_game_map(terrain, result.path, result.expanded, scenario.start, scenario.target, title=title,
                       zoom=args.zoom)
    save_figure(ax.figure.figure, args.draw)  # the root Figure (Axes.figure may be a SubFigure)
    if not args.jsonl:
        print(f"picture written to {args.draw}")


def check_all(args: argparse.Namespace) -> int:
    """``ftr path --check-all``: every MovingAI scenario line against its optimal length; writes the report."""
    from reference.experiments.movingai import failures, run_check
    from reference.experiments.movingai_data import movingai_dir, require_movingai

    if args.map is not None or args.scen is not None or args.index is not None:
        raise UsageError("--check-all takes no MAP, --scen or --index")
    movingai = require_movingai(movingai_dir(args.movingai))
    reports = run_check(movingai, args.out, args.sample)
    failed = failures(reports)
    print(f"{sum(len(r.lines) for r in reports):,} lines checked, {len(failed)} do not match outside Warcraft III; "
          f"report: {args.out / 'movingai_check.md'}")
    return 1 if failed else 0


COMMANDS = [(50, register)]
