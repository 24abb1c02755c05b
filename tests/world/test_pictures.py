"""The handout's search figure, the knowledge views, the experiment plots and ``ftr draw``.

Expected numbers come from the handout and SPEC §10 (worked by hand there), or from a second
method: breadth-first distances on the agent's freespace view, Manhattan distances.
"""

from __future__ import annotations

import json
import subprocess
import sys

import matplotlib
import matplotlib.patches

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.figure import Figure

from reference.world.grid import Gridworld, distances_from, manhattan
from reference.world.maps import write_map
from reference.world.pictures import (BLACK, EXPANDED_GREY, HIDDEN_WALL, TRAIL, UNKNOWN_GREY, cell_name,
                                      draw_knowledge_views, draw_search, knowledge_after, observed_cells,
                                      search_view, search_views, window_around)
from reference.world.trace import SearchRecord, Trace

from tests.helpers.handout import FIGURE_2 as EXAMPLE_1  # noqa: E402 - SPEC §10, Figures 2-7, read from mazes/handout/
EXAMPLE_3 = [".....", ".....", ".....", ".....", "....."]   # Figure 9


def cell(name: str) -> tuple[int, int]:
    """``"E3"`` -> ``(4, 2)``: the handout's cell names."""
    return (ord(name[0]) - ord("A"), int(name[1:]) - 1)


def cells(names: str) -> list[tuple[int, int]]:
    return [cell(n) for n in names.split()]


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


@pytest.fixture
def example_1() -> Gridworld:
    return Gridworld.from_strings(EXAMPLE_1)


def first_search_trace(grid: Gridworld) -> Trace:
    """Example 1's first forward search exactly as SPEC §10 gives it, written by hand (no A* runs):
    10 expansions in this order, the path E3 E2 D2 C2 C3 C4 C5 D5 E5, three moves before C3 shows."""
    search = SearchRecord(cell("E3"), cell("E5"), cells("E3 E2 E1 D2 D1 C2 C3 C4 C5 D5"),
                          cells("E3 E2 D2 C2 C3 C4 C5 D5 E5"))
    return Trace("forward", "larger_g", False, cells("E3 E2 D2 C2"), [search])


def solved(grid: Gridworld, start, target, algorithm="forward", tie_break="larger_g") -> Trace:
    from reference.solutions import REPLANNERS
    from reference.world.sensing import FogOfWarWorld

    return REPLANNERS.run(algorithm, FogOfWarWorld(grid, start), start, target, tie_break=tie_break)


def pixel_colour(figure: Figure, ax, at: tuple[float, float]) -> np.ndarray:
    """The median RGB (0..1) of a 5x5-pixel patch around data point ``at`` = (col, row) in the
    rendered figure: what a reader of the PNG actually sees there."""
    figure.canvas.draw()
    image = np.asarray(figure.canvas.buffer_rgba())[:, :, :3] / 255.0
    x, y = ax.transData.transform(at)
    column, row = int(round(x)), int(round(image.shape[0] - y))
    patch = image[row - 2: row + 3, column - 2: column + 3].reshape(-1, 3)
    return np.median(patch, axis=0)


def quadrant_colour(figure, ax, c) -> np.ndarray:
    """A cell's colour, read off the picture a quarter cell right and below its centre (clear of
    the path, the arrows and the corner numbers)."""
    return pixel_colour(figure, ax, (c[1] + 0.22, c[0] + 0.2))


# -- the handout's Figure 5 (left), cell for cell -------------------------------------------------

