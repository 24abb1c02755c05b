"""Hostile: write crafted frames straight into the grader's result pipe (found among the open descriptors).

MODE (set by the test) picks the attack: "hello" (a first message with fields of the wrong types,
sent at import time), "deep" (a header nested 100,000 deep), "bigint" (a 5,000-digit number), "flood"
(a 40 MB reply announced), "many" (hundreds of well-formed 2 MB replies).
"""
import fcntl
import json
import os
import stat
import struct

MODE = "deep"


def _result_pipe() -> int:
    """The write end of a pipe that is not stdout/stderr: the harness's reply channel."""
    for fd in range(3, 64):
        try:
            if stat.S_ISFIFO(os.fstat(fd).st_mode) and fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_ACCMODE == os.O_WRONLY:
                return fd
        except OSError:
            continue
    raise RuntimeError("no reply pipe found")


FD = _result_pipe()


def _frame(header_bytes: bytes, extra: bytes = b"") -> bytes:
    payload = struct.pack(">I", len(header_bytes)) + header_bytes + extra
    return struct.pack(">I", len(payload)) + payload


def _send(data: bytes) -> None:
    while data:
        data = data[os.write(FD, data):]


if MODE == "hello":
    _send(_frame(json.dumps({"kind": "hello", "errors": ["not", "a", "dict"], "names": {"BinaryHeap": 1}}).encode()))


def repeated_forward_astar(world, start, target, tie_break="larger_g"):
    if MODE == "deep":
        _send(_frame(b"[" * 100_000 + b"]" * 100_000))
    elif MODE == "bigint":
        _send(_frame(b'{"kind": "trace", "task": ' + b"9" * 5000 + b"}"))
    elif MODE == "flood":
        _send(struct.pack(">I", 40 * 2**20) + b"\0" * (1 << 20))
    elif MODE == "many":
        for _ in range(300):
            _send(_frame(b'{"kind": "trace", "arrays": [524288]}', b"\0" * (1 << 21)))
    raise RuntimeError("crafted")


repeated_backward_astar = adaptive_astar = repeated_forward_astar
