"""Running one child: start it (bubblewrap or the plain sandbox, its uid and control group as root),
send it tasks, time them from outside, explain why it failed, and end every process it started.

A child needs of its sandbox only what :class:`SandboxFolder` names (the setup, the limits, the
sandbox folder and the grader's private one, the submission's group): the sandbox
(:mod:`autograder.sandbox`) makes those and runs lanes of tasks through children.

>>> Limits().task_seconds, TaskOutcome(3, failure="not run").exhausted
(30.0, False)
"""

from __future__ import annotations

import json
import os
import secrets
import signal
import subprocess
import tempfile
import time
from array import array
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from . import wire
from .accounting import PROC, ChildGroup, any_busy, tree_cpu_seconds, tree_pids
from .bubblewrap import BWRAP_PROCESSES, INSIDE, bwrap_command, inside
from .childsetup import ChildSetup, is_root, remove_tree
from .mounts import enter_namespaces_and_cover, namespace_prefix, paths_to_cover
from .uids import UidLease, kill_every


@dataclass
class Limits:
    """Resource limits for the children of one submission."""

    task_seconds: float = 30.0        # CPU budget per task at least (bigger instances get more: see grader)
    total_seconds: float = 1800.0     # wall clock for all the tasks of one submission
    cpu_budget_seconds: float | None = None  # CPU time for all the tasks of one submission (None: no budget)
    idle_seconds: float = 10.0        # time a task may spend not using the CPU (sleeping, waiting)
    memory_bytes: int = 2 * 2**30     # all processes of one child together (per process where no control group)
    processes: int = 64               # processes of one child (with a control group; as root)
    processes_without_groups: int = 2  # as root without control groups: RLIMIT_AS = memory_bytes / this
    file_bytes: int = 8 * 2**20       # RLIMIT_FSIZE: the most the child may write to any file
    scratch_bytes: int = 64 * 2**20   # size of each private tmpfs (/tmp, /dev/shm and the working folder)
    result_bytes: int = 64 * 2**20    # the largest reply the grader reads (tasks may set less)
    total_result_bytes: int = 1 << 30  # all replies of one child
    output_shown: int = 3000          # characters of the child's printed output kept for feedback


@dataclass
class TaskOutcome:
    """What came back for one task: a reply (``header``, ``arrays``) or a ``failure`` message (every
    outcome has exactly one of ``header`` and ``failure``).

    ``cpu_seconds``: the CPU time the child's processes spent on the task (None where unknown).
    """

    task_id: int
    header: dict | None = None
    arrays: list[array] = field(default_factory=list)
    failure: str | None = None
    seconds: float = 0.0
    cpu_seconds: float | None = None
    timed_out: bool = False
    out_of_memory: bool = False   # the task ended for memory: the limit killed its child, or it raised MemoryError

    @property
    def exhausted(self) -> bool:
        """Out of time or memory: the check's later instances are not run (they would cost as much)."""
        error = (self.header or {}).get("error") if (self.header or {}).get("kind") == "error" else None
        return self.timed_out or self.out_of_memory or (isinstance(error, str) and "MemoryError" in error)


class SandboxFolder(Protocol):
    """What a child needs of its sandbox (:class:`autograder.sandbox.Sandbox` is one)."""

    setup: ChildSetup
    limits: Limits

    def folders(self) -> tuple[Path, Path]: ...

    def group_id(self) -> int: ...


