"""Hostile: leave early with sys.exit(0) whenever asked to do something."""
import sys


class BinaryHeap:
    def __init__(self):
        sys.exit(0)
