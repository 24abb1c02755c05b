"""What a child's processes cost: control groups where the machine has them, ``/proc`` otherwise.

A root grader puts each child's whole process tree in control groups of its own, made under the
grader's own groups (so any limit on the grader still holds):

* cgroup v1 (``/sys/fs/cgroup/{memory,pids,cpuacct}``): ``memory.limit_in_bytes`` (and
  ``memsw``, where swap is accounted), ``pids.max``, and ``cpuacct.usage`` for the CPU time;
* cgroup v2 (``/sys/fs/cgroup`` with ``memory`` and ``pids`` controllers): ``memory.max``,
  ``memory.swap.max``, ``pids.max``, and ``cpu.stat``'s ``usage_usec``.

A control group counts every process ever in it, also those forked while ``SIGCHLD`` is ignored
(reaped by the kernel, so their time reaches no parent's ``cutime``) and the pages they write to a
tmpfs. Without control groups (not root, a container without them, macOS, Windows), the CPU time
of a tree is summed from ``/proc/PID/stat`` (utime, stime and those of reaped children), or is not
known at all: then only wall-clock limits hold.

>>> cpuacct_seconds("2500000000\\n")
2.5
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

PROC = "/proc"
CGROUP_ROOT = Path("/sys/fs/cgroup")
_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def process_state(pid: str) -> str:
    """The one-letter state of a process (``Z`` for a zombie); OSError if it is gone."""
    with open(f"{PROC}/{pid}/stat", "rb") as file:
        return file.read().rsplit(b")", 1)[-1].split()[0].decode()


def tree_cpu_seconds(root_pid: int) -> float | None:
    """CPU seconds of ``root_pid`` and all its descendants, including those they have reaped; None without /proc."""
    if not os.path.isdir(PROC):
        return None
    parents: dict[int, int] = {}
    times: dict[int, float] = {}
    for entry in os.listdir(PROC):
        if not entry.isdigit():
            continue
        try:
            with open(f"{PROC}/{entry}/stat", "rb") as file:
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


def tree_pids(root_pid: int) -> list[int]:
    """``root_pid`` and all its live descendants (from /proc; just ``root_pid`` without it)."""
    if not os.path.isdir(PROC):
        return [root_pid]
    children: dict[int, list[int]] = {}
    for entry in os.listdir(PROC):
        if entry.isdigit():
            try:
                with open(f"{PROC}/{entry}/stat", "rb") as file:
                    parent = int(file.read().rsplit(b")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(parent, []).append(int(entry))
    found, stack = [], [root_pid]
    while stack:
        pid = stack.pop()
        found.append(pid)
        stack.extend(children.get(pid, []))
    return found


def any_busy(pids: list[int]) -> bool | None:
    """Is any thread of ``pids`` running, waiting for a CPU (``R``) or for the disk (``D``)? None without
    /proc. A tree where none is has nothing to do but wait: sleeping, or waiting on something."""
    if not os.path.isdir(PROC):
        return None
    for pid in pids:
        try:
            threads = os.listdir(f"{PROC}/{pid}/task")
        except OSError:
            continue
        for thread in threads:
            try:
                with open(f"{PROC}/{pid}/task/{thread}/stat", "rb") as file:
                    if file.read().rsplit(b")", 1)[-1].split()[0] in (b"R", b"D"):
                        return True
            except (OSError, IndexError):
                continue
    return False


def cpuacct_seconds(text: str) -> float:
    """``cpuacct.usage`` (nanoseconds) in seconds."""
    return int(text.strip()) / 1e9


def _own_group(hierarchy: str) -> str | None:
    """The grader's own group in a v1 hierarchy (``memory``, ...) or v2 (``""``), from /proc/self/cgroup."""
    try:
        lines = Path(f"{PROC}/self/cgroup").read_text().splitlines()
    except OSError:
        return None
    for line in lines:
        number, controllers, path = line.split(":", 2)
        if (hierarchy and hierarchy in controllers.split(",")) or (not hierarchy and number == "0" and not controllers):
            return path
    return None


def _write(path: Path, value: str) -> None:
    with open(path, "w") as file:
        file.write(value)


