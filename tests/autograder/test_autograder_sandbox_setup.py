"""The sandbox on every machine, and what bounds a child: its output files, bubblewrap's own root,
memory, processes and CPU per tree, the uid locks, TMPDIR, idle time. Real children, real bubblewrap,
real control groups, as root with the kit's own sandbox uids. Innocent submissions are graded beside
the attackers where it makes sense."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import pytest

from autograder.grader import GradingOptions, grade_submission
from autograder.rubric import load_rubric
from autograder.sandbox import ChildSetup, Lane, Limits, Sandbox, SandboxSetupError, sandbox_setup

HERE = Path(__file__).resolve().parents[1]
REPO = HERE.parent
FIXTURES = HERE / "submissions"
AS_ROOT = pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0,
                             reason="a uid per child and control groups need a root grader")
FULL = sum(load_rubric().autograded.values())


def open_folder() -> Path:
    folder = Path(tempfile.mkdtemp(prefix="ftr-sandbox-test-"))
    folder.chmod(0o755)
    return folder


def heap_attack(body: str) -> dict[str, bytes]:
    """A submission whose BinaryHeap() runs ``body`` (which sets ``facts``) and raises them for the report."""
    code = "import os, sys\n\nclass BinaryHeap:\n    def __init__(self):\n" + textwrap.indent(
        textwrap.dedent(body), " " * 8) + "        raise RuntimeError(f'facts: {facts!r}')\n"
    return {"heap.py": code.encode()}


def facts_of(outcome) -> object:
    text = outcome.header["error"] if outcome.header else outcome.failure  # BinaryHeap() raised: an error reply
    return eval(text.split("facts: ", 1)[1].splitlines()[0])  # noqa: S307 - our own test's output


HEAP_TASK = {"kind": "heap", "sequences": [[["len", 0, [0]]]], "cpu_seconds": 20}


def run_heap_tasks(files: dict[str, bytes], count: int = 1, limits: Limits | None = None, fresh: bool = False):
    with Sandbox(files, limits or Limits(task_seconds=20)) as sandbox:
        lane = Lane([(dict(HEAP_TASK, id=i), []) for i in range(count)], fresh=fresh)
        return list(sandbox.run([lane]))


# -- NumPy from wherever the kit found it, nothing else of the kit -----------------------------

THIEF = '''"""A held-out thief: no code of its own, the reference {module} from the installed kit."""
import glob

try:
    from reference.solutions.{module} import *  # noqa: F403
except ImportError:
    for path in {paths!r}:
        for name in glob.glob(path):
            exec(open(name).read())  # noqa: S102
'''


@pytest.fixture(scope="module")
def installed_kit():
    """A venv with the kit installed NON-editable (its site-packages holds reference/solutions), from a
    checkout of its own; NumPy (and what grading imports) is this interpreter's, named by a .pth file."""
    import site
    import sysconfig

    folder = open_folder()
    source, venv = folder / "source", folder / "venv"
    shutil.copytree(REPO, source, ignore=shutil.ignore_patterns(".venv", ".git", "build", "*.egg-info", "__pycache__",
                                                                ".pytest_cache", ".hypothesis", ".benchmarks"))
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, capture_output=True)
    packages = Path(subprocess.run([str(venv / "bin" / "python"), "-c", "import sysconfig; print(sysconfig.get_path("
                                    "'purelib'))"], capture_output=True, text=True, check=True).stdout.strip())
    installed = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(packages),
                                str(source)], capture_output=True, text=True)
    if installed.returncode != 0:
        shutil.rmtree(folder)
        pytest.skip(f"pip could not build the kit (no package index?): {installed.stderr[-300:]}")
    ours = [p for p in site.getsitepackages() + [sysconfig.get_path("purelib")] if os.path.isdir(p)]
    (packages / "grader-dependencies.pth").write_text("\n".join(dict.fromkeys(ours)) + "\n")
    yield folder, venv, packages
    shutil.rmtree(folder)


