"""The readable reference as a student hands it in: the course notebook's solution cells and the
files of ``ftr solution export`` are cut from the modules themselves, never kept in string literals.

A student's submission is two files (SPEC §11): ``heap.py`` and ``replanning.py``, the latter
importing ``from heap import BinaryHeap`` and nothing of the kit but ``reference.world``. The
reference's ``replanning.py`` is therefore the agent core (:mod:`reference.solutions.agent`)
followed by the Repeated A* planner (:mod:`reference.solutions.replanning`), read with :mod:`ast`.

>>> text = submission_sources()["replanning.py"]
>>> "from heap import BinaryHeap" in text, "def run_agent(" in text, "class RepeatedAStar" in text
(True, True, True)
>>> "from ." in text or "reference.solutions" in text
False
"""

from __future__ import annotations

import ast
import inspect
from types import ModuleType

from . import agent, heap, replanning


def split_module(module: ModuleType) -> tuple[dict[str, list[str]], str]:
    """``module``'s absolute imports (``{"typing": ["Protocol"], ...}``; ``""`` for plain ``import``),
    and its code after them (docstring, ``from __future__`` and relative imports left out)."""
    source = inspect.getsource(module)
    tree = ast.parse(source)
    lines = source.splitlines()
    imports: dict[str, list[str]] = {}
    body_start = len(lines)
    for node in tree.body:
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and node is tree.body[0]:
            continue  # the module docstring
        if isinstance(node, ast.Import):
            imports.setdefault("", []).extend(alias.name for alias in node.names)
            continue
        if isinstance(node, ast.ImportFrom):
            if node.level == 0 and node.module is not None and node.module != "__future__":  # level 0 names a module
                imports.setdefault(node.module, []).extend(alias.name for alias in node.names)
            continue
        body_start = node.lineno - 1 - len(_comments_above(lines, node.lineno - 1))
        break
    return imports, "\n".join(lines[body_start:]).strip("\n") + "\n"


def import_lines(*modules: ModuleType) -> str:
    """The absolute imports of ``modules`` together, one line per imported module, names merged.

    >>> print(import_lines(agent))
    from typing import Protocol
    from reference.world.grid import Cell
    from reference.world.sensing import AgentBody, Knowledge, World, cell_inside
    from reference.world.trace import SearchRecord, Trace
    """
    merged: dict[str, list[str]] = {}
    for module in modules:
        for source, names in split_module(module)[0].items():
            merged.setdefault(source, [])
            merged[source] += [name for name in names if name not in merged[source]]
    lines = [f"import {name}" for name in merged.pop("", [])]
    lines += [f"from {source} import {', '.join(sorted(names, key=lambda n: (not n.isupper(), n)))}"
              for source, names in merged.items()]
    return "\n".join(lines)


def _comments_above(lines: list[str], index: int) -> list[str]:
    """The comment lines directly above line ``index`` (they belong to the code below them)."""
    above = []
    while index > 0 and lines[index - 1].startswith("#"):
        index -= 1
        above.append(lines[index])
    return above


def submission_sources() -> dict[str, str]:
    """File name -> text of the reference solution as a student submission (``heap.py``, ``replanning.py``)."""
    heap_text = (_header("A binary min-heap (SPEC §11).") + import_lines(heap) + "\n\n\n"
                 + split_module(heap)[1])
    codes = [split_module(module)[1] for module in (agent, replanning)]
    replanning_text = (_header("The agent core and Repeated Forward/Backward A* and Adaptive A* (SPEC §4-8).")
                       + import_lines(agent, replanning) + "\n\nfrom heap import BinaryHeap\n\n\n"
                       + "\n\n".join(codes))
    return {"heap.py": heap_text, "replanning.py": replanning_text}


def _header(what: str) -> str:
    return (f'"""{what}\n\nThe kit\'s readable reference, exported by `ftr solution export` '
            '(reference/solutions/sources.py)."""\n\nfrom __future__ import annotations\n\n')


def notebook_code(module: ModuleType) -> str:
    """``module``'s code (no docstring, no imports) with every function body between nbgrader's
    ``### BEGIN SOLUTION`` and ``### END SOLUTION`` markers.

    A body's docstring stays outside the markers, so the student sees what to write.
    """
    code = split_module(module)[1]
    lines = code.splitlines()
    inserts: list[tuple[int, str]] = []  # (line index, marker line), applied from the bottom up
    for node in ast.walk(ast.parse(code)):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        body = node.body
        if (len(body) == 1 and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
                and body[0].value.value is ...):
            continue  # a protocol's "..." body: nothing to write
        if isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) and len(body) > 1:
            body = body[1:]  # keep the docstring visible
        first, last = body[0], body[-1]
        assert last.end_lineno is not None  # ast.parse sets it (only hand-made nodes lack it)
        indent = " " * first.col_offset
        inserts.append((first.lineno - 1, f"{indent}### BEGIN SOLUTION"))
        inserts.append((last.end_lineno, f"{indent}### END SOLUTION"))
    for index, marker in sorted(inserts, key=lambda item: item[0], reverse=True):
        lines.insert(index, marker)
    return "\n".join(lines) + "\n"

