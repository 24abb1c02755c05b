"""Hostile: a trace made of objects that equal everything."""
from heap import Anything


def repeated_forward_astar(world, start, target, tie_break="larger_g"):
    everything = Anything()
    return {"algorithm": Anything(), "tie_break": tie_break, "reached": Anything(),
            "trajectory": [everything, everything], "searches": [{"start": everything, "goal": everything,
                                                                  "expanded": everything, "path": everything}]}


repeated_backward_astar = adaptive_astar = repeated_forward_astar
