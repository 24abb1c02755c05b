"""A stub heap (this submission fills every scratch space it can, see replanning.py)."""


class BinaryHeap:
    pass
