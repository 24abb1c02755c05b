"""The kernel ``nbgrader autograde`` runs a student's notebook in: sandboxed, secret-free, course-blind.

nbgrader executes every submitted notebook in a Jupyter kernel, and that kernel runs the student's
code. :class:`SandboxedKernelManager` (the kernel manager of ``grading_guards.GradeOutsideKernel``)
starts it so that the student's code can reach nothing of the course:

* **bubblewrap** (``bwrap``, where it runs): a file system of ``/usr``, the interpreter's folders
  and one private folder of this kernel (its sockets, its connection file, a small ``lib`` with the
  public ``reference.world`` and a stand-in ``autograder.notebook``, the public ``mazes/``); no
  course folder, no other student, no source notebook, no kit, no network, its own PID namespace;
* **a uid of its own** when nbgrader runs as root (a lease from :class:`autograder.uids.UidLease`,
  released and swept when the kernel stops), with Debian's ``/usr/bin/python3`` (``apt-get install
  python3-ipykernel python3-numpy``) because a venv under ``/root`` is closed to other uids;
* **limits**: 4 GiB of address space per process, 64 processes for its uid (as root), 64 MiB per
  file, a 256 MiB ``/tmp``;
* **an environment of its own**: ``PATH``, ``HOME=/tmp`` and the few variables a kernel needs, so no
  ``FTR_SECRET_SEED``, no ``FTR_SECRET_SEED_FILE`` and nothing else of nbgrader's environment;
* the kernel talks to nbgrader over Unix sockets in its private folder (ZeroMQ's ``ipc``
  transport), so it needs no network at all.

Without bubblewrap the kernel still gets the private folder, the clean environment and (as root)
its own uid and PID, network, IPC and UTS namespaces (util-linux's ``unshare``), but it shares the
machine's file system: it can read whatever that uid may read.
``GradeOutsideKernel`` logs a warning then; the points never come from the kernel either way. Not
as root and without bubblewrap the kernel would run as the instructor: :func:`kernel_setup`
refuses, unless ``FTR_UNISOLATED_I_TRUST_THESE_STUDENTS`` is set.

    from kernel_sandbox import SandboxedKernelManager
    c.GradeOutsideKernel.kernel_manager_class = SandboxedKernelManager   # the default already
"""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from jupyter_client.manager import AsyncKernelManager

from autograder.bubblewrap import bwrap_path, interpreter_folders, system_binds
from autograder.mounts import KIT_ROOT, namespace_prefix, namespace_tools
from autograder.sandbox import UNISOLATED_VARIABLE  # set to grade notebooks where the kernel cannot be isolated
from autograder.uids import UidLease

# What ``from autograder.notebook import check`` gives inside the grading kernel. The test cells do
# not run there (GradeOutsideKernel grades them outside); a student's own call just says so.
STAND_IN_CHECK = '''"""Stand-in for autograder.notebook inside nbgrader's grading kernel."""


def check(check_id, namespace=None, instances="public"):
    raise RuntimeError("at grading time the test cells are graded outside this notebook's kernel; "
                       "check() does nothing here")
'''

# Only these reach the kernel: nothing of nbgrader's environment (the secret seed above all).
KERNEL_ENVIRONMENT = {
    "PATH": "/usr/local/bin:/usr/bin:/bin",
    "HOME": "/tmp",
    "LANG": "C.UTF-8",
    "MPLBACKEND": "module://matplotlib_inline.backend_inline",
    "MPLCONFIGDIR": "/tmp/matplotlib",
    "IPYTHONDIR": "/tmp/ipython",
    "JUPYTER_PLATFORM_DIRS": "1",
    "PYTHONDONTWRITEBYTECODE": "1",
    "NBGRADER_EXECUTION": "autograde",
    "PYDEVD_DISABLE_FILE_VALIDATION": "1",
    # A parent pid of 1: ipykernel then neither polls its parent (in its own PID namespace the
    # parent is always pid 1) nor prints "To connect another client..." as if started by hand.
    "JPY_PARENT_PID": "1",  # Debian's debugpy warns about frozen modules on every start
}

SCRATCH_BYTES = 256 << 20  # the kernel's /tmp (a tmpfs): matplotlib's cache, the student's files

# Per-process limits of the kernel and what it starts (set between fork and exec): memory, file
# size, no core files; and, when it has a uid of its own, processes of that uid (a fork bomb).
KERNEL_LIMITS = {"RLIMIT_AS": 4 << 30, "RLIMIT_FSIZE": 64 << 20, "RLIMIT_CORE": 0}
KERNEL_PROCESSES = 64


