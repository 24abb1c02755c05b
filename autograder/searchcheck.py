"""Judging one run of a student's Repeated A*: exact, correct with other remaining ties, or wrong — and why.

The fast path compares digests (:mod:`autograder.expected`): a run whose every search and whose
trajectory hash like the reference's is exact. Otherwise the run is replayed on the true grid
(:func:`reference.world.replay.search_contexts` gives what the agent knew before each search) and
every search whose digest differs is checked expansion by expansion against the SPEC's rules by
:func:`check_search`: it keeps OPEN as the student's expansion order implies and asks, at each step,
whether the student's choice is the one the SPEC's key ``(f, -g, stamp)`` (or ``(f, g, stamp)``)
picks. The first broken rule is the first divergence; its message names the rule. A quick screen
goes first (:func:`screen_search`, or its compiled twin in :mod:`autograder.searchcheck_compiled`):
it answers only "is every expansion legal?", and :func:`check_search` replays the run again only to
name a broken rule (and to word the first tie taken another way), so a correct run whose ties go
another way everywhere costs a fraction of the full replay. Where Numba is installed, the compiled
module also screens the whole run at once from the reply's arrays (its ``screen_run``: the walk,
every search, the paths), and a run it passes is replayed in Python only up to its first tie, to
word it.

>>> from reference.world import Gridworld, Knowledge, SearchRecord, manhattan
>>> grid_knowledge = Knowledge(1, 4)
>>> record = SearchRecord((0, 0), (0, 3), [(0, 0), (0, 1), (0, 2)], [(0, 0), (0, 1), (0, 2), (0, 3)])
>>> verdict = check_search(record, grid_knowledge, lambda c: manhattan(c, (0, 3)), "larger_g")
>>> verdict.problem is None, verdict.g_goal
(True, 3)
"""

from __future__ import annotations

import heapq
import re
from array import array
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from reference.world.grid import Cell, as_cell, manhattan
from reference.world.instances import Instance
from reference.world.replay import ReplayError, heuristic_for, search_contexts
from reference.world.sensing import Knowledge
from reference.world.trace import SearchRecord, Trace, TraceFormatError, check_encoded_trace, decode_trace

from .expected import ExpectedRun, from_encoded

RULE_F = "A* expands a state with the smallest f = g + h in OPEN"
RULE_TIES = {"larger_g": "ties in f go to the larger g", "smaller_g": "ties in f go to the smaller g"}
RULE_GOAL = "the search stops before the goal state is expanded: the goal is never counted as an expansion"
RULE_STOP = "the search ends as soon as g(goal) is no larger than the smallest f in OPEN"
RULE_ONCE = "a state is expanded at most once per search (re-expanding a closed cell)"
RULE_BLOCKED = "cells the agent knows to be blocked have no actions into or out of them"
RULE_OBSERVE = "the agent observes its four neighbours in its start cell before the first search (SPEC §4)"
RULE_WALK = ("the agent follows its path until a cell on the rest of the path is known to be blocked, "
             "then searches again from where it stands (SPEC §6)")

INFINITY = float("inf")


def show(cell: Cell) -> str:
    """A cell as the messages print it.

    >>> show((3, 9))
    '(3, 9)'
    """
    return f"({cell[0]}, {cell[1]})"


# -- one search, expansion by expansion -----------------------------------------------------------------

@dataclass
class TieEvidence:
    """What the searches of one run showed about how it breaks ties, for messages backed by evidence.

    ``g_ties_kept``: expansions where OPEN held entries of the smallest f with different g and the run
    took the one the tie rule names (larger or smaller g): evidence that its tie rule is right.
    ``blocked_in_truth_expanded``: expansions of cells blocked in truth but not known to be: evidence
    that the run plans on what the agent knows, not on the true grid.
    """

    g_ties_kept: int = 0
    blocked_in_truth_expanded: int = 0


@dataclass
class SearchVerdict:
    """The result of replaying one search: the first broken rule, or None."""

    problem: str | None = None
    first_tie: str | None = None      # where a remaining tie (equal f and g) went another way
    g_goal: float = INFINITY          # g(goal) when the search stopped
    open_empty: bool = False          # OPEN ran empty (no path)
    pointer_path: list | None = None  # the path the tree pointers give, in walking order (forward: start first)


