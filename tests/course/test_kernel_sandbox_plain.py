"""nbgrader's grading kernel as root without bubblewrap (``FTR_SANDBOX=plain``): a real kernel, started
by :class:`kernel_sandbox.SandboxedKernelManager` as nbgrader starts it, looks at what it can reach."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

#: Started in a process of its own (kernel_setup() is found once per process): one kernel, one cell.
SCRIPT = r'''
import asyncio, json, sys
sys.path[:0] = ["course", "."]
from kernel_sandbox import SandboxedKernelManager, kernel_setup

CELL = """
import os, socket, json
try:
    socket.create_connection(("127.0.0.1", 22), timeout=1)
    network = "up"
except OSError as error:
    network = error.errno
print("FACTS " + json.dumps([os.getuid(), sorted(p for p in os.listdir("/proc") if p.isdigit()), network]))
"""


async def main():
    print("SETUP " + json.dumps(kernel_setup()))
    manager = SandboxedKernelManager()
    await manager.start_kernel()
    client = manager.client()
    client.start_channels()
    try:
        await client.wait_for_ready(timeout=120)
        printed = []
        await client.execute_interactive(CELL, timeout=60, output_hook=lambda m: printed.append(m["content"].get("text", "")))
        print("".join(printed))
    finally:
        client.stop_channels()
        await manager.shutdown_kernel(now=True)

asyncio.run(main())
'''


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="a kernel of its own uid needs root")
def test_a_plain_root_kernel_is_alone_in_its_namespaces_as_a_uid_of_its_own() -> None:
    pytest.importorskip("jupyter_client")
    result = subprocess.run([sys.executable, "-c", SCRIPT], cwd=REPO, capture_output=True, text=True, timeout=600,
                            env={**os.environ, "FTR_SANDBOX": "plain"})
    if "SETUP" not in result.stdout and "no Python with ipykernel" in result.stderr:
        pytest.skip("no Python with ipykernel and NumPy for the grading kernel here")
    assert result.returncode == 0, result.stderr[-3000:]
    setup = json.loads(next(line[6:] for line in result.stdout.splitlines() if line.startswith("SETUP ")))
    assert setup[1] is None  # the plain route indeed
    uid, pids, network = json.loads(next(line[6:] for line in result.stdout.splitlines() if line.startswith("FACTS ")))
    assert uid >= 1000 and uid != os.geteuid()
    assert len(pids) <= 3    # its own PID namespace: the kernel (pid 1) and what ipykernel starts, no other process
    assert network == 101    # ENETUNREACH: its own network namespace, no interface up
