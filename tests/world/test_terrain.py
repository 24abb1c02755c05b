"""Terrain codes, capabilities and reading MovingAI maps and scenarios with terrain (SPEC §2, §12, §14)."""

from __future__ import annotations

import numpy as np
import pytest

from reference.world.maps import (
    MapFormatError, Scenario, format_terrain, map_beside, parse_map, parse_terrain, read_scen_terrains,
    read_terrain, write_scen, write_terrain,
)
from reference.world.terrain import (
    CAPABILITIES, GROUND, GROUND_ONLY, OUT_OF_BOUNDS, TREES, WATER, WATER_ONLY, capability_name,
    check_capability, grid_for, passable, scenario_capability, terrain_from_strings, terrain_to_strings,
)

EVERY_CHARACTER = "type octile\nheight 2\nwidth 4\nmap\n.GST\nW@O.\n"


def test_every_movingai_character_has_its_terrain():
    terrain = parse_terrain(EVERY_CHARACTER, "every.map")
    assert terrain.dtype == np.uint8
    assert terrain.tolist() == [[GROUND, GROUND, GROUND, TREES], [WATER, OUT_OF_BOUNDS, OUT_OF_BOUNDS, GROUND]]


def test_the_ground_grid_of_read_map_is_the_ground_capability():
    grid = parse_map(EVERY_CHARACTER, "every.map")
    assert grid.to_strings() == ["...@", "@@@."]
    assert grid == grid_for(parse_terrain(EVERY_CHARACTER), GROUND_ONLY)


@pytest.mark.parametrize("capability, expected", [
    ({GROUND}, ["###.", "...#"]),
    ({TREES}, ["...#", "...."]),
    ({WATER}, ["....", "#..."]),
    ({GROUND, WATER}, ["###.", "#..#"]),
    ({GROUND, TREES, WATER}, ["####", "#..#"]),
])
def test_passability_per_capability(capability, expected):
    terrain = parse_terrain(EVERY_CHARACTER)
    drawn = ["".join("#" if p else "." for p in row) for row in passable(terrain, capability)]
    assert drawn == expected


def test_out_of_bounds_is_never_passable_and_capabilities_are_checked():
    terrain = parse_terrain(EVERY_CHARACTER)
    for capability in CAPABILITIES:
        assert not passable(terrain, capability)[terrain == OUT_OF_BOUNDS].any()
    assert len(set(CAPABILITIES)) == 7 and CAPABILITIES[0] == GROUND_ONLY
    with pytest.raises(ValueError):
        check_capability(set())
    with pytest.raises(ValueError):
        check_capability({OUT_OF_BOUNDS})
    assert capability_name({WATER, GROUND, TREES}) == "ground+trees+water"


def test_scenario_convention_water_starts_move_through_water_only():
    terrain = terrain_from_strings(["W.T"])
    assert scenario_capability(terrain, (0, 0)) == WATER_ONLY
    assert scenario_capability(terrain, (0, 1)) == GROUND_ONLY


def test_terrain_round_trips_through_a_file(tmp_path):
    terrain = parse_terrain(EVERY_CHARACTER)
    assert terrain_to_strings(terrain) == ["...T", "W@@."]
    write_terrain(terrain, tmp_path / "t.map")
    assert np.array_equal(read_terrain(tmp_path / "t.map"), terrain)
    assert format_terrain(terrain).startswith("type octile\nheight 2\nwidth 4\nmap\n")


def test_crlf_and_errors_name_file_line_and_column():
    assert parse_terrain(EVERY_CHARACTER.replace("\n", "\r\n")).shape == (2, 4)
    with pytest.raises(MapFormatError, match=r"bad.map, line 6: unknown character 'x' in column 3"):
        parse_terrain("type octile\nheight 2\nwidth 4\nmap\n....\n..x.\n", "bad.map")
    with pytest.raises(MapFormatError, match=r"line 5: unknown character 'é' in column 2"):
        parse_terrain("type octile\nheight 1\nwidth 2\nmap\n.é\n", "bad.map")
    with pytest.raises(MapFormatError, match="expected 4 characters"):
        parse_terrain("type octile\nheight 1\nwidth 4\nmap\n...\n", "short.map")


def test_scenario_maps_are_looked_up_beside_the_scen_file(tmp_path):
    write_terrain(terrain_from_strings(["..", "W."]), tmp_path / "small.map")
    scenarios = [Scenario(0, "maps/dao/small.map", 2, 2, (0, 0), (1, 1), 1.41421)]
    write_scen(scenarios, tmp_path / "small.map.scen")
    assert map_beside(tmp_path / "small.map.scen", scenarios[0]) == tmp_path / "small.map"
    terrains = read_scen_terrains(tmp_path / "small.map.scen")
    assert list(terrains) == ["maps/dao/small.map"]
    assert terrains["maps/dao/small.map"].tolist() == [[GROUND, GROUND], [WATER, GROUND]]
    write_scen([Scenario(0, "small.map", 3, 2, (0, 0), (1, 1), 1.0)], tmp_path / "wrong.scen")
    with pytest.raises(MapFormatError, match="is 3 x 2 .*the map is 2 x 2"):
        read_scen_terrains(tmp_path / "wrong.scen")
    write_scen([Scenario(0, "absent.map", 2, 2, (0, 0), (1, 1), 1.0)], tmp_path / "absent.scen")
    with pytest.raises(MapFormatError, match="absent.map: no such file"):
        read_scen_terrains(tmp_path / "absent.scen")


def test_the_benchmark_maps_read_with_their_terrain(shared_dir):
    terrain = read_terrain(shared_dir / "movingai" / "wc3maps512" / "battleground.map")
    assert terrain.shape == (512, 512)
    # battleground holds every class: swamp reads as ground, trees and water keep their own codes
    assert set(np.unique(terrain).tolist()) == {GROUND, TREES, WATER, OUT_OF_BOUNDS}
