"""Repeated A* as classes: an Agent that remembers walls and a Planner per search direction
(correct submission fixture, written independently of the kit's reference).

It returns the kit's public ``Trace`` with cells as NumPy integers, and senses at the start even when
the agent starts on the target (the SPEC allows both).
"""

from __future__ import annotations

import math

import numpy as np

from heap import BinaryHeap
from reference.world.trace import SearchRecord, Trace


class Robot:
    def __init__(self, world, start):
        self.world = world
        self.here = start
        self.blocked_map = np.zeros((world.height, world.width), dtype=bool)
        self.visited = [start]
        self.scan()

    def scan(self):
        for row, col in self.world.sense(self.here):
            self.blocked_map[row, col] = True

    def move_to(self, s):
        self.here = s
        self.visited.append(s)
        self.scan()

    def is_open(self, s) -> bool:
        return not self.blocked_map[s]


class Searcher:
    """One A* search per call to ``plan``; g and search(s) live across calls (lazy initialisation)."""

    def __init__(self, bot: Robot, big_g_first: bool, learns: bool):
        self.bot = bot
        self.big_g_first = big_g_first
        self.learns = learns
        self.search_no = 0
        self.cost: dict = {}
        self.stamp_of: dict = {}
        self.came_from: dict = {}
        self.h_new: dict = {}

    def neighbours(self, s):
        row, col = s
        h, w = self.bot.blocked_map.shape
        for succ in ((row, col + 1), (row + 1, col), (row, col - 1), (row - 1, col)):
            if 0 <= succ[0] < h and 0 <= succ[1] < w and self.bot.is_open(succ):
                yield succ

    def h_of(self, s, s_goal) -> int:
        if self.learns and s in self.h_new:
            return self.h_new[s]
        return abs(s[0] - s_goal[0]) + abs(s[1] - s_goal[1])

    def refresh(self, s) -> None:
        if self.stamp_of.get(s, 0) < self.search_no:
            self.cost[s] = math.inf
            self.stamp_of[s] = self.search_no

    def compute_path(self, s_start, s_goal):
        self.search_no += 1
        self.refresh(s_start)
        self.refresh(s_goal)
        self.cost[s_start] = 0
        open_list = BinaryHeap()
        pushes = 0

        def add_open(s):
            nonlocal pushes
            pushes += 1
            cost = self.cost[s]
            k = (cost + self.h_of(s, s_goal), -cost if self.big_g_first else cost, pushes)
            if s in open_list:
                open_list.update(s, k)
            else:
                open_list.push(s, k)

        add_open(s_start)
        closed = []
        while open_list and self.cost[s_goal] > self.h_of(open_list.peek(), s_goal) + self.cost[open_list.peek()]:
            s = open_list.pop()
            closed.append(s)
            for succ in self.neighbours(s):
                self.refresh(succ)
                if self.cost[succ] > self.cost[s] + 1:
                    self.cost[succ] = self.cost[s] + 1
                    self.came_from[succ] = s
                    add_open(succ)
        if self.cost[s_goal] == math.inf:
            return closed, None
        if self.learns:
            for s in closed:
                self.h_new[s] = self.cost[s_goal] - self.cost[s]
        route = [s_goal]
        while route[-1] != s_start:
            route.append(self.came_from[route[-1]])
        return closed, route


def np_cells(cells):
    return [(np.int64(row), np.int64(col)) for row, col in cells]


def run(world, start, target, tie_break, mode):
    start, target = (int(start[0]), int(start[1])), (int(target[0]), int(target[1]))
    bot = Robot(world, start)
    planner = Searcher(bot, tie_break == "larger_g", mode == "adaptive")
    log = []
    ok = True
    while bot.here != target:
        if mode == "backward":
            s_start, s_goal = target, bot.here
        else:
            s_start, s_goal = bot.here, target
        closed, route = planner.compute_path(s_start, s_goal)
        if route is None:
            log.append(SearchRecord(s_start, s_goal, np_cells(closed), []))
            ok = False
            break
        p = route if mode == "backward" else route[::-1]
        log.append(SearchRecord(s_start, s_goal, np_cells(closed), np_cells(p)))
        for i in range(1, len(p)):
            if not all(bot.is_open(s) for s in p[i:]):
                break
            bot.move_to(p[i])
    return Trace(mode, tie_break, ok, np_cells(bot.visited), log)


def repeated_forward_astar(world, start, target, tie_break="larger_g"):
    return run(world, start, target, tie_break, "forward")


def repeated_backward_astar(world, start, target, tie_break="larger_g"):
    return run(world, start, target, tie_break, "backward")


def adaptive_astar(world, start, target, tie_break="larger_g"):
    return run(world, start, target, tie_break, "adaptive")
