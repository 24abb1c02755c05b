"""The autograder's parts on their own: the wire format, the expansion replay, the heap model, the
source check, notebook extraction, the rubric and the instance sets."""

from __future__ import annotations

import os
import sys
from array import array
from pathlib import Path
try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from autograder import wire
from autograder.expected import SETTINGS, expected_run, fingerprint, from_encoded
from autograder.heapcheck import (
    from_scratch_problems,
    judge_heap,
    make_sequences,
    model_answers,
)
from autograder.instances import (
    efficiency_probe,
    example_instances,
    handmade_instances,
    hidden_instances,
    public_instances,
)
from autograder.rubric import (DEFAULT_AUTOGRADED, DEFAULT_EFFICIENCY_RATIO, DEFAULT_EXTRA_CREDIT,
                               DEFAULT_TIES_CREDIT, RUBRIC_FILE)
from autograder.searchcheck import (
    RULE_TIES,
    check_search,
    judge_run,
    validate_run,
)
from autograder.submission import notebook_statements
from reference.world.grid import Gridworld, manhattan, shortest_distance
from reference.world.replay import AgentReplay
from reference.world.trace import SearchRecord, Trace, TraceFormatError, encode_trace

REPO = Path(__file__).resolve().parents[2]

# -- the wire format ----------------------------------------------------------------------------------

cells = st.tuples(st.integers(0, 9), st.integers(0, 6))


@given(st.lists(cells, min_size=1, max_size=30),
       st.lists(st.tuples(cells, cells, st.lists(cells, max_size=20), st.lists(cells, max_size=20)), max_size=6),
       st.booleans())
@settings(max_examples=60, deadline=None)
def test_a_trace_survives_the_wire(trajectory, searches, reached):
    trace = Trace("backward", "smaller_g", reached, trajectory,
                  [SearchRecord(s, g, list(e), list(p)) for s, g, e, p in searches])
    header, arrays = encode_trace(trace, 10, 7)
    reader, writer = os.pipe()
    try:
        wire.write_frame(writer, header, arrays)
        got_header, got_arrays = wire.read_frame(reader)
    finally:
        os.close(reader)
        os.close(writer)
    assert got_header["reached"] is reached and got_header["searches"] == len(searches)
    assert [divmod(i, 7) for i in got_arrays[0]] == trajectory
    assert [divmod(i, 7) for i in got_arrays[2]] == [c for s in searches for c in s[2]]


@pytest.mark.parametrize("bad, field", [
    ({"trajectory": [[0, 7]]}, "trajectory[0]"),            # column 7 is outside a 7-wide grid
    ({"trajectory": [[0.5, 1]]}, "trajectory"),             # not integers
    ({"reached": "yes"}, "reached"),
    ({"searches": [{"start": [0, 0], "goal": [0, 1], "expanded": [[0, 0]]}]}, "path"),
])
def test_malformed_traces_are_refused_naming_the_field(bad, field):
    good = {"algorithm": "forward", "tie_break": "larger_g", "reached": True, "trajectory": [[0, 0]], "searches": []}
    with pytest.raises(TraceFormatError, match=field.replace("[", r"\[").replace("]", r"\]")):
        encode_trace({**good, **bad}, 10, 7)


def test_oversized_and_inconsistent_frames_are_refused():
    reader, writer = os.pipe()
    try:
        wire.write_frame(writer, {"kind": "x"}, [array("i", range(1000))])
        with pytest.raises(wire.FrameError, match="larger than the limit"):
            wire.read_frame(reader, limit=100)
    finally:
        os.close(reader)
        os.close(writer)
    with pytest.raises(wire.FrameError, match="do not add up"):
        wire.decode_payload(wire.encode_frame({"kind": "x"}, [array("i", [1, 2])])[4:-4])


def test_the_parent_refuses_cells_outside_the_grid():
    header = {"algorithm": "forward", "tie_break": "larger_g", "reached": True, "searches": 0}
    arrays = [array("i", [0, 99]), array("i"), array("i"), array("i"), array("i", [0, 99])]
    with pytest.raises(TraceFormatError, match=r"trajectory\[1\]: cell \[33, 0\] lies outside the 3 x 3 grid"):
        validate_run(header, arrays, 3, 3)


