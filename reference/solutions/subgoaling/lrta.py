"""LRTA* on a known map (Korf 1990; the paper's Algorithm 1) and LRTA* with subgoaling (Algorithm 3).

Both plan with lookahead one: each planning episode expands the agent's state ``s`` only (one
expansion, the real-time bound), picks the successor ``y`` minimising ``c(s, y) + h(y, goal)``
(ties: the first in successor order, E, SE, S, SW, W, NW, N, NE), raises ``h(s, goal)`` to
``c(s, y) + h(y, goal)`` if that is larger, and moves to ``y``. The map is known, so the costs never
change (Algorithm 1's line 3 has nothing to do).

With subgoaling the goal changes: it starts at a state of the goal's subgoal tree (line 5) and,
whenever the agent stands on a tree state, becomes that state's parent in the tree (line 8), until
the agent reaches the real goal. h-values are kept per goal (``h(s, goal)``), created lazily from
the heuristic (octile eight-connected, Manhattan four-connected) and never lowered.

Both are planners of the kit's agent core (:func:`~reference.solutions.agent.run_agent`), the loop
every planner shares: the agent stands in a :class:`~reference.world.sensing.KnownMapWorld` and knows
the map from the start. Every episode becomes one :class:`~reference.world.trace.SearchRecord`
(start: where the agent stood; goal: the goal it pursued; expanded: that state; path: the one move),
so the kit's pictures and replays serve these runs as they serve the fog-of-war planners.

>>> from reference.world.grid import Gridworld
>>> grid = Gridworld.from_strings(["....", ".@@.", "...."])
>>> run = lrta_star_subgoaling(grid, (0, 1), (2, 2), connectivity=4)
>>> run.trace.trajectory
[(0, 1), (0, 2), (0, 3), (1, 3), (2, 3), (2, 2)]
>>> [record.goal for record in run.trace.searches]     # the subgoal (0, 3) first, then the goal
[(0, 3), (0, 3), (2, 2), (2, 2), (2, 2)]
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from reference.world.grid import Cell, Cost, Gridworld, add_costs, cost_value, distances_from, heuristic_cost, successors
from reference.world.sensing import Knowledge, KnownMapWorld
from reference.world.trace import SearchRecord, Trace

from ..agent import run_agent

from .tree import SubgoalTree, build_subgoal_tree

#: Algorithm 3's line 5 as the paper writes it, and the alternative the kit offers (docs/subgoaling.md).
FIRST_GOALS = ("nearest", "sub")
#: Algorithm 3's line 8 as the paper writes it (switch to ``nextgoal(s)`` on *any* tree state), and
#: the alternative the kit offers (switch only on reaching the goal pursued). As written, the agent can
#: be sent back and forth between two tree states for ever (tests/solutions/subgoaling/test_subgoaling.py has a map).
SWITCHES = ("any_tree_state", "on_arrival")


@dataclass
class KnownMapRun:
    """A run on a known map: the SPEC §8 trace (one record per planning episode) and what it cannot hold.

    ``cost`` is the exact cost of the agent's trajectory (None if it did not reach the goal);
    ``planning_seconds[i]`` is the CPU time of episode ``i``.
    """

    trace: Trace
    cost: Cost | None
    planning_seconds: list[float] = field(default_factory=list)

    @property
    def reached(self) -> bool:
        return self.trace.reached

    @property
    def moves(self) -> int:
        return self.trace.moves

    @property
    def expansions(self) -> int:
        return self.trace.expansions

    @property
    def episodes(self) -> int:
        return len(self.trace.searches)

    @property
    def first_goal(self) -> Cell | None:
        """The goal of the first planning episode (None: there was none)."""
        return self.trace.searches[0].goal if self.trace.searches else None

    @property
    def first_episode_seconds(self) -> float:
        return self.planning_seconds[0] if self.planning_seconds else 0.0

    @property
    def total_seconds(self) -> float:
        return sum(self.planning_seconds)


def check_ends(grid: Gridworld, start: Cell, goal: Cell) -> None:
    """A ValueError unless ``start`` and ``goal`` are free cells of ``grid``."""
    for name, cell in (("start", start), ("goal", goal)):
        if not grid.in_bounds(cell) or grid.is_blocked(cell):
            raise ValueError(f"the {name} {cell} is blocked or outside the {grid.height} x {grid.width} map")


class KnownMapLRTA:
    """Korf's LRTA* (Algorithm 1) on a known map: a planner for the kit's agent core.

    Settings, keyword-only: ``max_moves`` bounds a run (it then ends unreached). :meth:`run` moves
    the agent through a :class:`~reference.world.sensing.KnownMapWorld` (four- or eight-connected)
    with :func:`~reference.solutions.agent.run_agent`; each planning episode (:meth:`plan_episode`)
    expands the agent's state once and returns the one move. h-values are kept per goal, created
    lazily from the heuristic.
    """

    algorithm = "lrta"
    tie_break = "larger_g"   # every trace names one; lookahead one has no ties on g to break

    def __init__(self, *, max_moves: int | None = None) -> None:
        self.max_moves = max_moves

    def run(self, world: KnownMapWorld, start: Cell, goal: Cell) -> KnownMapRun:
        """Move the agent from ``start`` until it stands on ``goal`` (or ``max_moves`` moves)."""
        grid = world.grid
        check_ends(grid, start, goal)
        self.grid, self.goal, self.connectivity = grid, goal, world.connectivity
        self.h_tables: dict[Cell, dict[Cell, Cost]] = {}   # goal -> {state: learned h(state, goal)}
        self.pursued: Cell | None = None                     # the goal of the last episode
        self.cost: Cost = (0, 0)
        self.planning_seconds: list[float] = []
        # the map is known (the same components for 4 and 8 moves): an unreachable goal ends the run
        # before any planning episode
        if goal not in distances_from(grid, start):
            return KnownMapRun(Trace(self.algorithm, self.tie_break, False, [start], []), None, [])
        trace = run_agent(world, start, goal, self, world.knowledge(), self.max_moves)
        return KnownMapRun(trace, self.cost if trace.reached else None, self.planning_seconds)

    def plan_episode(self, agent: Cell, knowledge: Knowledge, newly_blocked: list[Cell]) -> SearchRecord:
        """The agent core's call: one planning episode from ``agent`` (the map is known, so
        ``knowledge`` holds it all and nothing is ever newly blocked)."""
        began = time.process_time()   # CPU time: other programs on the machine do not inflate it
        self.pursued = self.choose_goal(agent, self.pursued)
        y, move = self.step(agent, self.pursued)
        self.planning_seconds.append(time.process_time() - began)
        self.cost = add_costs(self.cost, move)   # on a known map the agent always makes the planned move
        return SearchRecord(start=agent, goal=self.pursued, expanded=[agent], path=[agent, y])

    def h(self, state: Cell, goal: Cell) -> Cost:
        table = self.h_tables.setdefault(goal, {})
        value = table.get(state)
        return value if value is not None else heuristic_cost(state, goal, self.connectivity)

    def step(self, s: Cell, goal: Cell) -> tuple[Cell, Cost]:
        """One planning episode (Algorithm 1, lines 4-5; Algorithm 3, lines 9-10): the successor to
        move to and the cost of that move."""
        best, best_move, best_cost, best_value = s, (0, 0), None, 0.0
        for w, move in successors(self.grid.blocked, s, self.connectivity):
            cost = add_costs(move, self.h(w, goal))
            value = cost_value(cost)
            if best_cost is None or value < best_value:     # strict: ties to the first in successor order
                best, best_move, best_cost, best_value = w, move, cost, value
        if best_cost is not None and best_value > cost_value(self.h(s, goal)):
            self.h_tables[goal][s] = best_cost
        return best, best_move

    def choose_goal(self, s: Cell, goal: Cell | None) -> Cell:
        """The goal to pursue from ``s`` (plain LRTA*: always the real goal)."""
        return self.goal


class SubgoalingLRTA(KnownMapLRTA):
    """Algorithm 3: LRTA* that pursues the subgoals of the goal's tree in turn.

    Settings, keyword-only: ``tree`` (the goal's subgoal tree, built by :meth:`run` if not given),
    ``first_goal``, ``switch`` (see :func:`lrta_star_subgoaling`) and ``max_moves``.
    """

    def __init__(self, *, tree: SubgoalTree | None = None, first_goal: str = "nearest",
                 switch: str = "any_tree_state", max_moves: int | None = None) -> None:
        super().__init__(max_moves=max_moves)
        if first_goal not in FIRST_GOALS:
            raise ValueError(f"first_goal must be one of {', '.join(FIRST_GOALS)}, got {first_goal!r}")
        if switch not in SWITCHES:
            raise ValueError(f"switch must be one of {', '.join(SWITCHES)}, got {switch!r}")
        self.tree, self.first_goal, self.switch = tree, first_goal, switch
        # the trace's name: lrta_subgoal, plus _sub and/or _arrival for the alternatives
        self.algorithm = "lrta_subgoal" + ("_sub" if first_goal == "sub" else "") + (
            "_arrival" if switch == "on_arrival" else "")

    def run(self, world: KnownMapWorld, start: Cell, goal: Cell) -> KnownMapRun:
        check_ends(world.grid, start, goal)
        if self.tree is None:   # preprocessing, not planning time
            self.goal_tree = build_subgoal_tree(world.grid, goal, world.connectivity)
        elif self.tree.goal != goal:
            raise ValueError(f"the subgoal tree is for the goal {self.tree.goal}, not {goal}")
        else:
            self.goal_tree = self.tree
        return super().run(world, start, goal)

    def first(self, s0: Cell) -> Cell:
        """Line 5: ``argmin over the tree's states of h(s0, s)`` (ties: the root, then the earliest
        subgoal), or with ``first_goal="sub"`` the subgoal Algorithm 2 gave the start, ``Sub(s0)``."""
        if self.first_goal == "sub":
            return self.goal_tree.sub[s0]
        return min(self.goal_tree.states, key=lambda state: cost_value(heuristic_cost(s0, state, self.connectivity)))

    def choose_goal(self, s: Cell, goal: Cell | None) -> Cell:
        if goal is None:
            goal = self.first(s)                 # lines 1-5, in the first planning episode
        nextgoal = self.goal_tree.nextgoal(s)    # line 8
        if nextgoal is not None and (self.switch == "any_tree_state" or s == goal):
            return nextgoal
        return goal


def lrta_star(grid: Gridworld, start: Cell, goal: Cell, connectivity: int = 8,
              max_moves: int | None = None) -> KnownMapRun:
    """Korf's LRTA* with lookahead one on a known map (Algorithm 1): :class:`KnownMapLRTA`.

    ``max_moves`` bounds the run (it then ends unreached); an unreachable goal ends it at once.

    >>> from reference.world.grid import Gridworld
    >>> run = lrta_star(Gridworld.from_strings(["...", ".@.", "..."]), (1, 0), (1, 2))
    >>> run.trace.trajectory, run.cost   # S and N tie; S comes first. No diagonal: each cuts the block's corner
    ([(1, 0), (2, 0), (2, 1), (2, 2), (1, 2)], (4, 0))
    """
    check_ends(grid, start, goal)
    return KnownMapLRTA(max_moves=max_moves).run(KnownMapWorld(grid, start, connectivity), start, goal)


def lrta_star_subgoaling(grid: Gridworld, start: Cell, goal: Cell, connectivity: int = 8,
                         tree: SubgoalTree | None = None, first_goal: str = "nearest",
                         max_moves: int | None = None, switch: str = "any_tree_state") -> KnownMapRun:
    """LRTA* with subgoaling (Algorithm 3) on a known map: :class:`SubgoalingLRTA`.

    ``tree``: the goal's subgoal tree (built here with :func:`build_subgoal_tree` if not given; the
    paper builds every tree beforehand, so its time is not planning time). ``first_goal``:
    ``"nearest"`` (line 5 as written) or ``"sub"`` (``Sub(start)`` from the same Dijkstra).
    ``switch``: ``"any_tree_state"`` (line 8 as written: it can cycle for ever, so pass
    ``max_moves``) or ``"on_arrival"`` (the next subgoal only once the current one is reached:
    every leg is plain LRTA* toward a fixed goal, so the run ends).
    The trace's name: ``lrta_subgoal``, plus ``_sub`` and/or ``_arrival`` for the alternatives.
    """
    planner = SubgoalingLRTA(tree=tree, first_goal=first_goal, switch=switch, max_moves=max_moves)
    check_ends(grid, start, goal)
    return planner.run(KnownMapWorld(grid, start, connectivity), start, goal)
