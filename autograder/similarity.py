"""Copy detection across a class: which submissions' code overlaps, most similar pair first.

The code compared is the code the grader keeps (:func:`autograder.submission.load_submission`'s
``all_sources``): every module of a folder, or the kept definitions of a notebook's code cells, never
the notebook's JSON, markdown or outputs. So a folder and a notebook holding the same code compare as
the same code. Code the course hands out, the starter files and the release notebook's given code
(:func:`boilerplate_sources`), never counts: every stretch of it is removed from each submission's
fingerprints before any comparison.

The fingerprints are MOSS's winnowing as `copydetect <https://pypi.org/project/copydetect/>`_ (MIT)
implements it: the code is tokenized (pygments) with every name, string and comment reduced to one
letter, so renamed variables and changed comments do not hide a copy; the k-grams of the token text
are hashed (:func:`kgram_hashes`, the same in every run) and winnowed. A pair's two *shares* are the
fraction of each side's code that lies in stretches found in the other; two submissions' ``similarity``
is the smaller one, a submission's against a corpus entry is the submission's share (the part of the
student's code found in the entry). Fingerprints in half the class are discounted
(:func:`common_hashes`), students sharing one source are grouped (:func:`clusters`), and student
input is bounded (:data:`MAX_FILE_CHARACTERS`, :data:`MAX_TOKENS`, :data:`PAIR_SECONDS`).
``copydetect`` is imported only here, so grading never depends on it.

A high score is a reason for a person to look, never a finding: solutions written from one handout
look alike, and the report says so.

>>> documents = [code_document("a", "class", {"a.py": "def f(x):\\n    return [x * i for i in range(10) if i % 2]\\n"}),
...              code_document("b", "class", {"b.py": "def g(y):\\n    return [y * j for j in range(10) if j % 2]\\n"})]
>>> pair = compare_documents(documents[0], documents[1])
>>> round(pair.similarity, 2)
1.0
"""

from __future__ import annotations

import csv
import io
import itertools
import json
import math
import os
import re
import time
from pathlib import Path
from typing import Iterable, Sequence

import numpy as np

from reference.world.fileio import spreadsheet_row

from .similarity_results import Cluster, CodeDocument, Fingerprint, PairResult, SimilarityReport
from .submission import (MAX_BYTES, MAX_FILES, SubmissionError, Unreadable, list_folder, load_submission,
                         notebook_statements, read_regular)

#: copydetect's defaults: a match must span 25 characters of token text ("noise threshold"), and one
#: of at least 30 is always found ("guarantee threshold": the winnowing window is 30 - 25 + 1 = 6).
NOISE_CHARACTERS = 25
GUARANTEE_CHARACTERS = 30
#: Bounds (student input is hostile: three 4.9 MB one-line modules once kept this busy past 600 s):
#: each source file is cut at MAX_FILE_CHARACTERS before it is tokenized, each submission's token
#: text at MAX_TOKENS (a real submission has 3,000-15,000), and the side-by-side regions of one pair
#: get PAIR_SECONDS; every cut is listed in the report.
MAX_FILE_CHARACTERS = 200_000
MAX_TOKENS = 100_000
PAIR_SECONDS = 2.0
#: A fingerprint found in at least COMMON_SHARE of the class's submissions (and in COMMON_MINIMUM or
#: more, MOSS's default -m) is discounted: a template, not evidence (:func:`common_hashes`).
COMMON_SHARE = 0.5
COMMON_MINIMUM = 10
#: Pairs at least this similar join a cluster (:func:`clusters`).
CLUSTER_SIMILARITY = 0.5
#: Pairs drawn side by side in the HTML report (every pair is in the CSV).
DEFAULT_SHOWN_PAIRS = 40
HEADER = "# ==== {} ===="


class SimilarityError(ValueError):
    """A folder that cannot be compared (missing, empty), or copydetect missing; one line says why."""


def require_copydetect():
    """copydetect, or a SimilarityError saying how to install it."""
    try:
        import copydetect
    except ImportError:
        raise SimilarityError("ftr similarity needs the copydetect package: pip install 'ftr-kit[similarity]'") from None
    return copydetect


