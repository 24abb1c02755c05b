"""The run animation: frames that follow SPEC §4 and §6, GIFs, the inline player, ``ftr animate``."""

from __future__ import annotations

import re
import subprocess
import sys

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from reference.world.animation import (NEW_WALL, SEARCHED, Frame, animate_run, frame_colours, run_frames, save_gif,
                                       show_inline, thin_frames)
from reference.world.grid import Gridworld
from reference.world.maps import write_map
from reference.world.pictures import BLACK, TRAIL, knowledge_after
from reference.world.sensing import FogOfWarWorld

from tests.helpers.handout import FIGURE_2 as EXAMPLE_1  # noqa: E402 - SPEC §10, read from mazes/handout/


def solved(grid, start, target, algorithm="forward"):
    from reference.solutions import REPLANNERS

    return REPLANNERS.run(algorithm, FogOfWarWorld(grid, start), start, target, tie_break="larger_g")


def test_example_1_frames_show_the_walls_as_the_agent_meets_them():
    grid = Gridworld.from_strings(EXAMPLE_1)
    trace = solved(grid, (4, 2), (4, 4))
    frames = run_frames(grid, trace)
    kinds = [f.kind for f in frames]
    # one frame per search, per move, and the end
    assert kinds.count("search") == len(trace.searches)
    assert kinds.count("move") == trace.moves
    assert kinds[-1] == "end" and kinds[0] == "search"
    # worked by hand from the true grid: the first search is followed by E2, D2, C2; at C2 the agent
    # sees C3, the wall on its path, and searches again (the handout's "time step 4")
    assert [f.agent for f in frames[1:4]] == [(4, 1), (3, 1), (2, 1)]
    assert frames[3].new_walls == [(2, 2)]
    assert frames[4].kind == "search" and frames[4].agent == (2, 1)
    # each wall appears as new exactly once, and all of them are the walls next to the trajectory
    seen = [w for f in frames for w in f.new_walls]
    assert len(seen) == len(set(seen))
    initial = set(knowledge_after(grid, trace.trajectory[:1]).known_blocked())
    assert initial | set(seen) == set(knowledge_after(grid, trace.trajectory).known_blocked())
    assert frames[-1].agent == (4, 4) and "reached the target" in frames[-1].caption


def test_frame_colours_follow_the_key():
    grid = Gridworld.from_strings(EXAMPLE_1)
    frames = run_frames(grid, solved(grid, (4, 2), (4, 4)))
    search, wall_frame = frames[0], frames[3]
    colours = frame_colours(grid, search)
    assert tuple(colours[3, 2]) == BLACK and tuple(colours[4, 3]) == BLACK          # known at the start
    assert tuple(colours[4, 2]) == TRAIL                                             # the agent's cell
    assert tuple(colours[4, 0]) == SEARCHED                                          # E1 expanded, free
    colours = frame_colours(grid, wall_frame)
    assert tuple(colours[2, 2]) == NEW_WALL                                          # C3, just seen
    assert [tuple(colours[c]) for c in [(4, 1), (3, 1), (2, 1)]] == [TRAIL] * 3


def test_thin_frames_keeps_first_last_and_every_wall():
    blank = np.zeros((2, 2), dtype=bool)
    frames = [Frame("move", i, (0, 0), blank, str(i), new_walls=[(i, i)]) for i in range(50)]
    thinned = thin_frames(frames, 7)
    assert len(thinned) == 7
    assert thinned[0].caption == "0" and thinned[-1].caption == "49"
    assert [w for f in thinned for w in f.new_walls] == [(i, i) for i in range(50)]
    assert thin_frames(frames[:5], 7) == frames[:5]
    with pytest.raises(ValueError):
        thin_frames(frames, 1)


@st.composite
def instances(draw):
    """Small random grids with an unblocked start and target."""
    height, width = draw(st.integers(1, 6)), draw(st.integers(2, 6))
    blocked = np.array(draw(st.lists(st.booleans(), min_size=height * width, max_size=height * width)))
    grid = Gridworld(height, width, blocked.reshape(height, width))
    start, target = (0, 0), (height - 1, width - 1)
    grid.set_blocked(start, False)
    grid.set_blocked(target, False)
    return grid, start, target


