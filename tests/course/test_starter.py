"""The starter code: the public API of SPEC §11, importing only the public world modules, scoring 0.

The API is compared with the reference solution's (names, parameters, defaults), so the two cannot
drift apart; the self-check runs the real autograder (its sandbox included) on the untouched starter.
"""

from __future__ import annotations

import ast
import inspect
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
STARTER = REPO / "starter"

HEAP_METHODS = ("push", "pop", "peek", "update", "remove", "__len__", "__contains__")
SEARCHES = ("repeated_forward_astar", "repeated_backward_astar", "adaptive_astar")


@pytest.fixture(scope="module")
def starter_modules():
    """Import starter/heap.py and starter/replanning.py the way a submission folder is imported."""
    sys.path.insert(0, str(STARTER))
    saved = {name: sys.modules.pop(name) for name in ("heap", "replanning") if name in sys.modules}
    try:
        import heap
        import replanning

        yield heap, replanning
    finally:
        sys.path.remove(str(STARTER))
        for name in ("heap", "replanning"):
            sys.modules.pop(name, None)
        sys.modules.update(saved)


def _imports(path: Path) -> set[str]:
    modules = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            modules.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            modules.add(node.module or "")
    return modules


@pytest.mark.parametrize("name", ["heap.py", "replanning.py"])
def test_starter_imports_only_the_public_world(name: str) -> None:
    for module in _imports(STARTER / name):
        top = module.split(".")[0]
        assert module.startswith("reference.world") or top in {"__future__", "typing", "heap"}, module
        assert "solutions" not in module and top != "autograder"


def test_replanning_imports_the_heap_as_a_sibling_module() -> None:
    assert "heap" in _imports(STARTER / "replanning.py")


def test_heap_api_matches_the_reference(starter_modules) -> None:
    from reference.solutions.heap import BinaryHeap as Reference

    heap, _ = starter_modules
    for method in HEAP_METHODS:
        mine, theirs = getattr(heap.BinaryHeap, method), getattr(Reference, method)
        assert list(inspect.signature(mine).parameters) == list(inspect.signature(theirs).parameters), method
        assert inspect.getdoc(mine), f"BinaryHeap.{method} needs a docstring"


def test_search_api_matches_the_reference(starter_modules) -> None:
    import reference.solutions.replanning as reference

    _, replanning = starter_modules
    for name in SEARCHES:
        mine = inspect.signature(getattr(replanning, name))
        theirs = inspect.signature(getattr(reference, name))
        assert [(p.name, p.default) for p in mine.parameters.values()] == \
            [(p.name, p.default) for p in theirs.parameters.values()], name
        assert mine.parameters["tie_break"].default == "larger_g"


def test_every_body_raises_not_implemented_with_a_todo(starter_modules) -> None:
    from reference.world import FogOfWarWorld, Gridworld

    heap, replanning = starter_modules
    with pytest.raises(NotImplementedError, match="TODO"):
        heap.BinaryHeap()
    empty = object.__new__(heap.BinaryHeap)  # reach the other methods without __init__
    calls = {"push": ("a", 1), "pop": (), "peek": (), "update": ("a", 1), "remove": ("a",),
             "__len__": (), "__contains__": ("a",)}
    for method, arguments in calls.items():
        with pytest.raises(NotImplementedError, match="TODO"):
            getattr(empty, method)(*arguments)
    grid = Gridworld.from_strings([".."])
    for name in SEARCHES:
        with pytest.raises(NotImplementedError, match="TODO"):
            getattr(replanning, name)(FogOfWarWorld(grid, (0, 0)), (0, 0), (0, 1))


def test_docstrings_restate_the_rules_a_student_needs() -> None:
    text = (STARTER / "replanning.py").read_text()
    for rule in ("east, south, west,", "(f, -g, stamp)", "(f, g, stamp)", "counter", "h(s) = g(s_goal) - g(s)",
                 "sense(cell)", "trajectory", "expanded"):
        assert rule in text, rule
    heap_text = (STARTER / "heap.py").read_text()
    for rule in ("IndexError", "KeyError", "ValueError", "heapq"):
        assert rule in heap_text, rule


def test_ftr_check_on_the_untouched_starter_scores_zero_with_a_message_per_check() -> None:
    result = subprocess.run([sys.executable, "-m", "reference.cli", "check", str(STARTER)],
                            capture_output=True, text=True, cwd=REPO, timeout=600)
    output = result.stdout
    assert "Traceback (most recent call last)" not in result.stderr
    for check in ("heap", "forward_larger_g", "forward_smaller_g", "backward", "adaptive", "efficiency"):
        line = next(line for line in output.splitlines() if line.split()[1:2] == [check])
        assert "[FAIL]" in line and " 0 / " in line, line
    assert output.count("NotImplementedError: TODO") >= 5  # each check says what is left to write
