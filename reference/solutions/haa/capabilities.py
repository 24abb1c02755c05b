"""Capabilities as small bit masks, for annotations on abstract edges (SPEC §14).

The world writes a capability as a frozenset of terrain codes (``reference.world.terrain``); the
abstract graph stores thousands of annotated edges, so it writes each as a bit mask instead
(ground 1, trees 2, water 4). Then "the edge's capability is a subset of the agent's" is one
operation: ``edge_mask & ~agent_mask == 0``.

>>> from reference.world.terrain import GROUND, WATER
>>> mask_of({GROUND, WATER}), capability_of(5) == frozenset({GROUND, WATER})
(5, True)
>>> is_subset(1, 5), is_subset(3, 5)
(True, False)
>>> capability_from_text("ground+water") == frozenset({GROUND, WATER})
True
"""

from __future__ import annotations

from typing import Iterable

from reference.world.terrain import CAPABILITIES, PASSABLE_TERRAINS, TERRAIN_NAMES, Capability, capability_name, check_capability

#: Every capability's mask, in the world's order (singletons first): 1, 2, 4, 3, 5, 6, 7.
CAPABILITY_MASKS: tuple[int, ...] = tuple(sum(1 << t for t in c) for c in CAPABILITIES)


def mask_of(capability: Iterable[int]) -> int:
    """The bit mask of a capability (a set of terrain codes)."""
    return sum(1 << t for t in check_capability(capability))


def capability_of(mask: int) -> Capability:
    """The capability (frozenset of terrain codes) of a bit mask."""
    return frozenset(t for t in PASSABLE_TERRAINS if mask >> t & 1)


def is_subset(edge_mask: int, agent_mask: int) -> bool:
    """Whether every terrain of ``edge_mask`` is in ``agent_mask``."""
    return edge_mask & ~agent_mask == 0


def mask_name(mask: int) -> str:
    """``'ground+water'`` for mask 5."""
    return capability_name(capability_of(mask))


def capability_from_text(text: str) -> Capability:
    """``'ground+water'`` -> the capability; ``ValueError`` naming the bad part otherwise."""
    code_of_name = {name: code for code, name in TERRAIN_NAMES.items() if code in PASSABLE_TERRAINS}
    parts = [part.strip() for part in text.strip().split("+")]
    unknown = [part for part in parts if part not in code_of_name]
    if unknown or not parts:
        raise ValueError(f"unknown terrain {unknown[0]!r} in capability {text!r} "
                         f"(expected names like ground+trees+water)")
    return frozenset(code_of_name[part] for part in parts)
