"""Clique abstraction (Sturtevant & Buro 2005), applied ℓ times to the map's graph.

One application merges fully connected groups of states into one abstract state: first groups of
four (on an eight-connected grid, a 2 × 2 block of free cells), then of three, then pairs, each time
among states not yet merged, in the order the states are listed; a state left alone with exactly one
neighbour (an "orphan", say a dead-end corridor cell) joins that neighbour's group, any other one
stays alone. Two abstract states are adjacent when some of their members are. Each application
shrinks a game map by a factor of about two to four.

>>> import numpy as np
>>> from reference.solutions.dynamic.lrta import Neighbours
>>> hierarchy = clique_hierarchy(Neighbours(np.zeros((2, 4), dtype=bool)), 2)
>>> [len(level.members) for level in hierarchy.levels]     # 8 cells -> two 2 x 2 blocks -> one
[8, 2, 1]
>>> hierarchy.region((1, 3), 1), hierarchy.representative(1, 0)
(1, (0, 0))
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from reference.world.grid import Cell

from reference.solutions.dynamic.lrta import Neighbours


@dataclass
class Level:
    """One abstraction level: ``members[a]`` lists the ground cells of abstract state ``a``."""

    members: list[list[Cell]]
    adjacent: list[set[int]]


def clique_groups(adjacent: list[set[int]]) -> list[int]:
    """One application of clique abstraction: the group (0, 1, ...) of every state.

    >>> clique_groups([{1, 2}, {0, 2}, {0, 1, 3}, {2}])   # a triangle and an orphan joining it
    [0, 0, 0, 0]
    """
    group = [-1] * len(adjacent)
    groups = 0
    for size in (4, 3, 2):
        for state in range(len(adjacent)):
            if group[state] >= 0:
                continue
            free = sorted(n for n in adjacent[state] if group[n] < 0)
            for others in combinations(free, size - 1):
                if all(b in adjacent[a] for a, b in combinations(others, 2)):
                    for member in (state, *others):
                        group[member] = groups
                    groups += 1
                    break
    for state in range(len(adjacent)):  # orphans join their only neighbour's group
        if group[state] < 0 and len(adjacent[state]) == 1:
            group[state] = group[next(iter(adjacent[state]))]
    for state in range(len(adjacent)):  # whoever is left (including orphans of orphans) stays alone
        if group[state] < 0:
            group[state] = groups
            groups += 1
    return group


@dataclass
class Hierarchy:
    """Levels 0 .. ℓ of clique abstraction over a map's free cells (level 0: one state per cell)."""

    levels: list[Level]
    region_of: list[dict[Cell, int]]   # region_of[level][cell]: the abstract state holding the cell

    def region(self, cell: Cell, level: int) -> int:
        return self.region_of[level][cell]

    def representative(self, level: int, region: int) -> Cell:
        """The member cell nearest the region's centre (ties: the first in row-major order)."""
        members = self.levels[level].members[region]
        mean_row = sum(r for r, _ in members) / len(members)
        mean_col = sum(c for _, c in members) / len(members)
        return min(sorted(members), key=lambda cell: (cell[0] - mean_row) ** 2 + (cell[1] - mean_col) ** 2)


def clique_hierarchy(neighbours: Neighbours, levels: int) -> Hierarchy:
    """Apply clique abstraction ``levels`` times to the free cells of ``neighbours`` (Figure 3, line 1)."""
    cells = sorted(neighbours.table)
    index = {cell: i for i, cell in enumerate(cells)}
    level = Level([[cell] for cell in cells], [{index[n] for n, _ in neighbours[cell]} for cell in cells])
    hierarchy = Hierarchy([level], [dict(index)])
    for _ in range(levels):
        group = clique_groups(level.adjacent)
        count = max(group, default=-1) + 1
        members: list[list[Cell]] = [[] for _ in range(count)]
        adjacent: list[set[int]] = [set() for _ in range(count)]
        for state, g in enumerate(group):
            members[g].extend(level.members[state])
            adjacent[g].update(group[n] for n in level.adjacent[state] if group[n] != g)
        level = Level(members, adjacent)
        hierarchy.levels.append(level)
        hierarchy.region_of.append({cell: g for g, cells_of in enumerate(members) for cell in cells_of})
    return hierarchy
