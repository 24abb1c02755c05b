"""Replaying and drawing runs on known maps, four- or eight-connected: pictures and replay
for every connectivity.

The referee of the replay is a trace worked by hand below (and the move rules of SPEC §12 read off
the map by eye); the planners' own traces must replay to their own trajectories.
"""

from __future__ import annotations

import json
import random

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pytest

from reference.cli import main
from reference.world.grid import Gridworld
from reference.world.map_pictures import draw_episode, episode_view
from reference.world.replay import AgentReplay, ReplayError, illegal_move, search_contexts
from reference.world.trace import SearchRecord, Trace

# The hand-worked map: three rows, four columns, one blocked cell B2 = (1, 1).
#
#        col 0  1  2  3
#   row 0    .  .  .  G        G = goal (0, 3)
#   row 1    .  @  .  .
#   row 2    S  .  .  .        S = start (2, 0)
#
# LRTA* with lookahead one, eight-connected, octile h (a + b·√2 written (a, b)), ties to the first
# successor in the order E, SE, S, SW, W, NW, N, NE:
#   at (2, 0): E (2, 1): 1 + h(2, 1) = 1 + (0, 2) = 3.83;  N (1, 0): 1 + (2, 1) = 4.41;  NE (1, 1) blocked -> E
#   at (2, 1): E (2, 2): 1 + (1, 1) = 3.41;  NE (1, 2) would pass between (1, 1) (blocked) and (2, 2):
#              a corner cut, no move;  W, NW: larger                                            -> E
#   at (2, 2): E (2, 3): 1 + (2, 0) = 3;  N (1, 2): 1 + (0, 1) = 2.41;  NE (1, 3): √2 + (1, 0) = 2.41;
#              N and NE tie, N comes first                                                      -> N
#   at (1, 2): NE (0, 3): √2 + 0 = 1.41, passing between (0, 2) and (1, 3), both free            -> NE
# Four episodes, the trajectory S, (2, 1), (2, 2), (1, 2), G: three straight moves and one diagonal,
# cost 3 + √2 = 4.41421, which is also optimal (octile distance of S and G: (1, 2) = 3.83 is cut off
# by the wall: the first diagonal from (2, 0) or (2, 1) is blocked or cuts its corner).
HAND_MAP = ["....", ".@..", "...."]
START, GOAL = (2, 0), (0, 3)
HAND_TRAJECTORY = [(2, 0), (2, 1), (2, 2), (1, 2), (0, 3)]


def hand_trace() -> Trace:
    records = [SearchRecord(start=a, goal=GOAL, expanded=[a], path=[a, b])
               for a, b in zip(HAND_TRAJECTORY, HAND_TRAJECTORY[1:])]
    return Trace("lrta", "larger_g", True, list(HAND_TRAJECTORY), records)


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


# -- the replay ---------------------------------------------------------------------------------------

def test_the_hand_worked_eight_connected_trace_replays_episode_by_episode():
    grid = Gridworld.from_strings(HAND_MAP)
    contexts = list(search_contexts(grid, hand_trace(), connectivity=8, known_map=True))
    assert [c.agent for c in contexts] == HAND_TRAJECTORY[:-1]
    assert [c.trajectory_index for c in contexts] == [0, 1, 2, 3]
    assert [c.moves for c in contexts] == [[cell] for cell in HAND_TRAJECTORY[1:]]
    # no fog: the agent knows the blocked cell before its first move, and nothing more later
    assert all(c.knowledge.known_blocked() == [(1, 1)] for c in contexts)


def test_the_hand_worked_trace_is_what_lrta_star_records():
    from reference.solutions.subgoaling import lrta_star

    run = lrta_star(Gridworld.from_strings(HAND_MAP), START, GOAL, connectivity=8)
    assert run.trace == hand_trace()
    assert run.cost == (3, 1)


