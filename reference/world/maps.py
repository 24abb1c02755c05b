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
``W`` as blocked (:func:`read_map`, a four-connected ground agent's grid). :func:`read_terrain`
keeps every character's terrain (:mod:`reference.world.terrain`: ground, trees, water, out of
bounds) for the game-map modules. Every error names the file, the line and what was expected.
CRLF line endings are accepted.

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
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

import numpy as np

from .fileio import atomic_write_text
from .grid import Cell, Gridworld
from .terrain import CODE_OF_BYTE, GROUND_ONLY, UNKNOWN, grid_for, terrain_to_strings


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


def parse_terrain(text: str, source: str = "<map>") -> np.ndarray:
    """Parse the text of a ``.map`` file into its terrain: a ``uint8`` array of codes from
    :mod:`reference.world.terrain` (ground, trees, water, out of bounds), one per cell."""
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
    terrain = np.empty((height, width), dtype=np.uint8)
    for row, line in enumerate(body):
        line_number = number + row + 1
        if len(line) != width:
            raise MapFormatError(source, line_number, f"expected {width} characters (the header's width), found {len(line)}")
        # One table look-up translates the whole row: a third of the time of a loop over its
        # characters (measured on a 512 x 512 map). Non-ASCII characters become '?' (unknown).
        codes = CODE_OF_BYTE[np.frombuffer(line.encode("ascii", "replace"), dtype=np.uint8)]
        unknown = np.flatnonzero(codes == UNKNOWN)
        if unknown.size:
            col = int(unknown[0])
            raise MapFormatError(
                source, line_number,
                f"unknown character {line[col]!r} in column {col + 1} (expected one of . G S @ O T W)",
            )
        terrain[row] = codes
    return terrain


def parse_map(text: str, source: str = "<map>") -> Gridworld:
    """Parse the text of a ``.map`` file into a :class:`Gridworld` for a four-connected ground agent
    (``.``, ``G``, ``S`` unblocked; ``@``, ``O``, ``T``, ``W`` blocked).

    Parameters
    ----------
    text : str
        The whole file: the four header lines (``type``, ``height``, ``width``, ``map``), then the rows.
    source : str
        The name error messages give the text (a file name).

    Returns
    -------
    Gridworld

    Raises
    ------
    MapFormatError
        A header line, a row's length or a character that is wrong, named with ``source`` and the line.

    See Also
    --------
    read_map : the same from a file.
    parse_terrain : every character's terrain, for the game-map modules.
    format_map : the inverse.

    Examples
    --------
    >>> parse_map("type octile\\nheight 2\\nwidth 2\\nmap\\n.T\\n..\\n").to_strings()
    ['.@', '..']
    """
    return grid_for(parse_terrain(text, source), GROUND_ONLY)


def read_map(path: str | os.PathLike) -> Gridworld:
    """Read a MovingAI ``.map`` file as a ground agent's grid (see :func:`parse_map`).

    Parameters
    ----------
    path : str or os.PathLike
        The ``.map`` file (ASCII).

    Returns
    -------
    Gridworld

    Raises
    ------
    MapFormatError
        The file is missing, is not ASCII text, or does not follow the format (the message names the
        file and the line).

    See Also
    --------
    write_map : the inverse.
    read_terrain : the map's terrain instead of a ground agent's grid.
    read_scen : the scenario lines (start, target, optimal length) that go with a map.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "tiny.map"
    >>> write_map(Gridworld.from_strings([".@", ".."]), path)
    >>> read_map(path).to_strings()
    ['.@', '..']
    """
    return parse_map(_read_text(path, "ascii", "a text map"), source=str(path))


def read_terrain(path: str | os.PathLike) -> np.ndarray:
    """Read a MovingAI ``.map`` file's terrain (see :func:`parse_terrain`)."""
    return parse_terrain(_read_text(path, "ascii", "a text map"), source=str(path))


def format_terrain(terrain: np.ndarray) -> str:
    """The text of a ``.map`` file for a terrain array (``.``, ``T``, ``W``, ``@``)."""
    height, width = terrain.shape
    return f"type octile\nheight {height}\nwidth {width}\nmap\n" + "\n".join(terrain_to_strings(terrain)) + "\n"


def write_terrain(terrain: np.ndarray, path: str | os.PathLike) -> None:
    """Write a terrain array as a ``.map`` file (atomically)."""
    atomic_write_text(path, format_terrain(terrain))


def format_map(grid: Gridworld) -> str:
    """The text of a ``.map`` file for ``grid`` (``.`` unblocked, ``@`` blocked)."""
    header = f"type octile\nheight {grid.height}\nwidth {grid.width}\nmap\n"
    return header + "\n".join(grid.to_strings()) + "\n"


def write_map(grid: Gridworld, path: str | os.PathLike) -> None:
    """Write ``grid`` as a ``.map`` file (atomically: see :func:`~reference.world.fileio.atomic_write_text`).

    Parameters
    ----------
    grid : Gridworld
        Written with ``.`` for unblocked and ``@`` for blocked cells.
    path : str or os.PathLike
        The file to write; missing parent folders are made.

    Raises
    ------
    OSError
        The file cannot be written.

    See Also
    --------
    read_map : the inverse (``read_map(path)`` equals ``grid``).
    format_map : the text alone.
    """
    atomic_write_text(path, format_map(grid))