def check_search(record: SearchRecord, knowledge: Knowledge, h: Callable[[Cell], int], tie_break: str,
                 where: str = "", evidence: TieEvidence | None = None, backward: bool = False,
                 truly_blocked: Sequence[bool] | None = None,
                 learned_h: dict[Cell, int] | None = None) -> SearchVerdict:
    """Replay ``record.expanded`` against ComputePath's rules (SPEC §5) on the agent's ``knowledge``.

    Each expansion must be a *legal* A* choice: an entry of OPEN (as the run's own expansions so far
    made it) whose key ``(f, ±g)`` is the smallest, with f = g + h; among entries equal in f and g any
    may go first (a binary heap's internal order, cell coordinates, a random tiebreak), and the note
    ``first_tie`` says where the run left the SPEC's first-inserted-first order. ``where`` prefixes
    messages (e.g. ``"maze_07, search 3"``); expansions are numbered from 1. ``evidence`` (shared by the
    searches of a run) collects how the run breaks ties. ``backward``: the pointer path is read from
    the goal (the agent) on, else reversed (SPEC §5). ``truly_blocked`` (the true grid's blocked flags by
    cell index, for messages only): names a cell the run left out because it is blocked in truth although the
    agent cannot know it yet. ``learned_h`` (Adaptive A*): the states whose h an earlier search learned,
    for messages; without it a state's h counts as learned where it is not the Manhattan distance.
    Cells are indices ``row * width + col`` inside the loop (it replays many thousands).
    """
    height, width = knowledge.height, knowledge.width
    blocked = knowledge.blocked
    start = record.start[0] * width + record.start[1]
    goal = record.goal[0] * width + record.goal[1]
    sign = -1 if tie_break == "larger_g" else 1
    evidence = evidence if evidence is not None else TieEvidence()
    h_cache: dict[int, int] = {}

    def h_of(index: int) -> int:
        value = h_cache.get(index)
        if value is None:
            value = h_cache[index] = h(divmod(index, width))
        return value

    g: dict[int, int] = {start: 0}
    # OPEN: each cell's key (f, ±g, stamp); the heap holds stale entries, skipped when they surface
    open_keys: dict[int, tuple[int, int, int]] = {start: (h_of(start), 0, 0)}
    heap = [((h_of(start), 0, 0), start)]
    # f -> {±g: entries of OPEN with that key}: does OPEN hold entries of equal f and another g?
    g_values_of_f: dict[int, dict[int, int]] = {h_of(start): {0: 1}}
    closed: dict[int, int] = {}
    parent: dict[int, int] = {}
    history: dict[int, list[tuple[int, tuple[int, int, int]]]] = {start: [(0, (h_of(start), 0, 0))]}
    stamp = 0
    verdict = SearchVerdict()

    def smallest() -> tuple[tuple[int, int, int], int] | None:
        while heap and open_keys.get(heap[0][1]) != heap[0][0]:
            heapq.heappop(heap)  # an entry whose cell was re-inserted with a new key, or expanded
        return heap[0] if heap else None

    def leave_open(key: tuple[int, int, int]) -> None:
        counts = g_values_of_f[key[0]]
        counts[key[1]] -= 1
        if not counts[key[1]]:
            del counts[key[1]]

    def learned(index: int) -> bool:
        if learned_h is not None:
            return divmod(index, width) in learned_h
        return h_of(index) != manhattan(divmod(index, width), record.goal)

    def describe(index: int, full: bool = False) -> str:
        key = open_keys[index]
        text = f"{show(divmod(index, width))} f={key[0]} g={sign * key[1]}"
        if full:
            text += _why_key(index, key, h_of(index), manhattan(divmod(index, width), record.goal), history[index],
                             sign)
        return text

    for number, (row, col) in enumerate(record.expanded, start=1):
        cell = row * width + col
        top = smallest()
        g_goal = g.get(goal, INFINITY)
        if top is not None and cell == top[1]:
            if g_goal <= top[0][0]:
                verdict.problem = _stop_problem(where, number, (row, col), cell == goal, g_goal, top[0][0])
                return verdict
        else:
            problem, tie = _wrong_choice(where, number, (row, col), cell, top, g_goal, goal, open_keys, closed,
                                         knowledge, tie_break, describe, evidence, learned, truly_blocked,
                                         note_wanted=verdict.first_tie is None)
            if problem:
                verdict.problem = problem
                return verdict
            verdict.first_tie = verdict.first_tie or tie
        key = open_keys[cell]
        if truly_blocked is not None and truly_blocked[cell]:
            evidence.blocked_in_truth_expanded += 1
        if len(g_values_of_f[key[0]]) > 1:  # entries of this f with another g wait in OPEN: the tie rule decided
            evidence.g_ties_kept += 1
        # Expand: ComputePath lines 3-13.
        del open_keys[cell]
        leave_open(key)
        closed[cell] = number
        g_next = g[cell] + 1
        for t in (cell + 1 if col + 1 < width else -1, cell + width if row + 1 < height else -1,
                  cell - 1 if col > 0 else -1, cell - width if row > 0 else -1):
            if t < 0 or blocked[t]:
                continue
            if g.get(t, INFINITY) > g_next:
                g[t] = g_next
                parent[t] = cell
                stamp += 1
                key = (g_next + h_of(t), sign * g_next, stamp)
                old = open_keys.get(t)
                if old is not None:  # a lowered key: the entry is inserted anew (SPEC §5), with a new stamp
                    leave_open(old)
                open_keys[t] = key
                counts = g_values_of_f.setdefault(key[0], {})
                counts[key[1]] = counts.get(key[1], 0) + 1
                history.setdefault(t, []).append((number, key))
                heapq.heappush(heap, (key, t))
    top = smallest()
    verdict.g_goal = g.get(goal, INFINITY)
    verdict.open_empty = top is None
    if verdict.g_goal < INFINITY:
        chain = [goal]
        while chain[-1] != start and len(chain) <= len(parent) + 1:
            chain.append(parent[chain[-1]])
        verdict.pointer_path = [divmod(c, width) for c in (chain if backward else chain[::-1])]
    if top is not None and verdict.g_goal > top[0][0]:
        verdict.problem = (f"{where}: the search stopped after {len(record.expanded)} expansions, but g(goal) = "
                           f"{verdict.g_goal} is larger than the smallest f in OPEN ({top[0][0]}, {describe(top[1])})"
                           f" — {RULE_STOP}, not before")
    return verdict


