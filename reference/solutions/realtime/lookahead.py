"""Koenig's LRTA* with an A* (or breadth-first) lookahead and a Dijkstra value update.

Koenig (2004), Figure 2, one planning episode from the agent's cell:

1. *Local search space.* An A* search from the agent toward the target, with f = g + value, until
   ``lookahead`` states have been expanded or the target is about to be expanded. The expanded
   states are the local search space; the generated but unexpanded ones (A*'s OPEN) are its border.
2. *Value update.* Dijkstra's algorithm, started from the border with each border state's value,
   sets the value of every state of the local search space to the minimum over border states s of
   (distance to s inside the space) + value(s).
3. *Move.* Follow a path to the border state that minimises distance + value: that is the state A*
   would expand next (the top of OPEN), and the path is A*'s tree path to it, so ties are broken
   "along the edges of the A* search tree". The agent walks it until it leaves the local search
   space (the path's last cell) or sees the path blocked (SPEC §6).
4. Repeat until the agent stands on the target.

Values are created lazily from the heuristic and kept across episodes. With a consistent
heuristic they stay consistent and never exceed the true presumed-free distance, which gives two
sound "cannot reach the target" tests: A*'s OPEN runs empty (everything the agent could reach has
been searched), or the agent's value reaches the number of cells not known to be blocked.

``local_search="bfs"`` replaces step 1 by a breadth-first search (Koenig's Table 4): no priority
queue, the first ``lookahead`` states in breadth-first order. The A* keys follow SPEC §5:
``(f, -g, stamp)`` for ``larger_g``, ``(f, g, stamp)`` for ``smaller_g``; the BFS variant uses the
same order to choose among its border states.

The real-time bound: no episode expands more than ``lookahead`` states.

Why step 1 and step 2 are not the kit's one best-first search
(:func:`~reference.solutions.best_first.best_first_search`): step 1 stops after ``lookahead``
expansions or when the target is *about to be* expanded (it peeks at OPEN's top), its OPEN at the
stop is the result (the border and the state to walk to), it never re-generates an expanded state,
its successors may come in a fresh random order per expansion, and its g-values live in flat lists
reused from episode to episode (stamped with the episode: no clearing); the compiled twin mirrors
exactly this loop. Step 2 is a Dijkstra from many sources at once, on integer values, that stops
once the local search space is settled. Its heap keys are plain values without a stamp: which of
two equal keys pops first cannot change a value (each state ends with its least distance), and
only the values leave step 2.

``successors="random"`` generates each expanded state's successors in a random order instead of
east, south, west, north (Koenig's Section 8: "it is beneficial for LRTA* with small lookaheads to
generate the successors of states during the A* search in a random order rather than a fixed
one"). The order comes from :class:`SuccessorOrder`, a seeded splitmix64 stream that the compiled
twin computes bit for bit, so the two engines make the same runs.

>>> from reference.world import FogOfWarWorld, Gridworld
>>> grid = Gridworld.from_strings([".....", "..@..", "..@@.", "..@@.", "...@."])  # handout Figure 2
>>> run = lrta_star_lookahead(FogOfWarWorld(grid, (4, 2)), (4, 2), (4, 4), lookahead=3)
>>> run.reached, max(len(s.expanded) for s in run.trace.searches) <= 3
(True, True)
"""

from __future__ import annotations

from collections import deque

from reference.world.grid import DIRECTIONS, Cell
from reference.world.sensing import Knowledge, World

from ..heap import BinaryHeap
from .agent import INFINITY, EpisodicAgent, RealtimeRun

LOCAL_SEARCHES = ("astar", "bfs")
SUCCESSOR_ORDERS = ("fixed", "random")
_MASK = (1 << 64) - 1


class SuccessorOrder:
    """A seeded random order of the four directions for every expansion (splitmix64, Fisher-Yates).

    Each call of :meth:`directions` draws three numbers and shuffles ``[0, 1, 2, 3]`` (east, south,
    west, north) from the back: position i swaps with the draw modulo i + 1.

    >>> order = SuccessorOrder(seed=1)
    >>> [order.directions() for _ in range(3)]
    [[2, 0, 3, 1], [1, 2, 0, 3], [3, 2, 0, 1]]
    """

    def __init__(self, seed: int) -> None:
        self.state = int(seed) & _MASK

    def next(self) -> int:
        """The next 64-bit number of the splitmix64 stream."""
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def directions(self) -> list[int]:
        order = [0, 1, 2, 3]
        for i in (3, 2, 1):
            j = self.next() % (i + 1)
            order[i], order[j] = order[j], order[i]
        return order


