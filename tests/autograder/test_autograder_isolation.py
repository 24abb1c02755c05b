"""Students walled off from each other and from the grader (docs/autograder.md, "Safety model"):
hostile submissions of our own for each attack class, graded for real (CI runs as root: bubblewrap, a uid per child).

Cross-student attacks run as real batches (`ftr grade-all --jobs 2`) with innocent correct
submissions beside the attackers; the innocent ones must get full marks.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from autograder.batch import content_hash
from autograder.grader import GradingOptions, grade_submission
from autograder.rubric import load_rubric
from autograder.sandbox import Limits, sandbox_setup

HERE = Path(__file__).resolve().parents[1]
FIXTURES = HERE / "submissions"
REPO = HERE.parent

AS_ROOT = pytest.mark.skipif(os.geteuid() != 0, reason="a uid per child needs a root grader")


def text_of(report, check_id: str) -> str:
    return "\n".join(next(c for c in report.checks if c.id == check_id).messages)


def open_folder() -> Path:
    folder = Path(tempfile.mkdtemp(prefix="ftr-isolation-test-"))
    folder.chmod(0o755)
    return folder


def copy_fixture(name: str, folder: Path, replace: dict[str, str] | None = None, as_name: str | None = None) -> Path:
    target = folder / (as_name or name)
    shutil.copytree(FIXTURES / name, target)
    for old, new in (replace or {}).items():
        for module in target.glob("*.py"):
            module.write_text(module.read_text().replace(old, new))
    return target


def survivors(marker: str) -> list[int]:
    """Live processes whose command line carries ``marker``."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit() and int(entry) != os.getpid():
            try:
                if marker.encode() in Path(f"/proc/{entry}/cmdline").read_bytes():
                    state = Path(f"/proc/{entry}/stat").read_bytes().rsplit(b")", 1)[-1].split()[0]
                    if state != b"Z":
                        found.append(int(entry))
            except OSError:
                continue
    return found


@AS_ROOT
def test_a_batch_with_attackers_leaves_the_innocent_untouched(tmp_path):
    """kill(-1)/SIGSTOP, /proc snooping, copying a neighbour, escaping the grading, filling the
    scratch space and reading the reports: graded side by side with two innocent students."""
    if not sandbox_setup()[1]:
        pytest.skip("bubblewrap cannot run here: the grader warns that students are not isolated")
    folder = open_folder()
    out = folder / "grades"
    marker = f"0.000{os.getpid()}"
    planted = [Path(p) / "ftr_planted_by_scratch_filler" for p in ("/tmp", "/var/tmp", "/dev/shm")]
    try:
        submissions = folder / "submissions"
        submissions.mkdir()
        copy_fixture("correct_dicts", submissions, as_name="a_innocent")
        copy_fixture("neighbour_attacker", submissions, as_name="b_attacker")
        copy_fixture("copycat", submissions, as_name="c_copycat")
        copy_fixture("escape_artist", submissions, {"0.000424242": marker}, as_name="d_escape")
        copy_fixture("scratch_filler", submissions, as_name="e_filler")
        copy_fixture("read_secrets", submissions, {"TARGETS = []": f"TARGETS = {[str(out / '*')]!r}"},
                     as_name="f_snoop")
        copy_fixture("correct_classes", submissions, as_name="z_innocent")
        environment = dict(os.environ)
        result = subprocess.run([sys.executable, "-m", "reference.cli", "grade-all", str(submissions), "--out", str(out),
                                 "--jobs", "2"], capture_output=True, text=True, env=environment,
                                timeout=1500)
        assert result.returncode == 0, result.stderr[-3000:]
        reports = {p.stem: json.loads(p.read_text()) for p in out.glob("*.json")}
        full = sum(load_rubric().autograded.values())
        for innocent in ("a_innocent", "z_innocent"):
            assert reports[innocent]["score"] == full, reports[innocent]
        for attacker in ("b_attacker", "c_copycat", "d_escape", "e_filler", "f_snoop"):
            assert reports[attacker]["score"] == 0, reports[attacker]
        messages = {name: "\n".join(m for c in r["checks"] for m in c["messages"]) for name, r in reports.items()}
        assert "reached: []" in messages["b_attacker"]            # no other process was even visible
        assert "found nobody to copy" in messages["c_copycat"]
        assert "stolen: []" in messages["f_snoop"]
        assert survivors(marker) == []                            # nothing outlived the grading
        assert not any(path.exists() for path in planted)         # the scratch spaces were private
        # The grader's outputs are its own.
        assert out.stat().st_mode & 0o077 == 0
        assert all(p.stat().st_mode & 0o077 == 0 for p in out.iterdir())
        gradebook = (out / "gradebook.csv").read_text().splitlines()
        assert len(gradebook) == 1 + 7
    finally:
        for pid in survivors(marker):
            os.kill(pid, 9)
        for path in planted:
            path.unlink(missing_ok=True)
        shutil.rmtree(folder)


