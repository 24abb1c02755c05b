"""Helpers the ``ftr`` subcommands share: parsing cells, loading instances, printing tables."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Sequence

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
    parser.add_argument("path", metavar="PATH", type=Path,
                        help="a folder with mazes.scen (every instance), or one .map file")
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


def load_instances(args: argparse.Namespace) -> list[Instance]:
    """The instances ``add_instance_arguments`` describes, or a :class:`UsageError` saying why not."""
    path: Path = args.path
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


def format_table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """A plain-text table, numbers right-aligned.

    >>> print(format_table(["maze", "moves"], [[0, 12], [1, 7]]))
    maze  moves
    ----  -----
       0     12
       1      7
    """
    cells = [[_text(v) for v in row] for row in rows]
    widths = [max([len(h)] + [len(r[i]) for r in cells]) for i, h in enumerate(headers)]
    numeric = [all(isinstance(row[i], (int, float)) and not isinstance(row[i], bool) for row in rows) for i in range(len(headers))]

    def line(values: Sequence[str]) -> str:
        parts = [v.rjust(w) if num else v.ljust(w) for v, w, num in zip(values, widths, numeric)]
        return "  ".join(parts).rstrip()

    return "\n".join([line(headers), line(["-" * w for w in widths])] + [line(r) for r in cells])


def _text(value: object) -> str:
    if isinstance(value, float):
        return f"{value:.3f}" if abs(value) < 10 else f"{value:,.1f}"
    return str(value)
