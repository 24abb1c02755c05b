'''
Repeated A* with a bucket OPEN list.

f-values and g-values are small integers, so OPEN is   buckets[f][g] = set of cells.
Popping: smallest f, then the largest g (or the smallest g for tie_break="smaller_g"), then any
cell of that set.  (The BinaryHeap in heap.py is for part 0 of the homework; I found buckets
simpler for the search.)
'''

from bucket_open import BucketOpen

NOT_FOUND = 10 ** 9


def heuristic(a, b):
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def make_trace(kind, tie_break, start):
    return {'algorithm': kind, 'tie_break': tie_break, 'reached': False,
            'trajectory': [start], 'searches': []}


def go(world, start, target, tie_break, kind):
    start = tuple(start)
    target = tuple(target)
    trace = make_trace(kind, tie_break, start)
    if start == target:
        trace['reached'] = True
        return trace
    H, W = world.height, world.width
    wall = set()
    for c in world.sense(start):
        wall.add(tuple(c))
    gval = {}
    when = {}
    back = {}
    h_learned = {}
    counter = 0
    me = start

    while True:
        counter += 1
        if kind == 'backward':
            first, last = target, me
        else:
            first, last = me, target

        def h(c):
            if c in h_learned:
                return h_learned[c]
            return heuristic(c, last)

        gval[first] = 0
        when[first] = counter
        gval[last] = NOT_FOUND
        when[last] = counter
        OPEN = BucketOpen(tie_break == 'larger_g')
        OPEN.put(first, h(first), 0)
        expanded = []
        while gval[last] > OPEN.min_f():
            s = OPEN.take()
            expanded.append(s)
            r, c = s
            for t in ((r, c + 1), (r + 1, c), (r, c - 1), (r - 1, c)):
                if not (0 <= t[0] < H and 0 <= t[1] < W) or t in wall:
                    continue
                if when.get(t, 0) < counter:
                    gval[t] = NOT_FOUND
                    when[t] = counter
                if gval[t] > gval[s] + 1:
                    if t in OPEN:
                        OPEN.discard(t)
                    gval[t] = gval[s] + 1
                    back[t] = s
                    OPEN.put(t, gval[t] + h(t), gval[t])
        if gval[last] < NOT_FOUND:
            expanded.append(last)      # the goal is reached, so it goes to CLOSED too
        search = {'start': first, 'goal': last, 'expanded': expanded, 'path': []}
        trace['searches'].append(search)
        if gval[last] == NOT_FOUND:
            return trace
        p = [last]
        while p[-1] != first:
            p.append(back[p[-1]])
        if kind != 'backward':
            p = p[::-1]
        search['path'] = p
        if kind == 'adaptive':
            for s in expanded:
                h_learned[s] = gval[last] - gval[s]
        k = 1
        while k < len(p):
            blocked_ahead = False
            for q in p[k:]:
                if q in wall:
                    blocked_ahead = True
                    break
            if blocked_ahead:
                break
            me = p[k]
            trace['trajectory'].append(me)
            if me == target:
                trace['reached'] = True
                return trace
            for c in world.sense(me):
                wall.add(tuple(c))
            k += 1


def repeated_forward_astar(world, start, target, tie_break='larger_g'):
    return go(world, start, target, tie_break, 'forward')


def repeated_backward_astar(world, start, target, tie_break='larger_g'):
    return go(world, start, target, tie_break, 'backward')


def adaptive_astar(world, start, target, tie_break='larger_g'):
    return go(world, start, target, tie_break, 'adaptive')
