"""Numba's cache and the twins: an edit of one compiled module must reach the functions that call it.

Numba keys a cached function on its own source file only, so a caller compiled with an old callee
keeps the old code after the callee is edited. `reference.solutions.compiled` clears its cache when
any of its sources changes. The test builds two tiny twin packages (one that clears its cache the
kit's way, one that does not), runs them in fresh interpreters, edits the callee, runs them again.
As in the kit's tree, the caller sits in a subpackage (its cache in the subpackage's ``__pycache__``)
and the callee at the top, so the clearing must look under subfolders.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytest.importorskip("numba")

REPO = Path(__file__).resolve().parents[2]

CALLEE = "from numba import njit\n\n@njit(cache=True)\ndef value():\n    return {}\n"
CALLER = "from numba import njit\nfrom ..callee import value\n\n@njit(cache=True)\ndef doubled():\n    return 2 * value()\n"
CLEARING_INIT = textwrap.dedent("""
    from pathlib import Path
    from reference.solutions.compiled import clear_stale_cache
    clear_stale_cache(Path(__file__).parent)
""")


def make_package(root: Path, name: str, init: str) -> Path:
    package = root / name
    package.mkdir()
    (package / "__init__.py").write_text(init)
    (package / "callee.py").write_text(CALLEE.format(1))
    (package / "twins").mkdir()
    (package / "twins" / "__init__.py").write_text("")
    (package / "twins" / "caller.py").write_text(CALLER)
    return package


def doubled(root: Path, name: str) -> int:
    code = f"from {name}.twins.caller import doubled; print(doubled())"
    # the kit on the child's path too, installed or not (the clearing package imports it)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))}
    result = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True,
                            env=env)
    return int(result.stdout)


def test_editing_a_callee_reaches_its_callers(tmp_path):
    clearing = make_package(tmp_path, "clearing", CLEARING_INIT)
    plain = make_package(tmp_path, "plain", "")
    assert doubled(tmp_path, "clearing") == 2 and doubled(tmp_path, "plain") == 2  # compiled and cached
    for package in (clearing, plain):
        (package / "callee.py").write_text(CALLEE.format(5))  # the caller's file is not touched
    assert doubled(tmp_path, "clearing") == 10
    if doubled(tmp_path, "plain") == 10:
        pytest.skip("this Numba no longer keeps stale callers: the clearing is not needed any more")
    # the plain package still answered 2 * 1: its caller ran the callee from the cache


def test_the_kit_fingerprints_its_own_sources():
    from reference.solutions import compiled
    from reference.solutions.compiled import FINGERPRINT_FILE, sources_fingerprint

    folder = Path(compiled.__file__).parent
    stamp = folder / "__pycache__" / FINGERPRINT_FILE
    if not os.access(folder, os.W_OK):
        pytest.skip("a read-only installation: Numba does not cache beside the sources")
    assert stamp.read_text() == sources_fingerprint(folder)  # written on import, and up to date
