"""Fingerprints of every planner's traces, to prove that a refactoring changed no expansion.

The kit's planners (Repeated Forward/Backward A*, Adaptive A*, the LRTA* family, D* Lite) are run on
the 50 standard mazes, on small random instances (some with unreachable targets) and on the handout's
examples; each trace (SPEC §8, as JSON) is reduced to a SHA-256 fingerprint plus its counts. The
fingerprints in ``tests/data/trace_digests.json`` were recorded with the code as it stood *before*
the readable reference and the one agent core were written, so `test_trace_identity.py` compares
the code of today with the code of then, expansion for expansion. The compiled twins and the
autograder's expected results rely on this identity.

Record again only on purpose (a deliberate change of behaviour, reviewed):

    python tests/helpers/trace_identity.py            # rewrites tests/data/trace_digests.json
    python tests/helpers/trace_identity.py --check    # compares every case, two processes (the slow test)
"""

from __future__ import annotations

import hashlib
import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import Callable, Iterator

import numpy as np

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from reference.solutions import REPLANNERS  # noqa: E402
from reference.solutions.realtime import knowledge_of, lrta_star_lookahead, run_algorithm  # noqa: E402
from reference.world.grid import Gridworld  # noqa: E402
from reference.world.instances import Instance, handout_examples, load_folder, standard_mazes_dir  # noqa: E402
from reference.world.sensing import FogOfWarWorld  # noqa: E402

DIGESTS = Path(__file__).resolve().parents[1] / "data" / "trace_digests.json"

def handout_instances() -> list[Instance]:
    """SPEC §10: examples 1, 2 and 3 (mazes/handout/), named handout_1 ... handout_3."""
    return [replace(instance, name=f"handout_{number}") for number, instance in enumerate(handout_examples(), 1)]


def random_instances(count: int = 40, seed: int = 2026) -> list[Instance]:
    """Small random grids, 1 to 12 cells a side, 0-40 % blocked; some targets cannot be reached."""
    rng = np.random.default_rng(seed)
    instances = []
    while len(instances) < count:
        height, width = int(rng.integers(1, 13)), int(rng.integers(2, 13))
        blocked = rng.random((height, width)) < rng.uniform(0.0, 0.4)
        free = np.flatnonzero(~blocked)
        if len(free) < 2:
            continue
        first, second = rng.choice(free, size=2, replace=False)
        instances.append(Instance(f"random_{len(instances):02d}", Gridworld(height, width, blocked),
                                  divmod(int(first), width), divmod(int(second), width)))
    return instances


Runner = Callable[[Instance], object]


def replanning_settings() -> dict[str, Runner]:
    settings: dict[str, Runner] = {}
    for algorithm in REPLANNERS:
        for tie_break in ("larger_g", "smaller_g"):
            planner = REPLANNERS.planner(algorithm, tie_break=tie_break)
            settings[f"{algorithm}/{tie_break}"] = (
                lambda i, planner=planner: planner.run(FogOfWarWorld(i.grid, i.start), i.start, i.target))
    return settings


def realtime_settings(lookaheads: tuple[int, ...]) -> dict[str, Runner]:
    settings: dict[str, Runner] = {}
    for heuristic in ("strong", "weak"):
        runs = [("lrta", 1), ("dstar_lite", 1)] + [("lrta_astar", n) for n in lookaheads] \
            + [("lrta_bfs", n) for n in lookaheads]
        for name, lookahead in runs:
            settings[f"{name}/{heuristic}/{lookahead}"] = (
                lambda i, name=name, heuristic=heuristic, lookahead=lookahead:
                run_algorithm(name, FogOfWarWorld(i.grid, i.start), i.start, i.target, heuristic=heuristic, lookahead=lookahead).trace)
            settings[f"{name}/{heuristic}/{lookahead}/known"] = (
                lambda i, name=name, heuristic=heuristic, lookahead=lookahead:
                run_algorithm(name, FogOfWarWorld(i.grid, i.start), i.start, i.target, heuristic=heuristic, lookahead=lookahead,
                              knowledge=knowledge_of(i.grid)).trace)
    for lookahead in lookaheads:
        settings[f"lrta_astar/strong/{lookahead}/smaller_g"] = (
            lambda i, lookahead=lookahead:
            lrta_star_lookahead(FogOfWarWorld(i.grid, i.start), i.start, i.target, lookahead,
                                tie_break="smaller_g").trace)
    return settings


