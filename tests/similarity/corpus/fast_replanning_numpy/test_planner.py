import numpy as np

from minheap import MinHeap
from planner import GridPlanner


def test_heap_pops_in_order_after_updates():
    heap = MinHeap()
    for item, key in [("a", 5), ("b", 3), ("c", 9)]:
        heap.push_or_update(item, key)
    heap.push_or_update("c", 1)
    assert [heap.pop()[1] for _ in range(3)] == ["c", "b", "a"]


def test_adaptive_never_expands_more_on_an_open_grid():
    truth = np.zeros((8, 8), dtype=bool)
    truth[3, 1:7] = True
    plain = GridPlanner(truth.shape).navigate(truth, (0, 0), (7, 7))
    learned = GridPlanner(truth.shape, adaptive=True).navigate(truth, (0, 0), (7, 7))
    assert plain[2] and learned[2]
    assert learned[1] <= plain[1]
