"""Compiled twins of the real-time and incremental planners: the same traces, at compiled speed.

:func:`run_compiled` runs Korf's LRTA* (``"lrta"``), Koenig's LRTA* with A* or breadth-first
lookahead (``"lrta_astar"``, ``"lrta_bfs"``) or D* Lite (``"dstar_lite"``) for the fog-of-war agent
exactly as :func:`reference.solutions.realtime.run_algorithm` does, expansion for expansion
(SPEC §16; ``tests/solutions/realtime/test_realtime_compiled.py`` compares the two), with the
signature every compiled twin's ``run_compiled`` has: ``(grid, start, target, algorithm, *, settings)``.

The modules mirror ``reference/solutions/realtime/`` one for one: :mod:`.agent` (the run loop,
:class:`RealtimeRun`, :func:`run_compiled`), :mod:`.heuristics` (the grid on flat indices and the
two heuristics), :mod:`.lrta` (Korf's episode), :mod:`.lookahead` (Koenig's episode with an A* or
breadth-first lookahead) and :mod:`.dstar_lite` (D* Lite's episode and packed keys). The public
twins are here, as the readable ones are exported by the readable package (they call the run loop,
which calls the episodes: defined beside the episodes they would close a circle). The readable
package's public names mirror here: :data:`ALGORITHMS`, the same
:class:`~reference.solutions.registry.Registry` type (settings keyword-only, the problem to the
planner's ``run(grid, start, target)``), :func:`lrta_star`, :func:`lrta_star_lookahead`,
:func:`lrta_star_bfs`, :func:`dstar_lite` and :class:`RealtimeRun`. Read the readable planners in
``reference/solutions/realtime/`` first: every function here names the reference method it mirrors,
and the comments only explain what differs in form.

What differs in form, not in result:

- The world is the true grid (a flat ``uint8`` array) sensed inside compiled code exactly as
  :class:`~reference.world.sensing.FogOfWarWorld` senses it: the four neighbours east, south, west,
  north of the agent's cell.
- State lives in NumPy arrays indexed by ``row * width + col``; priority queues are the compiled
  indexed heaps of :mod:`reference.solutions.compiled.heap`: packed int64 keys for the lookahead
  searches, and for D* Lite's U ``(k1, k2, stamp)`` packed into one int64 too (:func:`dstar_stamp_bits`;
  on grids too large for that, the heap of three-part keys). The stamps, as the reference's, make
  every key distinct, so the pop order does not depend on the heap.
- The trace stays in int32 arrays with per-episode offsets (:class:`RealtimeRun`, the readable
  planners' result's name and properties); it becomes the kit's :class:`~reference.world.trace.Trace`
  only when asked (``run.trace``), since building millions of tuples costs more than the search.
- Planning time: reading the CPU-time clock costs ~0.4 us here, more than a whole lookahead-one
  episode, so the twin counts processor ticks instead (``rdtsc``, ~25 ns a read) around each episode's
  planning code and hands each episode its share of the run's CPU time:
  ``seconds[i] = ticks[i] / ticks of the whole run * CPU seconds of the whole run``.

>>> from reference.world import FogOfWarWorld, Gridworld
>>> from reference.solutions import realtime
>>> grid = Gridworld.from_strings(["....", ".@@.", "...."])
>>> [run_compiled(grid, (2, 0), (0, 3), name, lookahead=3).moves for name in ALGORITHMS]
[5, 5, 5, 5]
>>> run = run_compiled(grid, (2, 0), (0, 3), "dstar_lite")
>>> run.trace.searches[0].path
[(2, 0), (2, 1), (2, 2), (2, 3), (1, 3), (0, 3)]
>>> run.trace == realtime.dstar_lite(FogOfWarWorld(grid, (2, 0)), (2, 0), (0, 3)).trace
True
>>> ALGORITHMS.planner("lrta_astar", lookahead=3, heuristic="weak").run(grid, (2, 0), (0, 3)).moves
5
"""

from __future__ import annotations

from reference.world.grid import Cell, Gridworld
from reference.world.sensing import Knowledge

from ...registry import Registry, bind
from .agent import PLANNERS, RealtimeRun, run_compiled, warm_up
from .dstar_lite import dstar_stamp_bits, pack_dstar_key, unpack_dstar_key
from .heuristics import INFINITY

__all__ = ["ALGORITHMS", "INFINITY", "PLANNERS", "RealtimeRun", "dstar_lite", "dstar_stamp_bits", "lrta_star",
           "lrta_star_bfs", "lrta_star_lookahead", "pack_dstar_key", "run_compiled", "unpack_dstar_key", "warm_up"]


