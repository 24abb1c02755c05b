"""Multi-terrain versions of ground-only maps: a seeded, documented construction (docs/haa.md, "Data").

The 120 Baldur's Gate maps have one terrain (ground) and hard obstacles. The paper made them
multi-terrain by turning traversable tiles into a second terrain at random ("soft obstacles",
10-50%). The kit's construction keeps that idea and adds lakes and woods where the maps have
obstacles, so that all three terrains occur:

1. every **interior obstacle region** (a 4-connected region of blocked cells that does not touch
   the map's edge: pillars, rocks, walls standing free) becomes **water** or **trees**, by a fair
   coin per region;
2. **woods**: a fraction ``soft_fraction`` of the ground cells (default 0.2, the paper's "SO 20%"
   set, the one its search-effort figure uses) becomes trees, in patches rather than single tiles:
   uniform noise is averaged over 5 × 5 windows and the ground cells of highest average become trees.
   (The paper converted single tiles at random; scattered single trees leave agents of size 3 almost
   nowhere to stand, while the paper's agents had sizes 1 and 2 only.)

The random generator is seeded with ``(seed, crc32(name))``, so one map always gets the same terrain
for one seed, and different maps get independent draws. The original maps stay untouched (this
runs when a map is loaded; nothing generated is committed).

:func:`with_soft_obstacles` is the paper's own construction, kept beside it: every traversable
tile becomes the second terrain (trees, the "soft obstacles") with probability ``p``, one coin per
tile, seeded with ``(seed, crc32(name), percent)``; the paper's five sets are ``p`` = 10-50 %.

>>> from reference.world.terrain import terrain_from_strings, terrain_to_strings
>>> original = terrain_from_strings(["@@@@@@", "@....@", "@.@@.@", "@....@", "@@@@@@"])
>>> terrain_to_strings(with_terrain(original, "toy", seed=1, soft_fraction=0.0))
['@@@@@@', '@....@', '@.WW.@', '@....@', '@@@@@@']
>>> soft = with_soft_obstacles(original, "toy", 0.5, seed=1)
>>> int((soft == TREES).sum()) + int((soft == GROUND).sum()), bool((soft[original == OUT_OF_BOUNDS] == OUT_OF_BOUNDS).all())
(10, True)
"""

from __future__ import annotations

import zlib

import numpy as np
from scipy import ndimage

from reference.world.terrain import GROUND, OUT_OF_BOUNDS, TREES, WATER

DEFAULT_SOFT_FRACTION = 0.2
WOODS_WINDOW = 5


def with_terrain(terrain: np.ndarray, name: str, seed: int = 0, soft_fraction: float = DEFAULT_SOFT_FRACTION) -> np.ndarray:
    """A multi-terrain copy of ``terrain`` (see the module docstring for the construction)."""
    if not 0.0 <= soft_fraction <= 1.0:
        raise ValueError(f"soft_fraction must lie in [0, 1], got {soft_fraction}")
    rng = np.random.default_rng([seed, zlib.crc32(name.encode())])
    result = np.array(terrain, dtype=np.uint8, copy=True)
    regions, count = ndimage.label(result == OUT_OF_BOUNDS)  # 4-connected by default
    touching_edge = set(np.unique(np.concatenate([regions[0], regions[-1], regions[:, 0], regions[:, -1]])))
    coins = rng.random(count + 1)  # one draw per region label, drawn whether or not it is used
    for label in range(1, count + 1):
        if label not in touching_edge:
            result[regions == label] = WATER if coins[label] < 0.5 else TREES
    noise = ndimage.uniform_filter(rng.random(result.shape), size=WOODS_WINDOW, mode="reflect")
    ground = np.asarray(terrain) == GROUND
    if soft_fraction > 0 and ground.any():
        threshold = np.quantile(noise[ground], 1.0 - soft_fraction)
        result[ground & (noise > threshold)] = TREES
    return result


#: The paper's soft-obstacle sets: the share of traversable tiles turned into the second terrain.
SOFT_OBSTACLE_LEVELS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5)


def with_soft_obstacles(terrain: np.ndarray, name: str, probability: float, seed: int = 0) -> np.ndarray:
    """The paper's construction: each traversable tile of a ground-only map becomes trees (a soft
    obstacle) with ``probability``, independently; hard obstacles stay. ``probability`` 0 is the map
    itself (the paper's SO 0 % set)."""
    if not 0.0 <= probability <= 1.0:
        raise ValueError(f"the soft-obstacle probability must lie in [0, 1], got {probability}")
    rng = np.random.default_rng([seed, zlib.crc32(name.encode()), round(probability * 100)])
    result = np.array(terrain, dtype=np.uint8, copy=True)
    coins = rng.random(result.shape)  # one coin per tile, drawn for every tile
    result[(result != OUT_OF_BOUNDS) & (coins < probability)] = TREES
    return result
