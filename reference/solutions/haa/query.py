"""HAA* queries and Annotated A* (SPEC §14; docs/haa.md §2 and §4).

* :func:`annotated_astar` (AA*): the world's eight-connected A* on the cells traversable for the
  agent ``(size, capability)`` (terrain in the capability, true clearance at least ``size``).
* :func:`haa_star`: insert start and goal into the abstract graph (one in-cluster Dijkstra each,
  for the agent's own size and capability), A* over the edges the agent may use, then refine every
  abstract edge into grid cells (in-cluster AA* for the edge's own annotation).

>>> from reference.world.terrain import terrain_from_strings, GROUND_ONLY
>>> from reference.solutions.haa.abstraction import build_abstraction
>>> terrain = terrain_from_strings(["......", "......", "..@@..", "......", "......", "......"])
>>> graph = build_abstraction(terrain, cluster_size=3, max_size=2)
>>> result = haa_star(graph, (0, 0), (4, 4), 2, GROUND_ONLY)
>>> result.found, result.cost == annotated_astar(terrain, (0, 0), (4, 4), 2, GROUND_ONLY).cost
(True, True)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Iterable

import numpy as np

from reference.solutions.best_first import best_first_search
from reference.solutions.shortest_paths import PathResult, astar, dijkstra
from reference.world.grid import Cell, Cost, add_costs, cost_value, octile_cost

from .graph import Abstraction, Edge
from .capabilities import mask_of
from .clearance import true_clearance


def annotated_blocked(terrain: np.ndarray, size: int, capability: Iterable[int]) -> np.ndarray:
    """The blocked array AA* searches for ``(size, capability)``: cells with clearance below ``size``."""
    return true_clearance(terrain, capability) < size


def annotated_astar(terrain: np.ndarray, start: Cell, goal: Cell, size: int, capability: Iterable[int]) -> PathResult:
    """AA*: the world's A* (eight-connected, octile h, SPEC §12 ties) for an agent ``(size, capability)``.

    A start or goal the agent cannot stand on gives "no path" (cost None), not an error.

    Parameters
    ----------
    terrain : numpy.ndarray
        The terrain codes of the map (:mod:`reference.world.terrain`).
    start, goal : Cell
        ``(row, col)`` cells of the map.
    size : int
        The agent's side: it stands on the ``size`` x ``size`` square whose top-left cell is its cell.
    capability : iterable of int
        The terrain codes the agent may enter.

    Returns
    -------
    PathResult
        The exact cost (None when there is no path), the path and the expanded cells.

    Raises
    ------
    IndexError
        A start or goal outside the map.

    See Also
    --------
    haa_star : the same query through the abstract graph.
    reference.solutions.compiled.haa.query.annotated_astar : the compiled twin (the same result).

    Examples
    --------
    >>> from reference.world.terrain import terrain_from_strings, GROUND_ONLY
    >>> terrain = terrain_from_strings(["....", ".@..", "....", "...."])
    >>> annotated_astar(terrain, (0, 0), (3, 3), 1, GROUND_ONLY).cost    # 4 straight moves, 1 diagonal
    (4, 1)
    >>> annotated_astar(terrain, (0, 0), (3, 3), 2, GROUND_ONLY).found   # a 2 x 2 agent cannot reach (3, 3)
    False
    """
    blocked = annotated_blocked(terrain, size, capability)
    if blocked[start] or blocked[goal]:
        return PathResult(start, goal, None, [], [])
    return astar(blocked, start, goal, connectivity=8)


@dataclass
class HAAResult:
    """What :func:`haa_star` found: exact cost (None: no path), the refined grid path, the abstract
    path (nodes' cells), and the expansions of each phase (the paper's total search effort)."""

    start: Cell
    goal: Cell
    cost: Cost | None
    path: list[Cell] = field(default_factory=list)
    abstract_path: list[Cell] = field(default_factory=list)
    insertion_expansions: int = 0
    abstract_expansions: int = 0
    refinement_expansions: int = 0

    @property
    def found(self) -> bool:
        return self.cost is not None

    @property
    def length(self) -> float:
        return cost_value(self.cost) if self.cost is not None else math.inf

    @property
    def expansions(self) -> int:
        return self.insertion_expansions + self.abstract_expansions + self.refinement_expansions


def haa_star(graph: Abstraction, start: Cell, goal: Cell, size: int, capability: Iterable[int]) -> HAAResult:
    """A path for agent ``(size, capability)`` from ``start`` to ``goal`` through the abstraction.

    ``size`` must be at most the graph's ``max_size`` (``ValueError`` otherwise: the graph holds no
    edges for larger agents).

    Parameters
    ----------
    graph : Abstraction
        The annotated abstract graph (:func:`~reference.solutions.haa.abstraction.build_abstraction`).
    start, goal : Cell
        ``(row, col)`` cells; one outside the map or not open to the agent gives "no path".
    size : int
        The agent's side, 1 .. ``graph.max_size``.
    capability : iterable of int
        The terrain codes the agent may enter.

    Returns
    -------
    HAAResult
        The exact cost (None: no path), the refined grid path, the abstract path, and the
        expansions of insertion, abstract search and refinement.

    Raises
    ------
    ValueError
        A ``size`` outside 1 .. ``graph.max_size``.

    See Also
    --------
    annotated_astar : the optimal path the abstraction approximates.
    reference.solutions.compiled.haa.query.haa_star : the compiled twin (the same result, one call).

    Examples
    --------
    >>> from reference.world.terrain import terrain_from_strings, GROUND_ONLY
    >>> from reference.solutions.haa.abstraction import build_abstraction
    >>> graph = build_abstraction(terrain_from_strings(["....", ".@..", "....", "...."]), cluster_size=2, max_size=2)
    >>> result = haa_star(graph, (0, 0), (3, 3), 1, GROUND_ONLY)
    >>> result.cost, result.path[:3]
    ((4, 1), [(0, 0), (0, 1), (0, 2)])
    """
    if not 1 <= size <= graph.max_size:
        raise ValueError(f"agent size {size} is outside 1..{graph.max_size}, the sizes this abstraction was built for")
    mask = mask_of(capability)
    start, goal = (int(start[0]), int(start[1])), (int(goal[0]), int(goal[1]))
    result = HAAResult(start, goal, None)
    open_cells = graph.clearances[mask] >= size
    if not (_inside(graph, start) and _inside(graph, goal)) or not open_cells[start] or not open_cells[goal]:
        return result
    if start == goal:
        result.cost, result.path, result.abstract_path = (0, 0), [start], [start]
        return result
    adjacency = graph.adjacency()

    # 1. Insertion: temporary nodes S and G, joined to the nodes of their clusters (and to each
    #    other when they share one) by the agent's own in-cluster shortest paths.
    node_count = len(graph.node_cells)
    start_node, goal_node = node_count, node_count + 1
    temporary: dict[int, list[tuple[int, Cost, list[Cell]]]] = {start_node: [], goal_node: []}
    for node, cell in ((start_node, start), (goal_node, goal)):
        cluster = graph.cluster_of(cell)
        r0, _, c0, _ = graph.cluster_window(cluster)
        window = graph.open_window(cluster, size, mask)
        distances = dijkstra(~window, (cell[0] - r0, cell[1] - c0), connectivity=8)
        result.insertion_expansions += len(distances.expanded)
        targets = [(other, graph.node_cells[other]) for other in graph.cluster_nodes(cluster)]
        if node == goal_node and graph.cluster_of(start) == cluster:
            targets.append((start_node, start))
        for other, other_cell in targets:
            local = (other_cell[0] - r0, other_cell[1] - c0)
            cost = distances.cost_to(local)
            if cost is not None:
                path = [(r + r0, c + c0) for r, c in distances.path_to(local)]
                temporary[node].append((other, cost, path))

    # 2. A* on the abstract graph, edges filtered by (size, capability).
    def neighbours(node: int):
        if node in temporary:
            for other, cost, path in temporary[node]:
                yield other, cost, ("temp", node, path)
        if node < node_count:
            for index in adjacency[node]:
                edge = graph.edges[index]
                if edge.usable_by(size, mask):
                    yield (edge.v if edge.u == node else edge.u), edge.cost, ("edge", index)
        for other in (start_node, goal_node):  # the temporary edges, seen from their other end
            for back, cost, path in temporary[other]:
                if back == node:
                    yield other, cost, ("temp", other, path)

    cell_of = lambda node: start if node == start_node else goal if node == goal_node else graph.node_cells[node]
    found = _abstract_astar(start_node, goal_node, neighbours, cell_of, result)
    if found is None:
        return result
    cost, steps = found

    # 3. Refinement: each abstract edge becomes grid cells.
    path = [start]
    for node_from, via in steps:
        if via[0] == "temp":
            _, owner, cells = via
            cells = cells if owner == node_from else cells[::-1]
        else:
            edge = graph.edges[via[1]]
            cells = _refine(graph, edge, graph.node_cells[node_from], result)
        path.extend(cells[1:])
    result.cost, result.path = cost, path
    return result


def _inside(graph: Abstraction, cell: Cell) -> bool:
    return 0 <= cell[0] < graph.shape[0] and 0 <= cell[1] < graph.shape[1]


def _abstract_astar(start: int, goal: int, neighbours, cell_of, result: HAAResult):
    """A* over abstract nodes: the kit's best-first search (key ``(f, -g, stamp)``, stop when
    ``g(goal) <= min f``) with octile h between node cells. Returns ``(cost, [(node_from, via), ...])``
    or None.

    ``neighbours(node)`` yields ``(other, cost, via)``; two nodes may be joined by several edges
    (one per annotation). The search sees ``(other, cost)`` only; the edge each tree step took is
    the one the search kept: the first edge from the parent, in ``neighbours`` order, whose cost
    gives the child its g (a later edge of the same cost is no strict improvement).
    """
    goal_cell = cell_of(goal)
    tree = best_first_search(start, lambda node: [(other, cost) for other, cost, _ in neighbours(node)],
                             lambda node: octile_cost(cell_of(node), goal_cell), goal=goal)
    result.abstract_expansions += len(tree.expanded)
    if goal not in tree.g:
        return None
    nodes = tree.path_to(goal)
    steps = []
    for node, child in zip(nodes, nodes[1:]):
        via = next(via for other, cost, via in neighbours(node)
                   if other == child and add_costs(tree.g[node], cost) == tree.g[child])
        steps.append((node, via))
    result.abstract_path = [cell_of(node) for node in nodes]
    return tree.g[goal], steps


def _refine(graph: Abstraction, edge: Edge, from_cell: Cell, result: HAAResult) -> list[Cell]:
    """The grid cells of ``edge`` walked from ``from_cell``: an inter-edge is its two cells; an
    intra-edge is found again by AA* inside its cluster for the edge's own annotation (its length
    is the edge's, as both are optimal for that annotation there)."""
    u_cell, v_cell = graph.node_cells[edge.u], graph.node_cells[edge.v]
    to_cell = v_cell if from_cell == u_cell else u_cell
    if edge.inter:
        return [from_cell, to_cell]
    cluster = graph.cluster_of(from_cell)
    r0, _, c0, _ = graph.cluster_window(cluster)
    window = graph.open_window(cluster, edge.clearance, edge.mask)
    found = astar(~window, (from_cell[0] - r0, from_cell[1] - c0), (to_cell[0] - r0, to_cell[1] - c0), connectivity=8)
    result.refinement_expansions += found.expansions
    return [(r + r0, c + c0) for r, c in found.path]
