"""``ftr run``'s compiled twin without Numba at run time: the twin's run compiled ahead of time.

A warm ``ftr run`` on one maze spent most of its CPU starting Numba (importing it, then loading the
cached code) for a search of a few milliseconds (docs/speed.md, "Start-up"). So ``ftr run`` keeps the
twin's whole run (``run_on_fresh_state`` of :mod:`reference.solutions.compiled.replanning`) also as an
ordinary extension module, compiled by Numba's own ahead-of-time compiler from the same source: a
process imports it with NumPy alone and never imports Numba. The module sits beside Numba's cache,
``reference/solutions/compiled/__pycache__/replanning_ahead_KEY<suffix>.so``, where KEY is a digest of
every source of the compiled package, so a module built from other sources is never loaded (an edit
of any twin gives a new KEY; the old file is deleted when the new one is built).

* :func:`load_ahead_of_time_module` finds the module for the sources as they are now, or None.
* :func:`run_ahead_of_time` runs it and returns the same :class:`TraceArrays` as ``run_compiled``
  (``tests/cli/test_cli_startup.py`` compares the two on every setting).
* :func:`build_ahead_of_time_module` builds it, once, after a run that found none: about 20 CPU s
  and a C compiler; without a compiler, in a read-only installation, or when the build fails (the
  failure is remembered for these sources and this Python), ``ftr run`` keeps using the Numba twin.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from reference.world.grid import Cell, Gridworld
    from reference.world.trace_arrays import TraceArrays

TWINS = Path(__file__).resolve().parents[1] / "solutions" / "compiled"
#: The most cells the twin's bucket queue takes (``LARGEST_GRID_BUCKETS`` of the twin, which
#: imports Numba): a larger grid goes to ``run_compiled``, which says why it cannot run it.
LARGEST_GRID = (2**31 - 1 - 8) // 4


def twin_sources_digest() -> str:
    """A digest of every ``*.py`` file of the compiled package, subpackages included (relative names
    and contents, in name order): about 3 ms."""
    digest = hashlib.sha256()
    for source in sorted(TWINS.rglob("*.py")):
        digest.update(source.relative_to(TWINS).as_posix().encode() + b"\0" + source.read_bytes() + b"\0")
    return digest.hexdigest()


def module_name_and_path() -> tuple[str, Path]:
    """The ahead-of-time module's name for the twins' present sources, and where it is kept."""
    name = "replanning_ahead_" + twin_sources_digest()[:16]
    return name, TWINS / "__pycache__" / (name + importlib.machinery.EXTENSION_SUFFIXES[0])


def load_ahead_of_time_module() -> ModuleType | None:
    """The ahead-of-time module built from the twins' present sources, imported; None when there is none
    (or it cannot be imported, e.g. after NumPy changed its binary interface)."""
    name, path = module_name_and_path()
    if not path.is_file():
        return None
    try:
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
        spec.loader.exec_module(module)  # type: ignore[union-attr]
    except ImportError:
        return None
    return module


def run_ahead_of_time(module: ModuleType, grid: Gridworld, start: Cell, target: Cell, algorithm: str,
                      tie_break: str, record_cells: bool) -> TraceArrays | None:
    """``run_compiled(grid, start, target, algorithm, tie_break, record_cells)`` through ``module``; None
    for what only ``run_compiled`` handles (a grid too large for the bucket queue, a start or target
    outside the grid or blocked: it raises the error)."""
    import numpy as np

    from reference.world.trace_arrays import TraceArrays

    height, width = int(grid.height), int(grid.width)
    inside = all(0 <= row < height and 0 <= col < width and not grid.blocked[row, col] for row, col in (start, target))
    if height * width > LARGEST_GRID or not inside:
        return None
    true_blocked = np.ascontiguousarray(grid.blocked, dtype=np.bool_).view(np.uint8).reshape(-1)
    result = module.run_on_fresh_state(
        true_blocked, height, width, start[0] * width + start[1], target[0] * width + target[1],
        algorithm == "backward", algorithm == "adaptive", tie_break == "larger_g", record_cells)
    reached, moves, trajectory, starts, goals, expanded, expanded_offsets, paths, path_offsets = result
    return TraceArrays(algorithm, tie_break, bool(reached), width, trajectory, starts, goals, expanded,
                       expanded_offsets, paths, path_offsets, int(moves), record_cells)


def can_build() -> bool:
    """A C compiler is there, the package's ``__pycache__`` is writable, and no build failed for
    these sources already."""
    import shlex  # here, not at the top: only a run that found no module asks
    import shutil
    import sysconfig

    _name, path = module_name_and_path()
    compiler = shlex.split(sysconfig.get_config_var("CC") or "cc")[:1]
    return (bool(compiler) and shutil.which(compiler[0]) is not None and os.access(path.parent, os.W_OK)
            and not _failure_note(path).exists())


def _failure_note(path: Path) -> Path:
    """Where a failed build of the module at ``path`` is written down: per Python, as the module is (a
    Python without setuptools or headers must not stop another Python sharing the folder from building)."""
    return path.with_name(path.name + ".failed")


def build_ahead_of_time_module(wait: bool = False) -> bool:
    """Build the module for the twins' present sources (about 20 CPU s), delete those of other sources,
    and say whether it is there; a failure is written down (``FILE.failed``) and not tried again.

    One process builds at a time (a lock file beside the module): where another is building it, this
    one leaves it to that one (``wait``: waits for it instead), so parallel runs never build twice."""
    import fcntl  # here: POSIX only, and only a run that found no module gets this far

    from reference.solutions.compiled.replanning import build_ahead_of_time

    name, path = module_name_and_path()
    with open(path.with_name(path.name + ".lock"), "w") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
        except BlockingIOError:
            return False  # another process is building it
        if path.is_file():
            return True  # built by another process meanwhile
        print("ftr: compiling the twin ahead of time, once, for quicker runs (about 20 s)", file=sys.stderr)
        try:
            build_ahead_of_time(path, name)
        except Exception as error:  # noqa: BLE001  (a missing header, a linker error, a Numba without pycc)
            try:
                _failure_note(path).write_text(f"{type(error).__name__}: {error}\n")
            except OSError:
                pass
            return False
    delete_other_sources(path.parent, name)
    return True


def delete_other_sources(folder: Path, name: str) -> None:
    """Delete the modules and failure notes in ``folder`` built from other sources than module ``name``'s;
    other Pythons' files of the same sources stay (each Python's extension suffix is its own).

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> for file in ("replanning_ahead_new.cpython-310-x86_64-linux-gnu.so", "replanning_ahead_new.cpython-313.so.failed",
    ...              "replanning_ahead_old.cpython-310-x86_64-linux-gnu.so", "replanning_ahead_old.abi3.so.failed"):
    ...     _ = (folder / file).write_text("")
    >>> delete_other_sources(folder, "replanning_ahead_new")
    >>> sorted(file.name for file in folder.iterdir())
    ['replanning_ahead_new.cpython-310-x86_64-linux-gnu.so', 'replanning_ahead_new.cpython-313.so.failed']
    """
    for other in folder.glob("replanning_ahead_*"):
        if not other.name.startswith(name + "."):
            other.unlink(missing_ok=True)