class LookaheadLRTA(EpisodicAgent):
    """LRTA* whose episodes search ``lookahead`` states, update their values, and walk out of them."""

    lookahead: int  # always set here (the base class's None means "no lookahead": D* Lite)

    def __init__(self, world: World, start: Cell, target: Cell, lookahead: int, heuristic: str = "strong",
                 local_search: str = "astar", tie_break: str = "larger_g",
                 knowledge: Knowledge | None = None, successors: str = "fixed", seed: int = 0) -> None:
        super().__init__(world, start, target, heuristic, tie_break, knowledge)
        if int(lookahead) < 1:
            raise ValueError(f"the lookahead must be at least 1, got {lookahead}")
        if local_search not in LOCAL_SEARCHES:
            raise ValueError(f"local_search must be 'astar' or 'bfs', got {local_search!r}")
        if successors not in SUCCESSOR_ORDERS:
            raise ValueError(f"successors must be 'fixed' or 'random', got {successors!r}")
        self.lookahead = int(lookahead)
        self.local_search = local_search
        self.order = SuccessorOrder(seed) if successors == "random" else None
        self.algorithm = "lrta_astar" if local_search == "astar" else "lrta_bfs"
        cells = self.cell_count
        self.value = [-1] * cells  # the learned values; -1: not created yet, use the heuristic
        self.g = [INFINITY] * cells
        self.tree = [-1] * cells
        self.generated_in = [0] * cells  # number of the last episode that generated the cell
        self.expanded_in = [0] * cells   # number of the last episode that expanded it
        self.episode = 0

    def h(self, s: int) -> int:
        value = self.value[s]
        return value if value >= 0 else self.distance(s, self.target)

    def successors_of(self, s: int) -> list[int]:
        """The free neighbours of ``s`` in the order the search generates them: east, south, west,
        north, or a fresh random order per expansion (``successors="random"``)."""
        free = self.free_neighbours(s)
        if self.order is None:
            return free
        width = self.width
        row, column = divmod(s, width)
        ordered = []
        for direction in self.order.directions():  # drawn even where a neighbour is missing: same stream
            r, c = row + DIRECTIONS[direction][0], column + DIRECTIONS[direction][1]
            if 0 <= c < width and r * width + c in free:
                ordered.append(r * width + c)
        return ordered

    def key(self, f: int, g: int, stamp: int) -> tuple[int, int, int]:
        """SPEC §5's key: ``(f, -g, stamp)`` for ``larger_g``, ``(f, g, stamp)`` for ``smaller_g``."""
        return (f, -g, stamp) if self.tie_break == "larger_g" else (f, g, stamp)

    # -- one planning episode -------------------------------------------------------------------

    def plan(self, agent: int) -> tuple[list[int], list[int]]:
        self.episode += 1
        if self.local_search == "astar":
            expanded, generated, best = self.astar_space(agent)
        else:
            expanded, generated, best = self.bfs_space(agent)
        if best < 0:
            return expanded, []  # step 1 searched everything reachable without meeting the target
        self.update_values(expanded, generated)  # step 2: the border is generated minus expanded
        if self.value[agent] >= self.cell_count - self.known_blocked_count:
            return expanded, []  # the agent's value exceeds every simple path: unreachable
        path = [best]  # step 3: the A* (or BFS) tree path from the agent to the chosen border state
        while path[-1] != agent:
            path.append(self.tree[path[-1]])
        path.reverse()
        return expanded, path

    def astar_space(self, agent: int) -> tuple[list[int], list[int], int]:
        """Step 1: A* from the agent until ``lookahead`` expansions or the target is next.

        Returns the expanded states in order, the generated states, and the state A* would expand
        next (-1 if OPEN ran empty).
        """
        g, tree, generated_in, expanded_in = self.g, self.tree, self.generated_in, self.expanded_in
        episode, target, h, key = self.episode, self.target, self.h, self.key
        open_list: BinaryHeap = BinaryHeap()
        g[agent], generated_in[agent] = 0, episode
        generated = [agent]
        stamp = 0
        open_list.push(agent, key(h(agent), 0, stamp))
        expanded: list[int] = []
        while open_list and len(expanded) < self.lookahead:
            s = open_list.peek()
            if s == target:
                break  # "until the goal state is about to be expanded"
            open_list.pop()
            expanded.append(s)
            expanded_in[s] = episode
            g_next = g[s] + 1
            for t in self.successors_of(s):  # east, south, west, north (or random)
                if expanded_in[t] == episode:
                    continue  # consistent values: an expanded state's g is already the smallest
                if generated_in[t] != episode:
                    generated_in[t], g[t] = episode, INFINITY
                    generated.append(t)
                if g[t] > g_next:
                    g[t], tree[t] = g_next, s
                    stamp += 1
                    if t in open_list:
                        open_list.update(t, key(g_next + h(t), g_next, stamp))
                    else:
                        open_list.push(t, key(g_next + h(t), g_next, stamp))
        best = open_list.peek() if open_list else -1
        return expanded, generated, best

    def bfs_space(self, agent: int) -> tuple[list[int], list[int], int]:
        """Step 1 with breadth-first search: the first ``lookahead`` states in BFS order.

        The border state to walk to is the one with the smallest key ``(g + value, ...)``; -1 if the
        queue ran empty.
        """
        g, tree, generated_in, expanded_in = self.g, self.tree, self.generated_in, self.expanded_in
        episode, target = self.episode, self.target
        g[agent], generated_in[agent] = 0, episode
        generated = [agent]
        queue = deque([agent])
        expanded: list[int] = []
        while queue and len(expanded) < self.lookahead:
            s = queue[0]
            if s == target:
                break  # the target is about to be expanded
            queue.popleft()
            expanded.append(s)
            expanded_in[s] = episode
            for t in self.successors_of(s):
                if generated_in[t] != episode:
                    generated_in[t], g[t], tree[t] = episode, g[s] + 1, s
                    generated.append(t)
                    queue.append(t)
        if not queue:
            return expanded, generated, -1
        h, key = self.h, self.key
        # The queue holds the border in insertion order, so its position is the stamp.
        best = min(range(len(queue)), key=lambda i: key(g[queue[i]] + h(queue[i]), g[queue[i]], i))
        return expanded, generated, queue[best]

    def update_values(self, expanded: list[int], generated: list[int]) -> None:
        """Step 2: Dijkstra from the border sets value(s) = min over border b of dist(s, b) + value(b)."""
        value, expanded_in, episode, h = self.value, self.expanded_in, self.episode, self.h
        heap: BinaryHeap = BinaryHeap()
        for b in generated:
            if expanded_in[b] != episode:  # a border state: its value is fixed
                value[b] = h(b)
                heap.push(b, value[b])
        for s in expanded:
            value[s] = INFINITY
        unsettled = len(expanded)
        while heap and unsettled:  # stop once every state of the local search space is settled
            s = heap.pop()
            if expanded_in[s] == episode:
                unsettled -= 1
            through_s = value[s] + 1
            for t in self.free_neighbours(s):
                if expanded_in[t] == episode and value[t] > through_s:
                    value[t] = through_s
                    if t in heap:
                        heap.update(t, through_s)
                    else:
                        heap.push(t, through_s)


