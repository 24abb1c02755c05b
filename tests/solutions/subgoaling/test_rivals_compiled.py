"""kNN LRTA*'s and D LRTA*'s preprocessing, compiled (the twins' builders), against the readable code (SPEC §16).

Referee: the readable databases (the readable A*, Dijkstra and hill-climbing checks of
``knn_lrta.py`` and ``pursuit.py``; the readable pattern database of ``dynamic/``, dictionaries and
tuples). The compiled ones must be the same records, the same subgoals stored in the same order, the
same expansion counts (kNN) and the same depths and next regions (D), on random maps (Hypothesis,
both connectivities for kNN) and on a Baldur's Gate map.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reference.experiments import subgoaling as experiment
from reference.solutions.compiled.subgoaling import d_lrta as d_twin, knn_lrta as knn_twin
from reference.solutions.compiled.subgoaling.knn_lrta import compress_path_compiled
from reference.solutions.compiled.subgoaling.pursuit import hill_climb_reaches
from reference.solutions.shortest_paths import astar
from reference.solutions.subgoaling.d_lrta import build_d_lrta_database
from reference.solutions.subgoaling.knn_lrta import build_knn_database, compress_path, knn_lrta_star
from reference.solutions.subgoaling.pursuit import hill_climb
from reference.world.grid import Gridworld, cost_value
from reference.world.maps import read_map

from .test_subgoaling_baselines import problems


def same_knn(grid, records, seed, connectivity):
    try:
        slow = build_knn_database(grid, records=records, seed=seed, connectivity=connectivity)
    except ValueError:   # no two connected free cells: the compiled engine must refuse too
        with pytest.raises(ValueError):
            knn_twin.build_knn_database(grid, records=records, seed=seed, connectivity=connectivity)
        return None
    fast = knn_twin.build_knn_database(grid, records=records, seed=seed, connectivity=connectivity)
    assert fast.records == slow.records
    assert (fast.expansions, fast.subgoal_count, fast.connectivity) == (slow.expansions, slow.subgoal_count,
                                                                        slow.connectivity)
    return slow


def same_d_lrta(grid, level):
    # D LRTA*'s database is the dynamic-control pattern database: the same depths and next regions
    slow = build_d_lrta_database(grid, level=level, cap=8)
    fast = d_twin.build_d_lrta_database(grid, level=level, cap=8)
    assert (fast.depth == slow.depth).all() and (fast.next_region == slow.next_region).all()
    assert fast.representatives == slow.representatives and fast.regions == slow.regions
    return slow


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems(), st.sampled_from([4, 8]), st.integers(1, 40))
def test_hill_climbing_checks_agree(problem, connectivity, limit):
    grid, start, goal = problem
    assert hill_climb_reaches(grid, start, goal, connectivity, limit) == hill_climb(grid, start, goal, connectivity,
                                                                                   limit)[0]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems(), st.sampled_from([4, 8]), st.integers(1, 6))
def test_compressed_paths_agree(problem, connectivity, limit):
    # short limits make the checks fail often, so paths compress into many subgoals
    grid, start, goal = problem
    path = astar(grid, start, goal, connectivity=connectivity).path
    if path:
        assert compress_path_compiled(grid, path, connectivity, limit) == compress_path(grid, path, connectivity,
                                                                                        limit)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems(), st.integers(0, 5), st.sampled_from([4, 8]))
def test_knn_databases_agree_on_random_maps(problem, seed, connectivity):
    same_knn(problem[0], 8, seed, connectivity)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems(), st.integers(1, 3))
def test_d_lrta_databases_agree_on_random_maps(problem, level):
    same_d_lrta(problem[0], level)


@pytest.mark.slow   # a real map, minutes of the readable side; the default run checks random maps
def test_databases_agree_on_a_baldurs_gate_map(shared_dir):
    grid = read_map(str(shared_dir / "movingai" / "bgmaps" / "AR0509SR.map"))   # 1,503 free cells
    database = same_knn(grid, 60, 7, 8)
    assert sum(len(r.subgoals) > 1 for r in database.records) >= 5   # walls: paths that need subgoals
    for level in (1, 3):
        assert same_d_lrta(grid, level).regions > 1


def test_an_unknown_engine_is_refused():
    grid = Gridworld.from_strings(["....", "...."])
    with pytest.raises(ValueError, match="engine"):
        experiment.build_database("knn_lrta_1", grid, seed=0, engine="numba")


@pytest.mark.parametrize("algorithm", ["knn_lrta_6", "d_lrta_1"])
def test_the_experiment_runs_both_parts_on_the_engine_asked(tmp_path, algorithm):
    # the same tiny map as test_compare_runs_a_database_algorithm_on_a_map: the compiled engine's
    # rows say so (preprocessing and runs), and every field but the times is the python engine's
    lines = ["........", "........", "..@@@@..", "..@@@@..", "........", "........"]
    path = tmp_path / "tiny.map"
    path.write_text("type octile\nheight 6\nwidth 8\nmap\n" + "\n".join(lines) + "\n")
    grid = read_map(str(path))
    drawn = experiment.draw_problems(grid, 3, seed=2)
    by_engine = {engine: experiment.run_map_with_database((str(path), "tiny", algorithm, drawn, 2, engine))
                 for engine in ("python", "compiled")}
    for engine, rows in by_engine.items():
        assert [r["engine"] for r in rows] == [engine] * 4
    times = ("preprocessing_s", "first_episode_ms", "total_ms", "engine")

    def fields(row):   # NaN (no tree; D LRTA*'s preprocessing counts no expansions) made comparable
        return {k: "NaN" if isinstance(v, float) and math.isnan(v) else v for k, v in row.items() if k not in times}

    assert [fields(r) for r in by_engine["compiled"]] == [fields(r) for r in by_engine["python"]]
    # kNN's preprocessing expansions are counted, and the same on both engines (compared above)
    assert (algorithm == "knn_lrta_6") == (by_engine["python"][0]["preprocessing_expansions"] > 0)


def test_the_comparison_draws_knn_records_apart_from_its_problems(tmp_path):
    # The first version drew kNN LRTA*'s records with the problems' own seed: record i was problem
    # i, and every problem found itself in the database. The records now come from the seed
    # DATABASE_SEED_OFFSET above; each run is the run with that database.
    lines = ["..........", "..........", "...@@@@...", "...@@@@...", "..........", ".........."]
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "tiny.map").write_text("type octile\nheight 6\nwidth 10\nmap\n" + "\n".join(lines) + "\n")
    game_map = experiment.GameMap("tests", "tiny.map", "a test map")
    rows = experiment.run_comparison(4, (game_map,), jobs=1, progress=False, seed=5, movingai=tmp_path,
                                     tree_cells=0, algorithms=("knn_lrta_1000",), engine="compiled")
    grid = read_map(str(tmp_path / "tests" / "tiny.map"))
    problems_drawn = experiment.draw_problems(grid, 4, seed=5)
    database = build_knn_database(grid, records=1000, seed=experiment.DATABASE_SEED_OFFSET + 5)
    assert [(r.start, r.goal) for r in database.records[:4]] != problems_drawn
    runs = [r for r in rows if r["algorithm"] == "knn_lrta_1000"]
    assert len(runs) == len(problems_drawn) == 4   # one row per problem drawn: the zip below checks them all
    for row, (start, goal) in zip(runs, problems_drawn):
        assert row["cost"] == pytest.approx(cost_value(knn_lrta_star(grid, start, goal, database).cost))
