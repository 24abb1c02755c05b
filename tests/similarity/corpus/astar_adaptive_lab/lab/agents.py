"""Three agents sharing one engine: subclasses choose the direction and whether h learns."""
from queue import PriorityQueue


class RepeatedAStar:
    name = "forward"

    def __init__(self, height, width):
        self.height, self.width = height, width
        self.walls = set()
        self.learned = {}
        self.log = []

    # -- hooks the subclasses override -----------------------------------------------------------
    def endpoints(self, agent, target):
        return agent, target

    def walk_order(self, path):
        return path

    def learn(self, closed, g, goal):
        pass

    # -- the engine ------------------------------------------------------------------------------
    def h(self, cell, goal):
        return self.learned.get(cell, abs(cell[0] - goal[0]) + abs(cell[1] - goal[1]))

    def expand_order(self, cell):
        r, c = cell
        for nxt in ((r, c + 1), (r + 1, c), (r, c - 1), (r - 1, c)):
            if 0 <= nxt[0] < self.height and 0 <= nxt[1] < self.width and nxt not in self.walls:
                yield nxt

    def one_search(self, start, goal):
        g, parent, closed = {start: 0}, {}, []
        frontier = PriorityQueue()
        frontier.put((self.h(start, goal), 0, start))
        finished = set()
        while not frontier.empty():
            f, minus_g, cell = frontier.get()
            if cell in finished or -minus_g > g[cell]:
                continue
            if cell == goal:
                break
            finished.add(cell)
            closed.append(cell)
            for nxt in self.expand_order(cell):
                if g[cell] + 1 < g.get(nxt, float("inf")):
                    g[nxt] = g[cell] + 1
                    parent[nxt] = cell
                    frontier.put((g[nxt] + self.h(nxt, goal), -g[nxt], nxt))
        if goal not in g:
            return None, closed
        self.learn(closed, g, goal)
        path = [goal]
        while path[-1] != start:
            path.append(parent[path[-1]])
        return path[::-1], closed

    def sense(self, truth, cell):
        self.walls.update(n for n in truth.neighbours(cell) if truth.blocked(n))

    def run(self, truth, agent, target):
        trajectory = [agent]
        self.sense(truth, agent)
        while agent != target:
            start, goal = self.endpoints(agent, target)
            path, closed = self.one_search(start, goal)
            self.log.append(len(closed))
            if path is None:
                return trajectory, False
            for cell in self.walk_order(path)[1:]:
                if cell in self.walls:
                    break
                agent = cell
                trajectory.append(agent)
                self.sense(truth, agent)
        return trajectory, True


class BackwardAStar(RepeatedAStar):
    name = "backward"

    def endpoints(self, agent, target):
        return target, agent

    def walk_order(self, path):
        return path[::-1]


class AdaptiveAStar(RepeatedAStar):
    name = "adaptive"

    def learn(self, closed, g, goal):
        for cell in closed:
            self.learned[cell] = g[goal] - g[cell]
