"""The paper's own construction (soft obstacles), its problem set, and the speed tables."""

from __future__ import annotations

import math
import subprocess
import sys

import numpy as np
import pytest

from reference.experiments.haa import ratio_interval, speed_table
from reference.experiments.haa_paper import PAPER_MASKS, paper_problems
from reference.solutions.haa import annotated_astar
from reference.solutions.haa.capabilities import capability_of
from reference.solutions.haa.multiterrain import with_soft_obstacles
from reference.world.grid import cost_value
from reference.world.terrain import GROUND, OUT_OF_BOUNDS, TREES


def open_map(height: int = 60, width: int = 60) -> np.ndarray:
    terrain = np.full((height, width), GROUND, dtype=np.uint8)
    terrain[20:40, 30] = OUT_OF_BOUNDS  # a wall
    return terrain


@pytest.mark.parametrize("probability", [0.1, 0.3, 0.5])
def test_soft_obstacles_turn_each_tile_with_the_given_probability(probability):
    terrain = open_map()
    soft = with_soft_obstacles(terrain, "m", probability, seed=3)
    traversable = terrain != OUT_OF_BOUNDS
    share = (soft[traversable] == TREES).mean()
    # a binomial share of 3580 tiles: 4 standard deviations is at most 0.034
    assert abs(share - probability) < 4 * math.sqrt(probability * (1 - probability) / traversable.sum())
    assert (soft[~traversable] == OUT_OF_BOUNDS).all()
    assert set(np.unique(soft[traversable])) <= {GROUND, TREES}


def test_soft_obstacles_are_seeded_and_zero_is_the_map_itself():
    terrain = open_map()
    assert (with_soft_obstacles(terrain, "m", 0.0, seed=1) == terrain).all()
    assert (with_soft_obstacles(terrain, "m", 0.2, seed=1) == with_soft_obstacles(terrain, "m", 0.2, seed=1)).all()
    assert (with_soft_obstacles(terrain, "m", 0.2, seed=1) != with_soft_obstacles(terrain, "n", 0.2, seed=1)).any()
    with pytest.raises(ValueError, match="probability"):
        with_soft_obstacles(terrain, "m", 1.5)


def test_paper_problems_pair_a_large_and_a_small_agent_on_one_valid_problem():
    terrain = with_soft_obstacles(open_map(), "m", 0.2, seed=5)
    problems = paper_problems(terrain, 6, seed=9)
    assert len(problems) == 12
    for large, small in zip(problems[::2], problems[1::2]):
        assert (large.size, small.size) == (2, 1)
        assert (large.mask, large.start, large.goal) == (small.mask, small.start, small.goal)
        assert large.mask in PAPER_MASKS
        for problem in (large, small):  # the optimal cost is AA*'s (the readable A*, a second implementation)
            found = annotated_astar(terrain, problem.start, problem.goal, problem.size, capability_of(problem.mask))
            assert found.cost == problem.optimal
        assert cost_value(small.optimal) <= cost_value(large.optimal)  # the small agent goes wherever the large one does


def test_ratio_interval_and_speed_table_by_hand():
    ratio, low, high = ratio_interval([2.0, 4.0, 6.0], [1.0, 2.0, 3.0])
    assert (ratio, low, high) == (2.0, 2.0, 2.0)  # every resample has the ratio 2
    ratio, low, high = ratio_interval([10.0, 1.0], [1.0, 1.0])
    assert ratio == 5.5 and low < ratio < high <= 10.0
    # two problems: lengths 10 and 120; AA* 100 and 1000 expansions, HAA* 50 and 100
    runs = [dict(map="m", problem=0, algorithm="AA*", cluster_size="", quality="", optimal=10.0, expansions=100,
                 compiled_seconds=2e-6),
            dict(map="m", problem=1, algorithm="AA*", cluster_size="", quality="", optimal=120.0, expansions=1000,
                 compiled_seconds=20e-6),
            dict(map="m", problem=0, algorithm="HAA*", cluster_size=10, quality="high", optimal=10.0, expansions=50,
                 compiled_seconds=4e-6),
            dict(map="m", problem=1, algorithm="HAA*", cluster_size=10, quality="high", optimal=120.0, expansions=100,
                 compiled_seconds=2e-6)]
    table = {row["optimal length"]: row for row in speed_table(runs, 10, "high")}
    assert set(table) == {"0-25", "100-150", "all"}
    assert table["0-25"]["expansions AA*/HAA*"] == 2.0 and table["0-25"]["time AA*/HAA*"] == 0.5
    assert table["100-150"]["expansions AA*/HAA*"] == 10.0 and table["100-150"]["time AA*/HAA*"] == pytest.approx(10.0)
    assert table["all"]["expansions AA*/HAA*"] == pytest.approx(1100 / 150)
    assert table["all"]["time AA*/HAA*"] == pytest.approx(22 / 6)


