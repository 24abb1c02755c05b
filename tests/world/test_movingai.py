"""The benchmark check (SPEC §12): eight-connected A* reproduces MovingAI's optimal lengths.

The referee is the benchmark itself: lengths computed by the field's own tools. By default a
sample of every scenario file (first to last bucket); all 50,000 lines with ``-m slow``.
"""

from __future__ import annotations

import pytest

from reference.experiments.movingai import (
    COLLECTIONS, MISFIT_COLLECTIONS, check_all, check_file, failures, format_csv, format_report, matches,
    scenario_files,
)


def test_one_unit_in_the_last_printed_place():
    assert matches(2 * 2 ** 0.5, 2.82843, 5)          # rounded
    assert matches(96 * 2 ** 0.5, 135.764, 3)         # single-precision √2: 135.7645020 printed .764
    assert not matches(1 + 2 ** 0.5, 2.41419, 5)      # two units off
    assert matches(197.1, 197.11, 2) and not matches(197.1, 197.12, 2)


def write_case(folder, map_rows, lines):
    (folder / "m.map").write_text(f"type octile\nheight {len(map_rows)}\nwidth {len(map_rows[0])}\nmap\n" + "\n".join(map_rows) + "\n")
    text = "version 1\n" + "".join(f"0\tmaps/x/m.map\t{len(map_rows[0])}\t{len(map_rows)}\t{line}\n" for line in lines)
    (folder / "m.map.scen").write_text(text)
    return folder / "m.map.scen"


def test_verdicts_on_a_small_map(tmp_path):
    #        x=0 1 2 3
    # y=0      . T . .     A ground agent from (0,0) to (0,2) must go down the left side, along
    # y=1      . W W .     row 2 and up the right side: every diagonal on the way would cut the
    # y=2      . . . .     corner of water or trees, so 8 straight moves. Water connects only to
    # y=3      W . . .     water: (1,1)-(1,2) is one pool, (3,0) another.
    scen = write_case(tmp_path, [".T..", ".WW.", "....", "W..."], [
        "0\t0\t2\t0\t8",      # ground, length 8 by hand
        "1\t1\t2\t1\t1",      # water start: water only, one step along the pool
        "0\t0\t2\t0\t7.8",    # two units off in the last place: differs
        "1\t0\t0\t0\t1",      # start on trees: nobody stands there
        "1\t1\t3\t1\t2",      # water start, ground goal: the goal is not water
        "1\t1\t0\t3\t3",      # water to the other pool: no path
    ])
    lines = check_file(scen)
    assert [line.verdict for line in lines] == ["match", "match", "differs", "start blocked", "goal blocked", "no path"]
    assert lines[0].length == 8 and lines[0].capability == "ground" and lines[1].capability == "water"


def test_a_sample_of_every_scenario_file(shared_dir):
    movingai = shared_dir / "movingai"
    files = scenario_files(movingai)
    assert {path.parent.name for path in files} == set(COLLECTIONS)
    reports = check_all(movingai, sample=6, progress=False)
    assert len(reports) == len(files) and all(len(r.lines) == 6 for r in reports)
    assert failures(reports) == [], format_report(reports, 6)
    # the misfit files are checked and reported, but never fail
    misfits = [r for r in reports if r.collection in MISFIT_COLLECTIONS]
    assert misfits and all(r.misfit for r in misfits)
    assert "misfit" in format_report(reports, 6) and format_csv(reports).startswith("file,index")


@pytest.mark.slow
def test_every_line_of_every_scenario_file(shared_dir):
    reports = check_all(shared_dir / "movingai", progress=False)
    assert sum(len(r.lines) for r in reports) > 50_000 - 30
    assert failures(reports) == []


# -- ftr path ----------------------------------------------------------------------------------------


def ftr(*args, check=True):
    import subprocess
    import sys

    return subprocess.run([sys.executable, "-m", "reference.cli", "path", *map(str, args)], capture_output=True,
                          text=True, check=check, timeout=600)


SMALL_MAP = [".T..", ".WW.", "....", "W..."]  # the map of test_verdicts_on_a_small_map