# -- replaying one search -----------------------------------------------------------------------------

from tests.helpers.handout import FIGURE_2  # noqa: E402 - the handout's Figure 2, read from mazes/handout/


def cell(name: str) -> tuple[int, int]:
    """The handout's names: rows A-E, columns 1-5 (SPEC §10)."""
    return ("ABCDE".index(name[0]), int(name[1]) - 1)


def first_search(order: list[str], tie_break: str = "larger_g"):
    grid = Gridworld.from_strings(FIGURE_2)
    agent = AgentReplay(grid, cell("E3"))
    record = SearchRecord(cell("E3"), cell("E5"), [cell(n) for n in order], [])
    return check_search(record, agent.knowledge, lambda c: manhattan(c, cell("E5")), tie_break, "example_1, search 1")


def test_the_handouts_first_search_passes_the_replay():
    # SPEC §10, straight from the handout's Figure 3: E3, E2, E1, D2, D1, C2, C3, C4, C5, D5.
    verdict = first_search(["E3", "E2", "E1", "D2", "D1", "C2", "C3", "C4", "C5", "D5"])
    assert verdict.problem is None and verdict.first_tie is None
    assert verdict.g_goal == 8  # E3 -> E2 -> D2 -> C2 -> C3 -> C4 -> C5 -> D5 -> E5


def test_expanding_the_goal_is_named():
    verdict = first_search(["E3", "E2", "E1", "D2", "D1", "C2", "C3", "C4", "C5", "D5", "E5"])
    assert "expansion 11" in verdict.problem and "goal is never counted" in verdict.problem


def test_stopping_early_is_named():
    verdict = first_search(["E3", "E2", "E1", "D2"])
    assert "stopped after 4 expansions" in verdict.problem


def test_expanding_a_known_blocked_cell_points_at_the_start_observation():
    verdict = first_search(["E3", "E4"])  # E4 is blocked and seen from E3
    assert "knows it is blocked" in verdict.problem and "start cell" in verdict.problem


def test_expanding_twice_is_named():
    verdict = first_search(["E3", "E2", "E3"])
    assert "again (first at expansion 1)" in verdict.problem


def test_smaller_g_order_is_a_wrong_tie_break_for_larger_g():
    from reference.solutions import solve

    instance = example_instances()[2]  # no walls: ties everywhere (SPEC §10: 8 vs 23 expansions)
    smaller = solve(instance, "forward", "smaller_g").searches[0]
    verdict = check_search(smaller, AgentReplay(instance.grid, instance.start).knowledge,
                           lambda c: manhattan(c, instance.target), "larger_g", "example_3, search 1")
    assert RULE_TIES["larger_g"] in verdict.problem
    assert len(smaller.expanded) == 23


def test_judge_run_calls_the_reference_exact_on_every_public_instance_and_setting():
    from reference.solutions import solve

    for instance in example_instances() + handmade_instances():
        for check_id, (algorithm, tie_break, _) in SETTINGS.items():
            header, arrays = encode_trace(solve(instance, algorithm, tie_break), instance.grid.height,
                                               instance.grid.width)
            arrays.append(arrays[0])  # where the agent sensed from: its trajectory
            verdict = judge_run(instance, algorithm, tie_break, header, arrays, expected_run(instance, check_id))
            assert verdict.tier == "exact", (instance.name, check_id, verdict)


def test_a_search_that_expands_the_goal_is_wrong_in_judge_run():
    from reference.solutions import solve

    instance = example_instances()[0]
    trace = solve(instance, "forward", "larger_g")
    trace.searches[0].expanded.append(trace.searches[0].goal)
    header, arrays = encode_trace(trace, 5, 5)
    verdict = judge_run(instance, "forward", "larger_g", header, arrays + [arrays[0]],
                        expected_run(instance, "forward_larger_g"))
    assert verdict.tier == "wrong" and "search 1, expansion 11" in verdict.problem


# -- the heap check -----------------------------------------------------------------------------------

