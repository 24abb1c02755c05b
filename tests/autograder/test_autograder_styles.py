"""Submissions in the styles students really write (tests/submissions/styles/), graded fairly.

``tests/submissions/styles/EXPECTED.toml`` declares, for each submission, the fair verdict of every
search check per instance group (``exact``, ``ties`` for a legal A* whose remaining ties are broken
otherwise, ``wrong``), the points that follow from the rubric, the heap, efficiency and extra-credit
points, and the phrases its feedback must and must not contain. It was committed before anything
was graded. Two referees hold the declarations to account:

(a) ``tests/helpers/fair_replay.py``, written apart from ``autograder/``, runs each submission in this
    process and replays its runs on its own trajectory: its verdicts and points must equal the
    declared ones (the handout examples and hand-made cases in the default run; every group,
    standard mazes and hidden instances included, under ``-m slow``);
(b) the real grader, ``grade_all`` over the whole set with hidden instances, ``jobs=2`` and a fixed
    secret seed, graded once for the module: every check's points and feedback must match.
"""

from __future__ import annotations

import ast
import importlib.util
import random
from pathlib import Path

import pytest

from tests.helpers import fair_replay

try:
    import tomllib
except ImportError:  # Python 3.10: the package tomllib came from
    import tomli as tomllib

STYLES = Path(__file__).resolve().parents[1] / "submissions" / "styles"
EXPECTED = tomllib.loads((STYLES / "EXPECTED.toml").read_text())
SUBMISSIONS = EXPECTED["submissions"]
NAMES = sorted(SUBMISSIONS)
SECRET_SEED = int(EXPECTED["secret_seed"])
SEARCH_CHECKS = tuple(fair_replay.CHECKS)
PUBLIC_GROUPS = ("examples", "handmade", "standard")
FORBIDDEN_MODULES = {"heapq", "_heapq", "queue", "_queue", "bisect", "_bisect", "sortedcontainers"}


def test_every_submission_is_declared_and_the_set_has_both_kinds():
    folders = sorted(p.name for p in STYLES.iterdir() if p.is_dir() and not p.name.startswith(("_", ".")))
    assert folders == NAMES
    kinds = [SUBMISSIONS[name]["kind"] for name in NAMES]
    assert kinds.count("correct") >= 8 and kinds.count("mistake") >= 8


def allowed(verdict: str) -> set[str]:
    """``"exact|ties"`` (an unseeded random tie-break may land on the SPEC's order) -> both."""
    return set(verdict.split("|"))


def declared_points(name: str, rubric) -> dict[str, tuple[float, float]]:
    """Each check's (least, most) points as the rubric gives them from the declared verdicts."""
    weights, every = rubric.groups, ["examples", "handmade", "standard", "hidden"]
    out: dict[str, tuple[float, float]] = {}
    for check in SEARCH_CHECKS:
        verdicts = SUBMISSIONS[name]["verdicts"][check]
        for suffix, groups in (("", PUBLIC_GROUPS), ("_hidden", ("hidden",))):
            worst = {g: [max(allowed(verdicts[g]), key=("exact", "ties", "wrong").index)] for g in groups}
            best = {g: [min(allowed(verdicts[g]), key=("exact", "ties", "wrong").index)] for g in groups}
            points = rubric.autograded[check]
            out[check + suffix] = (fair_replay.check_points(worst, points, weights, rubric.ties_credit, every),
                                   fair_replay.check_points(best, points, weights, rubric.ties_credit, every))
    return out


@pytest.fixture(scope="module")
def rubric():
    from autograder.rubric import load_rubric

    return load_rubric()


@pytest.mark.parametrize("name", NAMES)
def test_the_declared_points_follow_from_the_declared_verdicts(name, rubric):
    declared = SUBMISSIONS[name]["points"]
    for check, (least, most) in declared_points(name, rubric).items():
        value = declared[check]
        assert (value if isinstance(value, list) else [value, value]) == pytest.approx([least, most]), check


