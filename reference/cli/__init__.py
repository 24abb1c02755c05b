"""The ``ftr`` command. Each subcommand lives in its own module of this package.

A command module defines ``COMMANDS``: a list of ``(order, register)`` pairs, where
``register(subparsers)`` adds one subcommand and sets ``handler`` (a function taking the parsed
arguments and returning an exit code) with ``parser.set_defaults(handler=...)``. Modules are found
automatically, so adding a command never means editing this file. Registration must stay cheap:
import heavy libraries inside the handler.

User mistakes (a missing file, a malformed map, a blocked start, a bad option) end with one clear line on stderr
and exit code 2, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from typing import Sequence

from reference import __version__


class UsageError(Exception):
    """A mistake in what the user asked for; ``main`` prints it as one line and exits with 2."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="ftr",
        description="ftr-kit: Fast Trajectory Replanning for Computer Games. Run, grade and draw "
        "Repeated Forward/Backward A* and Adaptive A* on fog-of-war gridworlds.",
    )
    parser.add_argument("--version", action="version", version=f"ftr-kit {__version__}")
    subparsers = parser.add_subparsers(title="commands", metavar="COMMAND")
    registrations = []
    for module_info in pkgutil.iter_modules(__path__):
        if module_info.name.startswith("_"):  # _common, __main__
            continue
        module = importlib.import_module(f"{__name__}.{module_info.name}")
        registrations.extend(getattr(module, "COMMANDS", []))
    for _order, register in sorted(registrations, key=lambda pair: pair[0]):
        register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    from reference.world.instances import InstanceError
    from reference.world.maps import MapFormatError
    from reference.world.trace import TraceFormatError

    parser = build_parser()
    args = parser.parse_args(argv)
    if not hasattr(args, "handler"):
        parser.print_help()
        return 2
    try:
        return int(args.handler(args) or 0)
    except (UsageError, MapFormatError, InstanceError, TraceFormatError, FileNotFoundError,
            IsADirectoryError) as error:
        print(f"ftr: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("ftr: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # e.g. `ftr run ... --jsonl | head`
        return 0

