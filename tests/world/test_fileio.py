"""Atomic writes: a reader sees the old file or the new one, with the usual file mode."""

from __future__ import annotations

import os

from reference.world.fileio import atomic_write_text


def test_atomic_writes_get_the_usual_file_mode(tmp_path) -> None:
    """A new file gets 0666 less the umask (not mkstemp's 0600); an existing file keeps its mode."""
    umask = os.umask(0o022)
    try:
        atomic_write_text(tmp_path / "new.txt", "x")
        assert (tmp_path / "new.txt").stat().st_mode & 0o777 == 0o644
        (tmp_path / "old.txt").write_text("x")
        (tmp_path / "old.txt").chmod(0o600)
        atomic_write_text(tmp_path / "old.txt", "y")
        assert (tmp_path / "old.txt").stat().st_mode & 0o777 == 0o600
        assert (tmp_path / "old.txt").read_text() == "y"
        assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []
    finally:
        os.umask(umask)
