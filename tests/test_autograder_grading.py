"""End to end: the reference as a submission scores full marks, the starter scores 0, and each
classic mistake loses exactly the checks it breaks, with a message that names it.

Mistake submissions are the exported reference solution with one line patched. Which checks a
mistake breaks is argued from the SPEC in each case, not read off the grader's output.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from autograder.export import exported_sources
from autograder.grader import GradingOptions, grade_submission
from autograder.rubric import load_rubric

REPO = Path(__file__).resolve().parents[1]
SEARCH_CHECKS = ("forward_larger_g", "forward_smaller_g", "backward", "adaptive")


def write_submission(folder: Path, patches: list[tuple[str, str]] = ()) -> Path:
    """The reference solution as a submission, with ``(old, new)`` text patches applied to replanning.py."""
    sources = exported_sources()
    for old, new in patches:
        if old is None:  # append
            sources["replanning.py"] += new
            continue
        assert old in sources["replanning.py"], f"patch anchor not found (the reference changed?): {old!r}"
        sources["replanning.py"] = sources["replanning.py"].replace(old, new)
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in sources.items():
        (folder / name).write_text(text)
    return folder


def all_messages(report, check_id: str) -> str:
    return "\n".join(next(c for c in report.checks if c.id == check_id).messages)


@pytest.fixture(scope="module")
def rubric():
    return load_rubric()


def test_reference_scores_full_marks_on_public_and_hidden(tmp_path, monkeypatch, rubric):
    monkeypatch.setenv("FTR_SECRET_SEED", "987654")
    report = grade_submission(write_submission(tmp_path / "reference"), GradingOptions(hidden=True))
    assert report.score == report.max_score == sum(rubric.autograded.values())
    assert report.extra_credit == sum(rubric.extra_credit.values())
    assert {c.id for c in report.checks} >= {f"{c}_hidden" for c in SEARCH_CHECKS}
    assert all(c.status == "passed" for c in report.checks), report.to_text()


def test_untouched_starter_scores_zero_with_a_message_per_check(rubric):
    starter = REPO / "starter"
    if not (starter / "replanning.py").exists():
        pytest.skip("starter/ not written yet")
    report = grade_submission(starter)
    assert report.score == 0 and report.extra_credit == 0
    for check in report.checks:
        assert check.messages, check.id
        if check.id != "heap_from_scratch":
            assert "NotImplementedError" in "\n".join(check.messages), check.id


def lost(report) -> dict[str, float]:
    return {c.id: c.max_points - c.points for c in report.checks if c.points < c.max_points}


LAZY_OPEN = '''

class _LazyOpen:
    """OPEN as a heapq list that keeps stale duplicates (the mistake)."""

    def __init__(self):
        self.entries = []

    def __len__(self):
        return len(self.entries)

    def __contains__(self, item):
        return False  # never removes an item's old entry

    def push(self, item, key):
        import heapq
        heapq.heappush(self.entries, (key, item))

    def pop(self):
        import heapq
        return heapq.heappop(self.entries)[1]

    def min_priority(self, default=None):
        return self.entries[0][0] if self.entries else default
'''

BLIND_AT_START = '''

class _BlindAtStart(AgentBody):
    """An agent that does not look around before its first search (the mistake)."""

    def look(self):
        if len(self.trajectory) == 1 and not getattr(self, "started", False):
            self.started = True
            return []
        return super().look()
'''

STOPS_EARLY = '''

class _StopsEarly(AgentBody):
    """An agent that stops whenever it sees any new blocked cell (the mistake)."""

    def walk(self, path):
        moved = []
        for cell in path[1:]:
            self.cell = tuple(cell)
            self.trajectory.append(self.cell)
            moved.append(self.cell)
            if self.look():
                break
        return moved
'''

MISTAKES = {
    # Ties in f always go to the smaller g: only the smaller-g check is still right.
    "smaller_g_ties": (
        [('return (f, -g, self.stamp) if self.tie_break == "larger_g" else (f, g, self.stamp)',
          "return (f, g, self.stamp)")],
        {"forward_larger_g", "backward", "adaptive"},
        "ties in f go to the larger g",
    ),
    # The agent does not look around before its first search: every run is wrong from the start,
    # and the probe cannot be timed either (the world refuses the first move).
    "no_observation_at_start": (
        [("    agent = AgentBody(world, start, knowledge)", "    agent = _BlindAtStart(world, start, knowledge)"),
         (None, BLIND_AT_START)],
        set(SEARCH_CHECKS) | {"efficiency"},
        "in its start cell before the first search",
    ),
    # OPEN keeps stale duplicates (a lazy heap without the "already closed?" test): a state whose
    # g was lowered while in OPEN is expanded again when its stale entry comes up. Which settings
    # this breaks is found below by running the patched code and counting repeated expansions.
    "re_expanding_closed_cells": (
        [("        open_list, closed = BinaryHeap(), []  # line 24\n", "        open_list, closed = _LazyOpen(), []  # line 24\n"),
         (None, LAZY_OPEN)],
        None,
        "expanded at most once per search",
    ),
    # The goal is appended to CLOSED when the search ends.
    "goal_counted_as_expansion": (
        [("return SearchRecord(s_start, s_goal, closed, self.path(s_start, s_goal))",
          "return SearchRecord(s_start, s_goal, closed + [s_goal], self.path(s_start, s_goal))")],
        set(SEARCH_CHECKS),
        "the goal is never counted as an expansion",
    ),
    # Backward: reversing the pointers gives a target-to-agent path; only backward uses it.
    "backward_path_reversed": (
        [('return path[::-1] if self.direction == "forward" else path', "return path[::-1]")],
        {"backward"},
        "reversed",
    ),
}


@pytest.mark.parametrize("mistake", sorted(MISTAKES))
def test_a_classic_mistake_loses_exactly_the_checks_it_breaks(tmp_path, mistake, rubric):
    patches, broken, phrase = MISTAKES[mistake]
    folder = write_submission(tmp_path / mistake, patches)
    if broken is None:
        broken = settings_with_repeated_expansions(folder)
        assert broken, "the patched code never expands a state twice: the test lost its point"
    report = grade_submission(folder)
    assert lost(report) == {check: rubric.autograded[check] for check in broken}, report.to_text()
    for check in broken & set(SEARCH_CHECKS):
        assert phrase in all_messages(report, check), report.to_text()
    assert report.extra_credit == rubric.extra_credit["heap_from_scratch"]  # the heap is untouched


def settings_with_repeated_expansions(folder: Path) -> set[str]:
    """Run the submission in this process (it is the test's own code) and see where a search expands a state twice."""
    import importlib.util
    import sys

    from autograder.expected import SETTINGS
    from autograder.instances import public_instances
    from reference.world.sensing import FogOfWarWorld

    sys.path.insert(0, str(folder))
    sys.modules.pop("heap", None)
    try:
        spec = importlib.util.spec_from_file_location("patched_replanning", folder / "replanning.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(folder))
        sys.modules.pop("heap", None)
    broken = set()
    for check_id, (_algorithm, tie_break, function) in SETTINGS.items():
        for instance in public_instances():
            trace = getattr(module, function)(FogOfWarWorld(instance.grid, instance.start), instance.start,
                                              instance.target, tie_break)
            if any(len(s.expanded) != len(set(s.expanded)) for s in trace.searches):
                broken.add(check_id)
                break
    return broken


@pytest.mark.parametrize("checks", [
    ("forward_larger_g", "adaptive"),
    pytest.param(("forward_smaller_g", "backward"), marks=pytest.mark.slow),
])
def test_other_remaining_ties_earn_most_but_not_all_points(tmp_path, rubric, checks):
    # Equal (f, g): the entry inserted LAST goes first. A correct A*, but not the SPEC's order.
    patches = [("return (f, -g, self.stamp) if self.tie_break == \"larger_g\" else (f, g, self.stamp)",
                "return (f, -g, -self.stamp) if self.tie_break == \"larger_g\" else (f, g, -self.stamp)")]
    report = grade_submission(write_submission(tmp_path / "lifo_ties", patches), GradingOptions(checks=checks))
    for check_id in checks:
        check = next(c for c in report.checks if c.id == check_id)
        assert check.points == pytest.approx(rubric.ties_credit * rubric.autograded[check_id]), report.to_text()
        assert "inserted into OPEN first" in "\n".join(check.messages)


def test_a_pass_over_all_cells_in_every_search_fails_only_the_efficiency_check(tmp_path, rubric):
    # The handout forbids it: g reset for every cell at the start of each search (correct, but slow).
    eager = ("        self.search[s_goal] = self.counter  # line 23\n",
             ("        self.search[s_goal] = self.counter  # line 23\n"
              "        for cell in knowledge.as_grid().cells():  # every cell, every search\n"
              "            if self.search.get(cell, 0) != self.counter:\n"
              "                self.g[cell] = INFINITY\n"))
    report = grade_submission(write_submission(tmp_path / "eager", [eager]),
                              GradingOptions(checks=("forward_larger_g", "efficiency")))
    assert lost(report) == {"efficiency": rubric.autograded["efficiency"]}, report.to_text()
    assert "every search visit every cell" in all_messages(report, "efficiency")


def test_searching_again_before_the_path_is_blocked_names_the_walking_rule(tmp_path):
    # The agent stops whenever it sees any new blocked cell, not only one on its path ahead (SPEC §6).
    stop_early = [("    agent = AgentBody(world, start, knowledge)", "    agent = _StopsEarly(world, start, knowledge)"),
                  (None, STOPS_EARLY)]
    report = grade_submission(write_submission(tmp_path / "stops_early", stop_early),
                              GradingOptions(checks=("forward_larger_g",)))
    assert report.score == 0
    assert "a cell on the rest of the path is known to be blocked" in all_messages(report, "forward_larger_g")
