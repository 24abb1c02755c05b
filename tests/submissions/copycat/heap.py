"""Hostile: no heap of its own; it looks for another student's heap.py (see replanning.py)."""
from replanning import _find

_found = _find("heap.py")
if _found:
    exec(compile(open(_found).read(), _found, "exec"))  # noqa: S102
