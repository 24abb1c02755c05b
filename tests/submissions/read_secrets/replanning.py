"""Hostile: look for the secret seed, the expected results and the grader's cache, then show them.

The test replaces TARGETS with the real paths before grading.
"""
import glob
import os

TARGETS = []


def _steal():
    found = [f"env:{key}={value}" for key, value in os.environ.items() if "SECRET" in key or "CACHE" in key]
    for pattern in TARGETS:
        for path in glob.glob(pattern, recursive=True) or [pattern]:
            try:
                with open(path, "rb") as file:
                    found.append(f"{path}:{file.read(200)!r}")
            except OSError:
                pass
    return found


def repeated_forward_astar(world, start, target, tie_break="larger_g"):
    raise RuntimeError(f"stolen: {_steal()}")


repeated_backward_astar = adaptive_astar = repeated_forward_astar
