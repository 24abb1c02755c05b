"""Compiled twins of the subgoaling module (SPEC §16): Algorithm 2's trees, LRTA* and LRTA* with subgoaling.

The readable code (:mod:`reference.solutions.subgoaling`) is the one to read; these mirror it line
for line with flat arrays in place of dictionaries (a cell is its index ``row * width + col``), so
they build the same trees and walk the same trajectories, episode for episode (tests compare them on
random maps and on a game map). Only the speed differs (``bench/subgoaling.py``).

* :func:`tree_arrays`: Algorithm 2 on the compiled A*'s heap (:mod:`..heap`: entries keyed
  ``(f, tie, stamp)``; here ``f = cost_value(g)`` and ``tie = 0``, so the key is the readable
  ``(cost_value(g), stamp)``) and move table. Costs are exact pairs (two int64 arrays each for ``g``
  and ``g_sub``); line 17 compares pairs, line 13 the doubles ``a + b * SQRT2``, as the readable
  code does. The experiments build the tree of *every* cell of a map with it (the paper's
  preprocessing).
* :func:`lrta_arrays`: Algorithm 1 (plain LRTA*, lookahead one) and Algorithm 3 (with subgoaling)
  in one loop, as the readable ``KnownMapLRTA`` and ``SubgoalingLRTA`` share theirs. The
  doubles it compares are computed from the exact pairs by the same two operations as
  :func:`~reference.world.grid.cost_value` (``a + b * SQRT2``; Numba does not fuse them, so the
  doubles are bit-identical to the readable code's, and so are the ties).
* :data:`ALGORITHMS`, :func:`lrta_star`, :func:`lrta_star_subgoaling`, :func:`astar_run` and
  :class:`KnownMapRun`: the readable package's public names, for the same things (the rule of
  ``compiled/``: it mirrors the readable tree module for module: :mod:`.tree` is the twin of
  ``subgoaling/tree.py``, :mod:`.lrta` of ``subgoaling/lrta.py``, :mod:`.pursuit` of
  ``subgoaling/pursuit.py``, :mod:`.knn_lrta` of ``knn_lrta.py``, :mod:`.d_lrta` of ``d_lrta.py``, and this
  package's ``__init__`` of the readable package's, A* on a known map and the registry). :data:`ALGORITHMS` is the same
  :class:`~reference.solutions.registry.Registry` type, settings keyword-only, the problem to the
  planner's ``run(grid, start, goal)``; :func:`run_compiled` does both in one call, with the
  signature every compiled twin's ``run_compiled`` has: ``(grid, start, target, algorithm, *,
  settings)``.
* A run is a :class:`KnownMapRun` as in the readable package, by the same name and with the same
  properties (``reached``, ``cost``, ``moves``, ``expansions``, ``episodes``, ``first_goal``,
  ``first_episode_seconds``, ``total_seconds``, ``trace``), but it keeps the trajectory and the goal
  of each episode as arrays: the SPEC §8 :class:`~reference.world.trace.Trace` is built only when
  asked for (``run.trace``), since turning a million moves into records costs more than the search.
  The twin takes the readable class's name rather than sharing a base class with it, as
  ``compiled/realtime/``'s ``RealtimeRun`` does: the two hold different things (records against
  arrays) and no code is written against a common base, so a base would be one more class to read.

**Memory.** h-values are kept per goal pursued, as the readable code's dictionaries: one row of a
2-D table per goal (``int32`` straight and diagonal parts plus an ``int32`` stamp: 12 bytes a cell,
0.8 MB a goal on a 256 × 256 map), rows handed out as goals are first pursued and the table doubled
when it runs out (a run pursues a few dozen goals at most on the evaluation's maps). The tables live
in a :class:`LookaheadWorkspace` reused by every run on maps of the same size; a stamp (the run's
number) says which entries this run has written, so a run never clears them (SPEC §5's lazy
initialisation; clearing 65,000 cells would cost more than a short run).

>>> from reference.world.grid import Gridworld
>>> grid = Gridworld.from_strings(["....", ".@@.", "...."])
>>> subgoal_tree_arcs(grid, (2, 2), connectivity=4)
[((2, 2), (0, 3))]
>>> run = run_compiled(grid, (0, 1), (2, 2), "lrta_subgoal", connectivity=4)
>>> run.trace.trajectory, run.cost, [record.goal for record in run.trace.searches]
([(0, 1), (0, 2), (0, 3), (1, 3), (2, 3), (2, 2)], (5, 0), [(0, 3), (0, 3), (2, 2), (2, 2), (2, 2)])
>>> ALGORITHMS.planner("lrta_subgoal", connectivity=4, max_moves=100).run(grid, (0, 1), (2, 2)).moves
5
"""

from __future__ import annotations

import time
from functools import partial

import numpy as np

from reference.solutions.compiled.shortest_paths import astar_workspace as _search
from reference.solutions.registry import Registry, bind
from reference.world.grid import Cell, Gridworld

from .lrta import (NEAREST, PLAIN, SUB, KnownMapRun, LookaheadWorkspace, lrta_arrays, lrta_star, lrta_star_subgoaling,
                   reachable, reserve)
from .tree import CompiledTree, compiled_tree, every_tree_size, subgoal_tree_arcs, tree_arrays

__all__ = ["ALGORITHMS", "NEAREST", "PLAIN", "SUB", "CompiledTree", "KnownMapRun", "LookaheadWorkspace",
           "astar_run", "compiled_tree", "every_tree_size", "lrta_arrays", "lrta_star", "lrta_star_subgoaling",
           "reachable", "reserve", "run_compiled", "subgoal_tree_arcs", "tree_arrays"]


