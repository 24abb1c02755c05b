"""General LRTA* (Bulitko et al. 2007, Figure 1) on a known eight-connected map, octile h.

Figure 1, line by line, as :class:`GeneralLRTA` runs it with the kit's agent core
(:func:`~reference.solutions.agent.run_agent`, the loop every planner of the kit shares)::

    1 s <- s_start; s_g <- s_goal; d' <- d
    2 while s != s_goal do
    3     select search depth d' and goal s_g          (the controller)
    4     expand successor states up to d' actions away (breadth_first_layers)
    5     find s' with the lowest g(s, s') + h(s', s_g) (best_frontier, with path-max)
    6     update h(s, s_g) to g(s, s') + h(s', s_g)     (one table per goal, LearnedHeuristic)
    7     move s one step towards s'                    (first_step)

Line 4 is a breadth-first search with duplicate detection: layer k holds the states first reached
after exactly k actions, and ``g(s, n)`` is the cheapest cost among those k-action paths (a state's
parent is the first state of layer k-1, in expansion and successor order, giving that cost). The
frontier of a depth-d search is layer d, plus the goal if the search met it earlier (the goal is
never expanded); if the map ends before layer d, the deepest layer reached. Line 5 uses path-max:
``f(n) = max(f(parent), g(n) + h(n))`` with ``f(s) = h(s)``; ties go to the state reached first.
Line 6 raises h (never lowers it, which with a consistent h is the same as Korf's assignment).
A search to depth d expands the states of layers 0 .. d-1 (not the goal): that is the count per
action. All costs stay exact pairs ``(straight, diagonal)``; comparisons use ``cost_value``.

Because layer k depends only on layers below it, one search to depth D answers every depth d <= D:
:func:`choices_by_depth` uses that to label depths (decision trees) and to build pattern databases.

>>> import numpy as np
>>> blocked = np.zeros((3, 5), dtype=bool); blocked[0:2, 2] = True   # a wall with a gap at the bottom
>>> run = general_lrta(blocked, (0, 0), (0, 4), fixed_depth(3))
>>> run.reached, run.cost, run.path[:4]     # optimal: 4 straight + 2 diagonal (the gap takes straight moves)
(True, (4, 2), [(0, 0), (1, 1), (2, 1), (2, 2)])
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Generic, Hashable, Protocol, TypeVar

import numpy as np

from reference.world.grid import Cell, Cost, Gridworld, add_costs, cost_value, octile_cost, successors
from reference.world.sensing import Knowledge, KnownMapWorld
from reference.world.trace import SearchRecord

from ..agent import run_agent

ZERO: Cost = (0, 0)

#: A state of the searched graph: a cell on the map, or an abstract state (an int) for PR LRTS.
State = TypeVar("State", bound=Hashable)


class Graph(Protocol[State]):
    """What the lookahead searches: ``graph[s]`` lists ``(successor, exact cost)`` in successor order
    (:class:`Neighbours` on cells, :class:`~reference.solutions.dynamic.pr_lrts.AbstractMap` on
    abstract states)."""

    def __getitem__(self, state: State, /) -> list[tuple[State, Cost]]: ...


class Neighbours:
    """Every free cell's successors ``[(cell, cost), ...]`` in successor order, computed once.

    A lookup table over the world's :func:`~reference.world.grid.successors` (eight-connected, no
    corner cutting): building it once buys the thousands of lookahead searches per problem a
    dictionary lookup each instead of re-reading the NumPy array.
    """

    def __init__(self, blocked: np.ndarray) -> None:
        self.blocked = np.asarray(blocked, dtype=bool)
        self.table: dict[Cell, list[tuple[Cell, Cost]]] = {
            (int(r), int(c)): successors(self.blocked, (int(r), int(c)), 8)
            for r, c in zip(*np.nonzero(~self.blocked))
        }

    def __getitem__(self, cell: Cell) -> list[tuple[Cell, Cost]]:
        return self.table[cell]


class LearnedHeuristic:
    """h(s, goal): octile distance until LRTA* raises it; one table per goal (Figure 1, line 6)."""

    def __init__(self) -> None:
        self.tables: dict[Cell, dict[Cell, Cost]] = {}

    def __call__(self, cell: Cell, goal: Cell) -> Cost:
        table = self.tables.get(goal)
        if table is not None and cell in table:
            return table[cell]
        return octile_cost(cell, goal)

    def raise_to(self, cell: Cell, goal: Cell, value: Cost) -> bool:
        """Set h(cell, goal) to ``value`` if that is higher; True if it changed."""
        if cost_value(value) <= cost_value(self(cell, goal)):
            return False
        self.tables.setdefault(goal, {})[cell] = value
        return True


@dataclass
class Layers(Generic[State]):
    """The breadth-first search of Figure 1, line 4, from ``root`` to ``depth`` actions."""

    root: State
    goal: State
    layers: list[list[State]]         # layers[k]: the states first reached after k actions
    g: dict[State, Cost]              # g(root, n): cheapest among the fewest-action paths
    parent: dict[State, State]
    goal_layer: int | None            # the layer holding the goal, if the search met it

    def expanded(self, depth: int) -> list[State]:
        """The states a depth-``depth`` search expands, in expansion order (see :meth:`expansions`)."""
        return [cell for layer in self.layers[:depth] for cell in layer if cell != self.goal]

    def expansions(self, depth: int) -> int:
        """States a depth-``depth`` search expands: layers 0 .. depth-1, never the goal."""
        count = sum(len(layer) for layer in self.layers[:depth])
        if self.goal_layer is not None and self.goal_layer < depth:
            count -= 1
        return count


def breadth_first_layers(neighbours: Graph[State], root: State, goal: State, depth: int) -> Layers[State]:
    """Layers 0 .. ``depth`` of the breadth-first search with duplicate detection (line 4).

    >>> import numpy as np
    >>> look = breadth_first_layers(Neighbours(np.zeros((3, 3), dtype=bool)), (1, 1), (0, 0), 2)
    >>> [len(layer) for layer in look.layers], look.goal_layer, look.expansions(2)
    ([1, 8], 1, 8)
    """
    g = {root: ZERO}
    parent: dict[State, State] = {}
    layer_of = {root: 0}
    layers = [[root]]
    goal_layer = 0 if root == goal else None
    for k in range(1, depth + 1):
        next_layer: list[State] = []
        for cell in layers[-1]:
            if cell == goal:  # the goal is a frontier state, never expanded
                continue
            g_cell = g[cell]
            for child, step in neighbours[cell]:
                g_child = add_costs(g_cell, step)
                seen_at = layer_of.get(child)
                if seen_at is None:
                    layer_of[child] = k
                    g[child] = g_child
                    parent[child] = cell
                    next_layer.append(child)
                    if child == goal:
                        goal_layer = k
                elif seen_at == k and cost_value(g_child) < cost_value(g[child]):
                    g[child] = g_child  # a cheaper path with the same number of actions
                    parent[child] = cell
        if not next_layer:
            break
        layers.append(next_layer)
    return Layers(root, goal, layers, g, parent, goal_layer)


@dataclass
class Choice(Generic[State]):
    """What a depth-d search decides: the frontier state s' (line 5), its f, the first step (line 7)."""

    depth: int
    target: State
    f: Cost
    step: State
    expansions: int