# -- what is compared --------------------------------------------------------------------------------

def joined_code(sources: dict[str, str]) -> tuple[str, list[tuple[str, int]]]:
    """The sources as one text, each under a header comment (comments never count in a comparison).

    >>> joined_code({"heap.py": "x = 1\\n", "replanning.py": "y = 2"})[1]
    [('heap.py', 1), ('replanning.py', 3)]
    """
    lines: list[str] = []
    starts: list[tuple[str, int]] = []
    for name, source in sources.items():
        starts.append((name, len(lines) + 1))
        lines.append(HEADER.format(name))
        lines.extend(source.rstrip("\n").splitlines())
    return "\n".join(lines) + "\n", starts


def kgram_hashes(text: str, k: int) -> np.ndarray:
    """A hash of every k-gram of ``text`` (``len(text) - k + 1`` of them), the same in every run.

    A polynomial hash of the k code points (arithmetic modulo 2**64, NumPy's wrap-around), then
    splitmix64's finaliser to spread the bits, kept to 52 bits so that the winnowing, which may
    compare them as floats, compares them exactly. Vectorised over all k-grams: k passes over the
    text instead of one Python string slice and hash per position.

    >>> hashes = kgram_hashes("abcabc", 3)
    >>> len(hashes), bool(hashes[0] == hashes[3]), bool(hashes[0] == hashes[1])
    (4, True, False)
    """
    codes = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32).astype(np.uint64)
    count = codes.size - k + 1
    if count <= 0:
        return np.array([], dtype=np.int64)
    value = np.zeros(count, dtype=np.uint64)
    with np.errstate(over="ignore"):
        for offset in range(k):
            value = value * np.uint64(1_000_003) + codes[offset:offset + count]
        value ^= value >> np.uint64(30)
        value *= np.uint64(0xBF58476D1CE4E5B9)
        value ^= value >> np.uint64(27)
        value *= np.uint64(0x94D049BB133111EB)
        value ^= value >> np.uint64(31)
    return (value >> np.uint64(12)).astype(np.int64)


def fingerprint_text(name: str, text: str, k: int, window: int, boilerplate: np.ndarray | None = None,
                     token_limit: int | None = None) -> tuple[Fingerprint, int]:
    """Tokenize ``text`` (copydetect's pygments filter: names to one letter, comments dropped), hash
    every k-gram (:func:`kgram_hashes`), winnow (copydetect's, window ``window``) and drop the
    ``boilerplate`` hashes. The token text is cut at ``token_limit`` characters; returns the
    fingerprint and the token text's length before any cut."""
    from copydetect.utils import filter_code, get_token_coverage, winnow

    filtered, offsets = filter_code(text, f"{name}.py")
    full_length = len(filtered)
    if token_limit is not None and full_length > token_limit:
        filtered = filtered[:token_limit]
    hashes, positions = winnow(kgram_hashes(filtered, k), window, remove_duplicates=False)
    if boilerplate is not None and len(boilerplate) and len(hashes):
        keep = ~np.isin(hashes, boilerplate)
        hashes, positions = hashes[keep], positions[keep]
    index: dict[int, list[int]] = {}
    for hash_value, position in zip(hashes.tolist(), positions.tolist()):
        index.setdefault(hash_value, []).append(position)
    coverage = int(get_token_coverage(index, k, len(filtered)))
    return Fingerprint(f"{name}.py", text, filtered, offsets, set(index), index, k, coverage), full_length


