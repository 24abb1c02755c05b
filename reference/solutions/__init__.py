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
    """Run ``algorithm`` on ``instance`` through a fresh fog-of-war world.

    Parameters
    ----------
    instance : Instance
        A maze with its start and target (:func:`reference.world.instances.load_folder`).
    algorithm : {"forward", "backward", "adaptive"}
    tie_break : {"larger_g", "smaller_g"}

    Returns
    -------
    Trace
        The SPEC §8 trace.

    Raises
    ------
    ValueError
        An unknown algorithm or tie rule.

    See Also
    --------
    repeated_forward_astar, repeated_backward_astar, adaptive_astar : the algorithms it runs.
    reference.solutions.compiled.replanning.run_compiled : the compiled twin, on the instance's grid.

    Examples
    --------
    >>> from reference.world.instances import Instance
    >>> from reference.world import Gridworld
    >>> maze = Instance("tiny", Gridworld.from_strings(["...", ".@.", "..."]), (2, 0), (0, 2))
    >>> solve(maze, "backward").trajectory[-1]
    (0, 2)
    """
    planner = REPLANNERS.planner(algorithm, tie_break=tie_break)
    return planner.run(FogOfWarWorld(instance.grid, instance.start), instance.start, instance.target)


__all__ = ["BinaryHeap", "REPLANNERS", "Registry", "adaptive_astar", "repeated_backward_astar", "repeated_forward_astar", "solve"]