def screen_search(record: SearchRecord, knowledge: Knowledge, tie_break: str,
                  learned_h: dict[Cell, int] | None = None, backward: bool = False) -> SearchVerdict | None:
    """:func:`check_search`'s question alone, answered quickly: is every expansion a legal A* choice?

    Returns None where :func:`check_search` finds a problem (it is then asked, to name the rule), else
    its verdict without messages: ``first_tie`` is ``"yes"`` where the run took an entry equal in f
    and g to the SPEC's next one (``check_search`` words where). The same rules, step for step
    (``tests/autograder/test_screen_search.py`` holds the two to the same answers). What buys the
    speed (about 3 times ``check_search``, docs/speed.md): no history of insertions and no tie
    counts kept for messages, h computed inline (Manhattan, or ``learned_h`` for Adaptive A*), and
    each entry of OPEN one Python int, so the heap compares ints, never tuples:
    ``entry = f * per_f + tie * per_key + stamp * cells + cell`` with ``tie`` = ``span - 1 - g``
    (larger g first) or ``g``; ``entry // per_key`` is the key (f, ±g), ``entry // per_f`` is f and
    ``entry % cells`` the cell.

    >>> knowledge = Knowledge(1, 4)
    >>> record = SearchRecord((0, 0), (0, 3), [(0, 0), (0, 1), (0, 2)], [(0, 0), (0, 1), (0, 2), (0, 3)])
    >>> verdict = screen_search(record, knowledge, "larger_g")
    >>> verdict.g_goal, verdict.pointer_path
    (3, [(0, 0), (0, 1), (0, 2), (0, 3)])
    >>> screen_search(SearchRecord((0, 0), (0, 3), [(0, 0), (0, 2)], []), knowledge, "larger_g") is None
    True
    """
    height, width = knowledge.height, knowledge.width
    blocked = knowledge.blocked
    cells = height * width
    start_row, start_col = record.start
    goal_row, goal_col = record.goal
    start, goal = start_row * width + start_col, goal_row * width + goal_col
    learned = learned_h or None
    span = cells + 1            # g < span
    stamps = 4 * cells + 2      # a search inserts at most four entries per expansion, plus its start
    per_key = stamps * cells
    per_f = span * per_key
    larger_g = tie_break == "larger_g"
    no_g = per_f                # larger than any g; an int, so comparisons never mix int and float

    h = abs(start_row - goal_row) + abs(start_col - goal_col)
    if learned:
        h = learned.get((start_row, start_col), h)
    g: dict[int, int] = {start: 0}
    parent: dict[int, int] = {}
    open_entry = {start: h * per_f + (span - 1 if larger_g else 0) * per_key + start}  # each cell's live entry
    heap = [open_entry[start]]  # also holds stale entries (a cell re-inserted or expanded), skipped
    live_entry, g_of = open_entry.get, g.get
    stamp = 0
    g_goal = 0 if start == goal else no_g
    tie_taken = False
    last_row, last_col = height - 1, width - 1
    for row, col in record.expanded:
        cell = row * width + col
        while heap and live_entry(heap[0] % cells) != heap[0]:
            heapq.heappop(heap)
        if not heap:
            return None  # OPEN is empty
        top = heap[0]
        if g_goal <= top // per_f:
            return None  # the search should have stopped (the goal is never expanded)
        mine = open_entry.pop(cell, None)
        if mine is None:
            return None  # closed, blocked, outside or never generated
        if mine != top:
            if mine // per_key != top // per_key:
                return None  # not the smallest (f, ±g) in OPEN
            tie_taken = True  # equal in f and g: legal, another order than first inserted first
        # Expand: ComputePath lines 3-13, as check_search. Every successor gets the same g, so the
        # part of its entry that g decides is computed once here.
        g_next = g[cell] + 1
        g_part = (g_next * span + (span - 1 - g_next if larger_g else g_next)) * per_key
        for t, t_row, t_col in ((cell + 1 if col < last_col else -1, row, col + 1),
                                (cell + width if row < last_row else -1, row + 1, col),
                                (cell - 1 if col else -1, row, col - 1),
                                (cell - width if row else -1, row - 1, col)):
            if t < 0 or blocked[t] or g_of(t, no_g) <= g_next:
                continue
            g[t] = g_next
            parent[t] = cell
            if t == goal:
                g_goal = g_next
            stamp += 1
            h = abs(t_row - goal_row) + abs(t_col - goal_col)
            if learned:
                h = learned.get((t_row, t_col), h)
            open_entry[t] = entry = h * per_f + g_part + stamp * cells + t
            heapq.heappush(heap, entry)
    while heap and live_entry(heap[0] % cells) != heap[0]:
        heapq.heappop(heap)
    if heap and g_goal > heap[0] // per_f:
        return None  # stopped before g(goal) <= the smallest f in OPEN
    verdict = SearchVerdict(first_tie="yes" if tie_taken else None, open_empty=not heap)
    if g_goal < no_g:
        verdict.g_goal = g_goal
        chain = [goal]
        while chain[-1] != start and len(chain) <= len(parent) + 1:
            chain.append(parent[chain[-1]])
        verdict.pointer_path = [divmod(c, width) for c in (chain if backward else chain[::-1])]
    return verdict


