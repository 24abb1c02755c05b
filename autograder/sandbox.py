"""Running untrusted student code: a child process with limits, a private channel, and no way back in.

The child (:mod:`autograder.child`) runs

* in a fresh temporary folder (its working directory), with a stripped environment;
* as an unprivileged user when the grader is root (``nobody`` unless ``FTR_SANDBOX_USER`` says
  otherwise), so it can read neither the expected results nor the grader's files; and, where the
  system allows mount namespaces (Linux, as root), with the kit's own folder covered by an empty
  read-only file system, so it cannot read the reference solutions even when the kit is
  world-readable;
* under ``resource`` limits: CPU seconds, address space, processes, file size (its output);
* with a wall-clock limit per task and per submission, in its own process group (session), which
  is killed afterwards together with anything that carries the sandbox's token in its environment;
* with ``sys.path`` = a private copy of ``reference/world``, the submission folder, the standard
  library and site-packages: not the reference solutions, not the autograder.

Tasks go in and results come back over two inherited pipes, framed by :mod:`autograder.wire` and
size-limited. Whatever the child prints goes to a capped file that is shown as feedback only.

>>> limits = Limits(task_seconds=5)
>>> limits.task_seconds, limits.memory_bytes // 2**20
(5, 2048)
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import pwd
import resource
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from array import array
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Self

from . import wire

KIT_ROOT = Path(__file__).resolve().parents[1]
WORLD_DIR = KIT_ROOT / "reference" / "world"


@dataclass
class Limits:
    """Resource limits for one child process (one check's tasks)."""

    task_seconds: float = 30.0        # wall clock per task (one instance, or the heap sequences)
    total_seconds: float = 300.0      # wall clock for all the tasks of one child
    cpu_seconds: int = 300            # RLIMIT_CPU of the child
    memory_bytes: int = 2 * 2**30     # RLIMIT_AS: address space
    processes: int = 64               # RLIMIT_NPROC (per user: counts only when not root)
    file_bytes: int = 8 * 2**20       # RLIMIT_FSIZE: the most the child may write to any file
    result_bytes: int = 64 * 2**20    # the largest reply the grader reads
    output_shown: int = 3000          # characters of the child's printed output kept for feedback


@dataclass
class TaskOutcome:
    """What came back for one task: a reply (``header``, ``arrays``) or a ``failure`` message."""

    task_id: int
    header: dict | None = None
    arrays: list[array] = field(default_factory=list)
    failure: str | None = None
    seconds: float = 0.0
    timed_out: bool = False


class SandboxSetupError(RuntimeError):
    """The sandbox cannot be set up on this machine (no usable interpreter for the unprivileged user)."""


def _sandbox_user() -> pwd.struct_passwd | None:
    """The account the child runs as, or None when the grader is not root (it cannot switch users)."""
    if os.geteuid() != 0:
        return None
    name = os.environ.get("FTR_SANDBOX_USER", "nobody")
    try:
        return pwd.getpwnam(name)
    except KeyError:
        raise SandboxSetupError(f"the sandbox user {name!r} does not exist (create it, or set FTR_SANDBOX_USER)") from None


_PYTHON_CACHE: dict[int | None, str] = {}


def sandbox_python(user: pwd.struct_passwd | None) -> str:
    """An interpreter the sandbox user can run with NumPy: ``FTR_SANDBOX_PYTHON``, this one, or the system's."""
    uid = None if user is None else user.pw_uid
    if uid in _PYTHON_CACHE:
        return _PYTHON_CACHE[uid]
    override = os.environ.get("FTR_SANDBOX_PYTHON")
    candidates = [override] if override else [sys.executable, "/usr/bin/python3"]
    for candidate in candidates:
        if not candidate or not os.path.exists(candidate):
            continue
        try:
            probe = subprocess.run(
                [candidate, "-I", "-c", "import numpy, sys; assert sys.version_info >= (3, 10)"],
                cwd="/", env={"PATH": "/usr/bin:/bin"}, capture_output=True, check=False,
                preexec_fn=None if user is None else _drop_privileges(user), timeout=60,
            )
        except OSError:  # the sandbox user may not even reach this interpreter
            continue
        if probe.returncode == 0:
            _PYTHON_CACHE[uid] = candidate
            return candidate
    who = "you" if user is None else f"the sandbox user {user.pw_name!r}"
    raise SandboxSetupError(
        f"no Python >= 3.10 with NumPy that {who} can run (tried {', '.join(c for c in candidates if c)}); "
        "install one (Debian: apt-get install python3-numpy) or set FTR_SANDBOX_PYTHON"
    )


def _set_limit(which: int, soft: int, hard: int | None = None) -> None:
    """Set a resource limit; where the system refuses one (macOS and RLIMIT_AS), go on without it."""
    try:
        resource.setrlimit(which, (soft, soft if hard is None else hard))
    except (ValueError, OSError):
        pass


# -- hiding the kit from the child (Linux mount namespaces) -------------------------------------------

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


def paths_to_cover(python: str, sandbox_root: Path) -> list[str]:
    """The folders to hide from the child: the kit's folder, unless the child needs something in it
    (its interpreter or its sandbox folder lives there, in which case nothing can be hidden)."""
    kit = KIT_ROOT
    needed = [Path(python).resolve(), Path(python).absolute(), sandbox_root.resolve()]
    if any(path == kit or kit in path.parents for path in needed):
        return []
    return [str(kit)]


_COVERING_WORKS: dict[str, bool] = {}


def covering_works(python: str) -> bool:
    """Whether this machine lets the grader hide folders from its children (tried once, as root)."""
    if os.geteuid() != 0 or not sys.platform.startswith("linux"):
        return False
    if python not in _COVERING_WORKS:
        probe_dir = Path(tempfile.mkdtemp(prefix="ftr-cover-probe-"))
        try:
            (probe_dir / "visible").write_text("x")
            probe = subprocess.run(
                [python, "-I", "-c", f"import os, sys; sys.exit(1 if os.listdir({str(probe_dir)!r}) else 0)"],
                cwd="/", env={"PATH": "/usr/bin:/bin"}, capture_output=True, timeout=60,
                preexec_fn=lambda: _cover([str(probe_dir)]),  # noqa: PLW1509
            )
            _COVERING_WORKS[python] = probe.returncode == 0
        except (OSError, subprocess.SubprocessError):
            _COVERING_WORKS[python] = False
        finally:
            shutil.rmtree(probe_dir, ignore_errors=True)
    return _COVERING_WORKS[python]


def exposure_warning() -> str | None:
    """A warning when the sandbox user could read the kit's reference solutions (world-readable kit
    that the grader cannot hide from its children)."""
    solutions = KIT_ROOT / "reference" / "solutions" / "replanning.py"
    if os.geteuid() != 0 or not solutions.exists():
        return None
    try:
        user = _sandbox_user()
        python = sandbox_python(user)
    except SandboxSetupError:
        return None  # grading will say what is missing
    # Sandbox folders are made in the temporary folder (see Sandbox.__enter__).
    if covering_works(python) and paths_to_cover(python, Path(tempfile.gettempdir())):
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


def _drop_privileges(user: pwd.struct_passwd):
    def drop() -> None:
        os.setgroups([])
        os.setgid(user.pw_gid)
        os.setuid(user.pw_uid)
    return drop


class Sandbox:
    """A sandbox folder for one submission, from which child processes run its code.

    Use as a context manager; ``run(tasks)`` starts a child, feeds it the tasks one by one and yields
    a :class:`TaskOutcome` per task. A task that times out or kills its child is reported as a
    failure and a fresh child takes the remaining tasks.

    ``files`` maps relative paths to bytes: the student's modules (or a notebook's statements).
    """

    def __init__(self, files: dict[str, bytes], limits: Limits | None = None) -> None:
        self.files = files
        self.limits = limits or Limits()
        self.user = _sandbox_user()
        self.python = sandbox_python(self.user)
        self.root: Path | None = None
        self.private: Path | None = None

    # -- the folder ---------------------------------------------------------------------------------

    def __enter__(self) -> Self:
        self.root = Path(tempfile.mkdtemp(prefix="ftr-sandbox-"))
        self.private = Path(tempfile.mkdtemp(prefix="ftr-grader-"))  # 0700: the child cannot look in
        lib, submission, work = self.root / "lib", self.root / "submission", self.root / "work"
        shutil.copytree(WORLD_DIR, lib / "reference" / "world", ignore=shutil.ignore_patterns("__pycache__"))
        (lib / "reference" / "__init__.py").write_text('"""The public part of ftr-kit (the sandbox\'s copy)."""\n')
        shutil.copy(Path(__file__).with_name("child.py"), lib / "ftr_child.py")
        shutil.copy(Path(__file__).with_name("wire.py"), lib / "ftr_wire.py")
        submission.mkdir()
        for relative, data in self.files.items():
            target = submission / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        work.mkdir()
        # Readable (not writable) by everyone: lib and submission. Writable by the child: work only.
        for folder in (lib, submission):
            for path in [folder, *folder.rglob("*")]:
                path.chmod(0o755 if path.is_dir() else 0o644)
        self.root.chmod(0o711)
        if self.user is not None:
            os.chown(work, self.user.pw_uid, self.user.pw_gid)
        work.chmod(0o700)
        return self

    def __exit__(self, *exc_info) -> None:
        for folder in (self.root, self.private):
            if folder is not None:
                shutil.rmtree(folder, ignore_errors=True)

    # -- children -----------------------------------------------------------------------------------

    def run(self, tasks: list[tuple[dict, list[array]]]) -> Iterator[TaskOutcome]:
        """Run ``tasks`` (header, arrays) in order; yield one outcome per task.

        The first outcome has ``task_id == -1`` and the child's ``hello`` (import errors, names found)
        when the child started; later restarts do not repeat it. Once a task of a ``group`` runs out
        of time, the group's remaining tasks are skipped (an infinite loop would hit every one).
        """
        limits = self.limits
        submission_deadline = time.monotonic() + limits.total_seconds
        pending = list(tasks)
        first_child = True
        timed_out_groups: set = set()
        while pending:
            if time.monotonic() >= submission_deadline:
                for task, _ in pending:
                    yield TaskOutcome(task["id"], failure=f"not run: the submission's total time limit of "
                                                          f"{limits.total_seconds:g} s was used up")
                return
            child = _Child(self, submission_deadline)
            try:
                hello = child.start()
            except wire.FrameError as error:
                failure = child.explain(error, "while importing your code")
                if first_child:
                    yield TaskOutcome(-1, failure=failure)
                for task, _ in pending:
                    yield TaskOutcome(task["id"], failure=failure)
                return
            if first_child:
                yield TaskOutcome(-1, header=hello)
                first_child = False
            while pending:
                task, arrays = pending.pop(0)
                if task.get("group") in timed_out_groups:
                    yield TaskOutcome(task["id"], failure="not run: an earlier instance of this check ran out of time")
                    continue
                if time.monotonic() >= submission_deadline:
                    pending.insert(0, (task, arrays))
                    break
                outcome = child.run_task(task, arrays)
                yield outcome
                if outcome.timed_out and task.get("group") is not None:
                    timed_out_groups.add(task["group"])
                if outcome.failure is not None and outcome.header is None:
                    break  # the child is gone or stuck: start a fresh one for the rest
            child.stop()


class _Child:
    """One child process and its two pipes."""

    def __init__(self, sandbox: Sandbox, submission_deadline: float) -> None:
        self.sandbox = sandbox
        self.limits = sandbox.limits
        self.submission_deadline = submission_deadline
        self.token = secrets.token_hex(16)
        self.process: subprocess.Popen | None = None

    def start(self) -> dict:
        sandbox, limits = self.sandbox, self.limits
        task_read, self.task_write = os.pipe()
        self.result_read, result_write = os.pipe()
        self.output_path = sandbox.private / f"output-{self.token}.txt"
        env = {
            "PATH": "/usr/bin:/bin", "HOME": str(sandbox.root / "work"), "LANG": "C.UTF-8",
            "PYTHONDONTWRITEBYTECODE": "1", "PYTHONHASHSEED": "0", "MPLBACKEND": "Agg",
            "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
            "FTR_SANDBOX_TOKEN": self.token,
        }
        user = sandbox.user
        hidden = paths_to_cover(sandbox.python, sandbox.root) if user is not None and covering_works(sandbox.python) else []

        def limit_and_drop() -> None:
            _set_limit(resource.RLIMIT_CPU, limits.cpu_seconds, limits.cpu_seconds + 1)
            _set_limit(resource.RLIMIT_AS, limits.memory_bytes)
            _set_limit(resource.RLIMIT_FSIZE, limits.file_bytes)
            _set_limit(resource.RLIMIT_CORE, 0)
            if user is not None:
                if hidden:
                    _cover(hidden)  # needs root, so before the drop
                _set_limit(resource.RLIMIT_NPROC, limits.processes)
                _drop_privileges(user)()

        try:
            with open(self.output_path, "wb") as output:
                # preexec_fn is the only way to set limits and drop privileges between fork and exec;
                # the grader starts its children from one thread.
                self.process = subprocess.Popen(
                    [sandbox.python, "-I", "-S", "-B", str(sandbox.root / "lib" / "ftr_child.py"),
                     str(task_read), str(result_write), str(sandbox.root / "lib"), str(sandbox.root / "submission")],
                    cwd=sandbox.root / "work", env=env, stdin=subprocess.DEVNULL, stdout=output,
                    stderr=subprocess.STDOUT, pass_fds=(task_read, result_write), start_new_session=True,
                    preexec_fn=limit_and_drop,  # noqa: PLW1509
                )
        finally:
            os.close(task_read)
            os.close(result_write)
        deadline = min(time.monotonic() + max(self.limits.task_seconds, 30.0), self.submission_deadline)
        header, _ = wire.read_frame(self.result_read, 1 << 20, deadline)
        if header.get("kind") != "hello":
            raise wire.FrameError("the child did not start properly")
        return header

    def run_task(self, task: dict, arrays: list[array]) -> TaskOutcome:
        began = time.monotonic()
        deadline = min(began + task.get("seconds", self.limits.task_seconds), self.submission_deadline)
        try:
            wire.write_frame(self.task_write, task, arrays)
            header, reply_arrays = wire.read_frame(self.result_read, self.limits.result_bytes, deadline)
        except (wire.FrameError, OSError) as error:
            failure = self.explain(error, f"while running {task.get('label', 'a task')}")
            return TaskOutcome(task["id"], failure=failure, seconds=time.monotonic() - began,
                               timed_out=isinstance(error, wire.ChannelTimeout))
        seconds = time.monotonic() - began
        if header.get("task") != task["id"]:
            self.stop()
            return TaskOutcome(task["id"], failure="the reply did not belong to the task (the channel was tampered with)",
                               seconds=seconds)
        return TaskOutcome(task["id"], header=header, arrays=reply_arrays, seconds=seconds)

    def explain(self, error: Exception, when: str) -> str:
        """A one-paragraph reason a child failed, for the student."""
        self.stop()
        code = self.process.returncode if self.process else None
        if isinstance(error, wire.ChannelTimeout) and time.monotonic() >= self.submission_deadline:
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
        """Ask the child to stop, then kill its process group and anything else carrying its token."""
        if self.process is None:
            return
        if self.process.poll() is None:
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
        _kill_marked(self.token)
        for fd in ("task_write", "result_read"):
            if getattr(self, fd, None) is not None:
                try:
                    os.close(getattr(self, fd))
                except OSError:
                    pass
                setattr(self, fd, None)


def _kill_marked(token: str) -> None:
    """Kill every live process whose environment carries ``FTR_SANDBOX_TOKEN=token`` (escaped the group).

    Sweeps until none is left (a fork loop may be spawning while we sweep), for at most two seconds.
    """
    marker = f"FTR_SANDBOX_TOKEN={token}".encode()
    if not os.path.isdir("/proc"):
        return  # no /proc (macOS): the process-group kill has to do
    for _ in range(40):
        alive = False
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                with open(f"/proc/{entry}/environ", "rb") as file:
                    if marker not in file.read().split(b"\0"):
                        continue
                with open(f"/proc/{entry}/stat", "rb") as file:
                    if file.read().rsplit(b")", 1)[-1].split()[0] == b"Z":
                        continue  # already dead, waiting for its parent
                os.kill(int(entry), signal.SIGKILL)
                alive = True
            except (OSError, ProcessLookupError, IndexError):
                continue
        if not alive:
            return
        time.sleep(0.05)
