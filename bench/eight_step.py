"""Benchmark: the eight-connected move rule called as one shared step, or written out in the loop.

    python bench/eight_step.py                            # the three searches, 5 rounds each
    python bench/eight_step.py --search tree --rounds 9   # one of astar, tree, lrta, aa

Every compiled search calls the world's move rule (SPEC §12: inside the grid, not blocked, no
corner cutting) as one shared ``@njit`` function,
:func:`~reference.solutions.compiled.shortest_paths.move_rule`. This benchmark rebuilds a search
from its own source with the rule written out in its loop instead (as five loops had it before,
with comments saying a shared function made them 30 % slower), and for the A* also with the rule
inlined by Numba (``inline="always"``); it runs the variants on the same problems, interleaved
round by round (the order turns each round), checks that they give the same results, and prints
each one's median CPU seconds and its ratio to the written-out rule's median. The searches:

* ``astar``: the compiled A* (``shortest_paths.astar_arrays``) on the longest lines of a bg512 map's
  scenario file;
* ``tree``: Algorithm 2's subgoal tree (``subgoaling/tree.tree_arrays``) toward goals spread over a
  Baldur's Gate map;
* ``lrta``: plain LRTA* and LRTA* with subgoaling (their one loop, ``subgoaling/lrta.lrta_arrays``) on
  random problems of that map;
* ``aa``: HAA*'s baseline, Annotated A* on the packed-key heap (``haa/query._window_astar``, what
  ``annotated_astar_cost`` runs), on the paper construction's SO 20 % problems of six Baldur's Gate
  maps (the set of its search-effort figure).
"""

from __future__ import annotations

import argparse
import inspect
import re
import statistics
import sys
import textwrap
import time
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402
from numba import njit  # noqa: E402

from reference.solutions.compiled import shortest_paths as twin  # noqa: E402
from reference.solutions.compiled.haa import query as haa_twin  # noqa: E402
from reference.solutions.compiled.subgoaling import lrta as lrta_twin  # noqa: E402
from reference.solutions.compiled.subgoaling import tree as tree_twin  # noqa: E402
from reference.world.grid import SQRT2, Gridworld  # noqa: E402
from reference.world.maps import read_map, read_scen, read_terrain  # noqa: E402
from reference.world.terrain import passable, scenario_capability  # noqa: E402

MOVINGAI = Path(__file__).resolve().parents[2] / "shared" / "movingai"
#: The call as every compiled loop holds it (any indentation), and the rule written out in its place.
CALLED = re.compile(r"^(?P<indent> *)r, c, diagonal, allowed = move_rule\(blocked, height, width, row, col, "
                    r"move_rows\[move\], move_cols\[move\]\)\n(?P=indent)if not allowed:\n(?P=indent)    continue\n",
                    re.MULTILINE)
WRITTEN_OUT = """\
r, c = row + move_rows[move], col + move_cols[move]
if r < 0 or r >= height or c < 0 or c >= width or blocked[r, c]:
    continue
diagonal = move_rows[move] != 0 and move_cols[move] != 0
if diagonal and (blocked[r, col] or blocked[row, c]):
    continue  # no corner cutting
"""
#: The kit's move rule, inlined by Numba itself (into its intermediate code, before LLVM sees it).
move_rule_inlined = njit(inline="always")(twin.move_rule.py_func)


def variant(function, module, written_out: bool, rule=None):
    """``function`` (a compiled search of ``module``) rebuilt from its source: with the move rule
    written out, or calling ``rule`` (default: the kit's)."""
    source = textwrap.dedent(inspect.getsource(function.py_func)).replace("@njit(cache=True)\n", "")
    assert len(CALLED.findall(source)) == 1, f"{function.__name__} no longer calls the move rule as expected"
    if written_out:
        source = CALLED.sub(lambda m: textwrap.indent(WRITTEN_OUT, m.group("indent")), source)
    namespace = {**vars(module), "move_rule": rule or twin.move_rule}
    exec(compile(source, f"<{function.__name__} variant>", "exec"), namespace)
    return njit(namespace[function.__name__])


def astar_search(args) -> tuple[dict[str, Any], Callable]:
    """The compiled A* on the longest ``--lines`` lines of a bg512 map's scenarios."""
    path = MOVINGAI / "bg512" / "AR0011SR.map"
    terrain = read_terrain(path)
    problems = []
    for scenario in read_scen(path.with_name(path.name + ".scen"))[-args.lines:]:
        blocked = np.ascontiguousarray(~passable(terrain, scenario_capability(terrain, scenario.start)))
        width = blocked.shape[1]
        problems.append((blocked, scenario.start[0] * width + scenario.start[1],
                         scenario.target[0] * width + scenario.target[1]))
    workspace = twin.Workspace(problems[0][0].size)
    engines = {"one shared move_rule (the kit's)": twin.astar_arrays,
               "written out": variant(twin.astar_arrays, twin, written_out=True),
               "move_rule inlined by Numba": variant(twin.astar_arrays, twin, written_out=False, rule=move_rule_inlined)}

    def run_all(function) -> list:
        results = []
        for blocked, start, goal in problems:
            workspace.counter += 1
            found, straight, diagonal, expansions = function(
                blocked, start, goal, 8, True, twin.MOVE_ROWS, twin.MOVE_COLS, SQRT2, workspace.counter,
                workspace.search, workspace.g_straight, workspace.g_diagonal, workspace.tree, workspace.position,
                workspace.heap, workspace.f, workspace.tie, workspace.stamp, workspace.expanded)
            results.append((found, straight, diagonal, workspace.expanded[:expansions].tobytes()))
        return results

    return engines, run_all