def lrta_star_lookahead(world: World, start: Cell, target: Cell, lookahead: int, heuristic: str = "strong",
                        tie_break: str = "larger_g", knowledge: Knowledge | None = None, successors: str = "fixed",
                        seed: int = 0) -> RealtimeRun:
    """Koenig's LRTA* with an A* lookahead of ``lookahead`` expansions per planning episode.

    Parameters
    ----------
    world : World
        The public world object: ``height``, ``width`` and ``sense(cell)`` (SPEC §4).
    start, target : Cell
        ``(row, col)`` of the agent's first cell and of the target.
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
        The random order's seed (:class:`SuccessorOrder`).

    Returns
    -------
    RealtimeRun
        The SPEC §8 trace (one record per planning episode) and each episode's planning time.

    Raises
    ------
    ValueError
        A lookahead below 1, a start or target outside the grid, an unknown heuristic, tie rule or
        successor order, or knowledge of another size.

    See Also
    --------
    lrta_star_bfs : the same with a breadth-first local search.
    lrta_star : Korf's LRTA*, lookahead one.
    reference.solutions.compiled.realtime.lrta_star_lookahead : the compiled twin, the same trace (also
        ``run_compiled(..., "lrta_astar")``).

    Examples
    --------
    >>> from reference.world import FogOfWarWorld, Gridworld
    >>> grid = Gridworld.from_strings(["...", ".@.", "..."])
    >>> run = lrta_star_lookahead(FogOfWarWorld(grid, (2, 0)), (2, 0), (0, 2), lookahead=4)
    >>> run.trace.trajectory, run.episodes
    ([(2, 0), (2, 1), (2, 2), (1, 2), (0, 2)], 1)
    """
    return LookaheadLRTA(world, start, target, lookahead, heuristic, "astar", tie_break, knowledge, successors,
                         seed).run()


def lrta_star_bfs(world: World, start: Cell, target: Cell, lookahead: int, heuristic: str = "strong",
                  tie_break: str = "larger_g", knowledge: Knowledge | None = None, successors: str = "fixed",
                  seed: int = 0) -> RealtimeRun:
    """LRTA* whose local search space is the first ``lookahead`` states of a breadth-first search.

    Parameters, result and errors as :func:`lrta_star_lookahead` (``tie_break`` orders the border
    states the agent may walk to).

    See Also
    --------
    lrta_star_lookahead : the same with an A* local search.
    reference.solutions.compiled.realtime.lrta_star_bfs : the compiled twin, the same trace (also
        ``run_compiled(..., "lrta_bfs")``).

    Examples
    --------
    >>> from reference.world import FogOfWarWorld, Gridworld
    >>> grid = Gridworld.from_strings(["...", ".@.", "..."])
    >>> run = lrta_star_bfs(FogOfWarWorld(grid, (2, 0)), (2, 0), (0, 2), lookahead=4)
    >>> run.reached, run.moves, run.episodes
    (True, 4, 2)
    """
    return LookaheadLRTA(world, start, target, lookahead, heuristic, "bfs", tie_break, knowledge, successors,
                         seed).run()
