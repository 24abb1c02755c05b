"""The record every run returns (SPEC §8), with JSON reading, writing and validation.

>>> trace = Trace("forward", "larger_g", reached=True, trajectory=[(0, 0), (0, 1)],
...               searches=[SearchRecord(start=(0, 0), goal=(0, 1), expanded=[(0, 0)], path=[(0, 0), (0, 1)])])
>>> trace.expansions, trace.moves, len(trace.searches)
(1, 1, 1)
>>> Trace.from_json(trace.to_json()) == trace
True
>>> Trace.from_dict({"algorithm": "forward", "tie_break": "random"})
Traceback (most recent call last):
...
reference.world.trace.TraceFormatError: tie_break: expected one of 'larger_g', 'smaller_g', got 'random'
"""

from __future__ import annotations

import json
import numbers
import os
import re
from array import array
from collections.abc import Iterable, Mapping, Set as AbstractSet
from dataclasses import dataclass, field
from itertools import accumulate
from pathlib import Path
from typing import Any

from .fileio import atomic_write_text
from .grid import Cell

#: The algorithm names a trace may carry, with the names people read (titles, tables).
ALGORITHMS: dict[str, str] = {
    "forward": "Repeated Forward A*",
    "backward": "Repeated Backward A*",
    "adaptive": "Adaptive A*",
    "lrta": "LRTA*",                              # the real-time module: one planning episode a search
    "lrta_astar": "LRTA* with A* lookahead",
    "lrta_bfs": "LRTA* with breadth-first lookahead",
    "dstar_lite": "D* Lite",
    "astar": "A*",                                # known maps: one search, then the walk (subgoaling module)
    "lrta_subgoal": "LRTA* with subgoaling",
    "lrta_subgoal_sub": "LRTA* with subgoaling (first goal Sub(start))",
    "lrta_subgoal_arrival": "LRTA* with subgoaling (next subgoal on arrival)",
    "lrta_subgoal_sub_arrival": "LRTA* with subgoaling (first goal Sub(start), next subgoal on arrival)",
}
TIE_BREAKS: tuple[str, ...] = ("larger_g", "smaller_g")


class TraceFormatError(ValueError):
    """A trace that does not have the SPEC §8 shape; the message names the field."""


@dataclass
class SearchRecord:
    """One ComputePath: its own start and goal, the cells it expanded in order, and the path found
    (agent to target, both ends included; empty when there is none)."""

    start: Cell
    goal: Cell
    expanded: list[Cell] = field(default_factory=list)
    path: list[Cell] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "start": list(self.start),
            "goal": list(self.goal),
            "expanded": [list(c) for c in self.expanded],
            "path": [list(c) for c in self.path],
        }