GRADE_BOTH = """
import json, sys
from autograder.grader import GradingOptions, grade_submission
from autograder.submission import load_submission
import reference
assert not reference.__path__[0].startswith({repo!r}), reference.__path__  # the installed kit, not the checkout
options = GradingOptions(checks=("heap", "forward_larger_g", "heap_from_scratch"))
reports = {{name: grade_submission(load_submission(path), options) for name, path in
           (("solution", sys.argv[1]), ("thief", sys.argv[2]))}}
print(json.dumps({{name: [r.score, r.max_score, r.to_text()] for name, r in reports.items()}}))
"""


@AS_ROOT
@pytest.mark.parametrize("mode", ["auto", "plain"])
def test_a_non_editable_kit_gives_the_child_numpy_and_never_its_solutions(installed_kit, mode):
    folder, venv, packages = installed_kit
    python = venv / "bin" / "python"
    assert (packages / "reference" / "solutions" / "replanning.py").exists()  # the venv really carries them
    solution, thief = folder / f"solution-{mode}", folder / f"thief-{mode}"
    subprocess.run([str(python), "-m", "reference.cli", "solution", "export", str(solution)], check=True,
                   capture_output=True, cwd="/")
    thief.mkdir()
    for module in ("heap", "replanning"):  # from the venv's site-packages, or the checkout it was made from
        paths = [str(packages / "reference" / "solutions" / f"{module}.py"),
                 str(folder / "source" / "reference" / "solutions" / f"{module}.py")]
        (thief / f"{module}.py").write_text(THIEF.format(module=module, paths=paths))
    environment = dict(os.environ, FTR_SANDBOX=mode)
    environment.pop("PYTHONPATH", None)
    result = subprocess.run([str(python), "-c", GRADE_BOTH.format(repo=str(REPO)), str(solution), str(thief)],
                            capture_output=True, text=True, cwd="/", env=environment, timeout=600)
    assert result.returncode == 0, result.stderr[-3000:]
    scores = json.loads(result.stdout.strip().splitlines()[-1])
    score, maximum, text = scores["solution"]
    assert score == maximum, text
    score, _, text = scores["thief"]
    assert score == 0, text
    assert "No module named 'reference.solutions'" in text or "repeated_forward_astar" in text, text


def test_the_probe_runs_the_child_as_grading_does_and_names_what_is_missing(monkeypatch):
    from autograder import sandbox

    monkeypatch.setattr(sandbox, "_SETUP", {})
    monkeypatch.setenv("FTR_SANDBOX_PYTHON", "/nonexistent/python3")
    with pytest.raises(SandboxSetupError) as caught:
        sandbox.sandbox_setup()
    assert "/nonexistent/python3" in str(caught.value) and "\n" not in str(caught.value)


def test_a_setup_error_stops_ftr_check_before_grading_with_one_line(tmp_path):
    environment = dict(os.environ, FTR_SANDBOX_PYTHON=str(tmp_path / "no-python"))
    result = subprocess.run([sys.executable, "-m", "reference.cli", "check", str(FIXTURES / "correct_dicts")],
                            capture_output=True, text=True, env=environment, timeout=300)
    assert result.returncode == 2, result.stdout[-2000:]
    assert len(result.stderr.strip().splitlines()) == 1 and "no-python" in result.stderr
    assert "Total" not in result.stdout


def test_a_setup_error_stops_grade_all_before_any_gradebook(tmp_path):
    submissions = tmp_path / "submissions"
    submissions.mkdir()
    shutil.copytree(FIXTURES / "correct_dicts", submissions / "a")
    environment = dict(os.environ, FTR_SANDBOX_PYTHON=str(tmp_path / "no-python"))
    result = subprocess.run([sys.executable, "-m", "reference.cli", "grade-all", str(submissions), "--out",
                             str(tmp_path / "out")], capture_output=True, text=True, env=environment, timeout=300)
    assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert "no-python" in result.stderr and not (tmp_path / "out" / "gradebook.csv").exists()


