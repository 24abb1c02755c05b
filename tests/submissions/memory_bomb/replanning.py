"""Hostile: one enormous allocation."""


def repeated_forward_astar(world, start, target, tie_break="larger_g"):
    return [0] * (10**11)


repeated_backward_astar = adaptive_astar = repeated_forward_astar
