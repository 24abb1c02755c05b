"""The grader's checks: one module per kind, and the table from a rubric check id to its kind.

Each kind has the same three steps (:class:`~autograder.checks.base.CheckKind`: ``plan``, ``judge``,
``score``); :mod:`autograder.grader` runs them for every check in :data:`CHECKS`, so adding a check
is a module and a row here (and its points in the rubric).

=====================  =====================================  ================================
check id               kind                                   what it asks
=====================  =====================================  ================================
``heap``               :mod:`~autograder.checks.heap`         random op sequences vs a model
``forward_larger_g``,  :mod:`~autograder.checks.search`       every instance run and judged,
``forward_smaller_g``,                                        all or nothing per group
``backward``,
``adaptive``
``heap_from_scratch``  :mod:`~autograder.checks.from_scratch` the heap without heapq and kin
``efficiency``         :mod:`~autograder.checks.efficiency`   a timed probe, twice, fresh
=====================  =====================================  ================================

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
