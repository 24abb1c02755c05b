"""Shared fixtures: the standard mazes and the shared data folder (the handout's grids: helpers/handout.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from reference.world.instances import Instance, load_folder, standard_mazes_dir

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"

@pytest.fixture(scope="session")
def standard_instances() -> list[Instance]:
    return load_folder(standard_mazes_dir())


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    """The project's shared/ folder (papers, MovingAI maps); tests that need it skip without it."""
    if not SHARED.is_dir():
        pytest.skip("../shared is not present")
    return SHARED