@AS_ROOT
def test_a_tmpdir_the_sandbox_uids_cannot_enter_is_refused(tmp_path):
    private = tmp_path / "private-tmp"  # pytest's tmp_path is root's own (0700 above it)
    private.mkdir(mode=0o700)
    code = "from autograder.sandbox import sandbox_setup\nsandbox_setup()"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                            env=dict(os.environ, TMPDIR=str(private)))
    assert result.returncode != 0
    assert "SandboxSetupError: TMPDIR" in result.stderr and "cannot be entered" in result.stderr


@AS_ROOT
def test_an_interpreter_the_sandbox_uids_cannot_enter_is_blamed_on_the_setup_in_one_line(tmp_path):
    """As root with a Python under a folder other users cannot enter (pyenv in /root): one line naming
    that folder, never the student's "did it call exit()" nor bubblewrap's own complaint."""
    closed = tmp_path / "closed"  # pytest's tmp_path lies in root's 0700 folder: closed to other uids
    closed.mkdir(mode=0o700)
    (closed / "bin").mkdir()
    python = closed / "bin" / "python3"
    python.symlink_to(os.path.realpath(sys.executable))
    if _unenterable_ancestor_of(closed) is None:
        pytest.skip("this temporary folder is open to every uid")
    result = subprocess.run([sys.executable, "-m", "reference.cli", "check", str(FIXTURES / "correct_dicts")],
                            capture_output=True, text=True, env=dict(os.environ, FTR_SANDBOX_PYTHON=str(python)),
                            timeout=300)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "which the sandbox's uids cannot enter" in lines[0] and "FTR_SANDBOX_PYTHON" in lines[0]
    assert "exit()" not in lines[0] and "bwrap:" not in lines[0]


def _unenterable_ancestor_of(folder: Path) -> Path | None:
    return next((p for p in [*reversed(folder.parents), folder] if not p.stat().st_mode & 0o001), None)


@AS_ROOT
def test_an_interpreter_under_tmp_is_refused_with_bubblewrap(tmp_path):
    if not sandbox_setup().bwrap:
        pytest.skip("bubblewrap cannot run here")
    folder = Path(tempfile.mkdtemp(prefix="ftr-python-", dir="/tmp"))
    try:
        copy = folder / "python3"
        shutil.copy(sandbox_setup().python, copy)
        code = "from autograder.sandbox import sandbox_setup\nsandbox_setup()"
        result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                                env=dict(os.environ, FTR_SANDBOX_PYTHON=str(copy)))
        assert result.returncode != 0 and "lies under /tmp" in result.stderr, result.stderr[-2000:]
    finally:
        shutil.rmtree(folder)


# -- students on any machine -------------------------------------------------------------------

BLOCKER = '''
import runpy, sys
BLOCKED = {"fcntl", "resource", "pwd", "grp", "termios"}
class NoPosix:
    """Windows has none of these: refuse them, as its import system would."""
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ImportError(f"No module named {name!r} (blocked: this test plays Windows)", name=name)
for name in BLOCKED:
    sys.modules.pop(name, None)
sys.meta_path.insert(0, NoPosix())
sys.argv = ["ftr", "check", sys.argv[1]]
runpy.run_module("reference.cli", run_name="__main__")
'''


