"""The paper's Table 2 beside the kit's: the levels not built are counted, and their build times
estimated from the built ones, as the paper estimated its levels 0-2 on its 512 x 512 map."""
import numpy as np

from reference.experiments.dynamic import (
    PAPER_TABLE2_512, build_time_law, is_built, table2_beside_paper, unbuilt_levels,
)


def test_the_levels_below_the_lowest_built_are_counted_not_built():
    # A free 2 x 2 block, eight-connected: every cell touches the other three, so level 0 has 4
    # regions (one per cell, 4 x 4 = 16 pairs) and the clique abstraction puts the one 4-clique
    # into a single region at level 1 (1 pair). Level 2 is "built", so levels 0 and 1 are counted.
    blocked = np.zeros((2, 2), dtype=bool)
    built = [{"map": "m", "level": 2, "regions": 1, "size": 1, "seconds": 0.5}]
    rows = unbuilt_levels(blocked, "m", built)
    assert rows == [{"map": "m", "level": 0, "regions": 4, "size": 16},
                    {"map": "m", "level": 1, "regions": 1, "size": 1}]
    assert not any(is_built(row) for row in rows)
    assert unbuilt_levels(blocked, "m", [{**built[0], "level": 0}]) == []      # nothing below level 0
    assert unbuilt_levels(blocked, "other map", built) == []                   # only the map's own levels


def test_an_unbuilt_level_gets_the_fitted_build_time():
    # Built levels that follow seconds = 0.1 R + 0.01 R^2 exactly: R = 10 -> 1 + 1 = 2 s,
    # R = 100 -> 10 + 100 = 110 s. A level of R = 1000 regions then costs 100 + 10,000 = 10,100 s,
    # 2.8 hours; the paper's own columns stand beside it.
    databases = [{"map": "m", "level": 3, "regions": 100, "size": 10_000, "seconds": 110.0},
                 {"map": "m", "level": 4, "regions": 10, "size": 100, "seconds": 2.0},
                 {"map": "m", "level": 1, "regions": 1000, "size": 1_000_000}]
    assert np.allclose(build_time_law(databases), (0.1, 0.01))
    summary = [{"method": "pdb I", "setting": 3, "problems": 4, "reached": 3, "suboptimality": 1.25,
                "expansions_per_action": 2.0}]
    table = table2_beside_paper(databases, summary)
    lines = {line.split("|")[1].strip(): line for line in table.splitlines() if line.startswith("| ")}
    assert "est. 2.8 hours" in lines["1"] and "est. 1 month" in lines["1"]
    assert "| 110 s |" in lines["3"] and "1.25 (3/4)" in lines["3"] and "19 hours" in lines["3"]
    assert set(PAPER_TABLE2_512) <= {int(level) for level in lines if level.isdigit()}


def test_no_estimate_from_fewer_than_two_built_levels():
    assert build_time_law([{"regions": 10, "seconds": 2.0}, {"regions": 5, "size": 25}]) is None
