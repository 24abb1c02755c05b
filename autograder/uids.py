"""A uid of its own for every child of a root grader, leased through lock files in one machine-wide place.

Every child gets a uid from a range no account uses (``FTR_SANDBOX_UIDS``, default
3500000-3500999). The lease is an exclusive ``flock`` on ``/run/ftr-kit/uids/<uid>`` (or
``/var/lock/ftr-kit/uids``): one folder for the whole machine, whatever ``TMPDIR`` each grader has,
so two graders never lease the same uid and never kill each other's children. When a lease is
taken and when it is released, every process of that uid is killed.

POSIX only (``fcntl``, ``pwd``): only a root grader leases uids, and only on Linux.

>>> parse_uid_range("3500000-3500009")
(3500000, 3500009)
"""

from __future__ import annotations

import os
import secrets
import signal
import time
from pathlib import Path

from .accounting import PROC, process_state

DEFAULT_UIDS = (3_500_000, 3_500_999)
#: Candidate folders for the lease locks, machine-wide (never under TMPDIR), first usable wins.
LOCK_FOLDERS = ("/run/ftr-kit/uids", "/var/lock/ftr-kit/uids")


class LeaseError(RuntimeError):
    """No uid could be leased (the range is used up, or the lock folder cannot be made)."""


def parse_uid_range(text: str) -> tuple[int, int]:
    """``"LOW-HIGH"`` -> (LOW, HIGH); LeaseError naming the variable otherwise."""
    try:
        low, high = (int(part) for part in text.split("-"))
    except ValueError:
        raise LeaseError(f"FTR_SANDBOX_UIDS must look like 3500000-3500999, got {text!r}") from None
    if not 1000 <= low <= high < 2**31:
        raise LeaseError(f"FTR_SANDBOX_UIDS must be a range of unused uids above 1000, got {text!r}")
    return low, high


def uid_range() -> tuple[int, int]:
    """The range of uids the sandbox may lease: ``FTR_SANDBOX_UIDS`` (``LOW-HIGH``), else the default range."""
    text = os.environ.get("FTR_SANDBOX_UIDS", "")
    return parse_uid_range(text) if text else DEFAULT_UIDS


def lock_folder() -> Path:
    """The machine-wide folder of lease locks (root's own, mode 0700), made if missing."""
    problems = []
    for candidate in LOCK_FOLDERS:
        folder = Path(candidate)
        try:
            folder.parent.mkdir(mode=0o755, parents=True, exist_ok=True)
            folder.mkdir(mode=0o700, exist_ok=True)
            info = os.lstat(folder)
            if os.path.islink(folder) or info.st_uid != os.geteuid():
                problems.append(f"{folder} is not the grader's own folder")
                continue
            os.chmod(folder, 0o700)
            return folder
        except OSError as error:
            problems.append(f"{folder}: {error.strerror}")
    raise LeaseError("no machine-wide folder for the uid lease locks: " + "; ".join(problems))


class UidLease:
    """A uid no account and no other child uses, held (through a lock file) until ``release``."""

    def __init__(self) -> None:
        import fcntl
        import pwd

        low, high = uid_range()
        locks = lock_folder()
        self._fd = None
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
        raise LeaseError(f"all sandbox uids {low}-{high} are in use (FTR_SANDBOX_UIDS)")

    def release(self) -> None:
        if self._fd is not None:
            kill_uid(self.uid)
            os.close(self._fd)
            self._fd = None


def kill_uid(uid: int) -> None:
    """Kill every process of ``uid`` (a sandbox uid: nothing else runs as it), until none is left."""
    kill_every(lambda pid: os.stat(f"{PROC}/{pid}").st_uid == uid, rounds=100, pause=0.02)


def kill_every(matches, rounds: int, pause: float) -> None:
    """SIGKILL every live process whose pid ``matches``, again and again until none is left (a
    process may fork while we look); zombies are skipped. Without /proc it does nothing."""
    if not os.path.isdir(PROC):
        return
    for _ in range(rounds):
        alive = False
        for entry in os.listdir(PROC):
            if not entry.isdigit():
                continue
            try:
                if not matches(entry) or process_state(entry) == "Z":
                    continue  # not ours, or already dead and waiting for its parent
                os.kill(int(entry), signal.SIGKILL)
                alive = True
            except (OSError, IndexError):
                continue
        if not alive:
            return
        time.sleep(pause)
