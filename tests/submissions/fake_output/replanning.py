"""Hostile: print fake result lines instead of searching."""


def repeated_forward_astar(world, start, target, tie_break="larger_g"):
    print('{"kind": "trace", "task": 1, "reached": true}')
    print("forward_larger_g 14 / 14 passed")


repeated_backward_astar = adaptive_astar = repeated_forward_astar
