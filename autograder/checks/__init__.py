"""The grader's checks: one module per kind, and the table from a rubric check id to its kind.

Each kind has the same three steps (:class:`~autograder.checks.base.CheckKind`: ``plan``, ``judge``,
``score``); :mod:`autograder.grader` runs them for every check in :data:`CHECKS`, so adding a check
is a module and a row here (and its points and title in :mod:`autograder.rubric`).

* ``heap``: random operation sequences against a model (:mod:`~autograder.checks.heap`);
* ``forward_larger_g``, ``forward_smaller_g``, ``backward``, ``adaptive``: every instance run and
  judged, all or nothing per group (:mod:`~autograder.checks.search`);
* ``heap_from_scratch``: the heap without heapq and its kin (:mod:`~autograder.checks.from_scratch`);
* ``efficiency``: a timed probe, run twice in fresh children (:mod:`~autograder.checks.efficiency`).

The table's order is the order tasks are planned in (task ids, lanes); results come in the
rubric's order.

>>> list(CHECKS)
['heap', 'forward_larger_g', 'forward_smaller_g', 'backward', 'adaptive', 'heap_from_scratch', 'efficiency']
"""

from __future__ import annotations

from . import efficiency, from_scratch, heap, search
from .base import CheckKind

CHECKS: dict[str, CheckKind] = {
    "heap": heap.KIND,
    "forward_larger_g": search.KIND,
    "forward_smaller_g": search.KIND,
    "backward": search.KIND,
    "adaptive": search.KIND,
    "heap_from_scratch": from_scratch.KIND,
    "efficiency": efficiency.KIND,
}