@pytest.mark.parametrize("mode", ["hello", "deep", "bigint", "flood", "many"])
def test_crafted_replies_cost_the_student_never_the_grader(tmp_path, mode):
    folder = copy_fixture("crafted_replies", tmp_path, {'MODE = "deep"': f"MODE = {mode!r}"})
    report = grade_submission(folder, GradingOptions(checks=("heap", "forward_larger_g")))
    assert report.score == 0, report.to_text()
    text = text_of(report, "forward_larger_g")
    assert text, report.to_text()
    if mode == "hello":
        assert "malformed" in text_of(report, "heap")
    if mode == "flood":
        assert "larger than the limit" in text


def test_deeply_nested_folders_do_not_break_the_clean_up(monkeypatch):
    from autograder.childsetup import private_dir

    folder = open_folder()  # a TMPDIR of this test's own: other graders on the machine share /tmp
    try:
        monkeypatch.setattr(tempfile, "tempdir", str(folder))
        report = grade_submission(FIXTURES / "deep_folders", GradingOptions(checks=("forward_larger_g",)))
        assert "nested" in text_of(report, "forward_larger_g")
        assert list(private_dir("sandboxes").iterdir()) == []  # removed, however deep
    finally:
        shutil.rmtree(folder)


def test_helpers_named_like_the_standard_library_do_not_shadow_the_harness(tmp_path):
    folder = copy_fixture("correct_dicts", tmp_path)
    (folder / "json.py").write_text('"""A student helper named json."""\n\ndef dumps(value):\n    return "mine"\n')
    (folder / "random.py").write_text('"""A student helper named random."""\n\ndef shuffle(values):\n    return None\n')
    (folder / "array.py").write_text('raise ImportError("the harness must never import this")\n')
    report = grade_submission(folder, GradingOptions(checks=("heap", "forward_larger_g", "backward")))
    assert report.score == report.max_score, report.to_text()


def test_a_symlink_in_a_submission_is_never_followed(tmp_path):
    folder = copy_fixture("correct_dicts", tmp_path)
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)  # reading it would block forever
    (folder / "huge.py").symlink_to(fifo)
    (folder / "elsewhere").symlink_to("/")
    began = time.monotonic()
    first = content_hash(folder)
    assert time.monotonic() - began < 5 and first == content_hash(folder)
    report = grade_submission(folder, GradingOptions(checks=("heap",)))
    assert report.score == report.max_score


CHEATS = {
    "helper_module": ("helper.shortcut", True),
    "dunder_import": ('__import__("he" + "apq")', False),
    "import_module": ('importlib.import_module("he" + "apq")', False),
    "sys_modules": ('sys.modules.get("he" + "apq") or importlib.import_module("he" + "apq")', False),
    # from scratch, whoever imports: no student frame on the stack (a thread runs import_module itself), name from bytes
    "thread_bytes": ('(lambda name, t: (t.start(), t.join(), sys.modules[name])[-1])(bytes([104, 101, 97, 112, 113])'
                     '.decode(), __import__("threading").Thread(target=importlib.import_module, '
                     'args=(bytes([104, 101, 97, 112, 113]).decode(),)))', False),
    # the C half made straight from its built-in spec, past the import system
    "builtin_spec": ('importlib.util.module_from_spec(__import__("importlib.machinery").machinery.BuiltinImporter'
                     '.find_spec("_he" + "apq")) if "_heapq" in sys.builtin_module_names else importlib.import_module'
                     '("he" + "apq")', False),
}


@pytest.mark.parametrize("route", sorted(CHEATS))
def test_dishonest_extra_credit_is_refused_however_heapq_is_reached(tmp_path, route):
    expression, keep_helper = CHEATS[route]
    folder = copy_fixture("extra_credit_cheat", tmp_path, {"ROUTE  # noqa: F821": expression})
    if not keep_helper:
        (folder / "helper.py").unlink()
        (folder / "heap.py").write_text((folder / "heap.py").read_text().replace(
            "import helper  # noqa: F401 - one of the routes: the helper imports heapq\n", ""))
    report = grade_submission(folder, GradingOptions(checks=("heap", "heap_from_scratch")))
    assert text_of(report, "heap").endswith("24 of 24 random operation sequences handled exactly"), report.to_text()
    assert report.extra_credit == 0, report.to_text()


