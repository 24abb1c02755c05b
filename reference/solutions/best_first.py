"""The kit's one readable best-first search on a known graph: A*, and Dijkstra as A* with h = 0.

:func:`best_first_search` is the handout's ComputePath (SPEC §5) on any graph whose moves have
exact costs (:data:`~reference.world.grid.Cost`, the pair ``(straight moves, diagonal moves)``):

* OPEN is the kit's :class:`~reference.solutions.heap.BinaryHeap`, ordered by the SPEC's key
  ``(f, -g, stamp)`` (``larger_g``, the default) or ``(f, g, stamp)`` (``smaller_g``), with f and g
  compared as :func:`~reference.world.grid.cost_value` doubles (equal costs compare equal, the
  tie rules decide, no epsilon). The stamp counts this search's insertions into OPEN (a state whose
  g is lowered is inserted anew), so no two keys are equal and the order of expansions is fixed.
* A* stops when ``g(goal) <= min f over OPEN``, before the goal is expanded (Figure 4, line 2);
  without a goal it runs until OPEN is empty.
* With ``heuristic=no_heuristic`` (h = 0) it is Dijkstra's algorithm, as python-pathfinding's
  ``DijkstraFinder`` is its ``AStarFinder`` with a zero heuristic: f = g, so the key orders by g,
  then by stamp. ``expand_goal=True`` gives Dijkstra's early stop instead of A*'s: right *after*
  the goal is expanded.

Who uses it: :func:`reference.solutions.shortest_paths.astar` and ``dijkstra`` (grids), HAA*'s
search of its abstract graph (:mod:`reference.solutions.haa.query`), PR LRTS's refinement inside
its corridor (:func:`reference.solutions.dynamic.pr_lrts.corridor_astar`) and both steps of the
dynamic-control Koenig LRTA* (:mod:`reference.solutions.dynamic.koenig_lrta`: the lookahead, A*
stopped after ``max_expansions``, and the value update, a Dijkstra from many sources). The
readable tree's other heap loops stay separate, each saying why in its docstring: Repeated A*
(``replanning.py``, the handout's Figure 4 written out line by line as the students' answer key);
Koenig's lookahead search and its value update for the fog-of-war agent (``realtime/lookahead.py``,
unit costs on flat lists mirrored by the compiled twin); the subgoal tree (Algorithm 2,
``subgoaling/tree.py``); and D* Lite (``realtime/dstar_lite.py``, its two-part keys and
incremental repair). Prioritized LRTA*'s queue (``dynamic/prioritized_lrta.py``) is no heap: it
scans its few entries (at most ``queue_size``) for the largest priority.

>>> graph = {"a": [("b", (1, 0)), ("c", (0, 1))], "b": [("d", (1, 0))], "c": [("d", (0, 1))], "d": []}
>>> tree = best_first_search("a", lambda state: graph[state], goal="d")
>>> tree.expanded, tree.g["d"], tree.path_to("d")
(['a', 'b', 'c'], (2, 0), ['a', 'b', 'd'])
>>> best_first_search("a", lambda state: graph[state]).expanded      # no goal: every reachable state
['a', 'b', 'c', 'd']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Generic, Hashable, Iterable, TypeVar

from reference.world.grid import Cost, add_costs, cost_value
from reference.world.trace import TIE_BREAKS

from .heap import BinaryHeap

State = TypeVar("State", bound=Hashable)

ZERO: Cost = (0, 0)


def no_heuristic(state: object) -> Cost:
    """h = 0 for every state: best-first search with it is Dijkstra's algorithm."""
    return ZERO


def path_from_tree(parent: dict[State, State], start: State, end: State) -> list[State]:
    """Follow the tree pointers from ``end`` back to ``start``; return the path start first.

    >>> path_from_tree({"b": "a", "c": "b"}, "a", "c")
    ['a', 'b', 'c']
    """
    path = [end]
    while path[-1] != start:
        path.append(parent[path[-1]])
    return path[::-1]


@dataclass
class SearchTree(Generic[State]):
    """What :func:`best_first_search` leaves: every generated state's g (the least found), its tree
    pointer (``parent``; none for ``start``), the states in the order they were expanded, and
    ``next_state``, the state OPEN would have expanded next when the search stopped (None when OPEN
    ran empty)."""

    start: State
    g: dict[State, Cost]
    parent: dict[State, State]
    expanded: list[State]
    next_state: State | None = None

    def path_to(self, state: State) -> list[State]:
        """The tree's path from ``start`` to ``state`` (a state the search generated)."""
        return path_from_tree(self.parent, self.start, state)