def test_a_diagonal_that_cuts_a_corner_is_rejected_naming_the_step():
    grid = Gridworld.from_strings(HAND_MAP)
    trace = hand_trace()
    # the second episode claims the corner-cutting move NE from (2, 1) to (1, 2), past the blocked (1, 1)
    trace.searches[1].path = [(2, 1), (1, 2)]
    with pytest.raises(ReplayError) as error:
        list(search_contexts(grid, trace, connectivity=8, known_map=True))
    assert str(error.value) == ("search 1: path step 1: the agent moved diagonally from (2, 1) to (1, 2), "
                                "cutting the corner of the blocked cell (1, 1)")


@pytest.mark.parametrize("connectivity, path, message", [
    (8, [(2, 0), (2, 1), (2, 3)], "path step 2: the agent jumped from (2, 1) to (2, 3): it moves one cell at a time, "
                                  "8-connected (E, SE, S, SW, W, NW, N, NE)"),
    (4, [(2, 0), (1, 1)], "path step 1: the agent jumped from (2, 0) to (1, 1): it moves one cell at a time, "
                          "4-connected (E, S, W, N)"),
    (4, [(2, 0), (2, 1), (2, 2), (1, 3)], "path step 3: the agent jumped"),  # a legal diagonal, but not 4-connected
    (8, [(2, 0), (1, 0), (1, 1)], "path step 2: the agent moved from (1, 0) into the blocked cell (1, 1)"),
    (8, [(2, 0), (3, 0)], "path step 1: the agent moved from (2, 0) to (3, 0), outside the 3 x 4 grid"),
    (8, [(2, 1), (2, 2)], "the path starts at (2, 1) but the agent stands at (2, 0)"),
])
def test_every_illegal_step_is_named_with_its_reason(connectivity, path, message):
    replay = AgentReplay(Gridworld.from_strings(HAND_MAP), START, connectivity, known_map=True)
    with pytest.raises(ReplayError, match=message.replace("(", r"\(").replace(")", r"\)")):
        replay.walk(path)


def test_a_diagonal_between_two_blocked_cells_names_both():
    blocked = np.array([[False, True], [True, False]])
    assert illegal_move(blocked, (0, 0), (1, 1), 8) == (
        "the agent moved diagonally from (0, 0) to (1, 1), cutting the corner of the blocked cells (1, 0) and (0, 1)")


def test_legal_moves_are_exactly_the_worlds_successors():
    """Property, on random maps: a step is legal exactly when it is one of the world's successors
    (referee: the SPEC's rule applied by hand: one of the moves, inside, free, and a diagonal with
    both cells it passes between free)."""
    rng = np.random.default_rng(12)
    for _ in range(30):
        blocked = rng.random((5, 6)) < 0.3
        for connectivity in (4, 8):
            for row in range(5):
                for col in range(6):
                    if blocked[row, col]:
                        continue
                    for d_row in (-1, 0, 1, 2):
                        for d_col in (-2, -1, 0, 1):
                            there = (row + d_row, col + d_col)
                            if there == (row, col):
                                continue
                            inside = 0 <= there[0] < 5 and 0 <= there[1] < 6
                            diagonal = d_row != 0 and d_col != 0
                            one_move = max(abs(d_row), abs(d_col)) == 1 and (connectivity == 8 or not diagonal)
                            legal = (one_move and inside and not blocked[there]
                                     and not (diagonal and (blocked[there[0], col] or blocked[row, there[1]])))
                            assert (illegal_move(blocked, (row, col), there, connectivity) is None) == legal


def test_the_fog_of_war_agent_stays_four_connected():
    with pytest.raises(ValueError, match="needs known_map=True"):
        AgentReplay(Gridworld.from_strings(HAND_MAP), START, connectivity=8)


def test_the_fog_of_war_replay_is_unchanged_by_default():
    # the handout's agent at (2, 0) sees only its four neighbours; (1, 1) is not one of them
    replay = AgentReplay(Gridworld.from_strings(HAND_MAP), START)
    assert replay.knowledge.known_blocked() == []
    assert replay.walk([(2, 0), (2, 1)]) == [(2, 1)]
    assert replay.knowledge.known_blocked() == [(1, 1)]


