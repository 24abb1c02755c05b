"""NumPy for the sandboxed child, wherever the grader found it, and nothing else of that environment.

The child runs ``python -I -S``: no site-packages, so it cannot import a venv's (or conda's) NumPy,
and it must not see the environment anyway (a venv with the kit installed carries
``reference/solutions``). So the grader finds out which top-level folders of site-packages
``import numpy`` really loads (its modules, and the shared libraries it maps: ``numpy.libs/``),
in a fresh interpreter, and makes a **child site folder** holding only those: copies, never hard
links (a hard link is the grader's own file: a child that may write one changes the grader's NumPy),
world-readable, made once per NumPy installation and kept (``/var/lib/ftr-kit/child-site`` for
root, a cache folder of the user's otherwise). The child puts that folder, and no other, on its
``sys.path``. A manifest of every file's SHA-256 is written with it, and :func:`changed_files`
compares the folder with it before each student (a student who could write the folder would
otherwise reach the next student's grading).

>>> top_level_entries(["/venv/site/numpy/__init__.py", "/venv/site/numpy.libs/libx.so", "/usr/lib/x.so"],
...                   "/venv/site")
['numpy', 'numpy.libs']
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

#: Top-level names that belong to the kit: a child site folder never holds them.
KIT_PACKAGES = ("reference", "autograder", "course", "ftr_kit")

#: Run in a fresh interpreter (``-I -S``, only NumPy's folder on the path): what ``import numpy`` loads.
_DISCOVER = r"""
import json, sys
before = set(sys.modules)
import numpy
files = [getattr(m, "__file__", None) for n, m in list(sys.modules.items()) if n not in before]
libraries = []
try:
    with open("/proc/self/maps") as maps:
        libraries = sorted({line.split(None, 5)[5].strip() for line in maps
                            if len(line.split(None, 5)) == 6 and line.split(None, 5)[5].startswith("/")})
except OSError:
    pass
