"""Hostile, in pairs: two students graded at the same time exchange their code over an abstract unix
socket (no file, so copy detection never sees it).

For its first six seconds each child tries to connect to the abstract address ``\\0ftr-kit-pair``
and, failing that, listens there itself; whoever connects sends this file. It reports how many bytes
it received in its error message (the test reads it). ``exchange`` also runs outside any sandbox,
where the test checks that the attack works.
"""
import os
import socket
import time

BEGAN = time.monotonic()
ADDRESS = "\0ftr-kit-pair"


def exchange(seconds=6.0, began=None):
    mine = open(os.path.abspath(__file__), "rb").read()
    received = b""
    deadline = (began if began is not None else BEGAN) + seconds
    while time.monotonic() < deadline and not received:
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as client:
                client.settimeout(1.0)
                client.connect(ADDRESS)
                client.sendall(mine)
                client.shutdown(socket.SHUT_WR)
                received = b"".join(iter(lambda: client.recv(65536), b""))
                break
        except OSError:
            pass
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as server:
                server.bind(ADDRESS)
                server.listen(1)
                server.settimeout(max(0.1, deadline - time.monotonic()))
                connection, _ = server.accept()
                with connection:
                    connection.settimeout(2.0)
                    received = b"".join(iter(lambda: connection.recv(65536), b""))
                    connection.sendall(mine)
        except OSError:
            time.sleep(0.05)
    return len(received)


def repeated_forward_astar(world, start, target, tie_break="larger_g"):
    raise RuntimeError(f"received over a socket: {exchange()} bytes")


repeated_backward_astar = adaptive_astar = repeated_forward_astar
