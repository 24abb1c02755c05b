"""Hostile: see heap.py (the five attacks run when heap.py is imported); nothing of its own here."""
from heap import FACTS


def repeated_forward_astar(world, start, target, tie_break="larger_g"):
    raise RuntimeError(f"facts: {FACTS!r}")


repeated_backward_astar = adaptive_astar = repeated_forward_astar
