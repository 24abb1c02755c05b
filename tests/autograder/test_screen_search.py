"""The grader's quick screens answer ``check_search``'s question the same way.

``screen_search`` and its compiled twin (``autograder/searchcheck_compiled.py``) decide whether every
expansion of a search is a legal A* choice; ``check_search`` decides the same and names the rule a
search breaks. The grader screens a run first and replays it in full only where the screen finds a
broken rule, so the three must agree on every search: legal or not, g(goal), whether OPEN ran empty,
the tree pointers' path, and whether a tie was taken in another order than the SPEC's. The searches here come from a third A*, written in this file: it breaks the
remaining ties at random (as a student's heap does), and is then, half the time, spoiled the ways
students spoil one (two expansions swapped, one dropped or repeated, the goal expanded, the search
cut short or run on, a foreign cell expanded).

The compiled screen of a whole run (``screen_run``: every search, the walk, the paths, from the run's
arrays) is held to the full replay on real runs of every style submission, spoiled at the run level
too (the last test).
"""

from __future__ import annotations

import random
from array import array

from hypothesis import event, given, settings
from hypothesis import strategies as st

from autograder.searchcheck import SCREENED_OUT, _replay, check_search, readable_screen, screen_search
from autograder.searchcheck_compiled import CompiledScreen
from reference.world.grid import manhattan
from reference.world.sensing import Knowledge
from reference.world.trace import SearchRecord


def random_order_astar(knowledge: Knowledge, start, goal, h, tie_break: str, rng: random.Random):
    """A* with ties in f broken by g as ``tie_break`` says and remaining ties at random: expanded cells.

    OPEN is a dict cell -> g; the next cell is drawn from those of the smallest (f, ±g); the search
    stops when g(goal) <= the smallest f or OPEN is empty (SPEC §5)."""
    sign = -1 if tie_break == "larger_g" else 1
    g, open_g, expanded = {start: 0}, {start: 0}, []
    while open_g:
        keys = {cell: (value + h(cell), sign * value) for cell, value in open_g.items()}
        least = min(keys.values())
        if g.get(goal, float("inf")) <= least[0]:
            break
        cell = rng.choice(sorted(c for c, key in keys.items() if key == least))
        expanded.append(cell)
        del open_g[cell]
        for t in knowledge.successors(cell):
            if g.get(t, float("inf")) > g[cell] + 1:
                g[t] = open_g[t] = g[cell] + 1
    return expanded


def spoiled(expanded: list, goal, height: int, width: int, rng: random.Random) -> list:
    """The expansions with one mistake a student makes (or none), chosen at random."""
    cells = list(expanded)
    kind = rng.choice(["none", "none", "none", "swap", "drop", "repeat", "goal", "cut", "foreign"])
    if kind == "swap" and len(cells) >= 2:
        i = rng.randrange(len(cells) - 1)
        cells[i], cells[i + 1] = cells[i + 1], cells[i]
    elif kind == "drop" and cells:
        del cells[rng.randrange(len(cells))]
    elif kind == "repeat" and cells:
        cells.insert(rng.randrange(len(cells) + 1), rng.choice(cells))
    elif kind == "goal":
        cells.append(goal)
    elif kind == "cut" and cells:
        cells = cells[:rng.randrange(len(cells))]
    elif kind == "foreign":
        cells.insert(rng.randrange(len(cells) + 1), (rng.randrange(height), rng.randrange(width)))
    return cells


@st.composite
def searches(draw):
    height, width = draw(st.integers(1, 7)), draw(st.integers(1, 7))
    rng = random.Random(draw(st.integers(0, 2**32)))
    knowledge = Knowledge(height, width)
    cells = [(r, c) for r in range(height) for c in range(width)]
    start, goal = rng.choice(cells), rng.choice(cells)
    knowledge.observe([c for c in cells if c not in (start, goal) and rng.random() < draw(st.sampled_from([0, 0.2, 0.4]))])
    # Adaptive A*'s learned h on some cells (any values: the two must agree whatever h is)
    learned = {c: manhattan(c, goal) + rng.randrange(3) for c in cells if rng.random() < 0.3} if draw(st.booleans()) else None
    tie_break = draw(st.sampled_from(["larger_g", "smaller_g"]))

    def h(cell):
        return (learned or {}).get(cell, manhattan(cell, goal))

    expanded = spoiled(random_order_astar(knowledge, start, goal, h, tie_break, rng), goal, height, width, rng)
    return SearchRecord(start, goal, expanded, []), knowledge, h, tie_break, learned, draw(st.booleans())


