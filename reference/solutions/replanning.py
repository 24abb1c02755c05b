"""Repeated Forward A*, Repeated Backward A* and Adaptive A* (SPEC §5-7), to be read beside Figure 4.

The handout's Figure 4 has two procedures. Main (lines 14-34) is the agent's loop: search, walk,
search again; it lives in :func:`reference.solutions.agent.run_agent`, which every planner of the kit
shares. ComputePath (lines 1-13) and the set-up of each search (lines 19-25) are here, in
:class:`RepeatedAStar`: one ``plan_episode`` is one A* search on what the agent knows. Comments
cite the figure's line numbers.

- Cells are ``(row, col)`` tuples; g, tree and search(s) are dictionaries, so a search touches
  only the states it generates (lazy initialisation, lines 6-8: no pass over the grid).
- OPEN is the from-scratch :class:`~reference.solutions.heap.BinaryHeap`, ordered by the SPEC's
  keys ``(f, -g, stamp)`` for ``larger_g`` and ``(f, g, stamp)`` for ``smaller_g``; the stamp counts
  this search's insertions into OPEN, so no two keys are equal and every correct implementation
  expands the same states in the same order.
- Speed is the compiled twin's job (:mod:`reference.solutions.compiled.replanning`): this is the
  answer key students receive, so it stays the plain figure.
- Why not the kit's one best-first search (:mod:`reference.solutions.best_first`, the known-map
  A*): the figure's own lines are the point here (counter and search(s) carried from search to
  search, g-values that line 7 resets, whole-number costs, h learned by Adaptive A*), written out
  so that each line number can be found.

>>> from reference.world import FogOfWarWorld, Gridworld
>>> grid = Gridworld.from_strings([".....", "..@..", "..@@.", "..@@.", "...@."])  # the handout's Figure 2
>>> trace = repeated_forward_astar(FogOfWarWorld(grid, (4, 2)), (4, 2), (4, 4))
>>> trace.reached, [len(s.expanded) for s in trace.searches][:2]
(True, [10, 13])
"""

from __future__ import annotations

from reference.world.grid import INFINITY, Cell, manhattan
from reference.world.sensing import Knowledge, World, cell_inside
from reference.world.trace import TIE_BREAKS, SearchRecord, Trace

from .agent import run_agent
from .heap import BinaryHeap

Key = tuple[int, int, int]


def smallest_f(open_list: BinaryHeap) -> int:
    """The smallest f-value in OPEN; the minimum over an empty OPEN is infinity (Figure 4, line 2).

    A key's first part is its state's f-value, so the smallest key holds the smallest f.

    >>> open_list = BinaryHeap()
    >>> smallest_f(open_list) == INFINITY
    True
    >>> open_list.push((0, 0), (7, -2, 1)); smallest_f(open_list)
    7
    """
    return open_list.min_priority()[0] if open_list else INFINITY


