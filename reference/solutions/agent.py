"""The agent core: sense, plan, walk, record (SPEC §4, §6, §8), shared by every planner of the kit.

The agent looks around its start cell, then repeats: a planner searches on what the agent knows
and returns one search record (its path runs from the agent to the target, or is empty when the
target cannot be reached); the agent walks the path by the SPEC's walking rule and looks around
after every move. This is the Main procedure of the handout's Figure 4 (lines 18-34) with the
search left to the planner, so every readable planner that moves an agent moves the same way and
records the same trace: Repeated Forward/Backward A* and Adaptive A* (``replanning.py``); Korf's
LRTA*, Koenig's LRTA* and D* Lite (``realtime/``); A* on a known map, LRTA* with and without
subgoaling, kNN LRTA* and D LRTA* (``subgoaling/``); dynamic control's general LRTA* and Figure 8's
Koenig's LRTA*, prioritized LRTA* and PR LRTS (``dynamic/``, through its ``EpisodePlanner``). HAA*
answers a query on a known map and moves no agent. The compiled twins write this loop again in
Numba (``compiled/replanning.py``, ``compiled/realtime/agent.py``, ``compiled/subgoaling/lrta.py``,
``compiled/dynamic/lrta.py``), held to the readable traces by their tests.

A planner is any object with an ``algorithm`` and a ``tie_break`` (the names its trace carries)
and a method ``plan_episode(agent, knowledge, newly_blocked) -> SearchRecord``: ``agent`` is the
agent's cell, ``knowledge`` what it knows now, ``newly_blocked`` the blocked cells it has seen since
the last episode (for planners that repair an earlier search instead of searching anew).

>>> from reference.world import FogOfWarWorld, Gridworld, SearchRecord
>>> class StraightEast:                          # a planner that always plans one step east
...     algorithm, tie_break = "forward", "larger_g"
...     def plan_episode(self, agent, knowledge, newly_blocked):
...         step = (agent[0], agent[1] + 1)
...         return SearchRecord(agent, (0, 2), [agent], [agent, step])
>>> grid = Gridworld.from_strings(["..."])
>>> run_agent(FogOfWarWorld(grid, (0, 0)), (0, 0), (0, 2), StraightEast()).trajectory
[(0, 0), (0, 1), (0, 2)]
"""

from __future__ import annotations

from typing import Protocol

from reference.world.grid import Cell
from reference.world.sensing import AgentBody, Knowledge, World, cell_inside
from reference.world.trace import SearchRecord, Trace


class Planner(Protocol):
    """What the agent core needs of a planner: the names its trace carries, and one planning episode.

    ``plan_episode`` gets the agent's cell, what it knows now and the blocked cells it has seen since
    the last episode; it returns the episode's search record, whose path runs from the agent to the
    target (empty when the planner finds none).
    """

    algorithm: str
    tie_break: str

    def plan_episode(self, agent: Cell, knowledge: Knowledge, newly_blocked: list[Cell]) -> SearchRecord:
        ...


def run_agent(world: World, start: Cell, target: Cell, planner: Planner, knowledge: Knowledge | None = None,
              max_moves: int | None = None) -> Trace:
    """Move the agent from ``start`` until it reaches ``target`` or its planner finds no path.

    ``knowledge`` is what the agent knows before it starts (default: nothing). ``max_moves``: no
    planning episode begins once the agent has made that many moves (the run then ends unreached;
    default: no bound). Returns the SPEC §8 trace.
    """
    target = cell_inside(world, target, "target")
    agent = AgentBody(world, start, knowledge)  # SPEC §4: it looks around its start cell first
    searches: list[SearchRecord] = []
    while agent.cell != target:  # Figure 4, line 18
        if max_moves is not None and len(agent.trajectory) > max_moves:
            return Trace(planner.algorithm, planner.tie_break, False, agent.trajectory, searches)
        record = planner.plan_episode(agent.cell, agent.knowledge, agent.take_newly_blocked())
        searches.append(record)
        if not record.path:  # lines 27-29: "I cannot reach the target."
            return Trace(planner.algorithm, planner.tie_break, False, agent.trajectory, searches)
        agent.walk(record.path)  # lines 30-32: walk until the target or until the path is blocked
    return Trace(planner.algorithm, planner.tie_break, True, agent.trajectory, searches)  # line 33
