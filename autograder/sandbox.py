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

The parts live in modules of their own: :mod:`autograder.childsetup` (setting up: the interpreter,
what a child must never reach, the checks before grading), :mod:`autograder.childprocess` (running
one child: start, tasks, limits, explanations, stop), :mod:`autograder.bubblewrap` (the command
line), :mod:`autograder.mounts` (the plain root sandbox's namespaces and covers),
:mod:`autograder.uids` (uid leases), :mod:`autograder.accounting` (control groups and ``/proc``),
:mod:`autograder.childsite` (NumPy for the child), :mod:`autograder.wire` (the protocol). This
module probes the setup once with a real child (:func:`sandbox_setup`), makes each submission's
sandbox folder and runs lanes of tasks through its children (:class:`Sandbox`). Every public name
stays importable from here.

>>> limits = Limits(task_seconds=5)
>>> limits.task_seconds, limits.memory_bytes // 2**20
(5, 2048)
"""

from __future__ import annotations

import os
import shutil
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
from .accounting import tree_cpu_seconds
from .bubblewrap import bwrap_path, inside, site_folders
from .childprocess import Child, CpuLimitExceeded, IdleLimitExceeded, Limits, TaskOutcome  # noqa: F401 - public
from .childsetup import (ChildSetup, SandboxSetupError, candidate_interpreters, closed_to_sandbox_uids, is_root,
                         isolated, private_dir, private_paths, remove_tree, unenterable_ancestor, verify_child_site)
from .childsite import ChildSiteError, make_child_site
from .mounts import KIT_ROOT, namespace_tools
from .uids import LeaseError, UidLease, kill_uid  # noqa: F401 - kill_uid: public

WORLD_DIR = KIT_ROOT / "reference" / "world"


_SETUP: dict[str, ChildSetup] = {}
_SETUP_LOCK = threading.Lock()


def _probe(setup: ChildSetup) -> str | None:
    """Start one child exactly as grading will (same command, flags, folders and uid) on an empty
    submission; None if it imports NumPy and the world and reaches none of :func:`private_paths`,
    else the one-line reason."""
    limits = Limits(task_seconds=60, total_seconds=120)
    try:
        with Sandbox({}, limits, setup=setup) as sandbox:
            child = Child(sandbox, time.monotonic() + 120, {"probe": private_paths(), "cpu_seconds": 90})
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
        candidates = candidate_interpreters()
        if not candidates:
            raise SandboxSetupError(f"no interpreter for the children: {os.environ.get('FTR_SANDBOX_PYTHON')} "
                                    "(FTR_SANDBOX_PYTHON) does not exist")
        if is_root():
            blocked = unenterable_ancestor(Path(tempfile.gettempdir()))
            if blocked is not None:
                raise SandboxSetupError(f"TMPDIR {tempfile.gettempdir()} cannot be entered by the sandbox's uids "
                                        f"({blocked} has mode {os.stat(blocked).st_mode & 0o777:o}); "
                                        "set TMPDIR to a folder like /tmp")
        bwrap = bwrap_path()
        reasons: list[str] = []
        closed = {python: closed_to_sandbox_uids(python) for python in candidates}
        reasons += [reason for reason in closed.values() if reason]
        candidates = [python for python in candidates if not closed[python]]
        for wrapper in ([bwrap] if bwrap else []) + [None]:
            if wrapper is None and is_root() and sys.platform.startswith("linux") and namespace_tools() is None:
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
        self.root = Path(tempfile.mkdtemp(prefix="sandbox-", dir=private_dir("sandboxes")))
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
        if is_root():
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
        verify_child_site(self.setup)

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
        if self.bwrap is None and is_root():
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
            child = Child(self, deadline, dict(lane.settings, cpu_seconds=int(budget) + 30))
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


