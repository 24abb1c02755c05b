"""Running untrusted student code: child processes walled off from the grader and from each other.

Each child (:mod:`autograder.child`) runs, where the machine allows it, inside **bubblewrap**
(``bwrap``, Debian's ``bubblewrap``), the sandbox Flatpak uses:

* its own PID, mount, network, IPC, UTS and user namespaces: it sees no other process, has no
  network, and ends with the grading (``--die-with-parent``; when the sandbox's first process
  ends, the kernel kills every process left in its PID namespace);
* a file system holding only the interpreter and what it needs (``/usr``, the dynamic linker's
  files, a venv if the interpreter lives in one), the sandbox's library folder (a copy of the
  public ``reference/world``, the harness, the wire module) and its own submission, both read-only,
  and private, size-capped tmpfs mounts for ``/tmp`` and its working folder;
* as a **uid of its own** when the grader is root: every child gets a uid from a range no account
  uses (``FTR_SANDBOX_UIDS``, default 3500000-3500999), leased through a lock file for the child's
  lifetime, so no two children, of one submission or of two, ever share one; afterwards every
  process of that uid is killed.

Where bubblewrap cannot run (not installed, no user namespaces, macOS), the **plain** sandbox
takes over: the same folders and limits, a uid of its own when root (plus, as root, the kit's
folder covered by an empty file system), a process-group and uid sweep afterwards, but one shared
file system, ``/tmp`` and PID namespace. :func:`isolation_warning` then says loudly that students
are not isolated from each other (fine for a student's own ``ftr check``; on Gradescope each
submission has a container of its own).

In both, resource limits are set by the child on itself before any student code runs: CPU seconds
(the sum of its tasks' budgets), address space, processes, file size (its printed output goes to a
capped file); and the grader enforces each task's own CPU budget and wall-clock limit from outside,
reading the child's CPU time from ``/proc``.

Tasks go in and results come back over two inherited pipes, framed by :mod:`autograder.wire`;
replies are capped per task and per submission, and nothing printed is parsed.

>>> limits = Limits(task_seconds=5)
>>> limits.task_seconds, limits.memory_bytes // 2**20
(5, 2048)
"""

from __future__ import annotations

import ctypes
import ctypes.util
import fcntl
import json
import os
import pwd
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from array import array
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from . import wire

KIT_ROOT = Path(__file__).resolve().parents[1]
WORLD_DIR = KIT_ROOT / "reference" / "world"

#: Where the sandbox's own folders appear inside bubblewrap.
INSIDE = "/sandbox"


@dataclass
class Limits:
    """Resource limits for the children of one submission."""

    task_seconds: float = 30.0        # CPU budget per task at least (bigger instances get more: see grader)
    total_seconds: float = 1800.0     # wall clock for all the tasks of one submission
    memory_bytes: int = 2 * 2**30     # RLIMIT_AS: address space per child
    processes: int = 64               # RLIMIT_NPROC (per uid; counts when the grader is root)
    file_bytes: int = 8 * 2**20       # RLIMIT_FSIZE: the most the child may write to any file
    scratch_bytes: int = 64 * 2**20   # size of each private tmpfs (/tmp and the working folder)
    result_bytes: int = 64 * 2**20    # the largest reply the grader reads (tasks may set less)
    total_result_bytes: int = 1 << 30  # all replies of one child
    output_shown: int = 3000          # characters of the child's printed output kept for feedback


@dataclass
class TaskOutcome:
    """What came back for one task: a reply (``header``, ``arrays``) or a ``failure`` message.

    ``cpu_seconds``: the CPU time the child's processes spent on the task (None without ``/proc``).
    """

    task_id: int
    header: dict | None = None
    arrays: list[array] = field(default_factory=list)
    failure: str | None = None
    seconds: float = 0.0
    cpu_seconds: float | None = None
    timed_out: bool = False


class SandboxSetupError(RuntimeError):
    """The sandbox cannot be set up on this machine (no usable interpreter for the children)."""


# -- uids: one per child --------------------------------------------------------------------------------

