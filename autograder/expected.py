"""What the reference does on each instance, kept as digests: one short hash per search.

Grading compares a student's run with the reference's search by search: equal digests mean equal
searches (start, goal, every expansion in order, path). Only where a digest differs does the grader
replay the search in detail (:mod:`autograder.searchcheck`), so digests are all it needs to keep.

* Public instances: ``autograder/data/expected_public.json.gz`` ships with the kit and the student
  bundle (public instances are public); ``python -m autograder.expected`` rebuilds it.
* Hidden instances on Gradescope: ``ftr gradescope build`` knows the secret seed, computes them
  (:func:`expected_bytes`) and ships them in the zip as ``expected_hidden.json.gz``, readable by root
  only; ``run_autograder`` names it in ``FTR_EXPECTED_FILE``. The image needs no compiler.
* Any other instance (hidden ones elsewhere, a fresh efficiency probe): computed with the reference
  solutions at grading time (the compiled twin where Numba is installed, else the readable
  reference: the same runs) and cached in a folder only the grader can read (``FTR_CACHE_DIR``,
  default ``~/.cache/ftr-kit``, mode 0700), never in the sandbox.

>>> from autograder.instances import example_instances
>>> run = expected_run(example_instances()[0], "forward_larger_g")
>>> run.reached, run.searches, run.expansions
(True, 3, 39)
"""

from __future__ import annotations

import gzip
import hashlib
import importlib.util
import json
import os
import struct
from array import array
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Sequence, Union

from reference.world.fileio import atomic_write_bytes
from reference.world.instances import Instance
from reference.world.trace import encode_trace

if TYPE_CHECKING:
    import numpy as np

    #: An encoded trace's int32 array: the channel's ``array("i")``, or the compiled twin's NumPy array.
    IntArray = Union[array, np.ndarray]

#: Each search check: (algorithm, tie_break, the student's function).
SETTINGS: dict[str, tuple[str, str, str]] = {
    "forward_larger_g": ("forward", "larger_g", "repeated_forward_astar"),
    "forward_smaller_g": ("forward", "smaller_g", "repeated_forward_astar"),
    "backward": ("backward", "larger_g", "repeated_backward_astar"),
    "adaptive": ("adaptive", "larger_g", "adaptive_astar"),
}

SHIPPED_FILE = Path(__file__).with_name("data") / "expected_public.json.gz"
#: Names a second file of expected runs (the same format), e.g. the hidden instances' in a Gradescope zip.
EXPECTED_FILE_VARIABLE = "FTR_EXPECTED_FILE"
DIGEST_SIZE = 8


@dataclass(frozen=True)
class ExpectedRun:
    """The reference's run on one instance with one setting, as counts and digests (hex)."""

    reached: bool
    searches: int
    expansions: int
    moves: int
    trajectory: str          # digest of the trajectory and `reached`
    digests: str             # one DIGEST_SIZE-byte digest per search, hex, concatenated

    def search_digest(self, index: int) -> str:
        width = 2 * DIGEST_SIZE
        return self.digests[index * width:(index + 1) * width]


def fingerprint(instance: Instance) -> str:
    """A digest of the grid, start and target: the key under which expected runs are stored."""
    import numpy as np

    digest = hashlib.blake2b(digest_size=12)
    grid = instance.grid
    digest.update(struct.pack(">IIiiii", grid.height, grid.width, *instance.start, *instance.target))
    digest.update(np.packbits(grid.blocked).tobytes())
    return digest.hexdigest()


def trajectory_digest(trajectory: IntArray, reached: bool) -> str:
    """A short digest of a trajectory (cell numbers) and whether it reached the target: what the expected results
    keep of a run.
    """
    return hashlib.blake2b(trajectory.tobytes() + bytes([reached]), digest_size=DIGEST_SIZE).hexdigest()


def search_digests(meta: IntArray, expanded: IntArray, paths: IntArray) -> list[str]:
    """One digest per search of an encoded trace (see :func:`reference.world.trace.encode_trace`)."""
    digests = []
    exp_at = path_at = 0
    expanded_bytes, path_bytes = memoryview(expanded.tobytes()), memoryview(paths.tobytes())
    size = expanded.itemsize
    for i in range(0, len(meta), 4):
        n_expanded, n_path = meta[i + 2], meta[i + 3]
        digest = hashlib.blake2b(meta[i:i + 4].tobytes(), digest_size=DIGEST_SIZE)
        digest.update(expanded_bytes[exp_at * size:(exp_at + n_expanded) * size])
        digest.update(b"|")
        digest.update(path_bytes[path_at * size:(path_at + n_path) * size])
        digests.append(digest.hexdigest())
        exp_at += n_expanded
        path_at += n_path
    return digests


def from_encoded(header: dict, arrays: Sequence[IntArray]) -> ExpectedRun:
    """Counts and digests of an encoded trace (the reference's, or a student's)."""
    trajectory, meta, expanded, paths = arrays[:4]
    return ExpectedRun(
        reached=bool(header["reached"]), searches=len(meta) // 4, expansions=len(expanded),
        moves=len(trajectory) - 1, trajectory=trajectory_digest(trajectory, bool(header["reached"])),
        digests="".join(search_digests(meta, expanded, paths)),
    )


