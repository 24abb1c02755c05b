"""D* Lite, the optimized final version (Koenig and Likhachev 2002, Figure 4), for the fog-of-war agent.

D* Lite searches from the target toward the agent, so the root of its search never moves and the
g-values it has computed stay valid while the agent walks. Each state has g (its current distance
estimate to the target) and rhs (a one-step lookahead: ``min over successors s' of c(s, s') + g(s')``,
0 for the target). A state is *locally consistent* when g = rhs; the priority queue U holds the
inconsistent ones, keyed by ``[min(g, rhs) + h(agent, s) + km; min(g, rhs)]``. When the agent sees a
blocked cell, the costs of the edges into and out of it become infinite, the rhs-values of its
neighbours are repaired, and ComputeShortestPath re-expands only what the change affects. ``km``
grows by h(last, agent) at each repair, so the keys already in U stay lower bounds although the
agent (the heuristic's reference point) has moved.

The agent plans as in Koenig (2004, Section 3): a shortest presumed-unblocked path from its cell to
the target (following the smallest c + g, ties east, south, west, north), walked until the target
or until a cell on it is seen blocked (SPEC §6). Newly seen blocked cells are applied at the next
planning episode, all together, as the paper's Main allows. If rhs(agent) is infinite after
ComputeShortestPath, no presumed-unblocked path exists and the run reports it.

Trace record of an episode: the search's start is the target, its goal the agent; ``expanded`` lists
every state the episode made consistent or underconsistent (a state can appear twice: once raised,
once lowered). The keys break ties in the first component toward the smaller second one, as in the
paper (the order its correctness proof uses), so the trace's ``tie_break`` is ``"smaller_g"``. States
whose keys ``[k1; k2]`` tie leave U first in, first out (:meth:`DStarLite.queue_key`), so the order
of expansions is the algorithm's, not the heap's.

>>> from reference.world import FogOfWarWorld, Gridworld
>>> grid = Gridworld.from_strings([".....", "..@..", "..@@.", "..@@.", "...@."])  # handout Figure 2
>>> run = dstar_lite(FogOfWarWorld(grid, (4, 2)), (4, 2), (4, 4))
>>> run.reached, run.moves, run.episodes
(True, 12, 3)
"""

from __future__ import annotations

from reference.world.grid import Cell
from reference.world.sensing import Knowledge, World
from reference.world.trace import SearchRecord

from ..heap import BinaryHeap
from .agent import INFINITY, EpisodicAgent, RealtimeRun


