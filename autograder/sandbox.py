"""Running untrusted student code: child processes walled off from the grader and from each other.

Each child (:mod:`autograder.child`) runs, where the machine allows it, inside **bubblewrap**
(``bwrap``, Debian's ``bubblewrap``), the sandbox Flatpak uses:

* its own PID, mount, network, IPC, UTS and user namespaces: it sees no other process, has no
  network, and ends with the grading (``--die-with-parent``; when the sandbox's first process
  ends, the kernel kills every process left in its PID namespace);
* a file system holding only the interpreter and what it needs (``/usr``, the dynamic linker's
  files, the interpreter's own prefix with every site-packages folder in it covered by an empty one),
  the **child site folder** (NumPy and what it loads, nothing else: :mod:`autograder.childsite`),
  the sandbox's library folder (a copy of the public ``reference/world``, the harness, the wire
  module) and its own submission, all read-only; private, size-capped tmpfs mounts for ``/tmp``,
  ``/dev/shm`` and its working folder; bubblewrap's own root, ``/dev`` and the covers read-only;
* as a **uid of its own** when the grader is root (:mod:`autograder.uids`), and in **control
  groups of its own** (:mod:`autograder.accounting`) where the machine has them: memory, processes
  and CPU time for the child's whole process tree.

Where bubblewrap cannot run (not installed, no user namespaces, macOS, Windows), the **plain**
sandbox takes over: the same folders and limits; as root a uid of its own, PID, network, IPC, UTS
and mount namespaces of its own (:mod:`autograder.mounts`) with the kit, every site-packages folder
and the shared scratch folders covered, on the host's file system. As an ordinary user it is a
subprocess of the user's own: fine for a student's own ``ftr check``, refused for grading others
(:func:`isolation_refusal`) unless the instructor passes :data:`UNISOLATED_FLAG`. On Windows and
macOS the plain sandbox is a subprocess with time limits (and the resource limits the platform has).

Each submission's sandbox folder is readable by its own children only: as root it is root's with a
group leased for the submission (its children's one extra group), 0710/0750/0640; a user's is 0700.

The child sets its own resource limits before any student code runs: CPU seconds (the sum of its
tasks' budgets), address space, processes, file size (its printed output goes to a capped file,
deleted as soon as the child is gone). The grader enforces each task's CPU budget, its idle
(non-CPU) time and a wall-clock limit from outside, reading the CPU time from the child's control
group, else from ``/proc``.

Tasks go to the child's standard input and replies come back on its standard output, framed by
:mod:`autograder.wire` (what the child prints goes to stderr, which is the capped file); replies
are capped per task and per submission, and nothing printed is parsed.

The parts live in modules of their own: :mod:`autograder.bubblewrap` (the command line),
:mod:`autograder.mounts` (the plain root sandbox's namespaces and covers), :mod:`autograder.uids` (uid leases),
:mod:`autograder.accounting` (control groups and ``/proc``), :mod:`autograder.childsite` (NumPy for
the child), :mod:`autograder.wire` (the protocol); this module sets them up (:func:`sandbox_setup`)
and runs the children (:class:`Sandbox`). Every public name stays importable from here.

>>> limits = Limits(task_seconds=5)
>>> limits.task_seconds, limits.memory_bytes // 2**20
(5, 2048)
"""

from __future__ import annotations

import json
import os
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
from typing import NamedTuple

from . import wire
from .accounting import PROC, ChildGroup, any_busy, tree_cpu_seconds, tree_pids
from .bubblewrap import BWRAP_PROCESSES, INSIDE, bwrap_command, bwrap_path, inside, interpreter_folders, site_folders
from .childsite import ChildSiteError, changed_files, make_child_site
from .mounts import (KIT_ROOT, enter_namespaces_and_cover, kit_folders, namespace_prefix, namespace_tools,
                     paths_to_cover)
from .uids import LeaseError, UidLease, kill_every, kill_uid  # noqa: F401 - kill_uid: public

WORLD_DIR = KIT_ROOT / "reference" / "world"


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


class SandboxSetupError(RuntimeError):
    """The sandbox cannot start on this machine; the message is one line naming what is missing."""


def _is_root() -> bool:
    return hasattr(os, "geteuid") and os.geteuid() == 0


def _private_dir(name: str) -> Path:
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


