"""An independent referee for the style submissions: is a run exact, a legal A* with other ties, or wrong?

Written from the contract (docs/contract.md §4-8), not from ``autograder/searchcheck.py`` (it imports
nothing of ``autograder``). It runs a submission's function in this process on an instance through a
real :class:`~reference.world.sensing.FogOfWarWorld`, then decides:

* ``exact``: the trace equals the reference solver's (``reference.solutions.solve``);
* ``ties``: every expansion is a *legal* A* choice on the student's own trajectory: the cell expanded
  is in OPEN with the least ``(f, -g)`` (``larger_g``) or ``(f, g)`` (``smaller_g``) of the entries
  OPEN holds at that moment, whatever decides among equal ones; each search starts where the agent
  stands, stops exactly when g(goal) <= min f over OPEN, and its path is the one the tree pointers of
  the student's own expansion order give; the agent walks it by §6 and senses where it stands;
* ``wrong``: anything else, with the first reason.

OPEN is modelled as ``{cell: g}`` (an entry's key follows from its g: f = g + h), with a lazy heap of
``(key, cell)`` only to find the least key quickly; an entry whose g has changed since it was pushed
is skipped when it reaches the top. The h of Adaptive A* is learned from the referee's own g-values
(which equal the student's whenever every expansion so far was legal).

>>> from reference.world import Gridworld
>>> from reference.world.instances import Instance
>>> corridor = Instance("corridor", Gridworld.from_strings(["...."]), (0, 0), (0, 3))
>>> run = {"algorithm": "forward", "tie_break": "larger_g", "reached": True,
...        "trajectory": [(0, 0), (0, 1), (0, 2), (0, 3)],
...        "searches": [{"start": (0, 0), "goal": (0, 3), "expanded": [(0, 0), (0, 1), (0, 2)],
...                      "path": [(0, 0), (0, 1), (0, 2), (0, 3)]}]}
>>> replay_run(normalise(run), corridor, "forward", "larger_g")
Verdict(tier='ties', reason='')
"""

from __future__ import annotations

import heapq
import importlib.util
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reference.world.sensing import FogOfWarWorld

Cell = tuple[int, int]
NO_G = float("inf")
FUNCTIONS = {"forward": "repeated_forward_astar", "backward": "repeated_backward_astar",
             "adaptive": "adaptive_astar"}
#: check id -> (algorithm, tie_break), as in course/rubric.toml's [autograded]
CHECKS = {"forward_larger_g": ("forward", "larger_g"), "forward_smaller_g": ("forward", "smaller_g"),
          "backward": ("backward", "larger_g"), "adaptive": ("adaptive", "larger_g")}
EAST_SOUTH_WEST_NORTH = ((0, 1), (1, 0), (0, -1), (-1, 0))


@dataclass(frozen=True)
class SearchRun:
    start: Cell
    goal: Cell
    expanded: tuple[Cell, ...]
    path: tuple[Cell, ...]


@dataclass(frozen=True)
class Run:
    """A trace reduced to plain tuples (a dict or a ``Trace``; cells as lists, tuples or NumPy ints)."""

    reached: bool
    trajectory: tuple[Cell, ...]
    searches: tuple[SearchRun, ...]


@dataclass(frozen=True)
class Verdict:
    tier: str          # "exact", "ties" or "wrong"
    reason: str = ""   # why "wrong" (the first broken rule)


def _field(record: Any, key: str) -> Any:
    return record[key] if isinstance(record, dict) else getattr(record, key)


def _cells(values: Any) -> tuple[Cell, ...]:
    return tuple((int(cell[0]), int(cell[1])) for cell in values)


def normalise(trace: Any) -> Run:
    """The trace as a :class:`Run` of tuples."""
    searches = tuple(SearchRun(_cells([_field(s, "start")])[0], _cells([_field(s, "goal")])[0],
                               _cells(_field(s, "expanded")), _cells(_field(s, "path")))
                     for s in _field(trace, "searches"))
    return Run(bool(_field(trace, "reached")), _cells(_field(trace, "trajectory")), searches)


# -- running a submission in this process ------------------------------------------------------------

