"""The real-time and incremental planners' common part: state on flat cell indices, and runs.

Koenig (2004, Section 2) describes one agent architecture for all the methods he compares: the
agent assumes that unobserved cells are unblocked (the freespace assumption), plans, moves along
the plan until it reaches its end or sees the plan blocked, and plans again from where it stands.
That is the kit's agent core (:func:`reference.solutions.agent.run_agent`), the loop Repeated A*
uses too; :class:`EpisodicAgent` plugs a real-time planner into it. A subclass only says how one
*planning episode* goes (:meth:`EpisodicAgent.plan`), on flat cell indices ``row * width + col``;
every episode becomes one :class:`~reference.world.trace.SearchRecord` of an ordinary trace
(SPEC §8), and the kit's replays, pictures and checks read it like any Repeated A* trace.

What the trace cannot hold (the planning time of each episode, the heuristic, the lookahead) lives
next to it in :class:`RealtimeRun`.

>>> from reference.world import FogOfWarWorld, Gridworld
>>> from reference.solutions.realtime import lrta_star
>>> grid = Gridworld.from_strings(["....", ".@@.", "...."])
>>> run = lrta_star(FogOfWarWorld(grid, (2, 0)), (2, 0), (0, 3))
>>> run.reached, run.moves, run.episodes == run.expansions     # lookahead one: one expansion per episode
(True, 5, True)
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from reference.world.grid import INFINITY, Cell
from reference.world.sensing import Knowledge, World, cell_inside
from reference.world.trace import TIE_BREAKS, SearchRecord, Trace

from ..agent import run_agent
from .heuristics import check_heuristic, flat_heuristic

__all__ = ["INFINITY", "EpisodicAgent", "RealtimeRun", "knowledge_of"]


@dataclass
class RealtimeRun:
    """A run of a real-time or incremental planner: the SPEC §8 trace plus what it cannot hold.

    ``planning_seconds[i]`` is the CPU time the planner spent in episode ``i`` (``trace.searches[i]``).
    The properties are the columns of Koenig's tables.
    """

    trace: Trace
    planning_seconds: list[float] = field(default_factory=list)
    heuristic: str = "strong"
    lookahead: int | None = None  # None: the planner plans all the way to the target (D* Lite)

    @property
    def reached(self) -> bool:
        return self.trace.reached

    @property
    def episodes(self) -> int:
        """Planning episodes: one per record of the trace."""
        return len(self.trace.searches)

    @property
    def expansions(self) -> int:
        return self.trace.expansions

    @property
    def moves(self) -> int:
        return self.trace.moves

    @property
    def planning_time(self) -> float:
        """Total planning time in seconds."""
        return sum(self.planning_seconds)

    def summary(self) -> dict[str, Any]:
        """The paper's columns (times in microseconds, as in its tables)."""
        microseconds = self.planning_time * 1e6
        episodes, moves = self.episodes, self.moves
        return {
            "algorithm": self.trace.algorithm, "heuristic": self.heuristic, "lookahead": self.lookahead,
            "reached": self.reached, "expansions": self.expansions, "episodes": episodes, "moves": moves,
            "expansions_per_episode": self.expansions / episodes if episodes else 0.0,
            "max_expansions_per_episode": max((len(s.expanded) for s in self.trace.searches), default=0),
            "moves_per_episode": moves / episodes if episodes else 0.0,
            "planning_us": microseconds,
            "planning_us_per_episode": microseconds / episodes if episodes else 0.0,
            "planning_us_per_move": microseconds / moves if moves else 0.0,
        }


def knowledge_of(grid) -> Knowledge:
    """Knowledge that holds every blocked cell of ``grid``: hand it to a planner for *known terrain*.

    >>> from reference.world import Gridworld
    >>> knowledge_of(Gridworld.from_strings([".@", ".."])).known_blocked()
    [(0, 1)]
    """
    return Knowledge.of_map(grid.blocked)