class ChildGroup:
    """The control groups of one child's process tree: memory, processes and CPU, together.

    ``ChildGroup.create(name, memory_bytes, processes)`` makes them (None where the machine has no
    usable control groups, or the grader is not root); ``adopt(pids)`` moves processes in (their
    later children follow by themselves); ``cpu_seconds()``; ``out_of_memory()``; ``kill()`` ends
    every process in it; ``remove()``.
    """

    def __init__(self, folders: dict[str, Path], version: int) -> None:
        self.folders = folders      # "memory", "pids", "cpu" -> the group's folder (the same one on v2)
        self.version = version

    @classmethod
    def create(cls, name: str, memory_bytes: int, processes: int) -> ChildGroup | None:
        if os.environ.get("FTR_SANDBOX_CGROUPS", "auto") == "off" or not hasattr(os, "geteuid") or os.geteuid() != 0:
            return None
        group = cls._create_v1(name) or cls._create_v2(name)
        if group is None:
            return None
        try:
            group._limit(memory_bytes, processes)
        except OSError:
            group.remove()
            return None
        return group

    @classmethod
    def _create_v1(cls, name: str) -> ChildGroup | None:
        folders = {}
        for key, hierarchy in (("memory", "memory"), ("pids", "pids"), ("cpu", "cpuacct")):
            mount = CGROUP_ROOT / hierarchy
            own = _own_group(hierarchy)
            if own is None or not (mount / "cgroup.procs").exists():
                break
            folder = mount / own.lstrip("/") / f"ftr-kit-{name}"
            try:
                folder.mkdir()
            except OSError:
                break
            folders[key] = folder
        if len(folders) == 3:
            return cls(folders, 1)
        cls(folders, 1).remove()
        return None

    @classmethod
    def _create_v2(cls, name: str) -> ChildGroup | None:
        try:
            available = (CGROUP_ROOT / "cgroup.controllers").read_text().split()
        except OSError:
            return None
        own = _own_group("")
        if own is None or not {"memory", "pids", "cpu"} <= set(available):
            return None
        parent = CGROUP_ROOT / own.lstrip("/")
        folder = parent / f"ftr-kit-{name}"
        try:
            enabled = (parent / "cgroup.subtree_control").read_text().split()
            missing = [c for c in ("memory", "pids", "cpu") if c not in enabled]
            if missing:  # fails (EBUSY) where the grader's own group holds processes: then no groups
                _write(parent / "cgroup.subtree_control", " ".join("+" + c for c in missing))
            folder.mkdir()
        except OSError:
            return None
        return cls({"memory": folder, "pids": folder, "cpu": folder}, 2)

    def _limit(self, memory_bytes: int, processes: int) -> None:
        if self.version == 1:
            _write(self.folders["memory"] / "memory.limit_in_bytes", str(memory_bytes))
            swap = self.folders["memory"] / "memory.memsw.limit_in_bytes"
            if swap.exists():
                _write(swap, str(memory_bytes))  # RAM + swap: no escape into swap
            _write(self.folders["pids"] / "pids.max", str(processes))
        else:
            _write(self.folders["memory"] / "memory.max", str(memory_bytes))
            if (self.folders["memory"] / "memory.swap.max").exists():
                _write(self.folders["memory"] / "memory.swap.max", "0")
            _write(self.folders["pids"] / "pids.max", str(processes))

    def adopt(self, pids: list[int]) -> None:
        """Move ``pids`` into every group (OSError if one cannot be moved)."""
        for folder in set(self.folders.values()):
            for pid in pids:
                try:
                    _write(folder / "cgroup.procs", str(pid))
                except ProcessLookupError:
                    continue  # ended meanwhile

    def pids(self) -> list[int]:
        try:
            return [int(line) for line in (self.folders["pids"] / "cgroup.procs").read_text().split()]
        except OSError:
            return []

    def cpu_seconds(self) -> float:
        folder = self.folders["cpu"]
        if self.version == 1:
            return cpuacct_seconds((folder / "cpuacct.usage").read_text())
        for line in (folder / "cpu.stat").read_text().splitlines():
            if line.startswith("usage_usec "):
                return int(line.split()[1]) / 1e6
        return 0.0

    def out_of_memory(self) -> bool:
        """Did the kernel refuse memory to (or kill) a process of the group for its memory limit?"""
        try:
            if self.version == 1:
                text = (self.folders["memory"] / "memory.oom_control").read_text()
                kills = dict(line.split() for line in text.splitlines() if len(line.split()) == 2)
                return int(kills.get("oom_kill", 0)) > 0
            events = dict(line.split() for line in (self.folders["memory"] / "memory.events").read_text().splitlines())
            return int(events.get("oom_kill", 0)) > 0
        except (OSError, ValueError):
            return False

    def kill(self) -> None:
        """SIGKILL every process in the group until it is empty (a fork bomb's children too)."""
        for _ in range(200):
            pids = self.pids()
            if not pids:
                return
            for pid in pids:
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
            time.sleep(0.01)

    def remove(self) -> None:
        """Remove the groups (after ``kill``); a group still busy is retried for a moment, then left."""
        for folder in set(self.folders.values()):
            for _ in range(50):
                try:
                    folder.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    time.sleep(0.02)