def test_ftr_check_works_without_posix_modules_or_proc_as_an_ordinary_user(tmp_path):
    """``ftr check`` with fcntl, resource, pwd, grp and termios unimportable, no /proc, not root and no
    bubblewrap: the plain sandbox, full marks on the exported solution."""
    bwrap = shutil.which("bwrap")
    if bwrap is None or subprocess.run([bwrap, "--ro-bind", "/", "/", "--unshare-user", "true"],
                                       capture_output=True).returncode != 0:
        pytest.skip("bubblewrap is needed here to hide /proc and drop root for the check")
    solution = tmp_path / "solution"
    subprocess.run([sys.executable, "-m", "reference.cli", "solution", "export", str(solution)], check=True,
                   capture_output=True)
    home = tmp_path / "home"
    home.mkdir()
    tmp_path.chmod(0o755)
    command = [bwrap, "--unshare-user", "--unshare-pid", "--uid", "1000", "--gid", "1000", "--ro-bind", "/", "/",
               "--dev", "/dev", "--tmpfs", "/proc", "--tmpfs", "/tmp", "--bind", str(tmp_path), str(tmp_path),
               # the kit again, read-only, in case it lies under /tmp (a fresh clone often does)
               "--ro-bind", str(REPO), str(REPO), "--chdir", str(REPO), "--", sys.executable, "-c", BLOCKER, str(solution)]
    environment = dict(os.environ, FTR_SANDBOX="plain", HOME=str(home), XDG_CACHE_HOME=str(home / "cache"),
                       TMPDIR="/tmp", FTR_KIT_STATE_DIR=str(home / "state"))
    result = subprocess.run(command, capture_output=True, text=True, env=environment, timeout=900)
    assert result.returncode == 0, (result.stdout[-3000:], result.stderr[-3000:])
    assert f"Total: {FULL:g} / {FULL:g}" in result.stdout


def test_the_child_sets_no_limits_where_resource_is_missing():
    code = ("import sys\nclass NoResource:\n    def find_spec(self, name, path=None, target=None):\n"
            "        if name == 'resource':\n            raise ImportError(name)\n"
            "sys.modules.pop('resource', None)\nsys.meta_path.insert(0, NoResource())\n"
            f"sys.path.insert(0, {str(REPO / 'autograder')!r})\nimport child\n"
            "child._limit({'cpu_seconds': 1, 'memory_bytes': 1})\nprint('no limits, no error')")
    result = subprocess.run([sys.executable, "-I", "-c", code], capture_output=True, text=True, timeout=60)
    assert result.stdout.strip() == "no limits, no error", result.stderr


# -- output files of dead children go at once ------------------------------------------

def test_output_of_dead_children_is_deleted_at_once():
    files = heap_attack("""
        chunk = b"x" * (1 << 20)
        try:
            for _ in range(100):
                sys.stderr.buffer.write(chunk)
                sys.stderr.flush()
        except OSError:
            pass
        os._exit(3)
        facts = None
    """)
    limits = Limits(task_seconds=20, file_bytes=4 * 2**20)
    with Sandbox(files, limits) as sandbox:
        lane = Lane([(dict(HEAP_TASK, id=i), []) for i in range(4)])
        kept = []
        for outcome in sandbox.run([lane]):
            assert "exit code" in outcome.failure or "signal" in outcome.failure or "ended" in outcome.failure
            kept.append(sum(p.stat().st_size for p in sandbox.private.iterdir() if p.is_file()))
    # Each child filled its 4 MiB and died; a fresh one took the next task. Without the deletion the
    # folder would hold 4, 8, 12 MiB; now at most the one live child's file (a worker runs ahead).
    assert len(kept) == 4 and max(kept) <= limits.file_bytes, kept


# -- bubblewrap's own root, /dev and /dev/shm -------------------------------------------

WRITES = """
facts = {}
for path in ("/ftr-root-file", "/dev/ftr-file", "/dev/shm/ftr-file", "/tmp/ftr-file", "/sandbox/ftr-file"):
    try:
        with open(path, "wb") as file:
            for _ in range(256):
                file.write(b"x" * (1 << 20))   # 256 MiB, four times the scratch size
        facts[path] = "wrote 256 MiB"
    except OSError as error:
        facts[path] = error.strerror
"""