@given(searches())
@settings(max_examples=400, deadline=None)
def test_the_screen_and_the_full_check_give_the_same_answer(case):
    record, knowledge, h, tie_break, learned, backward = case
    full = check_search(record, knowledge, h, tie_break, backward=backward, learned_h=learned)
    event("a broken rule" if full.problem else "a tie taken another way" if full.first_tie else "the SPEC's order")
    compiled = CompiledScreen(knowledge.height, knowledge.width)
    # the compiled screen twice with the same arrays: the second search must not see the first's state
    for quick in (screen_search(record, knowledge, tie_break, learned, backward),
                  compiled(record, knowledge, tie_break, learned, backward),
                  compiled(record, knowledge, tie_break, learned, backward)):
        assert (quick is None) == (full.problem is not None), full.problem
        if quick is not None:
            assert (quick.g_goal, quick.open_empty, quick.pointer_path) == (full.g_goal, full.open_empty,
                                                                            full.pointer_path)
            assert bool(quick.first_tie) == bool(full.first_tie)


def test_a_worked_example_of_a_tie_taken_the_other_way():
    # A 2 x 2 open grid from (0, 0) to (1, 1), ties to the larger g. Worked by hand: h(0, 0) = 2;
    # expanding (0, 0) inserts east (0, 1) first (stamp 1), then south (1, 0) (stamp 2), both with
    # f = 1 + 1 = 2, g = 1: equal keys, and the SPEC's order takes (0, 1) first. Expanding (1, 0)
    # first is legal, another order; after it g(goal) = 2 <= min f = 2, so the search stops there.
    knowledge = Knowledge(2, 2)
    record = SearchRecord((0, 0), (1, 1), [(0, 0), (1, 0)], [])
    one_more = SearchRecord((0, 0), (1, 1), [(0, 0), (1, 0), (0, 1)], [])
    for screen in (screen_search, CompiledScreen(2, 2)):
        verdict = screen(record, knowledge, "larger_g")
        assert verdict is not None and verdict.first_tie and verdict.g_goal == 2
        assert verdict.pointer_path == [(0, 0), (1, 0), (1, 1)]  # the goal's pointer: (1, 0), expanded first
        assert screen(one_more, knowledge, "larger_g") is None  # one expansion more breaks the stop rule


def spoiled_run(trace, rng: random.Random):
    """The run with one run-level mistake (or none), chosen at random: the walk, the paths, the ends."""
    from dataclasses import replace

    kind = rng.choice(["none", "none", "one_move_more", "one_move_less", "reached_flipped", "path_reversed",
                       "path_cut", "search_dropped", "start_moved"])
    searches = [replace(record, expanded=list(record.expanded), path=list(record.path)) for record in trace.searches]
    trajectory, reached = list(trace.trajectory), trace.reached
    with_path = [i for i, record in enumerate(searches) if len(record.path) > 1]
    if kind == "one_move_more" and len(trajectory) > 1:
        trajectory.append(trajectory[-2])
    elif kind == "one_move_less" and len(trajectory) > 1:
        trajectory.pop()
    elif kind == "reached_flipped":
        reached = not reached
    elif kind == "path_reversed" and with_path:
        searches[rng.choice(with_path)].path.reverse()
    elif kind == "path_cut" and with_path:
        searches[rng.choice(with_path)].path.pop()
    elif kind == "search_dropped" and len(searches) > 1:
        del searches[rng.randrange(len(searches))]
    elif kind == "start_moved" and searches:
        record = searches[rng.randrange(len(searches))]
        searches[searches.index(record)] = replace(record, start=record.goal, goal=record.start)
    return replace(trace, trajectory=trajectory, reached=reached, searches=searches)


