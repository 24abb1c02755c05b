"""End to end: correct submissions of several styles score full marks, the starter scores 0, and each
classic mistake loses exactly the instance groups it breaks, with a message that names it.

The correct submissions (tests/submissions/correct_*) are our own code, written from the SPEC, not
from the reference. Mistake submissions are the dict-and-tuple one with one passage patched. Which
groups a mistake breaks is decided by an independent referee: the patched code is run in this
process on every instance and compared with the reference solver's trace, not read off the grader.
"""

from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path

import pytest

from autograder.export import exported_sources
from autograder.grader import GradingOptions, grade_submission
from autograder.rubric import load_rubric

REPO = Path(__file__).resolve().parents[2]
SUBMISSIONS = Path(__file__).resolve().parents[1] / "submissions"
SEARCH_CHECKS = ("forward_larger_g", "forward_smaller_g", "backward", "adaptive")
OWN_CORRECT = ("correct_dicts", "correct_classes", "correct_notebook")


def write_submission(folder: Path, patches: list[tuple[str, str]] = ()) -> Path:
    """Our dict-and-tuple submission, with ``(old, new)`` text patches applied to replanning.py."""
    shutil.copytree(SUBMISSIONS / "correct_dicts", folder)
    source = (folder / "replanning.py").read_text()
    for old, new in patches:
        if old is None:  # append
            source += new
            continue
        assert old in source, f"patch anchor not found: {old!r}"
        source = source.replace(old, new)
    (folder / "replanning.py").write_text(source)
    return folder


