"""The true world the agents walk in: a blocked-cell set with bounds."""
import random


class TrueGrid:
    def __init__(self, height, width, blocked):
        self.height, self.width, self._blocked = height, width, set(blocked)

    @classmethod
    def random(cls, height, width, density, seed):
        rng = random.Random(seed)
        cells = {(r, c) for r in range(height) for c in range(width) if rng.random() < density}
        return cls(height, width, cells - {(0, 0), (height - 1, width - 1)})

    def blocked(self, cell):
        return cell in self._blocked

    def neighbours(self, cell):
        r, c = cell
        return [n for n in ((r, c + 1), (r + 1, c), (r, c - 1), (r - 1, c))
                if 0 <= n[0] < self.height and 0 <= n[1] < self.width]
