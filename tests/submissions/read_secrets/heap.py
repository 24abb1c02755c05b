"""A stub heap (this submission is about reading secrets, see replanning.py)."""


class BinaryHeap:
    pass