class Child:
    """One child process, its two pipes (its stdin and stdout), and as root its uid and control group."""

    def __init__(self, sandbox: SandboxFolder, submission_deadline: float, settings: dict) -> None:
        self.sandbox = sandbox
        self.limits = sandbox.limits
        self.submission_deadline = submission_deadline
        self.settings = settings
        self.process: subprocess.Popen | None = None
        self.token = secrets.token_hex(16)
        self.lease: UidLease | None = None
        self.group: ChildGroup | None = None
        self.out_of_memory = False
        self.work_dir: Path | None = None
        self.output_path: Path | None = None
        self.task_write: int | None = None
        self.result_read: int | None = None
        self.reader: wire.FrameReader | None = None
        self._printed: str | None = None

    def _resource_settings(self) -> dict:
        """RLIMIT values for the child: with a control group it caps the tree and RLIMIT_AS is a per-process
        guard; as root without one, RLIMIT_AS x RLIMIT_NPROC add up to the budget; otherwise per process."""
        limits = self.limits
        if self.group is not None or self.lease is None:
            return {"memory_bytes": limits.memory_bytes, "processes": None}
        python_processes = max(1, limits.processes_without_groups)
        overhead = BWRAP_PROCESSES if self.sandbox.setup.bwrap else 0
        return {"memory_bytes": limits.memory_bytes // python_processes, "processes": python_processes + overhead}

    def start(self) -> dict:
        """Start the child; return its hello (import errors, names found)."""
        sandbox, limits, setup = self.sandbox, self.limits, self.sandbox.setup
        root, private = sandbox.folders()
        task_read, self.task_write = os.pipe()
        self.result_read, result_write = os.pipe()
        self.reader = wire.FrameReader(self.result_read, 1 << 20, limits.total_result_bytes)
        self.output_path = private / f"output-{self.token}.txt"
        if is_root():
            self.lease = UidLease()
            self.group = ChildGroup.create(self.token, limits.memory_bytes, limits.processes)
        settings = dict(self.settings, file_bytes=limits.file_bytes, **self._resource_settings())
        env = {
            "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "PYTHONDONTWRITEBYTECODE": "1", "PYTHONHASHSEED": "0",
            "MPLBACKEND": "Agg", "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
            "FTR_SANDBOX_TOKEN": self.token,
        }
        if os.name == "nt" and "SYSTEMROOT" in os.environ:
            env["SYSTEMROOT"] = os.environ["SYSTEMROOT"]  # Windows' Python cannot start without it
        preexec = None
        if setup.bwrap:
            lib, submission, work, site = f"{INSIDE}/lib", f"{INSIDE}/submission", f"{INSIDE}/work", f"{INSIDE}/site"
            prefix = bwrap_command(setup.bwrap, setup.python, root / "lib", root / "submission",
                                   setup.site, limits.scratch_bytes, list(setup.covered))
            cwd = "/"
        else:
            lib, submission, site = str(root / "lib"), str(root / "submission"), str(setup.site)
            self.work_dir = Path(tempfile.mkdtemp(prefix="work-", dir=root))
            work, cwd, prefix = str(self.work_dir), str(self.work_dir), []
            if self.lease:
                uid = self.lease.uid
                os.chown(self.work_dir, uid, uid)
                # The shared scratch folders get private tmpfs mounts, even the one holding the sandbox
                # folder and the child site (bound back in place); only the interpreter's keeps its own.
                needed = [os.path.realpath(setup.python), os.path.abspath(setup.python)]
                scratch = [(path, f"size={limits.scratch_bytes},mode=1777") for path in ("/tmp", "/var/tmp", "/dev/shm", "/run/lock")
                           if os.path.isdir(path) and not any(inside(n, os.path.realpath(path)) for n in needed)]
                scratch.append((work, f"size={limits.scratch_bytes},mode=0700,uid={uid},gid={uid}"))
                keep = [os.path.realpath(p) for p in (root, setup.site)]
                # Mount, network, IPC and UTS namespaces and the covers between fork and exec; then a PID
                # namespace with its own /proc, the child's uid and its submission's group (util-linux).
                preexec = enter_namespaces_and_cover(paths_to_cover(setup.python, root, setup.covered), scratch,
                                                     keep, work)
                prefix = namespace_prefix(uid, sandbox.group_id(), covered=True)
            self.work_dir.chmod(0o700)
        env["HOME"] = work
        settings["site"] = site
        command = prefix + [setup.python, "-I", "-S", "-B", f"{lib}/ftr_child.py", lib, submission,
                            json.dumps(settings)]
        # bubblewrap: switch uid before exec (bwrap then runs unprivileged, in a user namespace of that uid);
        # None leaves user, group and extra groups as they are (Popen's defaults).
        # Its one extra group is its submission's: the only group that may read the sandbox folder.
        switch_uid = self.lease.uid if self.lease and setup.bwrap else None
        try:
            with open(self.output_path, "wb") as output:
                self.process = process = subprocess.Popen(
                    command, cwd=cwd, env=env, stdin=task_read, stdout=result_write, stderr=output,
                    start_new_session=True, preexec_fn=preexec, user=switch_uid, group=switch_uid,
                    extra_groups=None if switch_uid is None else [sandbox.group_id()],
                )
        finally:
            os.close(task_read)
            os.close(result_write)
        # The child says "ready" once the harness is imported, before any student code runs: then its
        # whole tree (bubblewrap's processes too) goes into its control group, and it may start.
        deadline = min(time.monotonic() + max(limits.task_seconds, 60.0), self.submission_deadline)
        header, _ = self._read(deadline, 1 << 16, limits.task_seconds, 2 * limits.idle_seconds)
        if header.get("kind") != "ready":
            raise wire.FrameError("the child did not start properly")
        if self.group is not None and self.lease is not None:  # as root both, else neither (made together above)
            self.group.adopt(_own_pids(process.pid, self.lease.uid))
        wire.write_frame(self.task_write, {"kind": "start", "id": -1})
        header, _ = self._read(deadline, 1 << 20, limits.task_seconds, limits.idle_seconds)
        if header.get("kind") != "hello":
            raise wire.FrameError("the child did not start properly")
        errors, names = header.get("errors"), header.get("names")
        reached = header.get("reached", [])
        if (not isinstance(errors, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in errors.items())
                or not isinstance(names, list) or not all(isinstance(n, str) for n in names)
                or not isinstance(reached, list) or not all(isinstance(r, str) for r in reached)):
            raise wire.FrameError("the child's first message is malformed")
        return {"kind": "hello", "errors": {k[:100]: v[:3000] for k, v in list(errors.items())[:50]},
                "names": [n[:100] for n in names[:20]], "reached": [r[:300] for r in reached[:20]]}

    def cpu_seconds(self) -> float | None:
        """CPU time of the child's whole tree so far: its control group's, else /proc's; None where unknown."""
        if self.group is not None:
            try:
                return self.group.cpu_seconds()
            except (OSError, ValueError):
                pass
        return tree_cpu_seconds(self._pid())

    def busy(self) -> bool | None:
        """Is any thread of the child's tree running or runnable (None where unknown: no /proc)?"""
        pids = self.group.pids() if self.group is not None else tree_pids(self._pid())
        return any_busy(pids)

    def _pid(self) -> int:
        """The child's first process (bubblewrap's, in a bubblewrap sandbox)."""
        # Only start() (after launching the process) and run_task() read and time the child.
        assert self.process is not None, "the child is read and timed only once start() launched it"
        return self.process.pid

    def _read(self, deadline: float, limit: int, cpu_budget: float | None = None,
              idle_seconds: float | None = None) -> tuple[dict, list[array]]:
        """The next frame; ChannelTimeout at the wall deadline, when the CPU budget is spent, or when the
        child's tree has spent more than ``idle_seconds`` with no thread running or waiting for a CPU
        (sleeping, waiting on something: a busy machine's queue for the CPU does not count)."""
        # start() makes the reader before anything is read (and stop() never unsets it).
        assert self.reader is not None, "a child's replies are read only once start() made the reader"
        began = last = time.monotonic()
        cpu_start = self.cpu_seconds() if cpu_budget is not None else None
        idle = 0.0
        while True:
            now = time.monotonic()
            if now >= deadline:
                raise wire.ChannelTimeout(f"no reply within the wall-clock limit of {deadline - began:.0f} s")
            frame = self.reader.poll(min(deadline - now, 0.25), limit)
            if frame is not None:
                return frame
            if cpu_start is not None and cpu_budget is not None:  # (cpu_start is measured only with a budget)
                used = self.cpu_seconds()
                if used is not None and used - cpu_start > cpu_budget:
                    raise CpuLimitExceeded(f"more than {cpu_budget:g} s of CPU time")
            now = time.monotonic()
            if idle_seconds is not None and self.busy() is False:
                idle += now - last
                if idle > idle_seconds:
                    raise IdleLimitExceeded(f"more than {idle_seconds:g} s without computing (sleeping or waiting; "
                                            f"the limit for time not spent computing is {idle_seconds:g} s)")
            last = now

    def run_task(self, task: dict, arrays: list[array]) -> TaskOutcome:
        began = time.monotonic()
        cpu_budget = float(task.get("cpu_seconds", self.limits.task_seconds))
        wall = max(3 * cpu_budget, cpu_budget + 20) + self.limits.idle_seconds
        deadline = min(began + wall, self.submission_deadline)
        cpu_start = self.cpu_seconds()
        # Tasks run only between a successful start() (which opens the pipe) and stop() (which closes it:
        # a lane stops sending tasks to a child once one failed, and every failure stops the child).
        assert self.task_write is not None, "a task is sent only to a started child that is not stopped"
        try:
            wire.write_frame(self.task_write, task, arrays)
            header, reply_arrays = self._read(deadline, int(task.get("reply_bytes", self.limits.result_bytes)),
                                              cpu_budget, self.limits.idle_seconds)
        except (wire.FrameError, OSError) as error:
            cpu_end = self.cpu_seconds()  # before explain() stops the child and its accounting with it
            failure = self.explain(error, f"while running {task.get('label', 'a task')}")
            return TaskOutcome(task["id"], failure=failure, seconds=time.monotonic() - began,
                               cpu_seconds=None if cpu_start is None or cpu_end is None else cpu_end - cpu_start,
                               timed_out=isinstance(error, wire.ChannelTimeout), out_of_memory=self.out_of_memory)
        seconds = time.monotonic() - began
        cpu_end = self.cpu_seconds()
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
        if isinstance(error, (CpuLimitExceeded, IdleLimitExceeded)):
            text = f"time limit exceeded {when}: {error} (an infinite loop, or far too slow)"
        elif isinstance(error, wire.ChannelTimeout) and time.monotonic() >= self.submission_deadline:
            text = (f"time limit exceeded {when}: the submission's total time limit of "
                    f"{self.limits.total_seconds:g} s was used up")
        elif isinstance(error, wire.ChannelTimeout):
            text = f"time limit exceeded {when}: {error} (an infinite loop, or far too slow)"
        elif isinstance(error, wire.ChannelClosed) and self.out_of_memory:
            text = (f"your code's process ended {when}: its processes together used more than the memory limit of "
                    f"{self.limits.memory_bytes // 2**20} MiB")
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
        if self._printed is not None:
            return self._printed
        if self.output_path is None:  # start() failed before naming the file
            return ""
        try:
            with open(self.output_path, "rb") as file:
                file.seek(0, os.SEEK_END)
                size = file.tell()
                file.seek(max(0, size - self.limits.output_shown))
                return file.read().decode("utf-8", "replace").strip()
        except OSError:
            return ""

    def stop(self) -> None:
        """Ask the child to stop, then end every process it started (its group, its PID namespace, its
        uid, its control group, anything carrying its token) and delete its files at once: its
        printed output (the tail is kept for feedback) and, in the plain sandbox, its working folder."""
        if self.process is not None:
            if self.process.poll() is None and self.task_write is not None:
                try:
                    wire.write_frame(self.task_write, {"kind": "stop", "id": -1})
                    self.process.wait(timeout=0.5)
                except (OSError, subprocess.TimeoutExpired):
                    pass
            if hasattr(os, "killpg"):
                try:
                    os.killpg(self.process.pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass
            else:
                self.process.kill()
            self.process.wait()
            if self.group is not None:
                self.group.kill()
            if not self.sandbox.setup.bwrap:
                _kill_marked(self.token)
        if self.group is not None:
            self.out_of_memory = self.group.out_of_memory()
            self.group.remove()
            self.group = None
        if self.lease is not None:
            self.lease.release()
            self.lease = None
        if self._printed is None and self.output_path is not None:
            self._printed = self.printed()
            try:
                self.output_path.unlink()
            except OSError:
                pass
        if self.work_dir is not None:
            remove_tree(self.work_dir)
            self.work_dir = None
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


class IdleLimitExceeded(wire.ChannelTimeout):
    """A task spent too long not computing (sleeping, waiting on something that never comes)."""


def _own_pids(pid: int, uid: int) -> list[int]:
    """A child's processes as root: its first process ``pid`` and every process of its leased ``uid``
    (bubblewrap's included)."""
    pids = [pid]
    for entry in os.listdir(PROC):
        if entry.isdigit():
            try:
                if os.stat(f"{PROC}/{entry}").st_uid == uid:
                    pids.append(int(entry))
            except OSError:
                continue
    return sorted(set(pids))


def _kill_marked(token: str) -> None:
    """Kill every live process whose environment carries ``FTR_SANDBOX_TOKEN=token`` (the plain
    sandbox run by an ordinary user, whose children share the user's uid)."""
    marker = f"FTR_SANDBOX_TOKEN={token}".encode()

    def carries_marker(pid: str) -> bool:
        with open(f"{PROC}/{pid}/environ", "rb") as file:
            return marker in file.read().split(b"\0")

    kill_every(carries_marker, rounds=40, pause=0.05)
