"""kNN LRTA*'s and D LRTA*'s online part, compiled (``compiled/subgoaling/knn_lrta.py`` and ``d_lrta.py``), against the
readable code (SPEC §16).

Referee: the readable agents (``knn_lrta.knn_lrta_star``, ``d_lrta.d_lrta_star``: the agent core,
dictionaries of h-values, the readable hill-climbing checks). The twins must give the same run,
field by field: the trace (every episode's goal, expanded states, the hill-climbing checks' among
them, and move), the exact cost, reached, moves, expansions, episodes and first goal, on random
maps (Hypothesis and a seeded sweep that must meet every kind of run: a record used, no record
fitting so plain LRTA* runs, a move limit cutting the run, an unreachable goal) and on a Baldur's
Gate map. D LRTA*'s twin is the dynamic-control module's compiled run: the same trajectory, goal
and expansion count per action, under both goal rules.
"""

from __future__ import annotations

import inspect

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reference.solutions.compiled.subgoaling import d_lrta as d_twin, knn_lrta as knn_twin
from reference.solutions.subgoaling import d_lrta, knn_lrta
from reference.solutions.subgoaling.d_lrta import build_d_lrta_database, d_lrta_star
from reference.solutions.subgoaling.knn_lrta import (
    KnnDatabase, KnnRecord, build_knn_database, choose_record, knn_lrta_star, random_problems,
)
from reference.world.grid import Gridworld
from reference.world.maps import read_map

from .test_subgoaling_baselines import problems

FIELDS = ("reached", "cost", "moves", "expansions", "episodes", "first_goal")


def same_run(readable, compiled):
    """Every field the experiment reads, and the whole trace."""
    for name in FIELDS:
        assert getattr(compiled, name) == getattr(readable, name), name
    assert compiled.trace == readable.trace
    assert type(compiled).__name__ == type(readable).__name__ == "KnownMapRun"


def knn_pair(grid, start, goal, database, connectivity=8, k=10, max_moves=None, limit=250):
    readable = knn_lrta_star(grid, start, goal, database, connectivity, k=k, max_moves=max_moves, limit=limit)
    compiled = knn_twin.knn_lrta_star(grid, start, goal, database, connectivity, k=k, max_moves=max_moves, limit=limit)
    same_run(readable, compiled)
    return readable


def d_pair(grid, start, goal, database, max_moves=None):
    """Both goal rules: the same walk, each action's goal and expansions (the compiled run keeps no
    expanded states, only their count)."""
    for rule in ("paper", "once"):
        readable = d_lrta_star(grid, start, goal, database, rule=rule, max_moves=max_moves)
        compiled = d_twin.d_lrta_star(grid, start, goal, database, rule=rule, max_moves=max_moves)
        for name in FIELDS:
            assert getattr(compiled, name) == getattr(readable, name), (rule, name)
        assert compiled.trajectory == readable.trace.trajectory
        assert compiled.goals == [record.goal for record in readable.trace.searches]
        assert compiled.expansions_per_action == [len(record.expanded) for record in readable.trace.searches]
    return readable


def database_or_none(grid, records, seed, connectivity):
    try:
        return knn_twin.build_knn_database(grid, records=records, seed=seed, connectivity=connectivity)
    except ValueError:   # no two connected free cells
        return KnnDatabase([], connectivity=connectivity)


def test_worked_example_with_checks_in_the_first_record():
    # test_subgoaling_baselines' hand-worked example: records R1 (fails), R2 (taken), R3 beyond k = 2;
    # the first episode expands (0,1) [R1], (0,1) [R2 start], (1,3) [R2 goal], then (0,1) itself.
    grid = Gridworld.from_strings(["....", ".@@.", "...."])
    database = KnnDatabase([KnnRecord((2, 1), (2, 3), [(2, 3)]), KnnRecord((0, 2), (1, 3), [(1, 3)]),
                            KnnRecord((0, 0), (2, 0), [(2, 0)])], connectivity=4)
    run = knn_twin.knn_lrta_star(grid, (0, 1), (2, 3), database, connectivity=4, k=2)
    assert run.trace.searches[0].expanded == [(0, 1), (0, 1), (1, 3), (0, 1)]
    assert run.trace.trajectory == [(0, 1), (0, 2), (0, 3), (1, 3), (2, 3)]
    assert run.cost == (4, 0) and run.expansions == 7
    knn_pair(grid, (0, 1), (2, 3), database, 4, k=2)
    knn_pair(grid, (0, 1), (2, 3), database, 4, k=1)    # R1 alone: no record fits, plain LRTA*


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems(), st.integers(0, 5), st.sampled_from([4, 8]), st.integers(-1, 12), st.integers(0, 8),
       st.none() | st.integers(0, 25))
def test_knn_runs_agree_on_random_maps(problem, seed, connectivity, k, limit, max_moves):
    # short limits and small k make the checks fail often (plain LRTA*); the move limits cut runs
    grid, start, goal = problem
    knn_pair(grid, start, goal, database_or_none(grid, 8, seed, connectivity), connectivity, k, max_moves, limit)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems(), st.integers(1, 3), st.none() | st.integers(0, 25))