def _closed_to_sandbox_uids(python: str) -> str | None:
    """As root: the one-line reason a sandbox uid cannot run ``python`` (a folder on the way that other
    users cannot enter, e.g. a pyenv Python in /root), else None."""
    if not _is_root() or not os.path.exists(python):  # a missing one is named by the probe
        return None
    # the path as named too: a link in a closed folder to an open interpreter is still out of reach
    for folder in [os.path.abspath(python), os.path.realpath(python), *interpreter_folders(python)]:
        blocked = _unenterable_ancestor(Path(folder))
        if blocked is not None and blocked != Path(folder):
            return (f"{python} lies under {blocked} (mode {os.stat(blocked).st_mode & 0o777:o}), which the "
                    f"sandbox's uids cannot enter: grade with a Python every user may enter (Debian's /usr/bin/python3 "
                    f"with python3-numpy, or a venv outside {blocked}), or name one in FTR_SANDBOX_PYTHON")
    return None


def _verify_child_site(setup: ChildSetup) -> None:
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


def _unenterable_ancestor(folder: Path) -> Path | None:
    """The first folder on the way to ``folder`` that another uid cannot pass through (no o+x), if any."""
    for path in [*reversed(folder.parents), folder]:
        if not os.stat(path).st_mode & 0o001:
            return path
    return None


# -- interpreters -----------------------------------------------------------------------------------------

class ChildSetup(NamedTuple):
    """How children start on this machine: ``python`` (run with ``-I -S``), ``bwrap`` (None: the plain
    sandbox), ``site`` (the child site folder: NumPy only), ``covered`` (site-packages folders hidden)."""

    python: str
    bwrap: str | None
    site: Path
    covered: tuple[str, ...] = ()


_SETUP: dict[str, ChildSetup] = {}
_SETUP_LOCK = threading.Lock()


def _candidate_interpreters() -> list[str]:
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


def _probe(setup: ChildSetup) -> str | None:
    """Start one child exactly as grading will (same command, flags, folders and uid) on an empty
    submission; None if it imports NumPy and the world and reaches none of :func:`private_paths`,
    else the one-line reason."""
    limits = Limits(task_seconds=60, total_seconds=120)
    try:
        with Sandbox({}, limits, setup=setup) as sandbox:
            child = _Child(sandbox, time.monotonic() + 120, {"probe": private_paths(), "cpu_seconds": 90})
            try:
                hello = child.start()
            except (wire.FrameError, OSError) as error:
                child.stop()  # the setup's fault, never a student's: say what the child printed, if anything
                said = [line for line in child.printed().splitlines() if line.strip()]
                return f"a child could not start ({error}){': ' + said[-1][:300] if said else ''}"
            finally:
                child.stop()
    except (OSError, LeaseError, subprocess.SubprocessError) as error:
        return f"{error}"
    reached = hello.get("reached", [])
    if reached and isolated(setup):
        return f"a child could reach the kit's private files ({', '.join(reached[:3])})"
    return None


