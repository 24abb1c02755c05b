"""``ftr haa``: clearance-based pathfinding with HAA* (Harabor & Botea 2008; SPEC §14; docs/haa.md).

    ftr haa build MAP [--cluster C] [--quality high|low] --out FILE
    ftr haa query MAP --problems FILE [--quality high|low] [--jsonl]
    ftr haa compare --out DIR [--construction kit|paper]
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from pathlib import Path

from reference.cli._tasks import add_task_options, task_store
from reference.experiments.report import format_table

from . import UsageError


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``ftr haa`` and its subcommands (``build``, ``query``, ``compare``) to ``subparsers``."""
    parser = subparsers.add_parser(
        "haa", help="HAA*: paths for agents of many sizes and terrain capabilities, and the paper's evaluation",
        description="Hierarchical Annotated A* (Harabor & Botea 2008): build the annotated cluster abstraction "
        "of a map, answer queries for agents of size k and a terrain capability, or reproduce the paper's "
        "evaluation. Terrain: '.' 'G' 'S' ground, 'T' trees, 'W' water, '@' 'O' out of bounds.")
    commands = parser.add_subparsers(title="haa commands", metavar="COMMAND")

    def map_arguments(command: argparse.ArgumentParser) -> None:
        command.add_argument("map", metavar="MAP", type=Path, help="a MovingAI .map file")
        command.add_argument("--cluster", type=int, default=10, metavar="C", help="cluster side (default 10)")
        command.add_argument("--quality", choices=("high", "low"), default="high",
                             help="high: strong dominance only; low: weak dominance too (smaller graph)")
        command.add_argument("--max-size", type=int, default=3, metavar="K", help="largest agent size (default 3)")
        command.add_argument("--add-terrain", type=int, metavar="SEED",
                             help="first make the map multi-terrain by the kit's seeded construction "
                             "(interior obstacles become water or trees, 20%% of the ground becomes woods)")

    build = commands.add_parser(
        "build", help="build the abstraction of a map, save it, load it again and print its size",
        description="Build the HAA* abstract graph of MAP, write it to FILE (.npz), read FILE back and print "
        "the graph's size against the map's.")
    map_arguments(build)
    build.add_argument("--out", type=Path, required=True, metavar="FILE", help="where to write the abstraction")
    build.set_defaults(handler=build_command)

    query = commands.add_parser(
        "query", help="answer path queries with HAA*",
        description="Answer the queries of FILE, one per line: size<TAB>capability<TAB>start_row<TAB>start_col"
        "<TAB>goal_row<TAB>goal_col, the capability written like ground+water. Prints a table, or with --jsonl "
        'one line per query: {"index": i, "found": bool, "cost": c, "expansions": n} (cost null when no path).')
    map_arguments(query)
    query.add_argument("--problems", type=Path, required=True, metavar="FILE", help="the queries, one per line")
    query.add_argument("--graph", type=Path, metavar="FILE", help="use an abstraction saved by 'ftr haa build'")
    query.add_argument("--jsonl", action="store_true", help="one JSON object per query on stdout, nothing else")
    query.set_defaults(handler=query_command)

    compare = commands.add_parser(
        "compare", help="reproduce the paper's evaluation: tables, figures, findings",
        description="HAA* against Annotated A* on the Baldur's Gate maps made multi-terrain (and build time and "
        "memory on the Warcraft III maps): graph size, path length above optimal, nodes expanded, time; "
        "writes tables, figures and findings.md into DIR. --construction paper runs the paper's own set "
        "instead: soft obstacles on 0-50%% of the tiles, two terrains, three capabilities, agents 1x1 and 2x2, "
        "100 experiments per map and SO level.")
    compare.add_argument("--construction", choices=("kit", "paper"), default="kit",
                         help="kit: the kit's three-terrain maps (default); paper: the paper's soft-obstacle sets")
    compare.add_argument("--experiments", type=int, default=100, metavar="E",
                         help="--construction paper: experiments per map and SO level (default 100, the paper's)")
    compare.add_argument("--so", default="0,10,20,30,40,50", metavar="P,P,...",
                         help="--construction paper: soft-obstacle levels in %% (default 0,10,20,30,40,50, the paper's)")
    compare.add_argument("--out", type=Path, required=True, metavar="DIR")
    compare.add_argument("--maps", type=int, metavar="N", help="only the first N Baldur's Gate maps (default all 120)")
    compare.add_argument("--problems", type=int, default=20, metavar="P", help="random problems per map (default 20)")
    compare.add_argument("--cluster-sizes", default="10,15,20", metavar="C,C,...", help="default 10,15,20 (the paper's)")
    compare.add_argument("--wc3", type=int, metavar="N", help="only the first N Warcraft III maps (default all 4)")
    compare.add_argument("--seed", type=int, default=2008)
    add_task_options(compare, jobs=1)
    compare.add_argument("--movingai", type=Path, metavar="DIR",
                         help="the MovingAI folder (default: see `ftr movingai where`)")
    compare.add_argument("--from", dest="from_dir", type=Path, metavar="DIR",
                         help="remake the report from the CSV files of an earlier run in DIR (no runs)")
    compare.add_argument("--no-pictures", action="store_true",
                         help="leave out the pictures (clearance, abstract graphs, agents' paths)")
    compare.set_defaults(handler=compare_command)