def best_first_search(start: State, successors: Callable[[State], Iterable[tuple[State, Cost]]],
                      heuristic: Callable[[State], Cost] = no_heuristic, *, goal: State | None = None,
                      tie_break: str = "larger_g", expand_goal: bool = False,
                      max_expansions: int | None = None) -> SearchTree[State]:
    """A* from ``start`` (Dijkstra with the default ``heuristic``); see the module docstring.

    Parameters
    ----------
    start : State
        Any hashable state: the root of the search.
    successors : callable
        ``successors(s)`` yields ``(t, c(s, t))`` pairs, c an exact :data:`~reference.world.grid.Cost`,
        in the order the search generates them.
    heuristic : callable, optional
        ``heuristic(s)``: h(s) as an exact cost, consistent (default: h = 0, Dijkstra).
    goal : State, optional
        A* stops before expanding it, once ``g(goal) <= min f over OPEN`` (with ``expand_goal``,
        right after expanding it); without a goal every state reachable from ``start`` is expanded.
    tie_break : {"larger_g", "smaller_g"}
        Which of two states with equal f is expanded first (SPEC §5).
    expand_goal : bool
        Dijkstra's early stop instead of A*'s.
    max_expansions : int, optional
        Stop, too, before expanding a state once this many were expanded (a real-time lookahead).

    Returns
    -------
    SearchTree
        Every generated state's least g found and tree pointer, the expansion order, and the state
        OPEN would have expanded next.

    Raises
    ------
    ValueError
        An unknown ``tie_break``.

    See Also
    --------
    reference.solutions.shortest_paths.astar, reference.solutions.shortest_paths.dijkstra : the
        searches on grids built on it.
    reference.solutions.compiled.shortest_paths.astar : the compiled twin of A* on grids.

    Examples
    --------
    >>> line = {0: [(1, (1, 0))], 1: [(2, (1, 0))], 2: []}
    >>> tree = best_first_search(0, lambda s: line[s], goal=2)
    >>> tree.path_to(2), tree.g[2]
    ([0, 1, 2], (2, 0))
    >>> best_first_search(0, lambda s: line[s], goal=2, max_expansions=1).next_state   # a lookahead of one
    1
    """
    if tie_break not in TIE_BREAKS:
        raise ValueError(f"tie_break must be one of {', '.join(TIE_BREAKS)}, got {tie_break!r}")
    larger_g = tie_break == "larger_g"
    g: dict[State, Cost] = {start: ZERO}  # a state absent from g has g = infinity
    parent: dict[State, State] = {}
    expanded: list[State] = []

    def key(state: State, stamp: int) -> tuple[float, float, int]:
        f = cost_value(add_costs(g[state], heuristic(state)))
        g_value = cost_value(g[state])
        return (f, -g_value if larger_g else g_value, stamp)

    open_list: BinaryHeap[State] = BinaryHeap()
    stamp = 0  # this search's insertions into OPEN so far
    open_list.push(start, key(start, stamp))
    while open_list:
        if not expand_goal and goal in g and cost_value(g[goal]) <= open_list.min_priority()[0]:
            break  # g(goal) <= min f over OPEN: no state in OPEN leads to a cheaper goal
        if len(expanded) == max_expansions:
            break  # the lookahead is spent (never, without max_expansions: len() == None is False)
        state = open_list.pop()
        expanded.append(state)
        if expand_goal and state == goal:
            break
        for successor, step in successors(state):
            g_new = add_costs(g[state], step)
            # With a consistent h an expanded state already has its least g, so this test only
            # ever succeeds for states never generated or still in OPEN.
            if successor not in g or cost_value(g_new) < cost_value(g[successor]):
                g[successor] = g_new
                parent[successor] = state
                stamp += 1
                if successor in open_list:  # remove it and insert it anew, in one step
                    open_list.update(successor, key(successor, stamp))
                else:
                    open_list.push(successor, key(successor, stamp))
    return SearchTree(start, g, parent, expanded, open_list.peek() if open_list else None)
