"""Compiled twins (Numba) of the readable reference planners: same traces, expansion for expansion (SPEC §16).

Numba caches each compiled function beside its source (``__pycache__/*.nbi`` and ``*.nbc``) and
keys that cache on its own file alone. The twins call one another's functions (the planners
compile the heap of ``heap.py`` into themselves), so after an edit of ``heap.py`` a planner would
keep running the old heap from its cache. On import this package therefore fingerprints all its
sources together and clears the cache when any of them changed (:func:`clear_stale_cache`).
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from reference.world.fileio import atomic_write_text

#: The fingerprint of the sources the cache was built from, kept beside the cache.
FINGERPRINT_FILE = "twin-sources.sha256"


def sources_fingerprint(folder: Path) -> str:
    """A digest of every ``*.py`` file in ``folder`` (names and contents, in name order)."""
    digest = hashlib.sha256()
    for source in sorted(folder.glob("*.py")):
        digest.update(source.name.encode() + b"\0" + source.read_bytes() + b"\0")
    return digest.hexdigest()


def clear_stale_cache(folder: Path) -> bool:
    """Delete Numba's cache files in ``folder/__pycache__`` unless they were built from the sources
    ``folder`` holds now; returns True when it cleared them.

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
        for stale in [*cache.glob("*.nbi"), *cache.glob("*.nbc")]:
            stale.unlink(missing_ok=True)
        atomic_write_text(cache / FINGERPRINT_FILE, fingerprint)
    except OSError:
        return False  # a read-only installation: Numba then does not cache here either
    return True


clear_stale_cache(Path(__file__).parent)