def test_screened_replays_of_real_style_runs_are_the_full_replay():
    """Runs of every style submission (heap orders, random tie-breaks, the classic mistakes at the search
    and at the run level) on the handout's examples, the hand-made cases and a standard maze, each also
    spoiled at the run level half the time (a move more or less, a path reversed or cut, a search
    dropped, reached flipped), are judged three ways besides the full replay:

    * replayed search by search through either screen: the problem and note are the full replay's, or
      the screen says a rule is broken (SCREENED_OUT) where the full replay names one;
    * by ``screen_run``, the compiled screen of the whole encoded run (no Python per expansion or move):
      legal exactly where the full replay finds no problem, and then the note on its first tie is the
      full replay's;
    * by ``screen_run`` from the middle search on, as the grader does after the searches that hash like
      the reference's: a run it calls legal has no problem in the replay from there on.
    """
    from pathlib import Path

    from autograder.instances import grouped_public_instances
    from autograder.searchcheck import _tie_note
    from autograder.searchcheck_compiled import screen_run
    from reference.world.trace import Trace, encode_trace
    from tests.helpers import fair_replay

    styles = Path(__file__).resolve().parents[1] / "submissions" / "styles"
    groups = dict.fromkeys(("examples", "handmade", "standard"), 0)
    mazes = []  # the handout's examples, the hand-made cases and one standard maze
    for group, instance in grouped_public_instances():
        if group in groups and groups[group] < (1 if group == "standard" else 99):
            groups[group] += 1
            mazes.append(instance)
    rng = random.Random(20261129)
    compared = {"legal": 0, "legal with a tie": 0, "screened out": 0, "another problem": 0}
    for folder in sorted(p for p in styles.iterdir() if p.is_dir() and not p.name.startswith(("_", "."))):
        module = fair_replay.load_submission(folder)
        for check, (algorithm, tie_break) in fair_replay.CHECKS.items():
            for maze in mazes:
                run = fair_replay.run_submission(module, maze, algorithm, tie_break)
                if isinstance(run, fair_replay.Verdict):
                    continue
                trace = spoiled_run(Trace(algorithm, tie_break, run.reached, list(run.trajectory),
                                          [SearchRecord(s.start, s.goal, list(s.expanded), list(s.path))
                                           for s in run.searches]), rng)
                where = (folder.name, check, maze.name)
                full = _replay(maze, trace, tie_break, first_different=0)
                compiled = _replay(maze, trace, tie_break, first_different=0, screen=CompiledScreen)
                readable = _replay(maze, trace, tie_break, first_different=0, screen=readable_screen)
                assert readable == compiled, where
                if compiled[0] is SCREENED_OUT:
                    assert full[0] is not None, where
                else:
                    assert compiled == full, where
                header, arrays = encode_trace(trace, maze.grid.height, maze.grid.width)
                legal, tie_search = screen_run(maze, header, arrays, tie_break, first_different=0)
                assert legal == (full[0] is None), (where, full[0])
                if legal:
                    assert _tie_note(maze, header, arrays, tie_break, tie_search) == full[1], where
                    compared["legal with a tie" if full[1] else "legal"] += 1
                else:
                    compared["screened out" if compiled[0] is SCREENED_OUT else "another problem"] += 1
                middle = len(trace.searches) // 2
                if middle:
                    # here the searches before the middle may not hash like the reference's, and Adaptive
                    # A*'s screen still reads their g: it may find a problem the replay skips (the grader
                    # then replays), never pass one the replay finds
                    assert not screen_run(maze, header, arrays, tie_break, middle)[0] or \
                        _replay(maze, trace, tie_break, middle)[0] is None, where
    assert min(compared.values()) >= 20, compared


@st.composite
def crafted_replies(draw):
    """A reply a hostile child could send: well formed (every cell inside the grid, the lists' lengths
    adding up, as the grader's validation lets through), its contents arbitrary."""
    from reference.world.grid import Gridworld
    from reference.world.instances import Instance

    height, width = draw(st.integers(1, 5)), draw(st.integers(1, 5))
    cells = height * width
    rng = random.Random(draw(st.integers(0, 2**32)))
    blocked = [[rng.random() < 0.25 for _ in range(width)] for _ in range(height)]
    free = [(r, c) for r in range(height) for c in range(width) if not blocked[r][c]]
    if not free:
        blocked[0][0], free = False, [(0, 0)]
    grid = Gridworld.from_strings(["".join("@" if b else "." for b in row) for row in blocked])
    start, target = rng.choice(free), rng.choice(free)
    instance = Instance("crafted", grid, start, target)

    def some_cells(most: int) -> list[int]:
        return [rng.randrange(cells) for _ in range(rng.randrange(most + 1))]

    searches = draw(st.integers(0, 4))
    meta, expanded, paths = [], [], []
    for _ in range(searches):
        ends = [start[0] * width + start[1], target[0] * width + target[1]]
        own_expanded, own_path = some_cells(8), some_cells(6)
        meta += [*(ends if rng.random() < 0.7 else some_cells(2) + [0, 0])[:2], len(own_expanded), len(own_path)]
        expanded += own_expanded
        paths += own_path
    trajectory = [start[0] * width + start[1]] + some_cells(6)
    header = {"algorithm": draw(st.sampled_from(["forward", "backward", "adaptive"])),
              "tie_break": draw(st.sampled_from(["larger_g", "smaller_g"])), "reached": draw(st.booleans()),
              "searches": searches}
    arrays = [array("i", values) for values in (trajectory, meta, expanded, paths)]
    return instance, header, arrays


@given(crafted_replies())
@settings(max_examples=300, deadline=None)
def test_a_crafted_reply_never_passes_the_whole_run_screen_unless_the_replay_passes_it(reply):
    # The whole-run screen reads a child's arrays in compiled code: on any well-formed reply it must
    # return (no crash, no read outside an array), and pass a run only where the full replay does.
    from autograder.searchcheck import _tie_note
    from autograder.searchcheck_compiled import screen_run
    from reference.world.trace import check_encoded_trace, decode_trace

    instance, header, arrays = reply
    check_encoded_trace(header, arrays, instance.grid.height, instance.grid.width)  # as the grader does first
    trace = decode_trace(header, arrays, instance.grid.width)
    problem, note = _replay(instance, trace, header["tie_break"], first_different=0)
    legal, tie_search = screen_run(instance, header, arrays, header["tie_break"], first_different=0)
    event("legal" if legal else "broken")
    assert legal == (problem is None), problem
    if legal:
        assert _tie_note(instance, header, arrays, header["tie_break"], tie_search) == note