class DStarLite(EpisodicAgent):
    """D* Lite (optimized final version) driving the SPEC's agent; ``plan`` is one episode of Main."""

    algorithm = "dstar_lite"

    def __init__(self, world: World, start: Cell, target: Cell, heuristic: str = "strong",
                 knowledge: Knowledge | None = None) -> None:
        super().__init__(world, start, target, heuristic, "smaller_g", knowledge)
        cells = self.cell_count
        self.g = [INFINITY] * cells    # Initialize(), lines 02-03: every g and rhs infinite
        self.rhs = [INFINITY] * cells
        self.queue: BinaryHeap = BinaryHeap()  # U, priorities (k1, k2, stamp) (see queue_key())
        self.stamp = 0  # the stamp of the latest U.Insert or U.Update
        self.km = 0
        self.last = -1  # s_last; -1 until the first episode
        self.expanded: list[int] = []
        self.newly_blocked: list[int] = []  # cells seen blocked since the last planning episode

    def key(self, s: int) -> tuple[int, int]:
        """CalculateKey(s) = [min(g, rhs) + h(agent, s) + km; min(g, rhs)] (Figure 4, line 01).

        Keys compare lexicographically, as the paper's do; both parts are infinite for a state
        whose g and rhs are.

        >>> from reference.world import FogOfWarWorld, Gridworld
        >>> planner = DStarLite(FogOfWarWorld(Gridworld.from_strings(["..."]), (0, 0)), (0, 0), (0, 2))
        >>> planner.agent, planner.rhs[2] = 0, 0
        >>> planner.key(2), planner.key(1) == (INFINITY, INFINITY)
        ((2, 0), True)
        """
        k2 = min(self.g[s], self.rhs[s])
        if k2 >= INFINITY:
            return INFINITY, INFINITY
        return k2 + self.distance(self.agent, s) + self.km, k2

    def queue_key(self, key: tuple[int, int]) -> tuple[int, int, int]:
        """U's priority for a state given ``key``: ``(k1, k2, stamp)``, with a fresh stamp.

        The rule: every U.Insert and every U.Update (Koenig and Likhachev 2002, Figure 4: line 06
        of Initialize, lines 07-08 of UpdateVertex, line 15 of ComputeShortestPath; the paper numbers
        them 06' ... 15') draws the next stamp, even when the key is unchanged, so among states
        whose keys tie the one inserted or updated first leaves U first. Keys can tie
        (many states lie at one distance), and without a stamp the heap's sifts would choose; with
        it the priorities are distinct and any correct heap pops the same order (the compiled twin's
        does). U.TopKey() (``min_priority()[:2]``, lines 11 and 13) is compared without the stamp.

        >>> from reference.world import FogOfWarWorld, Gridworld
        >>> planner = DStarLite(FogOfWarWorld(Gridworld.from_strings(["..."]), (0, 0)), (0, 0), (0, 2))
        >>> planner.queue_key((4, 1)), planner.queue_key((4, 1))
        ((4, 1, 1), (4, 1, 2))
        """
        self.stamp += 1
        return key[0], key[1], self.stamp

    def update_vertex(self, u: int) -> None:
        """UpdateVertex(u): U holds u exactly when u is locally inconsistent (Figure 4, lines 07-09)."""
        queue = self.queue
        if self.g[u] != self.rhs[u]:
            if u in queue:
                queue.update(u, self.queue_key(self.key(u)))
            else:
                queue.push(u, self.queue_key(self.key(u)))
        elif u in queue:
            queue.remove(u)

    def best_successor_cost(self, s: int) -> int:
        """min over successors s' of c(s, s') + g(s'); known-blocked cells have no edges."""
        g = self.g
        best = min((g[t] for t in self.free_neighbours(s)), default=INFINITY)
        return best + 1 if best < INFINITY else INFINITY  # infinity + 1 is still infinity

    def compute_shortest_path(self) -> None:
        """ComputeShortestPath (lines 10-28); records every expansion in ``self.expanded``."""
        g, rhs, queue, start, target = self.g, self.rhs, self.queue, self.agent, self.target
        blocked = self.knowledge.blocked
        while queue and (queue.min_priority()[:2] < self.key(start) or rhs[start] > g[start]):
            u = queue.peek()
            k_old, k_new = queue.min_priority()[:2], self.key(u)  # keys without their stamps
            if k_old < k_new:  # the key was computed with a smaller km: re-queue (line 15)
                queue.update(u, self.queue_key(k_new))
            elif g[u] > rhs[u]:  # overconsistent: lower g (lines 17-20)
                g[u] = rhs[u]
                queue.remove(u)
                self.expanded.append(u)
                for s in self.free_neighbours(u):
                    if s != target and rhs[s] > 1 + g[u]:
                        rhs[s] = 1 + g[u]
                    self.update_vertex(s)
            else:  # underconsistent: raise g to infinity and repair what depended on it (lines 22-28)
                g_old = g[u]
                g[u] = INFINITY
                self.expanded.append(u)
                predecessors = [] if blocked[u] else self.free_neighbours(u)  # a blocked cell has no edges
                for s in predecessors:
                    if s != target and rhs[s] == 1 + g_old:
                        rhs[s] = self.best_successor_cost(s)
                    self.update_vertex(s)
                self.update_vertex(u)  # rhs(u) does not depend on g(u); u may now be overconsistent

    def see_blocked(self, cells: list[int]) -> None:
        """Keep the blocked cells seen since the last episode for this episode's repair."""
        self.newly_blocked.extend(cells)

    def apply_blocked(self, cells: list[int]) -> None:
        """The edges into and out of each newly seen blocked cell now cost infinity (lines 41-47)."""
        g, rhs, target = self.g, self.rhs, self.target
        for b in cells:
            rhs[b] = INFINITY  # b has no outgoing edges any more (b is never the target)
            self.update_vertex(b)
            for v in self.free_neighbours(b):  # edge (v, b): its old cost was 1
                if v != target and rhs[v] == 1 + g[b]:
                    rhs[v] = self.best_successor_cost(v)
                    self.update_vertex(v)

    # -- one planning episode of Main (lines 29-48) ---------------------------------------------

    def plan(self, agent: int) -> tuple[list[int], list[int]]:
        self.agent = agent
        self.expanded = []
        if self.last < 0:  # Initialize (lines 02-06): the search starts at the target
            self.rhs[self.target] = 0
            self.queue.push(self.target, self.queue_key(self.key(self.target)))
        else:  # lines 38-47: account for the agent's move, then repair the edges that changed
            self.km += self.distance(self.last, agent)
            self.apply_blocked(self.newly_blocked)
        self.last = agent
        self.newly_blocked = []
        self.compute_shortest_path()
        return self.expanded, self.read_path(agent)

    def read_path(self, agent: int) -> list[int]:
        """From the agent, always to the neighbour with the smallest 1 + g (line 33); [] if rhs(agent) is infinite.

        The loop of ComputeShortestPath may stop with the agent's own state still overconsistent
        (its key ties with U's top key); its rhs-value is then its distance, and so it is tested.
        """
        g = self.g
        if self.rhs[agent] >= INFINITY:  # line 32: "there is no known path"
            return []
        path = [agent]
        while path[-1] != self.target:
            here = path[-1]
            step = min(self.free_neighbours(here), key=lambda t: g[t])  # min keeps the first of ties
            if g[step] >= g[here]:
                raise RuntimeError(f"D* Lite's g-values do not descend at {divmod(here, self.width)}")
            path.append(step)
        return path

    def record(self, agent: int, expanded: list[int], path: list[int]) -> SearchRecord:
        """D* Lite searches from the target (its start) toward the agent (its goal)."""
        width = self.width
        return SearchRecord(start=divmod(self.target, width), goal=divmod(agent, width),
                            expanded=[divmod(s, width) for s in expanded],
                            path=[divmod(s, width) for s in path])


