"""The annotated cluster abstraction of HAA* (Harabor & Botea 2008; SPEC §14; docs/haa.md §3).

Three steps, in the paper's order:

1. **Clusters and entrances.** The map is cut into ``C × C`` clusters. Along each border between
   two neighbouring clusters, and for each capability, :func:`entrances` splits the adjacent cell
   pairs into entrances; each entrance gives one transition (its pair of largest clearance, the
   first one), i.e. two abstract nodes and an inter-edge of length 1 annotated
   ``(capability, clearance)``.
2. **Intra-edges.** Between every two abstract nodes of a cluster, for every capability ``c`` and
   size ``s`` (largest first), the optimal length inside the cluster for an agent ``(s, c)``; a
   candidate edge annotated ``(c, s)`` is kept unless a kept edge dominates it: *strong* dominance
   (same length, usable by every agent that could use the candidate) for the high-quality graph,
   *weak* dominance (any length) for the low-quality one (:mod:`.dominance`).
3. **Weak dominance on inter-edges** (low quality only): :func:`.dominance.weakly_dominated_inter_edges`,
   then the endpoints left without an inter-edge go, with their intra-edges.

An edge annotated ``(mask, clearance)`` is usable by an agent ``(k, capability)`` iff ``mask`` is a
subset of the capability and ``clearance >= k``.

>>> from reference.world.terrain import terrain_from_strings
>>> terrain = terrain_from_strings(["....", "....", "..@.", "...."])
>>> graph = build_abstraction(terrain, cluster_size=2, max_size=2)
>>> len(graph.node_cells), graph.edge_count() > 0
(8, True)
"""

from __future__ import annotations

import math
from typing import Callable, Iterator, Sequence

import numpy as np

from reference.solutions.shortest_paths import dijkstra
from reference.world.grid import Cell, Cost

from .capabilities import CAPABILITY_MASKS, capability_of, is_subset
from .clearance import all_clearances
from .dominance import intra_edge_dominated, weakly_dominated_inter_edges
from .graph import Abstraction, Edge

QUALITIES = ("high", "low")

#: The paper's cluster sizes are 10, 15 and 20; its search-effort figure favours 10 and 15.
DEFAULT_CLUSTER_SIZE = 10
#: SPEC §14: agents of sizes 1-3.
DEFAULT_MAX_SIZE = 3


def entrances(pair_clearance: Sequence[int]) -> list[tuple[int, int]]:
    """Split a border into entrances: ``(first, last)`` index ranges (docs/haa.md §3).

    An entrance starts at a pair of clearance > 0 and grows while the next pair's clearance is > 0
    and not larger (the paper's three stopping rules: end of the border, an obstacle, clearance
    starting to increase). Clearances never increase inside an entrance, so its first pair has the
    largest clearance and is its transition.

    >>> entrances([0, 2, 2, 1, 3, 3, 0, 1])
    [(1, 3), (4, 5), (7, 7)]
    """
    result = []
    i, n = 0, len(pair_clearance)
    while i < n:
        if pair_clearance[i] == 0:
            i += 1
            continue
        last = i
        while last + 1 < n and 0 < pair_clearance[last + 1] <= pair_clearance[last]:
            last += 1
        result.append((i, last))
        i = last + 1
    return result


# -- building ---------------------------------------------------------------------------------

#: One cluster's intra-edges: ``(i, j, mask, size, cost)`` between its ``i``-th and ``j``-th node, in
#: the order they are kept. Arguments: ``{mask: the cluster's clearance window}``, the nodes' cells
#: inside the window, the largest agent size, the quality.
IntraEdges = list[tuple[int, int, int, int, Cost]]
#: Step 2 for one cluster: :func:`cluster_intra_edges`, or its compiled twin.
IntraEdgesOf = Callable[[dict[int, np.ndarray], list[Cell], int, str], IntraEdges]


def pair_costs_readable(open_window: np.ndarray, cells: list[Cell]) -> dict[tuple[int, int], Cost]:
    """The optimal in-window cost between every two open cells ``i < j`` that are joined: one
    Dijkstra (the world's) from each open cell but the last."""
    result = {}
    for i, source in enumerate(cells[:-1]):
        if not open_window[source]:
            continue
        distances = dijkstra(~open_window, source, connectivity=8)
        for j in range(i + 1, len(cells)):
            cost = distances.cost_to(cells[j])
            if cost is not None:
                result[(i, j)] = cost
    return result


