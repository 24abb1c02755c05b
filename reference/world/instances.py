"""Problem instances: a true grid, the agent's start and the target, with a name for reports.

>>> instances = load_folder(standard_mazes_dir())      # the bundled 50 mazes
>>> len(instances), instances[7].name
(50, 'maze_07')
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from pathlib import Path

from .grid import Cell, Gridworld
from .kitdata import handout_examples_dir, kit_path
from .maps import MapFormatError, Scenario, read_map, read_scen


class InstanceError(ValueError):
    """An instance whose start or target is not an unblocked cell of its grid."""


@dataclass(frozen=True)
class Instance:
    """One search problem. ``optimal_length`` is the true shortest distance when known (-1: none)."""

    name: str
    grid: Gridworld
    start: Cell
    target: Cell
    optimal_length: float | None = None

    def check(self) -> None:
        """Raise :class:`InstanceError` unless start and target are unblocked cells inside the grid."""
        for label, cell in (("start", self.start), ("target", self.target)):
            if not self.grid.in_bounds(cell):
                raise InstanceError(f"{self.name}: the {label} {cell} lies outside the {self.grid.height} x {self.grid.width} grid")
            if self.grid.is_blocked(cell):
                raise InstanceError(f"{self.name}: the {label} {cell} is a blocked cell")


def standard_mazes_dir() -> Path:
    """The folder of the 50 standard mazes that come with the kit (``mazes/`` in the repository, package
    data in a wheel: :func:`reference.world.kitdata.kit_path`), or the folder named by ``FTR_MAZES``
    (where an installation keeps them elsewhere, as Gradescope's does)."""
    override = os.environ.get("FTR_MAZES")
    if override:
        return Path(override)
    return kit_path("mazes")


def handout_examples() -> list[Instance]:
    """The handout's three worked examples (SPEC §10), read from ``mazes/handout/mazes.scen`` and named
    ``example_1`` ... ``example_3``: the one place the kit keeps them (Figure 2 is ``example1.map``).

    >>> example_1 = handout_examples()[0]
    >>> example_1.grid.to_strings(), example_1.start, example_1.target
    (['.....', '..@..', '..@@.', '..@@.', '...@.'], (4, 2), (4, 4))
    """
    return [replace(instance, name=f"example_{number}")
            for number, instance in enumerate(load_folder(handout_examples_dir()), start=1)]


def handmade_dir() -> Path:
    """The SPEC §8 hand-made corner cases as MovingAI files (``mazes/handmade/``, one map per case,
    named by the case, and ``mazes.scen`` listing them); ``README.md`` there says what each one tests."""
    return kit_path("mazes", "handmade")


def from_scenario(scenario: Scenario, folder: Path, grid_cache: dict[str, Gridworld] | None = None) -> Instance:
    """The instance a ``.scen`` line describes, its map read relative to ``folder``."""
    grid_cache = {} if grid_cache is None else grid_cache
    if scenario.map not in grid_cache:
        grid_cache[scenario.map] = read_map(folder / scenario.map)
    grid = grid_cache[scenario.map]
    if (grid.width, grid.height) != (scenario.width, scenario.height):
        raise MapFormatError(
            scenario.map, None,
            f"the scenario says {scenario.width} x {scenario.height} (width x height), "
            f"the map is {grid.width} x {grid.height}",
        )
    instance = Instance(Path(scenario.map).stem, grid, scenario.start, scenario.target, scenario.optimal_length)
    instance.check()
    return instance


def load_folder(folder: str | os.PathLike, scen_name: str = "mazes.scen") -> list[Instance]:
    """Every instance of ``folder/mazes.scen``, maps read from the same folder.

    Parameters
    ----------
    folder : str or os.PathLike
        A folder of ``.map`` files and the scenario file naming them.
    scen_name : str
        The scenario file's name in ``folder``.

    Returns
    -------
    list of Instance
        One per scenario line, in order, named by its map (each map read once).

    Raises
    ------
    MapFormatError
        No scenario file, a map or scenario line that does not follow the MovingAI format, or a map
        whose size differs from its line's.
    InstanceError
        A start or target outside its grid or on a blocked cell.

    See Also
    --------
    load_from_scen : one line of a scenario file, on a map given by path.
    standard_mazes_dir, handmade_dir : the kit's own folders.
    reference.world.generator.generate_maze_set : writes such a folder.

    Examples
    --------
    >>> [instance.name for instance in load_folder(handout_examples_dir())]
    ['example1', 'example2', 'example3']
    """
    folder = Path(folder)
    scen_path = folder / scen_name
    if not scen_path.exists():
        raise MapFormatError(str(folder), None, f"no {scen_name} in this folder (expected a MovingAI scenario file)")
    cache: dict[str, Gridworld] = {}
    return [from_scenario(s, folder, cache) for s in read_scen(scen_path)]


def load_from_scen(map_path: str | os.PathLike, scen_path: str | os.PathLike, index: int) -> Instance:
    """Instance ``index`` (0-based line after the header) of a scenario file, on ``map_path``.

    Parameters
    ----------
    map_path : str or os.PathLike
        The ``.map`` file (the map the line names is not looked up: this one is used).
    scen_path : str or os.PathLike
        The ``.scen`` file.
    index : int
        The line, 0 for the first after ``version 1``.

    Returns
    -------
    Instance
        Named ``<map stem>#<index>``.

    Raises
    ------
    IndexError
        The scenario file has no line ``index``.
    MapFormatError
        A file that is missing or does not follow the MovingAI format.
    InstanceError
        The line's start or target lies outside the map or on a blocked cell.

    See Also
    --------
    load_folder : every line of a folder's scenario file.
    """
    scenarios = read_scen(scen_path)
    if not 0 <= index < len(scenarios):
        raise IndexError(f"{scen_path} has {len(scenarios)} scenarios; index {index} does not exist")
    grid = read_map(map_path)
    scenario = scenarios[index]
    instance = Instance(f"{Path(map_path).stem}#{index}", grid, scenario.start, scenario.target, scenario.optimal_length)
    instance.check()
    return instance