def _load_terrain(args: argparse.Namespace):
    from reference.solutions.haa.multiterrain import with_terrain
    from reference.world.maps import read_terrain

    if not args.map.is_file():
        raise UsageError(f"{args.map}: no such map file")
    terrain = read_terrain(args.map)
    if args.add_terrain is not None:
        terrain = with_terrain(terrain, args.map.stem, seed=args.add_terrain)
    return terrain


def _build(args: argparse.Namespace, terrain):
    if _engine() == "compiled":  # the compiled twin: the same graph (tested), step 2 compiled
        from reference.solutions.compiled.haa.abstraction import build_abstraction
    else:
        from reference.solutions.haa import build_abstraction

    if args.cluster < 2:
        raise UsageError(f"--cluster must be at least 2, got {args.cluster}")
    if args.max_size < 1:
        raise UsageError(f"--max-size must be at least 1, got {args.max_size}")
    return build_abstraction(terrain, cluster_size=args.cluster, quality=args.quality, max_size=args.max_size)


def _engine() -> str:
    try:
        import numba  # noqa: F401
    except ImportError:  # the readable builder gives the same graph, more slowly
        return "readable"
    return "compiled"


def build_command(args: argparse.Namespace) -> int:
    """``ftr haa build``: build a map's annotated cluster abstraction and save it."""
    from reference.experiments.haa import map_graph_size
    from reference.solutions.haa import Abstraction

    terrain = _load_terrain(args)
    graph = _build(args, terrain)
    graph.save(args.out)
    loaded = Abstraction.load(args.out)
    if loaded.node_cells != graph.node_cells or loaded.edges != graph.edges:
        raise UsageError(f"{args.out}: the abstraction read back differs from the one written")
    summary = loaded.summary()
    map_nodes, map_edges = map_graph_size(terrain)
    edges = summary["inter_edges"] + summary["intra_edges"]
    print(f"{args.map.name}: {terrain.shape[0]} x {terrain.shape[1]}, cluster {graph.cluster_size}, "
          f"{graph.quality} quality, agent sizes 1-{graph.max_size}; built in {graph.build_seconds:.2f} s")
    print(f"abstract graph: {summary['nodes']} nodes ({summary['nodes'] / max(map_nodes, 1):.1%} of the map's "
          f"{map_nodes}), {edges} edges ({summary['inter_edges']} inter, {summary['intra_edges']} intra; "
          f"{edges / max(map_edges, 1):.1%} of the map's {map_edges}); {loaded.graph_bytes() / 1024:.1f} KiB")
    print(f"saved to {args.out} ({args.out.stat().st_size / 1024:.1f} KiB) and loaded again: identical")
    return 0


