"""The instances a submission is graded on: public ones (students can run them) and hidden ones.

Public (``public_instances``): the handout's three worked examples (SPEC §10), the SPEC §8
hand-made cases, and standard mazes — by default eight of the 50 (``DEFAULT_STANDARD``), all 50
with ``full=True``.

Hidden (``hidden_instances``): made at grading time from the instructor's secret seed, never
written to disk: mazes built by SPEC §3 with seeds derived from the secret one, in other sizes and
shapes; a maze whose target is walled in (unreachable, discovered only after moving); start ==
target; corridors. The secret seed comes from ``FTR_SECRET_SEED``, else the file named by
``FTR_SECRET_SEED_FILE``, else :func:`default_seed_file` (``course/secret_seed.txt`` in a source
checkout, ``$XDG_CONFIG_HOME/ftr-kit/secret_seed.txt`` for an installed wheel).

The efficiency probe (``efficiency_probe``): a 1001 x 1001 grid, blocked except for a small maze
in which the agent and the target sit, so every search is small but the grid is large.

>>> [instance.name for instance in handmade_instances()][:2]
['start_is_target', 'target_walled_in']
>>> probe = efficiency_probe()
>>> probe.grid.height, probe.grid.width
(1001, 1001)
"""

from __future__ import annotations

import functools
import hashlib
import os
from pathlib import Path

import numpy as np

from reference.world.generator import generate_maze
from reference.world.grid import Gridworld
from reference.world.instances import Instance, handmade_dir, handout_examples, load_folder, standard_mazes_dir
from reference.world.kitdata import source_checkout, user_config_dir

#: Standard mazes graded by default (all 50 with ``--full``): a fixed, public choice of the eight whose
#: four runs (forward both ties, backward, adaptive) expand the fewest cells, so that a correct Python
#: submission is graded in well under a minute; Repeated Backward A* alone expands over a million
#: cells on some of the others.
DEFAULT_STANDARD = (6, 8, 12, 13, 33, 34, 38, 42)


def example_instances() -> list[Instance]:
    """The handout's worked examples (SPEC §10), from ``mazes/handout/``: rows A-E are rows 0-4,
    columns 1-5 are cols 0-4."""
    return handout_examples()


def handmade_instances() -> list[Instance]:
    """The SPEC §8 cases every test set includes, from ``mazes/handmade/`` (its README says what each tests)."""
    return load_folder(handmade_dir())


@functools.lru_cache(maxsize=2)
def _standard_set(folder: str) -> tuple[Instance, ...]:
    return tuple(load_folder(folder))


def standard_instances(numbers=DEFAULT_STANDARD) -> list[Instance]:
    """Standard mazes by number (``mazes/`` in the kit), read once per process."""
    everything = _standard_set(str(standard_mazes_dir()))
    return [everything[number] for number in numbers]


def public_instances(full: bool = False) -> list[Instance]:
    """Examples, hand-made cases and standard mazes (eight, or all 50 with ``full``)."""
    return [instance for _, instance in grouped_public_instances(full)]


#: The instance groups of a search check (each is all or nothing; its share is set in the rubric).
GROUP_TITLES = {"examples": "the handout's examples", "handmade": "the hand-made cases",
                "standard": "the standard mazes", "hidden": "the hidden instances"}


def grouped_public_instances(full: bool = False) -> list[tuple[str, Instance]]:
    """``(group, instance)`` for the public instances: examples, hand-made cases, standard mazes."""
    numbers = range(50) if full else DEFAULT_STANDARD
    return ([("examples", i) for i in example_instances()] + [("handmade", i) for i in handmade_instances()]
            + [("standard", i) for i in standard_instances(numbers)])


# -- hidden ------------------------------------------------------------------------------------------

class SecretSeedMissing(LookupError):
    """No secret seed configured, so no hidden instances can be made."""


SEED_FILE_NAME = "secret_seed.txt"


def default_seed_file() -> Path:
    """Where ``ftr secret-seed`` writes the seed and grading looks for it (unless ``FTR_SECRET_SEED_FILE``
    names another file): ``course/secret_seed.txt`` in a source checkout (``course/.gitignore`` keeps
    it out of version control), else ``secret_seed.txt`` in the user's config folder
    (``$XDG_CONFIG_HOME/ftr-kit``, by default ``~/.config/ftr-kit``): never inside site-packages."""
    checkout = source_checkout()
    return checkout / "course" / SEED_FILE_NAME if checkout else user_config_dir() / SEED_FILE_NAME


#: The default seed file as it was when this module was imported (the sandbox keeps children away from it).
SECRET_SEED_FILE = default_seed_file()


def seed_file() -> Path:
    """The seed file grading reads: ``FTR_SECRET_SEED_FILE`` if set, else :func:`default_seed_file`."""
    named = os.environ.get("FTR_SECRET_SEED_FILE")
    return Path(named) if named else default_seed_file()