def astar_run(grid: Gridworld, start: Cell, goal: Cell, connectivity: int = 8) -> KnownMapRun:
    """A* on a known map as one planning episode, then the walk, compiled.

    The search is :mod:`..shortest_paths`' A* (the twin of the world's
    :func:`~reference.solutions.shortest_paths.astar`, ties toward the larger g). Timed: the search
    and the walk back along its tree (not the conversion of expansions into cells).

    Parameters
    ----------
    grid : Gridworld
    start, goal : Cell
        ``(row, col)`` of the agent's first cell and of the goal (both free).
    connectivity : {8, 4}

    Returns
    -------
    KnownMapRun
        One episode: every expansion of the search (``expanded``) and, if found, the path walked.

    Raises
    ------
    ValueError
        A start or goal blocked or outside the map; a connectivity other than 4 or 8.

    See Also
    --------
    reference.solutions.subgoaling.astar_run : the readable reference this twin mirrors.
    run_compiled : the same by name (``"astar"``).

    Examples
    --------
    >>> from reference.world.grid import Gridworld
    >>> run = astar_run(Gridworld.from_strings(["...", ".@.", "..."]), (1, 0), (1, 2), connectivity=4)
    >>> run.cost, run.episodes, run.trace.trajectory[0]
    ((4, 0), 1, (1, 0))
    """
    began = time.process_time()
    start, goal, workspace, found, cost, expansions = _search(grid.blocked, start, goal, connectivity, "larger_g")
    width = grid.width
    start_index, goal_index = start[0] * width + start[1], goal[0] * width + goal[1]
    path = [goal_index]
    if found:
        while path[-1] != start_index:
            path.append(int(workspace.tree[path[-1]]))
    seconds = time.process_time() - began
    trajectory = np.array(path[::-1] if found else [start_index], dtype=np.int64)
    return KnownMapRun("astar", width, trajectory, np.array([goal_index], dtype=np.int64), found,
                       cost if found else None, seconds, seconds, 1, workspace.expanded[:expansions].copy())


_SUBGOALING = bind(lrta_star_subgoaling)   # its first_goal and switch fixed by each name below

#: The twins by the readable package's names (:data:`reference.solutions.subgoaling.ALGORITHMS`), a
#: :class:`~reference.solutions.registry.Registry` as there: each maker takes keyword-only settings
#: (``connectivity``; ``max_moves`` for the LRTA* family; ``tree``, a :class:`CompiledTree`, and
#: ``first_goal``, ``switch`` for the subgoaling variants) and its planner runs ``run(grid, start, goal)``.
ALGORITHMS = Registry({
    "astar": bind(astar_run),
    "lrta": bind(lrta_star),
    "lrta_subgoal": partial(_SUBGOALING, first_goal="nearest"),
    "lrta_subgoal_sub": partial(_SUBGOALING, first_goal="sub"),
    "lrta_subgoal_arrival": partial(_SUBGOALING, first_goal="nearest", switch="on_arrival"),
    "lrta_subgoal_sub_arrival": partial(_SUBGOALING, first_goal="sub", switch="on_arrival"),
})

def run_compiled(grid: Gridworld, start: Cell, target: Cell, algorithm: str = "lrta_subgoal", *,
                 connectivity: int = 8, tree: CompiledTree | None = None,
                 max_moves: int | None = None) -> KnownMapRun:
    """Run the compiled twin of ``algorithm`` on the known map ``grid`` from ``start`` to ``target``.

    ``ALGORITHMS.planner(algorithm, **settings).run(grid, start, target)`` with those of the
    settings the planner takes (A* takes neither ``tree`` nor ``max_moves``, plain LRTA* no ``tree``).

    Parameters
    ----------
    grid : Gridworld
        The map; the agent knows it from the start.
    start, target : Cell
        ``(row, col)`` of the agent's first cell and of the goal (both free).
    algorithm : str
        A key of :data:`ALGORITHMS`: ``astar``, ``lrta``, ``lrta_subgoal`` (the default),
        ``lrta_subgoal_sub``, ``lrta_subgoal_arrival``, ``lrta_subgoal_sub_arrival``.
    connectivity : {8, 4}
        Moves: eight-connected (no corner cutting) or four-connected.
    tree : CompiledTree, optional
        The goal's subgoal tree (:func:`compiled_tree`) for the subgoaling variants; built here if
        not given (the experiments build it beforehand: it is preprocessing, not planning).
    max_moves : int, optional
        Stop the LRTA* family after this many moves (the run then ends unreached); A* ignores it.

    Returns
    -------
    KnownMapRun
        The walk as arrays (``trajectory``, ``episode_goals``), ``reached``, the exact ``cost``, the
        CPU times; ``run.trace`` builds the SPEC §8 trace, equal to the readable run's.

    Raises
    ------
    ValueError
        An unknown algorithm or connectivity; a start or goal blocked or outside the map; a tree
        built for another goal.

    See Also
    --------
    reference.solutions.subgoaling.run_algorithm : the readable reference this twin mirrors.
    reference.solutions.subgoaling.ALGORITHMS : the readable planners by the same names.

    Examples
    --------
    >>> from reference.world.grid import Gridworld
    >>> grid = Gridworld.from_strings(["....", ".@@.", "...."])
    >>> run = run_compiled(grid, (0, 1), (2, 2), connectivity=4)
    >>> run.trace.trajectory, run.cost
    ([(0, 1), (0, 2), (0, 3), (1, 3), (2, 3), (2, 2)], (5, 0))
    >>> run_compiled(grid, (0, 1), (2, 2), "astar", connectivity=4).moves
    5
    """
    settings = ALGORITHMS.those_taken(algorithm, connectivity=connectivity, tree=tree, max_moves=max_moves)
    return ALGORITHMS.planner(algorithm, **settings).run(grid, start, target)