def read_problems(path: Path) -> list[tuple[int, frozenset, tuple[int, int], tuple[int, int]]]:
    """The queries of a problems file (see ``ftr haa query --help``); UsageError naming the bad line."""
    from reference.solutions.haa import capability_from_text

    if not path.is_file():
        raise UsageError(f"{path}: no such problems file")
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise UsageError(f"{path}: not a text file of queries (see ftr haa query --help)") from None
    problems = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        parts = line.strip().split("\t")
        if len(parts) != 6:
            raise UsageError(f"{path}, line {number}: expected 6 tab-separated fields "
                             f"(size, capability, start_row, start_col, goal_row, goal_col), got {len(parts)}")
        try:
            size, start_row, start_col, goal_row, goal_col = (int(parts[i]) for i in (0, 2, 3, 4, 5))
            capability = capability_from_text(parts[1])
        except ValueError as error:
            raise UsageError(f"{path}, line {number}: {error}") from None
        problems.append((size, capability, (start_row, start_col), (goal_row, goal_col)))
    return problems


def query_command(args: argparse.Namespace) -> int:
    """``ftr haa query``: answer the queries of a file (size, capability, start, goal per line) with HAA*."""
    from reference.solutions.haa import Abstraction

    if _engine() == "compiled":  # the compiled twin: the same answers (tested), one compiled call a query
        from reference.solutions.compiled.haa.query import haa_star
    else:
        from reference.solutions.haa import haa_star

    terrain = _load_terrain(args)
    problems = read_problems(args.problems)
    if args.graph is not None:
        if not args.graph.is_file():
            raise UsageError(f"{args.graph}: no such abstraction file")
        try:
            graph = Abstraction.load(args.graph)
        except ValueError as error:
            raise UsageError(str(error)) from None
        if graph.terrain.shape != terrain.shape or (graph.terrain != terrain).any():
            raise UsageError(f"{args.graph} was built on another map than {args.map}")
    else:
        graph = _build(args, terrain)
    height, width = terrain.shape
    rows = []
    for index, (size, capability, start, goal) in enumerate(problems):
        for label, cell in (("start", start), ("goal", goal)):
            if not (0 <= cell[0] < height and 0 <= cell[1] < width):
                raise UsageError(f"problem {index}: the {label} {cell} lies outside the {height} x {width} map")
        if not 1 <= size <= graph.max_size:
            raise UsageError(f"problem {index}: agent size {size} is outside 1..{graph.max_size}, "
                             "the sizes the abstraction holds (see --max-size)")
        result = haa_star(graph, start, goal, size, capability)
        record = {"index": index, "found": result.found,
                  "cost": result.length if result.found else None, "expansions": result.expansions}
        if args.jsonl:
            print(json.dumps(record))
        else:
            rows.append([index, size, "+".join(sorted(_names(capability))), f"{start[0]},{start[1]}",
                         f"{goal[0]},{goal[1]}", "yes" if result.found else "no",
                         round(result.length, 4) if result.found else "-", result.expansions])
    if not args.jsonl:
        print(format_table(["index", "size", "capability", "start", "goal", "found", "cost", "expansions"], rows))
    return 0


def _names(capability) -> list[str]:
    from reference.world.terrain import TERRAIN_NAMES

    return [TERRAIN_NAMES[t] for t in sorted(capability)]