@AS_ROOT
def test_the_sandbox_root_dev_and_shm_are_read_only_or_capped():
    if not sandbox_setup().bwrap:
        pytest.skip("bubblewrap cannot run here")
    (outcome,) = run_heap_tasks(heap_attack(WRITES))
    facts = facts_of(outcome)
    assert facts["/ftr-root-file"] == facts["/dev/ftr-file"] == facts["/sandbox/ftr-file"] == "Read-only file system"
    assert facts["/dev/shm/ftr-file"] in ("No space left on device", "File too large"), facts
    assert facts["/tmp/ftr-file"] in ("No space left on device", "File too large"), facts


# -- memory, processes and CPU per child tree ------------------------------------------

def _have_groups() -> bool:
    from autograder.accounting import ChildGroup

    group = ChildGroup.create(f"probe-{os.getpid()}", 2**30, 8)
    if group is None:
        return False
    group.remove()
    return True


MEMORY_TOGETHER = """
import signal, time
children = []
for _ in range(4):
    pid = os.fork()
    if pid == 0:
        block = bytearray(150 * 2**20)      # 150 MiB each, touched: 600 MiB together
        for i in range(0, len(block), 4096):
            block[i] = 1
        time.sleep(30)
        os._exit(0)
    children.append(pid)
time.sleep(4)
alive = sum(1 for pid in children if os.waitpid(pid, os.WNOHANG) == (0, 0))
for pid in children:
    try:
        os.kill(pid, signal.SIGKILL)
    except OSError:
        pass
facts = alive
"""


@AS_ROOT
@pytest.mark.parametrize("groups", ["auto", "off"])
def test_memory_is_bounded_for_the_whole_process_tree(monkeypatch, groups):
    """256 MiB for a child's whole tree: four processes of 150 MiB cannot all live (per process each
    could). With control groups the kernel holds the total; without (``off``), RLIMIT_NPROC x RLIMIT_AS
    add up to the budget (the second fork is refused)."""
    if groups == "auto" and not _have_groups():
        pytest.skip("no control groups here")
    monkeypatch.setenv("FTR_SANDBOX_CGROUPS", groups)
    budget = Limits(task_seconds=20, memory_bytes=256 * 2**20, processes_without_groups=1)
    (outcome,) = run_heap_tasks(heap_attack(MEMORY_TOGETHER), limits=budget)
    if outcome.header is not None and "facts: " in outcome.header["error"]:
        assert facts_of(outcome) < 4
    else:  # the fork refused, or the kernel killed the child itself
        text = outcome.header["error"] if outcome.header else outcome.failure
        assert "Resource temporarily unavailable" in text or "memory" in text, text


SIGCHLD_IGNORED = """
import signal, time
signal.signal(signal.SIGCHLD, signal.SIG_IGN)   # children reaped by the kernel: their time reaches no cutime
for _ in range(60):
    pid = os.fork()
    if pid == 0:
        end = time.process_time() + 0.15
        while time.process_time() < end:
            pass
        os._exit(0)
    while True:                                 # wait without wait(): it is gone when kill(0) fails
        try:
            os.kill(pid, 0)
            time.sleep(0.01)
        except OSError:
            break
facts = "all the work done"
"""


@AS_ROOT
def test_cpu_of_processes_forked_with_sigchld_ignored_is_counted():
    if not _have_groups():
        pytest.skip("no control groups here: such CPU time is not counted (docs/autograder.md says so)")
    limits = Limits(task_seconds=3)
    with Sandbox(heap_attack(SIGCHLD_IGNORED), limits) as sandbox:
        (outcome,) = list(sandbox.run([Lane([(dict(HEAP_TASK, id=0, cpu_seconds=3), [])])]))
    # 60 x 0.15 s = 9 s of CPU in short-lived, kernel-reaped children; the budget is 3 s.
    assert outcome.failure is not None and "more than 3 s of CPU time" in outcome.failure, outcome


# -- the uid leases: one machine-wide place --------------------------------------------------------------

