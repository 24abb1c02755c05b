"""Hostile submissions (tests/submissions/*): each gets the score it earned (0), a clear message, and
the grader carries on. Student code runs in a real sandboxed child; nothing is mocked."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

from autograder.grader import GradingOptions, grade_submission
from autograder.sandbox import Limits

HERE = Path(__file__).resolve().parents[1]
FIXTURES = HERE / "submissions"
KIT = HERE.parent


def grade(name: str, checks=("heap", "forward_larger_g"), folder: Path | None = None, **limits):
    options = GradingOptions(checks=tuple(checks), limits=Limits(**limits)) if limits else GradingOptions(checks=tuple(checks))
    return grade_submission(folder or FIXTURES / name, options)


def text_of(report, check_id: str) -> str:
    return "\n".join(next(c for c in report.checks if c.id == check_id).messages)


def assert_all_zero(report):
    assert report.score == 0, report.to_text()
    assert all(c.messages for c in report.checks), report.to_text()


def open_folder() -> Path:
    """A folder anyone may enter (pytest's tmp_path is private to root, which would prove nothing)."""
    folder = Path(tempfile.mkdtemp(prefix="ftr-hostile-test-"))
    folder.chmod(0o755)
    return folder


def test_importing_the_reference_fails_with_a_clear_message():
    report = grade("import_reference")
    assert_all_zero(report)
    assert "No module named 'reference.solutions'" in text_of(report, "heap")
    assert "No module named 'autograder'" in text_of(report, "forward_larger_g")
    for check in ("heap", "forward_larger_g"):
        assert "may import only reference.world" in text_of(report, check)


AS_ROOT = pytest.mark.skipif(os.geteuid() != 0, reason="files are kept from student code by switching users, "
                                                           "which only a root grader can do")


@AS_ROOT
def test_secrets_and_expected_results_are_out_of_reach(monkeypatch):
    folder = open_folder()
    try:
        seed_file, cache = folder / "secret_seed.txt", folder / "cache"
        seed_file.write_text("8675309\n")
        seed_file.chmod(0o644)  # careless permissions: the grader must tighten them before running code
        monkeypatch.setenv("FTR_SECRET_SEED_FILE", str(seed_file))
        monkeypatch.delenv("FTR_SECRET_SEED", raising=False)
        monkeypatch.setenv("FTR_CACHE_DIR", str(cache))
        submission = folder / "read_secrets"
        shutil.copytree(FIXTURES / "read_secrets", submission)
        source = (submission / "replanning.py").read_text()
        targets = [str(seed_file), str(cache / "expected" / "*.json"), str(cache / "**")]
        (submission / "replanning.py").write_text(source.replace("TARGETS = []", f"TARGETS = {targets!r}"))
        report = grade_submission(submission, GradingOptions(hidden=True, checks=("forward_larger_g",)))
        assert list((cache / "expected").glob("*.json")), "the hidden expectations should be cached"
        text = report.to_text()
        assert "stolen: []" in text, text
        assert "8675309" not in text
        assert report.score == 0
    finally:
        shutil.rmtree(folder)


@AS_ROOT
def test_the_kit_itself_is_out_of_reach_even_when_world_readable():
    """The kit's folder (reference solutions, autograder, shipped expectations) is not in the child's
    file system at all (bubblewrap binds only the interpreter, the public world and the submission;
    the plain sandbox as root covers the kit's folder with an empty file system)."""
    assert (KIT / "reference" / "solutions" / "replanning.py").stat().st_mode & 0o004  # world-readable here
    folder = open_folder()
    try:
        submission = folder / "read_secrets"
        shutil.copytree(FIXTURES / "read_secrets", submission)
        source = (submission / "replanning.py").read_text()
        targets = [str(KIT / "reference" / "solutions" / "replanning.py"), str(KIT / "autograder" / "**"),
                   str(KIT / "README.md")]
        (submission / "replanning.py").write_text(source.replace("TARGETS = []", f"TARGETS = {targets!r}"))
        report = grade_submission(submission, GradingOptions(checks=("forward_larger_g",)))
        text = report.to_text()
        assert "stolen: []" in text, text
        assert report.score == 0
    finally:
        shutil.rmtree(folder)


def test_monkeypatching_the_harness_and_the_world_earns_nothing():
    report = grade("monkeypatch_grader")
    assert_all_zero(report)
    assert "not where the agent really went" in text_of(report, "forward_larger_g")


def test_printed_and_written_fake_results_change_nothing():
    existed = Path("/autograder/results/results.json").exists()
    report = grade("fake_output")
    assert_all_zero(report)
    assert "malformed" in text_of(report, "forward_larger_g")
    assert Path("/autograder/results/results.json").exists() == existed


@pytest.mark.parametrize("name, phrase", [("exit_sys", "SystemExit"), ("exit_os", "os._exit")])
def test_exiting_early_is_reported_and_grading_goes_on(name, phrase):
    report = grade(name)
    assert_all_zero(report)
    assert phrase in text_of(report, "heap")
    assert phrase in text_of(report, "forward_larger_g")


def test_objects_equal_to_everything_are_not_accepted():
    report = grade("eq_always_true")
    assert_all_zero(report)
    assert "not one of the cells pushed" in text_of(report, "heap")
    assert "malformed" in text_of(report, "forward_larger_g")


def test_infinite_loops_hit_the_time_limit_per_instance():
    report = grade("infinite_loop", checks=("heap", "forward_larger_g", "adaptive"), task_seconds=1.0)
    assert_all_zero(report)
    assert "time limit exceeded" in text_of(report, "heap")
    for check in ("forward_larger_g", "adaptive"):
        assert "time limit exceeded" in text_of(report, check)
        assert "an earlier instance of this check ran out of time" in text_of(report, check)


def test_an_infinite_loop_hits_the_time_limit_per_submission():
    report = grade("infinite_loop", task_seconds=5.0, total_seconds=0.8)
    assert_all_zero(report)
    assert "total time limit of 0.8 s was used up" in text_of(report, "heap")
    assert "total time limit of 0.8 s was used up" in text_of(report, "forward_larger_g")


def test_a_memory_bomb_hits_the_memory_limit_once_per_check():
    """A MemoryError (or the memory limit's kill) skips the check's later instances, as a time-out does."""
    report = grade("memory_bomb", memory_bytes=1 << 30)
    assert_all_zero(report)
    assert "MemoryError" in text_of(report, "heap")
    assert "MemoryError" in text_of(report, "forward_larger_g")
    assert "an earlier instance of this check ran out of time or memory" in text_of(report, "forward_larger_g")


def test_a_submission_that_loops_everywhere_stops_at_its_grading_budget():
    """Four checks that each loop forever: with a CPU budget of 2.5 s for the whole submission and 1 s
    per task, at most a few tasks run (each about 1 s of CPU) before the rest are not run at all."""
    checks = ("heap", "forward_larger_g", "forward_smaller_g", "backward", "adaptive")
    report = grade("infinite_loop", checks=checks, task_seconds=1.0, cpu_budget_seconds=2.5)
    assert_all_zero(report)
    texts = "\n".join(text_of(report, check) for check in checks)
    assert "used up its grading budget of 2.5 s of CPU time" in texts, report.to_text()
    assert texts.count("time limit exceeded") <= 4, report.to_text()  # 2.5 s of budget: three 1-second tasks, and
    # one more started by the other lane before the budget ran out


def survivors(marker: str) -> list[int]:
    """Live processes whose command line carries ``marker``."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                state = Path(f"/proc/{entry}/stat").read_bytes().rsplit(b")", 1)[-1].split()[0]
                if marker.encode() in Path(f"/proc/{entry}/cmdline").read_bytes() and state != b"Z":
                    found.append(int(entry))
            except OSError:
                continue
    return found


def test_a_bounded_fork_bomb_is_contained_and_cleaned_up(tmp_path):
    marker = f"0.000{os.getpid()}1"
    submission = tmp_path / "fork_bomb"
    shutil.copytree(FIXTURES / "fork_bomb", submission)
    source = (submission / "replanning.py").read_text()
    (submission / "replanning.py").write_text(source.replace('MARKER = "0.0001"', f"MARKER = {marker!r}"))
    try:
        report = grade("fork_bomb", checks=("forward_larger_g",), folder=submission, task_seconds=2.0)
        assert_all_zero(report)
        assert "time limit exceeded" in text_of(report, "forward_larger_g")
        assert survivors(marker) == []
    finally:
        for pid in survivors(marker):
            os.kill(pid, 9)


def test_huge_outputs_are_cut_off():
    report = grade("huge_output", checks=("heap", "forward_larger_g", "backward"), task_seconds=5.0,
                   file_bytes=4 << 20)
    assert_all_zero(report)
    assert "File too large" in text_of(report, "heap")
    assert "File too large" in text_of(report, "forward_larger_g")
    assert text_of(report, "backward")


def test_raising_everywhere_earns_nothing_and_breaks_nothing():
    report = grade("raising_everywhere", checks=("heap", "forward_larger_g", "backward", "adaptive"))
    assert_all_zero(report)
    assert "Weird: weird" in text_of(report, "heap")
    assert "raised on purpose" in text_of(report, "forward_larger_g")
    assert "RecursionError" in text_of(report, "adaptive")


@AS_ROOT
def test_writing_outside_its_folder_fails():
    folder = open_folder()
    try:
        targets = [str(KIT / "HACKED_BY_A_STUDENT"), str(folder / "report.json"), "/autograder/HACKED"]
        submission = folder / "write_outside"
        shutil.copytree(FIXTURES / "write_outside", submission)
        source = (submission / "replanning.py").read_text()
        (submission / "replanning.py").write_text(source.replace("TARGETS = []", f"TARGETS = {targets!r}"))
        report = grade("write_outside", checks=("forward_larger_g",), folder=submission)
        assert "written: []" in text_of(report, "forward_larger_g"), report.to_text()
        assert not any(Path(t).exists() for t in targets)
        assert not (submission / "planted.py").exists()
    finally:
        shutil.rmtree(folder)