print(json.dumps({"files": [f for f in files if f], "libraries": libraries, "version": numpy.__version__}))
"""


class ChildSiteError(RuntimeError):
    """NumPy cannot be given to the child (not installed, or not loadable on its own)."""


def top_level_entries(paths: list[str], site: str) -> list[str]:
    """The first path component, below ``site``, of each path that lies in ``site`` (sorted, distinct)."""
    site_path = Path(site)
    entries = set()
    for path in paths:
        try:
            relative = Path(path).relative_to(site_path)
        except ValueError:
            continue
        if relative.parts:
            entries.add(relative.parts[0])
    return sorted(entries)


def numpy_site() -> str:
    """The site folder that holds the NumPy this interpreter imports (a venv's, conda's, the system's)."""
    spec = importlib.util.find_spec("numpy")
    if spec is None or not spec.submodule_search_locations:
        raise ChildSiteError(f"NumPy is not installed for {sys.executable} (pip install numpy)")
    return str(Path(list(spec.submodule_search_locations)[0]).resolve().parent)


def numpy_entries(python: str, site: str) -> tuple[list[str], str]:
    """(top-level entries of ``site`` that ``import numpy`` loads in ``python -I -S``, NumPy's version)."""
    bootstrap = f"import sys; sys.path.append({site!r})\n" + _DISCOVER
    try:
        result = subprocess.run([python, "-I", "-S", "-c", bootstrap], capture_output=True, text=True, timeout=120,
                                cwd=tempfile.gettempdir())
    except (OSError, subprocess.SubprocessError) as error:
        raise ChildSiteError(f"{python} could not be run to find NumPy's files: {error}") from None
    if result.returncode != 0:
        last = (result.stderr.strip().splitlines() or ["(no message)"])[-1]
        raise ChildSiteError(f"{python} -I -S cannot import the NumPy in {site}: {last}")
    found = json.loads(result.stdout.strip().splitlines()[-1])
    entries = top_level_entries(found["files"] + found["libraries"], site)
    # The wheels' vendored libraries (numpy.libs/: manylinux and Windows) even where no /proc/self/maps
    # shows what was loaded (macOS keeps them inside the package: numpy/.dylibs).
    entries = sorted(set(entries) | {f"{e}.libs" for e in entries if os.path.isdir(os.path.join(site, f"{e}.libs"))})
    kit = [entry for entry in entries if entry.split(".")[0] in KIT_PACKAGES]
    if kit or "numpy" not in entries:
        raise ChildSiteError(f"importing NumPy from {site} loads {', '.join(kit) or 'no numpy folder'}: "
                             "refusing to give that to the child")
    return entries, found["version"]


def state_dir() -> Path:
    """Where the grader keeps what it makes once: root's is machine-wide, a user's is in their cache."""
    override = os.environ.get("FTR_KIT_STATE_DIR")
    if override:
        return Path(override)
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        return Path("/var/lib/ftr-kit")
    cache = os.environ.get("XDG_CACHE_HOME") or os.environ.get("LOCALAPPDATA")
    return (Path(cache) if cache else Path.home() / ".cache") / "ftr-kit"


def _owned_folder(folder: Path) -> Path:
    """``folder`` made (0755) if missing; refused unless it is a real folder of this user."""
    folder.mkdir(mode=0o755, parents=True, exist_ok=True)
    info = os.lstat(folder)
    if os.path.islink(folder) or not os.path.isdir(folder) or (hasattr(os, "geteuid") and info.st_uid != os.geteuid()):
        raise ChildSiteError(f"{folder} is not this user's own folder (someone else made it): remove it")
    return folder


def _copy(source: str | Path, target: str | Path) -> None:
    """A copy of the file's bytes, mode 0644 (never a link: the grader's own file must stay out of reach)."""
    shutil.copyfile(source, target)
    os.chmod(target, 0o644)


#: The manifest of a child site folder: ``{relative path: sha256}`` of every file in it.
MANIFEST = ".manifest.json"


def manifest_of(folder: Path) -> dict[str, str]:
    """``{relative path: SHA-256}`` of every file below ``folder`` (links count as changes: ``"link"``).

    >>> import tempfile; d = Path(tempfile.mkdtemp()); _ = (d / "a.py").write_text("x = 1")
    >>> manifest_of(d)["a.py"] == hashlib.sha256(b"x = 1").hexdigest()
    True
    """
    found = {}
    for path in sorted(folder.rglob("*")):
        name = path.relative_to(folder).as_posix()
        if name in (MANIFEST, ".source"):
            continue
        if path.is_symlink():
            found[name] = "link"
        elif path.is_file():
            digest = hashlib.sha256()
            with open(path, "rb") as file:
                for block in iter(lambda: file.read(1 << 20), b""):
                    digest.update(block)
            found[name] = digest.hexdigest()
    return found


def changed_files(folder: Path) -> list[str]:
    """The files of a child site folder that differ from its manifest (added, removed, changed, or
    any file with more than one link or writable by others); [] when it is as it was made."""
    try:
        expected = json.loads((folder / MANIFEST).read_text())
    except (OSError, ValueError):
        return [MANIFEST]
    found = manifest_of(folder)
    changed = sorted(name for name in set(expected) | set(found) if expected.get(name) != found.get(name))
    for path in [folder, *folder.rglob("*")]:
        info = os.lstat(path)
        if info.st_mode & 0o022 or (not path.is_dir() and info.st_nlink > 1):
            changed.append(path.relative_to(folder).as_posix() or ".")
    return changed


def prune_child_sites(folders: Path) -> list[Path]:
    """Remove the child site folders whose NumPy installation is gone (a deleted venv); return them."""
    removed = []
    for folder in folders.glob("numpy-*"):
        try:
            source = (folder / ".source").read_text()
        except OSError:
            continue  # made by an older kit: left alone
        if not os.path.isdir(source):
            shutil.rmtree(folder, ignore_errors=True)
            removed.append(folder)
    return removed


def make_child_site(python: str, site: str | None = None) -> Path:
    """The child site folder for ``python``'s NumPy: made once (atomically), then found again.

    Its name is a hash of where NumPy lives, what it loads and when it was installed, so a NumPy
    upgraded in place gets a new folder. Everything in it is world-readable (the child's uid reads it).
    """
    site = site or numpy_site()
    entries, version = numpy_entries(python, site)
    stamp = [site, version, entries, "copies+manifest"] + [os.stat(Path(site) / entry).st_mtime_ns for entry in entries]
    key = hashlib.sha256(json.dumps(stamp).encode()).hexdigest()[:16]
    try:
        folders = _owned_folder(state_dir() / "child-site")
    except OSError:  # a read-only /var/lib or home (some containers): the temporary folder instead
        folders = _owned_folder(Path(tempfile.gettempdir()) / "ftr-kit-child-site")
    target = folders / f"numpy-{version}-{key}"
    if target.is_dir() and not changed_files(target):
        return target
    if target.is_dir():  # changed since it was made: made again
        shutil.rmtree(target)
    prune_child_sites(folders)
    building = Path(tempfile.mkdtemp(prefix=".building-", dir=folders))
    try:
        (building / ".source").write_text(site)
        for entry in entries:
            source = Path(site) / entry
            if source.is_dir():
                shutil.copytree(source, building / entry, copy_function=_copy, symlinks=False,
                                ignore=shutil.ignore_patterns("__pycache__", "tests"))
            else:
                _copy(source, building / entry)
        for path in [building, *building.rglob("*")]:
            if path.is_dir():
                path.chmod(0o755)
        (building / MANIFEST).write_text(json.dumps(manifest_of(building), indent=0))
        (building / MANIFEST).chmod(0o644)
        try:
            os.rename(building, target)
        except OSError:
            if not target.is_dir():  # not a rival grader that finished first
                raise
    finally:
        if building.exists():
            shutil.rmtree(building, ignore_errors=True)
    return target
