"""The private channel between the grader and the sandboxed child: framed messages over pipes.

A *frame* is a small JSON header plus any number of int32 arrays, so that a trace with 80,000
expansions travels as 320 kB of raw integers rather than a JSON list of pairs. Cells travel as
indices ``row * width + col``. Both sides use this module; it imports only the standard library
because the sandbox copies it next to the child (the child cannot import the autograder).

>>> import os
>>> reader, writer = os.pipe()
>>> write_frame(writer, {"kind": "hello"}, [array("i", [3, 1, 4])])
>>> header, arrays = read_frame(reader)
>>> header["kind"], list(arrays[0])
('hello', [3, 1, 4])
"""

from __future__ import annotations

import json
import os
import select
import struct
import time
from array import array

#: Bytes before each frame: the payload length (unsigned, big-endian).
_LENGTH = struct.Struct(">I")
#: A frame larger than this is refused by the reader (the grader's protection against floods).
DEFAULT_FRAME_LIMIT = 64 * 1024 * 1024


class FrameError(Exception):
    """The other side sent something that is not a well-formed frame, or too much of it."""


class ChannelClosed(FrameError):
    """The other side closed the pipe (usually: the child process ended)."""


class ChannelTimeout(FrameError):
    """No complete frame arrived before the deadline."""


def encode_frame(header: dict, arrays: list[array] | tuple = ()) -> bytes:
    """The bytes of one frame: length, header length, JSON header, then each array's raw int32s."""
    header = dict(header, arrays=[len(a) for a in arrays])
    header_bytes = json.dumps(header, separators=(",", ":")).encode("utf-8")
    body = [struct.pack(">I", len(header_bytes)), header_bytes]
    for values in arrays:
        if values.typecode != "i":
            values = array("i", values)
        body.append(values.tobytes())
    payload = b"".join(body)
    return _LENGTH.pack(len(payload)) + payload


def write_frame(fd: int, header: dict, arrays: list[array] | tuple = ()) -> None:
    """Write one frame to the file descriptor ``fd`` (blocking until all of it is written)."""
    data = memoryview(encode_frame(header, arrays))
    while data:
        written = os.write(fd, data)
        data = data[written:]


def _read_exactly(fd: int, count: int, deadline: float | None) -> bytes:
    chunks, missing = [], count
    while missing:
        if deadline is not None:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise ChannelTimeout(f"no complete message within the time limit ({missing} bytes missing)")
            ready, _, _ = select.select([fd], [], [], remaining)
            if not ready:
                continue
        chunk = os.read(fd, min(missing, 1 << 20))
        if not chunk:
            raise ChannelClosed("the other side closed the channel")
        chunks.append(chunk)
        missing -= len(chunk)
    return b"".join(chunks)


def read_frame(fd: int, limit: int = DEFAULT_FRAME_LIMIT, deadline: float | None = None) -> tuple[dict, list[array]]:
    """Read one frame; return its header and arrays.

    ``deadline`` is a ``time.monotonic()`` value. Raises :class:`ChannelTimeout`,
    :class:`ChannelClosed`, or :class:`FrameError` for a frame that is too large or malformed.
    """
    (size,) = _LENGTH.unpack(_read_exactly(fd, _LENGTH.size, deadline))
    if size > limit:
        raise FrameError(f"a message of {size:,} bytes is larger than the limit of {limit:,} bytes")
    payload = _read_exactly(fd, size, deadline)
    return decode_payload(payload)


