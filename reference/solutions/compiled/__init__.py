"""Compiled twins (Numba) of the readable reference planners: same traces, expansion for expansion (SPEC §16).

``compiled/`` mirrors the readable tree file by file: every module here is named after the readable
module whose code it compiles (``compiled/X.py`` after ``reference/solutions/X.py``, and
``compiled/P/X.py`` after ``P/X.py`` in the packages ``realtime/``, ``subgoaling/``, ``haa/`` and
``dynamic/``), except ``buckets.py``, the twins' own OPEN list. Only what the experiments run at
scale has a twin, and a twin may hold more than its namesake: the ``__init__`` of ``realtime/`` and
``subgoaling/`` hold the public runs. A twin called as the readable code is called has the readable name
(``astar``, ``build_abstraction``, ``annotated_astar``, ``haa_star``, ``lrta_star``,
``lrta_star_lookahead``, ``lrta_star_bfs``, ``dstar_lite``, ``astar_run``, ``lrta_star_subgoaling``,
``build_knn_database``, ``knn_lrta_star``, ``build_d_lrta_database``, ``d_lrta_star``, the
``ALGORITHMS`` registries, ``RealtimeRun``, ``KnownMapRun``); one that takes or returns the twins'
arrays is named for that: ``heap.py``'s functions over one array (Numba compiles functions, not the
readable ``BinaryHeap`` class), Repeated A*'s ``run_compiled`` (a ``TraceArrays``), dynamic control's
``general_lrta_compiled``, ``build_pattern_database_compiled``, ``collect_samples_compiled`` and
``oracle_compiled`` (docs/contract.md section 16 lists the pairs; ``tests/compiled/test_twin_names.py``
holds this paragraph to the tree). The twin code depends on the readable tree (its records,
databases and checks), never the other way round: no readable module offers the compiled engine; the
engine switch lives here, on the twins' side. Importing this package does two things before any twin
is imported:

* **Starts Numba lightly** (:func:`start_numba`). ``import numba`` imports ``scipy`` only to check
  its version; SciPy is answered "not installed" while Numba imports (afterwards it imports normally,
  and Numba finds it where it needs it). And Numba, before loading any function from its cache,
  fills its registries of implementations (``refresh()`` of the target context: several dozen
  modules, ``numba.np.arraymath`` importing ``scipy.linalg`` for its BLAS probe, the extensions'
  entry points), which only the compiler reads. :func:`load_cached_code_lightly` makes a load from
  the cache start the runtime (NRT) alone, as the loaded code needs, and leaves the registries to the
  compiler, which fills them itself before compiling anything: a warm ``ftr run`` never fills them
  (0.15-0.2 CPU s of about 0.8, docs/speed.md), a cold one or any other compilation as before.
  And the runtime's own functions, which Numba builds with LLVM in every process, are saved once
  as object code and loaded after (:func:`cache_runtime_code`).
* **Clears a stale cache.** Numba caches each compiled function beside its source
  (``__pycache__/*.nbi`` and ``*.nbc``) and keys that cache on its own file alone. The twins call
  one another's functions (the planners compile the heap of ``heap.py`` into themselves), so after
  an edit of ``heap.py`` a planner would keep running the old heap from its cache. The package
  therefore fingerprints all its sources together, subpackages included, and clears every cache
  folder of the tree when any of them changed (:func:`clear_stale_cache`).
"""

from __future__ import annotations

import hashlib
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from reference.world.fileio import atomic_write_bytes, atomic_write_text


@contextmanager
def modules_hidden(*names: str) -> Iterator[None]:
    """Inside the block, ``import NAME`` raises ImportError for each NAME not imported yet.

    A ``None`` in ``sys.modules`` is Python's own "this module does not exist"; a name already
    imported is left alone (hiding it would gain nothing), and the entries are removed afterwards.

    >>> with modules_hidden("no_such_module_here"):
    ...     try:
    ...         import no_such_module_here
    ...     except ImportError:
    ...         print("hidden")
    hidden
    >>> "no_such_module_here" in sys.modules
    False
    """
    hidden = [name for name in names if name not in sys.modules]
    for name in hidden:
        sys.modules[name] = None  # type: ignore[assignment]
    try:
        yield
    finally:
        for name in hidden:
            if name in sys.modules and sys.modules[name] is None:
                del sys.modules[name]


def start_numba() -> None:
    """Import Numba with SciPy hidden, then :func:`load_cached_code_lightly` and
    :func:`cache_runtime_code` (in this package's ``__pycache__``)."""
    with modules_hidden("scipy"):
        import numba  # noqa: F401  (its version check of SciPy is skipped: pyproject.toml requires one)
    load_cached_code_lightly()
    cache_runtime_code(Path(__file__).parent / "__pycache__")