def choices_by_depth(look: Layers[State], h: Callable[[State], Cost],
                     depths: range | list[int]) -> dict[int, Choice[State]]:
    """The choice of Figure 1, lines 5 and 7, for every depth in ``depths`` from one search.

    ``h(cell)`` is the heuristic toward the search's goal. f uses path-max along the search tree.
    """
    f: dict[State, Cost] = {look.root: h(look.root)}
    for layer in look.layers[1:]:
        for cell in layer:  # parents lie in the previous layer, so theirs is already known
            own = add_costs(look.g[cell], h(cell))
            inherited = f[look.parent[cell]]
            f[cell] = own if cost_value(own) >= cost_value(inherited) else inherited
    chosen = {}
    deepest = len(look.layers) - 1
    for depth in depths:
        frontier = list(look.layers[min(depth, deepest)])
        if look.goal_layer is not None and 0 < look.goal_layer < min(depth, deepest):
            frontier.insert(0, look.goal)  # met earlier, so inserted before layer d's states
        if not frontier or depth == 0 or deepest == 0:
            continue
        best = frontier[0]
        for cell in frontier[1:]:
            if cost_value(f[cell]) < cost_value(f[best]):
                best = cell
        chosen[depth] = Choice(depth, best, f[best], first_step(look, best), look.expansions(depth))
    return chosen


def first_step(look: Layers[State], target: State) -> State:
    """The state one action from the root on the search tree's path to ``target`` (line 7)."""
    cell = target
    while look.parent[cell] != look.root:
        cell = look.parent[cell]
    return cell


Controller = Callable[["Agent"], tuple[int, Cell]]
"""Line 3 of Figure 1: given the agent, the depth d' and the goal s_g for this step."""


@dataclass
class Agent:
    """The state an LRTA* agent carries: where it is, its learned h, and its recent history."""

    neighbours: Neighbours
    start: Cell
    goal: Cell
    h: LearnedHeuristic = field(default_factory=LearnedHeuristic)
    path: list[Cell] = field(default_factory=list)
    raised: list[bool] = field(default_factory=list)    # did step t raise h?
    depths: list[int] = field(default_factory=list)
    expansions: list[int] = field(default_factory=list)
    goals: list[Cell] = field(default_factory=list)     # the goal s_g each action searched toward
    cost: Cost = ZERO
    subgoal: Cell | None = None   # an intermediate goal a controller has committed to
    used_subgoals: set[Cell] = field(default_factory=set)   # every intermediate goal taken so far

    @property
    def state(self) -> Cell:
        return self.path[-1]


