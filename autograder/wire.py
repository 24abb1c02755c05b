"""The private channel between the grader and the sandboxed child: framed messages over pipes.

A *frame* is a small JSON header plus any number of int32 arrays, so that a trace with 80,000
expansions travels as 320 kB of raw integers rather than a JSON list of pairs. Cells travel as
indices ``row * width + col`` (the encoding is :func:`reference.world.trace.encode_trace`'s). Both
sides use this module; it imports only the standard library because the sandbox copies it next to
the child (the child cannot import the autograder).

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


#: The most a frame's JSON header may hold, and how deeply it may nest (the grader reads them).
HEADER_LIMIT = 4 << 20   # a heap reply that raises on every operation holds ~1.7 MB of messages
DEPTH_LIMIT = 32
MAX_ARRAYS = 8


def _nesting(text: bytes) -> int:
    """The deepest nesting of JSON brackets in ``text`` (strings with brackets make it an overestimate)."""
    depth = deepest = 0
    for byte in text.translate(None, delete=bytes(b for b in range(256) if b not in b"[]{}")):
        depth += 1 if byte in b"[{" else -1
        deepest = max(deepest, depth)
    return deepest


class FrameReader:
    """Reads frames from an untrusted child as they arrive, without losing a partial frame when a
    poll times out. ``limit`` caps one frame; ``budget`` caps all frames read (both in bytes).

    >>> import os
    >>> reader_fd, writer_fd = os.pipe()
    >>> reader = FrameReader(reader_fd, limit=1000, budget=10_000)
    >>> reader.poll(0.01) is None                      # nothing yet
    True
    >>> write_frame(writer_fd, {"kind": "hello"})
    >>> reader.poll(1.0)[0]["kind"]
    'hello'
    """

    def __init__(self, fd: int, limit: int = DEFAULT_FRAME_LIMIT, budget: int = 1 << 62) -> None:
        self.fd = fd
        self.limit = limit
        self.budget = budget
        self.read_total = 0
        self.buffer = bytearray()
        self._chunks = None
        if os.name == "nt":  # select() takes sockets only on Windows: a thread reads the pipe instead
            import queue
            import threading

            chunks: queue.Queue[bytes] = queue.Queue()

            def pump() -> None:
                """Read the pipe into ``chunks`` until it closes (b"" marks the end)."""
                while True:
                    try:
                        chunk = os.read(fd, 1 << 16)
                    except OSError:
                        chunk = b""
                    chunks.put(chunk)
                    if not chunk:
                        return

            self._chunks = chunks
            threading.Thread(target=pump, daemon=True).start()

    def _read_chunk(self, wanted: int, timeout: float) -> bytes | None:
        """Up to ``wanted`` bytes within ``timeout`` seconds; None if nothing came, b"" at the end."""
        if self._chunks is None:
            ready, _, _ = select.select([self.fd], [], [], timeout)
            return os.read(self.fd, max(1, min(wanted, 1 << 20))) if ready else None
        import queue

        try:
            return self._chunks.get(timeout=timeout)
        except queue.Empty:
            return None

    def _frame_size(self) -> int | None:
        if len(self.buffer) < _LENGTH.size:
            return None
        (size,) = _LENGTH.unpack(self.buffer[:_LENGTH.size])
        if size > self.limit:
            raise FrameError(f"a message of {size:,} bytes is larger than the limit of {self.limit:,} bytes")
        return size

    def poll(self, timeout: float, limit: int | None = None) -> tuple[dict, list[array]] | None:
        """A complete frame if one arrives within ``timeout`` seconds, else None (the partial frame is kept).

        ``limit`` (if given) caps this frame instead of the reader's limit. Raises
        :class:`ChannelClosed` when the child closed the pipe, :class:`FrameError` for a frame that is
        too large or malformed, or when the budget of bytes is spent.
        """
        if limit is not None:
            self.limit = limit
        deadline = time.monotonic() + timeout
        while True:
            size = self._frame_size()
            if size is not None and len(self.buffer) >= _LENGTH.size + size:
                payload = bytes(self.buffer[_LENGTH.size:_LENGTH.size + size])
                del self.buffer[:_LENGTH.size + size]
                return decode_payload(payload)
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None
            wanted = (_LENGTH.size + size - len(self.buffer)) if size is not None else _LENGTH.size
            chunk = self._read_chunk(wanted, remaining)
            if chunk is None:
                return None
            if not chunk:
                raise ChannelClosed("the other side closed the channel")
            self.read_total += len(chunk)
            if self.read_total > self.budget:
                raise FrameError(f"the replies add up to more than the limit of {self.budget:,} bytes")
            self.buffer += chunk


def decode_payload(payload: bytes) -> tuple[dict, list[array]]:
    """Split a frame's payload into its header and arrays, checking that the sizes add up.

    The header is untrusted: at most ``HEADER_LIMIT`` bytes nested at most ``DEPTH_LIMIT`` deep,
    JSON that Python's reader accepts (no 5,000-digit numbers), and an object.
    """
    if len(payload) < 4:
        raise FrameError("a message too short to hold a header")
    (header_size,) = struct.unpack(">I", payload[:4])
    if 4 + header_size > len(payload):
        raise FrameError("a message whose header is longer than the message")
    if header_size > HEADER_LIMIT:
        raise FrameError(f"a message header of {header_size:,} bytes (the limit is {HEADER_LIMIT:,})")
    text = payload[4:4 + header_size]
    if _nesting(text) > DEPTH_LIMIT:
        raise FrameError(f"a message header nested more than {DEPTH_LIMIT} deep")
    try:
        header = json.loads(text.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as error:
        raise FrameError(f"a message whose header is not JSON: {str(error)[:200]}") from None
    if not isinstance(header, dict):
        raise FrameError("a message whose header is not a JSON object")
    lengths = header.get("arrays", [])
    if (not isinstance(lengths, list) or len(lengths) > MAX_ARRAYS
            or not all(type(n) is int and n >= 0 for n in lengths)):
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