def readable_screen(height: int, width: int) -> Callable[..., SearchVerdict | None]:
    """The screen of one run's searches in readable code: :func:`screen_search` itself, which keeps
    nothing between searches (the compiled twin, :class:`autograder.searchcheck_compiled.CompiledScreen`,
    is made the same way and called the same way)."""
    return screen_search


def _stop_problem(where: str, number: int, cell: Cell, is_goal: bool, g_goal: float, f_min: int) -> str:
    rule = RULE_GOAL if is_goal else RULE_STOP
    return (f"{where}, expansion {number}: you expanded {show(cell)}, but the search should have stopped: "
            f"g(goal) = {g_goal} and the smallest f in OPEN is {f_min} — {rule}")


#: Said only where a learned h (Adaptive A*) is one of the two keys a wrong choice compares.
LEARNED_H_HINT = ("one of these h-values is learned: after a search, h(s) = g(goal) - g(s) for every state s it "
                  "expanded, with that search's own g(goal) and g(s) (SPEC §7)")


def _wrong_choice(where, number, cell_rc, cell, top, g_goal, goal, open_keys, closed, knowledge, tie_break,
                  describe, evidence, learned, truly_blocked=None, note_wanted=True) -> tuple[str | None, str | None]:
    """The student expanded something other than the SPEC's next entry of OPEN: which rule does it break?

    Returns (problem, None), or (None, tie note) when the choice is legal: an entry equal in f and g
    to the smallest, taken in another order than first inserted first (the note only where
    ``note_wanted``: a run of another tie order takes such choices at most expansions, and only the
    first is shown, so the others build no message).
    """
    here = f"{where}, expansion {number}"
    if top is None:
        return f"{here}: you expanded {show(cell_rc)} but OPEN is already empty: the search should have ended (no path)", None
    if g_goal <= top[0][0]:
        return _stop_problem(where, number, cell_rc, cell == goal, g_goal, top[0][0]), None
    if cell in closed:
        return f"{here}: you expanded {show(cell_rc)} again (first at expansion {closed[cell]}) — {RULE_ONCE}", None
    if cell not in open_keys:
        if not (0 <= cell_rc[0] < knowledge.height and 0 <= cell_rc[1] < knowledge.width):
            reason = "it lies outside the grid"
        elif knowledge.blocked[cell]:
            reason = f"the agent knows it is blocked — {RULE_BLOCKED}"
            if where.endswith("search 1"):
                reason += f"; {RULE_OBSERVE}"
        else:
            reason = "it is not in OPEN (no expanded state has generated it)"
        return f"{here}: expected {describe(top[1])}; you expanded {show(cell_rc)}, but {reason}", None
    mine, best = open_keys[cell], top[0]
    if mine[:2] == best[:2]:  # legal: an entry equal in f and g to the smallest, in another order
        if not note_wanted:
            return None, None
        return None, (f"{here}: the SPEC's order takes {describe(top[1], True)} first; you took "
                      f"{describe(cell, True)}, equal in f and g — remaining ties go to the entry inserted into OPEN "
                      "first (a lowered key is inserted anew)")
    chose = f"{here}: expected {describe(top[1], True)} (or any entry equal to it in f and g); you expanded " \
            f"{describe(cell, True)}"
    learned_key = learned(cell) or learned(top[1])
    if not learned_key and truly_blocked is not None and truly_blocked[top[1]] and not evidence.blocked_in_truth_expanded:
        # Evidence of planning on the true grid: the entry the run passed over is blocked in truth, the agent
        # has not been next to it, so it does not know that, and the run never expanded such a cell.
        return (f"{chose} — {show(divmod(top[1], knowledge.width))} is blocked, but the agent does not know it yet: "
                f"a search plans on what the agent knows, every cell not known to be blocked presumed unblocked "
                f"(SPEC §4)"), None
    if mine[0] > best[0]:
        return f"{chose} — {RULE_F}" + (f"; {LEARNED_H_HINT}" if learned_key else ""), None
    # equal f, another g (best is OPEN's least key, so mine is not smaller)
    if learned_key:  # the tie rule is not the likely culprit: name the learned-h rule, not the tie rule
        larger = "larger" if tie_break == "larger_g" else "smaller"
        return (f"{chose} — with equal f the entry of {larger} g goes first, so one of these keys is wrong: "
                f"{LEARNED_H_HINT}"), None
    problem = f"{chose} — {RULE_TIES[tie_break]}"
    if evidence.g_ties_kept:
        problem += (f". Your run broke {evidence.g_ties_kept} earlier ties in f this way, so its tie rule looks "
                    "right and one of these two keys is probably wrong: is every g and h right when the entry is "
                    "inserted, and is a state whose key is lowered inserted again?")
    return problem, None


