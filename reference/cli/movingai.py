"""``ftr movingai``: get the MovingAI benchmark maps the paper modules use, and say where they are.

    ftr movingai fetch                  # every set, into the user's data folder
    ftr movingai fetch DIR --set dao    # one set, into DIR (then --movingai DIR or FTR_MOVINGAI=DIR)
    ftr movingai fetch --url file:///M  # offline: from a folder M of the published archives (docs/gamemaps.md)
    ftr movingai where                  # the folder the commands read, and which sets it holds
"""

from __future__ import annotations

import argparse
from pathlib import Path


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``ftr movingai`` and its actions (``fetch``, ``where``) to ``subparsers``."""
    parser = subparsers.add_parser(
        "movingai", help="fetch the MovingAI game maps; say where the commands find them",
        description="The game-map commands (ftr path, subgoal, haa, dynamic) read the MovingAI benchmark maps "
        "from --movingai DIR, else $FTR_MOVINGAI, else ../shared/movingai beside a checkout, else the user's "
        "data folder (where `ftr movingai fetch` puts them).")
    actions = parser.add_subparsers(title="actions", metavar="ACTION")
    fetch = actions.add_parser(
        "fetch", help="download the sets the kit uses, check them, resume a broken download",
        description="Download the benchmark's published archives, take the files the kit uses, check each "
        "against the size and SHA-256 the kit records, and put them in DIR/SET/. Run it again to resume or "
        "finish; files already in place and correct are kept.")
    fetch.add_argument("out", metavar="DIR", nargs="?", type=Path,
                       help="where the sets go (default: the user's data folder, see `ftr movingai where`)")
    fetch.add_argument("--set", dest="sets", action="append", metavar="NAME",
                       help="one set (repeatable): dao, bg512, bgmaps, wc3maps512, mazes, random, rooms (default: all)")
    fetch.add_argument("--url", metavar="BASE", help="a mirror of https://movingai.com/benchmarks (or FTR_MOVINGAI_URL); without a network, "
                       "file:///DIR, a folder holding the published archives under their paths (DIR/dao/dao-map.zip)")
    fetch.add_argument("--accept-changed", action="store_true",
                       help="install files whose bytes differ from the kit's record (a newer release of the archive)")
    fetch.add_argument("--quiet", action="store_true", help="no progress bars")
    fetch.set_defaults(handler=fetch_command)
    where = actions.add_parser("where", help="the folder the game-map commands read, and the sets in it")
    where.add_argument("--movingai", type=Path, metavar="DIR", help="check this folder instead")
    where.set_defaults(handler=where_command)
    parser.set_defaults(handler=lambda args: parser.print_help() or 2)


def fetch_command(args: argparse.Namespace) -> int:
    """``ftr movingai fetch``: download (or copy from a local mirror) the MovingAI sets and check every file."""
    from reference.experiments.movingai_data import fetch, user_data_dir

    from . import UsageError

    out = args.out or user_data_dir() / "movingai"
    try:
        reports = fetch(out, args.sets, args.url, progress=not args.quiet, accept_changed=args.accept_changed)
    except ValueError as error:
        raise UsageError(str(error)) from None
    except OSError as error:
        raise UsageError(str(error)) from None
    problems = [line for report in reports for line in report.problems]
    for report in reports:
        print(f"{report.name}: {len(report.installed)} files fetched, {len(report.already)} already there")
    for line in problems:
        print(f"problem: {line}")
    if problems:
        return 1
    print(f"the maps are in {out}" + ("" if args.out is None else f"; use --movingai {out} or FTR_MOVINGAI={out}"))
    return 0


def where_command(args: argparse.Namespace) -> int:
    """``ftr movingai where``: print the folder the game-map commands read and the sets in it."""
    from reference.experiments.movingai_data import load_manifest, movingai_dir

    folder = movingai_dir(args.movingai)
    print(folder)
    for name in sorted(load_manifest()["sets"]):
        print(f"  {name}: {'present' if (folder / name).is_dir() else 'missing'}")
    return 0


COMMANDS = [(95, register)]
