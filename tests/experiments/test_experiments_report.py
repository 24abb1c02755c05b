"""The report writers every experiment shares: Markdown, CSV and plain-text tables, runs files, findings."""

from __future__ import annotations

import gzip

import pytest

from reference.experiments.report import (
    DOES_NOT_HOLD, HOLDS, INCONCLUSIVE, NOT_MEASURED, Finding, check, ci95, for_every, for_some, findings_list,
    findings_markdown, format_table, open_runs, runs_file, three_significant, to_csv, to_markdown, verdict,
    verdict_of_difference, write_csv, write_runs,
)

TABLE = [{"map": "a", "cost": 1234.5, "share": 0.0123456}, {"map": "b", "cost": 2.0, "share": None}]


def test_markdown_in_the_paper_tables_style():
    # two decimals, right-aligned; a missing key is an empty cell; chosen columns get their own headers
    assert to_markdown(TABLE[:1]) == "| map | cost | share |\n|---:|---:|---:|\n| a | 1234.50 | 0.01 |\n"
    assert to_markdown([{"x": 1}], [("x", "X"), ("y", "Y")]) == "| X | Y |\n|---:|---:|\n| 1 |  |\n"
    assert to_markdown([]) == to_markdown([], [("x", "X")]) == "(no runs)\n"


def test_markdown_in_three_significant_digits_with_the_default_alignment():
    text = to_markdown(TABLE, ["map", "cost", "share"], number=three_significant, rule="---", empty=None)
    assert text == ("| map | cost | share |\n|---|---|---|\n"
                    "| a | 1,234 | 0.0123 |\n"      # 1234.5 rounds half to even: 1,234
                    "| b | 2 | – |\n")
    # with empty=None an empty table is its header alone
    assert to_markdown([], ["map", "cost"], rule="---", empty=None) == "| map | cost |\n|---|---|\n"


def test_csv_columns_are_every_key_in_first_seen_order_with_either_line_end(tmp_path):
    rows = [{"a": 1}, {"b": 2.5, "a": 3}]
    assert to_csv(rows) == "a,b\n1,\n3,2.5\n"
    assert to_csv(rows, line_end="\r\n") == "a,b\r\n1,\r\n3,2.5\r\n"
    assert to_csv([]) == ""
    path = write_csv(rows, tmp_path / "t.csv", line_end="\r\n")
    assert path.read_bytes() == b"a,b\r\n1,\r\n3,2.5\r\n"


def test_csv_with_chosen_columns_keeps_their_order_drops_other_keys_and_always_has_a_header():
    # what standard.py's per_maze.csv and movingai.py's movingai_lines.csv need
    rows = [{"b": 2, "a": "=x", "extra": 9}]
    assert to_csv(rows, columns=["a", "b"]) == "a,b\n'=x,2\n"     # the formula cell made inert
    assert to_csv([], columns=["a", "b"]) == "a,b\n"
    assert to_csv([{"a": 1}], "\r\n", columns=["a", "b"]) == "a,b\r\n1,\r\n"


def test_claims_are_checked_in_order_and_the_unjudged_left_out():
    def shorter(moves):                  # 12 -> 9 moves: shorter
        return Finding("paths get shorter", moves[-1] < moves[0], f"{moves[0]} -> {moves[-1]}")

    def needs_two(moves):
        return None if len(moves) < 3 else Finding("three lookaheads", True, "")

    def longer(moves):
        return Finding("paths get longer", moves[-1] > moves[0], "", because="they get shorter")

    found = check([shorter, needs_two, longer], [12, 9])
    assert [(f.claim, f.verdict) for f in found] == [("paths get shorter", HOLDS), ("paths get longer", DOES_NOT_HOLD)]


def test_findings_list_says_why_a_claim_fails_or_was_not_measured():
    import numpy as np

    found = [Finding("*A*", np.float64(0.0) == 0, "kit: 0 of 5", because="unused when it holds"),
             Finding("*B* (paper: never)", False, "kit: 2 of 90", because="2 are"),
             Finding("*C*", INCONCLUSIVE, "1.0-3.0x", because="unused when inconclusive"),
             Finding("*D*", NOT_MEASURED, "5: holds", because="one d_max only"),
             Finding("*E*", NOT_MEASURED, "no setting")]
    assert findings_list(found) == ("- *A*: **holds** (kit: 0 of 5).\n"
                                    "- *B* (paper: never): **does not hold, because 2 are** (kit: 2 of 90).\n"
                                    "- *C*: **inconclusive** (1.0-3.0x).\n"
                                    "- *D*: **not measured (one d_max only)** (5: holds).\n"
                                    "- *E*: **not measured** (no setting).\n")
    assert "| *D* | not measured | 5: holds |" in findings_markdown(found[3:4])


