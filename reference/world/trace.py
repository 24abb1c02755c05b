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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

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
    def from_json(cls, text: str, height: int | None = None, width: int | None = None) -> Trace:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise TraceFormatError(f"not valid JSON: {error}") from None
        return cls.from_dict(data, height, width)

    @classmethod
    def load(cls, path: str | os.PathLike, height: int | None = None, width: int | None = None) -> Trace:
        path = Path(path)
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise TraceFormatError(f"{path}: no such file") from None
        try:
            return cls.from_json(text, height, width)
        except TraceFormatError as error:
            raise TraceFormatError(f"{path}: {error}") from None


def read_trace(data: Any, height: int | None = None, width: int | None = None) -> Trace:
    """The kit's one trace validator: check ``data`` against SPEC §8 and return it as a :class:`Trace`.

    ``data`` may be a :class:`Trace`, a plain dict of the SPEC §8 shape (JSON), or any object with
    the same fields as attributes (a student's own record classes). With ``height`` and ``width``,
    every cell must also lie inside the grid. Raises :class:`TraceFormatError` naming the first
    field that is wrong.

    >>> read_trace({"algorithm": "forward", "tie_break": "larger_g", "reached": True,
    ...             "trajectory": [[0, 0], [0, 7]], "searches": []}, height=2, width=5)
    Traceback (most recent call last):
    ...
    reference.world.trace.TraceFormatError: trajectory[1]: cell [0, 7] lies outside the 2 x 5 grid
    """
    return _TraceReader(height, width).trace(data)


class _TraceReader:
    """Checks each field of a would-be trace, naming the path to the first bad one."""

    def __init__(self, height: int | None, width: int | None) -> None:
        self.height = height
        self.width = width

    def trace(self, data: Any) -> Trace:
        if isinstance(data, Trace):
            data = data.to_dict()
        if not isinstance(data, Mapping) and not hasattr(data, "searches"):
            raise TraceFormatError(f"expected a trace object (a dict), got {type(data).__name__}")
        algorithm = self.choice(data, "algorithm", ALGORITHMS)
        tie_break = self.choice(data, "tie_break", TIE_BREAKS)
        reached = self.get(data, "reached", "")
        if type(reached).__name__ not in ("bool", "bool_"):  # NumPy's bool too
            raise TraceFormatError(f"reached: expected true or false, got {reached!r}")
        reached = bool(reached)
        trajectory = self.cells(self.get(data, "trajectory", ""), "trajectory")
        if not trajectory:
            raise TraceFormatError("trajectory: expected at least the start cell, got an empty list")
        raw_searches = self.get(data, "searches", "")
        if not isinstance(raw_searches, (list, tuple)):
            raise TraceFormatError(f"searches: expected a list, got {type(raw_searches).__name__}")
        searches = [self.search(s, f"searches[{i}]") for i, s in enumerate(raw_searches)]
        return Trace(algorithm, tie_break, reached, trajectory, searches)

    def search(self, data: Any, where: str) -> SearchRecord:
        if not isinstance(data, Mapping) and not hasattr(data, "expanded"):
            raise TraceFormatError(f"{where}: expected a search object (a dict), got {type(data).__name__}")
        return SearchRecord(
            start=self.cell(self.get(data, "start", where), f"{where}.start"),
            goal=self.cell(self.get(data, "goal", where), f"{where}.goal"),
            expanded=self.cells(self.get(data, "expanded", where), f"{where}.expanded"),
            path=self.cells(self.get(data, "path", where), f"{where}.path"),
        )

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
            raise TraceFormatError(f"{key}: expected one of {options}, got {value!r}")
        return value

    def cells(self, data: Any, where: str) -> list[Cell]:
        if not isinstance(data, (list, tuple)):
            raise TraceFormatError(f"{where}: expected a list of [row, col] cells, got {type(data).__name__}")
        return [self.cell(c, f"{where}[{i}]") for i, c in enumerate(data)]

    def cell(self, data: Any, where: str) -> Cell:
        if (
            not isinstance(data, (list, tuple)) or len(data) != 2
            or not all(isinstance(v, numbers.Integral) and not isinstance(v, bool) for v in data)
        ):
            raise TraceFormatError(f"{where}: expected [row, col] with two integers, got {data!r}")
        row, col = int(data[0]), int(data[1])
        if self.height is not None and self.width is not None:
            if not (0 <= row < self.height and 0 <= col < self.width):
                raise TraceFormatError(f"{where}: cell {[row, col]} lies outside the {self.height} x {self.width} grid")
        return (row, col)
