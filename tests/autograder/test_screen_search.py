"""The grader's quick screens answer ``check_search``'s question the same way.

``screen_search`` and its compiled twin (``autograder/searchcheck_compiled.py``) decide whether every
expansion of a search is a legal A* choice; ``check_search`` decides the same and names the rule a
search breaks. The grader screens a run first and replays it in full only where the screen finds a
broken rule, so the three must agree on every search: legal or not, g(goal), whether OPEN ran empty,
the tree pointers' path, and whether a tie was taken in another order than the SPEC's. The searches here come from a third A*, written in this file: it breaks the
remaining ties at random (as a student's heap does), and is then, half the time, spoiled the ways
students spoil one (two expansions swapped, one dropped or repeated, the goal expanded, the search
cut short or run on, a foreign cell expanded).
"""

from __future__ import annotations

import random

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


def test_the_screened_replay_of_real_style_runs_is_the_full_replay():
    """Runs of the style set's submissions (heap orders, a random tie-break, classic mistakes) on the
    public instances' small groups and a standard maze: screened by either screen, a run's problem and
    note are the full replay's, or the screen says a rule is broken where the full replay names one."""
    from pathlib import Path

    from autograder.instances import grouped_public_instances
    from reference.world.trace import Trace
    from tests.helpers import fair_replay

    styles = Path(__file__).resolve().parents[1] / "submissions" / "styles"
    groups = dict.fromkeys(("examples", "handmade", "standard"), 0)
    mazes = []  # the handout's examples, the hand-made cases and one standard maze
    for group, instance in grouped_public_instances():
        if group in groups and groups[group] < (1 if group == "standard" else 99):
            groups[group] += 1
            mazes.append(instance)
    compared = {"legal": 0, "screened out": 0, "the same other problem": 0}
    for name in ("heapq_tuples", "heapq_unseeded_random", "counts_goal", "stale_reexpand", "adaptive_wrong_goal_g",
                 "smaller_g_stops_at_goal_pop"):
        module = fair_replay.load_submission(styles / name)
        for check, (algorithm, tie_break) in fair_replay.CHECKS.items():
            for maze in mazes:
                run = fair_replay.run_submission(module, maze, algorithm, tie_break)
                if isinstance(run, fair_replay.Verdict):
                    continue
                trace = Trace(algorithm, tie_break, run.reached, list(run.trajectory),
                              [SearchRecord(s.start, s.goal, list(s.expanded), list(s.path)) for s in run.searches])
                full = _replay(maze, trace, tie_break, first_different=0)
                compiled = _replay(maze, trace, tie_break, first_different=0, screen=CompiledScreen)
                readable = _replay(maze, trace, tie_break, first_different=0, screen=readable_screen)
                assert readable == compiled, (name, check, maze.name)
                if compiled[0] is SCREENED_OUT:
                    assert full[0] is not None, (name, check, maze.name)
                    compared["screened out"] += 1
                else:
                    assert compiled == full, (name, check, maze.name)
                    compared["legal" if full[0] is None else "the same other problem"] += 1
    assert compared["legal"] >= 10 and compared["screened out"] >= 5, compared