def run_heap(heap_class, sequences):
    """What the child does, done here with trusted code."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("child_harness", REPO / "autograder" / "child.py")
    child = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(child)
    return child.run_heap_task({"sequences": sequences}, {"BinaryHeap": heap_class})["outcomes"]


def test_the_reference_heap_agrees_with_the_model():
    from reference.solutions.heap import BinaryHeap

    sequences = make_sequences(seed=11)
    assert judge_heap(sequences, run_heap(BinaryHeap, sequences)) == (len(sequences), [])


def test_the_model_is_a_priority_queue():
    answers = model_answers([["push", 1, [5]], ["push", 2, [3]], ["peek", 0, [0]], ["update", 1, [1]],
                             ["pop", 0, [0]], ["remove", 7, [0]], ["push", 2, [9]], ["len", 0, [0]]])
    assert answers == [[0, None], [0, None], [0, 2], [0, None], [0, 1], [1, "KeyError"], [1, "ValueError"], [0, 1]]


def test_a_heap_that_pops_the_largest_fails_with_the_operation_named():
    from reference.solutions.heap import BinaryHeap

    class MaxHeap(BinaryHeap):
        def push(self, item, priority):
            super().push(item, tuple(-p for p in priority) if isinstance(priority, tuple) else -priority)

        def update(self, item, priority):
            super().update(item, tuple(-p for p in priority) if isinstance(priority, tuple) else -priority)

    sequences = make_sequences(seed=3, count=4)
    passed, messages = judge_heap(sequences, run_heap(MaxHeap, sequences))
    assert passed < 4 and "smallest priority" in messages[0]


def test_from_scratch_catches_shortcuts():
    assert from_scratch_problems({"heap.py": "import heapq\nclass BinaryHeap: pass"})
    assert from_scratch_problems({"heap.py": "from queue import PriorityQueue"})
    assert from_scratch_problems({"heap.py": "import importlib\nq = importlib.import_module('bisect')"})
    assert from_scratch_problems({"heap.py": "from reference.solutions.heap import BinaryHeap"})
    assert from_scratch_problems({"heap.py": (REPO / "reference" / "solutions" / "heap.py").read_text()}) == []


# -- notebooks, rubric, instances ----------------------------------------------------------------------

def test_notebook_cells_keep_definitions_and_drop_tests_and_plots():
    notebook = {"cells": [
        {"cell_type": "markdown", "source": "# Heap"},
        {"cell_type": "code", "source": ["%matplotlib inline\n", "import math\n", "X = 3\n", "def f():\n",
                                         "    return X\n", "print(f())\n"]},
        {"cell_type": "code", "source": "plt.plot([1, 2])\nassert f() == 3"},
        {"cell_type": "code", "source": "def broken(:\n    pass"},
    ]}
    kept = [s["source"] for s in notebook_statements(notebook)]
    # `import math` is used by no definition, so it is left out with the scratch statements.
    assert kept == ["X = 3", "def f():\n    return X"]


def test_notebook_scratch_assignments_are_dropped_but_what_definitions_use_is_kept():
    notebook = {"cells": [
        {"cell_type": "code", "execution_count": 4, "source": (
            "try:\n    from math import inf\nexcept ImportError:\n    inf = float('inf')\n"
            "import matplotlib.pyplot as plt\nSTEPS = [(0, 1)]\nBIG = STEPS * 2\n")},
        {"cell_type": "code", "source": "def step():\n    return BIG, inf"},
        {"cell_type": "code", "source": "demo = step()\nresults = [step() for _ in range(10**9)]\nwhile True:\n    pass"},
        {"cell_type": "code", "source": "repeated_forward_astar = step"},
    ]}
    kept = [(s["cell"], s["source"].splitlines()[0]) for s in notebook_statements(notebook)]
    # STEPS is needed through BIG; the try block defines inf; the required name's assignment stays.
    assert kept == [("In [4]", "try:"), ("In [4]", "STEPS = [(0, 1)]"), ("In [4]", "BIG = STEPS * 2"),
                    ("code cell 2", "def step():"), ("code cell 4", "repeated_forward_astar = step")]


def test_the_built_in_rubric_defaults_match_the_course_rubric():
    with open(RUBRIC_FILE, "rb") as file:
        rubric = tomllib.load(file)
    assert rubric["autograded"] == DEFAULT_AUTOGRADED
    assert rubric["extra_credit"] == DEFAULT_EXTRA_CREDIT
    assert rubric["policy"] == {"other_ties_credit": DEFAULT_TIES_CREDIT, "efficiency_ratio": DEFAULT_EFFICIENCY_RATIO}


def test_the_rubrics_policy_is_read_and_checked(tmp_path):
    from autograder.rubric import load_rubric

    path = tmp_path / "rubric.toml"
    path.write_text("[autograded]\nheap = 10\n[policy]\nother_ties_credit = 0.5\nefficiency_ratio = 4\n")
    rubric = load_rubric(path)
    assert (rubric.ties_credit, rubric.efficiency_ratio) == (0.5, 4.0)
    path.write_text("[policy]\nother_ties_credit = 1.5\n")
    with pytest.raises(ValueError, match="other_ties_credit must lie between 0 and 1"):
        load_rubric(path)


def test_the_public_set_holds_the_handouts_examples_and_the_specs_cases():
    names = [i.name for i in public_instances()]
    assert names[:3] == ["example_1", "example_2", "example_3"]
    by_name = {i.name: i for i in handmade_instances()}
    assert by_name["start_is_target"].start == by_name["start_is_target"].target
    assert shortest_distance(by_name["target_walled_in"].grid, by_name["target_walled_in"].start,
                             by_name["target_walled_in"].target) is None
    assert by_name["corridor_1x9"].grid.height == 1


def test_hidden_instances_follow_the_secret_and_include_the_special_cases():
    first, again, other = hidden_instances(1), hidden_instances(1), hidden_instances(2)
    assert [fingerprint(i) for i in first] == [fingerprint(i) for i in again]
    assert [fingerprint(i) for i in first] != [fingerprint(i) for i in other]
    by_name = {i.name: i for i in first}
    walled = by_name["hidden_target_walled_in"]
    assert shortest_distance(walled.grid, walled.start, walled.target) is None
    assert by_name["hidden_start_is_target"].start == by_name["hidden_start_is_target"].target
    assert any(i.grid.height == 1 for i in first) and any(i.grid.width == 1 for i in first)
    assert len({(i.grid.height, i.grid.width) for i in first}) >= 4
    public = {fingerprint(i) for i in public_instances()}
    assert not public & {fingerprint(i) for i in first}


def test_the_probe_is_large_with_small_searches():
    probe = efficiency_probe()
    run = expected_run(probe, "forward_larger_g")
    assert probe.grid.height == probe.grid.width == 1001
    assert run.reached and run.searches >= 50
    assert run.expansions / run.searches < 0.001 * probe.grid.size  # each search touches < 0.1% of the cells


def test_shipped_expectations_match_the_reference():
    # Read the shipped file itself: expected_run would compute a missing entry with compute_expected,
    # and the test would compare the reference with itself.
    from autograder.expected import ExpectedRun, _load_shipped, compute_expected

    shipped = _load_shipped()
    for instance in public_instances()[:9]:
        for check_id in SETTINGS:
            assert ExpectedRun(**shipped[fingerprint(instance)][check_id]) == compute_expected(instance, check_id)


def test_from_encoded_counts_match_the_trace():
    from reference.solutions import solve

    instance = example_instances()[0]
    trace = solve(instance, "adaptive")
    run = from_encoded(*encode_trace(trace, 5, 5))
    assert (run.searches, run.expansions, run.moves) == (len(trace.searches), trace.expansions, trace.moves)


# -- the replay agrees with the reference on random worlds ----------------------------------------------

@st.composite
def small_instances(draw):
    from reference.world.instances import Instance

    height, width = draw(st.integers(1, 7)), draw(st.integers(2, 7))
    blocked = draw(st.lists(st.lists(st.booleans(), min_size=width, max_size=width), min_size=height,
                            max_size=height))
    free = [(r, c) for r in range(height) for c in range(width) if not blocked[r][c]]
    if len(free) < 2:
        blocked[0][0] = blocked[0][1] = False
        free = [(0, 0), (0, 1)]
    start, target = draw(st.sampled_from(free)), draw(st.sampled_from(free))
    grid = Gridworld.from_strings(["".join("@" if b else "." for b in row) for row in blocked])
    return Instance("random", grid, start, target)


@given(small_instances(), st.sampled_from(sorted(SETTINGS)))
@settings(max_examples=80, deadline=None)
def test_the_replay_finds_nothing_wrong_with_the_reference(instance, check_id):
    # Two independent readings of the SPEC must agree: the reference's engine, and the grader's
    # expansion-by-expansion replay (which never looks at the reference).
    from autograder.searchcheck import _replay
    from reference.solutions import solve

    algorithm, tie_break, _ = SETTINGS[check_id]
    trace = solve(instance, algorithm, tie_break)
    assert _replay(instance, trace, tie_break, first_different=0) == (None, None)


@given(small_instances(), st.sampled_from(sorted(SETTINGS)), st.data())
@settings(max_examples=80, deadline=None)
def test_the_replay_catches_a_changed_expansion_order(instance, check_id, data):
    from autograder.searchcheck import _replay
    from reference.solutions import solve

    algorithm, tie_break, _ = SETTINGS[check_id]
    trace = solve(instance, algorithm, tie_break)
    candidates = [s for s in trace.searches if len(s.expanded) >= 3]
    if not candidates:
        return
    search = data.draw(st.sampled_from(candidates))
    i = data.draw(st.integers(1, len(search.expanded) - 2))
    search.expanded[i], search.expanded[i + 1] = search.expanded[i + 1], search.expanded[i]
    problem, note = _replay(instance, trace, tie_break, first_different=0)
    assert problem is not None or note is not None  # never taken for the SPEC's order


def test_notebook_statements_leave_out_only_imports_of_the_grader() -> None:
    """Test cells import the autograder (the sandbox has none): those imports are dropped, but a
    student's code that merely mentions the autograder is kept."""
    from autograder.submission import notebook_statements

    cells = [
        {"cell_type": "code", "source": "from autograder.notebook import check\nimport autograder"},
        {"cell_type": "code", "source": 'class BinaryHeap:\n    """Passes the autograder, I hope."""\n    push = heapq.heappush\n'},
        {"cell_type": "code", "source": "import heapq, autograder"},
    ]
    kept = [s["source"] for s in notebook_statements({"cells": cells})]
    assert kept == ['class BinaryHeap:\n    """Passes the autograder, I hope."""\n    push = heapq.heappush',
                    "import heapq, autograder"]