# -- scenarios --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Scenario:
    """One line of a ``.scen`` file. ``start`` and ``target`` are ``(row, col)`` cells.

    ``optimal_decimals`` is how many digits the file printed after the decimal point of
    ``optimal_length`` (``3.41421`` -> 5), so that a check can compare to one unit in the last
    printed place (SPEC §12); None for a scenario made in code.
    """

    bucket: int
    map: str
    width: int
    height: int
    start: Cell
    target: Cell
    optimal_length: float
    optimal_decimals: int | None = field(default=None, compare=False)

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
    """Parse the text of a ``.scen`` file.

    Parameters
    ----------
    text : str
        The whole file: ``version 1``, then one line per instance (tab- or space-separated).
    source : str
        The name error messages give the text (a file name).

    Returns
    -------
    list of Scenario
        One per non-empty line, in order; cells as ``(row, col)`` (the file writes x, the column, first).

    Raises
    ------
    MapFormatError
        A missing version line, a line without 9 fields, a field that is not a number, or a start or
        goal outside the map the line describes.

    See Also
    --------
    read_scen : the same from a file.
    format_scen : the inverse.

    Examples
    --------
    >>> parse_scen("version 1\\n0\\ttiny.map\\t3\\t2\\t0\\t1\\t2\\t0\\t3\\n")[0].start
    (1, 0)
    """
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
        mantissa = fields[8].lower().partition("e")[0]
        decimals = len(mantissa.partition(".")[2])
        scenarios.append(Scenario(bucket, fields[1], width, height, (start_y, start_x), (goal_y, goal_x), optimal, decimals))
    return scenarios


def read_scen(path: str | os.PathLike) -> list[Scenario]:
    """Read a MovingAI ``.scen`` file (see :func:`parse_scen`).

    Parameters
    ----------
    path : str or os.PathLike
        The ``.scen`` file (UTF-8).

    Returns
    -------
    list of Scenario
        One per instance line, in order.

    Raises
    ------
    MapFormatError
        The file is missing, is not UTF-8 text, or a line does not follow the format.

    See Also
    --------
    write_scen : the inverse.
    map_beside : where the map a line names is.
    read_map : the map itself.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "tiny.map.scen"
    >>> write_scen([Scenario(0, "tiny.map", 3, 2, (1, 0), (0, 2), 3.0)], path)
    >>> read_scen(path)[0].target
    (0, 2)
    """
    return parse_scen(_read_text(path, "utf-8", "a text file"), source=str(path))


def map_beside(scen_path: str | os.PathLike, scenario: Scenario) -> Path:
    """Where the map of a scenario line is: the map's file name looked up in the ``.scen`` file's folder.

    MovingAI scenario lines name their maps by a path in the benchmark's own layout
    (``maps/dao/arena.map``); the kit keeps maps beside their scenario files, so only the last
    part counts.

    >>> map_beside("data/arena.map.scen", Scenario(0, "maps/dao/arena.map", 49, 49, (1, 1), (1, 2), 1.0)).as_posix()
    'data/arena.map'
    """
    return Path(scen_path).parent / PurePosixPath(scenario.map.replace("\\", "/")).name


def read_scen_terrains(scen_path: str | os.PathLike, scenarios: list[Scenario] | None = None) -> dict[str, np.ndarray]:
    """The terrain of every map the scenario lines name (each read once, beside the ``.scen`` file),
    keyed by the name the lines use; a map whose size differs from the lines' is a :class:`MapFormatError`."""
    scenarios = read_scen(scen_path) if scenarios is None else scenarios
    terrains: dict[str, np.ndarray] = {}
    for number, scenario in enumerate(scenarios):
        if scenario.map not in terrains:
            terrains[scenario.map] = read_terrain(map_beside(scen_path, scenario))
        height, width = terrains[scenario.map].shape
        if (scenario.width, scenario.height) != (width, height):
            raise MapFormatError(
                str(scen_path), None,
                f"scenario {number} says {scenario.map} is {scenario.width} x {scenario.height} (width x height), "
                f"the map is {width} x {height}",
            )
    return terrains


def format_scen(scenarios: list[Scenario]) -> str:
    """The text of a ``.scen`` file holding ``scenarios``: the version line, then one line each."""
    return "version 1\n" + "".join(s.to_line() + "\n" for s in scenarios)


def write_scen(scenarios: list[Scenario], path: str | os.PathLike) -> None:
    """Write a ``.scen`` file (atomically: see :func:`~reference.world.fileio.atomic_write_text`).

    Parameters
    ----------
    scenarios : list of Scenario
        One line each, in order.
    path : str or os.PathLike
        The file to write; missing parent folders are made.

    Raises
    ------
    OSError
        The file cannot be written.

    See Also
    --------
    read_scen : the inverse.
    """
    atomic_write_text(path, format_scen(scenarios))
