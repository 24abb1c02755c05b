"""The reference solutions (private: students write these themselves).

>>> from reference.world.instances import load_folder, standard_mazes_dir
>>> trace = solve(load_folder(standard_mazes_dir())[0], "adaptive")
>>> trace.reached
True
"""

from __future__ import annotations

from reference.world.instances import Instance
from reference.world.sensing import FogOfWarWorld
from reference.world.trace import Trace

from .heap import BinaryHeap
from .registry import Registry, bind
from .replanning import adaptive_astar, repeated_backward_astar, repeated_forward_astar

#: The three Repeated A* variants by the names traces and the command line use; one setting,
#: ``tie_break``: ``REPLANNERS.planner("adaptive", tie_break="smaller_g").run(world, start, target)``.
REPLANNERS = Registry({
    "forward": bind(repeated_forward_astar),
    "backward": bind(repeated_backward_astar),
    "adaptive": bind(adaptive_astar),
})


def solve(instance: Instance, algorithm: str = "forward", tie_break: str = "larger_g") -> Trace:
    """Run ``algorithm`` on ``instance`` through a fresh fog-of-war world."""
    planner = REPLANNERS.planner(algorithm, tie_break=tie_break)
    return planner.run(FogOfWarWorld(instance.grid, instance.start), instance.start, instance.target)


__all__ = ["BinaryHeap", "REPLANNERS", "Registry", "adaptive_astar", "repeated_backward_astar", "repeated_forward_astar", "solve"]
