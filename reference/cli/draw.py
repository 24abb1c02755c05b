"""``ftr draw`` and ``ftr animate``: pictures of a run, for one instance.

    ftr draw mazes/maze_00.map --scen mazes/mazes.scen --index 0 --search 3 --out search3.png
    ftr draw handout.map --start 4,2 --target 4,4 --algorithm adaptive --search 2 --out fig7.png
    ftr draw --standard --maze 7 --view knowledge --step 40 --out knows.png   # the kit's mazes, from anywhere
    ftr animate mazes --maze 7 --algorithm backward --out run.gif

Game maps, with a planner that knows the map (SPEC §12-13; eight-connected unless told otherwise),
one picture per planning episode (``--episode`` is ``--search``):

    ftr draw arena.map --scen arena.map.scen --index 40 --algorithm lrta_subgoal --episode 9 --out ep9.png
    ftr draw arena.map --scen arena.map.scen --index 40 --algorithm astar --out astar.png

By default the reference solution makes the trace; ``--trace FILE`` draws a saved one instead
(for instance a student's, or ``ftr subgoal run --trace``'s), checked against the instance's grid.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING

from reference.world.trace import TIE_BREAKS

from ._common import add_instance_arguments, instance_path, load_instances
from .subgoal import ALGORITHM_NAMES as KNOWN_MAP_ALGORITHMS

if TYPE_CHECKING:
    import numpy as np

    from reference.solutions.subgoaling import SubgoalTree
    from reference.world.grid import Cell, Gridworld
    from reference.world.trace import Trace

#: A known-map run stops unreached after this many moves unless told otherwise (LRTA* with
#: subgoaling as the paper writes it can cycle for ever).
DEFAULT_MAX_MOVES = 100_000


def parse_window(text: str) -> tuple[tuple[int, int], tuple[int, int]]:
    """``"10,20,30,45"`` -> ``((10, 20), (30, 45))``: top, left, bottom, right (cells, inclusive)."""
    try:
        top, left, bottom, right = (int(part) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected TOP,LEFT,BOTTOM,RIGHT (four whole numbers), got {text!r}") from None
    return ((top, left), (bottom, right))


def _add_run_arguments(parser: argparse.ArgumentParser, out_required: bool = True) -> None:
    from reference.solutions import REPLANNERS

    add_instance_arguments(parser)
    parser.add_argument("--maze", type=int, default=0, help="with a folder: which of its instances (0 = first)")
    parser.add_argument("--algorithm", choices=[*REPLANNERS, *KNOWN_MAP_ALGORITHMS], default="forward",
                        help=f"{', '.join(REPLANNERS)}: the handout's agent in the fog of war (default forward); "
                        f"{', '.join(KNOWN_MAP_ALGORITHMS)}: a planner that knows the game map MAP (give --scen FILE "
                        "--index I), as `ftr subgoal run` runs it")
    parser.add_argument("--tie-break", choices=list(TIE_BREAKS), default="larger_g",
                        help="ties in f go to the larger g (default) or the smaller g")
    parser.add_argument("--connectivity", type=int, choices=(4, 8), default=None,
                        help="with a known-map algorithm: its moves (default 8); "
                        "the fog-of-war agent moves 4-connected")
    parser.add_argument("--max-moves", type=int, default=DEFAULT_MAX_MOVES, metavar="N",
                        help="with a known-map algorithm: stop the run unreached after N moves "
                        f"(default {DEFAULT_MAX_MOVES:,})")
    parser.add_argument("--tree", action=argparse.BooleanOptionalAction, default=None,
                        help="with a known-map algorithm: draw the goal's subgoal tree (default: for lrta_subgoal*)")
    parser.add_argument("--trace", metavar="FILE",
                        help="draw this saved trace (JSON, docs/contract.md section 8) instead of running the reference")
    parser.add_argument("--out", required=out_required, metavar="FILE", help="where to write the picture")


def register_draw(subparsers: argparse._SubParsersAction) -> None:
    """Add ``ftr draw`` to ``subparsers``."""
    parser = subparsers.add_parser(
        "draw",
        help="draw one search the way the handout does, or what the agent knows",
        description="Draw search K of a run as the handout's figures do (g top-left, f top-right, h bottom-left, "
        "expanded cells grey, tree pointers, the path; Adaptive A* adds the updated h bottom-right), or with "
        "--view knowledge the true world, the agent's knowledge and its freespace view at trajectory step T. "
        "Big grids drop the numbers and colour the expansion order; --window or --zoom shows part of the grid. "
        "With a known-map algorithm (astar, lrta, lrta_subgoal, ...) on a game map: planning episode K over the "
        "terrain, with the path walked so far, the cells the episode expanded, its plan, the subgoal it pursues "
        "and (--tree) the goal's subgoal tree.",
    )
    _add_run_arguments(parser)
    parser.add_argument("--view", choices=["search", "knowledge"], default="search")
    parser.add_argument("--search", "--episode", type=int, default=1, metavar="K",
                        help="which search (planning episode) to draw: 1 = the first (default), -1 = the last")
    parser.add_argument("--step", type=int, default=0, metavar="T",
                        help="with --view knowledge: the trajectory step (0 = before the first move, -1 = the end)")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--window", type=parse_window, metavar="TOP,LEFT,BOTTOM,RIGHT",
                       help="draw only these cells (inclusive)")
    where.add_argument("--zoom", type=int, metavar="RADIUS",
                       help="draw only the cells within RADIUS rows and columns of the agent")
    parser.add_argument("--numbers", action=argparse.BooleanOptionalAction, default=None,
                        help="write g, f and h into the cells (default: when at most 16 rows and columns show)")
    parser.add_argument("--hidden-walls", action=argparse.BooleanOptionalAction, default=True,
                        help="mark the walls the agent has not seen yet (default); --no-hidden-walls shows only "
                        "what the agent knows, exactly as the handout draws it")
    parser.add_argument("--dpi", type=int, default=120)
    parser.set_defaults(handler=draw)


def register_animate(subparsers: argparse._SubParsersAction) -> None:
    """Add ``ftr animate`` to ``subparsers``."""
    parser = subparsers.add_parser(
        "animate",
        help="animate a whole run as a GIF, or as a page to step through (--html)",
        description="Write a GIF of a whole run: each search (the cells it expanded), each move, each newly "
        "seen wall (red), the path being followed. With a known-map algorithm (astar, lrta, lrta_subgoal, ...) "
        "on a game map: each planning episode and move over the terrain, and (--tree) the goal's subgoal tree. "
        "With --html FILE (fog-of-war runs): one self-contained page to step through every expansion, path and "
        "move (play, pause, step, sliders; g/f/h on grids up to 16 x 16); give --out too for the GIF as well.",
    )
    _add_run_arguments(parser, out_required=False)
    parser.add_argument("--html", metavar="FILE", help="write the step-through player page (no network needed to open it)")
    parser.add_argument("--fps", type=int, default=4, help="frames per second (default 4)")
    parser.add_argument("--moves-per-frame", type=int, default=1, help="moves shown per frame (default 1)")
    parser.add_argument("--max-frames", type=int, default=300,
                        help="keep at most this many evenly spaced frames (default 300)")
    parser.add_argument("--dpi", type=int, default=80)
    parser.set_defaults(handler=animate)


def _instance_and_trace(args: argparse.Namespace):
    """The chosen instance and its trace (the reference's, or the one in ``--trace``)."""
    from reference.world.trace import Trace

    from . import UsageError

    if args.connectivity == 8:
        raise UsageError(f"--connectivity 8: the fog-of-war agent ({args.algorithm}) moves four-connected; "
                         f"eight-connected planners know the map ({', '.join(KNOWN_MAP_ALGORITHMS)})")
    instances = load_instances(args)
    if not 0 <= args.maze < len(instances):
        raise UsageError(f"--maze {args.maze}: {args.path} has instances 0..{len(instances) - 1}")
    instance = instances[args.maze]
    if args.trace:
        trace = Trace.load(args.trace, instance.grid.height, instance.grid.width)
        if tuple(trace.trajectory[0]) != instance.start:
            raise UsageError(f"{args.trace}: the trace starts at {trace.trajectory[0]}, the instance at {instance.start}")
    else:
        from reference.solutions import solve

        trace = solve(instance, args.algorithm, args.tie_break)
    return instance, trace


def _replay_error(error: Exception, args: argparse.Namespace):
    from . import UsageError

    source = args.trace or "the trace"
    return UsageError(f"{source} cannot be replayed on this grid: {error}")


@dataclass
class GameMapRun:
    """A run on a known game map, ready to draw: the terrain, the agent's grid (its capability's
    blocked cells), the goal, the trace, the moves it used, and the goal's subgoal tree (None
    unless drawn)."""

    terrain: np.ndarray
    grid: Gridworld
    goal: Cell
    trace: Trace
    connectivity: int
    tree: SubgoalTree | None = None


def _known_map_run(args: argparse.Namespace) -> GameMapRun:
    """The scenario line's problem (as ``ftr subgoal run`` reads it) and its run by ``--algorithm``
    (or the trace in ``--trace``), or a UsageError saying why not."""
    from reference.solutions.subgoaling import build_subgoal_tree, run_algorithm
    from reference.world.maps import read_terrain
    from reference.world.replay import ReplayError, first_difference, walked_trajectory
    from reference.world.trace import Trace

    from . import UsageError
    from .subgoal import scenario_problem

    if instance_path(args).is_dir() or args.scen is None or args.start or args.target:
        raise UsageError(f"--algorithm {args.algorithm} plans on a known game map: give MAP --scen FILE --index I")
    if args.max_moves < 1:
        raise UsageError("--max-moves must be at least 1")
    connectivity = args.connectivity or 8
    grid, start, goal, _optimal = scenario_problem(args.path, args.scen, args.index)
    trace = Trace.load(args.trace, grid.height, grid.width) if args.trace else None
    if trace is not None:
        if tuple(trace.trajectory[0]) != start:
            raise UsageError(f"{args.trace}: the trace starts at {trace.trajectory[0]}, "
                             f"scenario {args.index} at {start}")
        try:  # the whole trace, not only up to the episode drawn
            walked = walked_trajectory(grid, trace, connectivity, known_map=True)
        except ReplayError as error:
            raise _replay_error(error, args) from None
        difference = first_difference(walked, trace.trajectory)
        if difference:
            raise UsageError(f"{args.trace}: the trajectory does not follow the recorded paths: {difference}")
    algorithm = trace.algorithm if trace else args.algorithm
    subgoaling = algorithm.startswith("lrta_subgoal")
    draw_tree = args.tree if args.tree is not None else subgoaling
    tree = None
    if draw_tree or (trace is None and subgoaling):  # to draw, or for a subgoaling run to plan with
        tree = build_subgoal_tree(grid, goal, connectivity)
    if trace is None:
        trace = run_algorithm(algorithm, grid, start, goal, connectivity=connectivity, tree=tree, max_moves=args.max_moves).trace
    return GameMapRun(read_terrain(args.path), grid, goal, trace, connectivity, tree if draw_tree else None)


def draw_known_map(args: argparse.Namespace) -> int:
    """``ftr draw`` for a known-map algorithm: one planning episode over the game map."""
    from reference.experiments.plots import save_figure
    from reference.world.map_pictures import draw_episode, episode_view
    from reference.world.pictures import window_around
    from reference.world.replay import ReplayError

    from . import UsageError

    if args.view != "search":
        raise UsageError("--view knowledge shows what the fog-of-war agent knows; a known-map planner knows the "
                         "whole map (draw its episodes with --episode K)")
    if args.numbers:
        raise UsageError("--numbers: game-map pictures colour the expansion order; g, f and h are drawn for the "
                         "fog-of-war algorithms only")
    run = _known_map_run(args)
    count = len(run.trace.searches)
    if count == 0:
        raise UsageError("this run made no planning episode (the agent starts on the goal): nothing to draw")
    if not (1 <= args.search <= count or -count <= args.search <= -1):
        raise UsageError(f"--episode {args.search}: the run has {count:,} planning episodes "
                         f"(1..{count}, or -1 for the last)")
    try:
        view = episode_view(run.grid, run.trace, args.search - 1 if args.search > 0 else args.search,
                            run.connectivity, run.goal)
        window = window_around(view.agent, args.zoom, run.grid) if args.zoom is not None else args.window
        ax = draw_episode(run.terrain, view, run.tree.arcs if run.tree else (), window=window)
    except ReplayError as error:
        raise _replay_error(error, args) from None
    except ValueError as error:  # a window outside the map
        raise UsageError(str(error)) from None
    save_figure(ax.figure.figure, args.out, dpi=args.dpi)  # the root Figure (Axes.figure may be a SubFigure)
    print(f"wrote {args.out}", file=sys.stderr)
    return 0


def draw(args: argparse.Namespace) -> int:
    """``ftr draw``: draw one search (or what the agent knows) of a run or a saved trace as a PNG."""
    import matplotlib

    matplotlib.use("Agg")
    if args.algorithm in KNOWN_MAP_ALGORITHMS:
        return draw_known_map(args)
    from reference.experiments.plots import save_figure
    from reference.world.pictures import draw_knowledge_views, draw_search, search_view, window_around
    from reference.world.replay import ReplayError

    from . import UsageError

    instance, trace = _instance_and_trace(args)
    grid = instance.grid
    try:
        if args.view == "search":
            count = len(trace.searches)
            if count == 0:
                raise UsageError("this run made no search (the agent starts on the target): nothing to draw")
            if not (1 <= args.search <= count or -count <= args.search <= -1):
                raise UsageError(f"--search {args.search}: the run made {count} searches (1..{count}, or -1 for the last)")
            view = search_view(grid, trace, args.search - 1 if args.search > 0 else args.search)
            window = window_around(view.agent, args.zoom, grid) if args.zoom is not None else args.window
            drawn = draw_search(view, numbers=args.numbers, window=window, hidden_walls=args.hidden_walls)
            figure = drawn.axes.figure.figure
        else:
            steps = len(trace.trajectory)
            if not -steps <= args.step < steps:
                raise UsageError(f"--step {args.step}: the trajectory has steps 0..{steps - 1}")
            agent = tuple(trace.trajectory[args.step])
            window = window_around(agent, args.zoom, grid) if args.zoom is not None else args.window
            views = draw_knowledge_views(grid, trace, args.step, window=window)
            figure = views.axes[0].figure.figure
    except ReplayError as error:
        raise _replay_error(error, args) from None
    except ValueError as error:  # a window outside the grid
        raise UsageError(str(error)) from None
    save_figure(figure, args.out, dpi=args.dpi)
    print(f"wrote {args.out}", file=sys.stderr)
    return 0


def animate(args: argparse.Namespace) -> int:
    """``ftr animate``: write a whole run as a GIF, or with ``--html`` as a page to step through."""
    import matplotlib

    matplotlib.use("Agg")
    from reference.world.animation import animate_run, save_gif
    from reference.world.replay import ReplayError

    from . import UsageError

    if args.fps < 1 or args.moves_per_frame < 1 or args.max_frames < 2:
        raise UsageError("--fps and --moves-per-frame must be at least 1, --max-frames at least 2")
    if not args.out and not args.html:
        raise UsageError("say where to write the run: --out FILE.gif, --html FILE.html, or both")
    if args.html:
        if args.algorithm in KNOWN_MAP_ALGORITHMS:
            raise UsageError(f"--html steps through the fog-of-war algorithms' searches; {args.algorithm} plans on a "
                             "known map: animate it as a GIF (--out)")
        from reference.world.player import write_player

        instance, trace = _instance_and_trace(args)
        try:
            page = write_player(instance.grid, trace, args.html)
        except ReplayError as error:
            raise _replay_error(error, args) from None
        print(f"wrote {page} ({page.stat().st_size / 1e6:.2f} MB)", file=sys.stderr)
        if not args.out:
            return 0
    try:
        if args.algorithm in KNOWN_MAP_ALGORITHMS:
            run = _known_map_run(args)
            animation = animate_run(run.grid, run.trace, args.moves_per_frame, args.max_frames,
                                    connectivity=run.connectivity, terrain=run.terrain, target=run.goal,
                                    tree_arcs=run.tree.arcs if run.tree else ())
        else:
            instance, trace = _instance_and_trace(args)
            animation = animate_run(instance.grid, trace, args.moves_per_frame, args.max_frames)
    except ReplayError as error:
        raise _replay_error(error, args) from None
    save_gif(animation, args.out, fps=args.fps, dpi=args.dpi, progress=True)
    print(f"wrote {args.out} ({len(animation.player.frames)} frames)", file=sys.stderr)
    return 0


COMMANDS = [(40, register_draw), (41, register_animate)]