def _limit_kernel(own_uid: bool):
    def limit() -> None:
        for name, value in KERNEL_LIMITS.items():
            resource.setrlimit(getattr(resource, name), (value, value))
        if own_uid:  # RLIMIT_NPROC counts every process of the uid: only a uid of the kernel's own
            resource.setrlimit(resource.RLIMIT_NPROC, (KERNEL_PROCESSES, KERNEL_PROCESSES))
    return limit


class KernelSetupError(RuntimeError):
    """No interpreter that can run the grading kernel (ipykernel and NumPy) as it will really run."""


_SETUP: list[tuple[str, str | None]] = []


def kernel_setup() -> tuple[str, str | None]:
    """(interpreter, bwrap path or None) for grading kernels, found once per process.

    Interpreters tried: ``FTR_KERNEL_PYTHON``; else this one and Debian's ``/usr/bin/python3`` (as
    root only the latter: a venv under ``/root`` is closed to a sandbox uid). Each must import
    ipykernel and NumPy as the kernel will run: in bubblewrap if it runs here, else without.
    """
    if _SETUP:
        return _SETUP[0]
    override = os.environ.get("FTR_KERNEL_PYTHON")
    if override:
        candidates = [override]
    else:
        candidates = ["/usr/bin/python3"] if os.geteuid() == 0 else [sys.executable, "/usr/bin/python3"]
    bwrap = bwrap_path()
    for wrapper in ([bwrap] if bwrap else []) + [None]:
        if wrapper is None and os.geteuid() != 0 and not os.environ.get(UNISOLATED_VARIABLE):
            raise KernelSetupError(
                "refusing to run students' notebooks here: without bubblewrap or root the kernel runs as you, "
                "with your files and the secret seed; install bubblewrap (Debian: apt-get install bubblewrap) "
                f"and allow unprivileged user namespaces, or run nbgrader as root, or set {UNISOLATED_VARIABLE}=1 "
                "to take that risk")
        for python in candidates:
            if _kernel_starts(python, wrapper):
                _SETUP.append((python, wrapper))
                return _SETUP[0]
    raise KernelSetupError(f"no Python with ipykernel and NumPy can run a grading kernel here (tried "
                           f"{', '.join(candidates)}); Debian: apt-get install python3-ipykernel python3-numpy, "
                           "or set FTR_KERNEL_PYTHON")


def _kernel_starts(python: str, bwrap: str | None) -> bool:
    lease = UidLease() if os.geteuid() == 0 else None
    folder = make_private_folder(lease.uid if lease else None)
    try:
        prefix = bwrap_prefix(bwrap, python, folder) if bwrap else plain_root_prefix(lease)
        as_user = {"user": lease.uid, "group": lease.uid, "extra_groups": []} if lease and bwrap else {}
        result = subprocess.run(prefix + [python, "-c", "import ipykernel, numpy, reference.world"], cwd=folder,
                                env={**KERNEL_ENVIRONMENT, "PYTHONPATH": str(folder / "lib")},
                                capture_output=True, timeout=120, **as_user)
        return result.returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False
    finally:
        if lease:
            lease.release()
        shutil.rmtree(folder, ignore_errors=True)


def plain_root_prefix(lease: UidLease | None) -> list[str]:
    """As root without bubblewrap: PID (with its own ``/proc``), network, IPC and UTS namespaces of the
    kernel's own, then its uid (util-linux's ``unshare`` and ``setpriv``); its sockets are files in its
    private folder, which a network namespace does not hide. Not as root: nothing (it runs as you)."""
    if lease is None:
        return []
    if namespace_tools() is None:
        raise KernelSetupError("a grading kernel as root without bubblewrap needs util-linux's unshare and setpriv "
                               "(Debian: apt-get install util-linux)")
    return namespace_prefix(lease.uid, lease.uid, network=True)


def _kit_packages_inside(folders: list[str]) -> list[str]:
    """The kit's own packages when an installed copy lies in a bound folder (a non-editable install
    puts reference/solutions in site-packages): covered by an empty tmpfs in the sandbox."""
    covered = []
    for folder in folders:
        for site in Path(folder).glob("lib/python3*/site-packages"):
            covered += [str(site / name) for name in ("reference", "autograder") if (site / name).is_dir()]
    return covered


