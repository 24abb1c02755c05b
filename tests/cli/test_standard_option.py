"""Naming the bundled mazes from anywhere: ``ftr mazes path`` and ``--standard`` (run, draw, animate);
where ``ftr secret-seed`` writes in a checkout. (From an installed wheel: tests/test_wheel.py.)"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def ftr(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    environment = {k: v for k, v in os.environ.items() if k != "FTR_MAZES"}
    return subprocess.run([sys.executable, "-m", "reference.cli", *args], capture_output=True, text=True, cwd=cwd,
                          env=environment, timeout=600)


def test_mazes_path_prints_the_kits_folders(tmp_path: Path) -> None:
    assert ftr("mazes", "path", cwd=tmp_path).stdout.strip() == str(REPO / "mazes")
    assert ftr("mazes", "path", "--handout", cwd=tmp_path).stdout.strip() == str(REPO / "mazes" / "handout")


def test_run_standard_is_run_on_the_bundled_folder(tmp_path: Path) -> None:
    """From a folder with no mazes in it, --standard gives what naming the repository's mazes/ gives."""
    standard = ftr("run", "--standard", "--algorithm", "adaptive", "--jsonl", cwd=tmp_path)
    named = ftr("run", str(REPO / "mazes"), "--algorithm", "adaptive", "--jsonl", cwd=tmp_path)
    assert standard.returncode == named.returncode == 0, standard.stderr + named.stderr
    assert standard.stdout == named.stdout and standard.stdout.count("\n") == 50


def test_standard_and_a_path_or_neither_is_refused_in_one_line(tmp_path: Path) -> None:
    for args, expected in ((("run", "--standard", str(tmp_path)), "not both"),
                           (("run",), "--standard"),
                           (("draw", "--out", str(tmp_path / "x.png")), "--standard")):
        result = ftr(*args, cwd=tmp_path)
        assert result.returncode == 2 and result.stderr.count("\n") == 1, result.stderr
        assert result.stderr.startswith("ftr: error:") and expected in result.stderr


def test_the_secret_seed_goes_to_course_in_a_checkout(tmp_path: Path, monkeypatch) -> None:
    """In a clone, course/secret_seed.txt (git-ignored); the user's config folder is for wheels."""
    from autograder.instances import default_seed_file, seed_file

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.delenv("FTR_SECRET_SEED_FILE", raising=False)
    assert default_seed_file() == seed_file() == REPO / "course" / "secret_seed.txt"
    assert "secret_seed.txt" in (REPO / "course" / ".gitignore").read_text().split()
    monkeypatch.setenv("FTR_SECRET_SEED_FILE", str(tmp_path / "mine.txt"))
    assert seed_file() == tmp_path / "mine.txt"
