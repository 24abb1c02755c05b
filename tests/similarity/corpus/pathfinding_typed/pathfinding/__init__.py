from .core import Episode, PartialMap, a_star, navigate

__all__ = ["Episode", "PartialMap", "a_star", "navigate"]
