"""Writing files atomically: a reader sees the old file or the new one, never half of one.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> atomic_write_text(folder / "grades.csv", "student,score\\n")
>>> (folder / "grades.csv").read_text()
'student,score\\n'
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def atomic_write_bytes(path: str | os.PathLike, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder and a rename.

    The file gets the mode it had, or for a new file the usual one (0666 less the umask); the
    temporary file ``mkstemp`` makes would otherwise leave it readable by its owner only.

    Parameters
    ----------
    path : str or os.PathLike
        The file to write; missing parent folders are made.
    data : bytes
        Its whole new content.

    Raises
    ------
    OSError
        The folder cannot be made or written; the temporary file is removed and ``path`` is untouched.

    See Also
    --------
    atomic_write_text : the same for text.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> target = pathlib.Path(tempfile.mkdtemp()) / "maze.bin"
    >>> atomic_write_bytes(target, b"@..")
    >>> target.read_bytes()
    b'@..'
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.chmod(temporary, _mode_for(path))
        os.replace(temporary, path)
    except BaseException:
        try:
            os.unlink(temporary)
        except FileNotFoundError:
            pass
        raise


def _mode_for(path: Path) -> int:
    try:
        return path.stat().st_mode & 0o7777
    except FileNotFoundError:
        return 0o666 & ~current_umask()


def current_umask() -> int:
    """The process's umask (the permission bits new files and folders do not get)."""
    umask = os.umask(0)  # reading the umask means setting it; put it straight back
    os.umask(umask)
    return umask


def atomic_write_text(path: str | os.PathLike, text: str, encoding: str = "utf-8") -> None:
    """Write ``text`` to ``path`` atomically: a reader sees the old file or the new one, never half of one.

    Parameters
    ----------
    path : str or os.PathLike
        The file to write; missing parent folders are made.
    text : str
        Its whole new content.
    encoding : str
        How ``text`` becomes bytes (UTF-8 by default).

    Raises
    ------
    OSError
        The folder cannot be made or written (``path`` is untouched).
    UnicodeEncodeError
        ``text`` holds a character ``encoding`` cannot write.

    See Also
    --------
    atomic_write_bytes : the same for bytes, and how the mode is kept.
    """
    atomic_write_bytes(path, text.encode(encoding))
