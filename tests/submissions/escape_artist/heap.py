"""A stub heap (this submission tries to outlive its grading, see replanning.py)."""


class BinaryHeap:
    pass
