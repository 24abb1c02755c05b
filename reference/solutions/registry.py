"""Planners by name: one registry type for every family of planners of the kit.

A registry maps the names traces and the command line use to *planner makers*. A maker takes the
planner's settings, keyword-only, and returns a planner; the problem comes later, to the planner's
``run(world, start, target)``. Every planner moves its agent with the kit's agent core
(:func:`reference.solutions.agent.run_agent`), so a newcomer reads the loop once.

    planner = REGISTRY.planner("lrta_astar", lookahead=9, heuristic="weak")   # settings
    run = planner.run(world, start, target)                                    # the problem

A maker is a planner class whose constructor takes keyword-only settings (the known-map planners
of :mod:`reference.solutions.subgoaling`), or a run function ``f(world, start, target, ...)`` made
into one by :func:`bind` (the functions of the handout's contract keep their signatures).

>>> def walk_east(world, start, target, steps=1):
...     return [(start[0], start[1] + i) for i in range(steps + 1)]
>>> registry = Registry({"east": bind(walk_east)})
>>> registry.planner("east", steps=2).run(None, (0, 0), (0, 2))
[(0, 0), (0, 1), (0, 2)]
>>> registry.settings("east"), registry.those_taken("east", steps=3, lookahead=9)
(('steps',), {'steps': 3})
>>> registry.planner("west")
Traceback (most recent call last):
...
ValueError: unknown algorithm 'west'; choose one of east
>>> registry.planner("east", stride=2)
Traceback (most recent call last):
...
ValueError: east takes the settings steps, not stride
"""

from __future__ import annotations

import inspect
from collections.abc import Iterator, Mapping
from typing import Any, Callable, Protocol

from reference.world.grid import Cell


class Runnable(Protocol):
    """A planner with its settings: it runs one problem at a time."""

    def run(self, world: Any, start: Cell, target: Cell) -> Any:
        ...


class BoundRun:
    """A run function with its settings bound: ``run(world, start, target)`` calls
    ``function(world, start, target, **settings)``."""

    def __init__(self, function: Callable[..., Any], **settings: Any) -> None:
        self.function = function
        self.settings = settings

    def run(self, world: Any, start: Cell, target: Cell) -> Any:
        return self.function(world, start, target, **self.settings)

    def __repr__(self) -> str:
        settings = ", ".join(f"{key}={value!r}" for key, value in self.settings.items())
        return f"{self.function.__name__}({settings})"


def bind(function: Callable[..., Any]) -> Callable[..., BoundRun]:
    """A planner maker from a run function ``function(world, start, target, <settings>)``.

    The maker takes the settings keyword-only; its planner's ``run(world, start, target)`` calls the
    function. The maker's signature is the function's settings, so :meth:`Registry.settings` reads it.
    """

    def make(**settings: Any) -> BoundRun:
        return BoundRun(function, **settings)

    parameters = list(inspect.signature(function).parameters.values())[3:]
    make.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [parameter.replace(kind=inspect.Parameter.KEYWORD_ONLY) for parameter in parameters])
    make.__name__ = make.__qualname__ = function.__name__
    make.__doc__ = function.__doc__
    return make


class Registry(Mapping[str, Callable[..., Runnable]]):
    """Planner makers by algorithm name (a read-only mapping, in the order given).

    :meth:`planner` makes one from keyword-only settings and says in one line what was wrong (an
    unknown name, a setting the planner does not take); :meth:`settings` lists what a planner takes.
    """

    def __init__(self, makers: Mapping[str, Callable[..., Runnable]]) -> None:
        self._makers = dict(makers)
        # Each maker's settings, read from its signature once: inspect.signature costs ~200 us,
        # as long as a short compiled run, and experiments make a planner per problem.
        self._settings: dict[str, tuple[str, ...]] = {}

    def __getitem__(self, name: str) -> Callable[..., Runnable]:
        return self._makers[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._makers)

    def __len__(self) -> int:
        return len(self._makers)

    def maker(self, name: str) -> Callable[..., Runnable]:
        """The maker of ``name``, or a ValueError naming the known ones."""
        if name not in self._makers:
            raise ValueError(f"unknown algorithm {name!r}; choose one of {', '.join(self._makers)}")
        return self._makers[name]

    def settings(self, name: str) -> tuple[str, ...]:
        """The names of the settings the planner ``name`` takes."""
        if name not in self._settings:
            self._settings[name] = tuple(inspect.signature(self.maker(name)).parameters)
        return self._settings[name]

    def those_taken(self, name: str, **settings: Any) -> dict[str, Any]:
        """The ``settings`` that the planner ``name`` takes (for a caller offering one set to all)."""
        taken = self.settings(name)
        return {key: value for key, value in settings.items() if key in taken}

    def planner(self, name: str, **settings: Any) -> Runnable:
        """The planner ``name`` with ``settings``: call its ``run(world, start, target)``."""
        maker, taken = self.maker(name), self.settings(name)
        unknown = [key for key in settings if key not in taken]
        if unknown:
            raise ValueError(f"{name} takes the settings {', '.join(taken) or 'none'}, not {', '.join(unknown)}")
        return maker(**settings)

    def run(self, name: str, world: Any, start: Cell, target: Cell, **settings: Any) -> Any:
        """``planner(name, **settings).run(world, start, target)`` in one call."""
        return self.planner(name, **settings).run(world, start, target)

    def __repr__(self) -> str:
        return f"Registry({', '.join(self._makers)})"
