"""Benchmark: ``ftr similarity`` on a class of 500 synthetic submissions: pairs per second, peak memory.

    python bench/similarity.py                 # 500 submissions (124,750 pairs)
    python bench/similarity.py --class-size 100 --baseline-pairs 2000

The submissions are made from the kit's four independent correct solutions (tests/submissions/
correct_classes, correct_dicts, correct_notebook and the reference export), each student's copy with
every name renamed at random, its top-level definitions shuffled and a few helper functions of its
own added. A quarter of the class shares each base, so most pairs are near copies: the slow case
(a comparison costs in proportion to what two submissions share). These measure speed, not
detection: tests/autograder/test_similarity.py measures that on hand-disguised copies.

Printed, in CPU seconds (``time.process_time``: on a shared machine wall time mostly measures the
neighbours): the whole comparison as ``ftr similarity`` runs it, the comparisons alone and pairs
per CPU second, the report's time and size, and the process's peak memory (ru_maxrss). The baseline is
copydetect's own ``compare_files`` on a sample of the same pairs, run side by side with the kit's
:func:`autograder.similarity.shares` (the same numbers, checked): the ratio is the claim.
"""

from __future__ import annotations

import argparse
import ast
import io
import itertools
import keyword
import random
import resource
import sys
import tempfile
import time
import tokenize
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from autograder.export import exported_sources
from autograder.similarity import compare_folder, load_code, shares, write_report

SUBMISSIONS = Path(__file__).resolve().parents[1] / "tests" / "submissions"
KEEP = set(dir(__builtins__)) | set(keyword.kwlist) | {"self", "BinaryHeap", "repeated_forward_astar",
                                                       "repeated_backward_astar", "adaptive_astar"}


def bases() -> list[dict[str, str]]:
    """The four independent correct solutions, as name -> source."""
    return [load_code(SUBMISSIONS / name) for name in ("correct_classes", "correct_dicts", "correct_notebook")] + \
        [exported_sources()]


def renamed(source: str, rng: random.Random) -> str:
    """Every name but keywords, builtins and the contract's names renamed at random (consistently)."""
    names: dict[str, str] = {}
    tokens = []
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.NAME and token.string not in KEEP:
            fresh = names.setdefault(token.string, f"{rng.choice('abcdefghkmnpqrstuvwxyz')}{len(names)}_{rng.randrange(10**4)}")
            token = token._replace(string=fresh)
        tokens.append(token)
    return tokenize.untokenize(tokens)


def shuffled(source: str, rng: random.Random) -> str:
    """The top-level definitions in a random order (imports first)."""
    tree = ast.parse(source)
    lines = source.splitlines()
    pieces = ["\n".join(lines[min([n.lineno] + [d.lineno for d in getattr(n, "decorator_list", [])]) - 1: n.end_lineno])
              for n in tree.body]
    head = [p for p, n in zip(pieces, tree.body) if isinstance(n, (ast.Import, ast.ImportFrom))]
    rest = [p for p, n in zip(pieces, tree.body) if not isinstance(n, (ast.Import, ast.ImportFrom))]
    rng.shuffle(rest)
    return "\n\n\n".join(head + rest) + "\n"


def own_helpers(rng: random.Random) -> str:
    """A few helper functions no one else wrote."""
    functions = []
    for number in range(rng.randint(2, 5)):
        body = [f"    value = {rng.randint(1, 99)}"]
        for _ in range(rng.randint(3, 8)):
            operator = rng.choice(["+", "-", "*", "//", "%"])
            body.append(f"    value = value {operator} {rng.randint(1, 50)} if value > {rng.randint(0, 30)} else "
                        f"[value] * {rng.randint(2, 5)}" if rng.random() < 0.3 else f"    value = value {operator} {rng.randint(1, 50)}")
        functions.append(f"def helper_{number}_{rng.randrange(10**6)}(argument):\n" + "\n".join(body) + "\n    return value\n")
    return "\n\n".join(functions)


def make_class(folder: Path, size: int, seed: int = 0) -> None:
    rng = random.Random(seed)
    sources = bases()
    for student in range(size):
        base = sources[student % len(sources)]
        target = folder / f"student_{student:03d}"
        target.mkdir(parents=True)
        for name, source in base.items():
            text = shuffled(renamed(source, rng), rng)
            if name.endswith("heap.py") or name == "code cell 2":
                text += "\n\n" + own_helpers(rng)
            filename = name if name.endswith(".py") else f"{name.replace(' ', '_')}.py"
            (target / filename).write_text(text)
        if not (target / "heap.py").exists():  # the notebook's cells as modules: name the folder's files as a submission's
            (target / "heap.py").write_text("")


def peak_megabytes() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--class-size", type=int, default=500)
    parser.add_argument("--baseline-pairs", type=int, default=5000, help="pairs timed with copydetect's compare_files")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary) / "class"
        make_class(folder, args.class_size)
        before = peak_megabytes()
        began, cpu = time.perf_counter(), time.process_time()
        report = compare_folder(folder)
        wall, total = time.perf_counter() - began, time.process_time() - cpu
        documents = list(report.documents.values())
        cpu = time.process_time()
        for first, second in itertools.combinations(documents, 2):   # the comparisons alone, again
            shares(first, second)
        comparing = time.process_time() - cpu
        print(f"{args.class_size} submissions, {len(report.pairs):,} pairs; CPU seconds (wall {wall:.0f} s on this machine)")
        print(f"ftr similarity's comparison: {total:.1f} CPU s in all; the comparisons alone {comparing:.1f} CPU s = "
              f"{len(report.pairs) / comparing:,.0f} pairs per CPU second; reading + fingerprinting about "
              f"{total - comparing:.1f} CPU s")
        cpu = time.process_time()
        page = write_report(report, Path(temporary) / "out")
        print(f"report: {time.process_time() - cpu:.1f} CPU s, similarity.html {page.stat().st_size / 1e6:.1f} MB, "
              f"similarity.csv {page.with_suffix('.csv').stat().st_size / 1e6:.1f} MB")
        print(f"peak memory (ru_maxrss): {peak_megabytes():.0f} MB (before comparing: {before:.0f} MB)")

        from copydetect import compare_files

        sample = list(itertools.islice(itertools.combinations(documents, 2), 0, None, max(1, len(report.pairs) // args.baseline_pairs)))
        began = time.process_time()
        mine = [shares(a, b) for a, b in sample]
        kit = time.process_time() - began
        began = time.process_time()
        theirs = [compare_files(a.fingerprint, b.fingerprint) for a, b in sample]
        library = time.process_time() - began
        assert all(m == (int(t), float(s[0]), float(s[1])) for m, (t, s, _) in zip(mine, theirs)), "shares differ"
        print(f"baseline on {len(sample):,} of the pairs: compare_files {len(sample) / library:,.0f} pairs/CPU s, "
              f"shares {len(sample) / kit:,.0f} pairs/CPU s: {library / kit:.1f} x faster, the same numbers")


if __name__ == "__main__":
    main()