def code_document(name: str, origin: str, sources: dict[str, str], boilerplate: np.ndarray | None = None,
                  noise: int = NOISE_CHARACTERS, guarantee: int = GUARANTEE_CHARACTERS,
                  cuts: list[str] | None = None) -> CodeDocument:
    """Fingerprint ``sources`` (name -> Python source), less every k-gram of ``boilerplate``.

    Bounded (student input is hostile): each source is cut at :data:`MAX_FILE_CHARACTERS` before it is
    tokenized and the whole token text at :data:`MAX_TOKENS`; each cut is added to ``cuts``."""
    kept: dict[str, str] = {}
    for source_name, source in sources.items():
        if len(source) > MAX_FILE_CHARACTERS:
            _note(cuts, f"{name}: {source_name} has {len(source):,} characters; the first {MAX_FILE_CHARACTERS:,} compared")
            source = source[:MAX_FILE_CHARACTERS]
        kept[source_name] = source
    text, starts = joined_code(kept)
    fingerprint, tokens = fingerprint_text(name, text, noise, guarantee - noise + 1, boilerplate, MAX_TOKENS)
    if tokens > MAX_TOKENS:
        _note(cuts, f"{name}: {tokens:,} tokens of code; the first {MAX_TOKENS:,} compared")
    return _with_fingerprint(CodeDocument(name, origin, text, starts), fingerprint)


def _note(cuts: list[str] | None, line: str) -> None:
    if cuts is not None:
        cuts.append(line)


def _with_fingerprint(document: CodeDocument, fingerprint: Fingerprint) -> CodeDocument:
    """``document`` holding ``fingerprint``, with its NumPy arrays (every place of every hash, in the
    order of the text)."""
    places = sorted((p, h) for h, at in fingerprint.hash_idx.items() for p in at)
    document.fingerprint = fingerprint
    document.occurrences = np.array([h for _, h in places], dtype=np.int64)
    document.positions = np.array([p for p, _ in places], dtype=np.int64)
    document.hashes = np.unique(document.occurrences)
    return document


def common_hashes(documents: Sequence[CodeDocument], share: float) -> tuple[np.ndarray, int]:
    """The fingerprints found in at least ``share`` of ``documents`` (and in at least
    :data:`COMMON_MINIMUM` of them), and that number of documents.

    MOSS's ``-m`` rule, by share of the class: code that half the class has is a template someone
    handed out or a snippet everyone found, not evidence that two of them copied.
    """
    needed = max(COMMON_MINIMUM, math.ceil(share * len(documents)))
    if not documents or needed > len(documents):
        return np.array([], dtype=np.int64), needed
    values, counts = np.unique(np.concatenate([d.hashes for d in documents]), return_counts=True)
    return values[counts >= needed], needed


def without_hashes(document: CodeDocument, removed: np.ndarray) -> CodeDocument:
    """``document`` with the fingerprints ``removed`` dropped: they neither match nor count in its size
    (its token coverage is recomputed), as copydetect treats boilerplate."""
    from copydetect.utils import get_token_coverage

    if removed.size == 0 or not np.isin(document.hashes, removed).any():
        return document
    old = document.fingerprint
    dropped = set(removed.tolist())
    index = {h: at for h, at in old.hash_idx.items() if h not in dropped}
    coverage = int(get_token_coverage(index, old.k, len(old.filtered_code)))
    fingerprint = Fingerprint(old.filename, old.raw_code, old.filtered_code, old.offsets, set(index), index,
                              old.k, coverage)
    return _with_fingerprint(CodeDocument(document.name, document.origin, document.text, document.sources), fingerprint)


def boilerplate_hashes(sources: dict[str, str], noise: int = NOISE_CHARACTERS) -> np.ndarray:
    """Every k-gram hash of the given code's token text, sorted and unique (no winnowing: all of it is
    removed)."""
    from copydetect.utils import filter_code

    if not sources:
        return np.array([], dtype=np.int64)
    text, _ = joined_code(sources)
    filtered, _offsets = filter_code(text, "boilerplate.py")
    return np.unique(kgram_hashes(filtered, noise))


