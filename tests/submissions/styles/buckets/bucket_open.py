'''OPEN list as buckets: buckets[f][g] = set of cells; key_of[cell] = (f, g).'''


class BucketOpen:
    def __init__(self, larger_g):
        self.buckets = {}
        self.key_of = {}
        self.larger_g = larger_g

    def __contains__(self, cell):
        return cell in self.key_of

    def __len__(self):
        return len(self.key_of)

    def put(self, cell, f, g):
        self.buckets.setdefault(f, {}).setdefault(g, set()).add(cell)
        self.key_of[cell] = (f, g)

    def discard(self, cell):
        f, g = self.key_of.pop(cell)
        same_f = self.buckets[f]
        same_f[g].discard(cell)
        if not same_f[g]:
            del same_f[g]
        if not same_f:
            del self.buckets[f]

    def min_f(self):
        if not self.buckets:
            return 10 ** 9
        return min(self.buckets)

    def take(self):
        f = min(self.buckets)
        g = max(self.buckets[f]) if self.larger_g else min(self.buckets[f])
        cell = next(iter(self.buckets[f][g]))
        self.discard(cell)
        return cell
