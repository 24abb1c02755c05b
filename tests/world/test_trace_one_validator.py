"""The kit's one trace validator, met three ways: ``read_trace`` (files, notebooks, the CLI),
``encode_trace`` (the sandboxed child, on what a student's function returned) and
``check_encoded_trace`` (the grader, on what an untrusted child sent). One mistake, one message."""

from __future__ import annotations

from array import array
from collections import deque

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from autograder.searchcheck import validate_run
from reference.world.trace import (SearchRecord, Trace, TraceFormatError, check_encoded_trace, decode_trace,
                                   encode_trace, read_trace)

HEIGHT, WIDTH = 3, 4
GOOD = {"algorithm": "forward", "tie_break": "larger_g", "reached": True, "trajectory": [[0, 0], [0, 1]],
        "searches": [{"start": [0, 0], "goal": [0, 1], "expanded": [[0, 0]], "path": [[0, 0], [0, 1]]},
                     {"start": [0, 1], "goal": [0, 1], "expanded": [[0, 1], [1, 1]], "path": [[0, 1]]}]}


def encoded(data: dict) -> tuple[dict, list[array]]:
    """What a child that skipped the check would send: the good trace's encoding with ``data``'s
    header fields and cells put in by hand (index = row * 4 + col)."""
    header, arrays = encode_trace(GOOD, HEIGHT, WIDTH)
    header = {**header, **{k: v for k, v in data.items() if k in ("algorithm", "tie_break", "reached")}}
    trajectory, meta, expanded, paths = arrays
    if "trajectory" in data:
        trajectory = array("i", [r * WIDTH + c for r, c in data["trajectory"]])
    if "expanded_1" in data:  # search 1's expanded list (search 0 has one cell)
        expanded = array("i", [expanded[0]] + [r * WIDTH + c for r, c in data["expanded_1"]])
    return header, [trajectory, meta, expanded, paths]


@pytest.mark.parametrize("change, message", [
    ({"trajectory": [[0, 0], [3, 1]]}, r"trajectory[1]: cell [3, 1] lies outside the 3 x 4 grid"),
    ({"trajectory": [[-1, 3], [0, 1]]}, r"trajectory[0]: cell [-1, 3] lies outside the 3 x 4 grid"),
    ({"trajectory": []}, "trajectory: expected at least the start cell, got an empty list"),
    ({"reached": "yes"}, "reached: expected true or false, got 'yes'"),
    ({"algorithm": "sideways"}, "algorithm: expected one of 'forward', "),
    ({"tie_break": 1}, "tie_break: expected one of 'larger_g', 'smaller_g', got 1"),
])
def test_one_mistake_one_message_on_every_path(change, message):
    data = {**GOOD, **change}
    messages = []
    for check in (lambda: read_trace(data, HEIGHT, WIDTH), lambda: encode_trace(data, HEIGHT, WIDTH),
                  lambda: check_encoded_trace(*encoded(change), HEIGHT, WIDTH)):
        with pytest.raises(TraceFormatError) as caught:
            check()
        messages.append(str(caught.value))
    assert messages[0] == messages[1] == messages[2], messages
    assert messages[0].startswith(message)


def test_the_grader_names_a_cell_of_the_flat_expansion_list_by_its_search():
    # Search 1 expanded (0, 1), then a cell outside: the second cell of search 1's list, as
    # read_trace names the same cell in the same trace written out.
    data = {**GOOD, "searches": [GOOD["searches"][0], {**GOOD["searches"][1], "expanded": [[0, 1], [2, 9]]}]}
    with pytest.raises(TraceFormatError) as from_objects:
        read_trace(data, HEIGHT, WIDTH)
    with pytest.raises(TraceFormatError) as from_arrays:
        check_encoded_trace(*encoded({"expanded_1": [[0, 1], [2, 9]]}), HEIGHT, WIDTH)
    # index 2 * 4 + 9 = 17 decodes to (4, 1): the grader sees only indices
    assert str(from_objects.value) == "searches[1].expanded[1]: cell [2, 9] lies outside the 3 x 4 grid"
    assert str(from_arrays.value) == "searches[1].expanded[1]: cell [4, 1] lies outside the 3 x 4 grid"


