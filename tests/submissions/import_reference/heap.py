"""Hostile: take the reference's heap instead of writing one."""
from reference.solutions.heap import BinaryHeap  # noqa: F401
