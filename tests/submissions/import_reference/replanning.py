"""Hostile: take the reference's solutions; fall back to the autograder's internals."""
try:
    from reference.solutions import adaptive_astar, repeated_backward_astar, repeated_forward_astar  # noqa: F401
except ImportError:
    from autograder.expected import reference_run  # noqa: F401
