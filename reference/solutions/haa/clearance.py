"""Clearance values: how big an agent fits at each cell, per capability (SPEC §14; article Figs 2-10).

*True clearance* ``cv(t, c)`` is the side of the largest square whose **top-left** cell is ``t``, that
lies inside the map and holds only cells whose terrain is in capability ``c`` (0 where ``t`` is not
in ``c``). *Brushfire* is the minimum obstacle distance of the article's Figure 2: 1 next to an
obstacle (the outside of the map counts as one), 2 one step further, ... (Chebyshev distance).

An agent of size ``k`` and capability ``c`` may stand on ``t`` iff ``terrain(t) ∈ c`` and
``cv(t, c) >= k`` (SPEC §14: "at least").

>>> from reference.world.terrain import terrain_from_strings, GROUND_ONLY
>>> terrain = terrain_from_strings(["...", "..@", "..."])
>>> true_clearance(terrain, GROUND_ONLY).tolist()
[[2, 1, 1], [2, 1, 0], [1, 1, 1]]
>>> brushfire(terrain, GROUND_ONLY).tolist()
[[1, 1, 1], [1, 1, 0], [1, 1, 1]]
"""

from __future__ import annotations

from typing import Iterable

import numpy as np

from reference.world.terrain import CAPABILITIES, Capability, passable

#: Clearances are stored as small unsigned integers (a 512 × 512 map needs at most 512).
CLEARANCE_DTYPE = np.uint16


def true_clearance(terrain: np.ndarray, capability: Iterable[int]) -> np.ndarray:
    """``cv(t, capability)`` for every cell ``t`` (the article's Figures 6-10).

    A square of side ``s + 1`` at ``(r, c)`` is free exactly when the four squares of side ``s`` at
    ``(r, c)``, ``(r+1, c)``, ``(r, c+1)``, ``(r+1, c+1)`` are; so the cells holding a free square of
    each side are found side after side with four shifted ANDs (whole-array NumPy operations instead
    of a loop over cells), and the clearance is how many sides succeeded.
    """
    free = passable(terrain, capability)
    clearance = free.astype(CLEARANCE_DTYPE)
    while free.any():
        grown = np.zeros_like(free)  # a square touching the bottom or right edge cannot grow
        grown[:-1, :-1] = free[:-1, :-1] & free[1:, :-1] & free[:-1, 1:] & free[1:, 1:]
        free = grown
        clearance += free
    return clearance


def brushfire(terrain: np.ndarray, capability: Iterable[int]) -> np.ndarray:
    """Minimum obstacle distance (Chebyshev) for every cell (the article's Figure 2; 0 on obstacles).

    Each round erodes the free cells by one ring: a cell survives if it and its eight neighbours
    were free (outside the map is an obstacle); the value is 1 + the rounds a cell survives.
    """
    free = passable(terrain, capability)
    value = free.astype(CLEARANCE_DTYPE)
    while free.any():
        padded = np.zeros((free.shape[0] + 2, free.shape[1] + 2), dtype=bool)
        padded[1:-1, 1:-1] = free
        eroded = free.copy()
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                eroded &= padded[1 + dr:padded.shape[0] - 1 + dr, 1 + dc:padded.shape[1] - 1 + dc]
        free = eroded
        value += free
    return value


def all_clearances(terrain: np.ndarray, capabilities: Iterable[Capability] = CAPABILITIES) -> dict[Capability, np.ndarray]:
    """``{capability: true_clearance(terrain, capability)}`` for every capability (7 by default)."""
    return {frozenset(c): true_clearance(terrain, c) for c in capabilities}


def traversable(clearance: np.ndarray, size: int) -> np.ndarray:
    """Boolean array: where an agent of ``size`` may stand, given its capability's clearance array.

    (A cell whose terrain is not in the capability has clearance 0, so ``size >= 1`` suffices.)
    """
    if size < 1:
        raise ValueError(f"an agent's size is at least 1, got {size}")
    return clearance >= size
