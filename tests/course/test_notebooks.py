"""Every notebook in notebooks/ runs top to bottom in a fresh python3 kernel, without errors.

The notebooks are executed two at a time (the kit's machines have two cores), each in its own
process with its own kernel; each test then reports one notebook. Committed notebooks carry no
outputs (see notebooks/README.md), so a second check keeps them cleared.
"""

from __future__ import annotations

import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import nbformat
import pytest

NOTEBOOKS_DIR = Path(__file__).resolve().parents[2] / "notebooks"
NOTEBOOKS = sorted(NOTEBOOKS_DIR.glob("*.ipynb"))
CELL_TIMEOUT = 300  # seconds; generous because CI machines are shared


def execute(path: Path) -> tuple[str | None, float]:
    """Run the notebook at ``path`` in a new kernel; return (the error, or None) and the seconds taken."""
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    notebook = nbformat.read(path, as_version=4)
    client = NotebookClient(notebook, timeout=CELL_TIMEOUT, kernel_name="python3",
                            resources={"metadata": {"path": str(path.parent)}})
    started = time.perf_counter()
    try:
        client.execute()
    except CellExecutionError as error:
        return str(error)[-3000:], time.perf_counter() - started
    return None, time.perf_counter() - started


@pytest.fixture(scope="module")
def executed() -> dict[str, tuple[str | None, float]]:
    with ProcessPoolExecutor(max_workers=2) as pool:
        results = pool.map(execute, NOTEBOOKS)
        return {path.name: result for path, result in zip(NOTEBOOKS, results)}


def test_the_notebooks_are_there():
    names = [path.name for path in NOTEBOOKS]
    for number in range(1, 9):
        assert any(name.startswith(f"0{number}_") for name in names), f"no notebook 0{number}_*.ipynb"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[path.stem for path in NOTEBOOKS])
def test_notebook_runs_without_errors(path: Path, executed):
    error, seconds = executed[path.name]
    assert error is None, f"{path.name} failed after {seconds:.0f} s:\n{error}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[path.stem for path in NOTEBOOKS])
def test_notebook_is_committed_cleared_and_ends_with_exercises(path: Path):
    notebook = nbformat.read(path, as_version=4)
    nbformat.validate(notebook)
    for number, cell in enumerate(notebook.cells):
        if cell.cell_type == "code":
            assert not cell.outputs and cell.execution_count is None, (
                f"{path.name}, cell {number}: outputs are not committed (clear them, see notebooks/README.md)")
    last = notebook.cells[-1]
    assert last.cell_type == "markdown" and "Exercises" in last.source, f"{path.name} does not end with exercises"
    for cell in notebook.cells:
        if cell.cell_type == "code":
            for line in cell.source.splitlines():
                if line.lstrip().startswith(("import ", "from ")):
                    assert "._" not in line and " _" not in line.split("import")[0], (
                        f"{path.name} imports a private module: {line.strip()}")
