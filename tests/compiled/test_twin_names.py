"""``compiled/`` mirrors the readable tree as its package docstring says: file by file, with the readable
names where a twin is called the same way and a ``_compiled`` name where it is not.

Referee: the lists below, copied from the docstring of ``reference/solutions/compiled/__init__.py`` (and
docs/contract.md section 16), against the names the source files define. The files are parsed, not
imported, so this costs no Numba start.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SOLUTIONS = Path(__file__).resolve().parents[2] / "reference" / "solutions"
COMPILED = SOLUTIONS / "compiled"

# the twins' own modules, with no readable namesake
OWN = {"buckets.py"}

# (twin file, readable file, names both define): the twins called as the readable code is called
SAME_NAMES = [
    ("shortest_paths.py", "shortest_paths.py", ["astar"]),
    ("haa/abstraction.py", "haa/abstraction.py", ["build_abstraction"]),
    ("haa/query.py", "haa/query.py", ["annotated_astar", "haa_star"]),
    ("realtime/__init__.py", "realtime/__init__.py",
     ["lrta_star", "lrta_star_lookahead", "lrta_star_bfs", "dstar_lite", "ALGORITHMS", "RealtimeRun"]),
    ("subgoaling/__init__.py", "subgoaling/__init__.py",
     ["astar_run", "lrta_star", "lrta_star_subgoaling", "ALGORITHMS", "KnownMapRun"]),
    ("subgoaling/knn_lrta.py", "subgoaling/knn_lrta.py", ["build_knn_database", "knn_lrta_star"]),
    ("subgoaling/d_lrta.py", "subgoaling/d_lrta.py", ["build_d_lrta_database", "d_lrta_star"]),
]

# (twin file, twin name, readable file, readable name): the twins that take or return the twins' arrays
OWN_NAMES = [
    ("dynamic/lrta.py", "general_lrta_compiled", "dynamic/lrta.py", "general_lrta"),
    ("dynamic/pattern_database.py", "build_pattern_database_compiled", "dynamic/pattern_database.py",
     "build_pattern_database"),
    ("dynamic/tree.py", "collect_samples_compiled", "dynamic/tree.py", "collect_samples"),
    ("dynamic/tree.py", "oracle_compiled", "dynamic/tree.py", "oracle"),
    ("replanning.py", "run_compiled", "replanning.py", "repeated_forward_astar"),
    ("heap.py", "heap_push", "heap.py", "BinaryHeap"),
]


def defined_names(path: Path) -> set[str]:
    """The names a module's top level binds: definitions, assignments and imports."""
    names: set[str] = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names.update(target.id for target in node.targets if isinstance(target, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, ast.ImportFrom):
            names.update(alias.asname or alias.name for alias in node.names)
    return names


def test_every_twin_module_is_named_after_a_readable_module():
    twins = sorted(path.relative_to(COMPILED) for path in COMPILED.rglob("*.py"))
    assert len(twins) >= 15   # the tree is there
    orphans = [str(twin) for twin in twins if twin.name not in OWN and not (SOLUTIONS / twin).is_file()]
    assert orphans == [], "a compiled module without a readable namesake (or add it to OWN and the docstring)"


@pytest.mark.parametrize("twin, readable, names", SAME_NAMES)
def test_the_drop_in_twins_have_the_readable_names(twin, readable, names):
    missing_in_twin = [name for name in names if name not in defined_names(COMPILED / twin)]
    missing_in_readable = [name for name in names if name not in defined_names(SOLUTIONS / readable)]
    assert (missing_in_twin, missing_in_readable) == ([], [])


@pytest.mark.parametrize("twin, twin_name, readable, readable_name", OWN_NAMES)
def test_the_twins_on_arrays_have_their_own_names(twin, twin_name, readable, readable_name):
    assert twin_name in defined_names(COMPILED / twin)
    assert readable_name in defined_names(SOLUTIONS / readable)
    assert readable_name not in defined_names(COMPILED / twin)
