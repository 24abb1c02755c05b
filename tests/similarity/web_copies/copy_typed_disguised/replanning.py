"""Repeated A* searches for the replanning assignment."""
from __future__ import annotations

import heapq
from dataclasses import dataclass, field

from reference.world.trace import SearchRecord, Trace


@dataclass(order=True)
class QueueItem:
    f: int
    minus_g: int
    number: int
    cell: tuple = field(compare=False)


@dataclass
class Memory:
    rows: int
    cols: int
    walls: set = field(default_factory=set)

    def within(self, cell):
        return 0 <= cell[0] < self.rows and 0 <= cell[1] < self.cols

    def options(self, cell):
        for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0)):
            nxt = (cell[0] + dr, cell[1] + dc)
            if self.within(nxt) and nxt not in self.walls:
                yield nxt


def manhattan(a, b):
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def search(memory, start, goal):
    g = {start: 0}
    parent = {}
    queue = [QueueItem(manhattan(start, goal), 0, 0, start)]
    number = 0
    order = []
    finished = set()
    while queue:
        if goal in g and g[goal] <= queue[0].f:
            break
        item = heapq.heappop(queue)
        if item.cell in finished:
            continue
        finished.add(item.cell)
        order.append(item.cell)
        for nxt in memory.options(item.cell):
            new_g = g[item.cell] + 1
            if new_g < g.get(nxt, 1 << 60):
                g[nxt] = new_g
                parent[nxt] = item.cell
                number += 1
                heapq.heappush(queue, QueueItem(new_g + manhattan(nxt, goal), -new_g, number, nxt))
    if goal not in g:
        return None, order
    route = [goal]
    while route[-1] != start:
        route.append(parent[route[-1]])
    return route[::-1], order


def episode(world, start, target, algorithm, tie_break):
    memory = Memory(world.height, world.width)
    memory.walls.update(map(tuple, world.sense(start)))
    agent, trajectory, records = start, [start], []
    backward = algorithm == "backward"
    while agent != target:
        source, goal = (target, agent) if backward else (agent, target)
        route, order = search(memory, source, goal)
        if route is not None and backward:
            route = route[::-1]
        records.append(SearchRecord(source, goal, order, route or []))
        if route is None:
            return Trace(algorithm, tie_break, False, trajectory, records)
        for cell in route[1:]:
            if cell in memory.walls:
                break
            agent = cell
            trajectory.append(cell)
            memory.walls.update(map(tuple, world.sense(cell)))
    return Trace(algorithm, tie_break, True, trajectory, records)


def repeated_forward_astar(world, start, target, tie_break="larger_g"):
    return episode(world, start, target, "forward", tie_break)


def repeated_backward_astar(world, start, target, tie_break="larger_g"):
    return episode(world, start, target, "backward", tie_break)


def adaptive_astar(world, start, target, tie_break="larger_g"):
    return episode(world, start, target, "adaptive", tie_break)
