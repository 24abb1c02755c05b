"""docs/contract.md stays true to the code: its worked examples (section 10) are what the reference
does on the shipped example files, its pictures are those files, and every source file it names exists.

The numbers in the document come from the handout (SPEC §10, worked by hand there); this test reads
them out of the document, so a change to either the document or the code that breaks one shows here.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from reference.solutions import solve
from reference.world.grid import manhattan
from reference.world.instances import load_folder
from reference.world.kitdata import handout_examples_dir
from reference.world.replay import search_contexts

from tests.helpers.handout import handout_cell, handout_cells

REPO = Path(__file__).resolve().parents[1]
CONTRACT = (REPO / "docs" / "contract.md").read_text(encoding="utf-8")
SECTION_10 = CONTRACT[CONTRACT.index("## 10."):CONTRACT.index("## 11.")]


def examples() -> list:
    return load_folder(handout_examples_dir())  # example1, example2, example3, in mazes.scen's order


def table_rows() -> list[tuple[int, str, str, int, str]]:
    rows = re.findall(r"^\| (\d) \| (\w+) \| (\w+) \| (\d+) \| ([A-E1-5 ]+) \|$", SECTION_10, flags=re.M)
    assert len(rows) >= 7, "the worked-example table of section 10 is missing or changed its layout"
    return [(int(e), a, t, int(s), cells.strip()) for e, a, t, s, cells in rows]


@pytest.mark.parametrize("row", table_rows(), ids=lambda r: f"example{r[0]}-{r[1]}-{r[2]}-search{r[3]}")
def test_each_row_of_the_table_is_what_the_reference_expands(row) -> None:
    example, algorithm, ties, search, cells = row
    trace = solve(examples()[example - 1], algorithm, ties)
    assert trace.searches[search - 1].expanded == handout_cells(cells)


def test_the_pictures_are_the_shipped_files() -> None:
    """The three ASCII grids of section 10 (A = agent, T = target, # = blocked) against mazes/handout/."""
    block = SECTION_10[SECTION_10.index("Example 1 (Figures"):SECTION_10.index("They are shipped")]
    lines = [line for line in block.splitlines() if re.match(r"^\s{4}[A-E] ", line)]
    assert len(lines) == 5
    for number, instance in enumerate(examples()):
        rows = [line.split()[1 + 6 * number:6 + 6 * number] for line in lines]
        assert [r.count("A") for r in rows].count(1) == 1
        for r, row in enumerate(rows):
            for c, mark in enumerate(row):
                assert instance.grid.is_blocked((r, c)) == (mark == "#"), (number + 1, r, c)
                assert (mark == "A") == ((r, c) == instance.start)
                assert (mark == "T") == ((r, c) == instance.target)


def test_the_sentences_of_section_10() -> None:
    first, second, third = examples()
    forward, adaptive = solve(first, "forward"), solve(first, "adaptive")
    counts = lambda trace: [len(s.expanded) for s in trace.searches[:2]]  # noqa: E731

    assert "expands 10 cells" in SECTION_10 and "expanding 13 cells" in SECTION_10
    assert counts(forward) == [10, 13]
    assert "E3 → E2 → D2 → C2" in SECTION_10
    assert forward.trajectory[:4] == handout_cells("E3 E2 D2 C2") and forward.trajectory[4] != handout_cell("C3")

    assert "20 expansions over the first two searches against forward's 23" in SECTION_10
    assert counts(adaptive) == [10, 10] and sum(counts(adaptive)) == 20 and sum(counts(forward)) == 23
    assert not set(handout_cells("E1 E2 E3")) & set(adaptive.searches[1].expanded)

    # h = 8 - g after the first search: exactly E3 (8), E2 (7), E1 (6), D2 (6) rise above Manhattan.
    assert "E3 (h = 8), E2 (7), E1 (6) and D2 (6)" in SECTION_10
    learned = list(search_contexts(first.grid, adaptive))[1].learned_h
    raised = {cell: h for cell, h in learned.items() if h > manhattan(cell, first.target)}
    assert raised == {handout_cell("E3"): 8, handout_cell("E2"): 7, handout_cell("E1"): 6, handout_cell("D2"): 6}

    assert "first search expands 9 cells" in SECTION_10
    assert len(solve(first, "backward").searches[0].expanded) == 9

    assert "first move is east (E2 → E3)" in SECTION_10
    assert solve(second, "forward").trajectory[:2] == handout_cells("E2 E3")

    assert "expands 8 cells with `larger_g` and 23 with\n  `smaller_g`" in SECTION_10
    assert solve(third, "forward", "larger_g").expansions == 8
    assert solve(third, "forward", "smaller_g").expansions == 23


def test_every_source_file_it_names_exists() -> None:
    named = set(re.findall(r"`((?:reference|autograder|starter|course|docs|tests|mazes)/[\w./]*)`", CONTRACT))
    assert len(named) > 15
    missing = sorted(path for path in named if not (REPO / path).exists())
    assert not missing, f"docs/contract.md names files that do not exist: {missing}"


def test_part_one_is_the_student_bundle_contract() -> None:
    from reference.cli.release import student_contract

    part_one = student_contract(REPO / "docs" / "contract.md")
    assert "## 11. What a student writes" in part_one and "## 12." not in part_one


def test_the_shipped_examples_are_the_ones_the_autograder_and_the_tests_use() -> None:
    """mazes/handout/ holds the same three instances as the autograder's public set and conftest."""
    from autograder.instances import example_instances
    from tests.helpers.handout import EXAMPLE_1, EXAMPLE_2, EXAMPLE_3

    shipped = examples()
    for mine, theirs, grid in zip(shipped, example_instances(), (EXAMPLE_1, EXAMPLE_2, EXAMPLE_3)):
        assert mine.grid.to_strings() == theirs.grid.to_strings() == grid.to_strings()
        assert (mine.start, mine.target) == (theirs.start, theirs.target)
    # shortest distances on the true grids, by hand: E3 E2 D2 C2 B2 A2 A3 A4 B4 B5 C5 D5 E5 (12 moves);
    # from E2 the same without its first move (11); no walls: the Manhattan distance 4 + 4 (8)
    assert [e.optimal_length for e in shipped] == [12.0, 11.0, 8.0]


SECTION_16 = CONTRACT[CONTRACT.index("## 16."):]
COMPILED = REPO / "reference" / "solutions" / "compiled"


def test_the_table_of_compiled_twins_is_the_compiled_folder() -> None:
    """Section 16's table names, in its second column, exactly the modules of reference/solutions/compiled/
    and its subpackages (paths relative to it; the packages' ``__init__`` files aside)."""
    rows = [line for line in SECTION_16.splitlines() if line.startswith("| ") and not line.startswith("| readable")]
    named = {name for row in rows for name in re.findall(r"`((?:\w+/)?\w+\.py)`", row.split(" | ")[1])}
    shipped = {path.relative_to(COMPILED).as_posix() for path in COMPILED.rglob("*.py") if path.name != "__init__.py"}
    assert named == shipped, f"in the table, not in the folder: {named - shipped}; in the folder, not in the table: {shipped - named}"
    assert "has no twin" not in SECTION_16


@pytest.mark.parametrize("section, twin", [("## 13.", "subgoaling/"), ("## 14.", "haa/"), ("## 15.", "dynamic/")])
def test_paper_sections_name_their_twins(section, twin) -> None:
    """A paper module's section names its compiled twin when it has one, and never says it has none."""
    following = {"## 13.": "## 14.", "## 14.": "## 15.", "## 15.": "## 16."}[section]
    text = CONTRACT[CONTRACT.index(section):CONTRACT.index(following)]
    if (COMPILED / twin).is_dir():
        assert f"reference/solutions/compiled/{twin}" in text
        assert "no compiled twin" not in text and "no twin" not in text
