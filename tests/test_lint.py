"""The linter and the type checker hold the whole tree (their settings: pyproject.toml).

ruff: pyflakes, pycodestyle and bugbear over the kit, its tests, benchmarks and notebooks (the
submissions under tests/ are students' code in many styles and are left out), and in the packages
``reference`` and ``autograder`` a docstring on every public module, class and function (pydocstyle's
D100, D101, D103, D104). mypy: every module of those packages, with no module excused from its errors.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def _tool(name: str) -> list[str]:
    """The tool's command: the module beside this interpreter (the test extra installs both)."""
    try:
        __import__(name)
    except ImportError:
        if shutil.which(name) is None:
            pytest.skip(f"{name} is not installed (pip install -e '.[test]')")
        return [name]
    return [sys.executable, "-m", name]


def test_ruff_finds_nothing() -> None:
    result = subprocess.run(_tool("ruff") + ["check", "--no-cache", "."], cwd=REPO, capture_output=True, text=True,
                            timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("where, required", [("reference/solutions/probe.py", True), ("autograder/probe.py", True),
                                             ("bench/probe.py", False), ("tests/probe.py", False)])
def test_public_functions_of_the_packages_need_a_docstring(where: str, required: bool) -> None:
    """The repository's own ruff settings, on a module without docstrings placed (by name) at ``where``."""
    undocumented = '"""A module."""\n\n\ndef public(x):\n    return x\n\n\ndef _private(x):\n    return x\n'
    result = subprocess.run(_tool("ruff") + ["check", "--no-cache", "--output-format", "concise", "--stdin-filename",
                                             where, "-"], cwd=REPO, input=undocumented, capture_output=True, text=True,
                            timeout=120)
    reported = [line for line in result.stdout.splitlines() if " D1" in line]
    assert [line.split()[1] for line in reported] == (["D103"] if required else []), result.stdout + result.stderr


def test_mypy_finds_nothing() -> None:
    result = subprocess.run(_tool("mypy") + ["--cache-dir", "/dev/null"], cwd=REPO, capture_output=True, text=True,
                            timeout=900)
    assert result.returncode == 0, result.stdout + result.stderr


def test_no_module_is_excused_from_the_type_checker() -> None:
    """pyproject.toml keeps no ``ignore_errors`` list: a module that stops type-checking fails above."""
    settings = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    assert "ignore_errors" not in settings