@dataclass
class Run:
    """One LRTA* run: did it reach the goal, the exact cost, and the work per action."""

    reached: bool
    cost: Cost
    path: list[Cell]
    depths: list[int]
    expansions: list[int]
    goals: list[Cell] = field(default_factory=list)   # per action: the goal its search aimed at (line 3)

    @property
    def actions(self) -> int:
        return len(self.path) - 1

    @property
    def mean_expansions(self) -> float:
        return sum(self.expansions) / len(self.expansions) if self.expansions else 0.0

    @property
    def max_expansions(self) -> int:
        return max(self.expansions, default=0)


def apply(agent: Agent, choice: Choice[Cell], goal: Cell) -> None:
    """Line 6 (raise h(s, s_g) to f(s')) and line 7 (one step toward s'), with the bookkeeping."""
    state = agent.state
    agent.raised.append(agent.h.raise_to(state, goal, choice.f))
    step_cost = next(cost for cell, cost in agent.neighbours[state] if cell == choice.step)
    agent.cost = add_costs(agent.cost, step_cost)
    agent.path.append(choice.step)
    agent.depths.append(choice.depth)
    agent.expansions.append(choice.expansions)
    agent.goals.append(goal)


class GeneralLRTA:
    """General LRTA* (Figure 1) as a planner of the kit's agent core
    (:func:`~reference.solutions.agent.run_agent`, lines 1-2 and the move of line 7).

    Settings, keyword-only: ``controller`` (line 3), ``max_actions`` (the run ends unreached after
    that many actions), and ``neighbours``, the map's successor table when the caller has built it
    once for many runs (else :meth:`run` builds it). Each planning episode is lines 3-7 once.
    """

    algorithm = "lrta"
    tie_break = "larger_g"   # every trace names one; the lookahead breaks its own ties

    def __init__(self, *, controller: Controller, max_actions: int = 100_000,
                 neighbours: Neighbours | None = None) -> None:
        self.controller = controller
        self.max_actions = max_actions
        self.neighbours = neighbours

    def run(self, world: KnownMapWorld, start: Cell, goal: Cell) -> Run:
        """Move the agent in ``world`` (eight-connected, known) from ``start`` until it reaches ``goal``,
        has no move, or has made ``max_actions`` actions."""
        neighbours = checked_neighbours(self.neighbours if self.neighbours is not None else world.blocked, start, goal)
        self.agent = Agent(neighbours, start, goal, path=[start])                      # line 1
        run_agent(world, start, goal, self, world.knowledge(), self.max_actions)      # line 2
        agent = self.agent
        return Run(agent.state == goal, agent.cost, agent.path, agent.depths, agent.expansions, agent.goals)

    def plan_episode(self, cell: Cell, knowledge: Knowledge, newly_blocked: list[Cell]) -> SearchRecord:
        """Lines 3-7 of Figure 1 once, from the agent's ``cell``; the record's path is the one move
        (empty when the agent has no move)."""
        agent = self.agent
        depth, goal = self.controller(agent)                                # line 3
        if goal == agent.state:
            goal = agent.goal
        depth = max(1, depth)
        look = breadth_first_layers(agent.neighbours, cell, goal, depth)    # line 4
        choice = choices_by_depth(look, lambda near: agent.h(near, goal), [depth]).get(depth)  # line 5
        if choice is None:
            return SearchRecord(start=cell, goal=goal, expanded=[], path=[])
        apply(agent, choice, goal)                                          # lines 6-7
        return SearchRecord(start=cell, goal=goal, expanded=look.expanded(depth), path=[cell, choice.step])


def checked_neighbours(blocked: np.ndarray | Neighbours, start: Cell, goal: Cell) -> Neighbours:
    """The successor table of ``blocked`` (built unless given), once the start and goal are checked free.

    >>> checked_neighbours(np.ones((2, 2), dtype=bool), (0, 0), (1, 1))
    Traceback (most recent call last):
    ...
    ValueError: the start (0, 0) is blocked or outside the map
    """
    neighbours = blocked if isinstance(blocked, Neighbours) else Neighbours(blocked)
    for label, cell in (("start", start), ("goal", goal)):
        if cell not in neighbours.table:
            raise ValueError(f"the {label} {cell} is blocked or outside the map")
    return neighbours


