"""Writing files atomically: a reader sees the old file or the new one, never half of one; and text a
student chose made safe to show (:func:`printable`) or to put in a CSV cell (:func:`spreadsheet_cell`).

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> atomic_write_text(folder / "grades.csv", "student,score\\n")
>>> (folder / "grades.csv").read_text()
'student,score\\n'
"""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path
from typing import Iterable


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


# -- text a student chose, on a terminal or in a spreadsheet ---------------------------------------------

#: Characters that must never reach a terminal or a spreadsheet raw: C0 controls but tab and newline
#: (ESC starts every screen-clearing, title-setting or clipboard-writing sequence; CR and BS overwrite
#: a line), DEL, the C1 controls (U+009B is a one-character CSI), the bidirectional overrides that
#: reorder what is shown, and lone surrogates (undecodable bytes of a file name, kept by
#: ``surrogateescape``).
_UNPRINTABLE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")

#: A cell a spreadsheet would start evaluating (OWASP's CSV-injection list).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")

#: A plain decimal number, signed or not ("-3.5", "+2", "-1e-06"): a spreadsheet reads it as a number,
#: never as a formula, so it keeps its sign and stays a number; so is a lone "-" (a table's "none").
#: "-1+cmd", "-inf", "--1" and "- 3" are not.
PLAIN_NUMBER = re.compile(r"-|[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")


def _escape(match: re.Match) -> str:
    code = ord(match.group())
    if 0xDC80 <= code <= 0xDCFF:  # a byte that was not UTF-8 (surrogateescape): show the byte
        return f"\\x{code - 0xDC00:02x}"
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def printable(text: object, newlines: bool = True) -> str:
    """``text`` with every control character escaped (``\\x1b``), so that it shows as written and does
    nothing; tabs and (if ``newlines``) newlines are kept. Idempotent. Everything a student chose
    (folder names, exception messages, printed output) passes through this before it reaches a
    terminal, a report or a spreadsheet (:func:`spreadsheet_cell`).

    >>> printable("\\x1b[2J\\x1b]52;c;aGk=\\x07[ok  ]\\r")
    '\\\\x1b[2J\\\\x1b]52;c;aGk=\\\\x07[ok  ]\\\\x0d'
    >>> printable("caf\\udce9"), printable("a\\nb", newlines=False)
    ('caf\\\\xe9', 'a\\\\x0ab')
    """
    text = _UNPRINTABLE.sub(_escape, str(text))
    return text if newlines else text.replace("\n", "\\x0a")


def spreadsheet_cell(value: object) -> object:
    """A CSV cell that is safe to open in a spreadsheet: numbers as they are; text on one line, every
    control character escaped (:func:`printable`), and never a live formula (OWASP's CSV-injection
    rule: text starting with ``=``, ``+``, ``-``, ``@``, tab or CR gets a leading single quote). Text that is a plain
    decimal number (:data:`PLAIN_NUMBER`, such as ``"-3.5"``) is a number, not a formula, and is
    kept as it is, so a column of numbers stays numbers (a lone ``"-"``, a table's "none", too).

    Every CSV writer of the kit passes its cells through this (the gradebook, ``ftr similarity``,
    the experiments' tables).

    >>> spreadsheet_cell("=cmd|' /C calc'!A0"), spreadsheet_cell("-1+cmd"), spreadsheet_cell("ada")
    ("'=cmd|' /C calc'!A0", "'-1+cmd", 'ada')
    >>> spreadsheet_cell(-3.5), spreadsheet_cell("-3.5"), spreadsheet_cell("-inf"), spreadsheet_cell("a\\nb")
    (-3.5, '-3.5', "'-inf", 'a\\\\x0ab')
    """
    if not isinstance(value, str):
        return value
    if value.startswith(FORMULA_STARTS) and not PLAIN_NUMBER.fullmatch(value):
        value = "'" + value
    return printable(value, newlines=False)


def spreadsheet_row(values: Iterable[object]) -> list[object]:
    """Every cell of a row through :func:`spreadsheet_cell`."""
    return [spreadsheet_cell(value) for value in values]