def sandbox_setup() -> ChildSetup:
    """How children start here, found once per process; the one call to make before grading anyone.

    Contract: returns a :class:`ChildSetup` only after a real child, started exactly as grading
    starts them (bubblewrap or plain, ``-I -S``, the child site folder, the leased uid as root),
    imported NumPy and ``reference.world`` and (on the :func:`isolated` routes: bubblewrap, or root)
    could reach nothing of :func:`private_paths`. Otherwise raises :class:`SandboxSetupError` with one
    line naming what is missing: then nothing must be graded (the commands exit 2). Never falls back
    silently to less isolation: bubblewrap that cannot run gives the plain sandbox (isolated too as
    root; an ordinary user's is not: :func:`isolation_warning` says so and :func:`isolation_refusal`
    refuses to grade others there); a TMPDIR the sandbox uids cannot enter, or ``FTR_SANDBOX_PYTHON`` under /tmp with bubblewrap (which
    hides /tmp), is refused at once.

    Interpreters tried: ``FTR_SANDBOX_PYTHON``, else this one and the system's of the same version.
    """
    with _SETUP_LOCK:
        if "setup" in _SETUP:
            return _SETUP["setup"]
        candidates = _candidate_interpreters()
        if not candidates:
            raise SandboxSetupError(f"no interpreter for the children: {os.environ.get('FTR_SANDBOX_PYTHON')} "
                                    "(FTR_SANDBOX_PYTHON) does not exist")
        if _is_root():
            blocked = _unenterable_ancestor(Path(tempfile.gettempdir()))
            if blocked is not None:
                raise SandboxSetupError(f"TMPDIR {tempfile.gettempdir()} cannot be entered by the sandbox's uids "
                                        f"({blocked} has mode {os.stat(blocked).st_mode & 0o777:o}); "
                                        "set TMPDIR to a folder like /tmp")
        bwrap = bwrap_path()
        reasons: list[str] = []
        closed = {python: _closed_to_sandbox_uids(python) for python in candidates}
        reasons += [reason for reason in closed.values() if reason]
        candidates = [python for python in candidates if not closed[python]]
        for wrapper in ([bwrap] if bwrap else []) + [None]:
            if wrapper is None and _is_root() and sys.platform.startswith("linux") and namespace_tools() is None:
                reasons.append("the plain sandbox as root needs util-linux's unshare and setpriv (Debian: apt-get "
                               "install util-linux)")
                continue
            for python in candidates:
                try:
                    site = make_child_site(python)
                except (ChildSiteError, OSError) as error:
                    reasons.append(str(error))
                    continue
                if wrapper and any(inside(path, "/tmp") for path in (os.path.realpath(python), os.path.abspath(python))):
                    under_tmp = (f"the interpreter {python} lies under /tmp, which the sandbox replaces with an empty "
                                 "folder: use one installed elsewhere (FTR_SANDBOX_PYTHON)")
                    if os.environ.get("FTR_SANDBOX_PYTHON"):
                        raise SandboxSetupError(under_tmp)
                    reasons.append(under_tmp)
                    continue
                setup = ChildSetup(python, wrapper, site, tuple(site_folders(python)))
                reason = _probe(setup)
                if reason is None:
                    _SETUP["setup"] = setup
                    return setup
                reasons.append(f"{python}{' in bubblewrap' if wrapper else ''}: {reason}")
        raise SandboxSetupError("the sandboxed child cannot start: " + " | ".join(dict.fromkeys(reasons)))


#: The flag with which an instructor grades other people's code where children are not isolated.
UNISOLATED_FLAG = "--unisolated-i-trust-these-students"
#: The same, set (to anything) in the environment of the routes that take no flag: Gradescope's
#: ``run_autograder`` and nbgrader's grading kernel.
UNISOLATED_VARIABLE = "FTR_UNISOLATED_I_TRUST_THESE_STUDENTS"


def isolated(setup: ChildSetup) -> bool:
    """Are children walled off from the grader and from each other here: bubblewrap, or a root grader on
    Linux (a uid and PID, network, IPC and mount namespaces of each child's own)?"""
    return setup.bwrap is not None or (_is_root() and sys.platform.startswith("linux"))


def isolation_refusal(override: str = f"pass {UNISOLATED_FLAG}") -> str | None:
    """One line refusing to grade other people's code on this machine, or None where children are isolated.

    An ordinary user's plain sandbox shares that user's files, processes and network with the student's
    code (the grader's own interpreter, the kit, HOME, the secret seed, the other submissions): grading
    a class there needs bubblewrap, root, or :data:`UNISOLATED_FLAG`, which names the risk. ``override``:
    how the line tells the instructor to take that risk on this route (``run_autograder`` takes no flag:
    ``f"set {UNISOLATED_VARIABLE}=1"``).
    """
    if isolated(sandbox_setup()):
        return None
    if sys.platform.startswith("linux"):
        how = ("install bubblewrap (Debian: apt-get install bubblewrap) and allow unprivileged user namespaces "
               "(sysctl kernel.unprivileged_userns_clone=1), or grade as root")
    else:
        how = f"grade on Linux with bubblewrap (on {sys.platform} student code runs as you, with your files)"
    return (f"refusing to grade other people's code here: it would run as you, able to read and change your "
            f"files, the kit and the secret seed; {how}, or {override} to take that risk")