def load_code(path: Path) -> dict[str, str]:
    """The code of a submission (as the grader keeps it) or of a corpus entry, as name -> source.

    A corpus entry need not be laid out like a submission: a folder of any ``.py`` files and
    notebooks, a single ``.py`` file or a notebook. Raises :class:`SubmissionError` when there is no code.
    """
    try:
        return dict(load_submission(path).all_sources)
    except SubmissionError:
        if path.is_file() and path.suffix == ".py":
            return {path.name: path.read_text(encoding="utf-8", errors="replace")}
        if not path.is_dir():
            raise
    sources: dict[str, str] = {}
    total = 0
    for entry in list_folder(path).entries:  # the grader's own listing: no link followed, no .venv
        if entry.kind != "file" or not entry.relative.endswith((".py", ".ipynb")):
            continue
        total += entry.size
        if len(sources) >= MAX_FILES or total > MAX_BYTES:   # the grader's limits on what it reads
            break
        try:
            data = read_regular(path, entry.relative, MAX_BYTES, entry.identity)
        except Unreadable:
            continue
        if entry.relative.endswith(".py"):
            sources[entry.relative] = data.decode("utf-8", errors="replace")
        else:
            sources.update({f"{entry.relative} {s['cell']}": s["source"] for s in _notebook_code(data)})
    if not sources:
        raise SubmissionError(f"{path}: no Python files or notebooks in it")
    return sources


def _notebook_code(data: bytes) -> list[dict]:
    try:
        notebook = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return []
    return notebook_statements(notebook) if isinstance(notebook, dict) else []


# -- the code handed out -----------------------------------------------------------------------------

SOLUTION_BLOCK = re.compile(r"^([ \t]*)### BEGIN SOLUTION[ \t]*\n.*?^[ \t]*### END SOLUTION[ \t]*$", re.S | re.M)
HIDDEN_BLOCK = re.compile(r"^[ \t]*### BEGIN HIDDEN TESTS[ \t]*\n.*?^[ \t]*### END HIDDEN TESTS[ \t]*\n?", re.S | re.M)


def release_code(source_notebook: dict) -> dict:
    """The release notebook nbgrader makes from the source notebook: each solution block replaced by
    nbgrader's stub, hidden tests dropped (what ``nbgrader generate_assignment`` does to code cells).

    >>> cell = {"cell_type": "code", "source": "def f():\\n    ### BEGIN SOLUTION\\n    return 1\\n    ### END SOLUTION"}
    >>> release_code({"cells": [cell]})["cells"][0]["source"]
    'def f():\\n    # YOUR CODE HERE\\n    raise NotImplementedError()'
    """
    cells = []
    for cell in source_notebook.get("cells", []):
        if cell.get("cell_type") == "code":
            source = cell.get("source", "")
            source = "".join(source) if isinstance(source, list) else source
            source = SOLUTION_BLOCK.sub(lambda m: f"{m[1]}# YOUR CODE HERE\n{m[1]}raise NotImplementedError()", source)
            cell = {**cell, "source": HIDDEN_BLOCK.sub("", source)}
        cells.append(cell)
    return {**source_notebook, "cells": cells}


def boilerplate_sources(extra: Sequence[Path] = ()) -> dict[str, str]:
    """The code handed out, which never counts: ``starter/*.py``, the release notebook's given code
    (made from ``course/source``), and each of ``extra`` (a folder, ``.py`` file or notebook). The
    kit's own parts are found in a source checkout; an installed wheel has neither."""
    from reference.world.kitdata import kit_path

    sources: dict[str, str] = {}
    starter = kit_path("starter")
    for file in sorted(starter.glob("*.py")) if starter.is_dir() else []:
        sources[f"starter/{file.name}"] = file.read_text(encoding="utf-8")
    source_notebook = kit_path("course", "source", "replanning", "replanning.ipynb")
    if source_notebook.is_file():
        release = release_code(json.loads(source_notebook.read_text(encoding="utf-8")))
        for statement in notebook_statements(release):
            key = f"release notebook {statement['cell']}"
            sources[key] = sources.get(key, "") + statement["source"] + "\n"
    for path in extra:
        try:
            sources.update({f"{path.name}/{name}": text for name, text in load_code(Path(path)).items()})
        except SubmissionError as error:
            raise SimilarityError(f"--boilerplate {error}") from None
    return sources


# -- comparing ---------------------------------------------------------------------------------------

