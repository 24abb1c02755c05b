"""The plain sandbox as root: namespaces of the child's own without bubblewrap.

Between fork and exec (:func:`enter_namespaces_and_cover`): new mount, network, IPC and UTS namespaces, in
which the kit, its source checkout and every site-packages folder are covered by an empty read-only
tmpfs and the shared scratch folders by private size-capped ones (the sandbox folder bound back in
place when it lies under one). Then util-linux's ``unshare``
gives the child a PID namespace of its own with its own ``/proc`` (it sees no other process, not a
classmate's command line) and ``setpriv`` switches to the child's uid and its submission's group
(:func:`namespace_prefix`). A network namespace of its own has no interface but a down loopback,
and abstract unix sockets belong to it: two children cannot talk. Linux only (``unshare``, ``mount``
through ctypes).

>>> kit_folders()[0] == KIT_ROOT
True
"""

from __future__ import annotations

import errno
import json
import os
from collections.abc import Sequence
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
_CLONE_NEWUTS, _CLONE_NEWIPC, _CLONE_NEWNET = 0x04000000, 0x08000000, 0x40000000  # host name, SysV IPC, network
_MS_RDONLY, _MS_NOSUID, _MS_NODEV, _MS_NOEXEC = 1, 2, 4, 8
_MS_REC, _MS_PRIVATE = 0x4000, 0x40000         # mount(2): make every mount private, recursively
_MS_BIND = 0x1000                              # mount(2): the same folder at a second place


def _cover(hidden: list[str], scratch: list[tuple[str, str]], keep: Sequence[str] = ()) -> None:
    """In a forked child, before exec: enter new mount, network, IPC and UTS namespaces, lay an empty
    read-only tmpfs over each of ``hidden`` and a writable one (``(path, options)``) over each of
    ``scratch``; a folder of ``keep`` (the sandbox folder under ``/tmp``) that a scratch mount hides is
    bound back at its place. Only this child (and what it starts) sees them."""
    import ctypes
    import ctypes.util

    libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
    if libc.unshare(_CLONE_NEWNS | _CLONE_NEWNET | _CLONE_NEWIPC | _CLONE_NEWUTS) != 0:
        raise OSError(ctypes.get_errno(), "unshare(mount, network, IPC and UTS namespaces) failed")
    if libc.mount(b"none", b"/", None, _MS_REC | _MS_PRIVATE, None) != 0:
        error = ctypes.get_errno()
        # In a chroot "/" is no mount point (EINVAL). The covers below stay in this namespace all the
        # same when no mount propagates ("shared:" in mountinfo); otherwise they would reach the host.
        if error != errno.EINVAL or _any_shared_mount():
            raise OSError(error, "making the mounts private failed")
    # Opened in the new namespace (a bind's source must be one of its mounts), before anything covers them.
    kept = {folder: os.open(folder, os.O_PATH | os.O_DIRECTORY) for folder in keep}
    flags = _MS_RDONLY | _MS_NOSUID | _MS_NODEV | _MS_NOEXEC
    for path in hidden:
        if libc.mount(b"tmpfs", os.fsencode(path), b"tmpfs", flags, b"size=4k,mode=0555") != 0:
            raise OSError(ctypes.get_errno(), f"covering {path} failed")
    for path, options in scratch:
        if libc.mount(b"tmpfs", os.fsencode(path), b"tmpfs", _MS_NOSUID | _MS_NODEV, options.encode()) != 0:
            raise OSError(ctypes.get_errno(), f"a scratch tmpfs on {path} failed")
        for folder, descriptor in kept.items():
            if folder != path and inside(folder, path):
                below = folder[len(path.rstrip("/")):].strip("/").split("/")
                for depth in range(1, len(below) + 1):  # root's, in the fresh tmpfs: passable, not listable
                    step = os.path.join(path, *below[:depth])
                    os.makedirs(step, exist_ok=True)
                    os.chmod(step, 0o711)
                source = f"/proc/self/fd/{descriptor}".encode()
                if libc.mount(source, os.fsencode(folder), None, _MS_BIND | _MS_REC, None) != 0:
                    raise OSError(ctypes.get_errno(), f"binding {folder} back over the scratch tmpfs failed")
    for descriptor in kept.values():
        os.close(descriptor)


def _any_shared_mount() -> bool:
    """Does any mount of this namespace propagate to a peer (a ``shared:N`` field in mountinfo)?"""
    try:
        with open("/proc/self/mountinfo", encoding="utf-8", errors="replace") as mounts:
            return any(" shared:" in line.split(" - ")[0] for line in mounts)
    except OSError:
        return True  # cannot tell: assume the worst


def enter_namespaces_and_cover(hidden: list[str], scratch: list[tuple[str, str]], keep: list[str], folder: str):
    """The plain sandbox as root, between fork and exec: namespaces and covers (root is still needed by
    :func:`namespace_prefix`, which then drops to the child's uid); ``keep``: folders bound back where
    a scratch mount hides them; then into ``folder`` again, now the scratch tmpfs mounted on it
    (subprocess changed into it before this ran, into the folder underneath)."""
    def setup() -> None:
        _cover(hidden, scratch, keep)
        os.chdir(folder)
    return setup


#: util-linux's programs the plain root sandbox runs the child through (Debian: package util-linux).
NAMESPACE_TOOLS = ("unshare", "setpriv")


def namespace_tools() -> tuple[str, str] | None:
    """The paths of ``unshare`` and ``setpriv`` (util-linux), or None where either is missing."""
    found = [next((f"{d}/{name}" for d in ("/usr/bin", "/bin", "/usr/sbin", "/sbin") if os.access(f"{d}/{name}", os.X_OK)),
                  None) for name in NAMESPACE_TOOLS]
    return (found[0], found[1]) if found[0] and found[1] else None


def namespace_prefix(uid: int, group: int, network: bool = False, covered: bool = False) -> list[str]:
    """The command line before the child's own: a PID namespace of its own with its own ``/proc``
    (``unshare --pid --fork --mount-proc``; the child's tree dies with it, ``--kill-child``), then the
    child's ``uid`` with its submission's ``group`` as the only other group (``setpriv``).
    ``network``: new network, IPC and UTS namespaces too (where no :func:`enter_namespaces_and_cover` made them).
    ``covered``: the child is already in :func:`enter_namespaces_and_cover`'s private mount namespace, so
    ``unshare`` leaves mount propagation as it is (making ``/`` private fails in a chroot, where
    ``/`` is no mount point; :func:`_cover` checked that nothing there propagates).

    >>> namespace_prefix(3500001, 3500002)[-6:]
    ['--reuid', '3500001', '--regid', '3500001', '--groups', '3500002']
    """
    unshare, setpriv = namespace_tools() or ("unshare", "setpriv")
    return [unshare, "--pid", "--fork", "--kill-child", "--mount-proc", *(["--net", "--ipc", "--uts"] if network else []),
            *(["--propagation", "unchanged"] if covered else []), "--", setpriv, "--reuid", str(uid), "--regid", str(uid), "--groups", str(group)]


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