@settings(max_examples=40, deadline=None)
@given(instances(), st.sampled_from(["forward", "backward", "adaptive"]), st.integers(1, 3))
def test_frames_replay_every_run_faithfully(instance, algorithm, moves_per_frame):
    grid, start, target = instance
    trace = solved(grid, start, target, algorithm)
    frames = run_frames(grid, trace, moves_per_frame)
    assert frames[-1].kind == "end" and frames[-1].trail == [tuple(c) for c in trace.trajectory]
    for frame in frames:
        # what the frame says the agent knows is what SPEC §4 says it knows at that point
        expected = np.zeros((grid.height, grid.width), dtype=bool)
        for c in knowledge_after(grid, frame.trail).known_blocked():
            expected[c] = True
        assert np.array_equal(frame.known_blocked, expected)
        assert frame.agent == frame.trail[-1]
        assert all(not grid.is_blocked(c) for c in frame.trail)
    assert sum(f.kind == "search" for f in frames) == len(trace.searches)
    for frame in frames:  # "N moves to go" / "N to go" counts the rest of the trajectory, whatever was planned
        to_go = re.search(r"(\d+) (?:moves )?to go", frame.caption)
        if to_go:
            assert int(to_go.group(1)) == trace.moves - frame.step, frame.caption


def test_gif_has_one_picture_per_frame(tmp_path):
    grid = Gridworld.from_strings(EXAMPLE_1)
    trace = solved(grid, (4, 2), (4, 4), "adaptive")
    animation = animate_run(grid, trace)
    path = save_gif(animation, tmp_path / "run.gif", fps=5, dpi=40)
    with Image.open(path) as gif:
        assert gif.n_frames == len(animation.player.frames) == len(run_frames(grid, trace))
        assert gif.size == (200, 262)   # 5 x 6.55 inches at 40 dpi (5 of grid, 1 of legend, 0.55 of title)


def test_moves_to_go_is_what_the_agent_walks_not_the_planned_path():
    """Example 1, forward: the second search (agent in C2 after 3 moves) plans a path of 7 moves, but
    the agent walks 9 more (it meets B3 and replans once more): 12 moves in all, worked by hand in
    the handout's Figures 5-6 (E3 E2 D2 C2, then B2 A2 A3 A4 A5 B5 C5 D5 E5)."""
    grid = Gridworld.from_strings(EXAMPLE_1)
    trace = solved(grid, (4, 2), (4, 4))
    assert trace.moves == 12
    searches = [f for f in run_frames(grid, trace) if f.kind == "search"]
    assert searches[1].step == 3 and len(searches[1].path) - 1 == 7
    assert searches[1].caption.endswith("path 7 moves; 9 moves to go")
    assert searches[0].caption.endswith("path 8 moves; 12 moves to go")


def test_the_animation_has_a_legend():
    grid = Gridworld.from_strings(EXAMPLE_1)
    animation = animate_run(grid, solved(grid, (4, 2), (4, 4)))
    legend = animation.player.ax.get_legend()
    labels = [text.get_text() for text in legend.get_texts()]
    assert labels == ["known blocked", "seen just now", "blocked, not seen yet", "expanded by the latest search",
                      "cells stood in", "path it follows", "agent", "target"]


def test_inline_player_is_html_with_a_slider():
    grid = Gridworld.from_strings([".@.", "..."])
    animation = animate_run(grid, solved(grid, (0, 0), (0, 2)), size=2)
    html = show_inline(animation).data
    assert "<script" in html and 'type="range"' in html


def test_long_runs_are_thinned_to_max_frames():
    from reference.world.instances import load_folder, standard_mazes_dir

    instance = load_folder(standard_mazes_dir())[1]
    trace = solved(instance.grid, instance.start, instance.target)
    frames = run_frames(instance.grid, trace, max_frames=40)
    assert len(frames) == 40 and frames[-1].kind == "end"
    assert frames[-1].trail[-1] == instance.target


