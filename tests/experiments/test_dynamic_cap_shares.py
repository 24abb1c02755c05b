"""The per-action cap shares of the pattern-database runs (``cap_shares``), on runs written by hand."""

from __future__ import annotations

from reference.experiments.dynamic import cap_shares


def run(method: str, level: int, actions: int, capped: int, reached: bool = True) -> dict:
    return {"method": method, "setting": level, "actions": actions, "capped_global_actions": capped,
            "intermediate_actions": 0, "capped_intermediate_actions": 0, "reached": reached}


LEVEL_5 = [run("pdb G", 5, 100, 10), run("pdb G", 5, 300, 90, reached=False), run("pdb G", 5, 100, 0)]


def test_the_share_counts_actions_not_runs_and_the_solved_share_only_solved_runs() -> None:
    (entry,) = cap_shares(LEVEL_5)
    # 10 + 90 + 0 capped of 100 + 300 + 100 actions: 100 / 500 = 0.2 (per run it would be (0.1 + 0.3 + 0) / 3).
    assert entry["capped_global"] == 0.2
    # The solved runs only: 10 of 200 actions.
    assert entry["capped_global_solved"] == 0.05
    assert (entry["runs"], entry["reached"], entry["actions"]) == (3, 2, 500)


def test_a_group_keeps_its_interval_when_other_levels_or_methods_are_added() -> None:
    # Twenty runs of different shares, so that the bootstrap's percentiles move with the draws.
    level_5 = [run("pdb G", 5, 100 + 7 * i, (13 * i) % 50) for i in range(20)]
    alone = cap_shares(level_5)[0]["capped_global_interval"]
    more = level_5 + [run(method, level, 60 + i, i) for method, level in (("pdb G", 3), ("pdb G+I", 3))
                      for i in range(5)]
    with_others = next(e for e in cap_shares(more) if (e["method"], e["level"]) == ("pdb G", 5))
    assert with_others["capped_global_interval"] == alone