def shares(first: CodeDocument, second: CodeDocument) -> tuple[int, float, float]:
    """``(matched tokens of first, share of first, share of second)``: copydetect's ``compare_files``
    numbers, computed with a few whole-array NumPy operations.

    ``compare_files`` builds one small array per shared fingerprint, about a millisecond for a pair of
    near copies; this finds every place of every shared hash with one binary search per side (several
    times faster, which a class of 500, 124,750 pairs, needs). The slices and the token coverage are
    copydetect's own (``get_copied_slices``, ``get_token_coverage``); the test suite checks
    the numbers equal ``compare_files``'s on every pair of its fixtures.
    """
    from copydetect.utils import get_copied_slices

    shared = np.intersect1d(first.hashes, second.hashes, assume_unique=True)
    if shared.size == 0:
        return 0, 0.0, 0.0
    results = []
    for document in (first, second):
        # which occurrences hold a shared hash: a binary search in the sorted shared hashes
        found = np.minimum(np.searchsorted(shared, document.occurrences), shared.size - 1)
        places = document.positions[shared[found] == document.occurrences]
        slices = get_copied_slices(places, document.fingerprint.k)
        tokens = int(np.sum(slices[1] - slices[0]))
        coverage = document.fingerprint.token_coverage
        results.append((tokens, tokens / coverage if len(document.fingerprint.filtered_code) > 0 else 0.0))
    return results[0][0], float(results[0][1]), float(results[1][1])


def compare_documents(first: CodeDocument, second: CodeDocument, regions: bool = False) -> PairResult:
    """Compare two fingerprinted documents (:func:`shares`); with ``regions``, also where the matches
    lie (copydetect's ``compare_files``), labelled so that a stretch and its match share a label."""
    kind = "corpus" if "corpus" in (first.origin, second.origin) else "class"
    tokens, share_a, share_b = shares(first, second)
    result = PairResult(first.name, second.name, kind, share_a, share_b, tokens)
    if regions and tokens:
        from copydetect import compare_files

        _tokens, _shares, slices = compare_files(first.fingerprint, second.fingerprint)
        result.regions_a, result.regions_b = _labelled_regions(first.fingerprint, second.fingerprint, slices,
                                                               time.monotonic() + PAIR_SECONDS)
    return result


#: At most this many places of one fingerprint on each side vote for the labels (a file that repeats
#: one line 10,000 times would otherwise cast 10,000 x 10,000 votes).
VOTING_PLACES = 16


def _labelled_regions(first, second, slices, deadline: float = float("inf")) -> tuple[list, list]:
    """Pair up copydetect's copied slices: each slice of the first side gets the label of the slice of
    the second side that holds most of its shared fingerprints; a slice of the second side that no
    slice chose takes the label of the first side's slice that holds most of its fingerprints. Past
    ``deadline`` (``time.monotonic()``) the voting stops; a slice with no vote gets a label of its own."""
    from copydetect.utils import find_fingerprint_overlap, get_copied_slices

    index_a, index_b = find_fingerprint_overlap(first.hashes, second.hashes, first.hash_idx, second.hash_idx)
    filtered_a, filtered_b = get_copied_slices(index_a, first.k), get_copied_slices(index_b, second.k)

    def slice_of(position: int, filtered: np.ndarray) -> int:
        return int(np.searchsorted(filtered[0], position, side="right") - 1)

    votes: dict[tuple[int, int], int] = {}   # (slice of first, slice of second) -> shared fingerprints
    for hash_value in sorted(first.hashes & second.hashes):
        if time.monotonic() > deadline:
            break
        for position_a in first.hash_idx[hash_value][:VOTING_PLACES]:
            for position_b in second.hash_idx[hash_value][:VOTING_PLACES]:
                key = (slice_of(position_a, filtered_a), slice_of(position_b, filtered_b))
                votes[key] = votes.get(key, 0) + 1
    labels_a: dict[int, int] = {}
    labels_b: dict[int, int] = {}
    for slice_a in sorted({a for a, _ in votes}):
        slice_b = max((b for a, b in votes if a == slice_a), key=lambda b: votes[slice_a, b])
        labels_a[slice_a] = labels_b.setdefault(slice_b, len(labels_b) + 1)
    for slice_b in sorted({b for _, b in votes} - set(labels_b)):
        slice_a = max((a for a, b in votes if b == slice_b), key=lambda a: votes[a, slice_b])
        labels_b[slice_b] = labels_a[slice_a]
    raw_a, raw_b = slices
    unvoted = itertools.count(len(labels_b) + 1)
    regions_a = [(int(raw_a[0][i]), int(raw_a[1][i]), labels_a[i] if i in labels_a else next(unvoted))
                 for i in range(raw_a.shape[1])]
    regions_b = [(int(raw_b[0][i]), int(raw_b[1][i]), labels_b[i] if i in labels_b else next(unvoted))
                 for i in range(raw_b.shape[1])]
    return regions_a, regions_b