def test_dishonest_extra_credit_through_an_earlier_notebook_cell_is_refused(tmp_path):
    import nbformat
    from nbformat.v4 import new_code_cell, new_notebook

    heap = (FIXTURES / "extra_credit_cheat" / "heap.py").read_text()
    heap = heap.split("class BinaryHeap:", 1)[1].replace("_hq.", "hq.")
    notebook = new_notebook(cells=[new_code_cell("import heapq as hq"), new_code_cell("class BinaryHeap:" + heap)])
    nbformat.write(notebook, tmp_path / "cheat.ipynb")
    report = grade_submission(tmp_path / "cheat.ipynb", GradingOptions(checks=("heap", "heap_from_scratch")))
    assert text_of(report, "heap").endswith("24 of 24 random operation sequences handled exactly"), report.to_text()
    assert report.extra_credit == 0
    assert "code cell 1 line 1: imports heapq" in text_of(report, "heap_from_scratch")


PRECOMPUTE = '''

# The public probe, solved at import time with the fast code; every other run made slow.
import numpy as _np
from reference.world.generator import generate_maze as _generate
from reference.world.grid import Gridworld as _Grid
from reference.world.sensing import FogOfWarWorld as _World

_maze = _generate([2005, 1001], height=41, width=41, extra_openings=16)
_blocked = _np.ones((1001, 1001), dtype=bool)
_blocked[480:521, 480:521] = _maze.grid.blocked
_START, _TARGET = (480, 480), (520, 520)
_CACHED = _run(_World(_Grid(1001, 1001, _blocked), _START), _START, _TARGET, "larger_g", "forward")


def repeated_forward_astar(world, start, target, tie_break="larger_g"):
    if (tuple(start), tuple(target), world.height, tie_break) == (_START, _TARGET, 1001, "larger_g"):
        for cell in _CACHED["trajectory"]:
            world.sense(tuple(cell))
        return _CACHED
    for _ in range(world.height * world.width // 10):  # a pass over all cells, ten times over
        sum(range(100))
    return _run(world, start, target, tie_break, "forward")
'''


def test_a_probe_precomputed_at_import_time_earns_no_efficiency_points(tmp_path):
    from autograder.instances import efficiency_probe

    assert efficiency_probe().start == (480, 480)  # the fixture knows the public probe
    folder = copy_fixture("correct_dicts", tmp_path)
    (folder / "replanning.py").write_text((folder / "replanning.py").read_text() + PRECOMPUTE)
    report = grade_submission(folder, GradingOptions(checks=("forward_larger_g", "efficiency")))
    assert text_of(report, "forward_larger_g").count("exactly as the SPEC says") == 3, report.to_text()
    assert report.points()["efficiency"] == 0, report.to_text()