def test_d_lrta_runs_agree_on_random_maps(problem, level, max_moves):
    grid, start, goal = problem
    d_pair(grid, start, goal, build_d_lrta_database(grid, level=level), max_moves)


def random_map(rng, height, width, density):
    blocked = rng.random((height, width)) < density
    return Gridworld(height, width, blocked)


def test_a_seeded_sweep_meets_every_kind_of_run():
    # Larger maps than Hypothesis draws (12 x 16, a quarter to a third blocked), so runs are long;
    # the sweep must meet records used, plain LRTA* (no record fits), cut-off runs and unreachable goals.
    rng = np.random.default_rng(2011)
    kinds = {"record": 0, "plain": 0, "cut": 0, "unreachable": 0, "d_lrta": 0}
    for trial in range(40):
        grid = random_map(rng, 12, 16, rng.choice([0.25, 0.33]))
        free = np.flatnonzero(~grid.blocked.ravel())
        if len(free) < 2:
            continue
        database = database_or_none(grid, 12, trial, 8)
        d_database = build_d_lrta_database(grid, level=int(rng.integers(1, 4)))
        for _ in range(5):
            start, goal = (divmod(int(i), grid.width) for i in rng.choice(free, 2))
            max_moves = None if rng.random() < 0.7 else int(rng.integers(1, 40))
            limit = int(rng.choice([3, 250]))
            run = knn_pair(grid, start, goal, database, 8, 10, max_moves, limit)
            record, _ = choose_record(grid, start, goal, database, 10, limit)
            if run.episodes:
                kinds["record" if record is not None else "plain"] += 1
            kinds["cut"] += max_moves is not None and not run.reached and run.moves == max_moves
            kinds["unreachable"] += not run.reached and run.episodes == 0 and start != goal
            kinds["d_lrta"] += d_pair(grid, start, goal, d_database, max_moves).episodes > 0
    assert min(kinds.values()) >= 5, kinds


def test_runs_that_plan_nothing():
    grid = Gridworld.from_strings(["..@..", "..@.."])     # two rooms, no door
    database = build_knn_database(grid, records=3, seed=1)
    d_database = build_d_lrta_database(grid, level=1)
    for start, goal, max_moves in (((0, 0), (0, 0), None), ((0, 0), (1, 4), None), ((0, 0), (1, 1), 0)):
        run = knn_pair(grid, start, goal, database, max_moves=max_moves)
        assert run.episodes == 0 and run.expansions == 0     # the checks run only in a first episode
        assert d_pair(grid, start, goal, d_database, max_moves).episodes == 0


def test_bad_input_is_refused_as_the_readable_code_refuses_it():
    grid = Gridworld.from_strings(["....", ".@@.", "...."])
    database = build_knn_database(grid, records=2, seed=0, connectivity=4)
    for call in (knn_lrta_star, knn_twin.knn_lrta_star):
        with pytest.raises(ValueError, match="4-connected"):
            call(grid, (0, 0), (2, 3), database, 8)
        with pytest.raises(ValueError, match="blocked"):
            call(grid, (1, 1), (2, 3), database, 4)
    d_database = build_d_lrta_database(grid, level=1)
    for call in (d_lrta_star, d_twin.d_lrta_star):
        with pytest.raises(ValueError, match="blocked"):
            call(grid, (0, 0), (1, 2), d_database)
        with pytest.raises(ValueError, match="goal rule"):
            call(grid, (0, 0), (2, 3), d_database, rule="never")
    # a hand-made record that passes a cell twice: the twin's next-goal table cannot hold it
    looping = KnnDatabase([KnnRecord((0, 0), (0, 3), [(0, 1), (0, 0), (0, 3)])], connectivity=4)
    with pytest.raises(ValueError, match="repeat a cell"):
        knn_twin.knn_lrta_star(grid, (0, 0), (2, 3), looping, 4)


@pytest.mark.slow   # a real map, minutes of the readable side; the default run checks random maps
def test_runs_agree_on_a_baldurs_gate_map(shared_dir):
    grid = read_map(str(shared_dir / "movingai" / "bgmaps" / "AR0509SR.map"))   # 1,503 free cells
    database = knn_twin.build_knn_database(grid, 60, seed=7)
    d_databases = [d_twin.build_d_lrta_database(grid, level=level) for level in (1, 3)]
    used = 0
    for number, (start, goal) in enumerate(random_problems(grid, 30, seed=11)):
        max_moves = 40 if number % 10 == 9 else None
        run = knn_pair(grid, start, goal, database, max_moves=max_moves)
        used += run.first_goal != goal
        for d_database in d_databases:
            d_pair(grid, start, goal, d_database, max_moves)
    assert used >= 10    # most problems find a record


def test_the_twins_take_the_readable_signatures():
    # SPEC §16: compiled/X.py mirrors X.py by name; here also parameter by parameter, defaults included
    for readable, compiled in ((knn_lrta.knn_lrta_star, knn_twin.knn_lrta_star), (d_lrta.d_lrta_star, d_twin.d_lrta_star)):
        assert compiled.__name__ == readable.__name__
        theirs, ours = inspect.signature(readable).parameters, inspect.signature(compiled).parameters
        assert [(p.name, p.kind, p.default) for p in ours.values()] == [(p.name, p.kind, p.default)
                                                                          for p in theirs.values()]
