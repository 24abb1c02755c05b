"""Points per check, read from the instructor's rubric (``course/rubric.toml``).

``FTR_RUBRIC`` names another rubric file. Where no rubric file exists (a student bundle shipped
without ``course/``), the defaults below apply; a test keeps them equal to the committed rubric.

>>> rubric = load_rubric()
>>> sorted(rubric.autograded)[:2], rubric.extra_credit["heap_from_scratch"] > 0
(['adaptive', 'backward'], True)
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

RUBRIC_FILE = Path(__file__).resolve().parents[1] / "course" / "rubric.toml"

DEFAULT_AUTOGRADED = {"heap": 8, "forward_larger_g": 14, "forward_smaller_g": 8, "backward": 10, "adaptive": 12,
                      "efficiency": 8}
DEFAULT_EXTRA_CREDIT = {"heap_from_scratch": 5}
DEFAULT_TIES_CREDIT = 0.75      # [policy] other_ties_credit
DEFAULT_EFFICIENCY_RATIO = 8.0  # [policy] efficiency_ratio
#: [groups]: the weight of each instance group in a search check (all or nothing per group).
DEFAULT_GROUPS = {"examples": 1.0, "handmade": 1.0, "standard": 2.0, "hidden": 4.0}


def _toml_loader():
    """``tomllib`` (Python 3.11+) or the ``tomli`` package it came from (Python 3.10)."""
    try:
        import tomllib
    except ImportError:
        try:
            import tomli as tomllib
        except ImportError:
            raise RuntimeError("reading the rubric needs Python 3.11 or later, or the tomli package "
                               "(pip install tomli)") from None
    return tomllib

TITLES = {
    "heap": "Binary heap (push, pop, peek, update, remove, len, in; errors)",
    "forward_larger_g": "Repeated Forward A*, ties to the larger g",
    "forward_smaller_g": "Repeated Forward A*, ties to the smaller g",
    "backward": "Repeated Backward A*",
    "adaptive": "Adaptive A*",
    "efficiency": "Efficiency: no pass over all cells per search",
    "heap_from_scratch": "Extra credit: heap written from scratch",
}


@dataclass(frozen=True)
class Rubric:
    """The points of each check (``course/rubric.toml``) and the grading rules that go with them: the share for
    legal ties, the efficiency ratio, the groups.
    """
    autograded: dict[str, float]
    extra_credit: dict[str, float]
    source: str
    ties_credit: float = DEFAULT_TIES_CREDIT            # share of a search check for correct A* with other remaining ties
    efficiency_ratio: float = DEFAULT_EFFICIENCY_RATIO  # the probe may take this many times the reference's time
    groups: dict[str, float] = field(default_factory=lambda: dict(DEFAULT_GROUPS))


def load_rubric(path: str | os.PathLike | None = None) -> Rubric:
    """The rubric at ``path``, ``FTR_RUBRIC``, ``course/rubric.toml``, or the built-in defaults."""
    path = Path(path or os.environ.get("FTR_RUBRIC") or RUBRIC_FILE)
    if not path.exists():
        return Rubric(dict(DEFAULT_AUTOGRADED), dict(DEFAULT_EXTRA_CREDIT), "built-in defaults")
    with open(path, "rb") as file:
        data = _toml_loader().load(file)
    autograded = {key: float(value) for key, value in data.get("autograded", {}).items()}
    unknown = set(autograded) - set(DEFAULT_AUTOGRADED)
    if unknown:
        raise ValueError(f"{path}: [autograded] has checks the autograder does not know: {sorted(unknown)}")
    extra = {key: float(value) for key, value in data.get("extra_credit", {}).items()}
    policy = data.get("policy", {})
    ties_credit = float(policy.get("other_ties_credit", DEFAULT_TIES_CREDIT))
    efficiency_ratio = float(policy.get("efficiency_ratio", DEFAULT_EFFICIENCY_RATIO))
    if not 0 <= ties_credit <= 1:
        raise ValueError(f"{path}: [policy] other_ties_credit must lie between 0 and 1, got {ties_credit:g}")
    if efficiency_ratio < 1:
        raise ValueError(f"{path}: [policy] efficiency_ratio must be at least 1, got {efficiency_ratio:g}")
    groups = dict(DEFAULT_GROUPS)
    for key, value in data.get("groups", {}).items():
        if key not in DEFAULT_GROUPS:
            raise ValueError(f"{path}: [groups] has a group the autograder does not know: {key!r}")
        groups[key] = float(value)
        if groups[key] < 0:
            raise ValueError(f"{path}: [groups] {key} must not be negative, got {groups[key]:g}")
    return Rubric(autograded, extra, str(path), ties_credit, efficiency_ratio, groups)
