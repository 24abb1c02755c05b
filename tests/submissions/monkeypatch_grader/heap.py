"""A stub heap (this submission is about tampering with the grader, see replanning.py)."""


class BinaryHeap:
    pass