def test_compare_paper_construction_end_to_end(shared_dir, tmp_path):
    if not any((shared_dir / "movingai" / "bgmaps").glob("*.map")):
        pytest.skip("no Baldur's Gate maps")
    out = tmp_path / "paper"
    done = subprocess.run([sys.executable, "-m", "reference.cli", "haa", "compare", "--construction", "paper",
                           "--maps", "1", "--experiments", "4", "--so", "0,20", "--cluster-sizes", "10",
                           "--movingai", str(shared_dir / "movingai"), "--out", str(out)],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    findings = (out / "findings.md").read_text()
    assert "order of magnitude" in findings and "SO 0, 20%" in findings and "16 problems" in findings
    for name in ("figure_graph_size_by_so.png", "figure_path_quality_by_so.png", "table3_speed_by_length_so20.csv"):
        assert (out / name).is_file()
    bad = subprocess.run([sys.executable, "-m", "reference.cli", "haa", "compare", "--construction", "paper",
                          "--so", "0,x", "--out", str(out)], capture_output=True, text=True)
    assert bad.returncode != 0 and "--so" in bad.stderr and len(bad.stderr.strip().splitlines()) == 1


def test_quality_findings_judge_each_cell_on_the_texts_bands():
    # High quality, band 3-5%: 4.0 ± 0.5 lies inside (3.5-4.5), 7.0 ± 0.2 outside, 5.2 ± 0.4 across the
    # edge 5 (4.8-5.6): one inside of three is not "most cases", nor are the outside ones: inconclusive.
    # Low quality, band 6-10%: 8 ± 1 and 9 ± 0.5 inside, 12 ± 1 outside: two of three, the claim holds.
    from reference.experiments.haa_paper import quality_findings

    def cell(so, quality, error, half):
        return {"SO [%]": so, "cluster size": 10, "quality": quality, "error [%]": error, "error 95% half-width": half}

    rows = [cell(0, "high", 4.0, 0.5), cell(10, "high", 7.0, 0.2), cell(20, "high", 5.2, 0.4),
            cell(0, "low", 8.0, 1.0), cell(10, "low", 9.0, 0.5), cell(20, "low", 12.0, 1.0)]
    high, low = quality_findings(rows)
    assert high.claim.startswith("HQ paths are 3-5% above optimal") and high.verdict == "inconclusive"
    assert "1 of 3 cells inside, 1 outside, 1 across an edge" in high.evidence
    assert low.claim.startswith("LQ paths are 6-10% above optimal") and low.verdict == "holds"
    rows[2] = cell(20, "high", 8.0, 0.4)                          # now two of three outside the band
    assert quality_findings(rows)[0].verdict == "does not hold"


def haa_runs(errors: dict[tuple[int, int], list[float]], cluster_sizes=(10, 15, 20)) -> list[dict]:
    """HAA* queries with the given % above optimal per (SO, agent size): problem i of that SO and size
    has errors[so, size][i] for every cluster size and quality (optimal length 100), beside one AA*
    query per problem (numbered as the paper study numbers them: a large agent's, then a small one's)."""
    rows = []
    for (so, size), per_problem in errors.items():
        for i, error in enumerate(per_problem):
            problem = {"so": so, "map": f"m{so}", "problem": 2 * i + (size == 1), "size": size, "optimal": 100.0,
                       "expansions": 10, "seconds": math.nan}
            rows.append({**problem, "algorithm": "AA*", "length": 100.0})
            rows += [{**problem, "algorithm": "HAA*", "cluster_size": cs, "quality": q, "length": 100.0 + error}
                     for cs in cluster_sizes for q in ("high", "low")]
    return rows


def paper_tables(runs):
    from reference.experiments.haa_paper import PaperTables, quality_by_so

    return PaperTables(runs, quality_by_so(runs), [])


@pytest.mark.parametrize("so50, expected", [
    # SO 0% 10 and SO 20% 5 on every problem and query; SO 50% 8: each level minus SO 20% is +5 and +3
    # with no spread, above 0
    ([8.0] * 4, "holds"),
    ([3.0] * 4, "does not hold"),          # SO 50% minus SO 20%: -2, below 0
    # SO 50% 2, 10, 2, 10 (mean 6): +1, standard error sd(2, 10, 2, 10) / 2 = 4.62 / 2 = 2.31, so
    # +1 +- 4.5 crosses 0
    ([2.0, 10.0] * 2, "inconclusive"),
])
def test_the_error_lowest_at_so_20_is_judged_on_each_levels_difference(so50, expected):
    from reference.experiments.haa_paper import error_lowest_at_so_20

    runs = haa_runs({(0, 1): [10.0] * 4, (20, 1): [5.0] * 4, (50, 1): so50})
    finding = error_lowest_at_so_20(paper_tables(runs))
    assert finding is not None and finding.verdict == expected, finding


@pytest.mark.parametrize("small50, expected", [
    # CS15: small agents 5 -> 3 (SO 20% -> 50%), large 6 -> 11, every problem, both qualities
    ([3.0] * 4, "holds"),
    ([7.0] * 4, "does not hold"),          # small agents get worse: +2
    ([1.0, 9.0] * 2, "inconclusive"),      # mean 5: 0 +- 1.96 x 4.62 / 2 = 4.5
])
def test_small_and_large_agents_beyond_so_20_are_four_differences(small50, expected):
    from reference.experiments.haa_paper import small_agents_improve

    runs = haa_runs({(20, 1): [5.0] * 4, (50, 1): small50, (20, 2): [6.0] * 4, (50, 2): [11.0] * 4})
    finding = small_agents_improve(paper_tables(runs))
    assert finding is not None and finding.verdict == expected, finding
    assert "SO 50% minus SO 20% (95% CI): high small" in finding.evidence
