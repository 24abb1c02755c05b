"""The grader's screen compiled by Numba: :func:`autograder.searchcheck.screen_search`'s answers, faster.

Grading a run whose remaining ties follow the student's heap replays every search; the readable
screen costs about 3 microseconds of Python per expansion, about as much as the student's own search.
This twin makes the same decisions in compiled code over arrays, for the grading process of an
instructor's machine (``grade``, ``grade-all``, nbgrader), where Numba is installed
(:func:`autograder.checks.search.run_screens` decides). A Gradescope image and the student's
bundle have neither Numba nor this module: they screen with the readable code. The twin is held to the
readable screen, answer for answer, by ``tests/autograder/test_screen_search.py``.

Differences from the readable screen, each for speed: OPEN's entries are tuples ``(key, stamp,
cell)`` of 64-bit integers, with ``key = f * span + tie`` (one int would overflow 64 bits on large
grids); the per-cell state (g, the live entry's stamp, the tree pointer) lives in arrays made once
per run, and a cell's state counts only when its ``search`` number is the current search's (as the
``search(s)`` of the handout's Figure 4), so no search clears them; the learned h of Adaptive A* is
an array per run, ``-1`` where no h was learned.

:func:`screen_run` screens a whole run at once from the reply's arrays: the agent's walk and sensing,
the knowledge before each search, every search by `_screen`, Adaptive A*'s learned h, the
paths and the trajectory, rule for rule with ``autograder.searchcheck._replay`` (held to it on every
style submission's runs, spoiled at the run level too, by the same test file).

>>> from reference.world.sensing import Knowledge
>>> from reference.world.trace import SearchRecord
>>> screen = CompiledScreen(1, 4)
>>> record = SearchRecord((0, 0), (0, 3), [(0, 0), (0, 1), (0, 2)], [(0, 0), (0, 1), (0, 2), (0, 3)])
>>> verdict = screen(record, Knowledge(1, 4), "larger_g")
>>> verdict.g_goal, verdict.pointer_path
(3, [(0, 0), (0, 1), (0, 2), (0, 3)])
"""

from __future__ import annotations

import heapq
import itertools

import numpy as np

import reference.solutions.compiled  # noqa: F401  (imported first: it starts Numba lightly, see its docstring)
from numba import njit
from reference.world.grid import Cell
from reference.world.sensing import Knowledge
from reference.world.trace import SearchRecord

from .searchcheck import SearchVerdict

#: What :func:`_screen` returns as its first value
LEGAL, BROKEN = 0, 1