def reference_run(instance: Instance, check_id: str):
    """Run the reference solution (instructors only: it needs ``reference.solutions``)."""
    from reference.solutions import solve

    algorithm, tie_break, _ = SETTINGS[check_id]
    return solve(instance, algorithm, tie_break)


def default_engine() -> str:
    """``"compiled"`` where Numba and the compiled twin are installed (an instructor's machine), else
    ``"python"`` (a Gradescope image: no compiler, no twin): both give the same runs
    (tests/solutions/test_trace_identity.py)."""
    try:
        compiled = all(importlib.util.find_spec(name) is not None
                       for name in ("numba", "reference.solutions.compiled"))
    except ImportError:  # no reference.solutions at all
        compiled = False
    return "compiled" if compiled else "python"


def compute_expected(instance: Instance, check_id: str, engine: str | None = None) -> ExpectedRun:
    """The expected run, computed by the compiled twin (the reference's traces, in the arrays the
    digests are made of) or by the readable reference (``engine="python"``); by default the compiled
    one where Numba is installed (:func:`default_engine`), so that grading never needs it."""
    if (engine or default_engine()) == "compiled":
        from reference.solutions.compiled.replanning import run_compiled

        algorithm, tie_break, _ = SETTINGS[check_id]
        run = run_compiled(instance.grid, instance.start, instance.target, algorithm, tie_break)
        return from_encoded({"reached": run.reached}, run.wire_arrays())
    trace = reference_run(instance, check_id)
    header, arrays = encode_trace(trace, instance.grid.height, instance.grid.width)
    return from_encoded(header, arrays)


# -- storage -------------------------------------------------------------------------------------------

_shipped: dict | None = None
_memory: dict[tuple[str, str], ExpectedRun] = {}


def read_expected(path: str | os.PathLike) -> dict:
    """A file of expected runs: ``{fingerprint: {check_id: ExpectedRun fields}}``, gzipped JSON."""
    return json.loads(gzip.decompress(Path(path).read_bytes()))


def _load_shipped() -> dict:
    """The shipped public runs, merged with the file ``FTR_EXPECTED_FILE`` names (if set)."""
    global _shipped
    if _shipped is None:
        _shipped = read_expected(SHIPPED_FILE) if SHIPPED_FILE.exists() else {}
        extra = os.environ.get(EXPECTED_FILE_VARIABLE)
        if extra:
            for key, runs in read_expected(extra).items():
                _shipped.setdefault(key, {}).update(runs)
    return _shipped


def cache_dir() -> Path:
    """The grader's private cache (mode 0700)."""
    folder = Path(os.environ.get("FTR_CACHE_DIR") or Path.home() / ".cache" / "ftr-kit") / "expected"
    folder.mkdir(parents=True, exist_ok=True)
    folder.chmod(0o700)
    return folder


def expected_run(instance: Instance, check_id: str) -> ExpectedRun:
    """The reference's run: shipped data, then memory, then the private cache, then computed (and cached)."""
    key = fingerprint(instance)
    shipped = _load_shipped().get(key, {}).get(check_id)
    if shipped is not None:
        return ExpectedRun(**shipped)
    if (key, check_id) in _memory:
        return _memory[(key, check_id)]
    path = cache_dir() / f"{key}-{check_id}.json"
    if path.exists():
        run = ExpectedRun(**json.loads(path.read_text()))
    else:
        run = compute_expected(instance, check_id)
        atomic_write_bytes(path, json.dumps(asdict(run)).encode())
        path.chmod(0o600)
    _memory[(key, check_id)] = run
    return run


def expected_bytes(instances: list[Instance], progress: bool = True) -> bytes:
    """Every setting's expected run on ``instances``, as the gzipped JSON :func:`read_expected` reads.

    >>> from autograder.instances import example_instances
    >>> data = gzip.decompress(expected_bytes(example_instances()[:1], progress=False))
    >>> sorted(json.loads(data)[fingerprint(example_instances()[0])]) == sorted(SETTINGS)
    True
    """
    from tqdm import tqdm

    data: dict[str, dict] = {}
    jobs = [(instance, check_id) for instance in instances for check_id in SETTINGS]
    for instance, check_id in tqdm(jobs, desc="expected runs", disable=not progress, file=None):
        data.setdefault(fingerprint(instance), {})[check_id] = asdict(compute_expected(instance, check_id))
    return gzip.compress(json.dumps(data, sort_keys=True, separators=(",", ":")).encode(), mtime=0)


def build_shipped(instances: list[Instance], progress: bool = True) -> Path:
    """Compute every setting on ``instances`` and write the shipped file (instructors, when mazes change)."""
    atomic_write_bytes(SHIPPED_FILE, expected_bytes(instances, progress))
    SHIPPED_FILE.chmod(0o644)
    return SHIPPED_FILE


if __name__ == "__main__":
    from .instances import efficiency_probe, public_instances

    print(build_shipped(public_instances(full=True) + [efficiency_probe()]))