def _why_key(index: int, key: tuple, h: int, distance: int, pushes: list, sign: int) -> str:
    """Where an entry's key comes from: h (learned or Manhattan) and when it was inserted with which key.

    >>> _why_key(7, (9, -3, 12), 6, 4, [(2, (10, -4, 5)), (6, (9, -3, 12))], -1)
    ' (h=6, learned: the Manhattan distance is 4; inserted into OPEN as insertion 5 after expansion 2 with f=10 g=4, then again as insertion 12 after expansion 6 with f=9 g=3)'
    """
    learned = f"h={h}, learned: the Manhattan distance is {distance}" if h != distance else f"h={h}"

    def when(number: int, entry_key: tuple) -> str:
        at = "at the start" if number == 0 else f"after expansion {number}"
        return f"insertion {entry_key[2]} {at} with f={entry_key[0]} g={sign * entry_key[1]}"

    inserted = "; inserted into OPEN as " + when(*pushes[0])
    if len(pushes) > 1:
        inserted += ", then again as " + ", then as ".join(when(*push) for push in pushes[1:])
    return f" ({learned}{inserted})"


# -- a whole run -----------------------------------------------------------------------------------------

def validate_run(header: dict, arrays: list[array], height: int, width: int) -> None:
    """Check a child's reply: the encoded trace by the kit's one trace validator
    (:func:`reference.world.trace.check_encoded_trace`), and the harness's record of the cells the
    agent sensed from (the fifth array). Raises :class:`~reference.world.trace.TraceFormatError`."""
    if len(arrays) != 5:
        raise TraceFormatError("the reply does not have the five arrays of a trace")
    check_encoded_trace(header, arrays, height, width)
    sensed = arrays[4]
    if sensed and (min(sensed) < 0 or max(sensed) >= height * width):
        raise TraceFormatError("sensed cells: a cell index outside the grid")


def walked_as_sensed(trajectory: array, sensed: array, target: int, reached: bool) -> bool:
    """Is the reported trajectory the walk the world saw (``sensed``: the cells the agent sensed from)?

    SPEC §4: the agent senses in its start cell before the first search and after every move, so the
    cells it sensed from are its walk. Sensing while standing on the target changes nothing a trace
    shows, and SPEC §5 makes it optional at start == target, so the target may be missing at the end
    of ``sensed`` (then ``sensed`` is empty when the agent starts on the target).

    >>> walked_as_sensed(array("i", [7]), array("i", []), 7, True)
    True
    >>> walked_as_sensed(array("i", [1, 2, 7]), array("i", [1, 2]), 7, True)
    True
    >>> walked_as_sensed(array("i", [1, 2, 3]), array("i", [1, 2]), 7, False)
    False
    """
    walk, seen = list(trajectory), list(sensed)
    if walk == seen:
        return True
    return bool(reached) and bool(walk) and walk[-1] == target and seen == walk[:-1]


@dataclass
class RunVerdict:
    """``tier``: "exact" (as the reference), "ties" (correct A*, other remaining ties) or "wrong"."""

    tier: str
    problem: str | None = None
    note: str | None = None


def judge_run(instance: Instance, algorithm: str, tie_break: str, header: dict, arrays: list[array],
              expected: ExpectedRun, screen: Callable = readable_screen,
              whole_run: Callable | None = None) -> RunVerdict:
    """Compare a student's encoded run with the reference's; replay in detail where digests differ,
    screened by ``screen`` (see :func:`_replay`). ``whole_run``
    (:func:`autograder.searchcheck_compiled.screen_run`, where Numba is installed) screens the whole
    run from its arrays first: a run it passes is replayed only up to its first tie, to word the note."""
    grid = instance.grid
    name = instance.name
    try:
        student = from_encoded(header, arrays[:4])
        if (header.get("algorithm"), header.get("tie_break")) != (algorithm, tie_break):
            return RunVerdict("wrong", f"{name}: your trace says algorithm={header.get('algorithm')!r}, "
                                       f"tie_break={header.get('tie_break')!r}; expected {algorithm!r}, {tie_break!r}")
        validate_run(header, arrays, grid.height, grid.width)
    except TraceFormatError as error:
        return RunVerdict("wrong", f"{name}: the returned trace is malformed: {error}")
    if not walked_as_sensed(arrays[0], arrays[4], instance.target[0] * grid.width + instance.target[1],
                            header["reached"]):
        return RunVerdict("wrong", f"{name}: the trace's trajectory is not where the agent really went (the cells "
                                   "it sensed from, start first): report every cell the agent stood in")
    differing = [i for i in range(min(student.searches, expected.searches))
                 if student.search_digest(i) != expected.search_digest(i)]
    differing_count = len(differing) + abs(student.searches - expected.searches)
    if not differing_count and student.trajectory == expected.trajectory:
        return RunVerdict("exact")
    first_different = differing[0] if differing else min(student.searches, expected.searches)
    if whole_run is not None:  # the whole run in one compiled pass over its arrays
        legal, tie_search = whole_run(instance, header, arrays, tie_break, first_different)
        if legal:
            return RunVerdict("ties", None, _tie_note(instance, header, arrays, tie_break, tie_search))
    trace = decode_trace(header, arrays, grid.width)
    problem, note = _replay(instance, trace, tie_break, first_different, screen=screen)
    if problem is SCREENED_OUT:  # replay again in full: the first broken rule, named with the run's evidence
        problem, note = _replay(instance, trace, tie_break, first_different)
    if problem:
        return RunVerdict("wrong", problem)
    return RunVerdict("ties", None, note)


