# Repeated Forward / Backward / Adaptive A*
# Each cell gets a Node object. Nodes compare by f first and then by g (bigger g wins for
# larger_g, smaller g wins for smaller_g), so the heap can just order the Node objects.

from heap import BinaryHeap
from reference.world.trace import SearchRecord, Trace

BIG = 10 ** 9


class Node:
    def __init__(self, cell):
        self.cell = cell
        self.g = BIG
        self.h = 0
        self.parent = None
        self.search = 0        # which search last touched this node (lazy reset)
        self.prefer_big_g = True

    @property
    def f(self):
        return self.g + self.h

    def __lt__(self, other):
        if self.f != other.f:
            return self.f < other.f
        if self.prefer_big_g:
            return self.g > other.g
        return self.g < other.g


class Agent:
    def __init__(self, world, start, target, tie_break, mode):
        self.world = world
        self.target = tuple(target)
        self.me = tuple(start)
        self.mode = mode
        self.big_g = tie_break == "larger_g"
        self.walls = set()
        self.nodes = {}
        self.learned_h = {}
        self.counter = 0

    def node(self, cell):
        n = self.nodes.get(cell)
        if n is None:
            n = self.nodes[cell] = Node(cell)
            n.prefer_big_g = self.big_g
        if n.search != self.counter:
            n.search = self.counter
            n.g = BIG
            n.parent = None
        return n

    def look(self):
        for w in self.world.sense(self.me):
            self.walls.add(tuple(w))

    def neighbors(self, cell):
        r, c = cell
        out = []
        for nr, nc in ((r, c + 1), (r + 1, c), (r, c - 1), (r - 1, c)):   # E S W N
            if 0 <= nr < self.world.height and 0 <= nc < self.world.width and (nr, nc) not in self.walls:
                out.append((nr, nc))
        return out

    def heuristic(self, cell, goal):
        if self.mode == "adaptive" and cell in self.learned_h:
            return self.learned_h[cell]
        return abs(cell[0] - goal[0]) + abs(cell[1] - goal[1])

    def astar(self, source, goal):
        self.counter += 1
        start_node = self.node(source)
        start_node.g = 0
        start_node.h = self.heuristic(source, goal)
        goal_node = self.node(goal)
        open_list = BinaryHeap()
        open_list.push(source, start_node)
        expanded = []
        while len(open_list) > 0 and goal_node.g > self.nodes[open_list.peek()].f:
            current = self.nodes[open_list.pop()]
            expanded.append(current.cell)
            for nb in self.neighbors(current.cell):
                child = self.node(nb)
                if child.g > current.g + 1:
                    child.g = current.g + 1
                    child.h = self.heuristic(nb, goal)
                    child.parent = current
                    if nb in open_list:
                        open_list.update(nb, child)   # same object, new g: re-sift it
                    else:
                        open_list.push(nb, child)
        return expanded, goal_node

    def run(self):
        trace = Trace(self.mode, "larger_g" if self.big_g else "smaller_g", False, [self.me])
        if self.me == self.target:
            trace.reached = True
            return trace
        self.look()
        while True:
            if self.mode == "backward":
                source, goal = self.target, self.me
            else:
                source, goal = self.me, self.target
            expanded, goal_node = self.astar(source, goal)
            record = SearchRecord(source, goal, expanded, [])
            trace.searches.append(record)
            if goal_node.g >= BIG:
                return trace              # no path: reached stays False
            cells = []
            n = goal_node
            while n is not None:
                cells.append(n.cell)
                n = n.parent
            if self.mode != "backward":
                cells.reverse()
            record.path = cells
            if self.mode == "adaptive":
                for cell in expanded:
                    self.learned_h[cell] = len(cells) - self.nodes[cell].g   # g(goal) = path length
            for i in range(1, len(cells)):
                if any(c in self.walls for c in cells[i:]):
                    break
                self.me = cells[i]
                trace.trajectory.append(self.me)
                if self.me == self.target:
                    trace.reached = True
                    return trace
                self.look()


def repeated_forward_astar(world, start, target, tie_break="larger_g"):
    return Agent(world, start, target, tie_break, "forward").run()


def repeated_backward_astar(world, start, target, tie_break="larger_g"):
    return Agent(world, start, target, tie_break, "backward").run()


def adaptive_astar(world, start, target, tie_break="larger_g"):
    return Agent(world, start, target, tie_break, "adaptive").run()
