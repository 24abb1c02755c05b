"""Compiled twins (Numba) of general LRTA* and its pattern databases (Bulitko et al. 2007; SPEC §16).

The readable code in :mod:`reference.solutions.dynamic` is the one to read; this module mirrors it
line for line with flat arrays in place of dictionaries, so that every run takes the same actions,
raises the same h values and counts the same expansions (tested move for move):

* a cell is its index ``row * width + col``;
* costs stay exact pairs ``(straight, diagonal)`` in two int64 arrays and are compared through the
  doubles ``float(a) + float(b) * SQRT2``, the two operations of
  :func:`~reference.world.grid.cost_value` (Numba does not fuse them, so the doubles are
  bit-identical to the readable code's; see :mod:`reference.solutions.compiled.shortest_paths`);
* the breadth-first layers of Figure 1, line 4, are one array of cells in the order the readable
  search appends them (``order``) with the start of each layer (``layer_start``); a cell belongs to
  this search when ``seen[cell] == counter`` (lazy initialisation: a search touches only the cells
  it generates, not the whole map);
* the learned heuristic (one table per goal, line 6) is a typed dictionary keyed by
  ``goal * cells + cell`` holding ``straight << 32 | diagonal``; a missing key is the octile distance.

The twins mirror the readable modules one for one: this module is the twin of ``dynamic/lrta.py``
(general LRTA*, and the runs of a whole problem), :mod:`.pattern_database` of
``dynamic/pattern_database.py`` (building the databases) and :mod:`.tree` of ``dynamic/tree.py``
(the oracle and the samples the decision trees learn from).

What is compiled: one lookahead with the choices of every depth up to it (lines 4, 5 and 7 of
Figure 1, :meth:`Lookahead.choices`), the h update (line 6), the whole run of one problem for a fixed depth or
a pattern-database lookup with goal selection G, G+I or I (:func:`run_fixed`, :func:`run_database`),
and the pattern database's inner loop, the optimal depth for every start region toward one goal
region (:func:`build_pattern_database_compiled`). Decision trees keep their Python controller and
call the compiled lookahead (:class:`CompiledAgent`).

>>> import numpy as np
>>> blocked = np.zeros((3, 5), dtype=bool); blocked[0:2, 2] = True   # the readable module's example
>>> run = run_fixed(blocked, (0, 0), (0, 4), 3)
>>> run.reached, run.cost, run.path[:4]
(True, (4, 2), [(0, 0), (1, 1), (2, 1), (2, 2)])
"""

from __future__ import annotations


import numpy as np
from numba import njit, types
from numba.typed import Dict

from reference.solutions.compiled.shortest_paths import MOVE_COLS, MOVE_ROWS, move_rule
from reference.solutions.dynamic.lrta import Agent, Controller, Run
from reference.solutions.dynamic.pattern_database import GOAL_RULES
from reference.world.grid import SQRT2, Cell

#: Goal selections of a database run, as the compiled loop numbers them (0 is fixed depth).
GOAL_MODES = {"g": 1, "gi": 2, "i": 3}


def new_heuristic_table():
    """An empty learned-heuristic table: typed dict ``goal * cells + cell -> straight << 32 | diagonal``."""
    return Dict.empty(key_type=types.int64, value_type=types.int64)