def test_the_arrays_must_add_up_and_the_reply_must_hold_the_sensed_cells():
    header, arrays = encode_trace(GOOD, HEIGHT, WIDTH)
    with pytest.raises(TraceFormatError, match="the expanded lists' lengths do not add up"):
        check_encoded_trace(header, [arrays[0], arrays[1], arrays[2][:-1], arrays[3]], HEIGHT, WIDTH)
    with pytest.raises(TraceFormatError, match="the number of searches does not match"):
        check_encoded_trace({**header, "searches": 3}, arrays, HEIGHT, WIDTH)
    with pytest.raises(TraceFormatError, match="five arrays"):
        validate_run(header, arrays, HEIGHT, WIDTH)
    with pytest.raises(TraceFormatError, match="sensed cells: a cell index outside the grid"):
        validate_run(header, arrays + [array("i", [0, 12])], HEIGHT, WIDTH)
    validate_run(header, arrays + [array("i", [0, 1])], HEIGHT, WIDTH)


def test_ordered_containers_of_every_kind_are_traces_and_encode_the_same():
    as_lists = encode_trace(GOOD, HEIGHT, WIDTH)
    search = GOOD["searches"][1]
    kinds = {**GOOD, "trajectory": np.array(GOOD["trajectory"]),               # a NumPy array of cells
             "searches": (GOOD["searches"][0],
                          {"start": (np.int64(0), np.int32(1)), "goal": np.array([0, 1]),
                           "expanded": deque(tuple(c) for c in search["expanded"]), "path": [(0, 1)]})}
    assert encode_trace(kinds, HEIGHT, WIDTH)[0] == as_lists[0]
    assert [list(a) for a in encode_trace(kinds, HEIGHT, WIDTH)[1]] == [list(a) for a in as_lists[1]]
    assert read_trace(kinds) == read_trace(GOOD)


@pytest.mark.parametrize("bad, message", [
    ({"expanded": {(0, 1), (1, 1)}}, r"searches[1].expanded: expected a list of [row, col] cells, got set"),
    ({"path": "A2"}, "searches[1].path: expected a list of [row, col] cells, got str"),
    ({"expanded": [[0, 1], [True, 1]]}, "searches[1].expanded[1]: expected [row, col] with two integers, got [True, 1]"),
    ({"expanded": [[0, 1], [1.0, 1]]}, "searches[1].expanded[1]: expected [row, col] with two integers, got [1.0, 1]"),
    ({"expanded": [[0, 1], [1, 1, 1]]}, "searches[1].expanded[1]: expected [row, col] with two integers"),
    ({"expanded": [[0, 1], {0: 1, 1: 1}]}, "searches[1].expanded[1]: expected [row, col] with two integers"),
])
def test_what_is_not_a_list_of_cells_is_named(bad, message):
    data = {**GOOD, "searches": [GOOD["searches"][0], {**GOOD["searches"][1], **bad}]}
    for check in (lambda: read_trace(data), lambda: encode_trace(data, HEIGHT, WIDTH)):
        with pytest.raises(TraceFormatError) as caught:
            check()
        assert str(caught.value).startswith(message)


def test_a_long_value_is_shown_cut():
    with pytest.raises(TraceFormatError) as caught:
        read_trace({**GOOD, "reached": "x" * 10_000})
    assert len(str(caught.value)) < 120 and str(caught.value).endswith("...")


cells = st.tuples(st.integers(0, HEIGHT - 1), st.integers(0, WIDTH - 1))


@given(st.lists(cells, min_size=1, max_size=12),
       st.lists(st.tuples(cells, cells, st.lists(cells, max_size=8), st.lists(cells, max_size=8)), max_size=5),
       st.booleans(), st.sampled_from(["forward", "backward", "adaptive"]))
@settings(max_examples=80, deadline=None)
def test_encoding_then_decoding_gives_the_trace_back(trajectory, searches, reached, algorithm):
    trace = Trace(algorithm, "smaller_g", reached, trajectory, [SearchRecord(s, g, e, p) for s, g, e, p in searches])
    header, arrays = encode_trace(trace, HEIGHT, WIDTH)
    check_encoded_trace(header, arrays, HEIGHT, WIDTH)
    assert decode_trace(header, arrays, WIDTH) == read_trace(trace.to_dict(), HEIGHT, WIDTH) == trace
