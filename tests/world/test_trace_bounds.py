"""Trace files are student input: bounded in size, count and depth before they are parsed, and every
malformed value refused in one line with exit status 2 (``ftr animate --html --trace``, ``ftr draw
--trace``; issue 34). The numbers of the step-through player stay linear in a search's length."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from reference.world.grid import Gridworld
from reference.world.instances import Instance, load_folder, standard_mazes_dir
from reference.world.maps import write_map
from reference.world.player import player_data
from reference.world.replay import annotate_search, heuristic_for, search_contexts
from reference.world.trace import (MAX_TRACE_BYTES, MAX_TRACE_CELLS, MAX_TRACE_DEPTH, SearchRecord, Trace,
                                   TraceFormatError, parse_trace_json)
from tests.helpers.handout import EXAMPLE_1

REPO = Path(__file__).resolve().parents[2]
HEAD = '{"algorithm": "forward", "tie_break": "larger_g", "reached": true, '


def trace_text(trajectory: str, searches: str = "[]") -> str:
    return HEAD + f'"trajectory": {trajectory}, "searches": {searches}}}'


HOSTILE = {
    # the file's text: the one line that refuses it
    "digits": (trace_text("[[" + "9" * 5000 + ", 2]]"), "an integer of 5,000 digits"),
    "deep": (trace_text("[" * 100_000 + "]" * 100_000), "nested 100001 levels deep"),
    "float": (trace_text("[[1e99999, 2]]"), "trajectory[0]: expected [row, col] with two integers, got [inf, 2]"),
    "not JSON": (trace_text("[[4, 2]"), "not valid JSON"),
    "many cells": (trace_text("[[4, 2]]", '[{"start": [4, 2], "goal": [4, 4], "path": [], "expanded": ['
                              + ",".join(["[4,2]"] * (MAX_TRACE_CELLS + 1)) + "]}]"), "cells or more"),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_each_hostile_trace_is_refused_by_name(name: str) -> None:
    text, message = HOSTILE[name]
    with pytest.raises(TraceFormatError, match=message.replace("[", r"\[").replace("]", r"\]")):
        Trace.from_json(text, 5, 5)


def test_bounds_are_measured_before_parsing() -> None:
    with pytest.raises(TraceFormatError, match="larger than 32 MB"):
        parse_trace_json(b" " * (MAX_TRACE_BYTES + 1))
    # brackets inside strings are not structure: a deep-looking string is fine, a deep list is not
    assert parse_trace_json('{"a": "' + "[" * 50 + '"}') == {"a": "[" * 50}
    with pytest.raises(TraceFormatError, match=f"nested {MAX_TRACE_DEPTH + 1} levels"):
        parse_trace_json("[" * (MAX_TRACE_DEPTH + 1) + "]" * (MAX_TRACE_DEPTH + 1))
    with pytest.raises(TraceFormatError, match="not UTF-8"):
        parse_trace_json(b'{"a": "\xff"}')


def ftr(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "reference.cli", *args], capture_output=True, text=True,
                          check=False, cwd=REPO, timeout=300, env={**os.environ})


def test_the_commands_refuse_in_one_line_with_status_2(tmp_path) -> None:
    """The issue's three files, small: a 5,000-digit cell, a 100,000-deep list, and (as a file over the
    byte bound, the cheap way to write one) a trace far too large to parse."""
    grid_file = tmp_path / "example.map"
    write_map(EXAMPLE_1, grid_file)
    (tmp_path / "digits.json").write_text(HOSTILE["digits"][0])
    (tmp_path / "deep.json").write_text(HOSTILE["deep"][0])
    with (tmp_path / "huge.json").open("w") as file:
        file.write(HEAD + '"trajectory": [[4, 2]], "searches": []' + " " * MAX_TRACE_BYTES + "}")
    where = [str(grid_file), "--start", "4,2", "--target", "4,4"]
    runs = {"digits.json": ftr("animate", *where, "--trace", str(tmp_path / "digits.json"), "--html", str(tmp_path / "a.html")),
            "deep.json": ftr("draw", *where, "--trace", str(tmp_path / "deep.json"), "--out", str(tmp_path / "a.png")),
            "huge.json": ftr("animate", *where, "--trace", str(tmp_path / "huge.json"), "--html", str(tmp_path / "b.html"))}
    for name, result in runs.items():
        assert result.returncode == 2, (name, result.stderr[-500:])
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith(f"ftr: error: {tmp_path / name}: "), (name, lines)
        assert "Traceback" not in result.stderr
    assert not (tmp_path / "a.html").exists() and not (tmp_path / "a.png").exists()


def quadratic_g_events(record: SearchRecord, context, trace: Trace, width: int) -> list[list[int]]:
    """The referee: g and tree pointers re-derived by annotate_search on every prefix of the expansion
    order (the player's former, quadratic way), each change as [k, cell, g, parent]."""
    heuristic = heuristic_for(trace, context.index, context)
    events, g_now = [], {}
    for k in range(len(record.expanded) + 1):
        annotation = annotate_search(SearchRecord(record.start, record.goal, record.expanded[:k]), context.knowledge, heuristic)
        for cell, g in annotation.g.items():
            if g_now.get(cell) != g:
                g_now[cell] = g
                parent = annotation.tree.get(cell)
                events.append([k, cell[0] * width + cell[1], g, -1 if parent is None else parent[0] * width + parent[1]])
    return events


def test_the_players_one_pass_numbers_equal_the_prefix_replays() -> None:
    from reference.solutions import solve

    instance = load_folder(standard_mazes_dir())[3]
    small = Gridworld(16, 16, instance.grid.blocked[:16, :16].copy())
    small.blocked[0, 0] = small.blocked[15, 15] = False
    trace = solve(Instance("corner", small, (0, 0), (15, 15)), "forward", "larger_g")
    assert len(trace.searches) > 1
    data = player_data(small, trace, numbers=True)
    for context, numbers in zip(search_contexts(small, trace), data["numbers"]):
        record = trace.searches[context.index]
        expected = sorted(map(tuple, quadratic_g_events(record, context, trace, 16)))
        assert sorted(map(tuple, numbers["g"])) == expected