DEFAULT_UIDS = (3_500_000, 3_500_999)


def _uid_range() -> tuple[int, int]:
    text = os.environ.get("FTR_SANDBOX_UIDS", "")
    if text:
        try:
            low, high = (int(part) for part in text.split("-"))
        except ValueError:
            raise SandboxSetupError(f"FTR_SANDBOX_UIDS must look like 3500000-3500999, got {text!r}") from None
        return low, high
    return DEFAULT_UIDS


def _private_dir(name: str) -> Path:
    """A folder of the grader's own (mode 0711: children may pass through, never list or write)."""
    base = Path(tempfile.gettempdir()) / f"ftr-kit-{os.geteuid()}"
    for folder, mode in ((base, 0o711), (base / name, 0o711)):
        try:
            folder.mkdir(mode=mode)
        except FileExistsError:
            pass
        info = os.lstat(folder)
        if info.st_uid != os.geteuid() or not os.path.isdir(folder) or os.path.islink(folder):
            raise SandboxSetupError(f"{folder} is not the grader's own folder (someone else made it): remove it")
        os.chmod(folder, mode)
    return base / name


class UidLease:
    """A uid no account and no other child uses, held (through a lock file) until ``release``."""

    def __init__(self) -> None:
        low, high = _uid_range()
        locks = _private_dir("uids")
        os.chmod(locks, 0o700)
        start = low + secrets.randbelow(high - low + 1)  # spread, so a stale lock costs nothing
        for offset in range(high - low + 1):
            uid = low + (start - low + offset) % (high - low + 1)
            try:
                pwd.getpwuid(uid)
                continue  # a real account: never
            except KeyError:
                pass
            fd = os.open(locks / str(uid), os.O_CREAT | os.O_RDWR, 0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                os.close(fd)
                continue
            self.uid, self._fd = uid, fd
            kill_uid(uid)  # anything left by an earlier grading that died
            return
        raise SandboxSetupError(f"all sandbox uids {low}-{high} are in use (FTR_SANDBOX_UIDS)")

    def release(self) -> None:
        if self._fd is not None:
            kill_uid(self.uid)
            os.close(self._fd)
            self._fd = None


def kill_uid(uid: int) -> None:
    """Kill every process of ``uid`` (a sandbox uid: nothing else runs as it), until none is left."""
    _kill_every(lambda pid: os.stat(f"/proc/{pid}").st_uid == uid, rounds=100, pause=0.02)


def _kill_every(matches, rounds: int, pause: float) -> None:
    """SIGKILL every live process whose pid ``matches``, again and again until none is left (a
    process may fork while we look); zombies are skipped. Without /proc (macOS) it does nothing."""
    if not os.path.isdir("/proc"):
        return
    for _ in range(rounds):
        alive = False
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                if not matches(entry):
                    continue
                with open(f"/proc/{entry}/stat", "rb") as file:
                    if file.read().rsplit(b")", 1)[-1].split()[0] == b"Z":
                        continue  # already dead, waiting for its parent
                os.kill(int(entry), signal.SIGKILL)
                alive = True
            except (OSError, IndexError):
                continue
        if not alive:
            return
        time.sleep(pause)


# -- CPU time of a process tree (/proc) ----------------------------------------------------------------

_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def tree_cpu_seconds(root_pid: int) -> float | None:
    """CPU seconds of ``root_pid`` and all its descendants, including those they have reaped; None without /proc."""
    if not os.path.isdir("/proc"):
        return None
    parents: dict[int, int] = {}
    times: dict[int, float] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as file:
                fields = file.read().rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            continue
        pid = int(entry)
        parents[pid] = int(fields[1])
        times[pid] = sum(int(value) for value in fields[11:15]) / _TICKS  # utime stime cutime cstime
    children: dict[int, list[int]] = {}
    for pid, parent in parents.items():
        children.setdefault(parent, []).append(pid)
    total, stack = 0.0, [root_pid]
    while stack:
        pid = stack.pop()
        total += times.get(pid, 0.0)
        stack.extend(children.get(pid, []))
    return total


# -- interpreters and bubblewrap ------------------------------------------------------------------------

def _bwrap_path() -> str | None:
    if os.environ.get("FTR_SANDBOX", "auto") == "plain":
        return None
    for folder in ("/usr/bin", "/bin", "/usr/local/bin"):
        if os.access(f"{folder}/bwrap", os.X_OK):
            return f"{folder}/bwrap"
    return shutil.which("bwrap")


def _interpreter_binds(python: str) -> list[str]:
    """The folders an interpreter needs besides /usr: its installation's prefix and its venv."""
    folders = set()
    real = Path(python).resolve()
    if not str(real).startswith("/usr/"):
        folders.add(str(real.parents[1]))  # e.g. ~/.pyenv/versions/3.11.7
    venv = Path(python).absolute().parents[1]
    if (venv / "pyvenv.cfg").exists():
        folders.add(str(venv))
    if python == sys.executable:
        for prefix in (sys.base_prefix, sys.prefix):
            if not prefix.startswith("/usr"):
                folders.add(prefix)
    return sorted(folders, key=len)  # outer folders first, so an inner bind is not hidden by an outer one


def bwrap_command(bwrap: str, python: str, lib: Path, submission: Path, scratch_bytes: int) -> list[str]:
    """The bubblewrap command line that runs ``python`` (arguments follow) in a fresh sandbox."""
    command = [bwrap, "--unshare-all", "--die-with-parent", "--new-session", "--cap-drop", "ALL",
               "--ro-bind", "/usr", "/usr"]
    for name in ("bin", "sbin", "lib", "lib32", "lib64", "libx32"):
        path = Path("/") / name
        if path.is_symlink():
            command += ["--symlink", os.readlink(path), f"/{name}"]
        elif path.is_dir():
            command += ["--ro-bind", str(path), f"/{name}"]
    for path in ("/etc/alternatives", "/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/localtime"):
        command += ["--ro-bind-try", path, path]
    for folder in _interpreter_binds(python):
        command += ["--ro-bind", folder, folder]
    size = str(scratch_bytes)
    command += ["--proc", "/proc", "--dev", "/dev", "--size", size, "--tmpfs", "/tmp",
                "--size", size, "--tmpfs", f"{INSIDE}/work", "--ro-bind", str(lib), f"{INSIDE}/lib",
                "--ro-bind", str(submission), f"{INSIDE}/submission", "--chdir", f"{INSIDE}/work",
                "--uid", "1000", "--gid", "1000", "--"]
    return command


_SETUP: dict[str, tuple[str, str | None]] = {}
_SETUP_LOCK = threading.Lock()


def _try_interpreter(python: str, bwrap: str | None) -> bool:
    """Can a child, as it will really run, import NumPy with this interpreter?"""
    if not os.path.exists(python):
        return False
    check = "import numpy, sys; assert sys.version_info >= (3, 10)"
    probe_dir = Path(tempfile.mkdtemp(prefix="probe-", dir=_private_dir("sandboxes")))
    lease = UidLease() if os.geteuid() == 0 else None
    try:
        (probe_dir / "lib").mkdir()
        (probe_dir / "submission").mkdir()
        probe_dir.chmod(0o711)
        for folder in ("lib", "submission"):
            (probe_dir / folder).chmod(0o755)
        prefix = bwrap_command(bwrap, python, probe_dir / "lib", probe_dir / "submission", 1 << 20) if bwrap else []
        as_user = {"user": lease.uid, "group": lease.uid, "extra_groups": []} if lease else {}
        result = subprocess.run(prefix + [python, "-I", "-c", check], cwd="/", env={"PATH": "/usr/bin:/bin"},
                                capture_output=True, timeout=120, **as_user)
        return result.returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False
    finally:
        if lease:
            lease.release()
        remove_tree(probe_dir)


def sandbox_setup() -> tuple[str, str | None]:
    """(interpreter, bwrap path or None) for the children: found once per process.

    Interpreters tried: ``FTR_SANDBOX_PYTHON``, this one, ``/usr/bin/python3``; each must import
    NumPy inside the sandbox, as the child's uid. With bubblewrap first; without it if none works.
    """
    with _SETUP_LOCK:
        if "setup" in _SETUP:
            return _SETUP["setup"]
        override = os.environ.get("FTR_SANDBOX_PYTHON")
        candidates = [override] if override else [sys.executable, "/usr/bin/python3"]
        bwrap = _bwrap_path()
        for wrapper in ([bwrap] if bwrap else []) + [None]:
            for python in candidates:
                if python and _try_interpreter(python, wrapper):
                    _SETUP["setup"] = (python, wrapper)
                    return _SETUP["setup"]
        raise SandboxSetupError(
            f"no Python >= 3.10 with NumPy that a sandboxed child can run (tried {', '.join(c for c in candidates if c)}); "
            "install one (Debian: apt-get install python3-numpy) or set FTR_SANDBOX_PYTHON"
        )


def isolation_warning() -> str | None:
    """A loud warning when children are not isolated from each other (bubblewrap cannot run here)."""
    try:
        _, bwrap = sandbox_setup()
    except SandboxSetupError:
        return None  # grading will say what is missing
    if bwrap:
        return None
    return ("WARNING: bubblewrap (bwrap) cannot run here, so the plain sandbox is used: submissions share the file "
            "system, /tmp and the process table with each other. Fine for checking your own code; for grading "
            "a class install bubblewrap (Debian: apt-get install bubblewrap) and allow user namespaces.")


# -- hiding the kit from the child in the plain sandbox (Linux mount namespaces, as root) --------------

_CLONE_NEWNS = 0x00020000                      # unshare(2): a private copy of the mount table
_MS_RDONLY, _MS_NOSUID, _MS_NODEV, _MS_NOEXEC = 1, 2, 4, 8
_MS_REC, _MS_PRIVATE = 0x4000, 0x40000         # mount(2): make every mount private, recursively


def _cover(paths: list[str]) -> None:
    """In a forked child, before exec: enter a new mount namespace and lay an empty read-only tmpfs
    over each of ``paths``. Only this child (and what it starts) sees them covered."""
    libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
    if libc.unshare(_CLONE_NEWNS) != 0:
        raise OSError(ctypes.get_errno(), "unshare(CLONE_NEWNS) failed")
    if libc.mount(b"none", b"/", None, _MS_REC | _MS_PRIVATE, None) != 0:
        raise OSError(ctypes.get_errno(), "making the mounts private failed")
    flags = _MS_RDONLY | _MS_NOSUID | _MS_NODEV | _MS_NOEXEC
    for path in paths:
        if libc.mount(b"tmpfs", os.fsencode(path), b"tmpfs", flags, b"size=4k,mode=0555") != 0:
            raise OSError(ctypes.get_errno(), f"covering {path} failed")


def _cover_and_switch(hidden: list[str], uid: int):
    """The plain sandbox as root, between fork and exec: cover the kit (needs root), then become ``uid``."""
    def setup() -> None:
        if hidden:
            _cover(hidden)
        os.setgroups([])
        os.setgid(uid)
        os.setuid(uid)
    return setup


def paths_to_cover(python: str, sandbox_root: Path) -> list[str]:
    """The folders to hide from a plain child: the kit's folder, unless the child needs something in it."""
    kit = KIT_ROOT
    needed = [Path(python).resolve(), Path(python).absolute(), sandbox_root.resolve()]
    if any(path == kit or kit in path.parents for path in needed):
        return []
    return [str(kit)]


def exposure_warning() -> str | None:
    """A warning when a plain child could read the kit's reference solutions (world-readable kit that
    the grader cannot hide). Bubblewrap children see none of the kit: no warning then."""
    solutions = KIT_ROOT / "reference" / "solutions" / "replanning.py"
    if os.geteuid() != 0 or not solutions.exists():
        return None
    try:
        python, bwrap = sandbox_setup()
    except SandboxSetupError:
        return None
    if bwrap or paths_to_cover(python, _private_dir("sandboxes")):
        return None
    path = solutions
    readable = bool(path.stat().st_mode & 0o004)
    while readable and path != path.parent:
        path = path.parent
        readable = bool(path.stat().st_mode & 0o001)
    if not readable:
        return None
    return (f"warning: {solutions.parent} is readable by every user, so a submission that knows where the kit "
            f"lives could read the reference solutions; for real grading run `chmod 700 {KIT_ROOT}` (or use the "
            "Gradescope build, which does)")


def remove_tree(path: Path) -> None:
    """Remove a folder however deep a child nested it (``shutil.rmtree`` recurses and fails past ~1000)."""
    if not os.path.lexists(path):
        return
    try:
        subprocess.run(["/bin/rm", "-rf", "--one-file-system", "--", str(path)], capture_output=True, timeout=120,
                       check=False)
    except (OSError, subprocess.SubprocessError):
        pass
    if os.path.lexists(path):
        shutil.rmtree(path, ignore_errors=True)


# -- the sandbox ------------------------------------------------------------------------------------------

@dataclass
class Lane:
    """Tasks that one child after another runs in order. ``settings`` go to the child (e.g.
    ``{"from_scratch": True}``); ``fresh`` starts a new child for every task (timing runs)."""

    tasks: list[tuple[dict, list[array]]]
    settings: dict = field(default_factory=dict)
    fresh: bool = False
    hello: int | None = None       # report the first child's hello as a TaskOutcome with this (negative) task_id


class Sandbox:
    """A sandbox folder for one submission, from which child processes run its code.

    Use as a context manager; ``run(lanes, workers)`` runs each :class:`Lane` in children of its
    own, up to ``workers`` lanes at a time, and yields a :class:`TaskOutcome` per task as it
    arrives. A task that fails, times out or kills its child is reported as a failure and a fresh
    child takes the lane's remaining tasks. ``files`` maps relative paths to bytes.
    """

    def __init__(self, files: dict[str, bytes], limits: Limits | None = None) -> None:
        self.files = files
        self.limits = limits or Limits()
        self.python, self.bwrap = sandbox_setup()
        self.root: Path | None = None
        self.private: Path | None = None
        self.timed_out_groups: set = set()

    def __enter__(self) -> Sandbox:
        self.root = Path(tempfile.mkdtemp(prefix="sandbox-", dir=_private_dir("sandboxes")))
        self.private = Path(tempfile.mkdtemp(prefix="ftr-grader-"))  # 0700: the child cannot look in
        lib, submission = self.root / "lib", self.root / "submission"
        shutil.copytree(WORLD_DIR, lib / "reference" / "world", ignore=shutil.ignore_patterns("__pycache__"))
        (lib / "reference" / "__init__.py").write_text('"""The public part of ftr-kit (the sandbox\'s copy)."""\n')
        shutil.copy(Path(__file__).with_name("child.py"), lib / "ftr_child.py")
        shutil.copy(Path(__file__).with_name("wire.py"), lib / "ftr_wire.py")
        submission.mkdir()
        for relative, data in self.files.items():
            target = submission / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        # Readable (not writable) by the child: lib and submission.
        for folder in (lib, submission):
            for path in [folder, *folder.rglob("*")]:
                path.chmod(0o755 if path.is_dir() else 0o644)
        self.root.chmod(0o711)
        return self

    def __exit__(self, *exc_info) -> None:
        for folder in (self.root, self.private):
            if folder is not None:
                remove_tree(folder)

    def run(self, lanes: list[Lane], workers: int = 1, deadline: float | None = None) -> Iterator[TaskOutcome]:
        """Run the lanes, ``workers`` at a time (one at a time in the plain sandbox as root, whose
        children are set up between fork and exec); yield outcomes as they arrive."""
        import queue

        deadline = deadline or time.monotonic() + self.limits.total_seconds
        if self.bwrap is None and os.geteuid() == 0:
            workers = 1
        outcomes: queue.Queue = queue.Queue()
        pending = list(lanes)
        lock = threading.Lock()
        stop = threading.Event()

        def worker() -> None:
            while not stop.is_set():
                with lock:
                    if not pending:
                        break
                    lane = pending.pop(0)
                try:
                    for outcome in self._run_lane(lane, deadline, stop):
                        outcomes.put(outcome)
                except BaseException as error:  # noqa: BLE001 - never leave the reader waiting
                    for task, _ in lane.tasks:
                        outcomes.put(TaskOutcome(task["id"], failure=f"the grader could not run this task: {error}"))
            outcomes.put(None)

        threads = [threading.Thread(target=worker, daemon=True) for _ in range(max(1, min(workers, len(lanes))))]
        for thread in threads:
            thread.start()
        finished = 0
        try:
            while finished < len(threads):
                outcome = outcomes.get()
                if outcome is None:
                    finished += 1
                else:
                    yield outcome
        finally:
            stop.set()
            for thread in threads:
                thread.join()

    def _run_lane(self, lane: Lane, deadline: float, stop: threading.Event) -> Iterator[TaskOutcome]:
        pending = list(lane.tasks)
        first = lane.hello is not None
        while pending:
            if time.monotonic() >= deadline or stop.is_set():
                for task, _ in pending:
                    yield TaskOutcome(task["id"], failure=f"not run: the submission's total time limit of "
                                                          f"{self.limits.total_seconds:g} s was used up")
                return
            budget = sum(task.get("cpu_seconds", self.limits.task_seconds) for task, _ in
                         (pending[:1] if lane.fresh else pending))
            child = _Child(self, deadline, dict(lane.settings, cpu_seconds=int(budget) + 30))
            try:
                try:
                    hello = child.start()
                except (wire.FrameError, OSError) as error:
                    failure = child.explain(error, "while importing your code")
                    if first:
                        yield TaskOutcome(lane.hello, failure=failure)
                    for task, _ in pending:
                        yield TaskOutcome(task["id"], failure=failure)
                    return
                if first:
                    yield TaskOutcome(lane.hello, header=hello)
                    first = False
                while pending:
                    task, arrays = pending.pop(0)
                    if task.get("group") in self.timed_out_groups:
                        yield TaskOutcome(task["id"], failure="not run: an earlier instance of this check ran out of time")
                        continue
                    if time.monotonic() >= deadline:
                        pending.insert(0, (task, arrays))
                        break
                    outcome = child.run_task(task, arrays)
                    yield outcome
                    if outcome.timed_out and task.get("group") is not None:
                        self.timed_out_groups.add(task["group"])
                    if (outcome.failure is not None and outcome.header is None) or lane.fresh:
                        break  # the child is gone or stuck (or each task has a fresh one)
            finally:
                child.stop()


class _Child:
    """One child process, its two pipes, and (as root) its uid."""

    def __init__(self, sandbox: Sandbox, submission_deadline: float, settings: dict) -> None:
        self.sandbox = sandbox
        self.limits = sandbox.limits
        self.submission_deadline = submission_deadline
        self.settings = settings
        self.process: subprocess.Popen | None = None
        self.token = secrets.token_hex(16)
        self.lease: UidLease | None = None
        self.task_write: int | None = None
        self.result_read: int | None = None
        self.reader: wire.FrameReader | None = None

    def start(self) -> dict:
        """Start the child; return its hello (import errors, names found)."""
        sandbox, limits = self.sandbox, self.limits
        task_read, self.task_write = os.pipe()
        self.result_read, result_write = os.pipe()
        self.reader = wire.FrameReader(self.result_read, 1 << 20, limits.total_result_bytes)
        self.output_path = sandbox.private / f"output-{self.token}.txt"
        root = os.geteuid() == 0
        if root:
            self.lease = UidLease()
        settings = dict(self.settings, memory_bytes=limits.memory_bytes, file_bytes=limits.file_bytes,
                        processes=limits.processes if root else None)
        env = {
            "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "PYTHONDONTWRITEBYTECODE": "1", "PYTHONHASHSEED": "0",
            "MPLBACKEND": "Agg", "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
            "FTR_SANDBOX_TOKEN": self.token,
        }
        if sandbox.bwrap:
            lib, submission, work = f"{INSIDE}/lib", f"{INSIDE}/submission", f"{INSIDE}/work"
            prefix = bwrap_command(sandbox.bwrap, sandbox.python, sandbox.root / "lib", sandbox.root / "submission",
                                   limits.scratch_bytes)
            cwd = "/"
            preexec = None
        else:
            lib, submission = str(sandbox.root / "lib"), str(sandbox.root / "submission")
            work_dir = Path(tempfile.mkdtemp(prefix="work-", dir=sandbox.root))
            if self.lease:
                os.chown(work_dir, self.lease.uid, self.lease.uid)
            work_dir.chmod(0o700)
            work, cwd, prefix = str(work_dir), str(work_dir), []
            hidden = paths_to_cover(sandbox.python, sandbox.root) if root else []
            preexec = _cover_and_switch(hidden, self.lease.uid) if self.lease else None
        env["HOME"] = work
        command = prefix + [sandbox.python, "-I", "-S", "-B", f"{lib}/ftr_child.py", str(task_read), str(result_write),
                            lib, submission, json.dumps(settings)]
        # bubblewrap: switch uid before exec (bwrap then runs unprivileged, in a user namespace of that uid).
        as_user = ({"user": self.lease.uid, "group": self.lease.uid, "extra_groups": []}
                   if self.lease and sandbox.bwrap else {})
        try:
            with open(self.output_path, "wb") as output:
                self.process = subprocess.Popen(
                    command, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=output, stderr=subprocess.STDOUT,
                    pass_fds=(task_read, result_write), start_new_session=True, preexec_fn=preexec, **as_user,
                )
        finally:
            os.close(task_read)
            os.close(result_write)
        deadline = min(time.monotonic() + max(self.limits.task_seconds, 60.0), self.submission_deadline)
        header, _ = self._read(deadline, 1 << 20)
        if header.get("kind") != "hello":
            raise wire.FrameError("the child did not start properly")
        errors, names = header.get("errors"), header.get("names")
        if (not isinstance(errors, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in errors.items())
                or not isinstance(names, list) or not all(isinstance(n, str) for n in names)):
            raise wire.FrameError("the child's first message is malformed")
        return {"kind": "hello", "errors": {k[:100]: v[:3000] for k, v in list(errors.items())[:50]},
                "names": [n[:100] for n in names[:20]]}

    def _read(self, deadline: float, limit: int, cpu_budget: float | None = None,
              cpu_start: float | None = None) -> tuple[dict, list[array]]:
        """The next frame; ChannelTimeout at the wall deadline or when the task's CPU budget is spent."""
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise wire.ChannelTimeout("no reply within the time limit")
            frame = self.reader.poll(min(remaining, 0.25), limit)
            if frame is not None:
                return frame
            if cpu_budget is not None and cpu_start is not None:
                used = tree_cpu_seconds(self.process.pid)
                if used is not None and used - cpu_start > cpu_budget:
                    raise CpuLimitExceeded(f"more than {cpu_budget:g} s of CPU time")

    def run_task(self, task: dict, arrays: list[array]) -> TaskOutcome:
        began = time.monotonic()
        cpu_budget = float(task.get("cpu_seconds", self.limits.task_seconds))
        wall = max(3 * cpu_budget, cpu_budget + 20)
        deadline = min(began + wall, self.submission_deadline)
        cpu_start = tree_cpu_seconds(self.process.pid)
        try:
            wire.write_frame(self.task_write, task, arrays)
            header, reply_arrays = self._read(deadline, int(task.get("reply_bytes", self.limits.result_bytes)),
                                              cpu_budget, cpu_start)
        except (wire.FrameError, OSError) as error:
            failure = self.explain(error, f"while running {task.get('label', 'a task')}")
            return TaskOutcome(task["id"], failure=failure, seconds=time.monotonic() - began,
                               timed_out=isinstance(error, wire.ChannelTimeout))
        seconds = time.monotonic() - began
        cpu_end = tree_cpu_seconds(self.process.pid)
        cpu = None if cpu_start is None or cpu_end is None else cpu_end - cpu_start
        if header.get("task") != task["id"]:
            self.stop()
            return TaskOutcome(task["id"], failure="the reply did not belong to the task (the channel was tampered with)",
                               seconds=seconds)
        return TaskOutcome(task["id"], header=header, arrays=reply_arrays, seconds=seconds, cpu_seconds=cpu)

    def explain(self, error: Exception, when: str) -> str:
        """A one-paragraph reason a child failed, for the student."""
        if isinstance(error, wire.ChannelClosed) and self.process is not None:
            # The channel closes as the child ends: let it finish on its own, so that its exit
            # status (exit code or signal) is its own and not the SIGKILL of stop() below (on a busy
            # machine bubblewrap can take a moment to pass on its child's status).
            try:
                self.process.wait(timeout=5.0)
            except subprocess.TimeoutExpired:
                pass
        self.stop()
        code = self.process.returncode if self.process else None
        if isinstance(error, CpuLimitExceeded):
            text = f"time limit exceeded {when}: {error} (an infinite loop, or far too slow)"
        elif isinstance(error, wire.ChannelTimeout) and time.monotonic() >= self.submission_deadline:
            text = (f"time limit exceeded {when}: the submission's total time limit of "
                    f"{self.limits.total_seconds:g} s was used up")
        elif isinstance(error, wire.ChannelTimeout):
            text = f"time limit exceeded {when}: an infinite loop, or far too slow"
        elif isinstance(error, wire.ChannelClosed):
            if code is not None and code < 0:
                name = signal.Signals(-code).name if -code in signal.Signals._value2member_map_ else str(-code)
                reason = {"SIGXCPU": "the CPU time limit was exceeded", "SIGKILL": "it was killed (out of time or memory)",
                          "SIGSEGV": "it crashed"}.get(name, f"signal {name}")
                text = f"your code's process ended {when}: {reason}"
            else:
                text = (f"your code's process ended {when} with exit code {code}: did it call exit(), sys.exit() "
                        "or os._exit()? (the grader needs the functions to return)")
        else:
            text = f"the grader could not read your code's reply {when}: {error}"
        printed = self.printed()
        if printed:
            text += f"\nlast output:\n{printed}"
        return text

    def printed(self) -> str:
        """The tail of what the child printed (feedback only; never parsed)."""
        try:
            with open(self.output_path, "rb") as file:
                file.seek(0, os.SEEK_END)
                size = file.tell()
                file.seek(max(0, size - self.limits.output_shown))
                return file.read().decode("utf-8", "replace").strip()
        except OSError:
            return ""

    def stop(self) -> None:
        """Ask the child to stop, then end every process it started: its group, its PID namespace
        (bubblewrap), its uid (root), and anything carrying its token (the plain sandbox)."""
        if self.process is not None:
            if self.process.poll() is None and self.task_write is not None:
                try:
                    wire.write_frame(self.task_write, {"kind": "stop", "id": -1})
                    self.process.wait(timeout=0.5)
                except (OSError, subprocess.TimeoutExpired):
                    pass
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            self.process.wait()
            if not self.sandbox.bwrap:
                _kill_marked(self.token)
        if self.lease is not None:
            self.lease.release()
            self.lease = None
        for name in ("task_write", "result_read"):
            fd = getattr(self, name, None)
            if fd is not None:
                try:
                    os.close(fd)
                except OSError:
                    pass
                setattr(self, name, None)


class CpuLimitExceeded(wire.ChannelTimeout):
    """A task used more CPU time than its budget."""


def _kill_marked(token: str) -> None:
    """Kill every live process whose environment carries ``FTR_SANDBOX_TOKEN=token`` (the plain
    sandbox run by an ordinary user, whose children share the user's uid)."""
    marker = f"FTR_SANDBOX_TOKEN={token}".encode()

    def carries_marker(pid: str) -> bool:
        with open(f"/proc/{pid}/environ", "rb") as file:
            return marker in file.read().split(b"\0")

    _kill_every(carries_marker, rounds=40, pause=0.05)