@dataclass
class Trace:
    """What a run reports: the settings, whether the target was reached, where the agent stood, and
    every search. Counts (expansions, moves) follow from it."""

    algorithm: str
    tie_break: str
    reached: bool
    trajectory: list[Cell]
    searches: list[SearchRecord] = field(default_factory=list)

    @property
    def expansions(self) -> int:
        return sum(len(s.expanded) for s in self.searches)

    @property
    def moves(self) -> int:
        return len(self.trajectory) - 1

    def summary(self) -> dict[str, Any]:
        """The counts a table or ``--jsonl`` line shows."""
        return {"reached": self.reached, "searches": len(self.searches),
                "expansions": self.expansions, "moves": self.moves}

    # -- JSON -------------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {
            "algorithm": self.algorithm,
            "tie_break": self.tie_break,
            "reached": self.reached,
            "trajectory": [list(c) for c in self.trajectory],
            "searches": [s.to_dict() for s in self.searches],
        }

    def to_json(self, indent: int | None = None) -> str:
        return json.dumps(self.to_dict(), indent=indent)

    def save(self, path: str | os.PathLike) -> None:
        """Write the trace as JSON (atomically)."""
        atomic_write_text(path, self.to_json() + "\n")

    @classmethod
    def from_dict(cls, data: Any, height: int | None = None, width: int | None = None) -> Trace:
        """Validate ``data`` and build a :class:`Trace`: see :func:`read_trace` (the kit's one validator)."""
        return read_trace(data, height, width)

    @classmethod
    def from_json(cls, text: str | bytes, height: int | None = None, width: int | None = None) -> Trace:
        """A trace from JSON text, bounded before it is parsed (:func:`parse_trace_json`) and checked."""
        return cls.from_dict(parse_trace_json(text), height, width)

    @classmethod
    def load(cls, path: str | os.PathLike, height: int | None = None, width: int | None = None) -> Trace:
        """Read a trace from a JSON file and check it (:func:`read_trace`).

        Parameters
        ----------
        path : str or os.PathLike
            The JSON file (:meth:`save` writes one).
        height, width : int, optional
            The grid's size; given both, every cell must lie inside it.

        Returns
        -------
        Trace

        Raises
        ------
        TraceFormatError
            The file is missing or unreadable, over a bound (:func:`parse_trace_json`), not JSON, or
            not a trace; one line that starts with the path.

        Examples
        --------
        >>> import tempfile, pathlib
        >>> path = pathlib.Path(tempfile.mkdtemp()) / "run.json"
        >>> Trace("forward", "larger_g", True, [(0, 0)]).save(path)
        >>> Trace.load(path, height=1, width=1).reached
        True
        """
        path = Path(path)
        try:
            with path.open("rb") as file:
                text = file.read(MAX_TRACE_BYTES + 1)   # never more than the bound, whatever the file is
        except FileNotFoundError:
            raise TraceFormatError(f"{path}: no such file") from None
        except OSError as error:
            raise TraceFormatError(f"{path}: cannot be read ({error.strerror})") from None
        try:
            return cls.from_json(text, height, width)
        except TraceFormatError as error:
            raise TraceFormatError(f"{path}: {error}") from None


#: Bounds on a trace file, checked before it is parsed: a trace file may come from anyone (a student's
#: run given to ``ftr draw --trace`` or the step-through player). A valid trace is 4 levels deep; a
#: cell's coordinates are grid indices. A cell costs about 240 bytes of Python objects by the time
#: the player has built its page (measured: 468 MB for 1.99 million cells), so the cell bound keeps a
#: run near 250 MB (an 80 MB file listing one cell 12 million times held 1.3 GB; the longest real runs,
#: a student's Repeated Backward A* on maze_42, list about 530,000 cells).
MAX_TRACE_BYTES = 32 * 2**20
MAX_TRACE_CELLS = 1_000_000
MAX_TRACE_DEPTH = 8
MAX_INTEGER_DIGITS = 9

_JSON_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.S)


def parse_trace_json(text: str | bytes) -> Any:
    """The JSON value of a trace file, refused in one line (:class:`TraceFormatError`) when it is over
    :data:`MAX_TRACE_BYTES`, nests deeper than :data:`MAX_TRACE_DEPTH`, lists more than
    :data:`MAX_TRACE_CELLS` lists, holds an integer of more than :data:`MAX_INTEGER_DIGITS` digits, or is
    not UTF-8 JSON. The size, depth and count are measured on the raw text before anything is parsed.

    >>> parse_trace_json('{"trajectory": [[0, 1]]}')
    {'trajectory': [[0, 1]]}
    >>> parse_trace_json("[" * 100 + "]" * 100)
    Traceback (most recent call last):
    ...
    reference.world.trace.TraceFormatError: nested 100 levels deep; a trace has at most 8
    """
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else bytes(text)
    if len(data) > MAX_TRACE_BYTES:
        raise TraceFormatError(f"larger than {MAX_TRACE_BYTES // 2**20} MB; a trace the kit can draw or step "
                               "through is smaller (is this a trace file?)")
    structure = _JSON_STRING.sub(b'""', data)       # brackets inside strings are not structure
    lists = structure.count(b"[")
    if lists > MAX_TRACE_CELLS:
        raise TraceFormatError(f"lists {lists:,} cells or more; the kit reads traces of at most {MAX_TRACE_CELLS:,}")
    depth = _deepest_nesting(structure)
    if depth > MAX_TRACE_DEPTH:
        raise TraceFormatError(f"nested {depth} levels deep; a trace has at most {MAX_TRACE_DEPTH}")
    try:
        return json.loads(data.decode("utf-8"), parse_int=_small_integer)
    except UnicodeDecodeError as error:
        raise TraceFormatError(f"not UTF-8 text (byte {error.start})") from None
    except json.JSONDecodeError as error:
        raise TraceFormatError(f"not valid JSON: {error}") from None