def random_problem(rng: random.Random, height: int, width: int) -> tuple[Gridworld, tuple, tuple]:
    grid = Gridworld(height, width, np.array([[rng.random() < 0.25 for _ in range(width)] for _ in range(height)]))
    free = [cell for cell in grid.cells() if not grid.is_blocked(cell)]
    start, goal = rng.sample(free, 2)
    return grid, start, goal


@pytest.mark.parametrize("algorithm", ["astar", "lrta", "lrta_subgoal_arrival"])
@pytest.mark.parametrize("connectivity", [4, 8])
def test_the_known_map_planners_traces_replay_to_their_own_trajectories(algorithm, connectivity):
    from reference.solutions.subgoaling import run_algorithm

    rng = random.Random(f"{algorithm}{connectivity}")
    for _ in range(15):
        grid, start, goal = random_problem(rng, rng.randint(3, 12), rng.randint(3, 12))
        trace = run_algorithm(algorithm, grid, start, goal, connectivity=connectivity, max_moves=5_000).trace
        walked = [start]
        for context in search_contexts(grid, trace, connectivity, known_map=True):
            assert context.agent == walked[-1]
            walked.extend(context.moves)
        assert walked == trace.trajectory


# -- the picture of one episode -----------------------------------------------------------------------

def test_episode_view_shows_the_walk_so_far_and_the_plan():
    grid = Gridworld.from_strings(HAND_MAP)
    view = episode_view(grid, hand_trace(), 2, connectivity=8)     # the third episode, at (2, 2)
    assert (view.agent, view.trail) == ((2, 2), HAND_TRAJECTORY[:3])
    assert (view.plan, view.expanded, view.pursued) == ([(2, 2), (1, 2)], [(2, 2)], GOAL)
    assert episode_view(grid, hand_trace(), -1, connectivity=8).agent == (1, 2)
    with pytest.raises(IndexError, match="4 planning episodes"):
        episode_view(grid, hand_trace(), 4, connectivity=8)


def test_draw_episode_names_every_mark_and_puts_the_agent_where_it_stands():
    grid = Gridworld.from_strings(HAND_MAP)
    trace = hand_trace()
    trace.searches[2].goal = (1, 2)       # as if it pursued a subgoal in this episode
    view = episode_view(grid, trace, 2, connectivity=8, goal=GOAL)
    ax = draw_episode(grid, view, tree_arcs=[(GOAL, (1, 2))])
    labels = [text.get_text() for text in ax.get_legend().get_texts()]
    assert labels == ["ground", "out of bounds", "expanded", "start", "goal",
                      "subgoal tree (1 subgoals; arrows point to the next)", "walked so far (2 moves)",
                      "plan of this episode (1 move)", "subgoal pursued in this episode", "agent"]
    lines = {line.get_label(): line for line in ax.get_lines()}
    assert list(zip(lines["agent"].get_ydata(), lines["agent"].get_xdata())) == [(2, 2)]
    assert list(zip(lines["walked so far (2 moves)"].get_ydata(), lines["walked so far (2 moves)"].get_xdata())) == \
        HAND_TRAJECTORY[:3]
    assert "episode 3 of 4" in ax.get_title()


# -- ftr draw on game maps ----------------------------------------------------------------------------

# The hand-worked map as a MovingAI file, trees (impassable for a ground agent) at (1, 1); the
# scenario line in MovingAI's x (column), y (row) order, its optimal length 3 + √2.
SMALL_MAP = "type octile\nheight 3\nwidth 4\nmap\n....\n.T..\n....\n"
SMALL_SCEN = "version 1\n0\tsmall.map\t4\t3\t0\t2\t3\t0\t4.41421356\n"


@pytest.fixture
def small_map(tmp_path):
    (tmp_path / "small.map").write_text(SMALL_MAP)
    (tmp_path / "small.map.scen").write_text(SMALL_SCEN)
    return tmp_path


def draw(folder, *args: str) -> int:
    return main(["draw", str(folder / "small.map"), "--scen", str(folder / "small.map.scen"), "--index", "0", *args])