def _tie_note(instance: Instance, header: dict, arrays: list[array], tie_break: str, search_index: int) -> str | None:
    """:func:`check_search`'s note on search ``search_index`` of a run screened legal (the first search
    whose remaining ties went another way; -1: none), the run replayed up to that search only."""
    if search_index < 0:
        return None
    trace = decode_trace(header, arrays, instance.grid.width, searches=search_index + 1)
    context = deque(search_contexts(instance.grid, trace), maxlen=1)[0]  # the last: search_index's (one kept)
    _problem, note = _check_one(trace.searches[search_index], context, trace, f"{instance.name}, search {search_index + 1}",
                                tie_break, context.agent, instance.target, TieEvidence(),
                                instance.grid.blocked.ravel().tolist())
    return note


def verified_work(trace: Trace) -> int:
    """The expansions of a run that could be real A* work, counted for the efficiency check's limit.

    Per search, a cell counts once, if it lies inside the grid (the trace was validated), is the
    search's start or next to a cell counted before it in that search (A* expands only cells an
    expanded neighbour generated), and, when the search found a path of L moves, satisfies
    ``manhattan(start, cell) + manhattan(cell, goal) <= L`` (every state A* expands has f <= g(goal), and
    g and h are at least the Manhattan distances). Re-expansions, cells out of reach and padding add
    nothing, so reporting more cells than a search could expand cannot buy a larger time limit.

    >>> run = Trace("forward", "larger_g", True, [(0, 0), (0, 1), (0, 2)],
    ...             [SearchRecord((0, 0), (0, 2), [(0, 0), (0, 1), (0, 1), (5, 5)], [(0, 0), (0, 1), (0, 2)])])
    >>> verified_work(run)  # (0, 1) twice and the far (5, 5) do not count
    2
    """
    total = 0
    for record in trace.searches:
        start, goal = as_cell(record.start), as_cell(record.goal)
        bound = len(record.path) - 1 if record.path else None
        counted: set[Cell] = set()
        for cell in map(as_cell, record.expanded):
            if cell in counted:
                continue
            if bound is not None and manhattan(start, cell) + manhattan(cell, goal) > bound:
                continue
            row, col = cell
            if cell == start or {(row, col + 1), (row + 1, col), (row, col - 1), (row - 1, col)} & counted:
                counted.add(cell)
        total += len(counted)
    return total


def real_search_problem(instance: Instance, header: dict, arrays: list[array]) -> tuple[str | None, int]:
    """Does a timed run (the efficiency probe) do real search? Returns (why not, or None; its verified work).

    The efficiency check times what the run computes, not whether it is the SPEC's run (the search checks
    charge for that, once): it needs a well-formed Repeated Forward A* trace that reaches the target
    along the walk the world saw, with at least one expansion that could be real for every move.
    """
    grid = instance.grid
    try:
        if (header.get("algorithm"), header.get("tie_break")) != ("forward", "larger_g"):
            return "the trace does not say algorithm='forward', tie_break='larger_g'", 0
        validate_run(header, arrays, grid.height, grid.width)
    except TraceFormatError as error:
        return f"the returned trace is malformed: {error}", 0
    trace = decode_trace(header, arrays, grid.width)
    walk, seen = list(trace.trajectory), [divmod(c, grid.width) for c in arrays[4]]
    if not trace.reached or walk[-1] != instance.target:
        return "the agent does not reach the target", 0
    if seen not in (walk, walk[:-1], walk[1:], walk[1:-1]):  # sensing on the start or the target is forgiven here
        return "its trajectory is not the walk the world saw", 0
    work = verified_work(trace)
    if not trace.searches or work < len(walk) - 1:
        return (f"it reports {work} expansions that could be real for {len(walk) - 1} moves (each move follows a "
                "path whose cells a search expanded)"), work
    return None, work


#: What :func:`_replay` returns with a ``screen`` where the screen finds a broken rule.
SCREENED_OUT = "a search breaks a rule of A* (replay it in full to name the rule)"


