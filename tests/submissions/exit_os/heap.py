"""Hostile: end the whole process with os._exit(0)."""
import os


class BinaryHeap:
    def __init__(self):
        os._exit(0)