def test_ftr_animate_writes_a_gif(tmp_path):
    grid = Gridworld.from_strings(EXAMPLE_1)
    map_path = tmp_path / "example1.map"
    write_map(grid, map_path)
    out = tmp_path / "run.gif"
    command = [sys.executable, "-c", "import sys; from reference.cli import main; sys.exit(main())", "animate",
               str(map_path), "--start", "4,2", "--target", "4,4", "--algorithm", "backward", "--max-frames", "6",
               "--out", str(out)]
    result = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    with Image.open(out) as gif:
        assert gif.n_frames == 6
    bad = subprocess.run(command[:-2] + ["--fps", "0", "--out", str(out)], capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr


def test_step_slider_without_ipywidgets_falls_back_to_the_player():
    pytest.importorskip("IPython")
    from reference.world.animation import step_slider

    grid = Gridworld.from_strings(["..", ".."])
    shown = step_slider(grid, solved(grid, (0, 0), (1, 1)), size=2)
    try:
        import ipywidgets
    except ImportError:
        assert "<script" in shown.data
    else:
        slider = shown.children[0]
        assert isinstance(slider, ipywidgets.IntSlider) and slider.max == 3   # search, 2 moves, end


# -- runs on known game maps (no fog, any connectivity) ------------------------------------------------

# The map of tests/world/test_replay_known_maps.py, worked by hand there: LRTA*, eight-connected, from
# (2, 0) to (0, 3) past the blocked (1, 1): E, E, N, NE, one planning episode per move.
KNOWN_MAP = ["....", ".@..", "...."]
KNOWN_TRAJECTORY = [(2, 0), (2, 1), (2, 2), (1, 2), (0, 3)]


def known_map_trace():
    from reference.world.trace import SearchRecord, Trace

    records = [SearchRecord(a, (0, 3), [a], [a, b]) for a, b in zip(KNOWN_TRAJECTORY, KNOWN_TRAJECTORY[1:])]
    return Trace("lrta", "larger_g", True, list(KNOWN_TRAJECTORY), records)


def test_known_map_frames_follow_the_episodes_and_see_no_new_wall():
    grid = Gridworld.from_strings(KNOWN_MAP)
    frames = run_frames(grid, known_map_trace(), connectivity=8, known_map=True, target=(0, 3))
    assert [f.kind for f in frames] == ["search", "move"] * 4 + ["end"]
    assert [f.trail for f in frames] == [KNOWN_TRAJECTORY[: f.step + 1] for f in frames]
    assert [f.step for f in frames] == [0, 1, 1, 2, 2, 3, 3, 4, 4]
    assert all(np.array_equal(f.known_blocked, grid.blocked) and not f.new_walls for f in frames)
    assert frames[0].caption == "planning episode 1: 1 expansion, path 1 move; 4 moves to go"
    with pytest.raises(ValueError, match="needs known_map=True"):
        run_frames(grid, known_map_trace(), connectivity=8)


def test_known_map_frames_paint_search_and_trail_over_the_terrain():
    from reference.world.animation import TRAIL_ON_TERRAIN
    from reference.world.map_pictures import terrain_colours, terrain_of

    grid = Gridworld.from_strings(KNOWN_MAP)
    terrain = terrain_of(grid)
    search = run_frames(grid, known_map_trace(), connectivity=8, known_map=True)[4]   # the third episode, at (2, 2)
    colours = frame_colours(grid, search, terrain)
    assert tuple(colours[2, 2]) == SEARCHED                       # expanded
    assert tuple(colours[2, 0]) == tuple(colours[2, 1]) == TRAIL_ON_TERRAIN
    assert np.array_equal(colours[1, 1], terrain_colours(terrain)[1, 1])   # the wall keeps its terrain colour
    assert np.array_equal(colours[0, 0], terrain_colours(terrain)[0, 0])


def test_a_long_known_map_run_keeps_only_the_frames_asked_for():
    from reference.solutions.subgoaling import lrta_star

    wall = ["." * 15 + "@" + "." * 14] * 26             # a wall across the middle
    grid = Gridworld.from_strings(["." * 30] * 2 + wall + ["." * 30] * 2)
    trace = lrta_star(grid, (15, 0), (15, 29), connectivity=8).trace
    assert trace.reached and trace.moves > 30              # some 80 frames before thinning
    frames = run_frames(grid, trace, connectivity=8, known_map=True, max_frames=12)
    assert len(frames) == 12 and frames[-1].trail == trace.trajectory
    assert all(f.trail == trace.trajectory[: f.step + 1] for f in frames)


def test_ftr_animate_writes_a_gif_of_a_game_map_run(tmp_path):
    (tmp_path / "small.map").write_text("type octile\nheight 3\nwidth 4\nmap\n....\n.T..\n....\n")
    (tmp_path / "small.map.scen").write_text("version 1\n0\tsmall.map\t4\t3\t0\t2\t3\t0\t4.41421356\n")
    out = tmp_path / "run.gif"
    from reference.cli import main

    assert main(["animate", str(tmp_path / "small.map"), "--scen", str(tmp_path / "small.map.scen"),
                 "--algorithm", "lrta_subgoal", "--out", str(out)]) == 0
    with Image.open(out) as gif:
        assert gif.n_frames == 9            # four episodes, four moves, the end


def test_step_slider_steps_through_a_known_map_run():
    pytest.importorskip("IPython")
    from reference.world.animation import step_slider

    grid = Gridworld.from_strings(KNOWN_MAP)
    shown = step_slider(grid, known_map_trace(), size=2, connectivity=8, terrain=grid, target=(0, 3))
    try:
        import ipywidgets
    except ImportError:
        assert "<script" in shown.data
    else:
        slider = shown.children[0]
        assert isinstance(slider, ipywidgets.IntSlider) and slider.max == 8   # four episodes, four moves, the end
