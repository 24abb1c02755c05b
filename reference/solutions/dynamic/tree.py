"""Search depth by decision tree (Bulitko et al. 2007, "Decision-Tree Classifier Approach").

The four features, over the agent's last ``n`` steps (n = 20 in the paper):

1. ``h(s, s_goal)``: the initial (octile) estimate from the current state to the goal;
2. the octile estimate between the current state and the state ``n`` steps ago (the start if the
   run is younger);
3. revisits: how many of the last ``n`` states occur more than once among them (length − distinct);
4. heuristic updates: how many of the last ``n`` steps raised h.

The label of a state is the shallowest depth ``d_s`` such that every depth ``d_s .. d_max`` takes
the same action as the ``d_max`` search ("the progression is stopped" at the first disagreeing
depth). One search to ``d_max`` gives the actions of every shallower depth (see :mod:`.lrta`), so
:func:`collect_samples` labels a step for every ``d_max`` at once while the agent follows the
deepest search (as the paper's training phase: "the agent first conducts a d_max-ply search to
derive the 'optimal' action"). The trees of the study are also retrained once on the states their
own agent visits (``collect_samples(..., follow=tree)``; DAgger, Ross et al. 2011), since a shallow
agent meets states a deep one does not. The classifier is scikit-learn's ``DecisionTreeClassifier`` (the paper used WEKA's
J48), its minimum leaf size and cost-complexity pruning chosen by cross-validation.

>>> depth_label({1: "E", 2: "S", 3: "E", 4: "E"}, d_max=4)    # depths 3 and 4 agree, 2 does not
3
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Sequence

import numpy as np

from reference.world.grid import Cell, Gridworld, octile
from reference.world.sensing import Knowledge, KnownMapWorld
from reference.world.trace import SearchRecord

from reference.solutions.agent import run_agent
from reference.solutions.dynamic.lrta import (
    Agent, Controller, Neighbours, apply, breadth_first_layers, choices_by_depth,
)

if TYPE_CHECKING:  # scikit-learn is imported when a tree is trained, not with the module
    from sklearn.tree import DecisionTreeClassifier

HISTORY = 20
FEATURE_NAMES = ("h_to_goal", "h_to_n_steps_ago", "revisits", "heuristic_updates")


def features(agent: Agent, n: int = HISTORY) -> list[float]:
    """The paper's four features for the agent's current state (see the module docstring)."""
    path = agent.path
    window = path[-n:]
    back = path[max(0, len(path) - 1 - n)]
    return [octile(agent.state, agent.goal), octile(agent.state, back),
            float(len(window) - len(set(window))), float(sum(agent.raised[-n:]))]


def depth_label(steps: dict[int, Cell], d_max: int) -> int:
    """The shallowest depth from which every deeper search up to ``d_max`` takes the same step."""
    label = d_max
    while label > 1 and steps.get(label - 1) == steps[d_max]:
        label -= 1
    return label


class SampleCollector:
    """The training run as a planner of the kit's agent core (:func:`~reference.solutions.agent.run_agent`):
    each planning episode searches to ``max(d_maxes)``, records the features and every d_max's label,
    and moves with the deepest choice (or with the depth ``follow`` picks). See :func:`collect_samples`."""

    algorithm = "lrta"
    tie_break = "larger_g"

    def __init__(self, *, neighbours: Neighbours, d_maxes: Sequence[int], n: int = HISTORY,
                 max_actions: int = 20_000, follow: Controller | None = None) -> None:
        self.neighbours, self.d_maxes, self.n = neighbours, list(d_maxes), n
        self.max_actions, self.follow = max_actions, follow

    def run(self, world: KnownMapWorld, start: Cell, goal: Cell) -> tuple[np.ndarray, dict[int, np.ndarray]]:
        """Run from ``start`` to ``goal``; the features (one row per action) and the labels per d_max."""
        self.agent = Agent(self.neighbours, start, goal, path=[start])
        self.rows: list[list[float]] = []
        self.labels: dict[int, list[int]] = {d: [] for d in self.d_maxes}
        run_agent(world, start, goal, self, world.knowledge(), self.max_actions)
        return (np.array(self.rows, dtype=float).reshape(-1, 4),
                {d: np.array(v, dtype=int) for d, v in self.labels.items()})

    def plan_episode(self, cell: Cell, knowledge: Knowledge, newly_blocked: list[Cell]) -> SearchRecord:
        agent, goal, deepest = self.agent, self.agent.goal, max(self.d_maxes)
        look = breadth_first_layers(self.neighbours, cell, goal, deepest)
        choices = choices_by_depth(look, lambda near: agent.h(near, goal), range(1, deepest + 1))
        if not choices:
            return SearchRecord(start=cell, goal=goal, expanded=[], path=[])
        steps = {d: c.step for d, c in choices.items()}
        self.rows.append(features(agent, self.n))
        for d_max in self.d_maxes:
            self.labels[d_max].append(depth_label(steps, min(d_max, max(steps))))
        depth = max(choices) if self.follow is None else min(max(1, self.follow(agent)[0]), max(choices))
        apply(agent, choices[depth], goal)
        return SearchRecord(start=cell, goal=goal, expanded=look.expanded(deepest), path=[cell, choices[depth].step])


def collect_samples(neighbours: Neighbours, start: Cell, goal: Cell, d_maxes: Sequence[int], *,
                    n: int = HISTORY, max_actions: int = 20_000,
                    follow: Controller | None = None) -> tuple[np.ndarray, dict[int, np.ndarray]]:
    """Run LRTA* at depth ``max(d_maxes)``; per step, the features and the label for each d_max.

    ``follow``: move with the depth this controller picks instead (a trained tree), the labels still
    from the deepest search: samples along the tree's own trajectories, for retraining (DAgger).

    Parameters
    ----------
    neighbours : Neighbours
        The map's successor table.
    start, goal : Cell
        Free ``(row, col)`` cells of the map.
    d_maxes : sequence of int
        The deepest depths to label for (one label array each).
    n : int
        The features' history length (the paper's 20).
    max_actions : int
        The run ends after this many actions.
    follow : Controller, optional
        Move with this controller's depth instead of the deepest search's.

    Returns
    -------
    tuple of numpy.ndarray and dict
        The features, one row of four per action, and ``{d_max: labels}``, one label per action.

    Raises
    ------
    ValueError
        A blocked start, or a start or goal outside the map.

    See Also
    --------
    train_depth_tree : fits the decision tree on these samples.
    reference.solutions.compiled.dynamic.tree.collect_samples_compiled : the compiled twin (the same samples).

    Examples
    --------
    >>> blocked = np.zeros((3, 5), dtype=bool); blocked[0:2, 2] = True
    >>> x, y = collect_samples(Neighbours(blocked), (0, 0), (0, 4), [1, 3])
    >>> x.shape, y[3].tolist()
    ((6, 4), [2, 2, 1, 1, 1, 1])
    """
    collector = SampleCollector(neighbours=neighbours, d_maxes=d_maxes, n=n, max_actions=max_actions, follow=follow)
    height, width = neighbours.blocked.shape
    grid = Gridworld(height, width, neighbours.blocked)
    return collector.run(KnownMapWorld(grid, start, 8), start, goal)


def oracle(d_max: int) -> Controller:
    """The perfect classifier: at each step the label depth itself (its own d_max search is not counted)."""

    def control(agent: Agent) -> tuple[int, Cell]:
        look = breadth_first_layers(agent.neighbours, agent.state, agent.goal, d_max)
        choices = choices_by_depth(look, lambda cell: agent.h(cell, agent.goal), range(1, d_max + 1))
        if not choices:
            return 1, agent.goal
        steps = {d: c.step for d, c in choices.items()}
        return depth_label(steps, max(steps)), agent.goal

    return control


@dataclass
class DepthTree:
    """A fitted decision tree with the parameters cross-validation chose and its CV accuracy."""

    classifier: DecisionTreeClassifier
    min_samples_leaf: int
    ccp_alpha: float
    accuracy: float

    @property
    def leaves(self) -> int:
        return int(self.classifier.get_n_leaves())

    def controller(self, n: int = HISTORY) -> Controller:
        tree = self.classifier.tree_
        classes = self.classifier.classes_

        def control(agent: Agent) -> tuple[int, Cell]:
            # Walk the fitted tree by hand: scikit-learn's predict() costs ~0.1 ms of call overhead.
            x = features(agent, n)
            node = 0
            while tree.children_left[node] >= 0:
                node = tree.children_left[node] if x[tree.feature[node]] <= tree.threshold[node] \
                    else tree.children_right[node]
            return int(classes[int(np.argmax(tree.value[node][0]))]), agent.goal

        return control


def train_depth_tree(x: np.ndarray, y: np.ndarray, *, leaf_sizes=(25, 100, 200), alphas=(0.0, 1e-4, 1e-3),
                     folds: int = 5, seed: int = 0) -> DepthTree:
    """Fit ``DecisionTreeClassifier``, choosing min leaf size and ccp_alpha by ``folds``-fold CV.

    Parameters
    ----------
    x : numpy.ndarray
        The features, one row of four per sample (:func:`collect_samples`).
    y : numpy.ndarray
        The depth labels, one per sample.
    leaf_sizes, alphas : sequence
        The candidate minimum leaf sizes (those leaving every fold enough samples; else 1) and
        cost-complexity pruning strengths.
    folds : int
        The cross-validation's folds (fewer for very few samples).
    seed : int
        The classifier's random state.

    Returns
    -------
    DepthTree
        The fitted tree, the parameters chosen and its cross-validated accuracy;
        :meth:`DepthTree.controller` is line 3 of Figure 1 from it.

    See Also
    --------
    collect_samples : the samples it is trained on.
    reference.solutions.compiled.dynamic.lrta.general_lrta_compiled : runs the tree's controller with the
        compiled lookahead.
    """
    from sklearn.model_selection import GridSearchCV
    from sklearn.tree import DecisionTreeClassifier

    leaf_sizes = [size for size in leaf_sizes if size * folds <= len(y)] or [1]
    search = GridSearchCV(DecisionTreeClassifier(random_state=seed),
                          {"min_samples_leaf": list(leaf_sizes), "ccp_alpha": list(alphas)},
                          cv=min(folds, max(2, len(y) // 2)))
    search.fit(x, y)
    best = search.best_estimator_
    return DepthTree(best, int(best.min_samples_leaf), float(best.ccp_alpha), float(search.best_score_))
