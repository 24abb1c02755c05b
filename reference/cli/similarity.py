"""``ftr similarity``: which submissions' code overlaps (for instructors; a person decides).

    ftr similarity submissions/ --out similarity/
    ftr similarity submissions/ --corpus earlier_years/ --out similarity/

Writes ``OUT/similarity.html`` (pairs most similar first, the matching stretches side by side) and
``OUT/similarity.csv`` (every pair). See :mod:`autograder.similarity`; needs the ``copydetect``
package (``pip install 'ftr-kit[similarity]'``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from . import UsageError


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``ftr similarity`` to ``subparsers``."""
    from autograder.similarity import (CLUSTER_SIMILARITY, COMMON_SHARE, DEFAULT_SHOWN_PAIRS, GUARANTEE_CHARACTERS,
                                       MAX_FILE_CHARACTERS, MAX_TOKENS, NOISE_CHARACTERS)

    parser = subparsers.add_parser(
        "similarity", help="instructors: pairs of submissions whose code overlaps (HTML page and CSV)",
        description="Compare the code of every pair of submissions in SUBMISSIONS_DIR (sub-folders and notebooks, "
                    "as ftr grade-all reads them; the code the grader keeps, never notebook outputs), and each with "
                    "every entry of --corpus (earlier years, solutions found online: folders of .py files or "
                    "notebooks). The starter code and the release notebook's given code never count, and code that many "
                    "submissions share is discounted (--common). Two submissions score the smaller of their two shares; "
                    "a submission and a corpus entry score the share of the student's code found in the entry. Writes "
                    "OUT/similarity.html (clusters, pairs most similar first with the matching stretches side by side), "
                    "OUT/similarity.csv (every pair) and OUT/clusters.csv. Bounded: each file is cut at "
                    f"{MAX_FILE_CHARACTERS:,} characters and each submission at {MAX_TOKENS:,} tokens (the report lists "
                    "every cut). The same input gives the same scores. A high score is a reason to look, not a "
                    "finding: a person decides.",
    )
    parser.add_argument("submissions", type=Path, metavar="SUBMISSIONS_DIR")
    parser.add_argument("--out", type=Path, required=True, metavar="DIR", help="where similarity.html and .csv go")
    parser.add_argument("--corpus", type=Path, metavar="DIR", help="earlier or public solutions to compare each submission with")
    parser.add_argument("--boilerplate", type=Path, action="append", default=[], metavar="PATH",
                        help="more handed-out code that must not count (a folder, .py file or notebook; repeatable)")
    parser.add_argument("--show", type=int, default=DEFAULT_SHOWN_PAIRS, metavar="N",
                        help=f"pairs drawn side by side on the page (default {DEFAULT_SHOWN_PAIRS})")
    parser.add_argument("--noise", type=int, default=NOISE_CHARACTERS, metavar="C",
                        help=f"shortest match that counts, in characters of token text (default {NOISE_CHARACTERS})")
    parser.add_argument("--guarantee", type=int, default=GUARANTEE_CHARACTERS, metavar="C",
                        help=f"every match this long or longer is found (default {GUARANTEE_CHARACTERS})")
    parser.add_argument("--common", type=float, default=COMMON_SHARE, metavar="F",
                        help=f"discount code found in at least this share of the submissions (default {COMMON_SHARE}: "
                             "half the class; above 1: none)")
    parser.add_argument("--cluster-at", type=float, default=CLUSTER_SIMILARITY, metavar="S",
                        help=f"pairs at least this similar join a cluster (default {CLUSTER_SIMILARITY})")
    parser.set_defaults(handler=similarity)


def run_similarity(submissions: Path, out: Path, corpus: Path | None = None, boilerplate: list[Path] | None = None,
                   show: int | None = None, noise: int | None = None, guarantee: int | None = None,
                   common: float | None = None, cluster_at: float | None = None) -> Path:
    """Compare and write the report (also for ``ftr grade-all --similarity``); a UsageError if it cannot."""
    from autograder import similarity as module

    if show is not None and show < 0:
        raise UsageError("--show must be 0 or more")
    try:
        report = module.compare_folder(submissions, corpus, boilerplate or [],
                                       noise=module.NOISE_CHARACTERS if noise is None else noise,
                                       guarantee=module.GUARANTEE_CHARACTERS if guarantee is None else guarantee,
                                       progress=sys.stderr.isatty(),
                                       common=module.COMMON_SHARE if common is None else common,
                                       cluster_at=module.CLUSTER_SIMILARITY if cluster_at is None else cluster_at)
    except module.SimilarityError as error:
        raise UsageError(str(error)) from None
    page = module.write_report(report, out, module.DEFAULT_SHOWN_PAIRS if show is None else show)
    for line in report.skipped:
        print(f"not compared: {line}", file=sys.stderr)
    for line in report.cuts:
        print(f"cut: {line}", file=sys.stderr)
    top = report.pairs[0] if report.pairs else None
    summary = f"; most similar: {top.a} and {top.b}, {100 * top.similarity:.0f}%" if top else ""
    groups = f"; {len(report.clusters)} clusters" if report.clusters else ""
    print(f"{len(report.pairs):,} pairs compared{summary}{groups}; report written to {page} and {page.with_suffix('.csv')}")
    return page


def similarity(args: argparse.Namespace) -> int:
    """``ftr similarity``: compare every pair of submissions (and each with a corpus); write the HTML and CSV
    report.
    """
    run_similarity(args.submissions, args.out, args.corpus, args.boilerplate, args.show, args.noise, args.guarantee,
                   args.common, args.cluster_at)
    return 0


COMMANDS = [(46, register)]