@njit(cache=True)
def _screen(expanded, blocked, height, width, start, goal, learned, larger_g, search, searched, g, live_stamp, parent):
    """One search's screen (the readable ``screen_search``, line for line); returns (LEGAL or BROKEN,
    a tie taken another way, g(goal) or -1, OPEN empty). ``expanded``: cell indices ``row * width +
    col``, each inside the grid; the per-cell arrays hold this search's values where
    ``searched[cell] == search``."""
    cells = height * width
    span = cells + 1
    goal_row, goal_col = goal // width, goal % width
    start_row, start_col = start // width, start % width
    h = abs(start_row - goal_row) + abs(start_col - goal_col)
    if learned.size and learned[start] >= 0:
        h = learned[start]
    searched[start] = search
    g[start] = 0
    live_stamp[start] = 0
    heap = [(h * span + (span - 1 if larger_g else 0), np.int64(0), np.int64(start))]
    stamp = 0
    g_goal = 0 if start == goal else -1
    tie_taken = False
    for number in range(expanded.shape[0]):
        cell = expanded[number]
        row, col = cell // width, cell % width
        # the smallest live entry: an entry is stale when its cell was inserted again or expanded
        while heap and not (searched[heap[0][2]] == search and live_stamp[heap[0][2]] == heap[0][1]):
            heapq.heappop(heap)
        if not heap:
            return BROKEN, tie_taken, g_goal, True
        top_key, top_stamp, top_cell = heap[0]
        if g_goal >= 0 and g_goal <= top_key // span:
            return BROKEN, tie_taken, g_goal, False
        if searched[cell] != search or live_stamp[cell] < 0:
            return BROKEN, tie_taken, g_goal, False  # closed, blocked, outside or never generated
        if cell != top_cell:
            g_cell = g[cell]
            if (g_cell + (learned[cell] if learned.size and learned[cell] >= 0 else
                          abs(row - goal_row) + abs(col - goal_col))) * span \
                    + (span - 1 - g_cell if larger_g else g_cell) != top_key:
                return BROKEN, tie_taken, g_goal, False  # not the smallest (f, ±g) in OPEN
            tie_taken = True
        live_stamp[cell] = -1  # expanded: its entries are stale
        g_next = g[cell] + 1
        for direction in range(4):  # east, south, west, north (SPEC §3)
            if direction == 0:
                t, t_row, t_col = (cell + 1 if col + 1 < width else -1), row, col + 1
            elif direction == 1:
                t, t_row, t_col = (cell + width if row + 1 < height else -1), row + 1, col
            elif direction == 2:
                t, t_row, t_col = (cell - 1 if col > 0 else -1), row, col - 1
            else:
                t, t_row, t_col = (cell - width if row > 0 else -1), row - 1, col
            if t < 0 or blocked[t]:
                continue
            if searched[t] == search and g[t] <= g_next:
                continue
            if searched[t] != search:
                searched[t] = search
                live_stamp[t] = -1
            g[t] = g_next
            parent[t] = cell
            if t == goal:
                g_goal = g_next
            stamp += 1
            h = abs(t_row - goal_row) + abs(t_col - goal_col)
            if learned.size and learned[t] >= 0:
                h = learned[t]
            live_stamp[t] = stamp
            heapq.heappush(heap, ((g_next + h) * span + (span - 1 - g_next if larger_g else g_next),
                                  np.int64(stamp), np.int64(t)))
    while heap and not (searched[heap[0][2]] == search and live_stamp[heap[0][2]] == heap[0][1]):
        heapq.heappop(heap)
    if heap and (g_goal < 0 or g_goal > heap[0][0] // span):
        return BROKEN, tie_taken, g_goal, False
    return LEGAL, tie_taken, g_goal, len(heap) == 0


#: The algorithms by number, for :func:`_screen_run`
FORWARD, BACKWARD, ADAPTIVE = 0, 1, 2


@njit(cache=True)
def _screen_run(truth, height, width, start, target, trajectory, meta, expanded, paths, algorithm, larger_g,
                reached, first_different):
    """A whole run's screen, from its arrays (``autograder.searchcheck._replay`` with a screen, rule for
    rule); returns (LEGAL or BROKEN, the first search that took a tie another way, or -1).

    LEGAL only where ``_replay`` finds no problem; BROKEN otherwise (the grader then replays the run in
    Python, which names the problem). The run's arrays are cell indices, validated; ``truth``: the true
    grid's blocked flags by cell."""
    searches = meta.shape[0] // 4
    if trajectory[0] != start:
        return BROKEN, -1
    if start == target:  # SPEC §5: no search, the trajectory [start], reached
        return (LEGAL if searches == 0 and reached and trajectory.shape[0] == 1 else BROKEN), -1
    cells = height * width
    known = np.zeros(cells, dtype=np.uint8)  # what the agent knows is blocked
    searched = np.zeros(cells, dtype=np.int64)  # the screen's per-cell state, stamped by search (see _screen)
    g = np.zeros(cells, dtype=np.int64)
    live_stamp = np.zeros(cells, dtype=np.int64)
    parent = np.zeros(cells, dtype=np.int64)
    learned = np.full(cells if algorithm == ADAPTIVE else 0, -1, dtype=np.int64)
    agent = start
    _look(truth, known, height, width, agent, paths[:0], 0)  # SPEC §4: before the first search
    walked = 0  # the student's trajectory[walked] is where the SPEC's agent stands
    first_tie = -1
    expanded_at = path_at = 0
    for k in range(searches):
        search_start, search_goal, expanded_count, path_count = meta[4 * k], meta[4 * k + 1], meta[4 * k + 2], meta[4 * k + 3]
        record_expanded = expanded[expanded_at:expanded_at + expanded_count]
        path = paths[path_at:path_at + path_count]
        expanded_at += expanded_count
        path_at += path_count
        if agent == target:
            return BROKEN, first_tie  # the run should have ended
        if algorithm == BACKWARD:
            if search_start != target or search_goal != agent:
                return BROKEN, first_tie
        elif search_start != agent or search_goal != target:
            return BROKEN, first_tie
        checked = k >= first_different  # earlier searches hash like the reference's
        tie_taken, g_goal, open_empty = False, -1, False
        if checked or (algorithm == ADAPTIVE and path_count > 0):  # Adaptive A* learns from every search's g
            status, tie_taken, g_goal, open_empty = _screen(
                record_expanded, known, height, width, search_start, search_goal, learned, larger_g, k + 1,
                searched, g, live_stamp, parent)
            if status != LEGAL:
                return BROKEN, first_tie
        if checked:
            if tie_taken and first_tie < 0:
                first_tie = k
            if path_count == 0:
                if not open_empty:
                    return BROKEN, first_tie  # a path was found
            else:
                if g_goal < 0 or path_count - 1 != g_goal or path[0] != agent or path[path_count - 1] != target:
                    return BROKEN, first_tie
                for i in range(path_count):
                    if known[path[i]] or (i > 0 and not _adjacent(path[i - 1], path[i], width)):
                        return BROKEN, first_tie
                cell = search_goal  # the path must be the tree pointers' (walking order: forward reversed)
                for i in range(path_count):
                    if path[i if algorithm == BACKWARD else path_count - 1 - i] != cell:
                        return BROKEN, first_tie
                    if i < path_count - 1:
                        if cell == search_start:
                            return BROKEN, first_tie
                        cell = parent[cell]
        if path_count == 0 and k + 1 < searches:
            return BROKEN, first_tie  # no path, yet the run goes on
        if algorithm == ADAPTIVE and path_count > 0 and g_goal >= 0:  # h(s) = g(goal) - g(s), s expanded
            for cell in record_expanded:
                if searched[cell] == k + 1:
                    learned[cell] = g_goal - g[cell]
        if path_count == 0:
            continue
        # SPEC §6: walk the path until a cell ahead on it is known blocked (AgentBody.walk)
        if path[0] != agent:
            return BROKEN, first_tie
        clear = True
        for i in range(path_count):
            if known[path[i]]:
                clear = False
        if not clear:
            continue
        for step in range(1, path_count):
            there = path[step]
            if not _adjacent(agent, there, width) or truth[there]:
                return BROKEN, first_tie  # not a move into an unblocked neighbour
            agent = there
            walked += 1
            if walked >= trajectory.shape[0] or trajectory[walked] != agent:
                return BROKEN, first_tie  # the student's agent went elsewhere
            if _look(truth, known, height, width, agent, path, step + 1):
                break
    if walked + 1 != trajectory.shape[0] or searches == 0:
        return BROKEN, first_tie
    if meta[4 * searches - 1] == 0:  # the last search found no path
        return (BROKEN if reached else LEGAL), first_tie
    return (LEGAL if agent == target and reached else BROKEN), first_tie


@njit(cache=True)
def _adjacent(a, b, width):
    """Are cells ``a`` and ``b`` (indices) one move apart (east, south, west or north)?"""
    return abs(a // width - b // width) + abs(a % width - b % width) == 1


@njit(cache=True)
def _look(truth, known, height, width, cell, path, ahead_from):
    """SPEC §4: the agent in ``cell`` learns which of its four neighbours are blocked; returns whether one
    it did not know lies on ``path`` at ``ahead_from`` or later (then it stops walking, SPEC §6)."""
    row, col = cell // width, cell % width
    stop = False
    for direction in range(4):  # east, south, west, north
        if direction == 0:
            t = cell + 1 if col + 1 < width else -1
        elif direction == 1:
            t = cell + width if row + 1 < height else -1
        elif direction == 2:
            t = cell - 1 if col > 0 else -1
        else:
            t = cell - width if row > 0 else -1
        if t >= 0 and truth[t] and not known[t]:
            known[t] = 1
            for later in range(ahead_from, path.shape[0]):
                if path[later] == t:
                    stop = True
    return stop


def screen_run(instance, header: dict, arrays: list, tie_break: str, first_different: int) -> tuple[bool, int]:
    """Is this validated, encoded run one ``_replay`` finds no problem in (True), and which search first
    took a tie another way (-1: none)? One compiled pass over the run's arrays: no decoding, no Python
    per expansion or per move (the grader's replay of a heap-order student cost about 60 % of its time
    before, docs/speed.md).

    >>> from array import array
    >>> from reference.world.instances import Instance
    >>> from reference.world.grid import Gridworld
    >>> from reference.world.trace import SearchRecord, Trace, encode_trace
    >>> line = Instance("line", Gridworld.from_strings(["..."]), (0, 0), (0, 2))
    >>> run = Trace("forward", "larger_g", True, [(0, 0), (0, 1), (0, 2)],
    ...             [SearchRecord((0, 0), (0, 2), [(0, 0), (0, 1)], [(0, 0), (0, 1), (0, 2)])])
    >>> header, arrays = encode_trace(run, 1, 3)
    >>> screen_run(line, header, arrays + [array("i", [0, 1])], "larger_g", first_different=0)
    (True, -1)
    """
    grid = instance.grid
    width = grid.width

    def cells(values) -> np.ndarray:
        return np.asarray(values, dtype=np.int64)

    status, first_tie = _screen_run(
        np.ascontiguousarray(grid.blocked, dtype=np.uint8).ravel(), grid.height, width,
        instance.start[0] * width + instance.start[1], instance.target[0] * width + instance.target[1],
        cells(arrays[0]), cells(arrays[1]), cells(arrays[2]), cells(arrays[3]),
        {"forward": FORWARD, "backward": BACKWARD, "adaptive": ADAPTIVE}[header["algorithm"]],
        tie_break == "larger_g", bool(header["reached"]), first_different)
    return status == LEGAL, int(first_tie)


class CompiledScreen:
    """The screen of one run's searches on a ``height`` x ``width`` grid, called for them one after
    another as :func:`autograder.searchcheck.screen_search` is called: the arrays are made once.

    Adaptive A*'s learned h is copied into an array: all of it on the first call, then only the cells
    the previous search expanded (the only ones whose h it can have learned), so each search costs its
    own expansions, not the whole dict. (:func:`autograder.searchcheck.judge_run` tries
    :func:`screen_run` first, and screens search by search only where it finds a problem.)"""

    def __init__(self, height: int, width: int) -> None:
        cells = height * width
        self.height, self.width = height, width
        self.search = 0
        self.searched = np.zeros(cells, dtype=np.int64)  # which search last wrote a cell's state
        self.g = np.zeros(cells, dtype=np.int64)
        self.live_stamp = np.zeros(cells, dtype=np.int64)  # -1: closed or not in OPEN
        self.parent = np.zeros(cells, dtype=np.int64)
        self.learned = np.full(cells, -1, dtype=np.int64)  # Adaptive A*'s learned h, -1 where none
        self.no_learned = np.zeros(0, dtype=np.int64)
        self.previous: SearchRecord | None = None  # the search screened last

    def _learn(self, learned_h: dict[Cell, int]) -> None:
        """Copy from ``learned_h`` what may have changed since the previous search (see the class)."""
        cells = learned_h if self.previous is None else self.previous.expanded
        for cell in cells:
            value = learned_h.get((int(cell[0]), int(cell[1])))
            if value is not None:
                self.learned[int(cell[0]) * self.width + int(cell[1])] = value

    def __call__(self, record: SearchRecord, knowledge: Knowledge, tie_break: str,
                 learned_h: dict[Cell, int] | None = None, backward: bool = False) -> SearchVerdict | None:
        """As :func:`autograder.searchcheck.screen_search`."""
        if learned_h is not None:
            self._learn(learned_h)
        self.previous = record
        self.search += 1
        width = self.width
        # (fromiter over the flattened pairs: 2.4 times as fast as np.array on a list of pairs)
        rows, cols = np.fromiter(itertools.chain.from_iterable(record.expanded), dtype=np.int64,
                                 count=2 * len(record.expanded)).reshape(-1, 2).T
        if ((rows < 0) | (rows >= self.height) | (cols < 0) | (cols >= width)).any():
            return None  # a cell outside the grid was never generated (a validated trace has none)
        expanded = rows * width + cols
        for row, col in (record.start, record.goal):  # the grader checks them first; no array is written outside
            if not (0 <= row < self.height and 0 <= col < width):
                raise ValueError(f"the search's start or goal ({row}, {col}) lies outside the grid")
        start = int(record.start[0]) * width + int(record.start[1])
        goal = int(record.goal[0]) * width + int(record.goal[1])
        status, tie_taken, g_goal, open_empty = _screen(
            expanded, np.frombuffer(knowledge.blocked, dtype=np.uint8), self.height, width, start, goal,
            self.no_learned if learned_h is None else self.learned, tie_break == "larger_g", self.search, self.searched,
            self.g, self.live_stamp, self.parent)
        if status != LEGAL:
            return None
        verdict = SearchVerdict(first_tie="yes" if tie_taken else None, open_empty=bool(open_empty))
        if g_goal >= 0:
            verdict.g_goal = int(g_goal)
            chain = [goal]
            parent = self.parent
            while chain[-1] != start and len(chain) <= g_goal + 1:
                chain.append(int(parent[chain[-1]]))
            verdict.pointer_path = [divmod(c, width) for c in (chain if backward else chain[::-1])]
        return verdict