def test_large_runs_are_gzipped_reproducibly_and_the_stale_other_file_goes(tmp_path):
    rows = [{"instance": i, "moves": 10 * i} for i in range(50)]
    small = write_runs(tmp_path, rows)
    assert small == tmp_path / "runs.csv" and small.read_text() == to_csv(rows)
    large = write_runs(tmp_path, rows, large=100)
    assert large == tmp_path / "runs.csv.gz" and not small.exists()
    assert gzip.decompress(large.read_bytes()).decode() == to_csv(rows)
    first = large.read_bytes()
    assert write_runs(tmp_path, rows, large=100).read_bytes() == first      # mtime 0: the same bytes again
    assert runs_file(tmp_path / "runs.csv") == large                       # only the .gz is there
    with open_runs(large) as handle:
        assert handle.read() == to_csv(rows)
    write_runs(tmp_path, rows, name="runs_512.csv", line_end="\r\n")
    assert (tmp_path / "runs_512.csv").read_bytes().startswith(b"instance,moves\r\n0,0\r\n")
    write_runs(tmp_path, rows)                                              # small again: the .gz goes
    assert not large.exists() and runs_file(tmp_path / "runs.csv") == tmp_path / "runs.csv"


def test_findings_table_and_confidence_interval():
    text = findings_markdown([Finding("A holds", True, "1 < 2"), Finding("B holds", False, "3 > 2")])
    assert text.splitlines()[2:4] == ["| A holds | yes | 1 < 2 |", "| B holds | **no** | 3 > 2 |"]
    assert "docs/verdicts.md" in text.splitlines()[-1]                      # the rule is named under the table
    # mean 20, sample standard deviation 10, t(0.975, 2) = 4.303: 4.303 * 10 / sqrt(3) = 24.84
    assert round(ci95([10.0, 20.0, 30.0]), 2) == 24.84
    assert ci95([5.0]) == 0.0


def test_plain_text_table_aligns_numbers_right_and_words_left():
    assert format_table(["name", "moves", "ms"], [["a", 12, 0.5], ["bb", 7, 1234.25]]).splitlines() == [
        "name  moves       ms",
        "----  -----  -------",
        "a        12    0.500",
        "bb        7  1,234.2",   # .1f of 1234.25 rounds half to even
    ]


def test_verdict_rule_on_intervals_bounds_and_bands():
    # The case: "four times better quality" measured 3.54x with a 95% interval 3.0-4.1x.
    assert verdict(3.0, 4.1, above=4) == INCONCLUSIVE
    assert verdict(4.2, 5.0, above=4) == HOLDS and verdict(2.0, 3.9, above=4) == DOES_NOT_HOLD
    assert verdict(1.0, 2.0, below=3) == HOLDS and verdict(3.5, 4.0, below=3) == DOES_NOT_HOLD
    # A lower bound (the fixed depths' unsolved runs): only its low end is known.
    assert verdict(5.2, 6.1, above=4, bound="lower") == HOLDS
    assert verdict(1.0, 2.0, above=4, bound="lower") == INCONCLUSIVE           # the true value may be above 4
    assert verdict(5.0, 6.0, below=4, bound="lower") == DOES_NOT_HOLD         # at least 5: never below 4
    assert verdict(1.0, 2.0, above=4, bound="upper") == DOES_NOT_HOLD         # at most 2: never above 4
    # A band (HAA*'s "3-5% above optimal"): inside, outside, straddling an edge.
    assert [verdict(lo, hi, above=3, below=5) for lo, hi in ((3.5, 4.5), (5.2, 6.0), (4.5, 5.5), (1.0, 2.0))] == [
        HOLDS, DOES_NOT_HOLD, INCONCLUSIVE, DOES_NOT_HOLD]
    assert verdict_of_difference(-820_871, 96_649, positive=False) == HOLDS  # weak minus strong, mazes, random order
    assert verdict_of_difference(7_705, 27_643, positive=False) == INCONCLUSIVE
    assert for_every([HOLDS, HOLDS]) == HOLDS and for_every([HOLDS, INCONCLUSIVE]) == INCONCLUSIVE
    assert for_every([INCONCLUSIVE, DOES_NOT_HOLD]) == DOES_NOT_HOLD and for_every([]) == INCONCLUSIVE
    assert for_some([DOES_NOT_HOLD, HOLDS]) == HOLDS and for_some([DOES_NOT_HOLD, INCONCLUSIVE]) == INCONCLUSIVE
    assert for_some([DOES_NOT_HOLD, DOES_NOT_HOLD]) == DOES_NOT_HOLD and for_some([]) == INCONCLUSIVE
    with pytest.raises(ValueError, match="side"):
        verdict(1.0, 2.0)
    found = Finding("c", INCONCLUSIVE, "n")
    assert not found.holds and "| c | inconclusive | n |" in findings_markdown([found])
