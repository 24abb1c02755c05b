"""A helper module that imports heapq (one of the routes the static scan must see)."""
import heapq  # noqa: F401

shortcut = heapq