def test_first_forward_search_carries_the_handouts_numbers(example_1):
    view = search_view(example_1, first_search_trace(example_1), 0)
    drawn = draw_search(view)
    target = cell("E5")
    # h in every cell the agent does not know to be blocked: the Manhattan distance to the target
    known_blocked = set(cells("D3 E4"))
    assert set(drawn.cell_text) == set(example_1.cells()) - known_blocked
    for c, text in drawn.cell_text.items():
        assert text["h"] == str(manhattan(c, target))
    assert drawn.cell_text[cell("A1")] == {"h": "8"}                         # never generated
    assert drawn.cell_text[cell("E3")] == {"g": "0", "f": "2", "h": "2"}     # the agent's cell
    assert drawn.cell_text[cell("E5")] == {"g": "8", "f": "8", "h": "0"}     # goal distance eight
    # every expanded cell's g is its distance from the agent on the freespace view (a second method)
    freespace = Gridworld(5, 5)
    for c in known_blocked:
        freespace.set_blocked(c)
    distance = distances_from(freespace, cell("E3"))
    for c in cells("E3 E2 E1 D2 D1 C2 C3 C4 C5 D5"):
        assert drawn.cell_text[c]["g"] == str(distance[c])
        assert int(drawn.cell_text[c]["f"]) == distance[c] + manhattan(c, target)
    # the goal state is generated but not expanded; no updated h for Repeated Forward A*
    assert drawn.shaded == cells("E3 E2 E1 D2 D1 C2 C3 C4 C5 D5")
    assert not any("h_new" in text for text in drawn.cell_text.values())
    assert drawn.marks == {cell("E3"): "A", target: "T"}


def test_tree_pointers_point_one_step_back_towards_the_start(example_1):
    drawn = draw_search(search_view(example_1, first_search_trace(example_1), 0))
    assert drawn.arrows  # the figure has arrows
    for child, parent in drawn.arrows.items():
        assert manhattan(child, parent) == 1
        assert int(drawn.cell_text[parent]["g"]) == int(drawn.cell_text[child]["g"]) - 1
    # following the pointers from the target gives the recorded path, reversed
    walk, here = [cell("E5")], cell("E5")
    while here in drawn.arrows:
        here = drawn.arrows[here]
        walk.append(here)
    assert walk[::-1] == cells("E3 E2 D2 C2 C3 C4 C5 D5 E5")


def test_the_picture_paints_cells_in_the_handouts_colours(example_1):
    figure, ax = plt.subplots(figsize=(5, 5))
    draw_search(search_view(example_1, first_search_trace(example_1), 0), ax=ax)
    for c in cells("D3 E4"):                                 # known blocked: black
        assert np.allclose(quadrant_colour(figure, ax, c), BLACK, atol=0.05)
    for c in cells("E1 D1 C2 C5 D5"):                        # expanded: grey
        assert np.allclose(quadrant_colour(figure, ax, c), EXPANDED_GREY, atol=0.05)
    for c in cells("A1 A5 B1 E5"):                           # presumed unblocked, not expanded: white
        assert np.allclose(quadrant_colour(figure, ax, c), 1.0, atol=0.05)
    # B3 and D4 are blocked but the agent has not seen them: marked, neither black nor white
    for c in cells("B3 D4"):
        colour = quadrant_colour(figure, ax, c)
        assert not np.allclose(colour, 1.0, atol=0.05) and not np.allclose(colour, BLACK, atol=0.2)



def test_hidden_walls_are_hatched_only_when_asked_for(example_1):
    def hatched(drawn) -> set[tuple[int, int]]:
        return {(round(p.get_y() + 0.5), round(p.get_x() + 0.5)) for p in drawn.axes.patches
                if isinstance(p, matplotlib.patches.Rectangle) and p.get_hatch()}

    view = search_view(example_1, first_search_trace(example_1), 0)
    assert hatched(draw_search(view)) == set(cells("B3 C3 C4 D4"))    # blocked, not yet seen
    assert hatched(draw_search(view, hidden_walls=False)) == set()
    # a window shows only the hidden walls inside it
    assert hatched(draw_search(view, window=((2, 3), (4, 4)))) == set(cells("C4 D4"))


# -- Figures 5 (right), 6 and 7: whole runs of the reference --------------------------------------

