"""What a student hands in, made ready for the sandbox: a folder of modules, or a notebook.

* A **folder** laid out like ``starter/``: ``heap.py`` (class ``BinaryHeap``) and ``replanning.py``
  (``repeated_forward_astar``, ``repeated_backward_astar``, ``adaptive_astar``), which imports the
  heap as ``from heap import BinaryHeap``. Other ``.py`` files next to them are copied too (helpers).
  If the folder holds no ``heap.py`` but exactly one ``.ipynb``, that notebook is the submission.
* A **notebook** (``.ipynb``) whose code cells define the same names. Only definitions are kept:
  imports, ``def``, ``class`` and assignments at the top level of each code cell. Cells (or lines)
  that test, print or plot are dropped, so they are harmless; IPython magics (``%``, ``!``) too.

>>> notebook = {"cells": [{"cell_type": "code", "source": "import math\\nclass BinaryHeap: pass\\nprint('hi')"}]}
>>> [s["source"] for s in notebook_statements(notebook)]
['import math', 'class BinaryHeap: pass']
"""

from __future__ import annotations

import ast
import json
import os
from dataclasses import dataclass, field
from pathlib import Path

#: Limits on what is copied into the sandbox.
MAX_FILES = 50
MAX_BYTES = 5 * 2**20

KEPT_STATEMENTS = (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef,
                   ast.Assign, ast.AnnAssign)


class SubmissionError(ValueError):
    """The path is not a submission (no such file, no modules, an unreadable notebook)."""


@dataclass
class Submission:
    """A submission ready for the sandbox: ``files`` to copy, ``sources`` for the source checks."""

    name: str
    kind: str                                   # "folder" or "notebook"
    path: Path
    files: dict[str, bytes] = field(default_factory=dict)
    heap_sources: dict[str, str] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)


def load_submission(path: str | os.PathLike) -> Submission:
    """Read a submission folder or notebook (see the module docstring)."""
    path = Path(path)
    if not path.exists():
        raise SubmissionError(f"{path}: no such file or folder")
    if path.is_file():
        if path.suffix != ".ipynb":
            raise SubmissionError(f"{path}: a submission is a folder (heap.py, replanning.py) or a .ipynb notebook")
        return _load_notebook(path)
    modules = _find_modules(path)
    if modules is None:
        notebooks = sorted(p for p in path.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)
        if len(notebooks) == 1:
            submission = _load_notebook(notebooks[0])
            submission.name = path.name
            return submission
        raise SubmissionError(f"{path}: found neither heap.py / replanning.py nor exactly one .ipynb notebook")
    return _load_folder(path, modules)


def _find_modules(path: Path) -> Path | None:
    """The folder that holds the student's modules: ``path`` itself or the one sub-folder that has them."""
    if (path / "heap.py").exists() or (path / "replanning.py").exists():
        return path
    found = sorted({p.parent for name in ("heap.py", "replanning.py") for p in path.rglob(name)
                    if "__pycache__" not in p.parts})
    return found[0] if len(found) == 1 else None


def _load_folder(path: Path, modules: Path) -> Submission:
    submission = Submission(path.name, "folder", path)
    total = 0
    for file in sorted(modules.rglob("*.py")):
        if "__pycache__" in file.parts or file.is_symlink():
            continue
        data = file.read_bytes()
        total += len(data)
        if len(submission.files) >= MAX_FILES or total > MAX_BYTES:
            submission.warnings.append(f"only the first {len(submission.files)} Python files were used (size limit)")
            break
        submission.files[str(file.relative_to(modules))] = data
    for name in ("heap.py", "replanning.py"):
        if name not in submission.files:
            submission.warnings.append(f"{name} is missing")
    if "heap.py" in submission.files:
        submission.heap_sources["heap.py"] = submission.files["heap.py"].decode("utf-8", "replace")
    return submission


def imports_the_grader(node: ast.stmt) -> bool:
    """An import of the autograder itself (the notebook's test cells make one): the sandbox has no
    autograder, so such a statement is left out rather than reported as a failed import."""
    if isinstance(node, ast.Import):
        return all(alias.name.split(".")[0] == "autograder" for alias in node.names)
    if isinstance(node, ast.ImportFrom):
        return (node.module or "").split(".")[0] == "autograder"
    return False


def notebook_statements(notebook: dict) -> list[dict]:
    """The top-level definitions of every code cell, in order, as ``{"cell": n, "source": text}``."""
    statements = []
    for number, cell in enumerate(notebook.get("cells", []), start=1):
        if cell.get("cell_type") != "code":
            continue
        source = cell.get("source", "")
        source = "".join(source) if isinstance(source, list) else str(source)
        # IPython magics and shell escapes are not Python: blank them (keeping line numbers).
        lines = ["" if line.lstrip().startswith(("%", "!")) else line for line in source.splitlines()]
        text = "\n".join(lines)
        try:
            tree = ast.parse(text)
        except SyntaxError:
            continue  # a broken cell defines nothing; the names it should define will be reported missing
        for node in tree.body:
            if isinstance(node, KEPT_STATEMENTS) and not imports_the_grader(node):
                statements.append({"cell": number, "source": ast.get_source_segment(text, node) or ast.unparse(node)})
    return statements


def _load_notebook(path: Path) -> Submission:
    try:
        notebook = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise SubmissionError(f"{path}: not a readable notebook ({error})") from None
    if not isinstance(notebook, dict):
        raise SubmissionError(f"{path}: not a notebook (expected a JSON object with cells)")
    return from_statements(path.stem, path, notebook_statements(notebook))


def from_statements(name: str, path: Path, statements: list[dict]) -> Submission:
    """A notebook-kind submission from kept statements (also used by :mod:`autograder.notebook`)."""
    submission = Submission(name, "notebook", path)
    submission.files["notebook_statements.json"] = json.dumps(statements).encode()
    heap_cells = {s["cell"] for s in statements if s["source"].lstrip().startswith("class BinaryHeap")}
    submission.heap_sources["notebook"] = "\n".join(s["source"] for s in statements if s["cell"] in heap_cells)
    return submission
