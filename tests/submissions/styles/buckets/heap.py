'''
binary heap (min) for hw1
  - data[k] = [key, value]
  - spot[value] = k
children of k: 2k+1, 2k+2.  parent: (k-1)//2
'''


class BinaryHeap(object):

    def __init__(self):
        self.data = []
        self.spot = {}

    def __len__(self):
        return len(self.data)

    def __contains__(self, value):
        return value in self.spot

    def push(self, value, key):
        if value in self.spot:
            raise ValueError('already there: ' + repr(value))
        self.data.append([key, value])
        self.spot[value] = len(self.data) - 1
        self.fix(len(self.data) - 1)

    def peek(self):
        if len(self.data) == 0:
            raise IndexError('nothing in heap')
        return self.data[0][1]

    def pop(self):
        if len(self.data) == 0:
            raise IndexError('nothing in heap')
        value = self.data[0][1]
        self.remove(value)
        return value

    def update(self, value, key):
        k = self.spot[value]
        self.data[k][0] = key
        self.fix(k)

    def remove(self, value):
        k = self.spot[value]
        del self.spot[value]
        moved = self.data.pop()
        if k < len(self.data):
            self.data[k] = moved
            self.spot[moved[1]] = k
            self.fix(k)

    # one function that moves entry k to the right place, whichever way it has to go
    def fix(self, k):
        d = self.data
        while k > 0 and d[k][0] < d[(k - 1) // 2][0]:
            p = (k - 1) // 2
            d[k], d[p] = d[p], d[k]
            self.spot[d[k][1]] = k
            self.spot[d[p][1]] = p
            k = p
        n = len(d)
        while True:
            m = k
            for c in (2 * k + 1, 2 * k + 2):
                if c < n and d[c][0] < d[m][0]:
                    m = c
            if m == k:
                break
            d[k], d[m] = d[m], d[k]
            self.spot[d[k][1]] = k
            self.spot[d[m][1]] = m
            k = m
