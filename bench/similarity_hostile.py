"""Benchmark: ``ftr similarity`` on the issue's hostile class, three students each with a 4.9 MB
one-line module beside an honest submission, and one honest student (issue 34).

    python bench/similarity_hostile.py                  # this checkout
    python bench/similarity_hostile.py --kit OTHER_DIR  # another checkout, e.g. the code before, side by side

Prints the command's CPU seconds and peak memory (the child's ru_maxrss) and its wall time; the
CPU time is the claim (the machine is shared). ``--timeout`` stops a run that does not end.
"""

from __future__ import annotations

import argparse
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]


def hostile_class(folder: Path) -> Path:
    honest = HERE / "tests" / "submissions"
    for index, name in enumerate(("ann", "ben", "cat")):
        shutil.copytree(honest / "correct_dicts", folder / name)
        rng = random.Random(index)
        line = "x = " + "+".join(f"v{rng.randrange(10**6)}*{rng.randrange(1000)}" for _ in range(490_000))
        (folder / name / "huge.py").write_text(line[:4_900_000] + "\n")
    shutil.copytree(honest / "correct_classes", folder / "dan")
    return folder


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kit", type=Path, default=HERE, help="the checkout whose ftr runs (default: this one)")
    parser.add_argument("--timeout", type=float, default=900)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temporary:
        submissions = hostile_class(Path(temporary) / "class")
        command = [sys.executable, "-m", "reference.cli", "similarity", str(submissions), "--out", str(Path(temporary) / "out")]
        began = time.perf_counter()
        try:
            result = subprocess.run(command, cwd=args.kit, capture_output=True, text=True, timeout=args.timeout, check=False)
            outcome = f"exit status {result.returncode}; {result.stdout.strip()[-200:]}"
        except subprocess.TimeoutExpired:
            outcome = f"stopped after {args.timeout:.0f} s"
        wall = time.perf_counter() - began
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(f"{args.kit}: {usage.ru_utime + usage.ru_stime:.1f} CPU s, {wall:.1f} s wall, "
          f"peak {usage.ru_maxrss / 1024:.0f} MB; {outcome}")


if __name__ == "__main__":
    main()
