"""Helpers the ``ftr`` subcommands share: parsing cells, loading instances, printing tables."""

from __future__ import annotations

import argparse
from pathlib import Path

from reference.world.instances import Instance, load_folder, load_from_scen
from reference.world.maps import read_map
from reference.world.trace import TIE_BREAKS

from . import UsageError


def parse_cell(text: str) -> tuple[int, int]:
    """``"3,9"`` -> ``(3, 9)`` (row, col), for argparse."""
    try:
        row, col = (int(part) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected ROW,COL (two whole numbers), got {text!r}") from None
    return (row, col)


def add_instance_arguments(parser: argparse.ArgumentParser) -> None:
    """``PATH`` plus the ways of picking instances from a single ``.map``."""
    parser.add_argument("path", metavar="PATH", type=Path, nargs="?",
                        help="a folder with mazes.scen (every instance), or one .map file")
    parser.add_argument("--standard", action="store_true",
                        help="instead of PATH: the kit's 50 standard mazes, wherever the kit is installed "
                        "(the folder `ftr mazes path` prints)")
    parser.add_argument("--scen", type=Path, help="with a .map: the .scen file to take --index from")
    parser.add_argument("--index", type=int, default=0, help="with --scen: which scenario line (0 = first)")
    parser.add_argument("--start", type=parse_cell, metavar="R,C", help="with a .map: the agent's start cell")
    parser.add_argument("--target", type=parse_cell, metavar="R,C", help="with a .map: the target cell")


def add_algorithm_arguments(parser: argparse.ArgumentParser) -> None:
    """``--algorithm`` (one of the three Repeated A* variants) and ``--tie-break``."""
    from reference.solutions import REPLANNERS

    parser.add_argument("--algorithm", choices=list(REPLANNERS), default="forward")
    parser.add_argument("--tie-break", choices=list(TIE_BREAKS), default="larger_g",
                        help="ties in f go to the larger g (default) or the smaller g")


def instance_path(args: argparse.Namespace) -> Path:
    """PATH, or with ``--standard`` the standard mazes' folder (then also set as ``args.path``)."""
    from reference.world.instances import standard_mazes_dir

    if getattr(args, "standard", False):
        if args.path is not None:
            raise UsageError(f"give PATH ({args.path}) or --standard, not both")
        args.path = standard_mazes_dir()
    if args.path is None:
        raise UsageError("say which instances: PATH (a folder with mazes.scen, or a .map) or --standard")
    return args.path


def load_instances(args: argparse.Namespace) -> list[Instance]:
    """The instances ``add_instance_arguments`` describes, or a :class:`UsageError` saying why not."""
    path = instance_path(args)
    if not path.exists():
        raise UsageError(f"{path}: no such file or folder")
    if path.is_dir():
        if args.scen or args.start or args.target:
            raise UsageError("--scen, --start and --target go with a .map file, not a folder")
        return load_folder(path)
    if args.scen:
        if args.start or args.target:
            raise UsageError("give either --scen (with --index) or --start and --target, not both")
        try:
            return [load_from_scen(path, args.scen, args.index)]
        except IndexError as error:
            raise UsageError(str(error)) from None
    if args.start is None or args.target is None:
        raise UsageError(f"{path} is a map: say which instance with --scen FILE --index I, or --start R,C --target R,C")
    instance = Instance(path.stem, read_map(path), args.start, args.target)
    instance.check()
    return [instance]


def load_scenario_line(map_path: Path, scen_path: Path, index: int):
    """A MovingAI map with the lines of a scenario file, for the commands that solve line ``index``:
    ``(terrain, scenarios, blocked)``, ``blocked`` being the cells that line's agent cannot enter
    (SPEC §12: water only for an agent that starts on water). Anything wrong is a UsageError naming
    it: a missing file, an index out of range, a line for another map's size, a start or goal its
    agent cannot stand on. (A malformed file raises MapFormatError, which ``ftr`` reports.)"""
    from reference.world.maps import read_scen, read_terrain
    from reference.world.terrain import passable, scenario_capability

    for path, what in ((map_path, "map"), (scen_path, "scenario")):
        if not path.is_file():
            raise UsageError(f"{path}: no such {what} file")
    terrain, scenarios = read_terrain(map_path), read_scen(scen_path)
    if not 0 <= index < len(scenarios):
        raise UsageError(f"--index {index}: {scen_path} has {len(scenarios)} scenario lines (0 to {len(scenarios) - 1})")
    scenario = scenarios[index]
    if terrain.shape != (scenario.height, scenario.width):
        raise UsageError(f"{scen_path}, line {index}: the scenario's map is {scenario.width} x {scenario.height} "
                         f"(width x height), {map_path} is {terrain.shape[1]} x {terrain.shape[0]}")
    blocked = ~passable(terrain, scenario_capability(terrain, scenario.start))
    for label, cell in (("start", scenario.start), ("goal", scenario.target)):
        if blocked[cell]:
            raise UsageError(f"{scen_path}, line {index}: the {label} (row {cell[0]}, col {cell[1]}) "
                             f"is not passable for the line's agent on {map_path.name}")
    return terrain, scenarios, blocked