def lrta_star(grid: Gridworld, start: Cell, target: Cell, heuristic: str = "strong", tie_break: str = "larger_g",
              knowledge: Knowledge | None = None, *, record: bool = True) -> RealtimeRun:
    """Korf's LRTA* (lookahead one) for the fog-of-war agent, compiled: :func:`run_compiled` with ``"lrta"``.

    Parameters
    ----------
    grid : Gridworld
        The true grid; the agent senses it exactly as ``FogOfWarWorld`` does.
    start, target : Cell
        ``(row, col)`` of the agent's first cell (free) and of the target.
    heuristic : {"strong", "weak"}
        The initial values: Manhattan distance, or max(|dx|, |dy|).
    tie_break : {"larger_g", "smaller_g"}
        Recorded in the trace; it cannot matter here (every candidate has g = 1).
    knowledge : Knowledge, optional
        What the agent knows before it starts: nothing (default, unknown terrain), or
        :func:`~reference.solutions.realtime.knowledge_of` the grid (known terrain).
    record : bool
        False keeps the counts and the total planning time only, no trace.

    Returns
    -------
    RealtimeRun
        The counts, the planning time (``lookahead`` 1) and, recorded, the trace as arrays; ``run.trace``
        equals the readable planner's.

    Raises
    ------
    ValueError
        A start or target outside the grid, a blocked start, an unknown heuristic or tie rule, or
        knowledge of another size.

    See Also
    --------
    reference.solutions.realtime.lrta_star : the readable reference this twin mirrors.
    run_compiled : every compiled real-time planner by name (``"lrta"``), the settings described there.

    Examples
    --------
    >>> from reference.world import FogOfWarWorld, Gridworld
    >>> from reference.solutions import realtime
    >>> grid = Gridworld.from_strings(["...", ".@.", "..."])
    >>> run = lrta_star(grid, (2, 0), (0, 2))
    >>> run.reached, run.moves, run.episodes
    (True, 4, 4)
    >>> run.trace == realtime.lrta_star(FogOfWarWorld(grid, (2, 0)), (2, 0), (0, 2)).trace
    True
    """
    return run_compiled(grid, start, target, "lrta", heuristic=heuristic, tie_break=tie_break, knowledge=knowledge,
                        record=record)


def lrta_star_lookahead(grid: Gridworld, start: Cell, target: Cell, lookahead: int, heuristic: str = "strong",
                        tie_break: str = "larger_g", knowledge: Knowledge | None = None, successors: str = "fixed",
                        seed: int = 0, *, record: bool = True) -> RealtimeRun:
    """Koenig's LRTA* with an A* lookahead of ``lookahead`` expansions per planning episode, compiled:
    :func:`run_compiled` with ``"lrta_astar"``.

    Parameters
    ----------
    grid : Gridworld
        The true grid; the agent senses it exactly as ``FogOfWarWorld`` does.
    start, target : Cell
        ``(row, col)`` of the agent's first cell (free) and of the target.
    lookahead : int
        At most this many expansions per episode (at least 1).
    heuristic : {"strong", "weak"}
        The initial values: Manhattan distance, or max(|dx|, |dy|).
    tie_break : {"larger_g", "smaller_g"}
        The A* key's tie rule among equal f (SPEC §5).
    knowledge : Knowledge, optional
        What the agent knows before it starts: nothing (default), or
        :func:`~reference.solutions.realtime.knowledge_of` the grid (known terrain).
    successors : {"fixed", "random"}
        Generate successors east, south, west, north, or in a fresh random order per expansion.
    seed : int
        The random order's seed (the readable :class:`~reference.solutions.realtime.lookahead.SuccessorOrder`'s).
    record : bool
        False keeps the counts and the total planning time only, no trace.

    Returns
    -------
    RealtimeRun
        The counts, the planning time and, recorded, the trace as arrays; ``run.trace`` equals the
        readable planner's.

    Raises
    ------
    ValueError
        A lookahead below 1, a start or target outside the grid, a blocked start, an unknown
        heuristic, tie rule or successor order, or knowledge of another size.

    See Also
    --------
    reference.solutions.realtime.lrta_star_lookahead : the readable reference this twin mirrors.
    run_compiled : every compiled real-time planner by name (``"lrta_astar"``), the settings described there.

    Examples
    --------
    >>> from reference.world import Gridworld
    >>> grid = Gridworld.from_strings(["...", ".@.", "..."])
    >>> run = lrta_star_lookahead(grid, (2, 0), (0, 2), lookahead=4)
    >>> run.trace.trajectory, run.episodes    # as the readable planner's docstring shows
    ([(2, 0), (2, 1), (2, 2), (1, 2), (0, 2)], 1)
    """
    return run_compiled(grid, start, target, "lrta_astar", heuristic=heuristic, lookahead=lookahead,
                        knowledge=knowledge, tie_break=tie_break, record=record, successors=successors, seed=seed)


