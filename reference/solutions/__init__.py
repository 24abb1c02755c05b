"""The reference solutions (private: students write these themselves).

>>> from reference.world.instances import load_folder, standard_mazes_dir
>>> trace = solve(load_folder(standard_mazes_dir())[0], "adaptive")
>>> trace.reached
True
"""

from __future__ import annotations

from typing import Callable

from reference.world.instances import Instance
from reference.world.sensing import FogOfWarWorld, World
from reference.world.trace import Trace

from .heap import BinaryHeap
from .replanning import adaptive_astar, repeated_backward_astar, repeated_forward_astar

#: The three Repeated A* variants by the names traces and the command line use.
REPLANNERS: dict[str, Callable[[World, tuple, tuple, str], Trace]] = {
    "forward": repeated_forward_astar,
    "backward": repeated_backward_astar,
    "adaptive": adaptive_astar,
}


def solve(instance: Instance, algorithm: str = "forward", tie_break: str = "larger_g") -> Trace:
    """Run ``algorithm`` on ``instance`` through a fresh fog-of-war world."""
    if algorithm not in REPLANNERS:
        raise ValueError(f"unknown algorithm {algorithm!r}; choose one of {', '.join(REPLANNERS)}")
    world = FogOfWarWorld(instance.grid, instance.start)
    return REPLANNERS[algorithm](world, instance.start, instance.target, tie_break)


__all__ = ["BinaryHeap", "REPLANNERS", "adaptive_astar", "repeated_backward_astar", "repeated_forward_astar", "solve"]