def _deepest_nesting(structure: bytes) -> int:
    """How deep the brackets of ``structure`` (JSON without its strings) nest: +1 at each opening,
    -1 at each closing, the running sum's maximum. NumPy finds the brackets (a C-speed pass over a
    32 MB file) and sums only them."""
    import numpy as np

    text = np.frombuffer(structure, dtype=np.uint8)
    opening = (text == ord("[")) | (text == ord("{"))
    closing = (text == ord("]")) | (text == ord("}"))
    steps = opening.astype(np.int8)[opening | closing] - closing.astype(np.int8)[opening | closing]
    return int(np.cumsum(steps, dtype=np.int64).max()) if steps.size else 0


def _small_integer(digits: str) -> int:
    """``json.loads``'s integer parser for traces: a cell coordinate has at most MAX_INTEGER_DIGITS digits."""
    if len(digits.lstrip("-")) > MAX_INTEGER_DIGITS:
        raise TraceFormatError(f"an integer of {len(digits.lstrip('-')):,} digits; a cell's row and column "
                               f"have at most {MAX_INTEGER_DIGITS}")
    return int(digits)


def read_trace(data: Any, height: int | None = None, width: int | None = None) -> Trace:
    """The kit's one trace validator: check ``data`` against SPEC §8 and return it as a :class:`Trace`.

    ``data`` may be a :class:`Trace`, a plain dict of the SPEC §8 shape (JSON), or any object with
    the same fields as attributes (a student's own record classes); cell lists may be lists, tuples,
    deques or NumPy arrays, in order (a set has none). With ``height`` and ``width``, every cell must
    also lie inside the grid. Raises :class:`TraceFormatError` naming the first field that is wrong.
    The autograder reads every returned trace with the same rules and messages: :func:`encode_trace`
    in the sandboxed child, :func:`check_encoded_trace` in the grader.

    Parameters
    ----------
    data : Trace, dict or object
        The would-be trace: ``algorithm``, ``tie_break``, ``reached``, ``trajectory`` and ``searches``
        (each with ``start``, ``goal``, ``expanded``, ``path``), as keys or attributes.
    height, width : int, optional
        The grid's size; given both, every cell must lie inside it.

    Returns
    -------
    Trace
        The same run with every cell a ``(row, col)`` tuple of ints.

    Raises
    ------
    TraceFormatError
        The first field that is missing or wrong, named by its path (``searches[2].path[5]: ...``).

    See Also
    --------
    Trace.load : a trace read from a JSON file with these rules.
    encode_trace, check_encoded_trace : the autograder's halves of the same rules.

    Examples
    --------
    >>> read_trace({"algorithm": "forward", "tie_break": "larger_g", "reached": True,
    ...             "trajectory": [[0, 0], [0, 1]], "searches": []}).trajectory
    [(0, 0), (0, 1)]
    >>> read_trace({"algorithm": "forward", "tie_break": "larger_g", "reached": True,
    ...             "trajectory": [[0, 0], [0, 7]], "searches": []}, height=2, width=5)
    Traceback (most recent call last):
    ...
    reference.world.trace.TraceFormatError: trajectory[1]: cell [0, 7] lies outside the 2 x 5 grid
    """
    reader = _TraceReader(height, width)
    algorithm, tie_break, reached, trajectory, searches = reader.trace(data)
    records = [SearchRecord(start, goal, _pairs(expanded), _pairs(path)) for start, goal, expanded, path in searches]
    return Trace(algorithm, tie_break, reached, _pairs(trajectory), records)


def _pairs(cells: tuple[list[int], list[int]]) -> list[Cell]:
    return list(zip(*cells)) if cells[0] else []


# -- the autograder's encoding: cells as indices row * width + col in int32 arrays ---------------------

