"""The plain sandbox as root, between fork and exec: a mount namespace of the child's own in which the
kit, its source checkout and every site-packages folder are covered by an empty read-only tmpfs and the
shared scratch folders by private size-capped ones; then the child's uid. Linux only (``unshare``,
``mount`` through ctypes).

>>> kit_folders()[0] == KIT_ROOT
True
"""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path

from .bubblewrap import inside

KIT_ROOT = Path(__file__).resolve().parents[1]


def kit_folders() -> list[Path]:
    """The kit's folder, and the source checkout a non-editable install was made from (pip's direct_url.json)."""
    folders = [KIT_ROOT]
    for record in KIT_ROOT.glob("ftr_kit-*.dist-info/direct_url.json"):
        try:
            url = json.loads(record.read_text()).get("url", "")
        except (OSError, ValueError):
            continue
        if url.startswith("file://") and Path(url[len("file://"):]).is_dir():
            folders.append(Path(url[len("file://"):]))
    return folders


_CLONE_NEWNS = 0x00020000                      # unshare(2): a private copy of the mount table
_MS_RDONLY, _MS_NOSUID, _MS_NODEV, _MS_NOEXEC = 1, 2, 4, 8
_MS_REC, _MS_PRIVATE = 0x4000, 0x40000         # mount(2): make every mount private, recursively


def _cover(hidden: list[str], scratch: list[tuple[str, str]]) -> None:
    """In a forked child, before exec: enter a new mount namespace, lay an empty read-only tmpfs over
    each of ``hidden`` and a writable one (``(path, options)``) over each of ``scratch``. Only this
    child (and what it starts) sees them."""
    import ctypes
    import ctypes.util

    libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
    if libc.unshare(_CLONE_NEWNS) != 0:
        raise OSError(ctypes.get_errno(), "unshare(CLONE_NEWNS) failed")
    if libc.mount(b"none", b"/", None, _MS_REC | _MS_PRIVATE, None) != 0:
        error = ctypes.get_errno()
        # In a chroot "/" is no mount point (EINVAL). The covers below stay in this namespace all the
        # same when no mount propagates ("shared:" in mountinfo); otherwise they would reach the host.
        if error != errno.EINVAL or _any_shared_mount():
            raise OSError(error, "making the mounts private failed")
    flags = _MS_RDONLY | _MS_NOSUID | _MS_NODEV | _MS_NOEXEC
    for path in hidden:
        if libc.mount(b"tmpfs", os.fsencode(path), b"tmpfs", flags, b"size=4k,mode=0555") != 0:
            raise OSError(ctypes.get_errno(), f"covering {path} failed")
    for path, options in scratch:
        if libc.mount(b"tmpfs", os.fsencode(path), b"tmpfs", _MS_NOSUID | _MS_NODEV, options.encode()) != 0:
            raise OSError(ctypes.get_errno(), f"a scratch tmpfs on {path} failed")


def _any_shared_mount() -> bool:
    """Does any mount of this namespace propagate to a peer (a ``shared:N`` field in mountinfo)?"""
    try:
        with open("/proc/self/mountinfo", encoding="utf-8", errors="replace") as mounts:
            return any(" shared:" in line.split(" - ")[0] for line in mounts)
    except OSError:
        return True  # cannot tell: assume the worst


def cover_and_switch(hidden: list[str], scratch: list[tuple[str, str]], uid: int):
    """The plain sandbox as root, between fork and exec: cover (needs root), then become ``uid``."""
    def setup() -> None:
        _cover(hidden, scratch)
        os.setgroups([])
        os.setgid(uid)
        os.setuid(uid)
    return setup


def paths_to_cover(python: str, sandbox_root: Path, site_packages: tuple[str, ...] = ()) -> list[str]:
    """The folders to hide from a plain child: the kit's folder and every site-packages folder, unless
    the child needs something in one (its interpreter, its sandbox); the probe refuses what stays reachable."""
    needed = [os.path.realpath(python), os.path.abspath(python), os.path.realpath(sandbox_root)]
    folders = sorted({*(str(f) for f in kit_folders()), *site_packages}, key=len)
    chosen: list[str] = []
    for folder in folders:  # outer folders first; one inside a covered folder is hidden already
        if (os.path.isdir(folder) and not any(inside(path, folder) for path in needed)
                and not any(inside(folder, outer) for outer in chosen)):
            chosen.append(folder)
    return chosen