def load_submission(folder: Path) -> Any:
    """Import a submission folder's ``replanning.py`` (with its ``heap.py`` and helpers) in this process.

    Its own modules are imported under their own names from its folder and forgotten afterwards, so
    two submissions' ``heap`` modules never mix.
    """
    own = {path.stem for path in folder.glob("*.py")}
    for name in own:
        sys.modules.pop(name, None)
    sys.path.insert(0, str(folder))
    try:
        spec = importlib.util.spec_from_file_location(f"styles_{folder.name}", folder / "replanning.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(folder))
        for name in own:
            sys.modules.pop(name, None)
    return module


def run_submission(module: Any, instance: Any, algorithm: str, tie_break: str) -> Run | Verdict:
    """The submission's run on ``instance`` through a fresh world, or a ``wrong`` verdict if it raised
    or its trajectory is not the walk the world saw (the target may be missing at the end)."""
    world = FogOfWarWorld(instance.grid, instance.start)
    try:
        trace = getattr(module, FUNCTIONS[algorithm])(world, instance.start, instance.target, tie_break)
        run = normalise(trace)
    except Exception as error:  # noqa: BLE001 - the student's exception is the verdict
        return Verdict("wrong", f"raised {type(error).__name__}: {error}")
    seen = tuple(world.visited)
    if run.trajectory != seen and run.trajectory != seen + (instance.target,):
        return Verdict("wrong", "the trajectory is not the walk the world saw")
    return run


# -- the replay ---------------------------------------------------------------------------------------

class _Wrong(Exception):
    pass


def _manhattan(a: Cell, b: Cell) -> int:
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


class _Agent:
    """What the agent knows: the blocked cells it has sensed (the freespace assumption for the rest)."""

    def __init__(self, blocked: Any, height: int, width: int) -> None:
        self.blocked, self.height, self.width = blocked, height, width
        self.known_blocked: set[Cell] = set()

    def sense(self, cell: Cell) -> None:
        for d_row, d_col in EAST_SOUTH_WEST_NORTH:
            near = (cell[0] + d_row, cell[1] + d_col)
            if 0 <= near[0] < self.height and 0 <= near[1] < self.width and self.blocked[near]:
                self.known_blocked.add(near)

    def successors(self, cell: Cell) -> list[Cell]:
        found = []
        for d_row, d_col in EAST_SOUTH_WEST_NORTH:
            near = (cell[0] + d_row, cell[1] + d_col)
            if 0 <= near[0] < self.height and 0 <= near[1] < self.width and near not in self.known_blocked:
                found.append(near)
        return found


def _replay_search(search: SearchRun, agent: _Agent, h: Any, tie_break: str,
                   number: int) -> tuple[dict[Cell, int], list[Cell] | None]:
    """Check one search expansion by expansion (ComputePath, §5); return its g-values and the tree
    pointers' chain from the goal back to the start (None when OPEN ran empty).

    Raises ``_Wrong`` at the first illegal step.
    """
    sign = -1 if tie_break == "larger_g" else 1

    def key(cell: Cell, g: int) -> tuple[int, int]:
        return (g + h(cell), sign * g)

    g: dict[Cell, int] = {search.start: 0}
    tree: dict[Cell, Cell] = {}
    open_g: dict[Cell, int] = {search.start: 0}       # OPEN: cell -> the g its entry was inserted with
    lazy = [(key(search.start, 0), search.start)]      # (key, cell); stale when open_g disagrees
    closed: set[Cell] = set()

    def least_key() -> tuple[int, int] | None:
        while lazy:
            entry_key, cell = lazy[0]
            if cell in open_g and key(cell, open_g[cell]) == entry_key:
                return entry_key
            heapq.heappop(lazy)  # a stale entry: its cell was expanded or got a smaller g since
        return None

    def goal_done() -> bool:  # the loop test of ComputePath: g(goal) <= min f over OPEN
        least = least_key()
        return least is None or g.get(search.goal, NO_G) <= least[0]

    where = f"search {number}"
    for step, cell in enumerate(search.expanded):
        if goal_done():
            raise _Wrong(f"{where}, expansion {step}: the search went on after g(goal) <= min f over OPEN")
        if cell in closed:
            raise _Wrong(f"{where}, expansion {step}: {cell} expanded again")
        if cell not in open_g:
            raise _Wrong(f"{where}, expansion {step}: {cell} is not in OPEN")
        if key(cell, open_g[cell]) != least_key():
            raise _Wrong(f"{where}, expansion {step}: {cell} has key {key(cell, open_g[cell])}, "
                         f"not the least in OPEN {least_key()}")
        del open_g[cell]
        closed.add(cell)
        for near in agent.successors(cell):
            if g[cell] + 1 < g.get(near, NO_G):
                g[near] = g[cell] + 1
                tree[near] = cell
                open_g[near] = g[near]
                heapq.heappush(lazy, (key(near, g[near]), near))
    if not goal_done():
        raise _Wrong(f"{where}: stopped after {len(search.expanded)} expansions with g(goal) > min f over OPEN")
    if search.goal not in g:
        if search.path:
            raise _Wrong(f"{where}: OPEN ran empty, yet the path is not []")
        return g, None
    chain = [search.goal]
    while chain[-1] != search.start:
        chain.append(tree[chain[-1]])
    return g, chain


def replay_run(run: Run, instance: Any, algorithm: str, tie_break: str) -> Verdict:
    """``ties`` when every step of ``run`` is a legal A* step on its own trajectory, else ``wrong``."""
    try:
        _replay(run, instance, algorithm, tie_break)
    except _Wrong as wrong:
        return Verdict("wrong", str(wrong))
    return Verdict("ties")


def _replay(run: Run, instance: Any, algorithm: str, tie_break: str) -> None:
    grid = instance.grid
    agent = _Agent(grid.blocked, grid.height, grid.width)
    here, target = tuple(instance.start), tuple(instance.target)
    if not run.trajectory or run.trajectory[0] != here:
        raise _Wrong("the trajectory does not begin at the start")
    learned: dict[Cell, int] = {}
    agent.sense(here)
    moves = 0  # moves replayed so far: run.trajectory[moves] is where the agent stands
    for number, search in enumerate(run.searches):
        if here == target:
            raise _Wrong(f"search {number}: the agent already stands on the target")
        expected = (target, here) if algorithm == "backward" else (here, target)
        if (search.start, search.goal) != expected:
            raise _Wrong(f"search {number}: runs from {search.start} to {search.goal}, not {expected}")
        goal = search.goal
        if algorithm == "adaptive":
            def h(cell: Cell) -> int:
                return learned.get(cell, _manhattan(cell, target))
        else:
            def h(cell: Cell) -> int:
                return _manhattan(cell, goal)
        g, chain = _replay_search(search, agent, h, tie_break, number)
        if chain is None:  # OPEN ran empty: the run ends here, unreached
            if number != len(run.searches) - 1 or run.reached or len(run.trajectory) != moves + 1:
                raise _Wrong(f"search {number}: found no path, yet the run goes on")
            return
        path = tuple(chain) if algorithm == "backward" else tuple(reversed(chain))
        if search.path != path:
            hint = " (it is the tree-pointer path reversed)" if search.path == path[::-1] else ""
            raise _Wrong(f"search {number}: the path is not the one the tree pointers give{hint}")
        if algorithm == "adaptive":
            for cell in search.expanded:
                learned[cell] = g[goal] - g[cell]
        for step in range(1, len(path)):  # §6: walk until a cell on the rest of the path is known blocked
            if any(cell in agent.known_blocked for cell in path[step:]):
                break
            here = path[step]
            moves += 1
            if moves >= len(run.trajectory) or run.trajectory[moves] != here:
                raise _Wrong(f"after search {number}: move {moves} should go to {here}")
            if here == target:
                break
            agent.sense(here)
    if len(run.trajectory) != moves + 1:
        raise _Wrong(f"the trajectory holds {len(run.trajectory) - 1} moves; the recorded searches explain {moves}")
    if here != target or not run.reached:
        raise _Wrong("the run ends before the target without a search that found no path")


def judge(module: Any, instance: Any, check_id: str, reference_run: Run) -> Verdict:
    """One instance's verdict for one check: exact, ties or wrong."""
    algorithm, tie_break = CHECKS[check_id]
    run = run_submission(module, instance, algorithm, tie_break)
    if isinstance(run, Verdict):
        return run
    if tuple(instance.start) == tuple(instance.target):
        ok = run.reached and not run.searches and run.trajectory == (tuple(instance.start),)
        return Verdict("exact") if ok else Verdict("wrong", "start == target: reached, no searches")
    if run == reference_run:
        return Verdict("exact")
    return replay_run(run, instance, algorithm, tie_break)


# -- points -------------------------------------------------------------------------------------------

def group_points(verdicts: list[str], share: float, ties_credit: float) -> float:
    """A group is all or nothing: any ``wrong`` gives 0, else any ``ties`` the tie credit, else all.

    >>> group_points(["exact", "ties"], 1.75, 0.75), group_points(["exact", "wrong"], 1.75, 0.75)
    (1.3125, 0.0)
    """
    if "wrong" in verdicts:
        return 0.0
    return share * ties_credit if "ties" in verdicts else share


def check_points(tiers: dict[str, list[str]], points: float, weights: dict[str, float], ties_credit: float,
                 groups_in_play: list[str]) -> float:
    """The points of one part of a check (its groups ``tiers``), the check's ``points`` split by
    ``weights`` over every group in play (public and hidden alike), rounded to cents as reports are.

    >>> weights = {"examples": 1, "handmade": 1, "standard": 2, "hidden": 4}
    >>> every = ["examples", "handmade", "standard", "hidden"]
    >>> check_points({"examples": ["exact"], "handmade": ["ties"], "standard": ["wrong"]}, 14, weights, 0.75, every)
    3.06
    """
    total = sum(weights[group] for group in groups_in_play)
    share = points / total
    return round(sum(group_points(v, share * weights[group], ties_credit) for group, v in tiers.items()), 2)
