"""Benchmark: the eight-connected move rule written out in the compiled A*, or called as one shared step.

    python bench/eight_step.py                     # 300 lines of bg512/AR0011SR, 5 rounds
    python bench/eight_step.py --lines 300 --rounds 7

The compiled A* (:func:`~reference.solutions.compiled.shortest_paths.astar_arrays`) calls the world's
move rule (SPEC §12: inside the grid, not blocked, no corner cutting) as one shared ``@njit``
function, :func:`~reference.solutions.compiled.shortest_paths.move_rule`. This benchmark rebuilds
it from its own source with the rule written out in the loop instead (as the other compiled
searches still have it; ``tests/compiled/test_compiled_eight_step.py`` holds those copies equal to the
rule), and with the rule inlined by Numba (``inline="always"``), and runs the three on the same scenario lines, interleaved round by round (CPU seconds, the best round of each),
checking that they expand the same cells. Nothing else differs between the two.
"""

from __future__ import annotations

import argparse
import inspect
import textwrap
import time
from pathlib import Path

import numpy as np
from numba import njit

from reference.solutions.compiled import shortest_paths as twin
from reference.world.grid import SQRT2
from reference.world.maps import read_scen, read_terrain
from reference.world.terrain import passable, scenario_capability

MOVINGAI = Path(__file__).resolve().parents[2] / "shared" / "movingai"
WRITTEN_OUT = """\
            r, c = row + move_rows[move], col + move_cols[move]
            if r < 0 or r >= height or c < 0 or c >= width or blocked[r, c]:
                continue
            diagonal = move_rows[move] != 0 and move_cols[move] != 0
            if diagonal and (blocked[r, col] or blocked[row, c]):
                continue  # no corner cutting
            t = r * width + c
"""
CALLED = """\
            r, c, diagonal, allowed = move_rule(blocked, height, width, row, col, move_rows[move], move_cols[move])
            if not allowed:
                continue
            t = r * width + c
"""
#: The kit's move rule, inlined by Numba itself (into its intermediate code, before LLVM sees it).
move_rule_inlined = njit(inline="always")(twin.move_rule.py_func)


def variant(written_out: bool, rule=None):
    """``astar_arrays`` rebuilt from its source: with the move rule written out, or calling ``rule``."""
    source = textwrap.dedent(inspect.getsource(twin.astar_arrays.py_func))
    assert source.count(CALLED) == 1, "astar_arrays no longer calls the move rule as expected"
    source = source.replace("@njit(cache=True)\n", "")
    if written_out:
        source = source.replace(CALLED, WRITTEN_OUT)
    namespace = {**vars(twin), "move_rule": rule or twin.move_rule}
    exec(compile(source, "<astar_arrays variant>", "exec"), namespace)
    return njit(namespace["astar_arrays"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--map", type=Path, default=MOVINGAI / "bg512" / "AR0011SR.map")
    parser.add_argument("--lines", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    terrain = read_terrain(args.map)
    scenarios = read_scen(args.map.with_name(args.map.name + ".scen"))[-args.lines:]  # the longest lines
    problems = []
    for scenario in scenarios:
        blocked = np.ascontiguousarray(~passable(terrain, scenario_capability(terrain, scenario.start)))
        width = blocked.shape[1]
        problems.append((blocked, scenario.start[0] * width + scenario.start[1],
                         scenario.target[0] * width + scenario.target[1]))
    engines = {"the kit's: one shared move_rule, a plain @njit call": twin.astar_arrays,
               "the rule written out in the loop": variant(written_out=True),
               "move_rule inlined by Numba (inline='always')": variant(written_out=False, rule=move_rule_inlined)}
    workspace = twin.Workspace(problems[0][0].size)

    def run_all(function) -> tuple[float, list]:
        results = []
        began = time.process_time()
        for blocked, start, goal in problems:
            workspace.counter += 1
            found, straight, diagonal, expansions = function(
                blocked, start, goal, 8, True, twin.MOVE_ROWS, twin.MOVE_COLS, SQRT2, workspace.counter,
                workspace.search, workspace.g_straight, workspace.g_diagonal, workspace.tree, workspace.position,
                workspace.heap, workspace.f, workspace.tie, workspace.stamp, workspace.expanded)
            results.append((found, straight, diagonal, workspace.expanded[:expansions].tobytes()))
        return time.process_time() - began, results

    seconds: dict[str, list[float]] = {name: [] for name in engines}
    reference = None
    for function in engines.values():
        run_all(function)  # compile (or load) outside the timing
    for round_number in range(args.rounds):
        turn = round_number % len(engines)
        names = list(engines)[turn:] + list(engines)[:turn]
        for name in names:
            spent, results = run_all(engines[name])
            reference = reference or results
            assert results == reference, f"{name} expanded other cells"
            seconds[name].append(spent)
    expansions = sum(len(r[3]) // 8 for r in reference)
    print(f"{args.map.name}, {len(problems)} lines, {expansions:,} expansions per round; CPU s, best of {args.rounds}")
    base = min(seconds["the rule written out in the loop"])
    for name, times in seconds.items():
        print(f"  {name}: {min(times):.3f} s ({min(times) / base:.2f}x), median {sorted(times)[len(times) // 2]:.3f} s")


if __name__ == "__main__":
    main()
