"""MovingAI ``.map`` and ``.scen`` files (SPEC §2).

Maps::

    type octile
    height 3
    width 4
    map
    ..@.
    ....
    @...

The kit writes ``.`` and ``@``; it reads ``.``, ``G``, ``S`` as unblocked and ``@``, ``O``, ``T``,
``W`` as blocked. Every error names the file, the line and what was expected. CRLF line endings
are accepted.

Scenarios: a first line ``version 1``, then one tab-separated line per instance,
``bucket map width height start_x start_y goal_x goal_y optimal_length``, where **x is the column
and y the row**.

>>> grid = parse_map("type octile\\nheight 1\\nwidth 3\\nmap\\n.@.\\n", source="tiny.map")
>>> grid.to_strings()
['.@.']
>>> parse_map("type octile\\nheight 1\\nwidth 3\\nmap\\n.x.\\n", source="bad.map")
Traceback (most recent call last):
...
reference.world.maps.MapFormatError: bad.map, line 5: unknown character 'x' in column 2 (expected one of . G S @ O T W)
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .fileio import atomic_write_text
from .grid import Cell, Gridworld

UNBLOCKED_CHARS = frozenset(".GS")
BLOCKED_CHARS = frozenset("@OTW")


class MapFormatError(ValueError):
    """A map or scenario file that does not follow the MovingAI format.

    ``source`` is the file, ``line`` the 1-based line number (or None for the file as a whole).
    """

    def __init__(self, source: str, line: int | None, message: str) -> None:
        self.source = source
        self.line = line
        self.detail = message
        where = f"{source}, line {line}" if line is not None else source
        super().__init__(f"{where}: {message}")


def _read_text(path: str | os.PathLike, encoding: str, what: str) -> str:
    """The file's text, or a :class:`MapFormatError` saying it is missing or not ``what``."""
    try:
        return Path(path).read_text(encoding=encoding)
    except FileNotFoundError:
        raise MapFormatError(str(path), None, "no such file") from None
    except UnicodeDecodeError as error:
        raise MapFormatError(str(path), None, f"not {what} (byte {error.start} is not {encoding.upper()})") from None


# -- maps -------------------------------------------------------------------------------------


def parse_map(text: str, source: str = "<map>") -> Gridworld:
    """Parse the text of a ``.map`` file into a :class:`Gridworld`."""
    lines = text.splitlines()  # handles \n, \r\n and \r alike
    header: dict[str, int | str] = {}
    number = 0
    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        if not line:
            raise MapFormatError(source, number, "empty line in the header (expected 'type', 'height', 'width' or 'map')")
        if line == "map":
            break
        key, _, value = line.partition(" ")
        value = value.strip()
        if key == "type":
            header["type"] = value
        elif key in ("height", "width"):
            if not value.isdigit() or int(value) < 1:
                raise MapFormatError(source, number, f"expected '{key} N' with a positive whole number, got {line!r}")
            header[key] = int(value)
        else:
            raise MapFormatError(source, number, f"expected a header line 'type', 'height', 'width' or 'map', got {line!r}")
    else:
        raise MapFormatError(source, None, "missing the 'map' line that ends the header")
    for key in ("type", "height", "width"):
        if key not in header:
            raise MapFormatError(source, number, f"the header has no '{key}' line before 'map'")
    height, width = int(header["height"]), int(header["width"])

    body = lines[number:]
    while body and not body[-1].strip():
        body.pop()  # trailing blank lines are harmless
    if len(body) != height:
        raise MapFormatError(
            source, number + len(body) if len(body) < height else number + height + 1,
            f"the header says height {height} but the map has {len(body)} rows",
        )
    blocked = np.zeros((height, width), dtype=bool)
    for row, line in enumerate(body):
        line_number = number + row + 1
        if len(line) != width:
            raise MapFormatError(source, line_number, f"expected {width} characters (the header's width), found {len(line)}")
        for col, ch in enumerate(line):
            if ch in BLOCKED_CHARS:
                blocked[row, col] = True
            elif ch not in UNBLOCKED_CHARS:
                raise MapFormatError(
                    source, line_number,
                    f"unknown character {ch!r} in column {col + 1} (expected one of . G S @ O T W)",
                )
    return Gridworld(height, width, blocked)


