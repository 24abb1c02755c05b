"""The C baseline (bench/c/ftr.c), built at bench time with ``cc -O2`` and called through ctypes.

``build()`` compiles the library into a temporary folder, loads it and deletes the folder (nothing
but the source is ever kept; :func:`load_shared_library`, which ``bench/independent.py`` uses for
``bench/c/student.c`` too); it returns None when no C compiler is present, so the benchmark can
skip the column.
``c_run(...)`` returns the run as :class:`~reference.world.trace_arrays.TraceArrays`, so its traces
can be compared cell for cell with the compiled twin's.
"""

from __future__ import annotations

import ctypes
import shutil
import subprocess
import tempfile
from pathlib import Path

import numpy as np

from reference.solutions.compiled.replanning import LARGEST_GRID
from reference.world.trace_arrays import TraceArrays

SOURCE = Path(__file__).with_name("c") / "ftr.c"
TRAJECTORY, STARTS, GOALS, EXPANDED, EXPANDED_COUNTS, PATHS, PATH_COUNTS = range(7)

_library: ctypes.CDLL | None = None


def c_compiler() -> str | None:
    """The C compiler on the PATH (``cc``, else ``gcc``, else ``clang``); None if there is none."""
    return shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")


def load_shared_library(source: Path) -> ctypes.CDLL | None:
    """``source`` compiled with ``cc -O2`` into a temporary folder as a shared library and loaded;
    None if there is no compiler. The folder is deleted once the library is loaded."""
    compiler = c_compiler()
    if compiler is None:
        return None
    folder = Path(tempfile.mkdtemp(prefix="ftr-c-"))
    target = folder / f"lib{source.stem}.so"
    subprocess.run([compiler, "-O2", "-shared", "-fPIC", "-o", str(target), str(source)], check=True)
    library = ctypes.CDLL(str(target))
    shutil.rmtree(folder)  # the loaded library stays mapped; nothing is left behind
    return library


def build() -> ctypes.CDLL | None:
    """Compile bench/c/ftr.c with ``cc -O2`` (once per process); None if there is no compiler."""
    global _library
    if _library is not None:
        return _library
    library = load_shared_library(SOURCE)
    if library is None:
        return None
    library.ftr_run.restype = ctypes.c_void_p
    library.ftr_run.argtypes = [ctypes.c_void_p] + [ctypes.c_int32] * 4 + [ctypes.c_int] * 5
    library.ftr_counts.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
    library.ftr_copy.restype = ctypes.c_int64
    library.ftr_copy.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p]
    library.ftr_free.argtypes = [ctypes.c_void_p]
    _library = library
    return library


def c_run(true_blocked: np.ndarray, height: int, width: int, start, target, algorithm: str,
          tie_break: str, queue: str = "heap", record_cells: bool = True) -> tuple[TraceArrays, int]:
    """One run in C on the flat uint8 grid ``true_blocked``: (the trace as arrays, state bytes).

    ``queue`` is OPEN, as in the compiled twin: ``"heap"`` (the binary heap) or ``"buckets"``;
    ``record_cells=False`` keeps only the counts, as the twin's."""
    if queue == "heap" and height * width > LARGEST_GRID:  # the packed int64 key would overflow
        raise ValueError(f"C's heap packs keys into 64 bits: at most {LARGEST_GRID:,} cells, not {height * width:,}")
    library = build()
    run = library.ftr_run(true_blocked.ctypes.data, height, width, start[0] * width + start[1],
                          target[0] * width + target[1], algorithm == "backward", algorithm == "adaptive",
                          tie_break == "larger_g", queue == "buckets", record_cells)
    try:
        counts = np.zeros(5, np.int64)
        library.ftr_counts(run, counts.ctypes.data)

        def copy(which: int) -> np.ndarray:
            out = np.empty(library.ftr_copy(run, which, None), np.int32)
            library.ftr_copy(run, which, out.ctypes.data)
            return out

        def offsets(which: int) -> np.ndarray:
            return np.concatenate([[0], np.cumsum(copy(which), dtype=np.int64)])

        arrays = TraceArrays(algorithm, tie_break, bool(counts[0]), width, copy(TRAJECTORY), copy(STARTS),
                             copy(GOALS), copy(EXPANDED), offsets(EXPANDED_COUNTS), copy(PATHS),
                             offsets(PATH_COUNTS), int(counts[3]), record_cells)
        return arrays, int(counts[4])
    finally:
        library.ftr_free(run)