def study_map(args) -> Gridworld:
    return read_map(str(MOVINGAI / "bgmaps" / "AR0405SR.map"))


def tree_search(args) -> tuple[dict[str, Any], Callable]:
    """Algorithm 2's tree toward ``--goals`` free cells spread over a Baldur's Gate map."""
    grid = study_map(args)
    free = np.flatnonzero(~grid.blocked.ravel())
    goals = free[np.linspace(0, free.size - 1, args.goals).astype(np.int64)]
    arcs = np.empty((grid.size, 2), dtype=np.int64)
    engines = {"one shared move_rule (the kit's)": tree_twin.tree_arrays,
               "written out": variant(tree_twin.tree_arrays, tree_twin, written_out=True)}

    def run_all(function) -> list:
        results = []
        for goal in goals:
            count, reached, g_straight, g_diagonal, sub = function(grid.blocked, int(goal), 8, twin.MOVE_ROWS,
                                                                  twin.MOVE_COLS, SQRT2, arcs)
            results.append((count, reached, arcs[:count].tobytes(), sub.tobytes()))
        return results

    return engines, run_all


def lrta_search(args) -> tuple[dict[str, Any], Callable]:
    """Plain LRTA* and LRTA* with subgoaling on ``--problems`` random problems of a Baldur's Gate map
    (the trees built once, outside the timing)."""
    grid = study_map(args)
    rng = np.random.default_rng(0)
    free = np.flatnonzero(~grid.blocked.ravel())
    problems = []
    while len(problems) < args.problems:
        start, goal = (divmod(int(i), grid.width) for i in rng.choice(free, 2, replace=False))
        tree = tree_twin.compiled_tree(grid, goal)
        if tree.g_straight[start[0] * grid.width + start[1]] >= 0:
            problems.append((start, goal, tree))
    engines = {"one shared move_rule (the kit's)": lrta_twin.lrta_arrays,
               "written out": variant(lrta_twin.lrta_arrays, lrta_twin, written_out=True)}

    def run_all(function) -> list:
        lrta_twin.lrta_arrays = function   # LookaheadWorkspace.run calls the module's lrta_arrays
        try:
            return [(lrta_twin.lrta_star(grid, start, goal, max_moves=200_000).trajectory.tobytes(),
                     lrta_twin.lrta_star_subgoaling(grid, start, goal, tree=tree, max_moves=200_000).trajectory.tobytes())
                    for start, goal, tree in problems]
        finally:
            lrta_twin.lrta_arrays = engines["one shared move_rule (the kit's)"]

    return engines, run_all


def aa_search(args) -> tuple[dict[str, Any], Callable]:
    """HAA*'s AA* on ``--experiments`` paper problems (a large and a small agent each) of six maps at SO 20 %."""
    from reference.experiments.haa import bg_maps
    from reference.experiments.haa_paper import paper_problems
    from reference.solutions.haa.capabilities import CAPABILITY_MASKS
    from reference.solutions.haa.clearance import all_clearances
    from reference.solutions.haa.multiterrain import with_soft_obstacles

    problems = []
    for path in bg_maps(MOVINGAI.parent / "movingai")[:6]:
        terrain = with_soft_obstacles(read_terrain(path), Path(path).stem, 0.2, seed=2008)
        clearances = dict(zip(CAPABILITY_MASKS, all_clearances(terrain).values()))
        problems += [(np.ascontiguousarray(clearances[p.mask] < p.size), p.start, p.goal)
                     for p in paper_problems(terrain, args.experiments, 7)]
    kit = haa_twin._window_astar
    engines = {"one shared move_rule (the kit's)": kit, "written out": variant(kit, haa_twin, written_out=True),
               "move_rule inlined by Numba": variant(kit, haa_twin, written_out=False, rule=move_rule_inlined)}

    def run_all(function) -> list:
        haa_twin._window_astar = function   # _full_map_astar calls the module's _window_astar
        try:
            return [haa_twin.annotated_astar_cost(blocked, start, goal)[:2] for blocked, start, goal in problems]
        finally:
            haa_twin._window_astar = kit

    return engines, run_all


SEARCHES = {"astar": astar_search, "tree": tree_search, "lrta": lrta_search, "aa": aa_search}


def measure(name: str, args) -> None:
    engines, run_all = SEARCHES[name](args)
    for function in engines.values():
        run_all(function)  # compile (or load) outside the timing
    seconds: dict[str, list[float]] = {label: [] for label in engines}
    reference = None
    for round_number in range(args.rounds):
        turn = round_number % len(engines)
        for label in list(engines)[turn:] + list(engines)[:turn]:
            began = time.process_time()
            results = run_all(engines[label])
            seconds[label].append(time.process_time() - began)
            reference = reference or results
            assert results == reference, f"{name}, {label}: another result"
    base = statistics.median(seconds["written out"])
    print(f"{name}: median CPU s of {args.rounds} interleaved rounds (ratio to the rule written out)")
    for label, times in seconds.items():
        median = statistics.median(times)
        print(f"  {label}: {median:.3f} s ({median / base:.2f}x); rounds {', '.join(f'{t:.3f}' for t in times)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--search", choices=[*SEARCHES, "all"], default="all")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--lines", type=int, default=300, help="astar: scenario lines")
    parser.add_argument("--goals", type=int, default=200, help="tree: goals")
    parser.add_argument("--problems", type=int, default=40, help="lrta: problems")
    parser.add_argument("--experiments", type=int, default=100, help="aa: experiments per map")
    args = parser.parse_args()
    for name in SEARCHES if args.search == "all" else [args.search]:
        measure(name, args)


if __name__ == "__main__":
    main()
