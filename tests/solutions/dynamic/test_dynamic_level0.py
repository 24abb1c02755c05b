"""Pattern databases built only toward some goals (level 0 of the study: no abstraction)."""

from __future__ import annotations

import numpy as np

from reference.experiments.dynamic import database_row, write_csv, read_csv
from reference.solutions.compiled.dynamic import build_pattern_database_compiled
from reference.solutions.dynamic.lrta import Neighbours, general_lrta
from reference.solutions.dynamic.pattern_database import build_pattern_database


def small_map() -> np.ndarray:
    rng = np.random.default_rng(5)
    blocked = rng.random((7, 9)) < 0.2
    blocked[0, 0] = blocked[6, 8] = False
    return blocked


def test_the_goal_columns_are_the_full_tables_columns():
    neighbours = Neighbours(small_map())
    for level in (0, 1):
        full = build_pattern_database(neighbours, level, cap=4)
        columns = [0, 3, full.regions - 1]
        for partial in (build_pattern_database(neighbours, level, cap=4, goal_regions=columns),
                        build_pattern_database_compiled(neighbours, level, cap=4, goal_regions=columns)):
            assert partial.goal_regions == tuple(columns)
            assert (partial.depth[:, columns] == full.depth[:, columns]).all()
            assert (partial.next_region[:, columns] == full.next_region[:, columns]).all()
            others = [b for b in range(full.regions) if b not in columns]
            assert (partial.depth[:, others] == 1).all() and (partial.next_region[:, others] == -1).all()


def test_level_zero_goal_selection_g_runs_on_the_goal_columns_alone():
    # Level 0: every cell is its own abstract state, numbered in row-major order of the free cells.
    blocked = small_map()
    neighbours = Neighbours(blocked)
    goal = (6, 8)
    column = sorted(neighbours.table).index(goal)
    full = build_pattern_database(neighbours, 0, cap=4)
    partial = build_pattern_database(neighbours, 0, cap=4, goal_regions=[column])
    runs = [general_lrta(neighbours, (0, 0), goal, database.controller("g")) for database in (full, partial)]
    assert runs[0].reached and runs[0].path == runs[1].path and runs[0].depths == runs[1].depths
    row = database_row("m", partial)
    assert row["goal_columns_built"] == 1 and row["capped_intermediate"] is None
    assert row["seconds_all_columns"] == row["seconds"] * partial.regions


def test_csv_rows_with_new_columns_follow_older_rows(tmp_path):
    write_csv([{"map": "m", "level": 1}, {"map": "m", "level": 0, "goal_columns_built": 3}], tmp_path / "t.csv")
    assert read_csv(tmp_path / "t.csv") == [{"map": "m", "level": 1, "goal_columns_built": ""},
                                            {"map": "m", "level": 0, "goal_columns_built": 3}]


def test_a_full_level_zero_runs_every_goal_selection_and_g_as_on_the_goal_columns(tmp_path):
    # A 12 x 12 open room with a wall across rows 4-7 (a gap at column 11): problems of optimal cost
    # 10-14, two of them. With the goal columns only, level 0 runs pdb G alone; with the whole table
    # (full_level_zero) it runs G, G+I and I, and G walks the same walks either way (G reads only
    # the goal's column, which both tables hold alike).
    from reference.experiments.dynamic import Study, run_study
    from reference.world.grid import Gridworld
    from reference.world.maps import write_map

    rows_text = ["." * 12] * 4 + ["@" * 11 + "."] * 4 + ["." * 12] * 4
    (tmp_path / "t").mkdir()
    write_map(Gridworld.from_strings(rows_text), tmp_path / "t" / "room.map")
    settings = dict(maps=("t/room.map",), problems=2, cost_range=(10.0, 14.0), cap=6, fixed_depths=(),
                    tree_depths=(), levels=(0,), parts=("pdb",), goal_rules=("paper",))
    columns, _, _ = run_study(tmp_path, Study(**settings), progress=False, log=lambda text: None)
    full, tables, _ = run_study(tmp_path, Study(**settings, full_level_zero=True), progress=False,
                                log=lambda text: None)
    assert {row["method"] for row in columns} == {"pdb G"}
    assert {row["method"] for row in full} == {"pdb G", "pdb G+I", "pdb I"}
    walk = lambda rows: [(r["problem"], r["cost"], r["reached"]) for r in rows if r["method"] == "pdb G"]  # noqa: E731
    assert walk(full) == walk(columns)
    assert tables[0]["goal_columns_built"] == tables[0]["regions"]   # the whole table: every column