def write_reference(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in exported_sources().items():
        (folder / name).write_text(text)
    return folder


def all_messages(report, check_id: str) -> str:
    return "\n".join(next(c for c in report.checks if c.id == check_id).messages)


@pytest.fixture(scope="module")
def rubric():
    return load_rubric()


def test_reference_scores_full_marks_on_public_and_hidden(tmp_path, monkeypatch, rubric):
    monkeypatch.setenv("FTR_SECRET_SEED", "987654")
    report = grade_submission(write_reference(tmp_path / "reference"), GradingOptions(hidden=True))
    assert report.score == report.max_score == sum(rubric.autograded.values())
    assert report.extra_credit == sum(rubric.extra_credit.values())
    assert {c.id for c in report.checks} >= {f"{c}_hidden" for c in SEARCH_CHECKS}
    assert all(c.status == "passed" for c in report.checks), report.to_text()


@pytest.mark.parametrize("name", OWN_CORRECT)
def test_our_own_correct_submissions_score_full_marks_on_public_and_hidden(monkeypatch, rubric, name):
    """A dict-and-tuple folder (cells as lists, returns at start == target without sensing, a helper
    module), a class-based folder (a Trace of NumPy ints, senses anyway) and a notebook with scratch
    cells (a demo run, a plot, an endless loop, a try/except import): the SPEC allows all of it."""
    monkeypatch.setenv("FTR_SECRET_SEED", "1357911")
    report = grade_submission(SUBMISSIONS / name, GradingOptions(hidden=True))
    assert report.score == report.max_score == sum(rubric.autograded.values()), report.to_text()
    assert report.extra_credit == sum(rubric.extra_credit.values()), report.to_text()
    assert {c.id for c in report.checks} >= {f"{c}_hidden" for c in SEARCH_CHECKS}


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
    """OPEN as a list that keeps stale duplicates (the mistake): no update, no membership."""

    def __init__(self):
        self.entries = []

    def __len__(self):
        return len(self.entries)

    def __contains__(self, item):
        return False

    def push(self, item, key):
        self.entries.append([key, item])
        self.entries.sort()

    @property
    def slots(self):
        return self.entries

    def pop(self):
        return self.entries.pop(0)[1]
'''

MISTAKES = {
    # Ties in f always go to the smaller g: only the smaller-g check stays right.
    "smaller_g_ties": (
        [('second = -g[cell] if tie_break == "larger_g" else g[cell]', "second = g[cell]")],
        "ties in f go to the larger g",
    ),
    # The agent does not look around before its first search: the world refuses its first move.
    "no_observation_at_start": (
        [("walls = set(world.sense(start))", "walls = set()")],
        "in its start cell before the first search",
    ),
    # OPEN keeps stale duplicates (a lazy heap without the "already closed?" test).
    "re_expanding_closed_cells": (
        [("open_heap = BinaryHeap()", "open_heap = _LazyOpen()"), (None, LAZY_OPEN)],
        "expanded at most once per search",
    ),
    # The goal is appended to CLOSED when the search ends.
    "goal_counted_as_expansion": (
        [("        found = g[s_goal] < INF\n", "        found = g[s_goal] < INF\n        if found:\n"
                                               "            closed.append(s_goal)\n")],
        "the goal is never counted as an expansion",
    ),
    # Backward: reversing the pointers gives a target-to-agent path; only backward uses it.
    "backward_path_reversed": (
        [('path = chain if kind == "backward" else chain[::-1]', "path = chain[::-1]")],
        "reversed",
    ),
}


def _load_module(folder: Path):
    """Import a submission folder in this process (it is the test's own code)."""
    sys.path.insert(0, str(folder))
    for name in ("heap", "search_helpers"):
        sys.modules.pop(name, None)
    try:
        spec = importlib.util.spec_from_file_location(f"patched_{folder.name}", folder / "replanning.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(folder))
        for name in ("heap", "search_helpers"):
            sys.modules.pop(name, None)
    return module


def _normal(trace) -> tuple:
    """A trace (dict or Trace) as plain tuples, for comparison."""
    get = (lambda key: trace[key]) if isinstance(trace, dict) else (lambda key: getattr(trace, key))
    cells = lambda values: tuple(tuple(int(v) for v in cell) for cell in values)  # noqa: E731
    searches = []
    for search in get("searches"):
        part = (lambda key: search[key]) if isinstance(search, dict) else (lambda key: getattr(search, key))
        searches.append((tuple(part("start")), tuple(part("goal")), cells(part("expanded")), cells(part("path"))))
    return bool(get("reached")), cells(get("trajectory")), tuple(searches)


#: The reference solver's runs, normalised, by (instance fingerprint, algorithm, tie rule). Every call of
#: referee_losses compares with the same runs on the same public instances: solved once per process they
#: are the same runs, and the calls after the first skip about 4 CPU s of readable A* each.
_REFERENCE_RUNS: dict[tuple[str, str, str], tuple] = {}


def reference_run(instance, algorithm: str, tie_break: str) -> tuple:
    """``_normal(solve(instance, algorithm, tie_break))``, solved once per process."""
    from autograder.expected import fingerprint
    from reference.solutions import solve

    key = (fingerprint(instance), algorithm, tie_break)
    if key not in _REFERENCE_RUNS:
        _REFERENCE_RUNS[key] = _normal(solve(instance, algorithm, tie_break))
    return _REFERENCE_RUNS[key]


def referee_losses(folder: Path, rubric, checks: tuple[str, ...] | None = None) -> dict[str, float]:
    """The points a patched submission should lose: per check and instance group, the group's share
    when the patched code's trace differs from the reference solver's on any of its instances (or
    raises). A search mistake is charged once, by the search checks; efficiency only when the probe's
    run raises (nothing to time). ``checks``: judge only these (default: every check)."""
    from autograder.expected import SETTINGS
    from autograder.grader import probe_seed
    from autograder.instances import efficiency_probe, grouped_public_instances
    from reference.world.sensing import FogOfWarWorld

    module = _load_module(folder)

    def run(function, instance, tie_break):
        try:
            return _normal(getattr(module, function)(FogOfWarWorld(instance.grid, instance.start), instance.start,
                                                     instance.target, tie_break))
        except Exception:  # noqa: BLE001
            return None

    groups = rubric.groups
    pairs = grouped_public_instances()
    total = sum(groups[g] for g in {g for g, _ in pairs})
    losses: dict[str, float] = {}
    for check_id, (algorithm, tie_break, function) in SETTINGS.items():
        if checks is not None and check_id not in checks:
            continue
        broken = {group for group, instance in pairs
                  if run(function, instance, tie_break) != reference_run(instance, algorithm, tie_break)}
        lost_points = sum(rubric.autograded[check_id] * groups[g] / total for g in broken)
        if lost_points:
            losses[check_id] = round(lost_points, 2)
    # A search mistake costs its search checks once: the probe's run is timed on its own work whether or
    # not it is the SPEC's run (none of these mistakes is slow). Only a run that does not finish (it
    # raises) has no time to count.
    probe = efficiency_probe(probe_seed())  # the probe the grader times (fixed by the secret seed)
    if (checks is None or "efficiency" in checks) and run("repeated_forward_astar", probe, "larger_g") is None:
        losses["efficiency"] = rubric.autograded["efficiency"]
    return losses


@pytest.mark.parametrize("mistake", sorted(MISTAKES))
def test_a_classic_mistake_loses_exactly_the_groups_it_breaks(tmp_path, mistake, rubric, monkeypatch):
    # A secret seed fixes the efficiency probe for grader and referee alike (without one the grader
    # draws a random probe, on which a mistake may or may not show: the test was flaky).
    monkeypatch.setenv("FTR_SECRET_SEED", "271828")
    patches, phrase = MISTAKES[mistake]
    folder = write_submission(tmp_path / mistake, patches)
    expected = referee_losses(folder, rubric)
    assert expected, "the patch changes nothing: the test lost its point"
    report = grade_submission(folder)
    assert lost(report) == expected, report.to_text()
    for check in set(expected) & set(SEARCH_CHECKS):
        assert phrase in all_messages(report, check), report.to_text()
    assert report.extra_credit == rubric.extra_credit["heap_from_scratch"]  # the heap is untouched


def test_other_remaining_ties_earn_most_but_not_all_points_of_their_group(tmp_path, rubric):
    # Equal (f, g): the entry inserted LAST goes first. A correct A*, but not the SPEC's order.
    folder = write_submission(tmp_path / "lifo_ties", [("return (g[cell] + h(cell), second, stamp)",
                                                        "return (g[cell] + h(cell), second, -stamp)")])
    checks = ("forward_larger_g", "adaptive")
    differing = referee_losses(folder, rubric, checks)  # the groups whose traces differ (remaining ties only)
    report = grade_submission(folder, GradingOptions(checks=checks))
    for check_id in checks:
        check = next(c for c in report.checks if c.id == check_id)
        assert differing.get(check_id), "no remaining tie differs: the test lost its point"
        expected = rubric.autograded[check_id] - (1 - rubric.ties_credit) * differing[check_id]
        assert check.points == pytest.approx(expected, abs=0.011), report.to_text()
        assert "inserted into OPEN first" in "\n".join(check.messages)


def test_a_pass_over_all_cells_in_every_search_fails_only_the_efficiency_check(tmp_path, rubric):
    # The handout forbids it: g reset for every cell at the start of each search (correct, but slow).
    eager = ("        counter += 1\n",
             "        counter += 1\n"
             "        for r in range(world.height):  # every cell, every search\n"
             "            for c in range(world.width):\n"
             "                g[(r, c)], visited_in[(r, c)] = INF, counter\n")
    report = grade_submission(write_submission(tmp_path / "eager", [eager]),
                              GradingOptions(checks=("forward_larger_g", "efficiency")))
    assert lost(report) == {"efficiency": rubric.autograded["efficiency"]}, report.to_text()
    assert "every search visit every cell" in all_messages(report, "efficiency")


def test_searching_again_before_the_path_is_blocked_names_the_walking_rule(tmp_path):
    # The agent stops whenever it sees any new blocked cell, not only one on its path ahead (SPEC §6).
    stop_early = ("""            agent = cell
            walls.update(world.sense(agent))
            trace["trajectory"].append(list(agent))
            if agent == target:
                return trace
""", """            agent = cell
            seen = set(world.sense(agent))
            stop_now = bool(seen - walls)
            walls.update(seen)
            trace["trajectory"].append(list(agent))
            if agent == target:
                return trace
            if stop_now:
                break
""")
    report = grade_submission(write_submission(tmp_path / "stops_early", [stop_early]),
                              GradingOptions(checks=("forward_larger_g",)))
    assert report.score < 14
    assert "a cell on the rest of the path is known to be blocked" in all_messages(report, "forward_larger_g")
