"""The ``ftr`` command. Its subcommands live in the modules of this package, a module for one
command or for a few that serve the same people: ``run.py`` holds ``ftr run``, ``draw.py`` holds
``draw`` and ``animate``, and ``grade.py`` the six grading commands (``grade``, ``check``,
``grade-all``, ``solution``, ``gradescope``, ``secret-seed``).

A command module defines ``COMMANDS``: a list of ``(order, register)`` pairs, where
``register(subparsers)`` adds one subcommand and sets ``handler`` (a function taking the parsed
arguments and returning an exit code) with ``parser.set_defaults(handler=...)``. Modules are found
automatically, so adding a command never means editing this file. Registration must stay cheap:
import heavy libraries inside the handler. ``ftr COMMAND ...`` registers only the module named
COMMAND when that module defines the command (``ftr run`` imports ``run.py`` alone: a twentieth of a
second less than registering all of them); any other command line builds the whole parser.

A command that may end the process without the interpreter's teardown sets ``quick_exit=True`` beside
its handler: when ``main`` runs as the program (no ``argv`` given), it then flushes the output, runs
the ``atexit`` handlers and calls ``os._exit``. Once Numba and the compiled code are loaded, tearing
down their objects costs 0.2-0.3 CPU s (a warm ``ftr run`` ending the ordinary way took 1.39 times the
CPU of one ending quickly, side by side on 2026-11-29; docs/speed.md); commands that leave files open or
children running must not ask for it.

User mistakes (a missing file, a malformed map, a blocked start, a bad option) end with one clear line on stderr
and exit code 2, never a traceback.
"""

from __future__ import annotations

import argparse
import atexit
import importlib
import os
import pkgutil
import sys
from typing import Sequence

from reference import __version__


class UsageError(Exception):
    """A mistake in what the user asked for; ``main`` prints it as one line and exits with 2."""


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The ``ftr`` parser: every command, or with ``command`` only the module of that name when it
    defines that command (then nothing else is imported)."""
    parser = argparse.ArgumentParser(
        prog="ftr",
        description="ftr-kit: Fast Trajectory Replanning for Computer Games. Run, grade and draw "
        "Repeated Forward/Backward A* and Adaptive A* on fog-of-war gridworlds.",
    )
    parser.add_argument("--version", action="version", version=f"ftr-kit {__version__}")
    subparsers = parser.add_subparsers(title="commands", metavar="COMMAND")
    names = [info.name for info in pkgutil.iter_modules(__path__) if not info.name.startswith("_")]  # not _common
    if command in names:
        _register(subparsers, [command])
        if command in subparsers.choices:
            return parser
        return build_parser()  # the module is named like the command but does not define it
    _register(subparsers, names)
    return parser


def _register(subparsers: argparse._SubParsersAction, module_names: list[str]) -> None:
    registrations = []
    for name in module_names:
        module = importlib.import_module(f"{__name__}.{name}")
        registrations.extend(getattr(module, "COMMANDS", []))
    for _order, register in sorted(registrations, key=lambda pair: pair[0]):
        register(subparsers)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``ftr`` command line ``argv`` (default: the program's own arguments); returns the exit code.

    Called without ``argv`` (as the program), a command that set ``quick_exit`` ends the process here.
    """
    from reference.world.instances import InstanceError
    from reference.world.maps import MapFormatError
    from reference.world.trace import TraceFormatError

    arguments = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(arguments[0] if arguments else None)
    args = parser.parse_args(arguments)
    if not hasattr(args, "handler"):
        parser.print_help()
        return 2
    try:
        code = int(args.handler(args) or 0)
        if argv is None and getattr(args, "quick_exit", False):
            _exit_now(code)
        return code
    except (UsageError, MapFormatError, InstanceError, TraceFormatError, FileNotFoundError,
            IsADirectoryError) as error:
        print(f"ftr: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("ftr: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # e.g. `ftr run ... --jsonl | head`
        return 0



def _exit_now(code: int) -> None:
    """End the process as ``sys.exit(code)`` would, minus the teardown of every object (see above)."""
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BrokenPipeError:
        pass
    atexit._run_exitfuncs()  # what sys.exit would run too: weakref finalizers, logging's flush, ...
    os._exit(code)
