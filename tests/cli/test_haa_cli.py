"""``ftr haa build | query | compare``: real subprocess-free runs of the CLI's main()."""

from __future__ import annotations

import json

import pytest

from reference.cli import main
from reference.solutions.haa import annotated_astar
from reference.world.terrain import GROUND, TREES, WATER, terrain_from_strings

MAP_ROWS = [
    "............",
    "..@@....WW..",
    "..@@...WWW..",
    "......WWW...",
    ".TTT........",
    ".TTT....@...",
    ".TTT....@...",
    "............",
]


@pytest.fixture()
def map_file(tmp_path):
    path = tmp_path / "toy.map"
    path.write_text(f"type octile\nheight {len(MAP_ROWS)}\nwidth {len(MAP_ROWS[0])}\nmap\n" + "\n".join(MAP_ROWS) + "\n")
    return path


@pytest.fixture()
def problems_file(tmp_path):
    path = tmp_path / "problems.txt"
    path.write_text("1\tground\t0\t0\t7\t11\n"
                    "2\tground+water\t0\t0\t6\t10\n"
                    "1\twater\t1\t8\t3\t6\n"
                    "3\ttrees\t4\t1\t6\t3\n")  # trees 3 x 3 at (4, 1): size 3 fits, but start = goal region
    return path


def test_build_saves_and_loads_and_prints_the_size(map_file, tmp_path, capsys):
    out = tmp_path / "graph.npz"
    assert main(["haa", "build", str(map_file), "--cluster", "4", "--quality", "low", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert out.is_file()
    assert "loaded again: identical" in printed and "abstract graph:" in printed and "nodes" in printed


def test_query_jsonl_lines_are_exactly_the_contract(map_file, problems_file, capsys):
    assert main(["haa", "query", str(map_file), "--problems", str(problems_file), "--cluster", "4", "--jsonl"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 4
    terrain = terrain_from_strings(MAP_ROWS)
    agents = [(1, {GROUND}, (0, 0), (7, 11)), (2, {GROUND, WATER}, (0, 0), (6, 10)), (1, {WATER}, (1, 8), (3, 6)),
              (3, {TREES}, (4, 1), (6, 3))]
    for index, (line, (size, capability, start, goal)) in enumerate(zip(lines, agents)):
        record = json.loads(line)
        assert list(record) == ["index", "found", "cost", "expansions"]
        assert record["index"] == index
        optimal = annotated_astar(terrain, start, goal, size, capability)  # the referee: AA*
        assert record["found"] == optimal.found
        if optimal.found:
            assert record["cost"] >= optimal.length - 1e-9 and isinstance(record["expansions"], int)
        else:
            assert record["cost"] is None


def test_query_reuses_a_saved_graph_and_prints_a_table(map_file, problems_file, tmp_path, capsys):
    out = tmp_path / "graph.npz"
    main(["haa", "build", str(map_file), "--cluster", "4", "--out", str(out)])
    capsys.readouterr()
    assert main(["haa", "query", str(map_file), "--problems", str(problems_file), "--graph", str(out)]) == 0
    printed = capsys.readouterr().out
    assert printed.splitlines()[0].split() == ["index", "size", "capability", "start", "goal", "found", "cost", "expansions"]


@pytest.mark.parametrize("line, message", [
    ("1\tground\t0\t0\t7\n", "expected 6 tab-separated fields"),
    ("1\tlava\t0\t0\t7\t11\n", "unknown terrain 'lava'"),
    ("x\tground\t0\t0\t7\t11\n", "line 1"),
    ("4\tground\t0\t0\t7\t11\n", "agent size 4 is outside 1..3"),
    ("1\tground\t0\t0\t70\t11\n", "lies outside the 8 x 12 map"),
])
def test_bad_problems_give_one_line_and_exit_2(map_file, tmp_path, capsys, line, message):
    bad = tmp_path / "bad.txt"
    bad.write_text(line)
    assert main(["haa", "query", str(map_file), "--problems", str(bad)]) == 2
    error = capsys.readouterr().err
    assert error.startswith("ftr: error:") and message in error and len(error.strip().splitlines()) == 1


def test_missing_files_and_foreign_graphs_are_usage_errors(map_file, problems_file, tmp_path, capsys):
    assert main(["haa", "build", str(tmp_path / "nope.map"), "--out", str(tmp_path / "g.npz")]) == 2
    assert main(["haa", "query", str(map_file), "--problems", str(tmp_path / "nope.txt")]) == 2
    not_a_graph = tmp_path / "g.npz"
    not_a_graph.write_bytes(b"garbage")
    assert main(["haa", "query", str(map_file), "--problems", str(problems_file), "--graph", str(not_a_graph)]) == 2
    errors = capsys.readouterr().err.strip().splitlines()
    assert len(errors) == 3 and all(e.startswith("ftr: error:") for e in errors)


def test_compare_writes_tables_figures_and_findings(shared_dir, tmp_path, capsys):
    out = tmp_path / "haa"
    assert main(["haa", "compare", "--out", str(out), "--maps", "2", "--problems", "3", "--cluster-sizes", "8,16",
                 "--wc3", "0", "--movingai", str(shared_dir / "movingai"), "--no-pictures"]) == 0
    findings = (out / "findings.md").read_text()
    for claim in ("order of magnitude", "3-5%", "6-10%", "half the size", "complete"):
        assert claim in findings
    for name in ("table1_graph_size.md", "table2_path_quality.csv", "figure_graph_size.png",
                 "figure_path_quality.png", "figure_search_effort.png", "runs.csv", "run.json"):
        assert (out / name).stat().st_size > 0
    # The report can be remade from the rows alone, and says which run made them.
    again = tmp_path / "again"
    assert main(["haa", "compare", "--out", str(again), "--from", str(out), "--no-pictures"]) == 0
    assert (again / "table2_path_quality.md").read_text() == (out / "table2_path_quality.md").read_text()
    assert "report remade with" in (again / "findings.md").read_text()


def test_pictures_of_the_toy_map_are_drawn():
    from reference.experiments.haa import TOY_MAP, plot_abstraction, plot_agent_paths, plot_clearance_numbers
    from reference.solutions.haa import build_abstraction

    terrain = terrain_from_strings(TOY_MAP)
    graph = build_abstraction(terrain, cluster_size=5, quality="high", max_size=2)
    numbers = plot_clearance_numbers(terrain)
    assert len(numbers.axes[1].texts) == int((terrain == GROUND).sum())  # a number on every ground cell
    drawn = plot_abstraction(graph)
    assert drawn.axes[0].get_legend() is not None
    paths = plot_agent_paths(terrain, graph, (0, 0), (8, 8), [(1, frozenset({GROUND})), (2, frozenset({GROUND, WATER}))])
    assert len(paths.axes) == 2 and all(ax.get_legend() is not None for ax in paths.axes)
