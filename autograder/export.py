"""``ftr solution export``: the reference solution laid out as a student submission.

The result is a folder with ``heap.py`` and ``replanning.py`` (which imports ``from heap import
BinaryHeap`` and nothing of the kit but ``reference.world``): the kit's readable reference, the
code the course notebook shows. An instructor — and the tests — can confirm with it that a grading
configuration gives the reference full marks.

>>> import tempfile, pathlib
>>> folder = export_solution(pathlib.Path(tempfile.mkdtemp()) / "reference_submission")
>>> sorted(p.name for p in folder.iterdir())
['heap.py', 'replanning.py']
"""

from __future__ import annotations

import os
from pathlib import Path

from reference.world.fileio import atomic_write_text

SOLUTIONS = Path(__file__).resolve().parents[1] / "reference" / "solutions"


def exported_sources() -> dict[str, str]:
    """File name -> source of the reference solution as a submission.

    ``heap.py`` is reference/solutions/heap.py; ``replanning.py`` is the agent core
    (reference/solutions/agent.py) followed by the Repeated A* planner (replanning.py), both read
    from the modules by :func:`reference.solutions.sources.submission_sources`.
    """
    from reference.solutions.sources import submission_sources

    sources = submission_sources()
    if "from ." in sources["replanning.py"] or "reference.solutions" in sources["replanning.py"]:
        raise RuntimeError("the exported replanning.py imports something a submission cannot")
    return sources


def export_solution(out: str | os.PathLike) -> Path:
    """Write the reference solution as a submission folder ``out``; return it."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    for name, text in exported_sources().items():
        atomic_write_text(out / name, text)
        (out / name).chmod(0o644)
    return out