def load_cached_code_lightly() -> None:
    """Make Numba's cache load a compiled function without first filling the registries.

    Numba's ``Cache.load_overload`` calls ``target_context.refresh()`` (which imports and registers
    every implementation Numba has, for the compiler) and then ``_load_overload`` (which reads the
    index and the object code and links it). Code loaded from the cache needs of that only the
    runtime its arrays are allocated by, ``rtsys.initialize`` (it is what ``refresh()`` starts with). So
    this replaces ``load_overload`` with: start the runtime, load. If the light load fails in any way,
    Numba's own ``load_overload`` runs instead; a cache miss returns None as before, and the
    compiler then fills the registries itself (``compile_extra`` refreshes both contexts). The
    replacement is process-wide, for every cached function (the kit's or not): a cache hit of any
    Numba function loads this way. ``tests/cli/test_cli_startup.py`` holds that a warm twin's run
    fills no registries and that compiling afterwards still works.
    """
    from numba.core.caching import Cache
    from numba.core.runtime import rtsys

    numba_load_overload = Cache.load_overload
    if getattr(numba_load_overload, "loads_lightly", False):
        return  # done already in this process

    def load_overload(self, sig, target_context):  # type: ignore[no-untyped-def]
        try:
            rtsys.initialize(target_context)
            with self._guard_against_spurious_io_errors():
                return self._load_overload(sig, target_context)
        except Exception:  # anything this Numba needs that the light load lacks: its own way
            return numba_load_overload(self, sig, target_context)

    load_overload.loads_lightly = True  # type: ignore[attr-defined]
    Cache.load_overload = load_overload  # type: ignore[method-assign]


def cache_runtime_code(folder: Path) -> None:
    """Make Numba's runtime (NRT) load its compiled functions from ``folder`` rather than compile them.

    Every process that runs compiled code starts Numba's runtime, and Numba builds the runtime's
    own functions (reference counting, allocation) from LLVM IR in each process: about 0.1 CPU s,
    a sixth of a warm ``ftr run`` (docs/speed.md). Their machine code depends only on Numba, llvmlite
    and the CPU, so this saves it once, as Numba saves a cached function (object code plus the
    bitcode it links against), in ``folder/numba-runtime-KEY.nbo`` with KEY a digest of those three,
    and later processes load it (about 0.01 s). A damaged file is built again and replaced; a
    read-only folder leaves Numba compiling in every process, as before; any other failure (a Numba
    that differs inside) falls back to Numba's own ``compile_nrt_functions``. Called again with another
    folder before the runtime starts, it moves there (the package's import points it at its own).
    ``tests/cli/test_cli_startup.py`` holds that a warm process compiles no runtime and still runs.
    """
    from numba.core.runtime import nrtdynmod

    current = nrtdynmod.compile_nrt_functions
    if getattr(current, "cached_in", None) == folder:
        return  # done already in this process
    numba_compile = getattr(current, "numba_own", current)   # Numba's, if another folder was set

    def compile_nrt_functions(context):  # type: ignore[no-untyped-def]
        import pickle

        import llvmlite
        import numba

        try:
            key = hashlib.sha256(repr((numba.__version__, llvmlite.__version__,
                                       context.codegen().magic_tuple())).encode()).hexdigest()[:16]
            saved = folder / f"numba-runtime-{key}.nbo"
            if saved.is_file():
                try:
                    return context.codegen().unserialize_library(pickle.loads(saved.read_bytes()))
                except Exception:  # a damaged file: built again below and replaced
                    pass
            module, library = nrtdynmod.create_nrt_module(context)   # Numba's compile_nrt_functions,
            library.enable_object_caching()                          # keeping the object code
            library.add_ir_module(module)
            library.finalize()
            try:
                atomic_write_bytes(saved, pickle.dumps(library.serialize_using_object_code(), protocol=4))
            except OSError:
                pass   # a read-only installation: compiled in every process, as Numba does
            return library
        except Exception:  # anything this Numba does differently: its own way
            return numba_compile(context)

    compile_nrt_functions.cached_in = folder  # type: ignore[attr-defined]
    compile_nrt_functions.numba_own = numba_compile  # type: ignore[attr-defined]
    nrtdynmod.compile_nrt_functions = compile_nrt_functions


#: The fingerprint of the sources the cache was built from, kept beside the cache.
FINGERPRINT_FILE = "twin-sources.sha256"


def sources_fingerprint(folder: Path) -> str:
    """A digest of every ``*.py`` file under ``folder``, subfolders included (relative names and
    contents, in name order)."""
    digest = hashlib.sha256()
    for source in sorted(folder.rglob("*.py")):
        name = source.relative_to(folder).as_posix()
        digest.update(name.encode() + b"\0" + source.read_bytes() + b"\0")
    return digest.hexdigest()


def clear_stale_cache(folder: Path) -> bool:
    """Delete Numba's cache files in every ``__pycache__`` under ``folder`` unless they were built from
    the sources ``folder`` holds now; returns True when it cleared them.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp()); _ = (folder / "twin.py").write_text("x = 1")
    >>> clear_stale_cache(folder), clear_stale_cache(folder)    # first sight, then unchanged
    (True, False)
    """
    cache = folder / "__pycache__"
    fingerprint = sources_fingerprint(folder)
    try:
        if (cache / FINGERPRINT_FILE).read_text() == fingerprint:
            return False
    except OSError:
        pass  # no fingerprint yet: the cache (if any) is of unknown sources
    try:
        cache.mkdir(exist_ok=True)
        for stale in [*folder.rglob("__pycache__/*.nbi"), *folder.rglob("__pycache__/*.nbc")]:
            stale.unlink(missing_ok=True)
        atomic_write_text(cache / FINGERPRINT_FILE, fingerprint)
    except OSError:
        return False  # a read-only installation: Numba then does not cache here either
    return True


clear_stale_cache(Path(__file__).parent)
start_numba()