def cluster_intra_edges(windows: dict[int, np.ndarray], cells: list[Cell], max_size: int, quality: str) -> IntraEdges:
    """Step 2 for one cluster (docs/haa.md §3): for every capability (the world's order) and size
    (largest first), the optimal in-cluster cost between every two nodes; a candidate edge is kept
    unless an edge kept before between the same nodes dominates it (:mod:`.dominance`)."""
    kept: dict[tuple[int, int], list[Edge]] = {}
    result: IntraEdges = []
    computed: dict[bytes, dict[tuple[int, int], Cost]] = {}  # equal windows give equal costs
    for mask in CAPABILITY_MASKS:
        for size in range(max_size, 0, -1):
            window = windows[mask] >= size
            signature = window.tobytes()
            if signature not in computed:
                computed[signature] = pair_costs_readable(window, cells)
            for (i, j), cost in computed[signature].items():
                between = kept.setdefault((i, j), [])
                if intra_edge_dominated(between, mask, size, cost, quality):
                    continue
                between.append(Edge(i, j, mask, size, cost, False))
                result.append((i, j, mask, size, cost))
    return result


def build_abstraction(terrain: np.ndarray, cluster_size: int = DEFAULT_CLUSTER_SIZE, quality: str = "high",
                      max_size: int = DEFAULT_MAX_SIZE, *, intra_edges: IntraEdgesOf | None = None) -> Abstraction:
    """The HAA* abstract graph of ``terrain`` (docs/haa.md §3).

    ``quality`` is ``"high"`` (strong dominance) or ``"low"`` (weak dominance); intra-edges are
    computed for agent sizes ``1 .. max_size``. The compiled twin
    :func:`reference.solutions.compiled.haa.abstraction.build_abstraction` is this function with step 2
    compiled (the same edges, tested).

    Parameters
    ----------
    terrain : numpy.ndarray
        The terrain codes of the map (:mod:`reference.world.terrain`).
    cluster_size : int
        The side C of the square clusters (at least 2).
    quality : {"high", "low"}
        Keep the edges no kept edge strongly dominates, or weakly dominates (a smaller graph).
    max_size : int
        The largest agent size the graph serves (at least 1).
    intra_edges : callable, optional
        Step 2 for one cluster (default :func:`cluster_intra_edges`); the compiled twin passes its own.

    Returns
    -------
    Abstraction
        Abstract nodes (their cells) and annotated inter- and intra-edges, with the clearances.

    Raises
    ------
    ValueError
        An unknown quality, a cluster size below 2, or a largest size below 1.

    See Also
    --------
    reference.solutions.haa.query.haa_star : the query on the graph.
    reference.solutions.compiled.haa.abstraction.build_abstraction : the compiled twin (step 2 compiled).

    Examples
    --------
    >>> from reference.world.terrain import terrain_from_strings
    >>> graph = build_abstraction(terrain_from_strings(["....", ".@..", "....", "...."]), cluster_size=2, max_size=2)
    >>> len(graph.node_cells), graph.edge_count()
    (7, 7)
    """
    import time

    if quality not in QUALITIES:
        raise ValueError(f"quality must be one of {', '.join(QUALITIES)}, got {quality!r}")
    if cluster_size < 2:
        raise ValueError(f"the cluster size must be at least 2, got {cluster_size}")
    if max_size < 1:
        raise ValueError(f"the largest agent size must be at least 1, got {max_size}")
    began = time.perf_counter()
    terrain = np.asarray(terrain, dtype=np.uint8)
    graph = Abstraction(terrain, cluster_size, quality, max_size)
    graph.clearances = {mask: cv for mask, cv in zip(CAPABILITY_MASKS, all_clearances(terrain).values())}
    node_of_cell: dict[Cell, int] = {}
    _add_transitions(graph, node_of_cell)
    _add_intra_edges(graph, intra_edges or cluster_intra_edges)
    if quality == "low":
        _remove_dominated_transitions(graph)
    graph.build_seconds = time.perf_counter() - began
    return graph