def decode_payload(payload: bytes) -> tuple[dict, list[array]]:
    """Split a frame's payload into its header and arrays, checking that the sizes add up."""
    if len(payload) < 4:
        raise FrameError("a message too short to hold a header")
    (header_size,) = struct.unpack(">I", payload[:4])
    if 4 + header_size > len(payload):
        raise FrameError("a message whose header is longer than the message")
    try:
        header = json.loads(payload[4:4 + header_size].decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise FrameError(f"a message whose header is not JSON: {error}") from None
    if not isinstance(header, dict):
        raise FrameError("a message whose header is not a JSON object")
    lengths = header.get("arrays", [])
    if not isinstance(lengths, list) or not all(type(n) is int and n >= 0 for n in lengths):
        raise FrameError("a message with malformed array lengths")
    itemsize = array("i").itemsize
    if 4 + header_size + itemsize * sum(lengths) != len(payload):
        raise FrameError("a message whose arrays do not add up to its length")
    arrays, position = [], 4 + header_size
    for count in lengths:
        values = array("i")
        values.frombytes(payload[position:position + itemsize * count])
        arrays.append(values)
        position += itemsize * count
    return header, arrays


# -- traces -----------------------------------------------------------------------------------------

class TraceShapeError(ValueError):
    """A returned trace that does not have the SPEC §8 shape; the message names the field."""


def _field(obj, name: str, where: str):
    """``obj[name]`` for a dict, ``obj.name`` for a Trace-like object."""
    if isinstance(obj, dict):
        if name not in obj:
            raise TraceShapeError(f"{where}{name}: missing")
        return obj[name]
    try:
        return getattr(obj, name)
    except AttributeError:
        raise TraceShapeError(f"{where}{name}: missing (return a Trace or a dict of the SPEC §8 shape)") from None


def cells_to_indices(cells, height: int, width: int, where: str) -> array:
    """``[(r, c), ...]`` -> int32 indices ``r * width + c``, refusing anything that is not a cell inside the grid."""
    try:
        cell_list = list(cells)
        rows = array("i", [cell[0] for cell in cell_list])
        cols = array("i", [cell[1] for cell in cell_list])
        if any(len(cell) != 2 for cell in cell_list):
            raise TypeError("a cell has more or fewer than two numbers")
    except (TypeError, IndexError, KeyError, OverflowError, ValueError) as error:
        raise TraceShapeError(f"{where}: expected a list of [row, col] integer pairs ({error})") from None
    if rows and (min(rows) < 0 or max(rows) >= height or min(cols) < 0 or max(cols) >= width):
        for position, (row, col) in enumerate(zip(rows, cols)):
            if not (0 <= row < height and 0 <= col < width):
                raise TraceShapeError(f"{where}[{position}]: cell ({row}, {col}) lies outside the {height} x {width} grid")
    return array("i", [row * width + col for row, col in zip(rows, cols)])


def encode_trace(trace, height: int, width: int) -> tuple[dict, list[array]]:
    """A Trace (or a dict of the SPEC §8 shape) -> a frame header and five int32 arrays.

    Arrays: the trajectory; per search ``(start, goal, number expanded, path length)``; all
    expansions one search after another; all paths one after another.
    """
    header = {}
    for name in ("algorithm", "tie_break"):
        value = _field(trace, name, "")
        if type(value) is not str:
            raise TraceShapeError(f"{name}: expected a string, got {type(value).__name__}")
        header[name] = value[:40]
    reached = _field(trace, "reached", "")
    if type(reached).__name__ not in ("bool", "bool_"):
        raise TraceShapeError(f"reached: expected True or False, got {type(reached).__name__}")
    header["reached"] = bool(reached)
    trajectory = cells_to_indices(_field(trace, "trajectory", ""), height, width, "trajectory")
    searches = _field(trace, "searches", "")
    if not isinstance(searches, (list, tuple)):
        raise TraceShapeError(f"searches: expected a list, got {type(searches).__name__}")
    meta, expanded, paths = array("i"), array("i"), array("i")
    for number, search in enumerate(searches):
        where = f"searches[{number}]."
        ends = cells_to_indices([_field(search, "start", where), _field(search, "goal", where)], height, width,
                                f"{where}start/goal")
        cells_expanded = cells_to_indices(_field(search, "expanded", where), height, width, where + "expanded")
        cells_path = cells_to_indices(_field(search, "path", where), height, width, where + "path")
        meta.extend((ends[0], ends[1], len(cells_expanded), len(cells_path)))
        expanded.extend(cells_expanded)
        paths.extend(cells_path)
    header["searches"] = len(searches)
    return header, [trajectory, meta, expanded, paths]