def encode_trace(data: Any, height: int, width: int) -> tuple[dict, list[array]]:
    """Validate ``data`` as :func:`read_trace` does and encode it for the autograder's channel.

    Returns a header ``{algorithm, tie_break, reached, searches}`` (``searches``: how many) and four
    int32 arrays of cells as indices ``row * width + col``: the trajectory; per search ``(start, goal,
    number expanded, path length)``; all expansions, one search after another; all paths likewise
    (the layout of :meth:`reference.world.trace_arrays.TraceArrays.wire_arrays`).

    >>> header, arrays = encode_trace(Trace("forward", "larger_g", True, [(0, 0), (0, 1)],
    ...     [SearchRecord((0, 0), (0, 1), [(0, 0)], [(0, 0), (0, 1)])]), height=1, width=2)
    >>> header["searches"], [list(a) for a in arrays]
    (1, [[0, 1], [0, 1, 1, 2], [0], [0, 1]])
    """
    algorithm, tie_break, reached, trajectory, searches = _TraceReader(height, width).trace(data)

    def indices(cells: tuple[list[int], list[int]]) -> array:
        return array("i", [row * width + col for row, col in zip(*cells)])

    meta, expanded, paths = array("i"), array("i"), array("i")
    for start, goal, cells_expanded, cells_path in searches:
        meta.extend((start[0] * width + start[1], goal[0] * width + goal[1], len(cells_expanded[0]),
                     len(cells_path[0])))
        expanded.extend(indices(cells_expanded))
        paths.extend(indices(cells_path))
    header = {"algorithm": algorithm, "tie_break": tie_break, "reached": reached, "searches": len(searches)}
    return header, [indices(trajectory), meta, expanded, paths]


def check_encoded_trace(header: Mapping, arrays: list[array], height: int, width: int) -> None:
    """The grader's check of an encoded trace from an untrusted child: the fields by :func:`read_trace`'s
    rules and messages (cells named by position), then that the arrays add up.

    Parameters
    ----------
    header : Mapping
        ``{algorithm, tie_break, reached, searches}`` as :func:`encode_trace` makes it (``searches``:
        how many).
    arrays : list of array.array
        The trajectory, the per-search ``(start, goal, number expanded, path length)``, all expansions
        and all paths, as cell indices ``row * width + col`` (:func:`encode_trace`'s layout).
    height, width : int
        The grid's size: every cell must lie inside it.

    Returns
    -------
    None
        The trace is well formed; :func:`decode_trace` may read it.

    Raises
    ------
    TraceFormatError
        The first field that is wrong, with :func:`read_trace`'s message for it, or arrays whose
        lengths do not add up.

    See Also
    --------
    encode_trace : the child's half (validates, then encodes).
    read_trace : the same rules on a decoded trace.

    Examples
    --------
    >>> check_encoded_trace({"algorithm": "forward", "tie_break": "larger_g", "reached": True, "searches": 0},
    ...                     [array("i", [0, 1]), array("i"), array("i"), array("i")], 3, 3)
    >>> check_encoded_trace({"algorithm": "forward", "tie_break": "larger_g", "reached": True, "searches": 0},
    ...                     [array("i", [0, 99]), array("i"), array("i"), array("i")], 3, 3)
    Traceback (most recent call last):
    ...
    reference.world.trace.TraceFormatError: trajectory[1]: cell [33, 0] lies outside the 3 x 3 grid
    """
    if len(arrays) < 4:
        raise TraceFormatError("the reply does not hold the four arrays of a trace")
    trajectory, meta, expanded, paths = arrays[:4]
    reader = _TraceReader(height, width)
    reader.choice(header, "algorithm", ALGORITHMS)
    reader.choice(header, "tie_break", TIE_BREAKS)
    reader.reached(header)
    searches = header.get("searches")
    if type(searches) is not int or searches < 0 or searches * 4 != len(meta):
        raise TraceFormatError("searches: the number of searches does not match the search records")
    if not trajectory:
        raise TraceFormatError(EMPTY_TRAJECTORY)
    reader.indices_inside(trajectory, lambda i: f"trajectory[{i}]")
    reader.indices_inside(meta[0::4], lambda i: f"searches[{i}].start")
    reader.indices_inside(meta[1::4], lambda i: f"searches[{i}].goal")
    for values, name, counts in ((expanded, "expanded", meta[2::4]), (paths, "path", meta[3::4])):
        if (counts and min(counts) < 0) or sum(counts) != len(values):
            raise TraceFormatError(f"searches: the {name} lists' lengths do not add up")
        offsets = list(accumulate(counts))
        reader.indices_inside(values, lambda i, name=name, offsets=offsets: _in_search(i, offsets, name))


