"""Where the kit's own data files are: the standard mazes, the handout's examples, the rubric, the handout.

In a source checkout (the editable install) and in the student bundle they sit at the top of the
tree, next to the ``reference`` package, as the repository lays them out (``mazes/``,
``course/rubric.toml``, ...). A built wheel has no such tree: ``pyproject.toml`` declares them as
package data, and the wheel carries them inside the package, in ``reference/world/_data/`` with the
same relative paths. :func:`kit_path` looks there first, then in the tree; both through
``importlib.resources``, never through a path written into the code.

>>> kit_path("mazes", "mazes.scen").is_file()
True
>>> kit_path("mazes", "handout", "example1.map").read_text().splitlines()[:2]
['type octile', 'height 5']
"""

from __future__ import annotations

import importlib.resources
import os
from pathlib import Path

#: The folder of ``reference.world`` that holds the package data in a wheel (see pyproject.toml).
PACKAGED_DATA = "_data"


def kit_path(*parts: str) -> Path:
    """The kit's file or folder ``parts`` (relative to the repository's top, e.g. ``"mazes"`` or
    ``"course", "rubric.toml"``): inside the installed package if it is there, else in the tree the
    ``reference`` package sits in. The path may not exist (a bundle without ``course/``): callers check."""
    packaged = Path(str(importlib.resources.files("reference.world"))) / PACKAGED_DATA
    candidate = packaged.joinpath(*parts)
    if candidate.exists():
        return candidate
    tree = Path(str(importlib.resources.files("reference"))).parent
    return tree.joinpath(*parts)


def source_checkout() -> Path | None:
    """The repository the kit runs from (a clone, an editable install), or None (an installed wheel, the
    student bundle, a Gradescope image): the folder holding ``pyproject.toml`` and ``course/`` beside
    the ``reference`` package. Instructor files (the secret seed) go there only in a checkout, never
    into site-packages.

    >>> checkout = source_checkout()
    >>> checkout is None or (checkout / "reference").is_dir()
    True
    """
    tree = Path(str(importlib.resources.files("reference"))).parent
    return tree if (tree / "pyproject.toml").is_file() and (tree / "course").is_dir() else None


def user_config_dir() -> Path:
    """The kit's folder for a user's settings: ``$XDG_CONFIG_HOME/ftr-kit``, by default ``~/.config/ftr-kit``."""
    return Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config") / "ftr-kit"


def handout_examples_dir() -> Path:
    """The handout's three worked examples as MovingAI files: ``example1.map`` + ``example1.scen``, ...
    (rows A-E of the handout are rows 0-4; columns 1-5 are cols 0-4)."""
    return kit_path("mazes", "handout")