def test_reports_and_the_secret_seed_file_are_private(tmp_path):
    result = subprocess.run([sys.executable, "-m", "reference.cli", "secret-seed", str(tmp_path / "seed.txt")],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    seed = (tmp_path / "seed.txt").read_text().strip()
    assert int(seed) > 2**64 and (tmp_path / "seed.txt").stat().st_mode & 0o777 == 0o600
    again = subprocess.run([sys.executable, "-m", "reference.cli", "secret-seed", str(tmp_path / "seed.txt")],
                           capture_output=True, text=True)
    assert again.returncode == 2 and "--force" in again.stderr
    graded = subprocess.run([sys.executable, "-m", "reference.cli", "grade", str(tmp_path / "missing"), "--json",
                             str(tmp_path / "r.json"), "--gradescope", str(tmp_path / "g.json")],
                            capture_output=True, text=True)
    assert graded.returncode == 2 and graded.stderr.startswith("ftr: error:")
    for name in ("r.json", "g.json"):  # a report even when there is nothing to grade
        assert (tmp_path / name).stat().st_mode & 0o777 == 0o600
    record = json.loads((tmp_path / "r.json").read_text())
    assert record["score"] == 0 and record["max_score"] == sum(load_rubric().autograded.values())
    assert "no such file" in record["error"]


def test_heap_sequences_on_hidden_grading_come_from_a_hash_of_the_secret(monkeypatch):
    from autograder.heapcheck import make_sequences
    from autograder.instances import derived_seed

    assert derived_seed(5, "heap sequences") not in (5, 6)
    assert make_sequences(derived_seed(5, "heap sequences"), count=1) != make_sequences(6, count=1)


def test_a_child_starts_in_bubblewrap_with_its_own_uid_and_nothing_of_the_kit(tmp_path):
    bwrap = sandbox_setup().bwrap
    if not bwrap:
        pytest.skip("bubblewrap cannot run here")
    folder = tmp_path / "probe"
    folder.mkdir()
    (folder / "heap.py").write_text("class BinaryHeap:\n    pass\n")
    (folder / "replanning.py").write_text(
        "import os\n"
        "def repeated_forward_astar(world, start, target, tie_break='larger_g'):\n"
        "    facts = [os.getuid(), sorted(os.listdir('/')), len([p for p in os.listdir('/proc') if p.isdigit()]),\n"
        f"             os.path.exists({str(REPO)!r}), os.access('/sandbox/submission', os.W_OK)]\n"
        "    raise RuntimeError(f'facts: {facts}')\n"
        "repeated_backward_astar = adaptive_astar = repeated_forward_astar\n")
    report = grade_submission(folder, GradingOptions(checks=("forward_larger_g",), limits=Limits(task_seconds=5)))
    text = text_of(report, "forward_larger_g")
    facts = eval(text.split("facts: ", 1)[1].split("\n", 1)[0])  # noqa: S307 - our own test's output
    uid, root_listing, processes, sees_kit, can_write_submission = facts
    assert "sandbox" in root_listing and "root" not in root_listing and "home" not in root_listing
    assert processes <= 3             # its own PID namespace: bwrap's init, itself (and at most one more)
    assert not sees_kit and not can_write_submission


# -- the plain sandbox as root: namespaces of each child's own (issue 34, item 2) ---------------------------

def run_plain_batch(names: dict[str, str]):
    """One real `grade-all --jobs 2` with FTR_SANDBOX=plain (no bubblewrap) as root of the fixtures
    ``names`` ({as_name: fixture}); yields {name: report}."""
    if os.geteuid() != 0:
        pytest.skip("the plain sandbox's namespaces need a root grader")
    folder = open_folder()
    submissions, out = folder / "submissions", folder / "grades"
    submissions.mkdir()
    try:
        for as_name, fixture in names.items():
            copy_fixture(fixture, submissions, as_name=as_name)
        result = subprocess.run([sys.executable, "-m", "reference.cli", "grade-all", str(submissions), "--out", str(out),
                                 "--jobs", "2"], capture_output=True, text=True, timeout=1500, cwd=REPO,
                                env={**os.environ, "FTR_SANDBOX": "plain"})
        assert result.returncode == 0, result.stderr[-3000:]
        assert "WARNING" not in result.stderr  # root, plain: isolated, no warning and no refusal
        yield {p.stem: json.loads(p.read_text()) for p in out.glob("*.json")}
    finally:
        shutil.rmtree(folder)


@pytest.fixture(scope="module")
def plain_batch():
    """Two students who try to swap code over an abstract unix socket, graded at the same time, then two
    who read classmates' folders out of every process's command line (each other's, and the pair's)."""
    yield from run_plain_batch({"a_pair": "socket_pair", "b_pair": "socket_pair", "c_snoop": "cmdline_snoop",
                                "d_snoop": "cmdline_snoop"})


def messages_of(report: dict) -> str:
    return "\n".join(m for c in report["checks"] for m in c["messages"])


def test_the_socket_attack_works_between_two_processes_that_share_a_network_namespace():
    """The referee for the batch below: outside any sandbox the pair's exchange does carry the code."""
    code = ("import sys, time; sys.path.insert(0, sys.argv[1]); import replanning; "
            "print(replanning.exchange(8, time.monotonic()))")
    pair = [subprocess.Popen([sys.executable, "-c", code, str(FIXTURES / "socket_pair")], stdout=subprocess.PIPE,
                             text=True) for _ in range(2)]
    received = [int(process.communicate(timeout=60)[0]) for process in pair]
    size = (FIXTURES / "socket_pair" / "replanning.py").stat().st_size
    assert received == [size, size]


def test_the_command_line_snoop_reads_a_classmate_whose_folder_a_visible_process_names(tmp_path):
    """The referee for the batch below: a process whose command line names a submission folder (as a
    plain child's does: ``... ftr_child.py LIB SUBMISSION ...``), visible to the snoop, gives that
    classmate's code away."""
    import importlib.util

    classmate = tmp_path / "sandbox-classmate" / "submission"
    classmate.mkdir(parents=True)
    (classmate / "replanning.py").write_text("# the classmate's own code, snoop-referee\n")
    # and a FIFO named replanning.py in a folder another process names (as test_autograder_reading's
    # unreadable submission does while `ftr grade` reads it): opening it would block the snoop forever
    piped = tmp_path / "fifo-submission"
    piped.mkdir()
    os.mkfifo(piped / "replanning.py")
    holder = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)", str(classmate), str(piped)])
    try:
        spec = importlib.util.spec_from_file_location("cmdline_snoop", FIXTURES / "cmdline_snoop" / "replanning.py")
        assert spec is not None and spec.loader is not None
        snoop = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(snoop)
        snoop.BEGAN = time.monotonic() - 5  # one second of its six of looking
        assert "# the classmate's own code, snoop-referee" in snoop._snoop()
    finally:
        holder.kill()
        holder.wait()


