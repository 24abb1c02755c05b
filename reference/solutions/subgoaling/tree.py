"""Subgoal trees: Hernández & Baier's Algorithm 2 (the paper's line numbers in the comments).

A Dijkstra search backward from the goal that carries, for every state ``s`` it reaches, ``g(s)``
(the distance to the goal), ``Sub(s)`` (the next subgoal the agent will pursue from ``s``),
``g_sub(s)`` (the distance to ``Sub(s)`` along the Dijkstra parents) and ``parent(s)``. When a
successor ``s'`` of the state ``s`` being expanded gets a better ``g`` and its distance to
``Sub(s)`` through ``s`` is not what the heuristic says (``g_sub(s') ≠ h(s', Sub(s))``), ``s`` is an
*exit point* of a heuristic depression: it becomes a subgoal, a child of ``Sub(s)`` in the tree.

Costs are exact pairs ``(straight moves, diagonal moves)`` (SPEC §12,
:data:`reference.world.grid.Cost`), so line 17 compares them exactly; Open is ordered by
``cost_value(g)`` with ties to the entry inserted first (a lowered entry is inserted anew).

Why this Dijkstra is not the kit's one best-first search
(:func:`~reference.solutions.best_first.best_first_search`, which gives the same g-values and
order of expansions): Algorithm 2 does its work inside the loop. Line 10 reads the parent's
``Sub`` when a state is expanded, and lines 15-20 run at every improvement of a successor, where
line 17 compares with ``Sub(s)`` as lines 18-20 may have just changed it for an earlier successor
of the same ``s``. Hooks into the shared loop for that would hide the paper's line numbers, so the
loop is written out here as the paper writes it.

>>> from reference.world.grid import Gridworld
>>> grid = Gridworld.from_strings(["....", ".@@.", "...."])
>>> tree = build_subgoal_tree(grid, (2, 2), connectivity=4)
>>> tree.arcs                      # (parent, child): (0, 3) is where the agent leaves the pocket
[((2, 2), (0, 3))]
>>> tree.size, tree.sub[(0, 1)], tree.nextgoal((0, 3))
(1, (0, 3), (2, 2))
"""

from __future__ import annotations

from dataclasses import dataclass, field

from reference.solutions.heap import BinaryHeap
from reference.world.grid import Cell, Cost, Gridworld, add_costs, cost_value, heuristic_cost, successors

ZERO: Cost = (0, 0)


@dataclass
class SubgoalTree:
    """What Algorithm 2 computes for one goal.

    ``arcs`` are the tree's arcs ``(parent, child)`` in the order line 19 added them (the goal is the
    root; every child is a subgoal); ``tree_parent`` maps each child to its parent. ``sub``, ``g``,
    ``g_sub`` and ``parent`` are the search's variables for every state it reached (``parent``: the
    Dijkstra parent, absent for the goal); ``expanded`` lists the states in the order they were popped.
    """

    goal: Cell
    connectivity: int
    arcs: list[tuple[Cell, Cell]] = field(default_factory=list)
    tree_parent: dict[Cell, Cell] = field(default_factory=dict)
    sub: dict[Cell, Cell] = field(default_factory=dict)
    g: dict[Cell, Cost] = field(default_factory=dict)
    g_sub: dict[Cell, Cost] = field(default_factory=dict)
    parent: dict[Cell, Cell] = field(default_factory=dict)
    expanded: list[Cell] = field(default_factory=list)

    @property
    def size(self) -> int:
        """The number of arcs, as the paper counts a tree ("size 0": a cell walled in on all sides)."""
        return len(self.arcs)

    @property
    def states(self) -> list[Cell]:
        """The goal (the root), then every subgoal in the order it joined the tree."""
        return [self.goal] + [child for _, child in self.arcs]

    def nextgoal(self, state: Cell) -> Cell | None:
        """Algorithm 3's ``nextgoal(s)``: the parent of ``s`` in the tree; None off the tree and at the root."""
        return self.tree_parent.get(state)

    def branch(self, state: Cell) -> list[Cell]:
        """The subgoals an agent at ``state`` pursues in turn: ``Sub(state)``, its tree parent, ..., the goal.

        Empty when the search never reached ``state`` (the goal cannot be reached from it).
        """
        if state not in self.sub:
            return []
        chain = [self.sub[state]]
        while chain[-1] in self.tree_parent:
            chain.append(self.tree_parent[chain[-1]])
        return chain


def build_subgoal_tree(grid: Gridworld, goal: Cell, connectivity: int = 8) -> SubgoalTree:
    """The subgoal tree of ``goal`` on a known map (Algorithm 2); h is the kit's heuristic
    (:func:`~reference.world.grid.heuristic_cost`: octile eight-connected, Manhattan four-connected).

    >>> from reference.world.grid import Gridworld
    >>> build_subgoal_tree(Gridworld.from_strings(["...", "..."]), (0, 0)).size   # no depression
    0
    """
    if grid.is_blocked(goal):
        raise ValueError(f"the goal {goal} is blocked")
    blocked = grid.blocked
    tree = SubgoalTree(goal, connectivity)
    g, sub, g_sub, parent = tree.g, tree.sub, tree.g_sub, tree.parent
    move_cost: dict[Cell, Cost] = {}            # c(parent(s), s), for line 11
    sub[goal] = goal                            # line 3
    g_sub[goal] = ZERO                          # line 4
    g[goal] = ZERO                              # line 5 (line 2: every other g is infinite = absent)
    open_list: BinaryHeap[Cell] = BinaryHeap()
    stamp = 0                                   # ties in g go to the entry inserted first (SPEC §12)
    open_list.push(goal, (0.0, stamp))          # line 6
    while open_list:                            # line 7
        s = open_list.pop()                     # line 8
        tree.expanded.append(s)
        if s != goal:                           # line 9
            sub[s] = sub[parent[s]]                                  # line 10
            g_sub[s] = add_costs(g_sub[parent[s]], move_cost[s])     # line 11
        for successor, cost in successors(blocked, s, connectivity):  # line 12
            new_g = add_costs(g[s], cost)
            if successor not in g or cost_value(g[successor]) > cost_value(new_g):  # line 13
                g[successor] = new_g                                 # line 14
                g_sub[successor] = add_costs(g_sub[s], cost)         # line 15
                parent[successor] = s                                # line 16
                move_cost[successor] = cost
                if g_sub[successor] != heuristic_cost(successor, sub[s], connectivity):  # line 17
                    g_sub[s] = ZERO                                  # line 18
                    tree.arcs.append((sub[s], s))                    # line 19
                    tree.tree_parent[s] = sub[s]
                    sub[s] = s                                       # line 20
                if successor in open_list:                           # line 21
                    open_list.remove(successor)
                stamp += 1
                open_list.push(successor, (cost_value(new_g), stamp))  # line 22
    return tree