def make_private_folder(owner: int | None) -> Path:
    """A fresh folder for one kernel: its sockets, connection file and ``lib`` (mode 0700)."""
    base = Path(tempfile.gettempdir()) / f"ftr-kit-{os.geteuid()}"
    base.mkdir(mode=0o711, exist_ok=True)
    if base.is_symlink() or base.stat().st_uid != os.geteuid():
        raise RuntimeError(f"{base} is not the grader's own folder (someone else made it): remove it")
    folder = Path(tempfile.mkdtemp(prefix="kernel-", dir=base))
    lib = folder / "lib"
    shutil.copytree(KIT_ROOT / "reference" / "world", lib / "reference" / "world",
                    ignore=shutil.ignore_patterns("__pycache__"))
    (lib / "reference" / "__init__.py").write_text('"""The public part of ftr-kit (reference.world)."""\n')
    (lib / "autograder").mkdir()
    (lib / "autograder" / "__init__.py").write_text("")
    (lib / "autograder" / "notebook.py").write_text(STAND_IN_CHECK)
    (folder / "work").mkdir()
    mazes = KIT_ROOT / "mazes"
    if mazes.is_dir():  # the public standard mazes, for the written questions' experiments
        # Copied, not bound: bubblewrap runs as the kernel's uid, which may not reach the kit's
        # folder (a checkout under a 0700 folder), and 640 KiB per kernel costs nothing.
        shutil.copytree(mazes, folder / "work" / "mazes", ignore=shutil.ignore_patterns("__pycache__"))
    for path in [folder, *folder.rglob("*")]:
        path.chmod(0o700 if path.is_dir() else 0o600)
        if owner is not None:
            os.chown(path, owner, owner)
    return folder


def bwrap_prefix(bwrap: str, python: str, folder: Path) -> list[str]:
    """bubblewrap's command line for the kernel: /usr, the interpreter, ``folder``; nothing else."""
    command, _ = system_binds(bwrap)
    folders = interpreter_folders(python)
    for path in folders:
        command += ["--ro-bind", path, path]
    for path in _kit_packages_inside(folders):
        command += ["--tmpfs", path]
    command += ["--proc", "/proc", "--dev", "/dev", "--size", str(SCRATCH_BYTES), "--tmpfs", "/tmp",
                "--bind", str(folder), str(folder)]
    command += ["--chdir", f"{folder}/work", "--"]
    return command


class SandboxedKernelManager(AsyncKernelManager):
    """nbgrader's kernel manager, with the kernel sandboxed (see the module docstring)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._lease = UidLease() if os.geteuid() == 0 else None
        self._python, self._bwrap = kernel_setup()
        self._folder = make_private_folder(self._lease.uid if self._lease else None)
        self.transport = "ipc"
        self.cache_ports = False
        self.ip = str(self._folder / "channel")
        self.connection_file = str(self._folder / "connection.json")

    @property
    def isolated(self) -> bool:
        """Whether the kernel runs in bubblewrap (else: private folder, clean environment, own uid as root)."""
        return self._bwrap is not None

    def format_kernel_cmd(self, extra_arguments: list[str] | None = None) -> list[str]:
        return [self._python, "-m", "ipykernel_launcher", "-f", self.connection_file, *(extra_arguments or [])]

    async def _async_pre_start_kernel(self, **kw: Any) -> tuple[list[str], dict[str, Any]]:
        command, kw = await super()._async_pre_start_kernel(**kw)
        if self._lease:  # the provisioner wrote it as root, mode 0600
            os.chown(self.connection_file, self._lease.uid, self._lease.uid)
        assert self.kernel_spec is not None
        # Interrupt (jupyter_client does before a shutdown) through the control channel: a signal to
        # the process nbgrader started would reach bubblewrap, not the kernel in its own session.
        self.kernel_spec.interrupt_mode = "message"
        kw["env"] = {**KERNEL_ENVIRONMENT, "PYTHONPATH": str(self._folder / "lib")}
        kw["cwd"] = str(self._folder / "work")
        # Not "independent", jupyter_client would pass the kernel nbgrader's pid to poll, which in
        # the kernel's own PID namespace it would never see (it would stop at once); bubblewrap's
        # --die-with-parent ends it with nbgrader instead.
        kw["independent"] = True
        if self._lease and self._bwrap:
            kw.update(user=self._lease.uid, group=self._lease.uid, extra_groups=[])
        kw["preexec_fn"] = _limit_kernel(own_uid=self._lease is not None)
        if self._bwrap:
            command = bwrap_prefix(self._bwrap, self._python, self._folder) + command
        else:  # as root: namespaces of its own, then its uid (util-linux); else as is
            command = plain_root_prefix(self._lease) + command
        return command, kw

    async def _async_cleanup_resources(self, restart: bool = False) -> None:
        await super()._async_cleanup_resources(restart=restart)
        if not restart:
            self.release()

    cleanup_resources = _async_cleanup_resources

    def release(self) -> None:
        """Kill whatever the kernel's uid left, give the uid back, remove the private folder."""
        if self._lease:
            self._lease.release()
            self._lease = None
        shutil.rmtree(self._folder, ignore_errors=True)
