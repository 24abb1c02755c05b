"""The compiled searches' eight-connected move rule: one function, called by every loop over the moves.

:func:`reference.solutions.compiled.shortest_paths.move_rule` is the world's move rule (SPEC §12)
for compiled code; it must answer as the readable :func:`reference.world.grid.successors` does, and
every compiled loop over the move table calls it (``bench/eight_step.py`` measures the call as fast
as the rule written out), so no copy can drift.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from reference.solutions.compiled.shortest_paths import MOVE_COLS, MOVE_ROWS, move_rule
from reference.world.grid import successors

COMPILED = Path(__file__).resolve().parents[2] / "reference" / "solutions" / "compiled"
CALLED = "r, c, diagonal, allowed = move_rule(blocked, height, width, row, col, move_rows[move], move_cols[move])"


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 5), st.integers(1, 5), st.integers(0, 2**32 - 1), st.sampled_from([4, 8]))
def test_the_rule_answers_as_the_readable_successors(height: int, width: int, seed: int, connectivity: int) -> None:
    blocked = np.random.default_rng(seed).random((height, width)) < 0.35
    for row in range(height):
        for col in range(width):
            if blocked[row, col]:
                continue
            allowed = []
            for move in range(0, 8, 2 if connectivity == 4 else 1):  # the compiled loops' table order
                r, c, diagonal, ok = move_rule(blocked, height, width, row, col, MOVE_ROWS[move], MOVE_COLS[move])
                assert diagonal == (MOVE_ROWS[move] != 0 and MOVE_COLS[move] != 0)
                if ok:
                    allowed.append((int(r), int(c)))
            assert allowed == [cell for cell, _cost in successors(blocked, (row, col), connectivity)]


def loops_over_the_move_table() -> list[tuple[str, int, str, list[str]]]:
    """(file, line number, loop variable, the loop body's first line without comments) of every loop over
    the move table: ``for move in range(...)``, or a loop on another variable whose body reads the table."""
    loops = []
    for path in sorted(COMPILED.rglob("*.py")):
        lines = path.read_text().splitlines()
        for number, line in enumerate(lines):
            loop = re.match(r"\s*for (\w+) in range\(", line)
            if loop is None:
                continue
            body = [re.sub(r"\s*#.*$", "", text).strip() for text in lines[number + 1:number + 2]]
            if loop.group(1) == "move" or any("move_rows[" in text for text in body):
                loops.append((path.relative_to(COMPILED).as_posix(), number + 1, loop.group(1), body))
    return loops


def test_every_loop_over_the_moves_calls_the_rule() -> None:
    loops = loops_over_the_move_table()
    # shortest_paths (2), haa/query (2), haa/abstraction, subgoaling/tree, subgoaling/lrta, dynamic/lrta,
    # dynamic/pattern_database, and subgoaling/pursuit's hill-climbing (its loop variable is k): the walk
    # found the subpackages and the loops on another variable too
    assert {"shortest_paths.py", "haa/abstraction.py", "dynamic/pattern_database.py",
            "subgoaling/pursuit.py"} <= {name for name, _, _, _ in loops}
    assert len(loops) >= 10
    for name, number, variable, body in loops:
        called = CALLED.replace("[move]", f"[{variable}]")
        assert body[0] == called, f"compiled/{name}, line {number}: the move rule is not move_rule's call"
