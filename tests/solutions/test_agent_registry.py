"""One agent loop and one registry type: every planner family is found by name, takes its settings
keyword-only, and runs a problem through the agent core.

Referees: hand-worked runs on tiny grids (in the comments), the documented entry points that every
other test already checks (the registry must give their very traces), and the grid itself for what
a world senses.
"""

from __future__ import annotations

import numpy as np
import pytest

from reference.solutions import REPLANNERS, adaptive_astar
from reference.solutions.agent import run_agent
from reference.solutions.dynamic.lrta import GeneralLRTA, Neighbours, fixed_depth, general_lrta
from reference.solutions.realtime import ALGORITHMS as REALTIME
from reference.solutions.realtime import dstar_lite, lrta_star_bfs
from reference.solutions.registry import Registry, bind
from reference.solutions.subgoaling import ALGORITHMS as KNOWN_MAP
from reference.solutions.subgoaling import build_subgoal_tree, run_algorithm
from reference.world import FogOfWarWorld, Gridworld, IllegalMoveError, SearchRecord
from reference.world.sensing import KnownMapWorld

POCKET = Gridworld.from_strings([".....", "..@..", "..@@.", "..@@.", "...@."])  # the handout's Figure 2


class EastEachTime:
    """A planner that plans one step east per episode (for the agent core's move bound)."""

    algorithm, tie_break = "lrta", "larger_g"

    def plan_episode(self, agent, knowledge, newly_blocked):
        return SearchRecord(agent, (0, 5), [agent], [agent, (agent[0], agent[1] + 1)])


def test_the_move_bound_stops_the_agent_before_its_next_episode() -> None:
    # A 1 x 6 corridor, one step east per episode: after 3 moves no fourth episode begins.
    grid = Gridworld.from_strings(["......"])
    trace = run_agent(FogOfWarWorld(grid, (0, 0)), (0, 0), (0, 5), EastEachTime(), max_moves=3)
    assert (trace.reached, trace.trajectory, len(trace.searches)) == (False, [(0, 0), (0, 1), (0, 2), (0, 3)], 3)
    whole = run_agent(FogOfWarWorld(grid, (0, 0)), (0, 0), (0, 5), EastEachTime(), max_moves=5)
    assert whole.reached and whole.moves == 5


def test_a_registry_names_what_was_wrong_in_one_line() -> None:
    with pytest.raises(ValueError, match=r"^unknown algorithm 'rta'; choose one of lrta, lrta_astar, lrta_bfs, dstar_lite$"):
        REALTIME.planner("rta")
    with pytest.raises(ValueError, match=r"^dstar_lite takes the settings heuristic, knowledge, not lookahead$"):
        REALTIME.planner("dstar_lite", lookahead=3)
    with pytest.raises(ValueError, match="astar takes the settings none, not max_moves"):
        KNOWN_MAP.planner("astar", max_moves=3)
    assert REPLANNERS.settings("adaptive") == ("tie_break",)
    assert KNOWN_MAP.settings("lrta") == ("max_moves",)


def test_bind_keeps_the_settings_keyword_only() -> None:
    def walk(world, start, target, speed=1):
        return (start, target, speed)

    make = bind(walk)
    assert make(speed=2).run(None, (0, 0), (1, 1)) == ((0, 0), (1, 1), 2)
    with pytest.raises(TypeError):
        make(2)  # settings are keyword-only
    assert list(Registry({"walk": make})) == ["walk"]


def test_registries_run_the_documented_planners_trace_for_trace() -> None:
    start, target = (4, 2), (4, 4)
    planner = REPLANNERS.planner("adaptive", tie_break="smaller_g")
    assert planner.run(FogOfWarWorld(POCKET, start), start, target) == adaptive_astar(
        FogOfWarWorld(POCKET, start), start, target, "smaller_g")
    bfs = REALTIME.planner("lrta_bfs", lookahead=3, heuristic="weak").run(FogOfWarWorld(POCKET, start), start, target)
    assert bfs.trace == lrta_star_bfs(FogOfWarWorld(POCKET, start), start, target, 3, "weak").trace
    dstar = REALTIME.run("dstar_lite", FogOfWarWorld(POCKET, start), start, target)
    assert dstar.trace == dstar_lite(FogOfWarWorld(POCKET, start), start, target).trace
    tree = build_subgoal_tree(POCKET, (0, 4), 4)
    for name in KNOWN_MAP:
        settings = KNOWN_MAP.those_taken(name, tree=tree, max_moves=500)
        run = KNOWN_MAP.planner(name, **settings).run(KnownMapWorld(POCKET, start, 4), start, (0, 4))
        assert run.trace == run_algorithm(name, POCKET, start, (0, 4), connectivity=4, tree=tree, max_moves=500).trace