class EpisodicAgent:
    """A planner for the kit's agent core that plans in episodes (subclasses define :meth:`plan`).

    ``knowledge`` is what the agent knows before it starts: nothing (``None``, unknown terrain), or
    every blocked cell (:func:`knowledge_of`, known terrain). State lives in flat lists indexed by
    ``row * width + col``, allocated once per run; ``distance(a, b)`` is the heuristic on such indices.
    """

    algorithm = "?"          # the trace's algorithm name (registered in the package __init__)
    lookahead: int | None = None

    def __init__(self, world: World, start: Cell, target: Cell, heuristic: str = "strong",
                 tie_break: str = "larger_g", knowledge: Knowledge | None = None) -> None:
        check_heuristic(heuristic)
        if tie_break not in TIE_BREAKS:
            raise ValueError(f"tie_break must be 'larger_g' or 'smaller_g', got {tie_break!r}")
        self.world = world
        self.height, self.width = int(world.height), int(world.width)
        self.start_cell = cell_inside(world, start, "start")
        self.target_cell = cell_inside(world, target, "target")
        self.start = self.start_cell[0] * self.width + self.start_cell[1]
        self.target = self.target_cell[0] * self.width + self.target_cell[1]
        self.heuristic = heuristic
        self.distance = flat_heuristic(heuristic, self.width)
        self.tie_break = tie_break
        self.cell_count = self.height * self.width
        if knowledge is None:
            knowledge = Knowledge(self.height, self.width)
        elif (knowledge.height, knowledge.width) != (self.height, self.width):
            raise ValueError("the knowledge given does not have the grid's size")
        self.knowledge = knowledge
        self.planning_seconds: list[float] = []  # the CPU time of each episode

    @property
    def known_blocked_count(self) -> int:
        """How many cells the agent knows to be blocked."""
        return self.knowledge.blocked_count

    # -- what a planner defines -----------------------------------------------------------------

    def plan(self, agent: int) -> tuple[list[int], list[int]]:
        """One planning episode from the agent's cell: ``(expanded, path)``, flat indices.

        ``path`` starts at the agent's cell; an empty path means "the target cannot be reached".
        """
        raise NotImplementedError

    def see_blocked(self, cells: list[int]) -> None:
        """The blocked cells the agent has seen since the last episode (only D* Lite needs them)."""

    # -- the agent core's side --------------------------------------------------------------------

    def run(self) -> RealtimeRun:
        """Plan, walk, repeat (the kit's agent core) until the target is reached or found unreachable."""
        self.planning_seconds = []
        trace = run_agent(self.world, self.start_cell, self.target_cell, self, self.knowledge)
        return RealtimeRun(trace, self.planning_seconds, self.heuristic, self.lookahead)

    def plan_episode(self, agent: Cell, knowledge: Knowledge, newly_blocked: list[Cell]) -> SearchRecord:
        """The agent core's call: one episode (:meth:`plan`) on flat indices, as a trace record."""
        width = self.width
        self.see_blocked([row * width + col for row, col in newly_blocked])
        index = agent[0] * width + agent[1]
        began = time.process_time()  # CPU time: other programs on the machine do not inflate it
        expanded, path = self.plan(index)
        self.planning_seconds.append(time.process_time() - began)
        return self.record(index, expanded, path)

    def record(self, agent: int, expanded: list[int], path: list[int]) -> SearchRecord:
        """The episode as a trace record: searched from the agent toward the target (D* Lite overrides)."""
        width = self.width
        return SearchRecord(start=divmod(agent, width), goal=divmod(self.target, width),
                            expanded=[divmod(s, width) for s in expanded],
                            path=[divmod(s, width) for s in path])

    def free_neighbours(self, s: int) -> list[int]:
        """The neighbours of ``s`` that exist and are not known blocked, east, south, west, north
        (:meth:`Knowledge.successors <reference.world.sensing.Knowledge.successors>` on flat indices)."""
        width = self.width
        return [row * width + col for row, col in self.knowledge.successors(divmod(s, width))]
