"""Clearance-based pathfinding and Hierarchical Annotated A* (Harabor & Botea 2008; SPEC §14).

Modules, in the paper's order: :mod:`.clearance` (true clearance and brushfire per capability),
:mod:`.query` (Annotated A* and HAA* queries), :mod:`.graph` (the abstract graph as data),
:mod:`.abstraction` (clusters, entrances, transitions, intra-edges), :mod:`.dominance` (strong and weak dominance), :mod:`.multiterrain`
(the seeded multi-terrain Baldur's Gate maps). docs/haa.md says how each rule was read.
"""

from .abstraction import build_abstraction, entrances
from .capabilities import capability_from_text, mask_of
from .clearance import all_clearances, brushfire, traversable, true_clearance
from .graph import Abstraction
from .query import HAAResult, annotated_astar, haa_star

__all__ = [
    "Abstraction", "HAAResult", "all_clearances", "annotated_astar", "brushfire", "build_abstraction",
    "capability_from_text", "entrances", "haa_star", "mask_of", "traversable", "true_clearance",
]
