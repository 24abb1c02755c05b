"""Hostile: return objects that claim to equal anything."""


class Anything:
    def __eq__(self, other):
        return True

    def __ne__(self, other):
        return False

    __hash__ = object.__hash__

    def __lt__(self, other):
        return True

    def __int__(self):
        return 0

    def __len__(self):
        return 2

    def __getitem__(self, index):
        return self


class BinaryHeap:
    def push(self, item, priority):
        pass

    def pop(self):
        return Anything()

    peek = pop

    def update(self, item, priority):
        pass

    remove = update

    def __len__(self):
        return 0

    def __contains__(self, item):
        return Anything()