def compare_command(args: argparse.Namespace) -> int:
    """``ftr haa compare``: the paper's evaluation (or its report again ``--from`` an earlier run)."""
    from reference.experiments.haa import read_result, run_comparison, write_pictures, write_report

    try:
        cluster_sizes = tuple(int(c) for c in args.cluster_sizes.split(","))
    except ValueError:
        raise UsageError(f"--cluster-sizes: expected whole numbers separated by commas, got {args.cluster_sizes!r}") from None
    if any(c < 2 for c in cluster_sizes):
        raise UsageError("--cluster-sizes: every cluster size must be at least 2")
    import time

    from reference.world.fileio import atomic_write_text

    if args.construction == "paper":
        return _compare_paper(args, cluster_sizes)

    command = "ftr " + " ".join(shlex.quote(a) for a in sys.argv[1:]) if sys.argv[1:2] == ["haa"] else ""
    if args.from_dir is not None:
        result = read_result(args.from_dir)
        run_file = args.from_dir / "run.json"
        if run_file.is_file():  # say which run made the rows, and how long it took
            run = json.loads(run_file.read_text())
            command = f"{run['command']}` ({run['seconds'] / 60:.1f} min); report remade with `{command}"
    else:
        began = time.perf_counter()
        result = run_comparison(maps=args.maps, problems=args.problems, seed=args.seed, cluster_sizes=cluster_sizes,
                                wc3=args.wc3, jobs=args.jobs, movingai=args.movingai, scheduler=args.scheduler,
                                store=task_store(args, args.out))
        atomic_write_text(args.out / "run.json", json.dumps({"command": command, "seconds": round(time.perf_counter() - began)}) + "\n")
    scaled = (f"{args.problems} problems per map instead of the paper's 200 (100 experiments x 2 sizes), "
              "five soft-obstacle sets reduced to one (woods on 20% of the ground, plus lakes and woods where the "
              "maps have free-standing obstacles), all on one shared 2-core machine.")
    written = write_report(result, args.out, command=command, scaled_down=scaled)
    if not args.no_pictures:
        written += write_pictures(args.out, args.movingai)
    print(f"wrote {len(written)} files to {args.out}; see {args.out / 'findings.md'}")
    return 0


def _compare_paper(args: argparse.Namespace, cluster_sizes: tuple[int, ...]) -> int:
    import time

    from reference.experiments.haa_paper import read_paper_result, run_paper_study, write_paper_report
    from reference.world.fileio import atomic_write_text

    try:
        levels = tuple(int(p) / 100 for p in args.so.split(","))
    except ValueError:
        raise UsageError(f"--so: expected whole percentages separated by commas, got {args.so!r}") from None
    if any(not 0 <= p <= 1 for p in levels):
        raise UsageError("--so: every level must lie between 0 and 100")
    if args.experiments < 1:
        raise UsageError(f"--experiments: expected at least 1, got {args.experiments}")
    command = "ftr " + " ".join(shlex.quote(a) for a in sys.argv[1:]) if sys.argv[1:2] == ["haa"] else ""
    if args.from_dir is not None:
        result = read_paper_result(args.from_dir)
        run_file = args.from_dir / "run.json"
        if run_file.is_file():
            run = json.loads(run_file.read_text())
            command = f"{run['command']}` ({run['seconds'] / 60:.1f} min); report remade with `{command}"
    else:
        began = time.perf_counter()
        result = run_paper_study(maps=args.maps, experiments=args.experiments, seed=args.seed, levels=levels,
                                 cluster_sizes=cluster_sizes, jobs=args.jobs, movingai=args.movingai,
                                 scheduler=args.scheduler, store=task_store(args, args.out))
        atomic_write_text(args.out / "run.json", json.dumps({"command": command, "seconds": round(time.perf_counter() - began)}) + "\n")
    maps = len({g["map"] for g in result["graphs"]})
    experiments = len({(r["map"], r["so"], r["problem"]) for r in result["runs"] if r["algorithm"] == "AA*"}) // 2
    scaled = "" if maps >= 120 and experiments >= 72000 else (
        f"the first {maps} of the 120 maps at every SO level ({experiments * 2} problems instead of 144,000): "
        "the run had to end within one working session on a 2-core machine shared with eight other jobs, at "
        "lower priority (nice 10); one map at all six levels costs about 7 CPU-seconds, so the full set is "
        "about 15 CPU-minutes of an unshared machine. The full scale: "
        "`ftr haa compare --construction paper --jobs 2 --out docs/haa/paper`.")
    written = write_paper_report(result, args.out, command=command, scaled_down=scaled)
    print(f"wrote {len(written)} files to {args.out}; see {args.out / 'findings.md'}")
    return 0


COMMANDS = [(60, register)]