def clusters(pairs: Sequence[PairResult], threshold: float = CLUSTER_SIMILARITY) -> list[Cluster]:
    """The connected groups of the graph whose edges are the pairs at least ``threshold`` similar, with
    two students or more; largest first. A corpus entry joins the students who copied it.

    >>> pairs = [PairResult("ada", "corpus/web", "corpus", 0.9, 0.2, 100),
    ...          PairResult("bob", "corpus/web", "corpus", 0.8, 0.2, 90), PairResult("ada", "bob", "class", 0.3, 0.3, 10)]
    >>> clusters(pairs)
    [Cluster(students=['ada', 'bob'], sources=['corpus/web'], lowest=0.8, highest=0.9)]
    """
    parent: dict[str, str] = {}

    def root(name: str) -> str:
        while parent.setdefault(name, name) != name:
            parent[name] = parent[parent[name]]           # path halving
            name = parent[name]
        return name

    joining = [p for p in pairs if p.similarity >= threshold]
    for pair in joining:
        parent[root(pair.a)] = root(pair.b)
    groups: dict[str, list[str]] = {}
    for name in sorted(parent):
        groups.setdefault(root(name), []).append(name)
    found = []
    for members in groups.values():
        students = [m for m in members if not m.startswith("corpus/")]
        if len(students) < 2:
            continue
        inside = [p.similarity for p in joining if p.a in members]
        found.append(Cluster(students, [m for m in members if m.startswith("corpus/")], min(inside), max(inside)))
    return sorted(found, key=lambda c: (-len(c.students), -c.highest, c.students))


def _documents(entries: Iterable[Path], origin: str, boilerplate: np.ndarray, skipped: list[str],
               noise: int, guarantee: int, cuts: list[str]) -> list[CodeDocument]:
    documents = []
    for path in entries:
        name = path.name if origin == "class" else f"corpus/{path.name}"
        try:
            sources = load_code(path)
        except (SubmissionError, OSError) as error:
            skipped.append(f"{name}: {error}")
            continue
        documents.append(code_document(name, origin, sources, boilerplate, noise, guarantee, cuts))
    return documents


