"""Terrain of game maps and who may pass where (SPEC §12 and §14).

A MovingAI map character is one of four terrain types, stored per cell as a ``uint8`` code:

========  ==============  ===================================================
code      characters      meaning
========  ==============  ===================================================
GROUND 0  ``.`` ``G`` ``S``  ground (swamp ``S`` is ground for every purpose)
TREES  1  ``T``           trees
WATER  2  ``W``           water
OUT    3  ``@`` ``O``     out of bounds: nobody ever passes
========  ==============  ===================================================

A *capability* is a non-empty set of the passable types (ground, trees, water): an agent passes a
cell exactly when the cell's terrain is in its capability. A plain ground agent has
:data:`GROUND_ONLY`. The MovingAI scenarios add one convention: an agent that starts on water moves
through water only (:func:`scenario_capability`).

>>> terrain = terrain_from_strings([".TW", "S@G"])
>>> terrain.tolist()
[[0, 1, 2], [0, 3, 0]]
>>> passable(terrain, GROUND_ONLY).tolist()
[[True, False, False], [True, False, True]]
>>> passable(terrain, frozenset({GROUND, WATER})).tolist()
[[True, False, True], [True, False, True]]
>>> capability_name(frozenset({TREES, GROUND}))
'ground+trees'
"""

from __future__ import annotations

from itertools import combinations
from typing import Iterable

import numpy as np

from .grid import Cell, Gridworld

GROUND, TREES, WATER, OUT_OF_BOUNDS = 0, 1, 2, 3

#: The name of each terrain code, for reports and legends.
TERRAIN_NAMES: dict[int, str] = {GROUND: "ground", TREES: "trees", WATER: "water", OUT_OF_BOUNDS: "out of bounds"}

#: The terrain each MovingAI map character stands for.
TERRAIN_OF_CHAR: dict[str, int] = {
    ".": GROUND, "G": GROUND, "S": GROUND,
    "T": TREES,
    "W": WATER,
    "@": OUT_OF_BOUNDS, "O": OUT_OF_BOUNDS,
}

#: The character the kit writes for each terrain code.
CHAR_OF_TERRAIN: dict[int, str] = {GROUND: ".", TREES: "T", WATER: "W", OUT_OF_BOUNDS: "@"}

#: Code 255 marks a byte that is not a map character (the parser reports it).
UNKNOWN = 255

#: Byte -> terrain code, so that a whole row is translated with one NumPy indexing operation.
CODE_OF_BYTE = np.full(256, UNKNOWN, dtype=np.uint8)
for _char, _code in TERRAIN_OF_CHAR.items():
    CODE_OF_BYTE[ord(_char)] = _code

Capability = frozenset[int]

GROUND_ONLY: Capability = frozenset({GROUND})
WATER_ONLY: Capability = frozenset({WATER})
PASSABLE_TERRAINS: tuple[int, ...] = (GROUND, TREES, WATER)

#: Every capability (non-empty subset of ground, trees, water), singletons first, in a fixed order.
CAPABILITIES: tuple[Capability, ...] = tuple(
    frozenset(subset) for size in (1, 2, 3) for subset in combinations(PASSABLE_TERRAINS, size)
)


def check_capability(capability: Iterable[int]) -> Capability:
    """``capability`` as a frozenset, or ``ValueError`` unless it is a non-empty set of passable types."""
    capability = frozenset(capability)
    if not capability or not capability <= set(PASSABLE_TERRAINS):
        raise ValueError(f"a capability is a non-empty set of GROUND, TREES, WATER (0, 1, 2), got {sorted(capability)}")
    return capability


def capability_name(capability: Iterable[int]) -> str:
    """``'ground+trees'``: the capability's terrain names in code order, joined by ``+``."""
    return "+".join(TERRAIN_NAMES[t] for t in sorted(check_capability(capability)))


def passable(terrain: np.ndarray, capability: Iterable[int]) -> np.ndarray:
    """Boolean array: True where the terrain is in ``capability``."""
    return np.isin(terrain, sorted(check_capability(capability)))


def grid_for(terrain: np.ndarray, capability: Iterable[int] = GROUND_ONLY) -> Gridworld:
    """The :class:`Gridworld` an agent with ``capability`` sees: every other cell blocked."""
    height, width = terrain.shape
    return Gridworld(height, width, blocked=~passable(terrain, capability))


def scenario_capability(terrain: np.ndarray, start: Cell) -> Capability:
    """The MovingAI scenario convention: water only for an agent starting on water, else ground only.

    >>> scenario_capability(terrain_from_strings(["W."]), (0, 0)) == WATER_ONLY
    True
    """
    return WATER_ONLY if terrain[start] == WATER else GROUND_ONLY


def terrain_from_strings(rows: Iterable[str]) -> np.ndarray:
    """A terrain array from rows of map characters (tests and examples; files go through ``maps``)."""
    rows = list(rows)
    try:
        return np.array([[TERRAIN_OF_CHAR[ch] for ch in row] for row in rows], dtype=np.uint8)
    except KeyError as error:
        raise ValueError(f"unknown map character {error.args[0]!r} (expected one of {' '.join(TERRAIN_OF_CHAR)})") from None


def terrain_to_strings(terrain: np.ndarray) -> list[str]:
    """Rows of map characters (``.``, ``T``, ``W``, ``@``): the inverse of :func:`terrain_from_strings`
    up to the synonyms ``G``, ``S`` and ``O``."""
    return ["".join(CHAR_OF_TERRAIN[int(code)] for code in row) for row in terrain]