def dstar_lite(world: World, start: Cell, target: Cell, heuristic: str = "strong",
               knowledge: Knowledge | None = None) -> RealtimeRun:
    """D* Lite for the fog-of-war agent (``knowledge`` for known terrain); see the module docstring.

    Parameters
    ----------
    world : World
        The public world object: ``height``, ``width`` and ``sense(cell)`` (SPEC §4).
    start, target : Cell
        ``(row, col)`` of the agent's first cell and of the target.
    heuristic : {"strong", "weak"}
        h(agent, s): Manhattan distance, or max(|dx|, |dy|).
    knowledge : Knowledge, optional
        What the agent knows before it starts: nothing (default), or
        :func:`~reference.solutions.realtime.knowledge_of` the grid (known terrain).

    Returns
    -------
    RealtimeRun
        The SPEC §8 trace: one record per planning episode, searched from the target toward the
        agent (ties toward the smaller g: ``tie_break`` is ``"smaller_g"``), and the planning times.

    Raises
    ------
    ValueError
        A start or target outside the grid, an unknown heuristic, or knowledge of another size.

    See Also
    --------
    lrta_star_lookahead : real-time search instead of incremental search.
    reference.solutions.compiled.realtime.dstar_lite : the compiled twin, the same trace (also
        ``run_compiled(..., "dstar_lite")``).

    Examples
    --------
    >>> from reference.world import FogOfWarWorld, Gridworld
    >>> grid = Gridworld.from_strings(["...", ".@.", "..."])
    >>> run = dstar_lite(FogOfWarWorld(grid, (2, 0)), (2, 0), (0, 2))
    >>> run.reached, run.moves, run.trace.searches[0].start    # the first search starts at the target
    (True, 4, (0, 2))
    """
    return DStarLite(world, start, target, heuristic, knowledge).run()