def compare_folder(submissions: str | os.PathLike, corpus: str | os.PathLike | None = None,
                   extra_boilerplate: Sequence[Path] = (), noise: int = NOISE_CHARACTERS,
                   guarantee: int = GUARANTEE_CHARACTERS, progress: bool = False,
                   common: float = COMMON_SHARE, cluster_at: float = CLUSTER_SIMILARITY) -> SimilarityReport:
    """Compare every pair of submissions in ``submissions`` (the entries ``ftr grade-all`` grades),
    and each of them with every entry of ``corpus``; the handed-out code never counts, and code found
    in at least ``common`` of the submissions is discounted (:func:`common_hashes`; above 1: none).

    The same input gives the same scores, bit for bit: the hashes are a fixed function of the text
    (:func:`kgram_hashes`), the entries are read in sorted order, every set is iterated sorted or
    not at all, and the comparisons run in one process in a fixed order.
    """
    from tqdm import tqdm

    from .batch import submission_entries

    require_copydetect()
    if guarantee < noise or noise < 1:
        raise SimilarityError(f"the guarantee threshold ({guarantee}) must be at least the noise threshold ({noise}) >= 1")
    if not common > 0 or not 0 < cluster_at <= 1:
        raise SimilarityError(f"--common ({common}) must be above 0 and --cluster-at ({cluster_at}) in (0, 1]")
    folders = [Path(submissions)] + ([Path(corpus)] if corpus is not None else [])
    for folder in folders:
        if not folder.is_dir():
            raise SimilarityError(f"{folder}: not a folder of submissions")
    handed_out = boilerplate_sources(extra_boilerplate)
    removed = boilerplate_hashes(handed_out, noise)
    skipped: list[str] = []
    cuts: list[str] = []
    class_documents = _documents(sorted(submission_entries(folders[0])), "class", removed, skipped, noise, guarantee, cuts)
    corpus_documents = (_documents(sorted(submission_entries(folders[1])), "corpus", removed, skipped, noise, guarantee, cuts)
                        if corpus is not None else [])
    template, needed = common_hashes(class_documents, common)
    class_documents = [without_hashes(d, template) for d in class_documents]
    corpus_documents = [without_hashes(d, template) for d in corpus_documents]
    todo = list(itertools.combinations(class_documents, 2)) + list(itertools.product(class_documents, corpus_documents))
    began = time.perf_counter()
    pairs = [compare_documents(a, b) for a, b in tqdm(todo, desc="comparing", unit="pair", disable=not progress)]
    seconds = time.perf_counter() - began
    pairs.sort(key=lambda p: (-p.similarity, -max(p.share_a, p.share_b), p.a, p.b))
    documents = {d.name: d for d in class_documents + corpus_documents}
    return SimilarityReport(pairs, documents, skipped, list(handed_out), seconds,
                            {"noise": noise, "guarantee": guarantee, "submissions": len(class_documents),
                             "corpus": len(corpus_documents), "common": common, "common_needed": needed,
                             "common_fingerprints": int(template.size), "cluster_at": cluster_at},
                            cuts, clusters(pairs, cluster_at))


# -- writing the report ------------------------------------------------------------------------------

CSV_COLUMNS = ("rank", "submission_a", "submission_b", "kind", "similarity", "share_a", "share_b", "matched_tokens")


def report_csv(report: SimilarityReport) -> str:
    """Every pair, one row each, most similar first (shares as fractions, 4 decimals)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(CSV_COLUMNS)
    for rank, pair in enumerate(report.pairs, start=1):   # names are the students': never a live formula
        writer.writerow(spreadsheet_row([rank, pair.a, pair.b, pair.kind, f"{pair.similarity:.4f}",
                                         f"{pair.share_a:.4f}", f"{pair.share_b:.4f}", pair.matched_tokens]))
    return buffer.getvalue()


CLUSTER_COLUMNS = ("cluster", "students", "sources", "lowest_similarity", "highest_similarity")


def clusters_csv(report: SimilarityReport) -> str:
    """Every cluster, one row each, largest first (names joined by spaces)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(CLUSTER_COLUMNS)
    for number, cluster in enumerate(report.clusters, start=1):
        writer.writerow(spreadsheet_row([number, " ".join(cluster.students), " ".join(cluster.sources),
                                         f"{cluster.lowest:.4f}", f"{cluster.highest:.4f}"]))
    return buffer.getvalue()


def write_report(report: SimilarityReport, out: str | os.PathLike, shown: int = DEFAULT_SHOWN_PAIRS) -> Path:
    """Write ``OUT/similarity.html``, ``OUT/similarity.csv`` and ``OUT/clusters.csv`` (private to the
    grader: they hold student code); return the HTML page's path."""
    from .report import write_private
    from .similarity_page import report_html

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    out.chmod(0o700)
    shown_pairs = report.pairs[:shown]
    detailed = [compare_documents(report.documents[p.a], report.documents[p.b], regions=True) for p in shown_pairs]
    write_private(out / "similarity.csv", report_csv(report))
    write_private(out / "clusters.csv", clusters_csv(report))
    page = out / "similarity.html"
    write_private(page, report_html(report, detailed))
    return page
