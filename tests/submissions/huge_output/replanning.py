"""Hostile: flood stderr, then return a gigantic trace."""
import sys


def repeated_forward_astar(world, start, target, tie_break="larger_g"):
    for _ in range(200):
        sys.stderr.write("y" * 1_000_000)


def repeated_backward_astar(world, start, target, tie_break="larger_g"):
    cell = [start[0], start[1]]
    return {"algorithm": "backward", "tie_break": tie_break, "reached": True, "trajectory": [cell] * 30_000_000,
            "searches": []}


adaptive_astar = repeated_forward_astar