def isolation_warning() -> str | None:
    """A plain warning when children are not isolated (no bubblewrap and not root: they run as the user);
    None on the isolated routes (bubblewrap, or root on Linux).

    Raises :class:`SandboxSetupError` when no child can start at all, so a command that asks for the
    warning before grading stops there (``grade-all`` exits 2 instead of writing a gradebook of zeros).
    """
    if isolated(sandbox_setup()):
        return None
    if not sys.platform.startswith("linux"):
        return (f"note: on {sys.platform} your code runs as a plain subprocess with time limits only (no "
                "namespaces); fine for checking your own code.")
    return ("WARNING: bubblewrap (bwrap) cannot run here, so the plain sandbox is used: student code runs as you, "
            "with your files and processes. Fine for checking your own code; for grading a class install "
            "bubblewrap (Debian: apt-get install bubblewrap) and allow user namespaces.")


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

    def __init__(self, files: dict[str, bytes], limits: Limits | None = None, setup: ChildSetup | None = None) -> None:
        self.files = files
        self.limits = limits or Limits()
        self.setup = setup or sandbox_setup()
        self.python, self.bwrap = self.setup.python, self.setup.bwrap
        self.root: Path | None = None
        self.private: Path | None = None
        self.exhausted_groups: set = set()   # checks whose instance ran out of time or memory
        self.cpu_spent = 0.0                 # CPU time of every task so far (wall time where CPU is unknown)
        self.children_cpu = 0.0              # CPU time of every child, start-up included (where it is known)
        self._spending = threading.Lock()
        self.group_lease: UidLease | None = None  # as root: the group that alone may read the sandbox folder

    def over_budget(self) -> bool:
        """Has the submission used up ``Limits.cpu_budget_seconds`` (a few times a correct submission's)?"""
        budget = self.limits.cpu_budget_seconds
        return budget is not None and self.cpu_spent >= budget

    def _spend(self, outcome: TaskOutcome) -> None:
        with self._spending:
            self.cpu_spent += outcome.cpu_seconds if outcome.cpu_seconds is not None else outcome.seconds

    def group_id(self) -> int:
        """The submission's own group (as root): its children have it, no other child does."""
        assert self.group_lease is not None, "a root grader leases the submission's group in _make_folders"
        return self.group_lease.uid

    def __enter__(self) -> Sandbox:
        try:
            self._make_folders()
        except BaseException:  # `with` calls __exit__ only after __enter__ returned: remove what was made
            self.__exit__()
            raise
        return self

    def _make_folders(self) -> None:
        """The sandbox folder (a copy of the public world, the harness, the submission; read-only for the
        children) and the grader's private folder beside it."""
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
        # Readable (not writable) by the child: lib and submission. As root, by this submission's children
        # only: owned by root and a group of this submission's own (a classmate who learns the folder's
        # name still cannot read it); an ordinary user's are that user's alone.
        group = None
        if _is_root():
            self.group_lease = UidLease()
            group = self.group_lease.uid
        for folder in (lib, submission):
            for path in [folder, *folder.rglob("*")]:
                if group is not None:
                    os.chown(path, 0, group)
                path.chmod((0o750 if path.is_dir() else 0o640) if group is not None else
                           (0o700 if path.is_dir() else 0o600))
        if group is not None:
            os.chown(self.root, 0, group)
        self.root.chmod(0o710 if group is not None else 0o700)
        _verify_child_site(self.setup)

    def __exit__(self, *exc_info) -> None:
        for folder in (self.root, self.private):
            if folder is not None:
                remove_tree(folder)
        if self.group_lease is not None:
            self.group_lease.release()
            self.group_lease = None

    def folders(self) -> tuple[Path, Path]:
        """The sandbox folder (``lib``, ``submission``) and the grader's private one (the children's
        printed output): both exist from ``with Sandbox(...)`` on until its end."""
        if self.root is None or self.private is None:
            raise RuntimeError("a Sandbox runs children only inside `with Sandbox(...) as sandbox:`")
        return self.root, self.private

    def run(self, lanes: list[Lane], workers: int = 1, deadline: float | None = None) -> Iterator[TaskOutcome]:
        """Run the lanes, ``workers`` at a time (one at a time in the plain sandbox as root, whose
        children are set up between fork and exec); yield outcomes as they arrive."""
        import queue

        deadline = deadline or time.monotonic() + self.limits.total_seconds
        if self.bwrap is None and _is_root():
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
        hello_id = lane.hello  # reported by the lane's first child only: None once it is
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
                    if hello_id is not None:
                        yield TaskOutcome(hello_id, failure=failure)
                    for task, _ in pending:
                        yield TaskOutcome(task["id"], failure=failure)
                    return
                if hello_id is not None:
                    yield TaskOutcome(hello_id, header=hello)
                    hello_id = None
                while pending:
                    task, arrays = pending.pop(0)
                    if task.get("group") in self.exhausted_groups:
                        yield TaskOutcome(task["id"], failure="not run: an earlier instance of this check ran out of "
                                                              "time or memory")
                        continue
                    if self.over_budget():
                        yield TaskOutcome(task["id"], failure=f"not run: the submission used up its grading budget of "
                                                              f"{self.limits.cpu_budget_seconds:g} s of CPU time (checks "
                                                              "that ran out of time or memory spent it)")
                        continue
                    if time.monotonic() >= deadline:
                        pending.insert(0, (task, arrays))
                        break
                    outcome = child.run_task(task, arrays)
                    self._spend(outcome)
                    yield outcome
                    if outcome.exhausted and task.get("group") is not None:
                        self.exhausted_groups.add(task["group"])
                    if (outcome.failure is not None and outcome.header is None) or lane.fresh:
                        break  # the child is gone or stuck (or each task has a fresh one)
            finally:
                # the whole tree's time from /proc, start-up included (a control group counts only from the
                # "ready" handshake on, after the interpreter, NumPy and the world were loaded)
                spent = tree_cpu_seconds(child.process.pid) if child.process is not None else None
                child.stop()
                with self._spending:
                    self.children_cpu += spent or 0.0