def imported_modules(folder: Path) -> set[str]:
    names: set[str] = set()
    for source in folder.glob("*.py"):
        for node in ast.walk(ast.parse(source.read_text())):
            if isinstance(node, ast.Import):
                names |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module:
                names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("name", NAMES)
def test_the_declared_extra_credit_is_whether_any_module_imports_a_ready_made_queue(name, rubric):
    scratch = not imported_modules(STYLES / name) & FORBIDDEN_MODULES
    assert SUBMISSIONS[name]["heap_from_scratch"] == (rubric.extra_credit["heap_from_scratch"] if scratch else 0)


@pytest.mark.parametrize("name", NAMES)
def test_each_heap_behaves_like_a_sorted_list(name, rubric):
    """The declared heap points: each BinaryHeap against a model (a dict, sorted on demand) on random
    push / pop / peek / update / remove, with the misuse errors of SPEC §11."""
    spec = importlib.util.spec_from_file_location(f"styles_heap_{name}", STYLES / name / "heap.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    heap_class = module.BinaryHeap
    rng = random.Random(name)
    for _sequence in range(4):
        heap, model = heap_class(), {}
        priorities = rng.sample(range(10_000), 400)
        for step in range(300):
            action = rng.choice(["push", "push", "pop", "peek", "update", "remove"])
            if action == "push" or not model:
                item = rng.randrange(200)
                if item in model:
                    with pytest.raises(ValueError):
                        heap.push(item, priorities.pop())
                    continue
                model[item] = (priorities.pop(), -step)  # tuple priorities, as A*'s keys
                heap.push(item, model[item])
            elif action in ("pop", "peek"):
                smallest = min(model, key=model.__getitem__)
                assert (heap.pop() if action == "pop" else heap.peek()) == smallest
                if action == "pop":
                    del model[smallest]
            elif action == "update":
                item = rng.choice(sorted(model))
                model[item] = (priorities.pop(), step)
                heap.update(item, model[item])
            else:
                item = rng.choice(sorted(model))
                heap.remove(item)
                del model[item]
            assert len(heap) == len(model) and all(item in heap for item in model)
        while model:
            smallest = min(model, key=model.__getitem__)
            assert heap.pop() == smallest
            del model[smallest]
        for misuse, error in ((heap.pop, IndexError), (heap.peek, IndexError),
                              (lambda: heap.remove(-1), KeyError), (lambda: heap.update(-1, (0, 0)), KeyError)):
            with pytest.raises(error):
                misuse()
    assert SUBMISSIONS[name]["heap"] == rubric.autograded["heap"]


# -- (a) the independent referee ----------------------------------------------------------------------

def grouped_instances(groups: tuple[str, ...]):
    from autograder.instances import grouped_public_instances, hidden_instances

    pairs = [(group, instance) for group, instance in grouped_public_instances() if group in groups]
    if "hidden" in groups:
        pairs += [("hidden", instance) for instance in hidden_instances(SECRET_SEED)]
    return pairs


def referee_verdicts(name: str, groups: tuple[str, ...]) -> dict[str, dict[str, tuple[str, str]]]:
    """check -> group -> (the group's verdict, the first wrong instance's reason)."""
    from reference.solutions import solve

    module = fair_replay.load_submission(STYLES / name)
    out: dict[str, dict[str, tuple[str, str]]] = {}
    pairs = grouped_instances(groups)
    for check, (algorithm, tie_break) in fair_replay.CHECKS.items():
        tiers: dict[str, list[fair_replay.Verdict]] = {}
        for group, instance in pairs:
            reference = fair_replay.normalise(solve(instance, algorithm, tie_break))
            tiers.setdefault(group, []).append(fair_replay.judge(module, instance, check, reference))
        out[check] = {}
        for group, verdicts in tiers.items():
            names = [v.tier for v in verdicts]
            tier = "wrong" if "wrong" in names else "ties" if "ties" in names else "exact"
            out[check][group] = (tier, next((f"{v.reason}" for v in verdicts if v.tier == "wrong"), ""))
    return out


@pytest.mark.parametrize("name", NAMES)
def test_the_referee_agrees_with_the_declared_verdicts_on_the_small_groups(name):
    """The handout examples and the hand-made cases (seconds for the whole set)."""
    seen = referee_verdicts(name, ("examples", "handmade"))
    for check in SEARCH_CHECKS:
        for group in ("examples", "handmade"):
            tier, reason = seen[check][group]
            assert tier in allowed(SUBMISSIONS[name]["verdicts"][check][group]), (check, group, reason)


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_the_referee_gives_the_declared_fair_points_on_every_group(name, rubric):
    """Standard mazes and hidden instances too: the declared points are the referee's."""
    seen = referee_verdicts(name, ("examples", "handmade", "standard", "hidden"))
    every = ["examples", "handmade", "standard", "hidden"]
    for check in SEARCH_CHECKS:
        for group in every:
            tier, reason = seen[check][group]
            assert tier in allowed(SUBMISSIONS[name]["verdicts"][check][group]), (check, group, reason)
        for suffix, groups in (("", PUBLIC_GROUPS), ("_hidden", ("hidden",))):
            points = fair_replay.check_points({g: [seen[check][g][0]] for g in groups}, rubric.autograded[check],
                                              rubric.groups, rubric.ties_credit, every)
            value = SUBMISSIONS[name]["points"][check + suffix]
            least, most = value if isinstance(value, list) else (value, value)
            assert least - 0.005 <= points <= most + 0.005, (check + suffix, points, value)


# -- (b) the real grader ------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """The whole set graded once by ``grade_all`` (hidden instances, two jobs, a fixed secret seed)."""
    import json
    import os

    from autograder.batch import grade_all
    from autograder.grader import GradingOptions

    out = tmp_path_factory.mktemp("styles_graded")
    before = os.environ.get("FTR_SECRET_SEED")
    os.environ["FTR_SECRET_SEED"] = str(SECRET_SEED)
    try:
        grade_all(STYLES, out, GradingOptions(hidden=True), jobs=2, force=True, progress=False)
    finally:
        if before is None:
            os.environ.pop("FTR_SECRET_SEED", None)
        else:
            os.environ["FTR_SECRET_SEED"] = before
    return {name: json.loads((out / f"{name}.json").read_text()) for name in NAMES}


@pytest.mark.parametrize("name", NAMES)
def test_the_grader_gives_the_declared_points(graded, name):
    checks = {check["id"]: check for check in graded[name]["checks"]}
    declared = SUBMISSIONS[name]
    wanted = dict(declared["points"], heap=declared["heap"], efficiency=declared["efficiency"],
                  heap_from_scratch=declared["heap_from_scratch"])
    wrong = {}
    for check, value in wanted.items():
        least, most = value if isinstance(value, list) else (value, value)
        if not least - 0.011 <= checks[check]["points"] <= most + 0.011:
            wrong[check] = f"{checks[check]['points']} (fair: {value})"
    assert not wrong, "\n".join([f"{check}: {why}" for check, why in wrong.items()] + ["", "the grader said:"]
                                 + [f"[{c}] " + m for c in wrong for m in checks[c]["messages"]])


@pytest.mark.parametrize("name", NAMES)
def test_the_grader_says_what_the_run_did(graded, name):
    """Each declared phrase is in the check's messages (its public and hidden parts together); no
    misleading one is."""
    checks = {check["id"]: check for check in graded[name]["checks"]}
    problems = []
    for check, phrases in SUBMISSIONS[name].get("feedback", {}).items():
        text = "\n".join(checks[check]["messages"] + checks.get(check + "_hidden", {"messages": []})["messages"])
        problems += [f"{check}: missing {phrase!r}" for phrase in phrases.get("must", []) if phrase not in text]
        problems += [f"{check}: misleading {phrase!r}" for phrase in phrases.get("must_not", []) if phrase in text]
    assert not problems, "\n".join(problems)