def decode_trace(header: Mapping, arrays: list[array], width: int, searches: int | None = None) -> Trace:
    """The :class:`Trace` an encoded trace describes (checked first by :func:`check_encoded_trace`);
    only its first ``searches`` searches where that is given.

    >>> decode_trace(*encode_trace(Trace("forward", "larger_g", True, [(0, 0)], []), 1, 2), width=2)
    Trace(algorithm='forward', tie_break='larger_g', reached=True, trajectory=[(0, 0)], searches=[])
    """
    trajectory, meta, expanded, paths = arrays[:4]

    def cells(values) -> list[Cell]:
        return [divmod(v, width) for v in values]

    records, exp_at, path_at = [], 0, 0
    for i in range(header["searches"] if searches is None else min(searches, header["searches"])):
        start, goal, n_expanded, n_path = meta[4 * i:4 * i + 4]
        records.append(SearchRecord(divmod(start, width), divmod(goal, width),
                                    cells(expanded[exp_at:exp_at + n_expanded]), cells(paths[path_at:path_at + n_path])))
        exp_at += n_expanded
        path_at += n_path
    return Trace(header["algorithm"], header["tie_break"], header["reached"], cells(trajectory), records)


def _in_search(position: int, offsets: list[int], name: str) -> str:
    """``searches[i].name[j]`` for the ``position``-th cell of all searches' lists laid end to end."""
    search = sum(1 for end in offsets if end <= position)  # the searches ending at or before it (only on an error)
    return f"searches[{search}].{name}[{position - (offsets[search - 1] if search else 0)}]"


# -- the rules, each with its one message -------------------------------------------------------------

EMPTY_TRAJECTORY = "trajectory: expected at least the start cell, got an empty list"
_CELL_LISTS = (list, tuple)


