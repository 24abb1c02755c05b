"""Your Repeated Forward A*, Repeated Backward A* and Adaptive A* (SPEC §4-8, §11).

Each function moves a fog-of-war agent from ``start`` to ``target`` and returns what happened as a
trace (SPEC §8). Your code never sees the true grid: it meets the world only through ``world``:

- ``world.height``, ``world.width``: the size of the grid (the agent always knows it);
- ``world.sense(cell)``: the agent announces the cell it stands in and gets back the list of
  *blocked* cells among its four neighbours. Call it once at ``start`` before the first search,
  then once after every move, with the cell just moved into. The world refuses impossible moves
  (jumping, walking into a blocked cell) with ``IllegalMoveError``.

Try it on the handout's first example (rows A-E are rows 0-4, columns 1-5 are cols 0-4)::

    >>> from reference.world import FogOfWarWorld, Gridworld
    >>> grid = Gridworld.from_strings([".....", "..@..", "..@@.", "..@@.", "...@."])
    >>> trace = repeated_forward_astar(FogOfWarWorld(grid, (4, 2)), (4, 2), (4, 4))  # doctest: +SKIP
    >>> [len(search.expanded) for search in trace.searches][:2]                       # doctest: +SKIP
    [10, 13]

The rules your code must follow exactly (so that every correct solution expands the same cells in
the same order, which is what the autograder compares):

1. Cells are ``(row, col)``, row 0 at the top. Successors in the order **east, south, west,
   north**: ``(r, c+1), (r+1, c), (r, c-1), (r-1, c)``, only those inside the grid and not known
   to be blocked. Every move costs 1. h is the Manhattan distance to the search's goal state.
2. The agent knows a cell is blocked only once it has sensed it; everything else it presumes
   unblocked (the freespace assumption). :class:`reference.world.sensing.Knowledge` is a ready-made
   memory for this, or write your own.
3. The main loop is the handout's Figure 4. If ``start == target``: reached, 0 searches,
   trajectory ``[start]``. Otherwise repeat: ``counter += 1``; search (forward: from the agent to
   the target; backward: from the target to the agent); if OPEN runs empty, the target cannot be
   reached: stop with ``reached = False``; else follow the path.
4. Lazy initialisation with ``counter`` and ``search(s)``: **no step after the first
   initialisation may visit every cell** (no ``[inf] * cells`` per search). The efficiency check
   runs a large grid with small searches.
5. ComputePath, exactly (one expansion = one pop)::

       while g(s_goal) > min f over OPEN           (an empty OPEN counts as infinity)
           pop s with the smallest key; add it to CLOSED
           for each successor s' (E, S, W, N) that exists and is not known blocked:
               if search(s') < counter: g(s') = inf; search(s') = counter
               if g(s') > g(s) + 1:
                   g(s') = g(s) + 1; tree(s') = s
                   put s' into OPEN with its new key (replacing any entry it had)

   The goal state is never expanded. Each search counts its insertions into OPEN; an entry's
   *stamp* is that count when it was inserted (a re-inserted state gets a new stamp). Keys,
   smallest first: ``larger_g`` (default) ``(f, -g, stamp)``; ``smaller_g`` ``(f, g, stamp)``.
6. The path runs from the agent to the target, both ends included. Forward: follow the tree
   pointers back from the target and reverse. Backward: the pointers from the agent already lead
   to the target. Walking: before each move, check the remaining path against what you know; as
   soon as a cell on it is known blocked, stop and search again. After each move, sense.
7. Adaptive A* searches forward; after every search that reaches the goal, every expanded state
   ``s`` gets ``h(s) = g(s_goal) - g(s)``; these learned h-values last for the whole run and are
   used (instead of the Manhattan distance) wherever they exist.

What to return: a :class:`reference.world.trace.Trace` (or a plain dict of the same shape)::

    {"algorithm": "forward" | "backward" | "adaptive", "tie_break": "larger_g" | "smaller_g",
     "reached": bool,
     "trajectory": [[r, c], ...],                       # every cell the agent stood in, start first
     "searches": [{"start": [r, c], "goal": [r, c],     # this search's own start and goal states
                   "expanded": [[r, c], ...],           # in expansion order
                   "path": [[r, c], ...]}, ...]}        # agent to target; [] if none was found
"""

from __future__ import annotations

# Tools for you to use. Import nothing else from the kit but reference.world.
from heap import BinaryHeap  # noqa: F401  your heap, next to this file (the folder is on sys.path)

from reference.world.grid import Cell, manhattan  # noqa: F401
from reference.world.sensing import Knowledge, World  # noqa: F401
from reference.world.trace import SearchRecord, Trace  # noqa: F401


def repeated_forward_astar(world: World, start: Cell, target: Cell, tie_break: str = "larger_g") -> Trace:
    """Repeated Forward A*: every search runs from the agent's current cell to the target.

    Args:
        world: the public world object (``height``, ``width``, ``sense(cell)``).
        start: the agent's start cell ``(row, col)``.
        target: the target cell ``(row, col)``.
        tie_break: ``"larger_g"`` (ties in f go to the larger g) or ``"smaller_g"``.

    Returns:
        The trace (rule list in this module's docstring), with ``algorithm="forward"``.

    TODO: sense at ``start``; then loop: one A* search from the agent to the target on what the
    agent knows (h = Manhattan distance to the target), read the path off the tree pointers from the
    target back to the agent and reverse it, walk it (sensing after every move) until the target or
    a known-blocked cell ahead; record every search as a ``SearchRecord``.
    """
    raise NotImplementedError("TODO: repeated_forward_astar - search from the agent to the target, walk, repeat")


def repeated_backward_astar(world: World, start: Cell, target: Cell, tie_break: str = "larger_g") -> Trace:
    """Repeated Backward A*: every search runs from the target to the agent's current cell.

    Same arguments as :func:`repeated_forward_astar`; returns a trace with ``algorithm="backward"``.
    Each ``SearchRecord`` has ``start = target`` and ``goal =`` the agent's cell, but its ``path``
    still runs from the agent to the target.

    TODO: as forward, but the search starts at the target and h is the Manhattan distance to the
    agent's cell; the tree pointers from the agent lead to the target, already in walking order.
    """
    raise NotImplementedError("TODO: repeated_backward_astar - search from the target to the agent, walk, repeat")


def adaptive_astar(world: World, start: Cell, target: Cell, tie_break: str = "larger_g") -> Trace:
    """Adaptive A*: Repeated Forward A* whose h-values learn from every search (SPEC §7).

    Same arguments as :func:`repeated_forward_astar`; returns a trace with ``algorithm="adaptive"``.

    TODO: as forward, but keep a learned h-value per state for the whole run (initialised lazily to
    the Manhattan distance to the target); after each search that reaches the target, set
    ``h(s) = g(target) - g(s)`` for every state ``s`` that search expanded.
    """
    raise NotImplementedError("TODO: adaptive_astar - forward searches with h(s) = g(goal) - g(s) learned after each")