def test_second_forward_search_expands_thirteen_cells_from_c2(example_1):
    trace = solved(example_1, cell("E3"), cell("E5"))
    drawn = draw_search(search_view(example_1, trace, 1))
    assert drawn.marks[cell("C2")] == "A"
    assert drawn.cell_text[cell("C2")]["g"] == "0"
    assert len(drawn.shaded) == 13
    # C3 is now known blocked: painted black, no numbers
    assert cell("C3") not in drawn.cell_text
    assert tuple(drawn.colours[cell("C3")]) == BLACK


def test_adaptive_figure_7_shows_updated_h_values(example_1):
    trace = solved(example_1, cell("E3"), cell("E5"), "adaptive")
    first = draw_search(search_view(example_1, trace, 0))
    # lower right: h(s) := 8 - g(s) for every expanded (grey) cell, and only there
    assert {c for c, t in first.cell_text.items() if "h_new" in t} == set(first.shaded)
    for c in first.shaded:
        assert first.cell_text[c]["h_new"] == str(8 - int(first.cell_text[c]["g"]))
    # "Cells D2, E1, E2 and E3 have larger h-values than their Manhattan distances"
    raised = {c for c in first.shaded if int(first.cell_text[c]["h_new"]) > int(first.cell_text[c]["h"])}
    assert raised == set(cells("D2 E1 E2 E3"))
    # the second search uses the learned values (lower left) and expands 10 cells, not E1, E2, E3
    second = draw_search(search_view(example_1, trace, 1))
    for c in cells("D2 E1 E2 E3"):
        assert second.cell_text[c]["h"] == first.cell_text[c]["h_new"]
    assert len(second.shaded) == 10 and not set(cells("E1 E2 E3")) & set(second.shaded)
    # "expands three cells (namely, cells E1, E2 and E3) fewer than Repeated Forward A*" (Figure 5 right)
    forward_second = draw_search(search_view(example_1, solved(example_1, cell("E3"), cell("E5")), 1))
    assert set(forward_second.shaded) - set(second.shaded) == set(cells("E1 E2 E3"))
    assert set(second.shaded) <= set(forward_second.shaded)


def test_backward_search_of_figure_6_starts_at_the_target(example_1):
    trace = solved(example_1, cell("E3"), cell("E5"), "backward")
    drawn = draw_search(search_view(example_1, trace, 0))
    assert drawn.shaded == cells("E5 D5 D4 C4 C3 C5 C2 D2 E2")    # SPEC §10, in this order
    assert drawn.cell_text[cell("E5")]["g"] == "0"
    for c, text in drawn.cell_text.items():                        # h: Manhattan to the agent
        assert text["h"] == str(manhattan(c, cell("E3")))
    assert drawn.marks == {cell("E3"): "A", cell("E5"): "T"}


def test_example_3_ties_shade_8_or_23_cells():
    grid = Gridworld.from_strings(EXAMPLE_3)
    larger = draw_search(search_view(grid, solved(grid, (0, 0), (4, 4)), 0))
    smaller = draw_search(search_view(grid, solved(grid, (0, 0), (4, 4), tie_break="smaller_g"), 0))
    assert (len(larger.shaded), len(smaller.shaded)) == (8, 23)


# -- big grids: no numbers, the expansion order as a colour ramp, zoom ----------------------------

@pytest.fixture(scope="module")
def maze_run():
    from reference.world.instances import load_folder, standard_mazes_dir

    instance = load_folder(standard_mazes_dir())[0]
    return instance, solved(instance.grid, instance.start, instance.target)


def test_big_grid_drops_numbers_and_colours_the_expansion_order(maze_run, tmp_path):
    instance, trace = maze_run
    view = search_view(instance.grid, trace, 0)
    figure, ax = plt.subplots(figsize=(6, 6))
    drawn = draw_search(view, ax=ax)
    assert not drawn.numbers and drawn.cell_text == {} and drawn.arrows == {}
    ramp = matplotlib.colormaps["viridis"]
    first, last = drawn.shaded[0], drawn.shaded[-1]
    assert np.allclose(drawn.colours[first], ramp(0.0)[:3])
    assert np.allclose(drawn.colours[last], ramp(1.0)[:3])
    for c in view.knowledge.known_blocked():
        assert tuple(drawn.colours[c]) == BLACK
    path = tmp_path / "search.png"
    figure.savefig(path, dpi=50)
    from PIL import Image

    assert Image.open(path).size == (300, 300)