class _Child:
    """One child process, its two pipes (its stdin and stdout), and as root its uid and control group."""

    def __init__(self, sandbox: Sandbox, submission_deadline: float, settings: dict) -> None:
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
        overhead = BWRAP_PROCESSES if self.sandbox.bwrap else 0
        return {"memory_bytes": limits.memory_bytes // python_processes, "processes": python_processes + overhead}

    def start(self) -> dict:
        """Start the child; return its hello (import errors, names found)."""
        sandbox, limits, setup = self.sandbox, self.limits, self.sandbox.setup
        root, private = sandbox.folders()
        task_read, self.task_write = os.pipe()
        self.result_read, result_write = os.pipe()
        self.reader = wire.FrameReader(self.result_read, 1 << 20, limits.total_result_bytes)
        self.output_path = private / f"output-{self.token}.txt"
        if _is_root():
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
        if sandbox.bwrap:
            lib, submission, work, site = f"{INSIDE}/lib", f"{INSIDE}/submission", f"{INSIDE}/work", f"{INSIDE}/site"
            prefix = bwrap_command(sandbox.bwrap, sandbox.python, root / "lib", root / "submission",
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
                needed = [os.path.realpath(sandbox.python), os.path.abspath(sandbox.python)]
                scratch = [(path, f"size={limits.scratch_bytes},mode=1777") for path in ("/tmp", "/var/tmp", "/dev/shm", "/run/lock")
                           if os.path.isdir(path) and not any(inside(n, os.path.realpath(path)) for n in needed)]
                scratch.append((work, f"size={limits.scratch_bytes},mode=0700,uid={uid},gid={uid}"))
                keep = [os.path.realpath(p) for p in (root, setup.site)]
                # Mount, network, IPC and UTS namespaces and the covers between fork and exec; then a PID
                # namespace with its own /proc, the child's uid and its submission's group (util-linux).
                preexec = enter_namespaces_and_cover(paths_to_cover(sandbox.python, root, setup.covered), scratch,
                                                     keep, work)
                prefix = namespace_prefix(uid, sandbox.group_id(), covered=True)
            self.work_dir.chmod(0o700)
        env["HOME"] = work
        settings["site"] = site
        command = prefix + [sandbox.python, "-I", "-S", "-B", f"{lib}/ftr_child.py", lib, submission,
                            json.dumps(settings)]
        # bubblewrap: switch uid before exec (bwrap then runs unprivileged, in a user namespace of that uid);
        # None leaves user, group and extra groups as they are (Popen's defaults).
        # Its one extra group is its submission's: the only group that may read the sandbox folder.
        switch_uid = self.lease.uid if self.lease and sandbox.bwrap else None
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
            if not self.sandbox.bwrap:
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
