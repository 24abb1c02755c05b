"""Setting up the sandbox on this machine: which interpreter a child runs, what it must never reach,
and the checks made before anyone is graded (no run happens here: :func:`autograder.sandbox.sandbox_setup`
starts a real child with what this module finds).

* :class:`ChildSetup`: how children start (the interpreter, bubblewrap or the plain sandbox, the
  child site folder, the site-packages folders covered);
* :func:`candidate_interpreters`, :func:`closed_to_sandbox_uids`: the interpreters a child may run,
  and why a sandbox uid could not enter one;
* :func:`private_paths`: the kit's private files (solutions, autograder, the secret seed);
* :func:`private_dir`, :func:`verify_child_site`, :func:`remove_tree`: the grader's own folders, the
  child site folder as it was made, and removing what a child left however deep;
* :func:`isolated`: whether children are walled off here (bubblewrap, or root on Linux).

>>> isolated(ChildSetup("/usr/bin/python3", "/usr/bin/bwrap", Path("/site")))
True
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import NamedTuple

from .bubblewrap import interpreter_folders
from .childsite import ChildSiteError, changed_files, make_child_site
from .mounts import kit_folders


class SandboxSetupError(RuntimeError):
    """The sandbox cannot start on this machine; the message is one line naming what is missing."""


def is_root() -> bool:
    """Whether the grader runs as root (then each child gets a uid, a group and namespaces of its own)."""
    return hasattr(os, "geteuid") and os.geteuid() == 0


def private_dir(name: str) -> Path:
    """A folder of the grader's own under TMPDIR (mode 0711: children may pass through, never list or write)."""
    base = Path(tempfile.gettempdir()) / f"ftr-kit-{os.geteuid() if hasattr(os, 'geteuid') else 'user'}"
    for folder in (base, base / name):
        try:
            folder.mkdir(mode=0o711)
        except FileExistsError:
            pass
        info = os.lstat(folder)
        if (hasattr(os, "geteuid") and info.st_uid != os.geteuid()) or not os.path.isdir(folder) \
                or os.path.islink(folder):
            raise SandboxSetupError(f"{folder} is not the grader's own folder (someone else made it): remove it")
        os.chmod(folder, 0o711)
    return base / name


def closed_to_sandbox_uids(python: str) -> str | None:
    """As root: the one-line reason a sandbox uid cannot run ``python`` (a folder on the way that other
    users cannot enter, e.g. a pyenv Python in /root), else None."""
    if not is_root() or not os.path.exists(python):  # a missing one is named by the probe
        return None
    # the path as named too: a link in a closed folder to an open interpreter is still out of reach
    for folder in [os.path.abspath(python), os.path.realpath(python), *interpreter_folders(python)]:
        blocked = unenterable_ancestor(Path(folder))
        if blocked is not None and blocked != Path(folder):
            return (f"{python} lies under {blocked} (mode {os.stat(blocked).st_mode & 0o777:o}), which the "
                    f"sandbox's uids cannot enter: grade with a Python every user may enter (Debian's /usr/bin/python3 "
                    f"with python3-numpy, or a venv outside {blocked}), or name one in FTR_SANDBOX_PYTHON")
    return None


def verify_child_site(setup: ChildSetup) -> None:
    """Before each student: the child site folder as it was made (its manifest's hashes, no link, nothing
    writable by others), else made again from NumPy's own files with a warning on stderr."""
    changed = changed_files(setup.site)
    if not changed:
        return
    print(f"warning: the child site folder {setup.site} was changed since it was made ({', '.join(changed[:3])}): "
          "a submission may have written to it; made again from NumPy's own files", file=sys.stderr)
    try:
        remade = make_child_site(setup.python)
    except (ChildSiteError, OSError) as error:
        raise SandboxSetupError(f"the child site folder cannot be made again: {error}") from None
    if remade != setup.site:
        raise SandboxSetupError(f"NumPy's own files changed while grading (now {remade}): start the grading again")


def unenterable_ancestor(folder: Path) -> Path | None:
    """The first folder on the way to ``folder`` that another uid cannot pass through (no o+x), if any."""
    for path in [*reversed(folder.parents), folder]:
        if not os.stat(path).st_mode & 0o001:
            return path
    return None


class ChildSetup(NamedTuple):
    """How children start on this machine: ``python`` (run with ``-I -S``), ``bwrap`` (None: the plain
    sandbox), ``site`` (the child site folder: NumPy only), ``covered`` (site-packages folders hidden)."""

    python: str
    bwrap: str | None
    site: Path
    covered: tuple[str, ...] = ()


def candidate_interpreters() -> list[str]:
    """The interpreters a child may run: ``FTR_SANDBOX_PYTHON``, else this one (the real binary behind a
    venv's link) and the system's of the same version (a root grader's own may sit in /root)."""
    override = os.environ.get("FTR_SANDBOX_PYTHON")
    if override:
        return [override]
    version = f"{sys.version_info.major}.{sys.version_info.minor}"
    found = [os.path.realpath(sys.executable), os.path.realpath(getattr(sys, "_base_executable", sys.executable)),
             f"/usr/bin/python{version}", f"/usr/local/bin/python{version}"]
    return [p for i, p in enumerate(found) if p not in found[:i] and os.path.isfile(p)]


def private_paths() -> list[str]:
    """What a child must never reach: the kit's reference solutions, autograder and shipped expectations
    (wherever the kit and its checkout are), and the secret seed."""
    from .instances import SECRET_SEED_FILE, seed_file

    paths = [SECRET_SEED_FILE, seed_file()]  # the default file, and the one FTR_SECRET_SEED_FILE names
    for folder in kit_folders():
        paths += [folder / "reference" / "solutions", folder / "autograder"]
    return [str(p) for p in dict.fromkeys(paths) if p.exists()]


def isolated(setup: ChildSetup) -> bool:
    """Are children walled off from the grader and from each other here: bubblewrap, or a root grader on
    Linux (a uid and PID, network, IPC and mount namespaces of each child's own)?"""
    return setup.bwrap is not None or (is_root() and sys.platform.startswith("linux"))


def remove_tree(path: Path) -> None:
    """Remove a folder however deep a child nested it (``shutil.rmtree`` recurses and fails past ~1000)."""
    if not os.path.lexists(path):
        return
    if os.path.exists("/bin/rm"):
        try:
            subprocess.run(["/bin/rm", "-rf", "--one-file-system", "--", str(path)], capture_output=True, timeout=120,
                           check=False)
        except (OSError, subprocess.SubprocessError):
            pass
    if os.path.lexists(path):
        shutil.rmtree(path, ignore_errors=True)