def _replay(instance: Instance, trace: Trace, tie_break: str, first_different: int,
            evidence: TieEvidence | None = None, screen: Callable | None = None) -> tuple[str | None, str | None]:
    """Walk the run on the true grid, each search on the knowledge and from the cell that the run's own
    trajectory gave; return (first problem, first note of a legal tie taken in another order).

    ``screen``: makes the screen of this run for a grid's height and width (:func:`readable_screen`,
    or the compiled :class:`autograder.searchcheck_compiled.CompiledScreen`); each search is then
    checked by it, and the problem is :data:`SCREENED_OUT` where it finds a broken rule (every other
    problem and the note are as without a screen)."""
    evidence = evidence or TieEvidence()
    name, grid = instance.name, instance.grid
    start, target = instance.start, instance.target
    forward = trace.algorithm in ("forward", "adaptive")
    if trace.trajectory[0] != start:
        return f"{name}: the trajectory starts at {show(trace.trajectory[0])}, not at the start {show(start)}", None
    if start == target:
        if trace.searches or not trace.reached or len(trace.trajectory) != 1:
            return (f"{name}: the agent starts on the target: expected reached=True, no searches and the trajectory "
                    f"[start]; you reported reached={trace.reached}, {len(trace.searches)} searches, "
                    f"{len(trace.trajectory) - 1} moves"), None
        return None, None
    spec_trajectory = [start]
    truth = grid.blocked.ravel().tolist()  # once per run: list indexing in the replay's loop, not NumPy's
    note = None
    last_agent = start
    last_path: list[Cell] = []
    searches_walked = 0
    screen_of_run = screen(grid.height, grid.width) if screen is not None else None
    try:
        for context in search_contexts(grid, trace):
            k = context.index
            where = f"{name}, search {k + 1}"
            record = trace.searches[k]
            agent = context.agent
            walk_problem = _compare_walk(name, k, trace.trajectory, spec_trajectory, path=last_path,
                                         searched_at=_agent_of(record, forward))
            if walk_problem:
                return walk_problem, note
            if agent == target:
                return f"{where}: the agent already stands on the target, so the run should have ended", note
            want_start, want_goal = (agent, target) if forward else (target, agent)
            if (record.start, record.goal) != (want_start, want_goal):
                return (f"{where} runs from {show(record.start)} to {show(record.goal)}, but the agent stands at "
                        f"{show(agent)}: a {'forward' if forward else 'backward'} search runs from "
                        f"{show(want_start)} to {show(want_goal)}"), note
            if k >= first_different:  # earlier searches hash like the reference's: nothing to replay
                problem, tie = _check_one(record, context, trace, where, tie_break, agent, target, evidence, truth,
                                          screen=screen_of_run, note_wanted=note is None)
                if problem:
                    return problem, note
                note = note or tie
            if not record.path and k + 1 < len(trace.searches):
                return (f"{where} found no path, so the target cannot be reached: the run should stop there with "
                        "reached=False"), note
            spec_trajectory.extend(context.moves)
            last_agent = spec_trajectory[-1]
            last_path = [as_cell(c) for c in record.path]
            searches_walked = k + 1
    except ReplayError as error:
        # A recorded path cannot be walked from where the SPEC's agent stands: usually the student's
        # agent walked differently (compare the walks), else the path itself is broken.
        path = trace.searches[searches_walked].path
        walk_problem = _compare_walk(name, searches_walked, trace.trajectory, spec_trajectory, path=last_path,
                                     searched_at=_agent_of(trace.searches[searches_walked], forward))
        if walk_problem:
            return walk_problem, note
        if searches_walked and path and as_cell(path[0]) != spec_trajectory[-1]:
            return (f"{name}, search {searches_walked + 1}: it begins with the agent at {show(as_cell(path[0]))}, but "
                    f"walking search {searches_walked}'s path the SPEC's way the agent goes on to "
                    f"{show(spec_trajectory[-1])}, as nothing ahead on the path was known to be blocked — {RULE_WALK}"), note
        match = re.match(r"search (\d+): (.*)", str(error), re.DOTALL)
        where = f"search {int(match.group(1)) + 1}: {match.group(2)}" if match else str(error)
        return f"{name}, {where}", note
    walk_problem = _compare_walk(name, len(trace.searches), trace.trajectory, spec_trajectory, final=True,
                                 path=last_path)
    if walk_problem:
        return walk_problem, note
    if trace.searches and not trace.searches[-1].path:
        if trace.reached:
            return f"{name}: the last search found no path, yet the trace says reached=True", note
        return None, note
    if not trace.searches:
        return f"{name}: the run has no searches, but the agent does not start on the target", note
    if last_agent != target:
        return (f"{name}: the run ends with the agent at {show(last_agent)}, not at the target, although its last "
                "search found a path: search again until the target is reached or cannot be"), note
    if not trace.reached:
        return f"{name}: the agent reached the target, but the trace says reached=False", note
    return None, note


def _agent_of(record: SearchRecord, forward: bool) -> Cell:
    """Where a search record puts the agent: its start (forward, adaptive) or its goal (backward)."""
    return as_cell(record.start if forward else record.goal)