def test_a_planner_runs_many_problems_each_from_a_fresh_start() -> None:
    # The settings stay, what a run learns does not: a second run of the same problem is the first again.
    grid = Gridworld.from_strings(["....", ".@@.", "...."])
    for name in KNOWN_MAP:
        planner = KNOWN_MAP.planner(name)
        first = planner.run(KnownMapWorld(grid, (0, 1), 4), (0, 1), (2, 2))
        other = planner.run(KnownMapWorld(grid, (2, 0), 4), (2, 0), (0, 3))
        again = planner.run(KnownMapWorld(grid, (0, 1), 4), (0, 1), (2, 2))
        assert first.trace == again.trace and first.cost == again.cost == (5, 0) and other.reached
    korf = REALTIME.planner("lrta")
    runs = [korf.run(FogOfWarWorld(POCKET, (4, 2)), (4, 2), (4, 4)) for _ in range(2)]
    assert runs[0].trace == runs[1].trace


def test_general_lrta_records_one_episode_per_action() -> None:
    # A wall with a gap at the bottom (the module's example): the agent goes round it optimally.
    blocked = np.zeros((3, 5), dtype=bool)
    blocked[0:2, 2] = True
    grid = Gridworld(3, 5, blocked)
    planner = GeneralLRTA(controller=fixed_depth(3), neighbours=Neighbours(blocked))
    run = planner.run(KnownMapWorld(grid, (0, 0), 8), (0, 0), (0, 4))
    assert run == general_lrta(blocked, (0, 0), (0, 4), fixed_depth(3))
    assert run.reached and run.cost == (4, 2)
    # a depth-1 search from a cell expands that cell only: one expansion per action
    one = general_lrta(blocked, (0, 0), (0, 4), fixed_depth(1))
    assert one.expansions == [1] * one.actions


def test_a_trusting_fog_of_war_world_senses_what_the_grid_says() -> None:
    checked, trusted = FogOfWarWorld(POCKET, (4, 2)), FogOfWarWorld(POCKET, (4, 2), check_moves=False)
    assert trusted.sense((4, 2)) == checked.sense((4, 2)) == [(4, 3), (3, 2)]   # east, then north
    for row in range(POCKET.height):
        for col in range(POCKET.width):
            expected = [cell for cell in POCKET.neighbours((row, col)) if POCKET.blocked[cell]]
            assert trusted.sense((row, col)) == expected  # anywhere, in any order: nothing is checked
    assert trusted.visited == [] and len(checked.visited) == 1
    with pytest.raises(IllegalMoveError, match="jumped"):
        checked.sense((0, 0))


def test_a_known_map_world_checks_every_move_by_the_maps_rules() -> None:
    grid = Gridworld.from_strings(["...", ".@.", "..."])
    world = KnownMapWorld(grid, (0, 0), connectivity=8)
    assert world.sense((0, 0)) == [(1, 1)]         # SE of (0, 0) is the block
    assert world.sense((0, 1)) == [(1, 1)]         # S of (0, 1)
    with pytest.raises(IllegalMoveError, match="cutting the corner of the blocked cell"):
        world.sense((1, 2))                          # (0, 1) -> (1, 2) cuts (1, 1)
    assert world.visited == [(0, 0), (0, 1)]
    four = KnownMapWorld(grid, (0, 0), connectivity=4)
    four.sense((0, 0))
    with pytest.raises(IllegalMoveError, match="4-connected"):
        four.sense((1, 1))
