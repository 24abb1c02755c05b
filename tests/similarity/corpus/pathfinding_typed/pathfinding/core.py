"""Typed core: a priority-queue A* over an agent's partial map, repeated until the goal is reached."""
from __future__ import annotations

import heapq
from dataclasses import dataclass, field
from enum import Enum
from typing import Dict, Iterator, List, Optional, Set, Tuple

Cell = Tuple[int, int]


class Direction(Enum):
    EAST = (0, 1)
    SOUTH = (1, 0)
    WEST = (0, -1)
    NORTH = (-1, 0)


@dataclass(order=True)
class Entry:
    f: int
    neg_g: int
    serial: int
    cell: Cell = field(compare=False)


@dataclass
class PartialMap:
    rows: int
    cols: int
    blocked: Set[Cell] = field(default_factory=set)

    def inside(self, cell: Cell) -> bool:
        return 0 <= cell[0] < self.rows and 0 <= cell[1] < self.cols

    def moves(self, cell: Cell) -> Iterator[Cell]:
        for direction in Direction:
            nxt = (cell[0] + direction.value[0], cell[1] + direction.value[1])
            if self.inside(nxt) and nxt not in self.blocked:
                yield nxt


@dataclass
class SearchResult:
    path: Optional[List[Cell]]
    expanded: List[Cell]


def distance(a: Cell, b: Cell) -> int:
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def a_star(known: PartialMap, start: Cell, goal: Cell) -> SearchResult:
    g: Dict[Cell, int] = {start: 0}
    came_from: Dict[Cell, Cell] = {}
    queue: List[Entry] = [Entry(distance(start, goal), 0, 0, start)]
    serial = 0
    expanded: List[Cell] = []
    done: Set[Cell] = set()
    while queue:
        if goal in g and g[goal] <= queue[0].f:
            break
        entry = heapq.heappop(queue)
        if entry.cell in done:
            continue
        done.add(entry.cell)
        expanded.append(entry.cell)
        for nxt in known.moves(entry.cell):
            candidate = g[entry.cell] + 1
            if candidate < g.get(nxt, 1 << 60):
                g[nxt] = candidate
                came_from[nxt] = entry.cell
                serial += 1
                heapq.heappush(queue, Entry(candidate + distance(nxt, goal), -candidate, serial, nxt))
    if goal not in g:
        return SearchResult(None, expanded)
    path = [goal]
    while path[-1] != start:
        path.append(came_from[path[-1]])
    return SearchResult(path[::-1], expanded)


@dataclass
class Episode:
    trajectory: List[Cell]
    searches: List[SearchResult]
    reached: bool


def navigate(truth: Set[Cell], rows: int, cols: int, start: Cell, goal: Cell) -> Episode:
    known = PartialMap(rows, cols)
    agent = start
    episode = Episode([start], [], False)

    def sense(cell: Cell) -> None:
        known.blocked.update(n for n in PartialMap(rows, cols).moves(cell) if n in truth)

    sense(agent)
    while agent != goal:
        result = a_star(known, agent, goal)
        episode.searches.append(result)
        if result.path is None:
            return episode
        for cell in result.path[1:]:
            if cell in known.blocked:
                break
            agent = cell
            episode.trajectory.append(cell)
            sense(cell)
    episode.reached = True
    return episode
