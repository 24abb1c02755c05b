"""Every planner still gives the traces it gave before the readable reference and the agent core.

The fingerprints in tests/data/trace_digests.json were recorded with the kit's code as it stood
before the rewrite (see tests/helpers/trace_identity.py): Repeated Forward/Backward A* and Adaptive A* in
both tie rules, LRTA* (Korf), LRTA* with A* and breadth-first lookahead and D* Lite, both
heuristics, unknown and known terrain, on the handout's examples, on small random instances and on
the 50 standard mazes. The default run checks the handout's examples, the random instances and one
maze with every planner (maze 6, the cheapest of the ten the real-time planners ran on); ``-m slow``
checks all fifty.
"""

from __future__ import annotations

import json
import time
from collections import defaultdict

import pytest

from tests.helpers.trace_identity import DIGESTS, cases, fingerprint, key

RECORDED = json.loads(DIGESTS.read_text(encoding="utf-8"))


@pytest.fixture(autouse=True)
def cheap_clock(monkeypatch):
    """The real-time planners time every episode with time.process_time, a system call that can be
    slow on a busy machine; traces do not depend on it, so these checks use a cheap clock."""
    monkeypatch.setattr(time, "process_time", time.perf_counter)


def check(full: bool) -> None:
    differing: dict[str, list[str]] = defaultdict(list)
    count = 0
    for _group, instance, setting, run in cases(full):
        name = key(instance, setting)
        count += 1
        if fingerprint(run(instance)) != RECORDED[name]:
            differing[setting].append(instance.name)
    assert count > 0
    assert not differing, "traces changed: " + "; ".join(
        f"{setting} on {', '.join(names[:5])}{' ...' if len(names) > 5 else ''}" for setting, names in differing.items())


def test_every_planner_gives_its_recorded_traces_on_examples_random_instances_and_a_maze():
    check(full=False)


@pytest.mark.slow
def test_every_planner_gives_its_recorded_traces_on_all_fifty_mazes():
    check(full=True)


def test_the_recording_covers_every_planner_and_both_tie_rules():
    settings = {name.split(" ", 1)[1].split("/")[0] for name in RECORDED}
    assert settings == {"forward", "backward", "adaptive", "lrta", "lrta_astar", "lrta_bfs", "dstar_lite"}
    assert any("smaller_g" in name for name in RECORDED) and any("maze_49" in name for name in RECORDED)