#: The maze of the default run (see :func:`cases`).
DEFAULT_MAZE = 6


def cases(full: bool) -> Iterator[tuple[str, Instance, str, Runner]]:
    """(group, instance, setting, runner) for every fingerprinted run.

    Groups: ``handout`` and ``random`` (every planner, small), ``mazes`` (the 50 standard mazes with
    Repeated A* in all six settings; the first ten also with the real-time planners at lookaheads 1,
    9 and 49: LRTA* makes tens of thousands of episodes on a maze). The default test run takes the
    small groups and one maze with every planner (``full=False``): maze 6, the cheapest of the first
    ten by its recorded expansions (143 thousand over all settings; maze 0 has 1.7 million).
    """
    small = replanning_settings() | realtime_settings((1, 2, 5))
    for instance in handout_instances():
        for setting, run in small.items():
            yield "handout", instance, setting, run
    for instance in random_instances():
        for setting, run in small.items():
            yield "random", instance, setting, run
    mazes = list(enumerate(load_folder(standard_mazes_dir())))
    realtime = {k: v for k, v in realtime_settings((1, 9, 49)).items()
                if not k.endswith("/known") or k.startswith("dstar")}
    for number, instance in mazes if full else mazes[DEFAULT_MAZE:DEFAULT_MAZE + 1]:
        settings = replanning_settings() | (realtime if number < 10 else {})
        for setting, run in settings.items():
            yield "mazes", instance, setting, run


def fingerprint(trace) -> dict[str, object]:
    """A trace's SHA-256 (of its SPEC §8 JSON, first 16 hex digits) and its counts."""
    text = json.dumps(trace.to_dict(), separators=(",", ":"))
    return {"sha256": hashlib.sha256(text.encode()).hexdigest()[:16], "searches": len(trace.searches),
            "expansions": trace.expansions, "moves": trace.moves, "reached": trace.reached}


def key(instance: Instance, setting: str) -> str:
    return f"{instance.name} {setting}"


def _fingerprint_case(number: int) -> tuple[str, dict[str, object]]:
    _, instance, setting, run = _CASES[number]
    return key(instance, setting), fingerprint(run(instance))


_CASES: list = []


def fingerprint_all(processes: int = 2) -> dict[str, dict[str, object]]:
    """Fingerprint every case (``full=True``) in ``processes`` processes."""
    import multiprocessing
    import time

    from tqdm import tqdm

    # The real-time planners time each episode with time.process_time, which is slow on some
    # machines (a system call); traces do not depend on it, so the recording uses a cheap clock.
    time.process_time = time.perf_counter
    _CASES[:] = list(cases(full=True))
    with multiprocessing.get_context("fork").Pool(processes) as pool:
        return dict(tqdm(pool.imap_unordered(_fingerprint_case, range(len(_CASES)), chunksize=8),
                         total=len(_CASES), desc="fingerprints"))


def record(path: Path = DIGESTS) -> None:
    """Write every case's fingerprint to ``path``."""
    digests = fingerprint_all()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(digests, indent=0, sort_keys=True) + "\n", encoding="utf-8")
    print(f"{len(digests)} fingerprints -> {path}")


def compare(path: Path = DIGESTS) -> int:
    """Compare every case with the recording (the slow test, in two processes); 0 if all agree."""
    recorded = json.loads(path.read_text(encoding="utf-8"))
    differing = sorted(name for name, digest in fingerprint_all().items() if recorded.get(name) != digest)
    print(f"{len(recorded) - len(differing)} of {len(recorded)} traces as recorded")
    for name in differing:
        print("differs:", name)
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(compare() if "--check" in sys.argv[1:] else record())
