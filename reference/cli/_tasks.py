"""The options every ``compare`` shares for running its tasks (:mod:`reference.experiments.tasks`)."""

from __future__ import annotations

import argparse
from pathlib import Path

from reference.experiments.tasks import INSTALL_HINT, have_distributed, scheduler_help

from . import UsageError

#: The folder under ``--out`` where finished tasks are kept (a rerun skips them).
TASKS_FOLDER = ".tasks"


def add_task_options(parser: argparse.ArgumentParser, jobs: int = 2) -> None:
    """``--jobs``, ``--scheduler`` and ``--fresh``."""
    parser.add_argument("--jobs", type=int, default=jobs,
                        help=f"worker processes on this machine: a local Dask cluster when distributed is installed "
                        f"(default {jobs}; 1: run in this process)")
    parser.add_argument("--scheduler", metavar="ADDRESS", help=scheduler_help())
    parser.add_argument("--fresh", action="store_true",
                        help=f"run every task again (finished tasks are kept in OUT/{TASKS_FOLDER}/ and a rerun "
                        "skips them: delete that folder, or give --fresh, after changing the code)")


def task_store(args: argparse.Namespace, out: Path) -> Path:
    """Where this run keeps its finished tasks: ``OUT/.tasks/`` (emptied first under ``--fresh``);
    a UsageError first if ``--scheduler`` names no cluster this machine can reach."""
    import shutil

    if args.jobs < 1:
        raise UsageError(f"--jobs must be at least 1, got {args.jobs}")
    if args.scheduler is not None:
        if not have_distributed():
            raise UsageError(f"--scheduler needs Dask's distributed engine: {INSTALL_HINT}")
        from distributed import Client

        try:   # reach it now, with one line if not, rather than a traceback after the set-up
            Client(args.scheduler, timeout="10s").close()
        except (OSError, TimeoutError, ValueError) as error:
            raise UsageError(f"--scheduler {args.scheduler}: cannot reach a Dask scheduler there ({error})") from None

    store = Path(out) / TASKS_FOLDER
    if getattr(args, "fresh", False) and store.is_dir():
        shutil.rmtree(store)
    return store
