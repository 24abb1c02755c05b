"""MovingAI .map and .scen files: round trips, every error message, and the real benchmark maps."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from reference.world.grid import Gridworld
from reference.world.maps import (MapFormatError, Scenario, format_map, format_scen, parse_map, parse_scen,
                                  read_map, read_scen, write_map, write_scen)

grids = st.tuples(st.integers(1, 12), st.integers(1, 12)).flatmap(
    lambda shape: arrays(bool, shape).map(lambda a: Gridworld(shape[0], shape[1], a)))


@given(grids)
def test_map_text_round_trip(grid: Gridworld) -> None:
    assert parse_map(format_map(grid)) == grid


@given(grids)
def test_map_round_trip_with_crlf(grid: Gridworld) -> None:
    assert parse_map(format_map(grid).replace("\n", "\r\n")) == grid


def test_map_file_round_trip(tmp_path) -> None:
    grid = Gridworld.from_strings(["..@", "@..", "..."])
    write_map(grid, tmp_path / "g.map")
    assert (tmp_path / "g.map").read_text() == "type octile\nheight 3\nwidth 3\nmap\n..@\n@..\n...\n"
    assert read_map(tmp_path / "g.map") == grid


def test_movingai_terrain_characters() -> None:
    grid = parse_map("type octile\nheight 1\nwidth 7\nmap\n.GS@OTW\n")
    assert grid.blocked.tolist() == [[False, False, False, True, True, True, True]]


@pytest.mark.parametrize("text,line,message", [
    ("type octile\nheight 2\nwidth 3\nmap\n...\n..\n", 6, "expected 3 characters (the header's width), found 2"),
    ("type octile\nheight 2\nwidth 3\nmap\n...\n", 5, "the header says height 2 but the map has 1 rows"),
    ("type octile\nheight 1\nwidth 3\nmap\n...\n...\n", 6, "the header says height 1 but the map has 2 rows"),
    ("type octile\nheight 1\nwidth 3\nmap\n.?.\n", 5, "unknown character '?' in column 2"),
    ("type octile\nwidth 3\nmap\n...\n", 3, "the header has no 'height' line"),
    ("type octile\nheight x\nwidth 3\nmap\n...\n", 2, "expected 'height N' with a positive whole number"),
    ("hello\n", 1, "expected a header line"),
])
def test_map_errors_name_file_line_and_expectation(text: str, line: int, message: str) -> None:
    with pytest.raises(MapFormatError) as error:
        parse_map(text, source="broken.map")
    assert error.value.source == "broken.map" and error.value.line == line
    assert message in str(error.value) and str(error.value).startswith(f"broken.map, line {line}: ")


def test_map_without_map_line_and_missing_file(tmp_path) -> None:
    with pytest.raises(MapFormatError, match="missing the 'map' line"):
        parse_map("type octile\nheight 1\nwidth 1\n", source="x.map")
    with pytest.raises(MapFormatError, match="no such file"):
        read_map(tmp_path / "absent.map")
    (tmp_path / "binary.map").write_bytes(b"\xff\xfe")
    with pytest.raises(MapFormatError, match="not a text map"):
        read_map(tmp_path / "binary.map")


cells = st.tuples(st.integers(0, 20), st.integers(0, 30))


@given(st.lists(st.tuples(cells, cells, st.integers(-1, 500)), max_size=8))
def test_scen_round_trip(entries) -> None:
    scenarios = [Scenario(0, "m.map", 31, 21, start, target, float(length))
                 for start, target, length in entries]
    assert parse_scen(format_scen(scenarios)) == scenarios


def test_scen_x_is_the_column_and_y_the_row(tmp_path) -> None:
    scenario = Scenario(0, "m.map", 10, 5, start=(1, 7), target=(4, 0), optimal_length=212.0)
    assert scenario.to_line() == "0\tm.map\t10\t5\t7\t1\t0\t4\t212.0"
    write_scen([scenario], tmp_path / "s.scen")
    assert read_scen(tmp_path / "s.scen") == [scenario]
    assert Scenario(0, "m.map", 10, 5, (0, 0), (1, 1), -1).to_line().endswith("\t-1")


@pytest.mark.parametrize("text,line,message", [
    ("0\tm.map\t10\t5\t7\t1\t0\t4\t212.0\n", 1, "expected the first line 'version 1'"),
    ("version 1\n0\tm.map\t10\t5\t7\t1\t0\n", 2, "expected 9 tab-separated fields"),
    ("version 1\n0\tm.map\t10\t5\tseven\t1\t0\t4\t2\n", 2, "must be whole numbers"),
    ("version 1\n0\tm.map\t10\t5\t7\t1\t0\t4\tfar\n", 2, "optimal_length must be a number"),
    ("version 1\n0\tm.map\t10\t5\t10\t1\t0\t4\t2\n", 2, "start_x = 10 lies outside the 10 x 5 map"),
])
def test_scen_errors(text: str, line: int, message: str) -> None:
    with pytest.raises(MapFormatError) as error:
        parse_scen(text, source="bad.scen")
    assert error.value.line == line and message in str(error.value)


def test_real_movingai_maps_and_scenarios(shared_dir) -> None:
    """Every shared benchmark map parses (some have CRLF endings). Scenario cells are never out of
    bounds (@, O) or trees (T); some Dragon Age scenarios start in water (W), which SPEC §2 makes
    blocked for the kit's ground agents, so those cells may read as blocked."""
    maps = sorted((shared_dir / "movingai").rglob("*.map"))
    assert maps
    for path in maps:
        grid = read_map(path)
        assert grid.height > 0 and grid.width > 0
        scen = path.with_name(path.name + ".scen")
        if scen.exists():
            rows = path.read_text().splitlines()[4:]
            for scenario in read_scen(scen)[:50]:
                assert (scenario.width, scenario.height) == (grid.width, grid.height)
                for row, col in (scenario.start, scenario.target):
                    assert rows[row][col] not in "@OT"
                    assert grid.is_blocked((row, col)) == (rows[row][col] == "W")


def test_blocked_array_is_numpy() -> None:
    grid = Gridworld.from_strings([".@"])
    assert isinstance(grid.blocked, np.ndarray) and grid.blocked.dtype == bool
