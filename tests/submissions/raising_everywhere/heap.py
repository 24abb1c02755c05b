"""Hostile: raise from everything, including things that are not Exceptions."""


class Weird(BaseException):
    pass


class BinaryHeap:
    def __init__(self):
        pass

    def push(self, item, priority):
        raise KeyboardInterrupt

    def pop(self):
        raise Weird("weird")

    def peek(self):
        raise GeneratorExit

    def update(self, item, priority):
        raise RecursionError

    def remove(self, item):
        raise MemoryError

    def __len__(self):
        raise SystemExit(3)

    def __contains__(self, item):
        raise StopIteration

    def __del__(self):
        raise RuntimeError("from __del__")