class _TraceReader:
    """Checks each field of a would-be trace, naming the path to the first bad one. Cell lists come
    back as two lists ``(rows, cols)`` of ints."""

    def __init__(self, height: int | None, width: int | None) -> None:
        self.height = height
        self.width = width

    def trace(self, data: Any) -> tuple:
        if not isinstance(data, Mapping) and not hasattr(data, "searches"):
            raise TraceFormatError(f"expected a trace object (a dict), got {type(data).__name__}")
        algorithm = self.choice(data, "algorithm", ALGORITHMS)
        tie_break = self.choice(data, "tie_break", TIE_BREAKS)
        reached = self.reached(data)
        trajectory = self.cells(self.get(data, "trajectory", ""), "trajectory")
        if not trajectory[0]:
            raise TraceFormatError(EMPTY_TRAJECTORY)
        raw_searches = self.sequence(self.get(data, "searches", ""), "searches", "a list")
        searches = [self.search(s, f"searches[{i}]") for i, s in enumerate(raw_searches)]
        return algorithm, tie_break, reached, trajectory, searches

    def search(self, data: Any, where: str) -> tuple:
        if not isinstance(data, Mapping) and not hasattr(data, "expanded"):
            raise TraceFormatError(f"{where}: expected a search object (a dict), got {type(data).__name__}")
        return (self.cell(self.get(data, "start", where), f"{where}.start"),
                self.cell(self.get(data, "goal", where), f"{where}.goal"),
                self.cells(self.get(data, "expanded", where), f"{where}.expanded"),
                self.cells(self.get(data, "path", where), f"{where}.path"))

    @staticmethod
    def get(data: Any, key: str, where: str) -> Any:
        """``data[key]`` for a dict, ``data.key`` for any other object."""
        if isinstance(data, Mapping):
            if key not in data:
                raise TraceFormatError(f"{where + '.' if where else ''}{key}: missing")
            return data[key]
        if not hasattr(data, key):
            raise TraceFormatError(f"{where + '.' if where else ''}{key}: missing")
        return getattr(data, key)

    def choice(self, data: Any, key: str, allowed) -> str:
        value = self.get(data, key, "")
        if not isinstance(value, str) or value not in allowed:
            options = ", ".join(repr(a) for a in allowed)
            raise TraceFormatError(f"{key}: expected one of {options}, got {_shown(value)}")
        return value

    def reached(self, data: Any) -> bool:
        reached = self.get(data, "reached", "")
        if type(reached).__name__ not in ("bool", "bool_"):  # NumPy's bool too
            raise TraceFormatError(f"reached: expected true or false, got {_shown(reached)}")
        return bool(reached)

    @staticmethod
    def sequence(data: Any, where: str, what: str) -> list | tuple:
        """A list in order: lists and tuples as they are, NumPy arrays and other ordered iterables as lists."""
        if not isinstance(data, _CELL_LISTS) and hasattr(data, "tolist"):
            data = data.tolist()
        if isinstance(data, _CELL_LISTS):
            return data
        if isinstance(data, (str, bytes, Mapping, AbstractSet)) or not isinstance(data, Iterable):
            raise TraceFormatError(f"{where}: expected {what}, got {type(data).__name__}")
        return list(data)

    def cells(self, data: Any, where: str) -> tuple[list[int], list[int]]:
        data = self.sequence(data, where, "a list of [row, col] cells")
        # Fast path (a run may hold a million cells): every cell a list or tuple of two ints, checked
        # with set(map(...)) in C; anything else goes cell by cell below, which names the first bad one.
        if set(map(type, data)) <= {tuple, list} and set(map(len, data)) <= {2}:
            rows, cols = [cell[0] for cell in data], [cell[1] for cell in data]
            kinds = set(map(type, rows)) | set(map(type, cols))
            if all(issubclass(kind, numbers.Integral) and kind is not bool for kind in kinds):
                if kinds - {int}:  # NumPy's integers
                    rows, cols = [int(v) for v in rows], [int(v) for v in cols]
                self.inside(rows, cols, lambda i: f"{where}[{i}]")
                return rows, cols
        pairs = [self.cell(cell, f"{where}[{i}]") for i, cell in enumerate(data)]
        return [row for row, _ in pairs], [col for _, col in pairs]

    def cell(self, data: Any, where: str) -> Cell:
        if not isinstance(data, _CELL_LISTS) and hasattr(data, "tolist"):
            data = data.tolist()
        if (
            not isinstance(data, _CELL_LISTS) or len(data) != 2
            or not all(isinstance(v, numbers.Integral) and not isinstance(v, bool) for v in data)
        ):
            raise TraceFormatError(f"{where}: expected [row, col] with two integers, got {_shown(data)}")
        row, col = int(data[0]), int(data[1])
        self.inside([row], [col], lambda i: where)
        return (row, col)

    def inside(self, rows: list[int], cols: list[int], name) -> None:
        """With a grid size: every cell inside the grid, else the first one outside, by ``name(position)``."""
        if self.height is None or self.width is None or not rows:
            return
        if min(rows) < 0 or max(rows) >= self.height or min(cols) < 0 or max(cols) >= self.width:
            for position, (row, col) in enumerate(zip(rows, cols)):
                if not (0 <= row < self.height and 0 <= col < self.width):
                    raise TraceFormatError(f"{name(position)}: cell {[row, col]} lies outside the "
                                           f"{self.height} x {self.width} grid")

    def indices_inside(self, values, name) -> None:
        """Encoded cells (``row * width + col``): every one inside the grid, else the first one outside."""
        height, width = self.height, self.width
        if height is None or width is None:  # as in inside(): without a grid size there is nothing to hold
            return
        if values and (min(values) < 0 or max(values) >= height * width):
            self.inside([v // width for v in values], [v % width for v in values], name)


def _shown(value: Any, limit: int = 80) -> str:
    """``repr(value)``, cut to ``limit`` characters (a student's value may be a million cells long)."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."
