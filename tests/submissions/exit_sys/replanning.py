"""Hostile: sys.exit(0) instead of returning a trace."""
import sys


def repeated_forward_astar(world, start, target, tie_break="larger_g"):
    sys.exit(0)


repeated_backward_astar = adaptive_astar = repeated_forward_astar
