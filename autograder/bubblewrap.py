"""The bubblewrap command line for one child: what its file system holds, what is covered, what is read-only.

Bubblewrap (``bwrap``, the sandbox Flatpak uses) gives the child its own PID, mount, network, IPC,
UTS and user namespaces. Its file system holds only ``/usr`` (and the root's links into it), the
dynamic linker's files, the interpreter's prefix when it is not in ``/usr``, the child site folder
(NumPy only), the sandbox's library folder and the submission, all read-only; every site-packages
folder inside a bound folder is covered by an empty tmpfs; ``/tmp``, ``/dev/shm`` and the working
folder are private size-capped tmpfs mounts; bubblewrap's own root, ``/dev`` and the covers are
remounted read-only.

>>> inside("/usr/lib/python3/dist-packages", "/usr"), inside("/usrx", "/usr")
(True, False)
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

#: Where the sandbox's own folders appear inside bubblewrap.
INSIDE = "/sandbox"
#: Processes a bubblewrap sandbox needs for itself (its monitor and the namespace's init), same uid.
BWRAP_PROCESSES = 2


def inside(path: str, folder: str) -> bool:
    """Is ``path`` the folder ``folder`` or inside it (by name)?"""
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def bwrap_path() -> str | None:
    """The bubblewrap program to sandbox with, or None: none found, not Linux, or ``FTR_SANDBOX=plain``."""
    if os.environ.get("FTR_SANDBOX", "auto") == "plain" or not sys.platform.startswith("linux"):
        return None
    for folder in ("/usr/bin", "/bin", "/usr/local/bin"):
        if os.access(f"{folder}/bwrap", os.X_OK):
            return f"{folder}/bwrap"
    return shutil.which("bwrap")


def interpreter_folders(python: str) -> list[str]:
    """The folders an interpreter needs besides /usr: its installation's prefix and its venv."""
    folders = set()
    real = Path(python).resolve()
    if not str(real).startswith("/usr/"):
        folders.add(str(real.parents[1]))  # e.g. /opt/python/3.11.7, a conda environment
    venv = Path(python).absolute().parents[1]
    if (venv / "pyvenv.cfg").exists():
        folders.add(str(venv))
    return sorted(folders, key=len)  # outer folders first, so an inner bind is not hidden by an outer one


#: Asked of the child's interpreter: every site-packages folder it knows of (all get covered).
_SITE_FOLDERS = ("import json, site, sysconfig; print(json.dumps(site.getsitepackages() + [site.getusersitepackages(),"
                 " sysconfig.get_path('purelib'), sysconfig.get_path('platlib')]))")


def site_folders(python: str) -> list[str]:
    """Every site-packages folder of ``python`` and of this grader that exists (the kit may be installed in one)."""
    found = [p for p in sys.path if p.endswith(("site-packages", "dist-packages"))]
    try:
        result = subprocess.run([python, "-I", "-S", "-c", _SITE_FOLDERS], capture_output=True, text=True, timeout=60)
        found += json.loads(result.stdout)
    except (OSError, subprocess.SubprocessError, ValueError):
        pass
    return sorted({os.path.realpath(p) for p in found if p and os.path.isdir(p)}, key=len)


def system_binds(bwrap: str) -> tuple[list[str], list[str]]:
    """The start of every bubblewrap command line here: every namespace unshared, no capabilities, and
    the system's programs and libraries read-only (``/usr``, ``/bin``... as links or binds, the dynamic
    linker's files). Returns the arguments and the folders bound."""
    command = [bwrap, "--unshare-all", "--die-with-parent", "--new-session", "--cap-drop", "ALL",
               "--ro-bind", "/usr", "/usr"]
    bound = ["/usr"]
    for name in ("bin", "sbin", "lib", "lib32", "lib64", "libx32"):
        path = Path("/") / name
        if path.is_symlink():
            command += ["--symlink", os.readlink(path), f"/{name}"]
        elif path.is_dir():
            command += ["--ro-bind", str(path), f"/{name}"]
            bound.append(str(path))
    for system_file in ("/etc/alternatives", "/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/localtime"):
        command += ["--ro-bind-try", system_file, system_file]
    return command, bound


def bwrap_command(bwrap: str, python: str, lib: Path, submission: Path, site: Path, scratch_bytes: int,
                  covered: Sequence[str] = ()) -> list[str]:
    """The bubblewrap command line that runs ``python`` (arguments follow) in a fresh sandbox.

    ``covered``: folders (site-packages) laid over with an empty read-only tmpfs wherever a bound
    folder holds them. The root bubblewrap makes, ``/dev`` and the covers are remounted read-only;
    the writable tmpfs mounts (``/tmp``, ``/dev/shm``, the working folder) are ``scratch_bytes`` each.
    """
    command, bound = system_binds(bwrap)
    for folder in interpreter_folders(python):
        command += ["--ro-bind", folder, folder]
        bound.append(folder)
    covers = [folder for folder in covered if any(inside(folder, outer) for outer in bound)]
    for folder in covers:
        command += ["--size", "4096", "--tmpfs", folder]
    size = str(scratch_bytes)
    command += ["--proc", "/proc", "--dev", "/dev", "--size", size, "--tmpfs", "/dev/shm",
                "--size", size, "--tmpfs", "/tmp", "--size", size, "--tmpfs", f"{INSIDE}/work",
                "--ro-bind", str(site), f"{INSIDE}/site", "--ro-bind", str(lib), f"{INSIDE}/lib",
                "--ro-bind", str(submission), f"{INSIDE}/submission"]
    for folder in covers + ["/dev", "/"]:
        command += ["--remount-ro", folder]
    command += ["--chdir", f"{INSIDE}/work", "--uid", "1000", "--gid", "1000", "--"]
    return command
