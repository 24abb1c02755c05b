"""Hostile: raise, in the function and in what the grader touches afterwards."""


class Exploding(dict):
    def __getitem__(self, key):
        raise RuntimeError(f"no {key} for you")

    def __getattr__(self, name):
        raise RuntimeError(f"no {name} for you")


def repeated_forward_astar(world, start, target, tie_break="larger_g"):
    raise ValueError("raised on purpose")


def repeated_backward_astar(world, start, target, tie_break="larger_g"):
    return Exploding(algorithm="backward")


def adaptive_astar(world, start, target, tie_break="larger_g"):
    def deep(n):
        return deep(n + 1)
    return deep(0)
