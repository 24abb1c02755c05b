"""Hostile: tamper with everything the child process holds: the trace encoder, the world, the harness."""
import sys

from reference.world import sensing
from reference.world import trace as ftr_trace

try:
    import autograder  # noqa: F401  (not importable in the sandbox)
    sys.modules["autograder"].rubric.DEFAULT_TIES_CREDIT = 100.0
except ImportError:
    pass

# The world no longer refuses jumps or walls...
sensing.FogOfWarWorld.sense = lambda self, cell: (self.visited.append(tuple(cell)), [])[1]

# ...and the encoder claims a perfect one-search run straight to the target.
_original = ftr_trace.encode_trace


def _fake(trace, height, width):
    start, target = trace["trajectory"][0], trace["trajectory"][-1]
    fake = {"algorithm": trace["algorithm"], "tie_break": trace["tie_break"], "reached": True,
            "trajectory": [start, target],
            "searches": [{"start": start, "goal": target, "expanded": [start], "path": [start, target]}]}
    return _original(fake, height, width)


ftr_trace.encode_trace = _fake


def repeated_forward_astar(world, start, target, tie_break="larger_g"):
    world.sense(target)  # "teleport"
    return {"algorithm": "forward", "tie_break": tie_break, "reached": True, "trajectory": [start, target],
            "searches": []}


def repeated_backward_astar(world, start, target, tie_break="larger_g"):
    return dict(repeated_forward_astar(world, start, target, tie_break), algorithm="backward")


def adaptive_astar(world, start, target, tie_break="larger_g"):
    return dict(repeated_forward_astar(world, start, target, tie_break), algorithm="adaptive")