def _clusters(graph: Abstraction) -> Iterator[tuple[int, int]]:
    height, width = graph.shape
    c = graph.cluster_size
    for row in range(math.ceil(height / c)):
        for col in range(math.ceil(width / c)):
            yield (row, col)


def _borders(graph: Abstraction, cluster: tuple[int, int]) -> Iterator[list[tuple[Cell, Cell]]]:
    """The cluster's east and south borders (those with a neighbour): lists of adjacent cell pairs
    ``(inside, outside)``, top to bottom and left to right."""
    r0, r1, c0, c1 = graph.cluster_window(cluster)
    height, width = graph.shape
    if c1 < width:
        yield [((r, c1 - 1), (r, c1)) for r in range(r0, r1)]
    if r1 < height:
        yield [((r1 - 1, c), (r1, c)) for c in range(c0, c1)]


def _node(graph: Abstraction, node_of_cell: dict[Cell, int], cell: Cell) -> int:
    """The abstract node on ``cell``, made if there is none yet (transitions share nodes)."""
    if cell not in node_of_cell:
        node_of_cell[cell] = len(graph.node_cells)
        graph.node_cells.append(cell)
    return node_of_cell[cell]


def _add_transitions(graph: Abstraction, node_of_cell: dict[Cell, int]) -> None:
    """Step 1: entrances per capability along every border, one transition each (docs/haa.md §3)."""
    inter_edges_between: dict[tuple[int, int], list[Edge]] = {}
    for cluster in _clusters(graph):
        for mask in CAPABILITY_MASKS:
            clearance = graph.clearances[mask]
            for border in _borders(graph, cluster):
                pair_clearance = [int(min(clearance[a], clearance[b])) for a, b in border]
                for first, _last in entrances(pair_clearance):
                    inside, outside = border[first]
                    u, v = _node(graph, node_of_cell, inside), _node(graph, node_of_cell, outside)
                    cv = pair_clearance[first]
                    existing = inter_edges_between.setdefault((u, v), [])
                    # An inter-edge every user of this one could use already joins u and v.
                    if any(e.clearance >= cv and is_subset(e.mask, mask) for e in existing):
                        continue
                    edge = Edge(u, v, mask, cv, (1, 0), True)
                    existing.append(edge)
                    graph.edges.append(edge)


def _add_intra_edges(graph: Abstraction, intra_edges: IntraEdgesOf) -> None:
    """Step 2: every cluster's intra-edges (docs/haa.md §3)."""
    for cluster, nodes in graph.nodes_by_cluster().items():
        if len(nodes) < 2:
            continue
        r0, r1, c0, c1 = graph.cluster_window(cluster)
        local = [(graph.node_cells[n][0] - r0, graph.node_cells[n][1] - c0) for n in nodes]
        windows = {mask: cv[r0:r1, c0:c1] for mask, cv in graph.clearances.items()}
        for i, j, mask, size, cost in intra_edges(windows, local, graph.max_size, graph.quality):
            graph.edges.append(Edge(nodes[i], nodes[j], mask, size, cost, False))


def _remove_dominated_transitions(graph: Abstraction) -> None:
    """Step 3 (low quality): drop weakly dominated inter-edges, then the endpoints left without
    any inter-edge, with their intra-edges; renumber the nodes that remain."""
    dominated = weakly_dominated_inter_edges(graph)
    edges = [e for index, e in enumerate(graph.edges) if index not in dominated]
    has_inter = {n for e in edges if e.inter for n in (e.u, e.v)}
    new_id = {}
    cells = []
    for node, cell in enumerate(graph.node_cells):
        if node in has_inter:
            new_id[node] = len(cells)
            cells.append(cell)
    graph.node_cells = cells
    graph.edges = [Edge(new_id[e.u], new_id[e.v], e.mask, e.clearance, e.cost, e.inter)
                   for e in edges if e.u in new_id and e.v in new_id]


def capability_masks_text() -> str:
    """For help texts: the seven capabilities in order."""
    from reference.world.terrain import capability_name

    return ", ".join(capability_name(capability_of(m)) for m in CAPABILITY_MASKS)
