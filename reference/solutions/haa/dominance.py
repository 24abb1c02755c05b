"""Edge dominance: what makes the high- and the low-quality HAA* graphs small (docs/haa.md §3).

* **Strong dominance** (paper, Theorem "strong dominance"): ``e_a ≻ e_b`` when both join the same
  nodes, ``c_a ⊆ c_b``, ``cv_a >= cv_b`` and they are equally long. Dropping ``e_b`` loses neither a
  path nor optimality.
* **Weak dominance**, intra-edges (HOG's low-quality rule): a candidate edge is dropped when a kept
  edge between the same nodes is usable by everyone who could use it, *whatever its length*.
* **Weak dominance**, inter-edges (paper, Theorem "weak dominance"): ``e_wx ≿ e_yz`` for two
  transitions between the same two clusters when ``c_wx ⊆ c_yz``, ``cv_wx >= cv_yz`` (clearances cut
  at the largest agent size first) and a *circuit* joins them: ``w``–``y`` and ``x``–``z`` each
  joined by an intra-edge usable by every agent that can use ``e_yz`` (or the same node).

>>> from reference.solutions.haa.graph import Edge
>>> kept = [Edge(0, 1, 0b001, 3, (4, 1), False)]          # ground, size 3, length 4 + √2
>>> intra_edge_dominated(kept, 0b011, 2, (4, 1), "high")  # ground+trees size 2, same length
True
>>> intra_edge_dominated(kept, 0b011, 2, (3, 1), "high")  # shorter: a new optimal edge
False
>>> intra_edge_dominated(kept, 0b011, 2, (3, 1), "low")   # low quality: any usable edge will do
True
"""

from __future__ import annotations

from typing import Sequence

from reference.world.grid import Cost

from .capabilities import is_subset
from .graph import Abstraction, Edge


def covers(mask_a: int, clearance_a: int, mask_b: int, clearance_b: int) -> bool:
    """Whether every agent able to use an edge annotated ``(mask_b, clearance_b)`` can use one
    annotated ``(mask_a, clearance_a)``: ``mask_a ⊆ mask_b`` and ``clearance_a >= clearance_b``."""
    return is_subset(mask_a, mask_b) and clearance_a >= clearance_b


def intra_edge_dominated(kept: Sequence["Edge"], mask: int, size: int, cost: Cost, quality: str) -> bool:
    """Whether a candidate intra-edge ``(mask, size, cost)`` is dominated by an edge already kept
    between the same two nodes: strongly (equal length) for ``"high"``, weakly (any length) for
    ``"low"``. Costs are exact pairs, so "equal length" is an exact comparison."""
    return any(covers(e.mask, e.clearance, mask, size) and (quality == "low" or e.cost == cost) for e in kept)


def weakly_dominated_inter_edges(graph: "Abstraction") -> set[int]:
    """Indices (into ``graph.edges``) of the inter-edges that weak dominance removes.

    Clearances are first cut at the largest agent size (the paper's truncation condition). For each
    pair of inter-edges between the same two clusters, in creation order, the earlier edge is tried
    as the dominant one first, then the later one (HOG's ``findAndMarkDominatedTransition``); the
    dominated edge is marked when the circuit exists. Equal annotations always mark the later edge,
    so marks never form a cycle and every marked edge leads to one that stays.
    """
    cap = graph.max_size
    intra: dict[tuple[int, int], list["Edge"]] = {}
    for edge in graph.edges:
        if not edge.inter:
            intra.setdefault((min(edge.u, edge.v), max(edge.u, edge.v)), []).append(edge)

    def joined(a: int, b: int, mask: int, clearance: int) -> bool:
        """The circuit's side: ``a`` and ``b`` are one node, or an intra-edge usable by every agent
        of ``(mask, clearance)`` joins them."""
        if a == b:
            return True
        return any(covers(e.mask, e.clearance, mask, clearance) for e in intra.get((min(a, b), max(a, b)), []))

    by_border: dict[tuple, list[int]] = {}
    for index, edge in enumerate(graph.edges):
        if edge.inter:
            clusters = (graph.cluster_of(graph.node_cells[edge.u]), graph.cluster_of(graph.node_cells[edge.v]))
            by_border.setdefault(clusters, []).append(index)

    marked: set[int] = set()
    for indices in by_border.values():
        for p, first_index in enumerate(indices):
            for second_index in indices[p + 1:]:
                first, second = graph.edges[first_index], graph.edges[second_index]
                cv_first, cv_second = min(first.clearance, cap), min(second.clearance, cap)
                if covers(first.mask, cv_first, second.mask, cv_second):
                    dominant, dominated, cv = first, second, cv_second
                    dominated_index = second_index
                elif covers(second.mask, cv_second, first.mask, cv_first):
                    dominant, dominated, cv = second, first, cv_first
                    dominated_index = first_index
                else:
                    continue
                # u ends are in the first cluster of the border, v ends in the second.
                if joined(dominant.u, dominated.u, dominated.mask, cv) and joined(dominant.v, dominated.v, dominated.mask, cv):
                    marked.add(dominated_index)
    return marked
