"""Hostile: flood stdout."""
import sys


class BinaryHeap:
    def __init__(self):
        line = "x" * 1_000_000 + "\n"
        for _ in range(1000):  # 1 GB
            sys.stdout.write(line)
