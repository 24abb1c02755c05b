"""Hostile: never finish."""


class BinaryHeap:
    def __init__(self):
        while True:
            pass
