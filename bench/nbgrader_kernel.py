"""Benchmark: what the sandboxed grading kernel costs against nbgrader's plain one, side by side.

    python bench/nbgrader_kernel.py               # 5 rounds, alternating
    python bench/nbgrader_kernel.py --rounds 10

One round = start a kernel, run one small cell, shut it down, with jupyter_client's
AsyncKernelManager (nbgrader's default) and with course/kernel_sandbox.SandboxedKernelManager
(bubblewrap, a sandbox uid as root, ipc sockets). Printed: the median wall time of each and the ratio.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

KIT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(KIT))
sys.path.insert(0, str(KIT / "course"))

import nbclient  # noqa: E402
import nbformat  # noqa: E402
from jupyter_client.manager import AsyncKernelManager  # noqa: E402
from kernel_sandbox import SandboxedKernelManager, kernel_setup  # noqa: E402


def one_round(manager: type) -> float:
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("sum(range(1000))")])
    began = time.perf_counter()
    nbclient.NotebookClient(notebook, timeout=120, kernel_name="python3", kernel_manager_class=manager).execute()
    assert notebook.cells[0].outputs[0]["data"]["text/plain"] == "499500"
    return time.perf_counter() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    rounds = parser.parse_args().rounds
    python, bwrap = kernel_setup()
    print(f"sandboxed kernel: {python}, {'bubblewrap' if bwrap else 'no bubblewrap'}")
    times: dict[str, list[float]] = {"plain": [], "sandboxed": []}
    for _ in range(rounds):  # alternating, so the machine's load falls on both alike
        times["plain"].append(one_round(AsyncKernelManager))
        times["sandboxed"].append(one_round(SandboxedKernelManager))
    plain, sandboxed = (statistics.median(times[k]) for k in ("plain", "sandboxed"))
    print(f"plain kernel      {plain:6.2f} s (median of {rounds})")
    print(f"sandboxed kernel  {sandboxed:6.2f} s (median of {rounds})")
    print(f"ratio             {sandboxed / plain:6.2f}")


if __name__ == "__main__":
    main()