class RepeatedAStar:
    """The planner of Figure 4: each planning episode is one A* search on the agent's knowledge.

    ``direction`` is ``"forward"`` (search from the agent to the target) or ``"backward"`` (from the
    target to the agent); ``adaptive`` turns on Adaptive A*'s learned h-values (forward only).
    :meth:`run` moves the agent through ``world`` with the kit's agent core and returns the SPEC §8
    trace.
    """

    def __init__(self, world: World, start: Cell, target: Cell, direction: str = "forward",
                 adaptive: bool = False,
                 tie_break: str = "larger_g") -> None:
        if direction not in ("forward", "backward"):
            raise ValueError(f"direction must be 'forward' or 'backward', got {direction!r}")
        if adaptive and direction != "forward":
            raise ValueError("Adaptive A* searches forward: its h-values estimate distances to a fixed target")
        if tie_break not in TIE_BREAKS:
            raise ValueError(f"tie_break must be 'larger_g' or 'smaller_g', got {tie_break!r}")
        self.world = world
        self.start = cell_inside(world, start, "start")
        self.target = cell_inside(world, target, "target")
        self.direction = direction
        self.adaptive = adaptive
        self.tie_break = tie_break
        self.algorithm = "adaptive" if adaptive else direction
        # Lines 15-17: counter := 0 and search(s) := 0 for every state. A state missing from the
        # dictionary `search` has search(s) = 0; g and tree hold only states some search generated.
        self.counter = 0
        self.search: dict[Cell, int] = {}
        self.g: dict[Cell, int] = {}
        self.tree: dict[Cell, Cell] = {}
        self.learned_h: dict[Cell, int] = {}  # Adaptive A*: h(s) learned by the searches so far

    def run(self) -> Trace:
        """Move the agent from its start until it reaches the target or knows it cannot (lines 14-34)."""
        return run_agent(self.world, self.start, self.target, self)

    # -- one search: lines 19-30 ------------------------------------------------------------------

    def plan_episode(self, agent: Cell, knowledge: Knowledge, newly_blocked: list[Cell]) -> SearchRecord:
        """One A* search from where the agent stands, on what it knows now (``newly_blocked`` is not
        needed: each search asks ``knowledge`` afresh)."""
        self.counter += 1  # line 19
        if self.direction == "forward":
            s_start, s_goal = agent, self.target
        else:
            s_start, s_goal = self.target, agent
        self.g[s_start] = 0  # line 20
        self.search[s_start] = self.counter  # line 21
        self.g[s_goal] = INFINITY  # line 22
        self.search[s_goal] = self.counter  # line 23
        open_list, closed = BinaryHeap(), []  # line 24
        open_list.push(s_start, self.key(s_start, s_goal, stamp=0))  # line 25: OPEN's first insertion
        self.compute_path(open_list, closed, s_goal, knowledge)  # line 26
        if not open_list:  # line 27: "I cannot reach the target."
            return SearchRecord(s_start, s_goal, closed, [])
        if self.adaptive:
            self.learn_h_values(closed, s_goal)
        return SearchRecord(s_start, s_goal, closed, self.path(s_start, s_goal))

    def compute_path(self, open_list: BinaryHeap, closed: list[Cell], s_goal: Cell, knowledge: Knowledge) -> None:
        """ComputePath (lines 1-13): A* until no state in OPEN has a smaller f than g(s_goal)."""
        stamp = 0  # this search's insertions into OPEN so far (s_start's, at line 25, was number 0)
        while self.g[s_goal] > smallest_f(open_list):  # line 2
            s = open_list.pop()  # line 3: the smallest key
            closed.append(s)  # line 4: one expansion
            # Line 5: the actions lead east, south, west and north; known blocked cells have none.
            for successor in knowledge.successors(s):
                if self.search.get(successor, 0) < self.counter:  # line 6: not yet generated by this search
                    self.g[successor] = INFINITY  # line 7
                    self.search[successor] = self.counter  # line 8
                if self.g[successor] > self.g[s] + 1:  # line 9: every action costs 1
                    self.g[successor] = self.g[s] + 1  # line 10
                    self.tree[successor] = s  # line 11
                    stamp += 1
                    if successor in open_list:  # line 12: remove it and insert it anew, in one step
                        open_list.update(successor, self.key(successor, s_goal, stamp))
                    else:  # line 13
                        open_list.push(successor, self.key(successor, s_goal, stamp))

    def key(self, s: Cell, s_goal: Cell, stamp: int) -> Key:
        """The SPEC §5 key of ``s`` entering OPEN as its ``stamp``-th insertion: ``(f, -g, stamp)`` or
        ``(f, g, stamp)``.

        Keys compare part by part: the smaller f first; among equal f the larger g (``larger_g``)
        or the smaller g (``smaller_g``); among those the state inserted first.
        """
        g = self.g[s]
        f = g + self.h(s, s_goal)
        return (f, -g, stamp) if self.tie_break == "larger_g" else (f, g, stamp)

    def h(self, s: Cell, s_goal: Cell) -> int:
        """The Manhattan distance to the search's goal, or the h-value Adaptive A* learned for ``s``."""
        if s in self.learned_h:
            return self.learned_h[s]
        return manhattan(s, s_goal)

    def path(self, s_start: Cell, s_goal: Cell) -> list[Cell]:
        """Line 30: follow the tree pointers from s_goal to s_start; return the agent-to-target path."""
        path = [s_goal]
        while path[-1] != s_start:
            path.append(self.tree[path[-1]])
        # Forward: the pointers lead from the target back to the agent, so reverse them.
        # Backward: they lead from the agent to the target, already in walking order.
        return path[::-1] if self.direction == "forward" else path

    def learn_h_values(self, closed: list[Cell], s_goal: Cell) -> None:
        """Adaptive A* (SPEC §7): every expanded state gets h(s) := g(s_goal) - g(s)."""
        for s in closed:
            self.learned_h[s] = self.g[s_goal] - self.g[s]


def repeated_forward_astar(world: World, start: Cell, target: Cell, tie_break: str = "larger_g") -> Trace:
    """Repeated Forward A*: each search runs from the agent's cell to the target (Figure 4).

    Parameters
    ----------
    world : World
        The public world object: ``height``, ``width`` and ``sense(cell)`` (SPEC §4).
    start, target : Cell
        ``(row, col)`` of the agent's first cell and of the target.
    tie_break : {"larger_g", "smaller_g"}
        Which of two cells with equal f is expanded first (SPEC §6).

    Returns
    -------
    Trace
        The SPEC §8 trace: every search's expansions and path, the agent's trajectory.

    Raises
    ------
    ValueError
        If ``start`` or ``target`` lies outside the grid, or ``tie_break`` is unknown.

    See Also
    --------
    repeated_backward_astar, adaptive_astar : the other two variants.
    run_compiled : the kit's compiled twin (``compiled/replanning.py``), which returns the same trace.

    Examples
    --------
    >>> from reference.world import FogOfWarWorld, Gridworld
    >>> grid = Gridworld.from_strings(["...", ".@.", "..."])
    >>> trace = repeated_forward_astar(FogOfWarWorld(grid, (2, 0)), (2, 0), (0, 2))
    >>> trace.reached, trace.trajectory[-1], len(trace.searches)
    (True, (0, 2), 1)
    """
    return RepeatedAStar(world, start, target, "forward", False, tie_break).run()


def repeated_backward_astar(world: World, start: Cell, target: Cell, tie_break: str = "larger_g") -> Trace:
    """Repeated Backward A*: each search runs from the target to the agent's cell.

    Parameters and result as :func:`repeated_forward_astar`.

    See Also
    --------
    repeated_forward_astar : the same agent, searching forward.
    run_compiled : the kit's compiled twin, with ``algorithm="backward"``.
    """
    return RepeatedAStar(world, start, target, "backward", False, tie_break).run()


def adaptive_astar(world: World, start: Cell, target: Cell, tie_break: str = "larger_g") -> Trace:
    """Adaptive A*: Repeated Forward A* whose h-values learn from each search (SPEC §7).

    Parameters and result as :func:`repeated_forward_astar`.

    See Also
    --------
    repeated_forward_astar : the same searches without learning.
    run_compiled : the kit's compiled twin, with ``algorithm="adaptive"``.
    """
    return RepeatedAStar(world, start, target, "forward", True, tie_break).run()