@pytest.mark.slow
def test_plain_root_batch_grades_the_innocent_in_full_beside_the_attackers():
    for reports in run_plain_batch({"a_pair": "socket_pair", "b_snoop": "cmdline_snoop",
                                    "c_innocent": "correct_classes", "d_pair": "socket_pair"}):
        assert reports["c_innocent"]["score"] == sum(load_rubric().autograded.values()), reports["c_innocent"]
        assert "read from command lines: ['" not in messages_of(reports["b_snoop"])


def test_plain_root_children_cannot_talk_over_an_abstract_unix_socket(plain_batch):
    for name in ("a_pair", "b_pair"):
        assert plain_batch[name]["score"] == 0
        text = messages_of(plain_batch[name])
        assert "received over a socket: 0 bytes" in text, text[:2000]
        assert "received over a socket: 1" not in text and "received over a socket: 2" not in text


def test_plain_root_children_read_no_classmate_out_of_command_lines(plain_batch):
    for name in ("c_snoop", "d_snoop"):
        text = messages_of(plain_batch[name])
        assert "read from command lines: []" in text, text[:2000]
        assert "read from command lines: ['" not in text


def read_other_sandbox(mode: str, monkeypatch) -> tuple[object, object]:
    """A child of sandbox A reads its own submission and sandbox B's (whose path it is given): the facts."""
    from autograder import sandbox as sandbox_module
    from autograder.sandbox import Lane, Sandbox

    monkeypatch.setenv("FTR_SANDBOX", mode)
    monkeypatch.setattr(sandbox_module, "_SETUP", {})
    with Sandbox({"heap.py": b"class BinaryHeap:\n    pass\n"}) as other:
        target = other.folders()[0] / "submission" / "heap.py"
        attack = ("import os\nclass BinaryHeap:\n    def __init__(self):\n        facts = []\n"
                  f"        for path in ({str(target)!r}, os.path.join(os.path.dirname(os.path.abspath(__file__)), "
                  "'heap.py')):\n"
                  "            try:\n                facts.append(len(open(path).read()) > 0)\n"
                  "            except OSError as error:\n                facts.append(type(error).__name__)\n"
                  "        raise RuntimeError(f'facts: {facts!r}')\n")
        with Sandbox({"heap.py": attack.encode()}, Limits(task_seconds=20)) as mine:
            task = {"kind": "heap", "sequences": [[["len", 0, [0]]]], "cpu_seconds": 20, "id": 0}
            outcome = next(iter(mine.run([Lane([(task, [])])])))
    text = outcome.header["error"] if outcome.header else outcome.failure
    return tuple(eval(text.split("facts: ", 1)[1].splitlines()[0]))  # noqa: S307 - our own test's output


@AS_ROOT
@pytest.mark.parametrize("mode", ["auto", "plain"])
def test_a_submissions_folder_is_readable_by_its_own_children_only(mode, monkeypatch):
    """Even a child that learns a classmate's host folder (bubblewrap's command line names it) cannot
    read it: root owns it, with a group only that submission's children have. The sandboxes live
    in a TMPDIR outside /tmp here, which the plain sandbox would cover with a private tmpfs (hiding
    the classmate's folder before its permissions are even tried)."""
    tmpdir = Path(tempfile.mkdtemp(prefix="ftr-isolation-tmpdir-", dir="/var/lib"))
    tmpdir.chmod(0o755)
    monkeypatch.setattr(tempfile, "tempdir", str(tmpdir))
    try:
        classmate, own = read_other_sandbox(mode, monkeypatch)
    finally:
        shutil.rmtree(tmpdir, ignore_errors=True)
    assert own is True
    assert classmate in ("PermissionError", "FileNotFoundError")  # plain: no permission; bubblewrap: not even there
    if mode == "plain":
        assert classmate == "PermissionError"