def secret_seed() -> int:
    """The instructor's secret seed: ``FTR_SECRET_SEED``, else the file :func:`seed_file` names."""
    text = os.environ.get("FTR_SECRET_SEED")
    source = "FTR_SECRET_SEED"
    if not text:
        path = seed_file()
        if not path.exists():
            raise SecretSeedMissing(
                "hidden instances need the instructor's secret seed: run `ftr secret-seed` (it writes "
                f"{path}), or set FTR_SECRET_SEED or FTR_SECRET_SEED_FILE (keep it out of version control "
                "and out of the student bundle)"
            )
        own = getattr(os, "geteuid", lambda: -1)()  # Windows has no uids (and no group or other bits)
        if path.stat().st_mode & 0o077 and path.stat().st_uid == own:
            path.chmod(0o600)  # the seed file is the grader's alone (student code must not read it)
        text, source = path.read_text().strip(), str(path)
    try:
        return int(text)
    except ValueError:
        raise SecretSeedMissing(f"the secret seed in {source} is not a whole number") from None


def _seed(secret: int, label: str) -> list[int]:
    """A seed for one hidden instance, derived from the secret and a label (not guessable without the secret)."""
    digest = hashlib.sha256(f"{secret}:{label}".encode()).digest()
    return [int.from_bytes(digest[i:i + 4], "big") for i in range(0, 16, 4)]


def derived_seed(secret: int, purpose: str) -> int:
    """A 128-bit seed for one purpose (e.g. "heap sequences"), derived from the secret through SHA-256, so
    that what a student sees of one random stream tells nothing about the secret or the other streams.

    >>> derived_seed(1, "heap sequences") == derived_seed(1, "heap sequences") != derived_seed(2, "heap sequences")
    True
    """
    return int.from_bytes(hashlib.sha256(f"ftr-kit:{purpose}:{secret}".encode()).digest()[:16], "big")


def hidden_instances(secret: int | None = None) -> list[Instance]:
    """Instances made from the secret seed (SPEC §3 with other seeds, other sizes, special cases)."""
    secret = secret_seed() if secret is None else secret
    instances = []
    for label, height, width in (("maze_41x41", 41, 41), ("maze_31x71", 31, 71), ("maze_61x61", 61, 61)):
        maze = generate_maze(_seed(secret, label), height=height, width=width, extra_openings=height * width // 100)
        instances.append(Instance(f"hidden_{label}", maze.grid, maze.start, maze.target))
    instances.append(_walled_in(secret))
    rng = np.random.default_rng(_seed(secret, "small cases"))
    maze = generate_maze(_seed(secret, "start_is_target"), height=21, width=21, extra_openings=4)
    instances.append(Instance("hidden_start_is_target", maze.grid, maze.start, maze.start))
    length = int(rng.integers(12, 40))
    corridor = Gridworld.from_strings(["." * length])
    instances.append(Instance(f"hidden_corridor_1x{length}", corridor, (0, length - 1), (0, int(rng.integers(0, length // 2)))))
    column = Gridworld.from_strings(["."] * length)
    instances.append(Instance(f"hidden_corridor_{length}x1", column, (int(rng.integers(0, length // 2)), 0), (length - 1, 0)))
    return instances


def _walled_in(secret: int) -> Instance:
    """A 31 x 31 maze whose target's neighbours are all blocked: unreachable, learned only by exploring.

    Start and target are distinct corridor nodes, two or more cells apart, so the start stays free.
    """
    maze = generate_maze(_seed(secret, "walled_in"), height=31, width=31, extra_openings=9)
    grid = maze.grid.copy()
    for cell in grid.neighbours(maze.target):
        grid.set_blocked(cell)
    return Instance("hidden_target_walled_in", grid, maze.start, maze.target)


# -- the efficiency probe -------------------------------------------------------------------------------

PROBE_SIZE = 1001


def efficiency_probe(seed: int | None = None, size: int = PROBE_SIZE) -> Instance:
    """A ``size`` x ``size`` grid, all blocked but a 41 x 41 maze in its middle holding the agent and target.

    A search here touches a few hundred cells, so code that visits all ``size**2`` cells in every
    search (instead of initialising lazily with counter and search(s)) is many times slower.
    ``seed`` None gives the public probe (the student bundle's ``ftr check``); the grader derives the
    seed from the secret seed (``derived_seed(secret, "efficiency probe")``: the same probe at every
    regrade, unknown to students), or draws a random one where there is no secret seed.
    """
    inner = 41
    maze = generate_maze([2005, 1001] if seed is None else [seed & 0xFFFFFFFF, seed >> 32],
                         height=inner, width=inner, extra_openings=16)
    blocked = np.ones((size, size), dtype=bool)
    offset = (size - inner) // 2
    blocked[offset:offset + inner, offset:offset + inner] = maze.grid.blocked
    grid = Gridworld(size, size, blocked)
    corners = [(0, 0), (inner - 1, inner - 1)]
    start, target = ((offset + r, offset + c) for r, c in corners)
    return Instance("efficiency_probe_1001x1001" if seed is None else "efficiency_probe", grid, start, target)
