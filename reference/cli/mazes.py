"""``ftr mazes generate``: make the standard maze set (SPEC §3)."""

from __future__ import annotations

import argparse

from reference.world.generator import STANDARD_BASE_SEED, STANDARD_COUNT, STANDARD_SIZE


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("mazes", help="make maze sets", description="Make maze sets.")
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
    parser.set_defaults(handler=lambda args: parser.print_help() or 2)


def generate_command(args: argparse.Namespace) -> int:
    from reference.world.generator import generate_maze_set

    from . import UsageError

    if args.count < 1:
        raise UsageError(f"--count must be at least 1, got {args.count}")
    if args.size < 3:
        raise UsageError(f"--size must be at least 3, got {args.size}")
    written = generate_maze_set(args.outdir, count=args.count, size=args.size, base_seed=args.seed)
    print(f"wrote {len(written) - 1} mazes and mazes.scen to {args.outdir}")
    return 0


COMMANDS = [(20, register)]
