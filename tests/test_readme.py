"""The README's commands are the ones that work: `.ci/run` runs its two install-and-test commands
verbatim, and its picture examples run as printed, from the top of the repository."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
README = (REPO / "README.md").read_text(encoding="utf-8")


def indented_commands(text: str) -> list[str]:
    """The README's code lines (indented four spaces), comments after two spaces and a # cut off."""
    return [line[4:].split("  #")[0].rstrip() for line in text.splitlines() if line.startswith("    ") and line.strip()]


def test_ci_runs_exactly_the_readmes_two_commands() -> None:
    install, test = indented_commands(README)[:2]
    assert install.startswith("python3 -m venv .venv && .venv/bin/pip install") and test.startswith(".venv/bin/python -m pytest")
    ci = [line for line in (REPO / ".ci" / "run").read_text().splitlines()
          if line.strip() and not line.lstrip().startswith("#")]
    assert ci[-2:] == [install, test]
    # the rest is the shell preamble and the root-only system install, nothing else
    assert [line for line in ci[:-2] if re.search(r"\b(pip|pytest|ftr)\b", line)] == []


def picture_commands() -> list[str]:
    return [command for command in indented_commands(README) if command.startswith("ftr draw ")]


@pytest.mark.parametrize("command", picture_commands())
def test_the_readmes_picture_examples_run_as_printed(command: str, tmp_path: Path) -> None:
    words = shlex.split(command)
    out = words.index("--out")
    words[out + 1] = str(tmp_path / words[out + 1])
    result = subprocess.run([sys.executable, "-m", "reference.cli", *words[1:]], cwd=REPO, capture_output=True,
                            text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert Path(words[out + 1]).stat().st_size > 10_000


def test_there_are_picture_examples_and_they_use_shipped_files() -> None:
    commands = picture_commands()
    assert len(commands) >= 3
    for command in commands:
        path = shlex.split(command)[2]
        if path == "--standard":  # the bundled mazes, wherever the kit is installed
            continue
        assert (REPO / path).exists(), f"the README draws {path}, which the repository does not have"
