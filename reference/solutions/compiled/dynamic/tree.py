"""Twin of ``dynamic/tree.py``: the oracle controller and the decision trees' samples, a Python
controller over the compiled lookahead (:class:`.lrta.CompiledAgent`).
"""

from __future__ import annotations

import numpy as np

from reference.solutions.dynamic.lrta import Agent, Controller
from reference.world.grid import Cell

from .lrta import CompiledAgent, Lookahead, apply_compiled, steps_by_depth


def oracle_compiled(d_max: int) -> Controller:
    """The twin of :func:`reference.solutions.dynamic.tree.oracle` for :class:`CompiledAgent`."""
    from reference.solutions.dynamic.tree import depth_label

    def control(agent: Agent) -> tuple[int, Cell]:
        if not isinstance(agent, CompiledAgent):
            raise TypeError("oracle_compiled controls a CompiledAgent (general_lrta_compiled); "
                            "for the readable general_lrta, use reference.solutions.dynamic.tree.oracle")
        steps = steps_by_depth(agent, agent.goal, d_max)
        if not steps:
            return 1, agent.goal
        return depth_label(steps, max(steps)), agent.goal

    return control


def collect_samples_compiled(blocked: np.ndarray, start: Cell, goal: Cell, d_maxes, *, n: int | None = None,
                             max_actions: int = 20_000, lookahead: Lookahead | None = None,
                             follow: Controller | None = None):
    """The twin of :func:`reference.solutions.dynamic.tree.collect_samples` (same features and labels)."""
    from reference.solutions.dynamic.tree import HISTORY, depth_label, features

    n = HISTORY if n is None else n
    deepest = max(d_maxes)
    lookahead = lookahead or Lookahead(blocked)
    agent = CompiledAgent(lookahead, start, goal)
    rows: list[list[float]] = []
    labels: dict[int, list[int]] = {d: [] for d in d_maxes}
    while agent.state != goal and len(agent.path) <= max_actions:
        out = lookahead.choices(agent.h, agent.state, goal, deepest)
        steps = {d: lookahead.cell(out[d, 1]) for d in range(1, deepest + 1) if out[d, 0] >= 0}
        if not steps:
            break
        rows.append(features(agent, n))
        for d_max in d_maxes:
            labels[d_max].append(depth_label(steps, min(d_max, max(steps))))
        depth = max(steps) if follow is None else min(max(1, follow(agent)[0]), max(steps))
        apply_compiled(agent, out, depth, goal)
    return np.array(rows, dtype=float).reshape(-1, 4), {d: np.array(v, dtype=int) for d, v in labels.items()}