def _check_one(record: SearchRecord, context, trace: Trace, where: str, tie_break: str, agent: Cell,
               target: Cell, evidence: TieEvidence, truth: Sequence[bool] | None = None,
               screen: Callable | None = None, note_wanted: bool = True) -> tuple[str | None, str | None]:
    """Expansions, stop rule and path of one search (``truth``: the true grid's blocked flags by cell
    index, for messages; ``screen``: the run's screen, see :func:`_replay`; ``note_wanted``: word a
    legal tie taken in another order)."""
    backward = trace.algorithm == "backward"
    learned_h = context.learned_h if trace.algorithm == "adaptive" else None
    verdict = screen(record, context.knowledge, tie_break, learned_h, backward) if screen is not None else None
    if screen is not None and verdict is None:
        return SCREENED_OUT, None
    if verdict is None or (verdict.first_tie and note_wanted):  # the full check, to word a problem or the note
        verdict = check_search(record, context.knowledge, heuristic_for(trace, context.index, context), tie_break,
                               where, evidence if screen is None else TieEvidence(), backward=backward,
                               truly_blocked=truth, learned_h=learned_h)
    if verdict.problem:
        return verdict.problem, None
    path = [as_cell(c) for c in record.path]
    if not path:
        if not verdict.open_empty:
            return f"{where}: you report no path, but the search found one of length {verdict.g_goal}", None
        return None, verdict.first_tie
    if verdict.open_empty and verdict.g_goal == INFINITY:
        return f"{where}: OPEN ran empty (no path exists on what the agent knows), but you report a path", None
    if path[0] != agent or path[-1] != target:
        if path[0] == target and path[-1] == agent:
            hint = ("it is reversed" + (": a backward search's tree pointers already lead from the agent to the "
                                        "target, in walking order — do not reverse them" if trace.algorithm == "backward"
                                        else ""))
        else:
            hint = "it must run from the agent to the target, both ends included"
        return f"{where}: the path runs from {show(path[0])} to {show(path[-1])}; {hint}", None
    for step in range(1, len(path)):
        a, b = path[step - 1], path[step]
        if manhattan(a, b) != 1:
            return f"{where}: path step {step} jumps from {show(a)} to {show(b)}", None
    blocked = [c for c in path if context.knowledge.is_blocked(c)]
    if blocked:
        return f"{where}: the path passes through {show(blocked[0])}, which the agent knows is blocked", None
    if len(path) - 1 != verdict.g_goal:
        return (f"{where}: the path has {len(path) - 1} moves, but the shortest presumed-unblocked path has "
                f"{verdict.g_goal}: read it off the tree pointers"), None
    pointers = verdict.pointer_path
    if pointers is not None and path != pointers:
        step = next(i for i, (mine, theirs) in enumerate(zip(path, pointers)) if mine != theirs)
        return (f"{where}: path step {step} goes to {show(path[step])}, but the tree pointers lead to "
                f"{show(pointers[step])}: the path is read off the tree pointers, and a state's tree pointer is "
                "set only when its g is lowered (another shortest path is not the search's path)"), None
    return None, verdict.first_tie


def _compare_walk(name: str, searches_done: int, trajectory: list[Cell], spec: list[Cell], final: bool = False,
                  path: list[Cell] | None = None, searched_at: Cell | None = None) -> str | None:
    """Does the student's trajectory so far match the SPEC's walk along the recorded paths?

    Where it does not, the message says what the evidence shows: ``path`` is the path of search
    ``searches_done`` (the one being walked) and ``searched_at`` where the run's next recorded search
    puts the agent. A move along that path past the SPEC's stop is walking on; a stop where the next
    search begins is searching too early; a move off the path with no search recorded there is a
    search that was made but not recorded.
    """
    upto = len(spec) if not final else max(len(spec), len(trajectory))
    mine = trajectory[:upto]
    if mine == spec:
        return None
    ahead = _ahead_on(path, spec[-1]) if path else []
    after = f"after search {searches_done}"
    for i, (a, b) in enumerate(zip(mine, spec)):
        if a != b:
            if searched_at == mine[i - 1]:
                return (f"{name}: {after} the agent searched again at {show(mine[i - 1])}, but nothing on the rest of "
                        f"the path was known to be blocked, so it walks on to {show(b)} — {RULE_WALK}")
            return (f"{name}: move {i} ({after}) goes to {show(a)}, off the path, which goes on to {show(b)}: every move "
                    f"follows the latest search's path — {RULE_WALK}")
    if len(mine) < len(spec):
        return (f"{name}: {after} the agent stopped at {show(mine[-1])}; it should have walked on "
                f"to {show(spec[len(mine)])} — {RULE_WALK}")
    extra = mine[len(spec)]
    if ahead and extra == ahead[0]:
        return (f"{name}: {after} the agent walked on along the path to {show(extra)}; it should have stopped at "
                f"{show(spec[-1])}, where a cell on the rest of the path was known to be blocked — {RULE_WALK}")
    since = f"search {searches_done} (the last search recorded)" if searches_done else "the start, with no search recorded"
    return (f"{name}: after {since} the agent stood at {show(spec[-1])} and then made {len(mine) - len(spec)} more "
            f"moves (first to {show(extra)}) that no recorded search explains: is every search recorded in the trace's "
            "searches, the last search too?")


def _ahead_on(path: list[Cell], here: Cell) -> list[Cell]:
    """The cells of ``path`` after ``here`` (empty if ``here`` is not on it).

    >>> _ahead_on([(0, 0), (0, 1), (0, 2)], (0, 1))
    [(0, 2)]
    """
    cells = [as_cell(c) for c in path]
    return cells[cells.index(here) + 1:] if here in cells else []