def lrta_star_bfs(grid: Gridworld, start: Cell, target: Cell, lookahead: int, heuristic: str = "strong",
                  tie_break: str = "larger_g", knowledge: Knowledge | None = None, successors: str = "fixed",
                  seed: int = 0, *, record: bool = True) -> RealtimeRun:
    """LRTA* whose local search space is the first ``lookahead`` states of a breadth-first search,
    compiled: :func:`run_compiled` with ``"lrta_bfs"``.

    Parameters
    ----------
    grid, start, target, lookahead, heuristic, knowledge, successors, seed, record
        As :func:`lrta_star_lookahead`.
    tie_break : {"larger_g", "smaller_g"}
        Orders the border states the agent may walk to.

    Returns
    -------
    RealtimeRun
        As :func:`lrta_star_lookahead`.

    Raises
    ------
    ValueError
        As :func:`lrta_star_lookahead`.

    See Also
    --------
    reference.solutions.realtime.lrta_star_bfs : the readable reference this twin mirrors.
    run_compiled : every compiled real-time planner by name (``"lrta_bfs"``), the settings described there.

    Examples
    --------
    >>> from reference.world import Gridworld
    >>> grid = Gridworld.from_strings(["...", ".@.", "..."])
    >>> run = lrta_star_bfs(grid, (2, 0), (0, 2), lookahead=4)
    >>> run.reached, run.moves, run.episodes    # as the readable planner's docstring shows
    (True, 4, 2)
    """
    return run_compiled(grid, start, target, "lrta_bfs", heuristic=heuristic, lookahead=lookahead,
                        knowledge=knowledge, tie_break=tie_break, record=record, successors=successors, seed=seed)


def dstar_lite(grid: Gridworld, start: Cell, target: Cell, heuristic: str = "strong",
               knowledge: Knowledge | None = None, *, record: bool = True) -> RealtimeRun:
    """D* Lite for the fog-of-war agent, searching from the target, compiled: :func:`run_compiled` with
    ``"dstar_lite"``.

    Parameters
    ----------
    grid : Gridworld
        The true grid; the agent senses it exactly as ``FogOfWarWorld`` does.
    start, target : Cell
        ``(row, col)`` of the agent's first cell (free) and of the target.
    heuristic : {"strong", "weak"}
        h(agent, s): Manhattan distance, or max(|dx|, |dy|).
    knowledge : Knowledge, optional
        What the agent knows before it starts: nothing (default), or
        :func:`~reference.solutions.realtime.knowledge_of` the grid (known terrain).
    record : bool
        False keeps the counts and the total planning time only, no trace.

    Returns
    -------
    RealtimeRun
        The counts, the planning time and, recorded, the trace as arrays: one record per planning
        episode, searched from the target toward the agent (``tie_break`` ``"smaller_g"``, ``lookahead``
        None); ``run.trace`` equals the readable planner's.

    Raises
    ------
    ValueError
        A start or target outside the grid, a blocked start, an unknown heuristic, or knowledge of
        another size.
    RuntimeError
        A D* Lite invariant broken inside the compiled code (a bug, never a property of the input).

    See Also
    --------
    reference.solutions.realtime.dstar_lite : the readable reference this twin mirrors.
    run_compiled : every compiled real-time planner by name (``"dstar_lite"``), the settings described there.

    Examples
    --------
    >>> from reference.world import FogOfWarWorld, Gridworld
    >>> from reference.solutions import realtime
    >>> grid = Gridworld.from_strings(["....", ".@@.", "...."])
    >>> dstar_lite(grid, (2, 0), (0, 3)).trace == realtime.dstar_lite(FogOfWarWorld(grid, (2, 0)), (2, 0), (0, 3)).trace
    True
    """
    return run_compiled(grid, start, target, "dstar_lite", heuristic=heuristic, knowledge=knowledge, record=record)


#: The twins by the readable package's names (:data:`reference.solutions.realtime.ALGORITHMS`), a
#: :class:`~reference.solutions.registry.Registry` as there: settings keyword-only (the readable
#: planner's, and ``record``), the problem to the planner's ``run(grid, start, target)``.
ALGORITHMS = Registry({
    "lrta": bind(lrta_star),
    "lrta_astar": bind(lrta_star_lookahead),
    "lrta_bfs": bind(lrta_star_bfs),
    "dstar_lite": bind(dstar_lite),
})
