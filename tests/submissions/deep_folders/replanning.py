"""Hostile: 3,000 nested folders in its working folder (a recursive clean-up would fail)."""
import os


def repeated_forward_astar(world, start, target, tie_break="larger_g"):
    base = os.open(".", os.O_RDONLY)
    for _ in range(3000):
        try:
            os.mkdir("d", dir_fd=base)
            inner = os.open("d", os.O_RDONLY, dir_fd=base)
        except OSError:
            break
        os.close(base)
        base = inner
    raise RuntimeError("nested")


repeated_backward_astar = adaptive_astar = repeated_forward_astar