@pytest.mark.parametrize("algorithm, episode, connectivity", [("lrta", "3", "8"), ("astar", "1", "8"),
                                                             ("lrta_subgoal", "-1", "8"), ("lrta", "-1", "4")])
def test_ftr_draw_draws_an_episode_of_a_game_map_run(small_map, algorithm, episode, connectivity):
    from PIL import Image

    out = small_map / f"{algorithm}.png"
    assert draw(small_map, "--algorithm", algorithm, "--episode", episode, "--connectivity", connectivity,
                "--out", str(out)) == 0
    width, height = Image.open(out).size
    assert width > 400 and height > 200


def test_ftr_draw_reads_what_ftr_subgoal_run_writes(small_map, capsys):
    saved = small_map / "run.json"
    assert main(["subgoal", "run", str(small_map / "small.map"), "--scen", str(small_map / "small.map.scen"),
                 "--trace", str(saved)]) == 0
    assert Trace.load(saved).algorithm == "lrta_subgoal"
    assert draw(small_map, "--algorithm", "lrta_subgoal", "--trace", str(saved), "--episode", "-1",
                "--out", str(small_map / "last.png")) == 0


def test_ftr_draw_replays_a_saved_trace_and_rejects_a_corner_cut(small_map, capsys):
    trace = hand_trace()
    saved = small_map / "trace.json"
    saved.write_text(trace.to_json())
    assert draw(small_map, "--algorithm", "lrta", "--trace", str(saved), "--episode", "2",
                "--out", str(small_map / "ok.png")) == 0
    trace.searches[1].path = [(2, 1), (1, 2)]
    saved.write_text(json.dumps(trace.to_dict()))
    capsys.readouterr()
    assert draw(small_map, "--algorithm", "lrta", "--trace", str(saved), "--out", str(small_map / "bad.png")) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1
    assert "search 1: path step 1: the agent moved diagonally from (2, 1) to (1, 2), cutting the corner" in error
    assert not (small_map / "bad.png").exists()
    trace = hand_trace()
    trace.trajectory[3] = (1, 3)        # the paths walk to (1, 2)
    saved.write_text(trace.to_json())
    assert draw(small_map, "--algorithm", "lrta", "--trace", str(saved), "--out", str(small_map / "bad.png")) == 2
    assert "at step 3 the trajectory says (1, 3), the paths walk to (1, 2)" in capsys.readouterr().err


@pytest.mark.parametrize("args, message", [
    (["--algorithm", "lrta", "--episode", "9"], "the run has 4 planning episodes"),
    (["--algorithm", "lrta", "--view", "knowledge"], "a known-map planner knows the whole map"),
    (["--algorithm", "astar", "--numbers"], "--numbers"),
    (["--algorithm", "lrta", "--window", "7,7,9,9"], "holds no cell"),
    (["--algorithm", "forward", "--connectivity", "8"], "moves four-connected"),
])
def test_ftr_draw_refuses_bad_requests_in_one_line(small_map, capsys, args, message):
    capsys.readouterr()
    assert draw(small_map, *args, "--out", str(small_map / "x.png")) == 2
    error = capsys.readouterr().err
    assert message in error and error.count("\n") == 1


def test_ftr_draw_needs_a_scenario_for_a_known_map_planner(small_map, capsys):
    assert main(["draw", str(small_map / "small.map"), "--algorithm", "astar", "--out", str(small_map / "x.png")]) == 2
    assert "give MAP --scen FILE --index I" in capsys.readouterr().err


def test_ftr_draw_on_a_movingai_map(shared_dir, tmp_path):
    from PIL import Image

    game_map = shared_dir / "movingai" / "dao" / "den312d.map"
    if not game_map.is_file():
        pytest.skip(f"{game_map} is not there")
    out = tmp_path / "den312d.png"
    assert main(["draw", str(game_map), "--scen", f"{game_map}.scen", "--index", "300", "--algorithm", "lrta_subgoal",
                 "--episode", "60", "--zoom", "20", "--out", str(out)]) == 0
    assert Image.open(out).size[0] > 400
