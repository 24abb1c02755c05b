"""The trace record (SPEC §8): JSON round trips and a loader that names what is wrong."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference.world.trace import SearchRecord, Trace, TraceFormatError

cells = st.tuples(st.integers(0, 50), st.integers(0, 50))
records = st.builds(SearchRecord, cells, cells, st.lists(cells, max_size=6), st.lists(cells, max_size=6))
traces = st.builds(Trace, st.sampled_from(["forward", "backward", "adaptive"]),
                   st.sampled_from(["larger_g", "smaller_g"]), st.booleans(),
                   st.lists(cells, min_size=1, max_size=6), st.lists(records, max_size=4))


@given(traces)
def test_json_round_trip(trace: Trace) -> None:
    assert Trace.from_json(trace.to_json()) == trace
    assert trace.expansions == sum(len(s.expanded) for s in trace.searches)
    assert trace.moves == len(trace.trajectory) - 1


def test_save_and_load(tmp_path) -> None:
    trace = Trace("adaptive", "smaller_g", False, [(0, 0)], [SearchRecord((0, 0), (1, 1), [(0, 0)], [])])
    trace.save(tmp_path / "t.json")
    assert Trace.load(tmp_path / "t.json") == trace
    with pytest.raises(TraceFormatError, match="no such file"):
        Trace.load(tmp_path / "missing.json")


GOOD = {"algorithm": "forward", "tie_break": "larger_g", "reached": True, "trajectory": [[0, 0], [0, 1]],
        "searches": [{"start": [0, 0], "goal": [0, 1], "expanded": [[0, 0]], "path": [[0, 0], [0, 1]]}]}


def broken(path: str, value):
    data = json.loads(json.dumps(GOOD))
    target = data
    keys = path.split("/")
    for key in keys[:-1]:
        target = target[int(key)] if key.isdigit() else target[key]
    last = keys[-1]
    if value is KeyError:
        del target[last]
    else:
        target[int(last) if last.isdigit() else last] = value
    return data


@pytest.mark.parametrize("data,message", [
    (broken("algorithm", "sideways"), "algorithm: expected one of"),
    (broken("tie_break", "random"), "tie_break: expected one of 'larger_g', 'smaller_g'"),
    (broken("reached", "yes"), "reached: expected true or false"),
    (broken("reached", KeyError), "reached: missing"),
    (broken("trajectory", []), "trajectory: expected at least the start cell"),
    (broken("trajectory/1", [0, 1, 2]), r"trajectory\[1\]: expected \[row, col\] with two integers"),
    (broken("trajectory/1", [True, 1]), r"trajectory\[1\]: expected \[row, col\]"),
    (broken("searches/0/expanded/0", "A1"), r"searches\[0\].expanded\[0\]: expected \[row, col\]"),
    (broken("searches/0/path", KeyError), r"searches\[0\].path: missing"),
    (broken("searches", {}), "searches: expected a list"),
    ([1, 2], "expected a trace object"),
])
def test_validation_names_the_field(data, message: str) -> None:
    with pytest.raises(TraceFormatError, match=message):
        Trace.from_dict(data)


def test_bounds_checked_when_the_grid_size_is_given() -> None:
    assert Trace.from_dict(GOOD, height=2, width=2).reached
    with pytest.raises(TraceFormatError, match=r"searches\[0\].goal: cell \[0, 1\] lies outside the 1 x 1 grid"):
        Trace.from_dict(broken("trajectory", [[0, 0]]), height=1, width=1)


def test_numpy_integers_are_cells_too() -> None:
    data = broken("trajectory", [[np.int64(0), np.int32(0)], [0, 1]])
    assert Trace.from_dict(data).trajectory == [(0, 0), (0, 1)]


def test_invalid_json_is_reported() -> None:
    with pytest.raises(TraceFormatError, match="not valid JSON"):
        Trace.from_json("{")


def test_read_trace_accepts_objects_with_the_fields_as_attributes() -> None:
    """A student's own record classes are traces too, if they have the SPEC §8 fields."""
    from types import SimpleNamespace

    from reference.world.trace import read_trace

    search = SimpleNamespace(start=(0, 0), goal=(0, 1), expanded=[(0, 0)], path=[(0, 0), (0, 1)])
    mine = SimpleNamespace(algorithm="forward", tie_break="larger_g", reached=np.bool_(True),
                           trajectory=[(0, 0), (0, 1)], searches=[search])
    trace = read_trace(mine, 1, 2)
    assert trace == Trace("forward", "larger_g", True, [(0, 0), (0, 1)],
                          [SearchRecord((0, 0), (0, 1), [(0, 0)], [(0, 0), (0, 1)])])
    del search.path
    with pytest.raises(TraceFormatError, match=r"searches\[0\]\.path: missing"):
        read_trace(mine)
    mine.reached = "yes"
    with pytest.raises(TraceFormatError, match="reached: expected true or false"):
        read_trace(mine)