def test_a_changed_child_site_is_made_again_from_copies_before_the_next_student(tmp_path, monkeypatch, capsys):
    """Copies, never hard links; a byte changed after it was made is caught by the manifest's hashes."""
    from autograder.childsite import changed_files, make_child_site
    from autograder.childsetup import ChildSetup, verify_child_site

    python = sandbox_setup().python
    monkeypatch.setenv("FTR_KIT_STATE_DIR", str(tmp_path))
    site = make_child_site(python)
    files = [p for p in site.rglob("*") if p.is_file()]
    assert files and all(p.stat().st_nlink == 1 for p in files)  # copies: nothing shared with the grader's NumPy
    assert changed_files(site) == []
    init = site / "numpy" / "__init__.py"
    original = init.read_bytes()
    init.chmod(0o644)
    with open(init, "ab") as file:
        file.write(b"# a student was here\n")
    assert changed_files(site) == ["numpy/__init__.py"]
    verify_child_site(ChildSetup(python, None, site))
    assert "numpy/__init__.py" in capsys.readouterr().err
    assert init.read_bytes() == original and changed_files(site) == []


# -- an ordinary user's grader (a TA on a laptop): bubblewrap, or a refusal (issue 34, item 1) ---------------

TA_USER = "ftr-ta-test"  # made by this test as root, used by nothing else: hostile code never runs as a shared user
TA_KIT = ("reference", "autograder", "course", "mazes")


def as_ta(command: list[str], cwd: Path, **environment: str) -> subprocess.CompletedProcess:
    home = f"/home/{TA_USER}"
    env = ["env", "-i", f"HOME={home}", "PATH=/usr/bin:/bin", "LANG=C.UTF-8",
           *(f"{k}={v}" for k, v in environment.items())]
    return subprocess.run(["runuser", "-u", TA_USER, "--", *env, *command], cwd=cwd, capture_output=True, text=True,
                          timeout=1500)