class EpisodePlanner:
    """A planner of the kit's agent core whose episodes plan a path and walk it whole: Figure 8's
    baselines (:mod:`.koenig_lrta`, :mod:`.prioritized_lrta`, :mod:`.pr_lrts`), on known maps.

    A subclass defines :meth:`plan` (one episode from the agent's cell: the states it expanded, the
    path to walk, ``agent`` first, and the expansions to book) and sets ``depth``, the run's per-action
    depth column. :meth:`run` moves the agent with :func:`~reference.solutions.agent.run_agent` and
    books each episode's expansions on its first action, 0 on the others it walks, so the mean per
    action is the total over the actions and the maximum is the largest episode. The agent stops
    unreached after ``max_actions`` actions (an episode's path is cut to the actions left) or when an
    episode finds no move.
    """

    algorithm = "lrta"
    tie_break = "larger_g"   # every trace names one; each planner breaks its own ties
    depth = 1

    def __init__(self, *, max_actions: int = 100_000) -> None:
        self.max_actions = max_actions

    def plan(self, agent: Cell) -> tuple[list[Cell], list[Cell], int]:
        """One episode from ``agent``: ``(expanded states, path from agent, expansions to book)``."""
        raise NotImplementedError

    def run(self, blocked: np.ndarray | Neighbours, start: Cell, goal: Cell) -> Run:
        """Move the agent from ``start`` until it reaches ``goal``, has no move, or has made ``max_actions`` actions."""
        self.neighbours = checked_neighbours(blocked, start, goal)
        self.goal = goal
        self.expansions: list[int] = []
        height, width = self.neighbours.blocked.shape
        world = KnownMapWorld(Gridworld(height, width, self.neighbours.blocked), start, 8)
        path = run_agent(world, start, goal, self, world.knowledge(), self.max_actions).trajectory
        cost = ZERO
        for here, there in zip(path, path[1:]):
            cost = add_costs(cost, (0, 1) if here[0] != there[0] and here[1] != there[1] else (1, 0))
        actions = len(self.expansions)
        return Run(path[-1] == goal, cost, path, [self.depth] * actions, self.expansions, [goal] * actions)

    def plan_episode(self, cell: Cell, knowledge: Knowledge, newly_blocked: list[Cell]) -> SearchRecord:
        """The agent core's call: :meth:`plan` once, the path cut to the actions left (empty: no move)."""
        expanded, path, booked = self.plan(cell)
        path = path[:self.max_actions - len(self.expansions) + 1]
        if len(path) < 2:
            return SearchRecord(start=cell, goal=self.goal, expanded=expanded, path=[])
        self.expansions += [booked] + [0] * (len(path) - 2)
        return SearchRecord(start=cell, goal=self.goal, expanded=expanded, path=path)


def general_lrta(blocked: np.ndarray | Neighbours, start: Cell, goal: Cell, controller: Controller, *,
                 max_actions: int = 100_000) -> Run:
    """Run general LRTA* (:class:`GeneralLRTA`) from ``start`` to ``goal``; ``controller`` is line 3.

    Stops unreached after ``max_actions`` actions, or when the agent has no move.

    Parameters
    ----------
    blocked : numpy.ndarray or Neighbours
        The map's boolean blocked array (eight-connected, no corner cutting), or its successor
        table built once for many runs.
    start, goal : Cell
        Free ``(row, col)`` cells of the map.
    controller : Controller
        Line 3 of Figure 1: ``controller(agent) -> (depth, goal)`` before every action
        (:func:`fixed_depth`, a decision tree, a pattern database).
    max_actions : int
        The run ends unreached after this many actions.

    Returns
    -------
    Run
        Reached or not, the exact cost, the path, and per action its depth, expansions and goal.

    Raises
    ------
    ValueError
        A start or goal that is blocked or outside the map.

    See Also
    --------
    reference.solutions.compiled.dynamic.lrta.general_lrta_compiled : the twin with the compiled lookahead
        (the same run; ``run_fixed`` and ``run_database`` compile the controller too).
    reference.solutions.dynamic.koenig_lrta.koenig_lrta : Koenig's LRTA*, a Figure 8 baseline.

    Examples
    --------
    >>> blocked = np.zeros((3, 5), dtype=bool); blocked[0:2, 2] = True
    >>> run = general_lrta(blocked, (0, 0), (0, 4), fixed_depth(3))
    >>> run.reached, run.cost, run.depths[:2]
    (True, (4, 2), [3, 3])
    """
    neighbours = checked_neighbours(blocked, start, goal)
    height, width = neighbours.blocked.shape
    grid = Gridworld(height, width, neighbours.blocked)
    planner = GeneralLRTA(controller=controller, max_actions=max_actions, neighbours=neighbours)
    return planner.run(KnownMapWorld(grid, start, 8), start, goal)


def fixed_depth(depth: int) -> Controller:
    """Plain LRTA*: the same depth and the global goal at every step (Korf's for depth 1)."""

    def control(agent: Agent) -> tuple[int, Cell]:
        return depth, agent.goal

    return control
