"""Hostile: try to write outside the sandbox's work folder. The test fills in TARGETS."""
import os

TARGETS = []


def repeated_forward_astar(world, start, target, tie_break="larger_g"):
    written = []
    for path in TARGETS + [os.path.join(os.path.dirname(os.path.abspath(__file__)), "planted.py")]:
        try:
            with open(path, "w") as file:
                file.write("hacked")
            written.append(path)
        except OSError:
            pass
    with open("scratch.txt", "w") as file:  # its own working folder: allowed
        file.write("fine")
    raise RuntimeError(f"written: {written}")


repeated_backward_astar = adaptive_astar = repeated_forward_astar
