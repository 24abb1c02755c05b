"""The public world model: everything a student's code may use (SPEC §1-4, §8, §11).

Nothing here imports the solutions, so this package can be shipped to students on its own.
"""

from .grid import DIRECTIONS, Cell, Gridworld, manhattan, shortest_distance
from .maps import MapFormatError, Scenario, read_map, read_scen, write_map, write_scen
from .sensing import FogOfWarWorld, IllegalMoveError, Knowledge, World
from .trace import SearchRecord, Trace, TraceFormatError

__all__ = [
    "DIRECTIONS", "Cell", "Gridworld", "manhattan", "shortest_distance",
    "MapFormatError", "Scenario", "read_map", "read_scen", "write_map", "write_scen",
    "FogOfWarWorld", "IllegalMoveError", "Knowledge", "World",
    "SearchRecord", "Trace", "TraceFormatError",
]
