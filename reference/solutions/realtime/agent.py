"""The agent loop shared by every real-time and incremental planner: plan an episode, walk, repeat.

Koenig (2004, Section 2) describes one agent architecture for all the methods he compares: the
agent assumes that unobserved cells are unblocked (the freespace assumption), plans, moves along
the plan until it reaches its end or sees the plan blocked, and plans again from where it stands.
:class:`EpisodicAgent` is that loop; a planner subclass only says how one *planning episode* goes
(:meth:`EpisodicAgent.plan`). The walking rule is the SPEC's (§6), so every episode becomes one
:class:`~reference.world.trace.SearchRecord` of an ordinary trace (SPEC §8), and the kit's replays,
pictures and checks read it like any Repeated A* trace.

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

from reference.world.grid import Cell
from reference.world.sensing import Knowledge, World, cell_inside
from reference.world.trace import TIE_BREAKS, SearchRecord, Trace

from .heuristics import check_heuristic, flat_heuristic

#: A value larger than any path length, so that comparisons in inner loops stay int-to-int.
INFINITY = 1 << 62


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
    knowledge = Knowledge(grid.height, grid.width)
    knowledge.observe((int(r), int(c)) for r, c in zip(*grid.blocked.nonzero()))
    return knowledge


class EpisodicAgent:
    """The fog-of-war agent of SPEC §4 that plans in episodes (subclasses define :meth:`plan`).

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
        start, target = cell_inside(world, start, "start"), cell_inside(world, target, "target")
        self.start = start[0] * self.width + start[1]
        self.target = target[0] * self.width + target[1]
        self.heuristic = heuristic
        self.distance = flat_heuristic(heuristic, self.width)
        self.tie_break = tie_break
        self.cell_count = self.height * self.width
        if knowledge is None:
            knowledge = Knowledge(self.height, self.width)
        elif (knowledge.height, knowledge.width) != (self.height, self.width):
            raise ValueError("the knowledge given does not have the grid's size")
        self.knowledge = knowledge
        self.known_blocked_count = sum(knowledge.blocked)

    # -- what a planner defines -----------------------------------------------------------------

    def plan(self, agent: int) -> tuple[list[int], list[int]]:
        """One planning episode from the agent's cell: ``(expanded, path)``, flat indices.

        ``path`` starts at the agent's cell; an empty path means "the target cannot be reached".
        """
        raise NotImplementedError

    # -- the loop ------------------------------------------------------------------------------

    def run(self) -> RealtimeRun:
        """Plan, walk, repeat until the target is reached or the planner reports it unreachable."""
        width = self.width
        agent = self.start
        self.observe(agent)  # SPEC §4: the agent looks around before the first episode
        trajectory = [agent]
        records: list[SearchRecord] = []
        seconds: list[float] = []
        reached = True
        while agent != self.target:
            began = time.process_time()  # CPU time: other programs on the machine do not inflate it
            expanded, path = self.plan(agent)
            seconds.append(time.process_time() - began)
            records.append(self.record(agent, expanded, path))
            if not path:
                reached = False
                break
            agent = self.walk(path, trajectory)
        trace = Trace(self.algorithm, self.tie_break, reached, [divmod(s, width) for s in trajectory], records)
        return RealtimeRun(trace, seconds, self.heuristic, self.lookahead)

    def record(self, agent: int, expanded: list[int], path: list[int]) -> SearchRecord:
        """The episode as a trace record: searched from the agent toward the target (D* Lite overrides)."""
        width = self.width
        return SearchRecord(start=divmod(agent, width), goal=divmod(self.target, width),
                            expanded=[divmod(s, width) for s in expanded],
                            path=[divmod(s, width) for s in path])

    def observe(self, cell: int) -> list[int]:
        """Sense around ``cell`` (where the agent stands); remember and return newly seen blocked cells."""
        seen = self.world.sense(divmod(cell, self.width))
        new = [row * self.width + col for row, col in self.knowledge.observe(seen)]
        self.known_blocked_count += len(new)
        return new

    def walk(self, path: list[int], trajectory: list[int]) -> int:
        """SPEC §6: follow ``path`` (agent first) to its end, or until a cell ahead is seen blocked."""
        position_on_path = {cell: i for i, cell in enumerate(path)}
        agent = path[0]
        for step in range(1, len(path)):
            agent = path[step]
            trajectory.append(agent)
            if any(position_on_path.get(cell, -1) > step for cell in self.observe(agent)):
                break
        return agent

    def free_neighbours(self, s: int) -> list[int]:
        """The neighbours of ``s`` that exist and are not known blocked, east, south, west, north."""
        width, blocked = self.width, self.knowledge.blocked
        col = s % width
        result = []
        if col != width - 1 and not blocked[s + 1]:
            result.append(s + 1)
        if s + width < self.cell_count and not blocked[s + width]:
            result.append(s + width)
        if col != 0 and not blocked[s - 1]:
            result.append(s - 1)
        if s >= width and not blocked[s - width]:
            result.append(s - width)
        return result
