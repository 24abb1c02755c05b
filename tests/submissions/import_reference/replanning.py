"""Hostile: take the reference's solutions; fall back to the autograder's internals."""
try:
    from reference.solutions import (  # noqa: F401
        adaptive_astar,
        repeated_backward_astar,
        repeated_forward_astar,
    )
except ImportError:
    from autograder.expected import reference_run  # noqa: F401