def test_the_autograder_modules_run_on_python_3_10_to_3_13():
    """They ship in the student bundle: Python 3.10's grammar, and nothing of the standard library that
    3.10 lacks unless it has a fall-back (``tomllib`` -> ``tomli``)."""
    import ast

    newer_than_3_10 = {("typing", "Self"), ("typing", "Never"), ("typing", "LiteralString"), ("enum", "StrEnum"),
                       ("datetime", "UTC"), ("asyncio", "TaskGroup")}
    for module in sorted((REPO / "autograder").glob("*.py")):
        tree = ast.parse(module.read_text(), filename=str(module), feature_version=(3, 10))
        guarded = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Try) and any(isinstance(h.type, ast.Name) and h.type.id == "ImportError"
                                                 for h in node.handlers):
                guarded |= {id(n) for n in ast.walk(node)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Import) and id(node) not in guarded:
                assert "tomllib" not in {a.name for a in node.names}, f"{module.name}: bare import tomllib"
            if isinstance(node, ast.ImportFrom) and node.module:
                for alias in node.names:
                    assert (node.module, alias.name) not in newer_than_3_10, f"{module.name}: {node.module}.{alias.name}"


def _random_ties_module(tmp_path_factory):
    """Our dict-and-tuple submission with remaining ties broken by a random number instead of a stamp:
    a legal A* whose choices among entries equal in f and g follow nothing the grader could guess."""
    import importlib.util
    import shutil

    folder = tmp_path_factory.mktemp("random_ties")
    for name in ("heap.py", "search_helpers.py", "replanning.py"):
        shutil.copy(Path(__file__).parents[1] / "submissions" / "correct_dicts" / name, folder / name)
    source = (folder / "replanning.py").read_text()
    anchor = "return (g[cell] + h(cell), second, stamp)"
    assert anchor in source
    (folder / "replanning.py").write_text("import random\n" + source.replace(anchor, "return (g[cell] + h(cell), second, "
                                                                             "random.random())"))
    sys.path[:0] = [str(folder)]
    try:
        spec = importlib.util.spec_from_file_location("random_ties_replanning", folder / "replanning.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        del sys.path[0]
        for name in ("heap", "search_helpers"):
            sys.modules.pop(name, None)
    return module


@pytest.fixture(scope="module")
def random_ties(tmp_path_factory):
    return _random_ties_module(tmp_path_factory)


@given(small_instances(), st.sampled_from(sorted(SETTINGS)), st.integers(0, 2**32 - 1))
@settings(max_examples=120, deadline=None)
def test_any_order_among_equal_f_and_g_is_a_legal_run(random_ties, instance, check_id, seed):
    """The property behind the "other ties" credit: an A* whose remaining ties fall by chance is never
    judged wrong; it is exact or earns the tie credit (SPEC §5's keys, any order among equal ones)."""
    import random

    from autograder.expected import compute_expected
    from autograder.searchcheck import judge_run
    from reference.world.sensing import FogOfWarWorld
    from reference.world.trace import encode_trace

    algorithm, tie_break, function = SETTINGS[check_id]
    random.seed(seed)
    world = FogOfWarWorld(instance.grid, instance.start)
    trace = getattr(random_ties, function)(world, instance.start, instance.target, tie_break)
    header, arrays = encode_trace(trace, instance.grid.height, instance.grid.width)
    visited = array("i", [row * instance.grid.width + col for row, col in world.visited])
    verdict = judge_run(instance, algorithm, tie_break, header, arrays + [visited], compute_expected(instance, check_id))
    assert verdict.tier in ("exact", "ties"), verdict.problem


def test_the_worked_example_of_legal_ties():
    """docs/autograder.md's worked example, by hand. A 2 x 3 grid without walls, agent (0, 0), target
    (1, 2), forward, larger g first, h = Manhattan distance to (1, 2):
    (0, 0) f=3 inserts (0, 1) then (1, 0), both g=1 h=2 f=3 (a remaining tie).
    SPEC: (0, 1) (inserted first) inserts (0, 2) then (1, 1), both g=2 f=3; (0, 2) (larger g than
    (1, 0), inserted before (1, 1)) inserts the goal (1, 2) with g=3; min f = 3 >= g(goal): stop.
    Another heap: (1, 0) inserts (1, 1) g=2 f=3, which beats (0, 1) (same f, larger g), and stops.
    Taking (0, 1) after (1, 0) breaks "ties in f go to the larger g"."""
    from autograder.searchcheck import check_search
    from reference.world.grid import manhattan
    from reference.world.sensing import Knowledge
    from reference.world.trace import SearchRecord

    def judge(expanded, path):
        record = SearchRecord((0, 0), (1, 2), expanded, path)
        return check_search(record, Knowledge(2, 3), lambda c: manhattan(c, (1, 2)), "larger_g", "example")

    exact = judge([(0, 0), (0, 1), (0, 2)], [(0, 0), (0, 1), (0, 2), (1, 2)])
    assert exact.problem is None and exact.first_tie is None
    other = judge([(0, 0), (1, 0), (1, 1)], [(0, 0), (1, 0), (1, 1), (1, 2)])
    assert other.problem is None and "equal in f and g" in other.first_tie
    assert other.pointer_path == [(0, 0), (1, 0), (1, 1), (1, 2)]
    wrong = judge([(0, 0), (1, 0), (0, 1)], [])
    assert "expected (1, 1) f=3 g=2" in wrong.problem and "you expanded (0, 1) f=3 g=1" in wrong.problem
    assert wrong.problem.endswith("ties in f go to the larger g")