def test_the_legend_says_what_colours_corners_and_marks_mean(example_1):
    trace = solved(example_1, (4, 2), (4, 4), "adaptive")
    drawn = draw_search(search_view(example_1, trace, 1))
    title, *labels = drawn.legend
    assert title.startswith("in a cell: g top-left, f top-right, h bottom-left")
    assert "green, bottom-right: the h Adaptive A* learns" in title
    assert labels == ["expanded", "known blocked", "blocked, not seen yet (planned through)", "path found",
                      "A agent, T target", "tree pointer"]
    legend = drawn.axes.get_legend()
    assert [t.get_text() for t in legend.get_texts()] == labels and legend.get_title().get_text() == title
    # the legend's hatched square is the hatching drawn over the unseen walls (B3 and C4 here)
    assert legend.legend_handles[2].get_hatch() == "///"
    forward = draw_search(search_view(example_1, solved(example_1, (4, 2), (4, 4)), 0), hidden_walls=False)
    assert "green" not in forward.legend[0] and "blocked, not seen yet (planned through)" not in forward.legend
    assert draw_search(search_view(example_1, trace, 0), legend=False).axes.get_legend() is None


def test_on_a_101_maze_walls_path_agent_and_target_stand_out(maze_run):
    """Unseen walls are a mid blue-grey, not a tint of white; the path and the marks are drawn bold."""
    instance, trace = maze_run
    figure, ax = plt.subplots(figsize=(8, 8))
    drawn = draw_search(search_view(instance.grid, trace, 2), ax=ax)
    luminance = lambda rgb: 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2]  # noqa: E731
    assert luminance(HIDDEN_WALL) < 0.75                     # the old (0.86, 0.88, 0.95) was 0.88
    unseen = [c for c in instance.grid.cells() if instance.grid.is_blocked(c) and not drawn.colours[c].tolist() == list(BLACK)]
    assert unseen and all(tuple(drawn.colours[c]) == HIDDEN_WALL for c in unseen if c not in drawn.shaded)
    (path_line,) = [line for line in ax.lines if line.get_xydata().shape[0] > 1]
    assert path_line.get_linewidth() >= 2.5
    sizes = [size for collection in ax.collections for size in collection.get_sizes()]
    assert min(sizes) >= 100                                  # agent and target: several cells wide
    assert drawn.legend[-2:] == ["agent", "target"] and drawn.legend[0] == "expanded (colour: order)"


def test_zoom_window_brings_the_numbers_back(maze_run):
    instance, trace = maze_run
    view = search_view(instance.grid, trace, 2)
    window = window_around(view.agent, 4, instance.grid)
    drawn = draw_search(view, window=window)
    (top, left), (bottom, right) = window
    assert drawn.numbers and bottom - top <= 8 and right - left <= 8
    assert all(top <= r <= bottom and left <= c <= right for r, c in drawn.cell_text)
    assert drawn.cell_text[view.agent]["g"] == "0"
    assert drawn.marks.get(view.agent, "").startswith("A")


def test_search_views_cover_every_search_in_order(maze_run):
    instance, trace = maze_run
    views = list(search_views(instance.grid, trace))
    assert [v.index for v in views] == list(range(len(trace.searches)))
    assert [len(v.annotation.expanded) for v in views] == [len(s.expanded) for s in trace.searches]
    # the agent of each search stands where the trace says it stood: where that forward search starts
    assert all(v.agent in set(trace.trajectory) for v in views)
    assert [v.agent for v in views] == [tuple(s.start) for s in trace.searches]
    with pytest.raises(IndexError):
        search_view(instance.grid, trace, len(trace.searches))


# -- knowledge views (Figures 2 and 3) ------------------------------------------------------------