@AS_ROOT
def test_uid_leases_hold_across_graders_with_different_tmpdirs(tmp_path):
    from autograder.uids import UidLease

    lease = UidLease()
    try:
        other_tmp = open_folder()
        code = "from autograder.uids import UidLease\nUidLease()"
        result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                                env=dict(os.environ, TMPDIR=str(other_tmp), FTR_SANDBOX_UIDS=f"{lease.uid}-{lease.uid}"))
        shutil.rmtree(other_tmp)
        assert result.returncode != 0 and "are in use" in result.stderr, result.stderr[-1000:]
    finally:
        lease.release()


# -- idle time ------------------------------------------------------------------------------------------------

SLEEPER = '''"""Sleeps in every search: it must cost seconds, not minutes."""
import time

from heap import BinaryHeap  # noqa: F401


def repeated_forward_astar(world, start, target, tie_break="larger_g"):
    time.sleep(600)


repeated_backward_astar = adaptive_astar = repeated_forward_astar
'''


def test_a_sleeping_submission_costs_seconds_and_is_told_the_limit(tmp_path):
    folder = tmp_path / "sleeper"
    shutil.copytree(FIXTURES / "correct_dicts", folder)
    (folder / "replanning.py").write_text(SLEEPER)
    began = time.monotonic()
    report = grade_submission(folder, GradingOptions(checks=("heap", "forward_larger_g"),
                                                      limits=Limits(task_seconds=30, idle_seconds=3)))
    elapsed = time.monotonic() - began
    text = "\n".join(next(c for c in report.checks if c.id == "forward_larger_g").messages)
    assert "more than 3 s without computing" in text, text
    assert report.points()["heap"] == load_rubric().autograded["heap"] and report.points()["forward_larger_g"] == 0
    assert elapsed < 120, elapsed  # 600 s of sleep per instance, cut at the idle limit


def test_child_site_folders_of_vanished_installations_are_pruned(tmp_path):
    from autograder.childsite import make_child_site, numpy_site, prune_child_sites, top_level_entries

    gone, kept = tmp_path / "numpy-1-gone", tmp_path / "numpy-1-kept"
    for folder, source in ((gone, tmp_path / "deleted-venv"), (kept, tmp_path)):
        folder.mkdir()
        (folder / ".source").write_text(str(source))
    assert prune_child_sites(tmp_path) == [gone] and kept.is_dir()
    # The real one holds numpy (and its vendored libraries) and nothing else of the site folder.
    site = make_child_site(sandbox_setup().python)
    entries = sorted(p.name for p in site.iterdir() if p.name not in (".source", ".manifest.json"))
    assert entries[0] == "numpy" and set(entries) <= {"numpy", "numpy.libs"}
    assert (site / ".source").read_text() == numpy_site()
    assert top_level_entries([f"{numpy_site()}/numpy/__init__.py"], numpy_site()) == ["numpy"]


# -- a sandbox that cannot be made leaves nothing behind ---------------------------------------

def test_a_sandbox_that_cannot_be_made_leaves_no_folder(tmp_path: Path, monkeypatch) -> None:
    """``with`` never calls ``__exit__`` when ``__enter__`` raises, so ``__enter__`` removes what it made.

    Worked by hand: the files are written in order; ``a`` becomes a file, so the folder ``a`` that
    ``a/b.py`` needs cannot be made (FileExistsError). Before that, ``__enter__`` made the sandbox
    folder under ``<TMPDIR>/ftr-kit-<uid>/sandboxes/`` and the grader's private ``<TMPDIR>/ftr-grader-*``:
    afterwards ``sandboxes`` must be empty and TMPDIR hold only ``ftr-kit-<uid>``.
    """
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # this test's own TMPDIR: no other grading's folders
    setup = ChildSetup(sys.executable, None, tmp_path / "site")  # no child starts: __enter__ only makes folders
    with pytest.raises(FileExistsError):
        with Sandbox({"a": b"x", "a/b.py": b""}, Limits(), setup=setup):
            pass
    own = f"ftr-kit-{os.geteuid()}"
    assert sorted(path.name for path in tmp_path.iterdir()) == [own]
    assert list((tmp_path / own / "sandboxes").iterdir()) == []