def test_ftr_path_jsonl_is_exactly_one_object_per_line(tmp_path):
    import json

    scen = write_case(tmp_path, SMALL_MAP, ["0\t0\t2\t0\t8", "1\t1\t2\t1\t1", "0\t2\t3\t2\t3.41421", "1\t1\t0\t3\t3"])
    result = ftr(tmp_path / "m.map", "--scen", scen, "--jsonl")
    objects = [json.loads(line) for line in result.stdout.splitlines()]
    # (2,0) -> (2,3): by hand three straight moves (row 2 is open), the file's 3.41421 is wrong on purpose
    assert objects == [
        {"index": 0, "cost": 8.0, "optimal": 8.0, "expansions": objects[0]["expansions"]},
        {"index": 1, "cost": 1.0, "optimal": 1.0, "expansions": 1},
        {"index": 2, "cost": 3.0, "optimal": 3.41421, "expansions": 3},
        {"index": 3, "cost": None, "optimal": 3.0, "expansions": 2},  # water pool of two cells, then OPEN empties
    ]
    assert all(list(obj) == ["index", "cost", "optimal", "expansions"] for obj in objects)
    one = ftr(tmp_path / "m.map", "--scen", scen, "--index", "2", "--jsonl", "--engine", "python")
    assert json.loads(one.stdout) == objects[2]
    old_spelling = ftr(tmp_path / "m.map", "--scen", scen, "--index", "2", "--jsonl", "--readable")  # hidden alias
    assert json.loads(old_spelling.stdout) == objects[2]
    four = ftr(tmp_path / "m.map", "--scen", scen, "--index", "0", "--jsonl", "--connectivity", "4")
    assert json.loads(four.stdout)["cost"] == 8.0


def test_ftr_path_mistakes_are_one_line_and_exit_2(tmp_path):
    scen = write_case(tmp_path, SMALL_MAP, ["1\t0\t0\t0\t1"])
    for args, message in [
        ((tmp_path / "m.map", "--scen", scen, "--index", "5"), "index 5 does not exist"),
        ((tmp_path / "m.map", "--scen", scen, "--index", "0"), "the start (row 0, col 1) is not passable"),
        ((tmp_path / "absent.map", "--scen", scen), "no such map file"),
        ((tmp_path / "m.map", "--scen", tmp_path / "absent.scen"), "no such file"),
        ((tmp_path / "m.map",), "give MAP and --scen"),
        ((tmp_path / "m.map", "--scen", scen, "--draw", tmp_path / "x.png"), "--draw draws one line"),
    ]:
        result = ftr(*args, check=False)
        assert result.returncode == 2 and message in result.stderr, (args, result.stderr)
        assert result.stderr.count("\n") == 1 and result.stderr.startswith("ftr: error: ")
    # among all lines, a line that does not fit the map is reported, not an error
    assert "start blocked" in ftr(tmp_path / "m.map", "--scen", scen).stdout


def test_ftr_path_draws_a_game_map(tmp_path, shared_dir):
    from matplotlib.image import imread

    dao = shared_dir / "movingai" / "dao"
    out = tmp_path / "path.png"
    result = ftr(dao / "den312d.map", "--scen", dao / "den312d.map.scen", "--index", "300", "--draw", out)
    assert "den312d.map" in result.stdout
    image = imread(out)
    assert image.shape[0] > 400 and image.shape[1] > 400
    # the picture is mostly terrain colours: sand and forest green both cover a visible share
    from reference.world.map_pictures import TERRAIN_COLOURS

    pixels = image[..., :3].reshape(-1, 3)
    for code in (0, 1):
        share = (abs(pixels - TERRAIN_COLOURS[code]).max(axis=1) < 0.02).mean()
        assert share > 0.05, code


def test_game_map_picture_zooms_on_the_search_and_takes_a_gridworld():
    import matplotlib

    matplotlib.use("Agg")
    from reference.world.grid import Gridworld
    from reference.world.map_pictures import draw_game_map

    grid = Gridworld(40, 50)
    ax = draw_game_map(grid, path=[(10, 20), (11, 21), (12, 21)], zoom=3)
    # rows 10..12 and columns 20..21, three cells of margin: rows 7..15, columns 17..24
    assert ax.get_xlim() == (16.5, 24.5) and ax.get_ylim() == (15.5, 6.5)
    assert [t.get_text() for t in ax.get_legend().get_texts()][-3:] == ["path", "start", "goal"]