def test_knowledge_views_at_the_start_match_figure_2(example_1):
    views = draw_knowledge_views(example_1, first_search_trace(example_1), step=0)
    known, true, freespace = views.colours["known"], views.colours["true"], views.colours["freespace"]
    observed = set(cells("E3 E2 D3 E4"))          # the agent's cell and its three neighbours
    for c in example_1.cells():
        if c in cells("D3 E4"):
            assert tuple(known[c]) == BLACK and tuple(freespace[c]) == BLACK
        elif c == cell("E3"):
            assert tuple(known[c]) == TRAIL
        elif c in observed:
            assert tuple(known[c]) == (1.0, 1.0, 1.0)
        else:
            assert tuple(known[c]) == UNKNOWN_GREY
            assert tuple(freespace[c]) == (1.0, 1.0, 1.0)   # the freespace assumption
        assert (tuple(true[c]) == BLACK) == example_1.is_blocked(c)
    assert views.plan == cells("E3 E2 D2 C2 C3 C4 C5 D5 E5")


def test_knowledge_view_after_three_moves_has_seen_c3(example_1):
    views = draw_knowledge_views(example_1, first_search_trace(example_1), step=3)
    assert views.agent == cell("C2")
    blacks = {c for c in example_1.cells() if tuple(views.colours["freespace"][c]) == BLACK}
    assert blacks == set(cells("D3 E4 C3"))
    assert views.plan == cells("C2 C3 C4 C5 D5 E5")   # the rest of the plan, now known to be blocked
    assert len(views.axes) == 3


def test_observed_cells_and_knowledge_follow_spec_section_4(example_1):
    visited = cells("E3 E2 D2")
    assert observed_cells(example_1, visited) == set(cells("E3 E2 D3 E4 E1 D2 D1 C2"))
    assert knowledge_after(example_1, visited).known_blocked() == cells("D3 E4")
    assert cell_name(cell("C5")) == "C5"


# -- experiment plots ---------------------------------------------------------------------------

def experiment_rows():
    settings = ["forward/larger_g", "forward/smaller_g", "backward/larger_g", "adaptive/larger_g"]
    rng = np.random.default_rng(1)
    rows = []
    for maze in range(6):
        for number, setting in enumerate(settings):
            expansions = int(1000 * (number + 1) * rng.uniform(1, 3))
            algorithm, tie_break = setting.split("/")
            rows.append({"maze": maze, "name": f"maze_{maze:02d}", "algorithm": algorithm, "tie_break": tie_break,
                         "setting": setting, "reached": True, "searches": 10, "expansions": expansions,
                         "moves": 100, "seconds": expansions * 1e-5})
    return rows


def test_experiment_figures_writes_every_png(tmp_path):
    from PIL import Image

    from reference.experiments.plots import experiment_figures

    paths = experiment_figures(experiment_rows(), tmp_path / "figures")
    names = sorted(p.name for p in paths)
    assert names == sorted(["expansions.png", "paired_larger_vs_smaller_g.png", "paired_forward_vs_backward.png",
                            "paired_forward_vs_adaptive.png", "runtime_vs_expansions.png"])
    for path in paths:
        width, height = Image.open(path).size
        assert width > 300 and height > 300


def test_paired_plot_counts_mazes_below_the_diagonal():
    from reference.experiments.plots import plot_paired

    rows = [{"maze": m, "setting": s, "expansions": e, "seconds": 0.0}
            for m, (a, b) in enumerate([(100, 50), (100, 200), (300, 30)])
            for s, e in (("a", a), ("b", b))]
    ax = plot_paired(rows, "a", "b")
    assert "2 of 3" in ax.get_title()
    points = ax.collections[0].get_offsets()
    assert sorted(map(tuple, np.asarray(points))) == [(100, 50), (100, 200), (300, 30)]
    with pytest.raises(ValueError, match="no rows for setting 'c'"):
        plot_paired(rows, "a", "c")