@njit(cache=True)
def _h(table, fresh, goal, cell, width, cells):
    """h(cell, goal) as a pair: the learned value if LRTA* has raised it, else the octile distance."""
    if not fresh:
        packed = table.get(goal * cells + cell, np.int64(-1))
        if packed >= 0:
            return packed >> 32, packed & 0xFFFFFFFF
    d_row = abs(cell // width - goal // width)
    d_col = abs(cell % width - goal % width)
    return abs(d_row - d_col), min(d_row, d_col)


@njit(cache=True)
def _layers(blocked, root, goal, depth, counter, seen, layer_of, g_a, g_b, parent, order, layer_start,
            move_rows, move_cols, sqrt2):
    """Figure 1, line 4 (``breadth_first_layers``): layers 0 .. ``depth`` with duplicate detection.

    Layer k is ``order[layer_start[k]:layer_start[k + 1]]``. Returns ``(layers, goal_layer)`` (the
    number of non-empty layers, and the goal's layer or -1).
    """
    height, width = blocked.shape
    seen[root] = counter
    layer_of[root] = 0
    g_a[root] = 0
    g_b[root] = 0
    order[0] = root
    layer_start[0] = 0
    layer_start[1] = 1
    layers = 1
    goal_layer = 0 if root == goal else -1
    for k in range(1, depth + 1):
        begin, end = layer_start[k - 1], layer_start[k]
        size = end
        for i in range(begin, end):
            s = order[i]
            if s == goal:  # the goal is a frontier state, never expanded
                continue
            row, col = s // width, s % width
            # The world's move rule (SPEC §12), one function for every compiled search (its cost,
            # measured against the rule written out: shortest_paths.move_rule's docstring).
            for move in range(8):
                r, c, diagonal, allowed = move_rule(blocked, height, width, row, col, move_rows[move], move_cols[move])
                if not allowed:
                    continue
                t = r * width + c
                new_a = g_a[s] + (0 if diagonal else 1)
                new_b = g_b[s] + (1 if diagonal else 0)
                if seen[t] != counter:
                    seen[t] = counter
                    layer_of[t] = k
                    g_a[t] = new_a
                    g_b[t] = new_b
                    parent[t] = s
                    order[size] = t
                    size += 1
                    if t == goal:
                        goal_layer = k
                elif layer_of[t] == k and (float(new_a) + float(new_b) * sqrt2
                                           < float(g_a[t]) + float(g_b[t]) * sqrt2):
                    g_a[t] = new_a  # a cheaper path with the same number of actions
                    g_b[t] = new_b
                    parent[t] = s
        if size == end:
            break
        layer_start[k + 1] = size
        layers += 1
    return layers, goal_layer


@njit(cache=True)
def _choices(blocked, root, goal, depth, table, fresh, counter, seen, layer_of, g_a, g_b, parent, order,
             layer_start, f_a, f_b, move_rows, move_cols, sqrt2, out):
    """One search to ``depth`` and the choice of every depth 1 .. ``depth`` (``choices_by_depth``).

    ``out[d]`` = ``(target, step, f straight, f diagonal, expansions)`` of a depth-d search, target
    -1 where there is no choice. f uses path-max along the search tree.
    """
    width = blocked.shape[1]
    cells = blocked.size
    layers, goal_layer = _layers(blocked, root, goal, depth, counter, seen, layer_of, g_a, g_b, parent, order,
                                 layer_start, move_rows, move_cols, sqrt2)
    f_a[root], f_b[root] = _h(table, fresh, goal, root, width, cells)
    for i in range(1, layer_start[layers]):  # parents lie in the previous layer: theirs is known
        cell = order[i]
        h_a, h_b = _h(table, fresh, goal, cell, width, cells)
        own_a, own_b = g_a[cell] + h_a, g_b[cell] + h_b
        p = parent[cell]
        if float(own_a) + float(own_b) * sqrt2 >= float(f_a[p]) + float(f_b[p]) * sqrt2:
            f_a[cell], f_b[cell] = own_a, own_b
        else:
            f_a[cell], f_b[cell] = f_a[p], f_b[p]
    deepest = layers - 1
    for d in range(1, depth + 1):
        out[d, 0] = -1
        if deepest == 0:
            continue
        top = min(d, deepest)
        best = -1
        if goal_layer > 0 and goal_layer < top:
            best = goal  # met earlier, so before layer d's states
        for i in range(layer_start[top], layer_start[top + 1]):
            cell = order[i]
            if best < 0 or (float(f_a[cell]) + float(f_b[cell]) * sqrt2
                            < float(f_a[best]) + float(f_b[best]) * sqrt2):
                best = cell
        step = best
        while parent[step] != root:
            step = parent[step]
        expansions = layer_start[min(d, layers)]
        if goal_layer >= 0 and goal_layer < d:
            expansions -= 1
        out[d, 0], out[d, 1], out[d, 2], out[d, 3], out[d, 4] = best, step, f_a[best], f_b[best], expansions
    return layers


@njit(cache=True)
def _raise(table, goal, cell, cells, width, value_a, value_b, sqrt2):
    """Figure 1, line 6 (``LearnedHeuristic.raise_to``): raise h(cell, goal); True if it changed."""
    h_a, h_b = _h(table, False, goal, cell, width, cells)
    if float(value_a) + float(value_b) * sqrt2 <= float(h_a) + float(h_b) * sqrt2:
        return False
    table[goal * cells + cell] = value_a * (np.int64(1) << 32) + value_b
    return True


@njit(cache=True)
def _run(blocked, start, goal, mode, keep, fixed, region_of, depth_table, next_region, representatives, cap,
         max_actions, table, counter, seen, layer_of, g_a, g_b, parent, order, layer_start, f_a, f_b,
         move_rows, move_cols, sqrt2):
    """``general_lrta`` with line 3 compiled: a fixed depth (mode 0) or a pattern-database lookup
    with goal selection G, G+I, I (modes 1, 2, 3; ``PatternDatabase.controller``); ``keep``: the
    kit's goal rule "once" (kept until reached, each at most once), else the paper's "per action".

    Returns ``(path, depths, expansions, goals, actions, straight, diagonal, counter)`` (``counter``: the
    last search's number, for the next call on the same arrays).
    """
    width = blocked.shape[1]
    cells = blocked.size
    path = np.empty(max_actions + 1, np.int64)
    depths = np.empty(max_actions, np.int64)
    expansions = np.empty(max_actions, np.int64)
    goals = np.empty(max_actions, np.int64)
    out = np.empty((max(cap, fixed) + 2, 5), np.int64)
    path[0] = start
    actions = 0
    cost_a = 0
    cost_b = 0
    state = start
    subgoal = -1
    used = np.zeros(representatives.shape[0], np.bool_)   # the regions whose representative was a goal
    while state != goal and actions + 1 <= max_actions:   # line 2
        # line 3: the controller
        if mode == 0:
            depth, target_goal = fixed, goal
        elif keep and subgoal >= 0 and subgoal != state:  # rule "once": kept until reached
            depth, target_goal = min(depth_table[region_of[state], region_of[subgoal]], cap), subgoal
        else:
            a, b = region_of[state], region_of[goal]
            stored = depth_table[a, b]
            via = next_region[a, b]
            if (via >= 0 and (mode == 3 or (mode == 2 and stored > cap)) and not (keep and used[via])
                    and representatives[via] != state):  # rule "once": each intermediate goal at most once
                depth, target_goal = min(depth_table[a, via], cap), representatives[via]
                used[via] = True
            else:
                depth, target_goal = min(stored, cap), goal
            subgoal = target_goal if target_goal != goal else -1
        if target_goal == state:
            target_goal = goal
        depth = max(1, depth)
        # lines 4-7
        counter += 1
        _choices(blocked, state, target_goal, depth, table, False, counter, seen, layer_of, g_a, g_b, parent,
                 order, layer_start, f_a, f_b, move_rows, move_cols, sqrt2, out)
        if out[depth, 0] < 0:
            break
        _raise(table, target_goal, state, cells, width, out[depth, 2], out[depth, 3], sqrt2)
        step = out[depth, 1]
        if step // width != state // width and step % width != state % width:
            cost_b += 1
        else:
            cost_a += 1
        depths[actions] = depth
        expansions[actions] = out[depth, 4]
        goals[actions] = target_goal
        actions += 1
        path[actions] = step
        state = step
    return path, depths, expansions, goals, actions, cost_a, cost_b, counter


class Lookahead:
    """The per-cell arrays of the compiled search for one map, allocated once and reused."""

    def __init__(self, blocked: np.ndarray) -> None:
        self.blocked = np.ascontiguousarray(blocked, dtype=np.bool_)
        self.width = self.blocked.shape[1]
        cells = self.blocked.size
        self.seen = np.zeros(cells, np.int64)   # the search that last generated a cell
        self.layer_of = np.zeros(cells, np.int64)
        self.g_a = np.zeros(cells, np.int64)
        self.g_b = np.zeros(cells, np.int64)
        self.parent = np.zeros(cells, np.int64)
        self.order = np.zeros(cells, np.int64)
        self.f_a = np.zeros(cells, np.int64)
        self.f_b = np.zeros(cells, np.int64)
        self.counter = 0

    def index(self, cell: Cell) -> int:
        return cell[0] * self.width + cell[1]

    def cell(self, index: int) -> Cell:
        return divmod(int(index), self.width)

    def choices(self, table, root: Cell, goal: Cell, depth: int, fresh: bool = False) -> np.ndarray:
        """``out[d] = (target, step, f straight, f diagonal, expansions)`` for d = 1 .. depth."""
        self.counter += 1
        out = np.empty((depth + 1, 5), np.int64)
        _choices(self.blocked, self.index(root), self.index(goal), depth, table, fresh, self.counter, self.seen,
                 self.layer_of, self.g_a, self.g_b, self.parent, self.order, np.zeros(depth + 2, np.int64),
                 self.f_a, self.f_b, MOVE_ROWS, MOVE_COLS, SQRT2, out)
        return out

    def run(self, start: Cell, goal: Cell, mode: int, fixed: int, database, max_actions: int,
            keep: bool = True) -> Run:
        if database is None:
            region_of = np.zeros(1, np.int64)
            depth_table = np.zeros((1, 1), np.int64)
            next_region = np.zeros((1, 1), np.int64)
            representatives = np.zeros(1, np.int64)
            cap = fixed
        else:
            region_of, depth_table, next_region, representatives = database_arrays(database, self.blocked)
            cap = database.cap
        deepest = max(cap, fixed)
        path, depths, expansions, goals, actions, a, b, self.counter = _run(
            self.blocked, self.index(start), self.index(goal), mode, keep, fixed, region_of, depth_table, next_region,
            representatives, cap, max_actions, new_heuristic_table(), self.counter, self.seen, self.layer_of, self.g_a,
            self.g_b, self.parent, self.order, np.zeros(deepest + 2, np.int64), self.f_a, self.f_b,
            MOVE_ROWS, MOVE_COLS, SQRT2)
        rows, cols = np.divmod(path[:actions + 1], self.width)
        cells = list(zip(rows.tolist(), cols.tolist()))
        goal_rows, goal_cols = np.divmod(goals[:actions], self.width)
        return Run(cells[-1] == goal, (int(a), int(b)), cells, depths[:actions].tolist(), expansions[:actions].tolist(),
                   list(zip(goal_rows.tolist(), goal_cols.tolist())))


def _check(blocked: np.ndarray, start: Cell, goal: Cell) -> None:
    for label, (r, c) in (("start", start), ("goal", goal)):
        if not (0 <= r < blocked.shape[0] and 0 <= c < blocked.shape[1]) or blocked[r, c]:
            raise ValueError(f"the {label} {(r, c)} is blocked or outside the map")


def run_fixed(blocked: np.ndarray, start: Cell, goal: Cell, depth: int, *, max_actions: int = 100_000,
              lookahead: Lookahead | None = None) -> Run:
    """The compiled twin of ``general_lrta(blocked, start, goal, fixed_depth(depth))``."""
    lookahead = lookahead or Lookahead(blocked)
    _check(lookahead.blocked, start, goal)
    return lookahead.run(start, goal, 0, max(1, depth), None, max_actions)


def run_database(blocked: np.ndarray, start: Cell, goal: Cell, database, goals: str = "g", *,
                 max_actions: int = 100_000, lookahead: Lookahead | None = None, rule: str = "once") -> Run:
    """The compiled twin of ``general_lrta(blocked, start, goal, database.controller(goals, rule))``."""
    if goals not in GOAL_MODES:
        raise ValueError(f"goal selection must be one of {tuple(GOAL_MODES)}, not {goals!r}")
    if rule not in GOAL_RULES:
        raise ValueError(f"goal rule must be one of {GOAL_RULES}, not {rule!r}")
    lookahead = lookahead or Lookahead(blocked)
    _check(lookahead.blocked, start, goal)
    return lookahead.run(start, goal, GOAL_MODES[goals], 1, database, max_actions, keep=rule == "once")


def database_arrays(database, blocked: np.ndarray):
    """A :class:`~reference.solutions.dynamic.pattern_database.PatternDatabase` as flat arrays:
    ``(region_of per cell index, depth, next_region, representative cell indices)`` (cached on it)."""
    cached = getattr(database, "_arrays", None)
    if cached is not None:
        return cached
    width = blocked.shape[1]
    region_of = np.full(blocked.size, -1, np.int64)
    for (r, c), region in database.hierarchy.region_of[database.level].items():
        region_of[r * width + c] = region
    representatives = np.array([r * width + c for r, c in database.representatives], np.int64)
    arrays = (region_of, database.depth.astype(np.int64), database.next_region.astype(np.int64), representatives)
    database._arrays = arrays
    return arrays


# -- decision trees and the oracle: a Python controller over the compiled lookahead ----------------


class CompiledAgent(Agent):
    """An :class:`~reference.solutions.dynamic.lrta.Agent` whose lookahead is compiled.

    ``h`` is the typed table of this module; ``lookahead`` the compiled search; ``neighbours`` is
    None (the compiled search reads the map's blocked array: the readable successor table is never
    built). Controllers that read only the history (the decision tree's features) work unchanged;
    the oracle, which searches, is :func:`oracle_compiled`.
    """

    def __init__(self, lookahead: Lookahead, start: Cell, goal: Cell) -> None:
        # Agent declares `neighbours: Neighbours` and this agent has none (see above): only the readable
        # search reads it (GeneralLRTA's episodes, lrta.apply, tree.oracle), never with a CompiledAgent.
        super().__init__(None, start, goal, h=new_heuristic_table(), path=[start])  # type: ignore[arg-type]
        self.lookahead = lookahead


def step_compiled(agent: CompiledAgent, depth: int, goal: Cell, deepest: int | None = None) -> np.ndarray | None:
    """Lines 4-7 of Figure 1 once (``lrta.step``), compiled; returns the choices of every depth."""
    look = agent.lookahead
    out = look.choices(agent.h, agent.state, goal, max(depth, deepest or depth))
    if out[depth, 0] < 0:
        return None
    apply_compiled(agent, out, depth, goal)
    return out


def apply_compiled(agent: CompiledAgent, out: np.ndarray, depth: int, goal: Cell) -> None:
    """Line 6 and line 7 (``lrta.apply``) for the depth-``depth`` choice in ``out``."""
    look = agent.lookahead
    state = agent.state
    target, step, f_a, f_b, expansions = (int(v) for v in out[depth])
    agent.raised.append(bool(_raise(agent.h, look.index(goal), look.index(state), look.blocked.size, look.width,
                                    f_a, f_b, SQRT2)))
    cell = look.cell(step)
    diagonal = cell[0] != state[0] and cell[1] != state[1]
    agent.cost = (agent.cost[0] + (0 if diagonal else 1), agent.cost[1] + (1 if diagonal else 0))
    agent.path.append(cell)
    agent.depths.append(depth)
    agent.expansions.append(expansions)
    agent.goals.append(goal)


def general_lrta_compiled(blocked: np.ndarray, start: Cell, goal: Cell, controller: Controller, *,
                          max_actions: int = 100_000, lookahead: Lookahead | None = None) -> Run:
    """``general_lrta`` with a Python controller (line 3) and the compiled lookahead (lines 4-7)."""
    lookahead = lookahead or Lookahead(blocked)
    _check(lookahead.blocked, start, goal)
    agent = CompiledAgent(lookahead, start, goal)
    while agent.state != goal and len(agent.path) <= max_actions:
        depth, subgoal = controller(agent)
        if subgoal == agent.state:
            subgoal = goal
        if step_compiled(agent, max(1, depth), subgoal) is None:
            break
    return Run(agent.state == goal, agent.cost, agent.path, agent.depths, agent.expansions, agent.goals)


def steps_by_depth(agent: CompiledAgent, goal: Cell, d_max: int) -> dict[int, Cell]:
    """The first step of every depth 1 .. d_max from one compiled search (for labels and the oracle)."""
    out = agent.lookahead.choices(agent.h, agent.state, goal, d_max)
    return {d: agent.lookahead.cell(out[d, 1]) for d in range(1, d_max + 1) if out[d, 0] >= 0}

