"""Hostile: end the whole process with os._exit(0) in the middle of a run."""
import os


def repeated_forward_astar(world, start, target, tie_break="larger_g"):
    world.sense(start)
    os._exit(0)


repeated_backward_astar = adaptive_astar = repeated_forward_astar
