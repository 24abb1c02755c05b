"""ftr-kit: the library behind the kit.

``reference.world`` is public (students get it): grids, map files, the maze generator, the agent's
senses and memory, the trace record and pictures. ``reference.solutions`` holds the reference
solutions and stays private. ``reference.experiments`` runs the standard experiment.
"""

__version__ = "0.1.0"
