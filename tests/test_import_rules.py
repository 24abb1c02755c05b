"""Two rules of the kit's layout, read from the source with ``ast`` (nothing is imported):

* **the readable tree never imports the compiled one**: no module of ``reference/solutions/`` outside
  ``compiled/`` imports ``reference.solutions.compiled`` (at the top, inside a function or for type
  checking only). The engine switch lives on the twins' side: a twin hands the readable code its
  compiled pieces (``compiled/haa/abstraction.build_abstraction``) or is called by the experiments.
* **no import cycle among the kit's modules** (``reference`` and ``autograder``): every import counts,
  deferred and type-checking ones too, because a cycle hidden in a function is still two modules that
  cannot be read one before the other.

Referee: the hand-made trees below, whose edges and cycles are worked out in the comments.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PACKAGES = ("reference", "autograder")


def module_name(path: Path, root: Path) -> str:
    """``root/a/b/c.py`` -> ``a.b.c``; ``root/a/b/__init__.py`` -> ``a.b``."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def kit_modules(root: Path, packages: tuple[str, ...]) -> dict[str, Path]:
    return {module_name(path, root): path for package in packages for path in sorted((root / package).rglob("*.py"))}


def imported_modules(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The kit modules ``name`` imports anywhere in its file. ``from X import y`` imports the module
    ``X.y`` when there is one, else ``X``; a relative ``X`` is resolved against ``name``'s package."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[:len(package.split(".")) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            for alias in node.names:
                found.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base)
    return {module for module in found if module in modules}


def import_graph(root: Path, packages: tuple[str, ...]) -> dict[str, set[str]]:
    modules = kit_modules(root, packages)
    return {name: imported_modules(name, path, modules) - {name} for name, path in modules.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def write(root: Path, files: dict[str, str]) -> None:
    for relative, text in files.items():
        (root / relative).parent.mkdir(parents=True, exist_ok=True)
        (root / relative).write_text(text)


def test_the_graph_and_cycles_of_a_small_tree(tmp_path):
    # kit/__init__ imports nothing; kit/a imports kit.b at the top; kit/b imports kit.a inside a
    # function (a cycle a <-> b all the same); kit/c imports kit.sub.d relatively ("from .sub import d"
    # names the module kit.sub.d); kit/sub/d imports kit.c only for type checking (a cycle c <-> sub.d)
    # and "from .. import a" (the module kit.a: an edge, no cycle with d since a does not reach d).
    write(tmp_path, {
        "kit/__init__.py": "",
        "kit/a.py": "import kit.b\n",
        "kit/b.py": "def f():\n    from kit import a\n",
        "kit/c.py": "from .sub import d\n",
        "kit/sub/__init__.py": "",
        "kit/sub/d.py": "from typing import TYPE_CHECKING\nfrom .. import a\nif TYPE_CHECKING:\n    from ..c import f\n",
    })
    graph = import_graph(tmp_path, ("kit",))
    assert graph == {"kit": set(), "kit.a": {"kit.b"}, "kit.b": {"kit.a"}, "kit.c": {"kit.sub.d"},
                     "kit.sub": set(), "kit.sub.d": {"kit.a", "kit.c"}}
    assert cycles(graph) == [["kit.a", "kit.b"], ["kit.c", "kit.sub.d"]]


@cache
def kit_graph() -> dict[str, set[str]]:
    """The kit's import graph, parsed once for both tests."""
    return import_graph(REPO, PACKAGES)


def test_no_readable_module_imports_the_compiled_twins():
    graph = kit_graph()
    compiled = "reference.solutions.compiled"
    readable = [name for name in graph if name.startswith("reference.solutions")
                and not (name == compiled or name.startswith(compiled + "."))]
    assert len(readable) > 30   # the walk found the readable tree
    offenders = {name: sorted(m for m in graph[name] if m == compiled or m.startswith(compiled + "."))
                 for name in readable}
    assert {name: found for name, found in offenders.items() if found} == {}


def test_the_kits_modules_import_one_another_without_a_cycle():
    # On the tree before this test was written it found the four circles of issue 32 (similarity and
    # similarity_page, experiments.dynamic and dynamic_figure8, the kNN/D LRTA* twins and their
    # readable builders, haa.abstraction and haa.dominance) and one more through them.
    graph = kit_graph()
    assert len(graph) > 100 and sum(map(len, graph.values())) > 200   # the whole kit, with its imports
    assert cycles(graph) == []