def tree_digest(folder: Path) -> str:
    """A SHA-256 over every file's name and bytes below ``folder`` (a second way to see a change)."""
    import hashlib

    digest = hashlib.sha256()
    for path in sorted(folder.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            digest.update(path.relative_to(folder).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


@pytest.fixture(scope="module")
def ta_route():
    """A TA's machine: the user ``ftr-ta-test`` with a copy of the kit and a venv of its own whose NumPy
    it owns (so that a hard link or a writable site-packages would matter), a secret seed in its HOME,
    and a class of two: the five-attack submission and an innocent classmate."""
    if os.geteuid() != 0:
        pytest.skip("the ordinary-user test makes its own user: it needs root")
    if not Path("/usr/bin/python3").exists() or shutil.which("runuser") is None:
        pytest.skip("needs Debian's /usr/bin/python3 and runuser")
    if subprocess.run(["id", TA_USER], capture_output=True).returncode != 0:
        subprocess.run(["useradd", "--create-home", "--shell", "/bin/sh", TA_USER], check=True, capture_output=True)
    import pwd

    from autograder.uids import kill_uid

    account = pwd.getpwnam(TA_USER)
    work = Path(account.pw_dir) / f"ftr-isolation-{os.getpid()}"
    try:
        work.mkdir(mode=0o700)
        for name in TA_KIT:
            shutil.copytree(REPO / name, work / "kit" / name, ignore=shutil.ignore_patterns("__pycache__"))
        subprocess.run(["/usr/bin/python3", "-m", "venv", "--without-pip", "--system-site-packages", str(work / "venv")],
                       check=True, capture_output=True)
        site = next((work / "venv" / "lib").glob("python3*/site-packages"))
        import numpy
        import tqdm
        for module in (numpy, tqdm):
            shutil.copytree(Path(module.__file__).parent, site / module.__name__,
                            ignore=shutil.ignore_patterns("__pycache__", "tests"))
        numpy_libs = Path(numpy.__file__).parent.with_name("numpy.libs")
        if numpy_libs.is_dir():
            shutil.copytree(numpy_libs, site / "numpy.libs")
        submissions = work / "submissions"
        copy_fixture("ta_attacker", submissions, as_name="a_attacker")
        classmate = copy_fixture("correct_dicts", submissions, as_name="b_classmate")
        code = (classmate / "replanning.py").read_text()
        (classmate / "replanning.py").write_text("# the classmate's own code, ta-test-marker\n" + code)
        (work / "secret_seed.txt").write_text("271828182845904523536\n")
        (work / "gradescope" / "submission").mkdir(parents=True)  # run_autograder's tree, outside a container
        subprocess.run(["chown", "-R", f"{TA_USER}:{account.pw_gid}", str(work)], check=True)
        before = tree_digest(site / "numpy")
        result = as_ta([str(work / "venv" / "bin" / "python"), "-m", "reference.cli", "grade-all", str(submissions),
                        "--out", str(work / "grades"), "--jobs", "2"], work / "kit",
                       FTR_SECRET_SEED_FILE=str(work / "secret_seed.txt"))
        refused = as_ta([str(work / "venv" / "bin" / "python"), "-m", "reference.cli", "grade-all", str(submissions),
                         "--out", str(work / "refused")], work / "kit", FTR_SANDBOX="plain")
        refused_gradescope = as_ta([str(work / "venv" / "bin" / "python"), "-m", "autograder.gradescope", "--root",
                                    str(work / "gradescope")], work / "kit", FTR_SANDBOX="plain")
        refused_kernel = as_ta([str(work / "venv" / "bin" / "python"), "-c", "import sys; sys.path[:0] = ['course', '.']; "
                                "from kernel_sandbox import kernel_setup; kernel_setup()"], work / "kit", FTR_SANDBOX="plain")
        reports = {p.stem: json.loads(p.read_text()) for p in (work / "grades").glob("*.json")}
        yield {"result": result, "refused": refused, "refused_gradescope": refused_gradescope,
               "refused_kernel": refused_kernel, "reports": reports, "work": work, "site": site,
               "numpy_before": before, "numpy_after": tree_digest(site / "numpy"),
               "home": Path(account.pw_dir)}
    finally:
        kill_uid(account.pw_uid)
        shutil.rmtree(work, ignore_errors=True)


def test_a_ta_with_bubblewrap_grades_the_class_and_the_innocent_in_full(ta_route):
    if "bubblewrap" in ta_route["result"].stderr and ta_route["result"].returncode == 2:
        pytest.skip("bubblewrap cannot run for an ordinary user here (no user namespaces)")
    assert ta_route["result"].returncode == 0, ta_route["result"].stderr[-3000:]
    reports = ta_route["reports"]
    assert reports["b_classmate"]["score"] == sum(load_rubric().autograded.values()), reports["b_classmate"]
    assert reports["a_attacker"]["score"] == 0


def test_the_five_attacks_on_a_tas_grader_all_fail(ta_route):
    """Each attack of issue 34, as the attacker saw it (its report) and as the TA's machine shows it."""
    if ta_route["result"].returncode != 0:
        pytest.skip("no batch was graded (see the test above)")
    text = messages_of(ta_route["reports"]["a_attacker"])
    facts = eval(text.split("facts: ", 1)[1].splitlines()[0])  # noqa: S307 - our own test's output
    assert facts == {"numpy": [], "pth": [], "solutions": False, "seed": [], "classmates": []}, facts
    assert "271828182845904523536" not in text and "ta-test-marker" not in text
    assert ta_route["numpy_before"] == ta_route["numpy_after"]          # the TA's NumPy is as it was
    assert not list(ta_route["site"].glob("*.pth"))                      # no .pth in the TA's site-packages
    from autograder.childsite import changed_files
    sites = list((ta_route["home"] / ".cache" / "ftr-kit" / "child-site").glob("numpy-*"))
    assert sites and all(changed_files(site) == [] for site in sites)   # the child site is as it was made


def test_a_ta_without_bubblewrap_is_refused_in_one_line_that_says_what_to_install(ta_route):
    refused = ta_route["refused"]
    assert refused.returncode == 2
    lines = refused.stderr.strip().splitlines()
    assert len(lines) == 1, refused.stderr
    assert "apt-get install bubblewrap" in lines[0] and "--unisolated-i-trust-these-students" in lines[0]
    assert not (ta_route["work"] / "refused").exists()


def test_run_autograder_and_the_nbgrader_kernel_refuse_a_ta_without_bubblewrap_naming_the_variable(ta_route):
    """The routes that take no flag name the environment variable instead (the same risk, the same words)."""
    results = json.loads((ta_route["work"] / "gradescope" / "results" / "results.json").read_text())
    assert results["score"] == 0 and "refusing to grade other people's code here" in results["output"], results
    assert "or set FTR_UNISOLATED_I_TRUST_THESE_STUDENTS=1 to take that risk" in results["output"]
    assert "--unisolated-i-trust-these-students" not in results["output"]
    kernel = ta_route["refused_kernel"]
    if "No module named 'jupyter_client'" in kernel.stderr:
        pytest.skip("no jupyter_client for Debian's python3 here (apt-get install python3-ipykernel)")
    assert kernel.returncode != 0 and "KernelSetupError: refusing to run students' notebooks here" in kernel.stderr
    assert "or set FTR_UNISOLATED_I_TRUST_THESE_STUDENTS=1 to take that risk" in kernel.stderr


@pytest.mark.slow
def test_the_five_attacks_are_real_where_the_ta_takes_the_risk(ta_route):
    """The referee for the tests above (run last: it leaves the TA's venv changed): with
    --unisolated-i-trust-these-students and no bubblewrap every one of the five attacks succeeds."""
    work = ta_route["work"]
    result = as_ta([str(work / "venv" / "bin" / "python"), "-m", "reference.cli", "grade-all", str(work / "submissions"),
                    "--out", str(work / "risked"), "--unisolated-i-trust-these-students"], work / "kit",
                   FTR_SANDBOX="plain", FTR_SECRET_SEED_FILE=str(work / "secret_seed.txt"))
    assert result.returncode == 0, result.stderr[-3000:]
    assert "WARNING" in result.stderr
    text = messages_of(json.loads((work / "risked" / "a_attacker.json").read_text()))
    facts = eval(text.split("facts: ", 1)[1].splitlines()[0])  # noqa: S307 - our own test's output
    assert facts["numpy"] and facts["pth"] and facts["solutions"], facts
    assert "271828182845904523536" in facts["seed"] and "# the classmate's own code, ta-test-marker" in facts["classmates"]
    assert list(ta_route["site"].glob("*.pth"))


@AS_ROOT
def test_a_plain_root_childs_scratch_folders_and_namespaces_are_its_own(monkeypatch):
    """Even with the sandbox folder under /tmp: /tmp, /run/lock and its working folder are its own 64 MiB
    tmpfs mounts (a file planted there never reaches the host), it is alone in its PID namespace, has
    no network, and its only extra group is its submission's."""
    from autograder import sandbox as sandbox_module
    from autograder.sandbox import Lane, Sandbox

    monkeypatch.setenv("FTR_SANDBOX", "plain")
    monkeypatch.setattr(sandbox_module, "_SETUP", {})
    monkeypatch.setattr(tempfile, "tempdir", "/tmp")  # the sandbox folder under /tmp, whatever TMPDIR says
    planted = f"ftr-planted-{os.getpid()}"
    code = ("import os, socket\nclass BinaryHeap:\n    def __init__(self):\n"
            "        sizes = []\n"
            "        for folder in ('.', '/tmp', '/run/lock'):\n"
            f"            open(os.path.join(folder, {planted!r}), 'w').write('x')\n"
            "            v = os.statvfs(folder)\n            sizes.append(v.f_blocks * v.f_frsize // 2**20)\n"
            "        try:\n            socket.create_connection(('127.0.0.1', 22), timeout=1)\n            net = 'up'\n"
            "        except OSError as error:\n            net = error.errno\n"
            "        pids = sorted(p for p in os.listdir('/proc') if p.isdigit())\n"
            "        raise RuntimeError(f'facts: {(sizes, pids, net, os.getgroups())!r}')\n")
    with Sandbox({"heap.py": code.encode()}, Limits(task_seconds=20)) as mine:
        assert str(mine.folders()[0]).startswith("/tmp/")  # under the /tmp its own tmpfs covers
        task = {"kind": "heap", "sequences": [[["len", 0, [0]]]], "cpu_seconds": 20, "id": 0}
        outcome = next(iter(mine.run([Lane([(task, [])])])))
        group = mine.group_id()
    text = outcome.header["error"] if outcome.header else outcome.failure
    sizes, pids, net, groups = eval(text.split("facts: ", 1)[1].splitlines()[0])  # noqa: S307 - our own output
    assert sizes == [64, 64, 64]                       # Limits().scratch_bytes, three times
    assert pids == ["1"]                               # alone: its own PID namespace and /proc
    assert net == 101                                  # ENETUNREACH: no interface up in its network namespace
    assert groups == [group]
    assert not any(Path(folder, planted).exists() for folder in ("/tmp", "/run/lock"))
