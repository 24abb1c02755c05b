"""What a student hands in, made ready for the sandbox: a folder of modules, or a notebook.

* A **folder** laid out like ``starter/``: ``heap.py`` (class ``BinaryHeap``) and ``replanning.py``
  (``repeated_forward_astar``, ``repeated_backward_astar``, ``adaptive_astar``), which imports the
  heap as ``from heap import BinaryHeap``. Other ``.py`` files next to them are copied too (helpers).
  If the folder holds no ``heap.py`` but exactly one ``.ipynb``, that notebook is the submission.
* A **notebook** (``.ipynb``) whose code cells define the same names. Only definitions are kept:
  every top-level ``def`` and ``class``, and the imports and assignments (also inside ``try``/``if``
  blocks of definitions) that they use. Statements that test, print, plot or run experiments are
  dropped, so scratch cells are harmless; IPython magics (``%``, ``!``) too.

>>> notebook = {"cells": [{"cell_type": "code", "source": "import math\\nclass BinaryHeap: pass\\nprint('hi')"},
...                       {"cell_type": "code", "source": "INF = math.inf\\nscratch = BinaryHeap()"}]}
>>> [(s["cell"], s["source"]) for s in notebook_statements(notebook)]
[('code cell 1', 'class BinaryHeap: pass')]
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
    all_sources: dict[str, str] = field(default_factory=dict)   # every module, or every kept cell: for the source check
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
    submission.all_sources = {name: data.decode("utf-8", "replace") for name, data in submission.files.items()}
    return submission


def imports_the_grader(node: ast.stmt) -> bool:
    """An import of the autograder itself (the notebook's test cells make one): the sandbox has no
    autograder, so such a statement is left out rather than reported as a failed import."""
    if isinstance(node, ast.Import):
        return all(alias.name.split(".")[0] == "autograder" for alias in node.names)
    if isinstance(node, ast.ImportFrom):
        return (node.module or "").split(".")[0] == "autograder"
    return False


#: The names a submission must define (notebook statements binding them are always kept).
REQUIRED_NAMES = ("BinaryHeap", "repeated_forward_astar", "repeated_backward_astar", "adaptive_astar")


def _defines_only(node: ast.stmt) -> bool:
    """A statement that only defines things: an import, def, class, assignment, ``pass``, a docstring,
    or a ``try``/``if`` block made of such statements (``try: import numba except ImportError: ...``)."""
    if isinstance(node, KEPT_STATEMENTS + (ast.Pass,)):
        return True
    if isinstance(node, ast.Expr):
        return isinstance(node.value, ast.Constant)
    if isinstance(node, (ast.Try, getattr(ast, "TryStar", ast.Try), ast.If)):
        blocks = node.body + node.orelse + getattr(node, "finalbody", [])
        blocks += [statement for handler in getattr(node, "handlers", []) for statement in handler.body]
        return all(_defines_only(statement) for statement in blocks)
    return False


def _bound_names(node: ast.AST) -> set[str]:
    """The top-level names a kept statement binds (``*`` for a star import: unknown names)."""
    names: set[str] = set()
    for child in ast.walk(node):
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(child.name)
        elif isinstance(child, (ast.Import, ast.ImportFrom)):
            names.update("*" if alias.name == "*" else (alias.asname or alias.name.split(".")[0])
                         for alias in child.names)
        elif isinstance(child, ast.Name) and isinstance(child.ctx, ast.Store):
            names.add(child.id)
    return names


def _used_names(node: ast.AST) -> set[str]:
    return {child.id for child in ast.walk(node) if isinstance(child, ast.Name) and isinstance(child.ctx, ast.Load)}


def _needed(nodes: list[ast.stmt]) -> list[bool]:
    """Which definitions the submission needs: every ``def`` and ``class`` (defining runs nothing), and
    the imports and assignments that they, or the required names, use, followed through assignments
    that use others. A scratch cell's ``trace = repeated_forward_astar(...)`` or ``import matplotlib``
    that no definition uses is left out, so it neither runs in the grader nor breaks anything."""
    always = [isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) or "*" in _bound_names(node)
              for node in nodes]
    wanted = set(REQUIRED_NAMES)
    for node, keep in zip(nodes, always):
        if keep:
            wanted |= _used_names(node)
    kept = list(always)
    changed = True
    while changed:
        changed = False
        for index, node in enumerate(nodes):
            if not kept[index] and _bound_names(node) & wanted:
                kept[index] = changed = True
                wanted |= _used_names(node)
    return kept


def notebook_statements(notebook: dict) -> list[dict]:
    """The definitions of every code cell, in order, as ``{"cell": label, "source": text}``.

    A cell's label is what the student sees: ``In [5]`` when the notebook was saved after running
    it, else ``code cell 3`` (counting code cells only). See :func:`_needed` for what is kept.
    """
    found: list[tuple[str, str, ast.stmt]] = []
    code_cells = 0
    for cell in notebook.get("cells", []):
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        code_cells += 1
        count = cell.get("execution_count")
        label = f"In [{count}]" if type(count) is int else f"code cell {code_cells}"
        source = cell.get("source", "")
        source = "".join(str(line) for line in source) if isinstance(source, list) else str(source)
        # IPython magics and shell escapes are not Python: blank them (keeping line numbers).
        lines = ["" if line.lstrip().startswith(("%", "!")) else line for line in source.splitlines()]
        text = "\n".join(lines)
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue  # a broken cell defines nothing; the names it should define will be reported missing
        for node in tree.body:
            if _defines_only(node) and not imports_the_grader(node):
                found.append((label, ast.get_source_segment(text, node) or ast.unparse(node), node))
    kept = _needed([node for _, _, node in found])
    return [{"cell": label, "source": source} for (label, source, _), keep in zip(found, kept) if keep]


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
    for statement in statements:
        label = str(statement["cell"])
        submission.all_sources[label] = submission.all_sources.get(label, "") + statement["source"] + "\n"
    return submission
