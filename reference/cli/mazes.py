"""``ftr mazes generate``: make the standard maze set (SPEC §3); ``ftr mazes path``: where the kit's are.

    ftr mazes path                 # the folder of the 50 standard mazes (in a wheel: inside the package)
    ftr run "$(ftr mazes path)"    # the same as: ftr run --standard
"""

from __future__ import annotations

import argparse

from reference.world.generator import STANDARD_BASE_SEED, STANDARD_COUNT, STANDARD_SIZE


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``ftr mazes`` and its actions (``generate``, ``path``) to ``subparsers``."""
    parser = subparsers.add_parser("mazes", help="make maze sets; show where the standard ones are",
                                   description="Make maze sets, or print where the kit's standard mazes are.")
    actions = parser.add_subparsers(title="actions", metavar="ACTION")
    generate = actions.add_parser(
        "generate",
        help="write maze_XX.map files and mazes.scen",
        description="Write COUNT mazes (SPEC §3) and their mazes.scen into OUTDIR. With the defaults "
        "this reproduces the kit's mazes/ folder byte for byte.",
    )
    generate.add_argument("outdir", metavar="OUTDIR")
    generate.add_argument("--count", type=int, default=STANDARD_COUNT, help=f"how many mazes (default {STANDARD_COUNT})")
    generate.add_argument("--size", type=int, default=STANDARD_SIZE, help=f"rows and columns (default {STANDARD_SIZE})")
    generate.add_argument("--seed", type=int, default=STANDARD_BASE_SEED,
                          help=f"base seed; maze i uses default_rng([SEED, i]) (default {STANDARD_BASE_SEED})")
    generate.set_defaults(handler=generate_command)
    path = actions.add_parser(
        "path", help="print the folder of the kit's standard mazes",
        description="Print the folder holding the kit's 50 standard mazes and mazes.scen (FTR_MAZES if set; in "
        "an installed wheel, a folder inside the package), so any command can name them from anywhere: "
        'ftr run "$(ftr mazes path)". ftr run, draw and animate also take --standard instead of PATH.',
    )
    path.add_argument("--handout", action="store_true",
                      help="the handout's three worked examples (example1.map + example1.scen, ...) instead")
    path.set_defaults(handler=path_command)
    parser.set_defaults(handler=lambda args: parser.print_help() or 2)


def generate_command(args: argparse.Namespace) -> int:
    """``ftr mazes generate``: write a maze set (maps and ``mazes.scen``) by the contract's construction."""
    from reference.world.generator import generate_maze_set

    from . import UsageError

    if args.count < 1:
        raise UsageError(f"--count must be at least 1, got {args.count}")
    if args.size < 3:
        raise UsageError(f"--size must be at least 3, got {args.size}")
    written = generate_maze_set(args.outdir, count=args.count, size=args.size, base_seed=args.seed)
    print(f"wrote {len(written) - 1} mazes and mazes.scen to {args.outdir}")
    return 0


def path_command(args: argparse.Namespace) -> int:
    """``ftr mazes path``: print the folder of the bundled standard mazes (or of the handout's examples)."""
    from reference.world.instances import standard_mazes_dir
    from reference.world.kitdata import handout_examples_dir

    from . import UsageError

    folder = handout_examples_dir() if args.handout else standard_mazes_dir()
    if not folder.is_dir():
        raise UsageError(f"{folder}: no such folder (is FTR_MAZES set to a folder that does not exist?)")
    print(folder)
    return 0


COMMANDS = [(20, register)]