def test_expansions_plot_has_one_box_per_setting_on_a_log_scale():
    from reference.experiments.plots import plot_expansions, plot_runtime_vs_expansions

    ax = plot_expansions(experiment_rows())
    assert ax.get_yscale() == "log"
    assert [t.get_text() for t in ax.get_xticklabels()] == ["forward\nlarger_g", "forward\nsmaller_g",
                                                            "backward\nlarger_g", "adaptive\nlarger_g"]
    ax = plot_runtime_vs_expansions(experiment_rows())
    assert (ax.get_xscale(), ax.get_yscale()) == ("log", "log")
    assert len(ax.collections) == 4


# -- ftr draw -------------------------------------------------------------------------------------

def ftr(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", "import sys; from reference.cli import main; sys.exit(main())", *args],
                          capture_output=True, text=True, timeout=120)


def test_ftr_draw_writes_the_handout_figure(tmp_path, example_1):
    from PIL import Image

    map_path = tmp_path / "example1.map"
    write_map(example_1, map_path)
    out = tmp_path / "figure7.png"
    result = ftr("draw", str(map_path), "--start", "4,2", "--target", "4,4", "--algorithm", "adaptive",
                 "--search", "2", "--out", str(out))
    assert result.returncode == 0, result.stderr
    width, height = Image.open(out).size
    assert width > 300 and height > 300
    knowledge = tmp_path / "knows.png"
    result = ftr("draw", str(map_path), "--start", "4,2", "--target", "4,4", "--view", "knowledge",
                 "--step", "3", "--out", str(knowledge))
    assert result.returncode == 0, result.stderr
    assert Image.open(knowledge).size[0] > Image.open(knowledge).size[1] * 2   # three panels side by side


def test_ftr_draw_reads_a_saved_trace_and_refuses_bad_requests(tmp_path, example_1, capsys):
    from reference.cli import main

    map_path = tmp_path / "example1.map"
    write_map(example_1, map_path)
    trace_path = tmp_path / "trace.json"
    trace_path.write_text(json.dumps(first_search_trace(example_1).to_dict()))
    common = [str(map_path), "--start", "4,2", "--target", "4,4", "--trace", str(trace_path)]
    assert main(["draw", *common, "--out", str(tmp_path / "a.png")]) == 0
    assert (tmp_path / "a.png").stat().st_size > 0
    # the user's mistakes: one line on stderr, exit code 2 (in-process: main() is what `ftr` runs)
    for bad, message in [(["--search", "2"], "made 1 searches"), (["--window", "9,9,12,12"], "holds no cell"),
                         (["--view", "knowledge", "--step", "7"], "steps 0..3")]:
        capsys.readouterr()
        assert main(["draw", *common, *bad, "--out", str(tmp_path / "b.png")]) == 2
        error = capsys.readouterr().err
        assert message in error and error.count("\n") == 1
    assert not (tmp_path / "b.png").exists()
    wrong_start = [str(map_path), "--start", "0,0", "--target", "4,4", "--trace", str(trace_path)]
    assert main(["draw", *wrong_start, "--out", str(tmp_path / "c.png")]) == 2
    assert "the trace starts at" in capsys.readouterr().err


@pytest.mark.parametrize("algorithm", ["backward", "dstar_lite", "lrta_astar"])
def test_searches_from_the_target_still_mark_the_real_target(algorithm: str) -> None:
    """Backward A* and D* Lite search from the target; the picture must still put A and T right."""
    from reference.solutions import solve
    from reference.solutions.realtime import run_algorithm
    from reference.world.instances import Instance
    from reference.world.pictures import search_views
    from reference.world.sensing import FogOfWarWorld

    grid = Gridworld.from_strings(EXAMPLE_1)  # the handout's example 1
    agent, target = (4, 2), (4, 4)
    if algorithm == "backward":
        trace = solve(Instance("example 1", grid, agent, target), "backward")
    else:
        trace = run_algorithm(algorithm, FogOfWarWorld(grid, agent), agent, target, lookahead=3).trace
    first = next(search_views(grid, trace))
    assert (first.agent, first.target) == (agent, target)
