"""What ``ftr similarity`` computes, as data: a document's code and fingerprints, a compared pair, a
cluster of students sharing one source, the report.

Its own module because both the comparison (:mod:`.similarity`) and the HTML page
(:mod:`.similarity_page`) need these types, and the comparison writes the page: with the types here
the imports point one way (similarity_results <- similarity_page <- similarity).

>>> PairResult("a", "b", "class", share_a=0.5, share_b=0.25, matched_tokens=10).similarity
0.25
>>> PairResult("a", "corpus/web", "corpus", share_a=0.7, share_b=0.1, matched_tokens=10).similarity
0.7
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


@dataclass
class Fingerprint:
    """A text's winnowed fingerprints, in the shape copydetect's ``CodeFingerprint`` has (``compare_files``
    and ``get_copied_slices`` read it), but with a hash that is the same in every process.

    copydetect hashes each k-gram with Python's ``hash(str)``, which is salted per process
    (``PYTHONHASHSEED``): winnowing keeps the least hash of each window, so another salt keeps other
    fingerprints and two runs on the same class differed by about 0.01. :func:`kgram_hashes` is a
    fixed function of the text instead.
    """

    filename: str
    raw_code: str
    filtered_code: str
    offsets: np.ndarray
    hashes: set
    hash_idx: dict
    k: int
    token_coverage: int


@dataclass
class CodeDocument:
    """One submission's (or corpus entry's) code as one text, and its fingerprints.

    ``text`` holds every source under a header comment line; ``sources`` the names and first lines.
    ``fingerprint`` is its :class:`Fingerprint`; ``hashes`` (sorted, unique), ``occurrences`` and
    ``positions`` hold the same fingerprints as NumPy arrays for :func:`~autograder.similarity.shares`
    (every place each hash occurs).
    """

    name: str
    origin: str                                    # "class" or "corpus"
    text: str
    sources: list[tuple[str, int]] = field(default_factory=list)   # (source name, its first line in text)
    fingerprint: Fingerprint = None                               # type: ignore[assignment]  # set by code_document
    hashes: np.ndarray = field(default_factory=lambda: np.array([], dtype=np.int64))
    occurrences: np.ndarray = field(default_factory=lambda: np.array([], dtype=np.int64))
    positions: np.ndarray = field(default_factory=lambda: np.array([], dtype=np.int64))


@dataclass(slots=True)
class PairResult:
    """Two documents compared: the share of each one's code found in the other, and where.

    ``regions_a`` / ``regions_b``: character ranges ``(start, end, label)`` in each text; ranges with the
    same label hold the same fingerprints (the matching stretch on the other side).
    """

    a: str
    b: str
    kind: str                       # "class" (two submissions) or "corpus" (a submission and a corpus entry)
    share_a: float
    share_b: float
    matched_tokens: int
    regions_a: list[tuple[int, int, int]] = field(default_factory=list)
    regions_b: list[tuple[int, int, int]] = field(default_factory=list)

    @property
    def similarity(self) -> float:
        """The ranking's key. Two submissions: the smaller share, how much of each side the two have in
        common. A submission and a corpus entry: the submission's share (``a`` is the submission), the
        part of the student's code found in the entry, however much else the entry holds (a published
        repository's drivers, plots and tests must not dilute a copy of its search)."""
        return self.share_a if self.kind == "corpus" else min(self.share_a, self.share_b)


@dataclass
class Cluster:
    """Submissions joined by pairs at least ``threshold`` similar (to each other or to one corpus entry):
    several students sharing one source. ``sources``: the corpus entries among them."""

    students: list[str]
    sources: list[str]
    lowest: float                   # the least similar pair that joins it
    highest: float


@dataclass
class SimilarityReport:
    """Every pair, most similar first, and what was left out."""

    pairs: list[PairResult]
    documents: dict[str, CodeDocument]
    skipped: list[str]                      # "name: why" for entries with no code to compare
    boilerplate: list[str]                  # the names of the handed-out sources removed
    seconds: float = 0.0                    # the comparisons' time (not the fingerprinting)
    settings: dict = field(default_factory=dict)   # compare_folder sets every key the page reads
    cuts: list[str] = field(default_factory=list)           # what the bounds cut, one line each
    clusters: list[Cluster] = field(default_factory=list)