def read_map(path: str | os.PathLike) -> Gridworld:
    """Read a MovingAI ``.map`` file."""
    return parse_map(_read_text(path, "ascii", "a text map"), source=str(path))


def format_map(grid: Gridworld) -> str:
    """The text of a ``.map`` file for ``grid`` (``.`` unblocked, ``@`` blocked)."""
    header = f"type octile\nheight {grid.height}\nwidth {grid.width}\nmap\n"
    return header + "\n".join(grid.to_strings()) + "\n"


def write_map(grid: Gridworld, path: str | os.PathLike) -> None:
    """Write ``grid`` as a ``.map`` file (atomically)."""
    atomic_write_text(path, format_map(grid))


# -- scenarios --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Scenario:
    """One line of a ``.scen`` file. ``start`` and ``target`` are ``(row, col)`` cells."""

    bucket: int
    map: str
    width: int
    height: int
    start: Cell
    target: Cell
    optimal_length: float

    def to_line(self) -> str:
        """The tab-separated ``.scen`` line (x is the column, y the row)."""
        (start_row, start_col), (target_row, target_col) = self.start, self.target
        fields = [self.bucket, self.map, self.width, self.height, start_col, start_row, target_col, target_row]
        return "\t".join(str(f) for f in fields) + "\t" + _format_length(self.optimal_length)


def _format_length(length: float) -> str:
    if length == -1:
        return "-1"
    if float(length).is_integer():
        return f"{length:.1f}"  # 212 -> "212.0", as the SPEC writes it
    return repr(float(length))


def parse_scen(text: str, source: str = "<scen>") -> list[Scenario]:
    """Parse the text of a ``.scen`` file."""
    lines = text.splitlines()
    if not lines or not lines[0].strip().startswith("version"):
        raise MapFormatError(source, 1, "expected the first line 'version 1'")
    scenarios = []
    for number, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        fields = line.split("\t") if "\t" in line else line.split()
        fields = [f.strip() for f in fields]
        if len(fields) != 9:
            raise MapFormatError(
                source, number,
                f"expected 9 tab-separated fields (bucket map width height start_x start_y goal_x goal_y "
                f"optimal_length), found {len(fields)}",
            )
        try:
            bucket, width, height, start_x, start_y, goal_x, goal_y = (
                int(fields[i]) for i in (0, 2, 3, 4, 5, 6, 7)
            )
        except ValueError:
            raise MapFormatError(source, number, "bucket, width, height and the four coordinates must be whole numbers") from None
        try:
            optimal = float(fields[8])
        except ValueError:
            raise MapFormatError(source, number, f"optimal_length must be a number, got {fields[8]!r}") from None
        if not math.isfinite(optimal):
            raise MapFormatError(source, number, f"optimal_length must be finite, got {fields[8]!r}")
        for name, value, limit in (("start_x", start_x, width), ("goal_x", goal_x, width),
                                   ("start_y", start_y, height), ("goal_y", goal_y, height)):
            if not 0 <= value < limit:
                raise MapFormatError(source, number, f"{name} = {value} lies outside the {width} x {height} map")
        scenarios.append(Scenario(bucket, fields[1], width, height, (start_y, start_x), (goal_y, goal_x), optimal))
    return scenarios


def read_scen(path: str | os.PathLike) -> list[Scenario]:
    """Read a MovingAI ``.scen`` file."""
    return parse_scen(_read_text(path, "utf-8", "a text file"), source=str(path))


def format_scen(scenarios: list[Scenario]) -> str:
    return "version 1\n" + "".join(s.to_line() + "\n" for s in scenarios)


def write_scen(scenarios: list[Scenario], path: str | os.PathLike) -> None:
    """Write a ``.scen`` file (atomically)."""
    atomic_write_text(path, format_scen(scenarios))
