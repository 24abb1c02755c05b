"""Decision trees under the paper's protocol: trained and tested on the same maps, 10-fold CV.

Bulitko et al. (2007): "The game maps were used for training and 10-fold cross-validation was used
to avoid over-fitting the data." The kit's first protocol (:func:`reference.experiments.dynamic.run_study`,
method ``tree``) trains on *other* maps and is kept as a generalisation study. This module adds the
paper's, on the same features and labels (:mod:`reference.solutions.dynamic.tree`), collected along
each d_max's own training trajectory on every problem of the study:

* ``tree, same maps`` (the paper's protocol): one tree per d_max trained on the samples of all the
  study's problems (its minimum leaf size and pruning chosen by scikit-learn's 10-fold
  cross-validation, whose accuracy is the paper's "ratio of correctly classified instances"), then
  run on those same problems;
* ``tree, 10-fold``: the same, with each problem run by the tree trained on the other nine tenths of
  the problems (scikit-learn's ``GroupKFold`` by problem, the parameters the pooled search chose),
  so no run is driven by a tree that saw its own trajectory.

Two accuracies are recorded per d_max: the 10-fold CV over samples (``cv_accuracy``, as WEKA's
cross-validation over instances) and over problems (``grouped_cv_accuracy``; neighbouring steps of
one run share most of their 20-step history, so a split over samples is optimistic).

>>> fold_of_problems([("m", 0), ("m", 1), ("n", 0)], folds=3)
{('m', 0): 0, ('m', 1): 1, ('n', 0): 2}
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np

from reference.solutions.dynamic.tree import DepthTree, train_depth_tree

#: The methods this module adds (the generalisation study's is ``"tree"``).
SAME_MAPS = "tree, same maps"
HELD_OUT = "tree, 10-fold"
CV_METHODS = (SAME_MAPS, HELD_OUT)

#: One problem of the study: (map name, problem number).
Key = tuple[str, int]


@dataclass
class Samples:
    """Training samples of one d_max, stacked over problems, each row tagged with its problem."""

    x: np.ndarray
    y: np.ndarray
    problem: list[Key]

    def groups(self) -> np.ndarray:
        """One integer per row naming its problem (for ``GroupKFold``)."""
        ids = {key: i for i, key in enumerate(dict.fromkeys(self.problem))}
        return np.array([ids[key] for key in self.problem])

    def without(self, keys: set[Key]) -> tuple[np.ndarray, np.ndarray]:
        keep = np.array([key not in keys for key in self.problem], dtype=bool)
        return self.x[keep], self.y[keep]


def stack(per_problem: dict[Key, tuple[np.ndarray, np.ndarray]]) -> Samples:
    """The samples of every problem, in the order given."""
    keys = [key for key, (x, _) in per_problem.items() for _ in range(len(x))]
    xs = [x for x, _ in per_problem.values()]
    ys = [y for _, y in per_problem.values()]
    return Samples(np.vstack(xs) if xs else np.zeros((0, 4)), np.concatenate(ys) if ys else np.zeros(0, int), keys)


def fold_of_problems(keys: Sequence[Key], folds: int = 10) -> dict[Key, int]:
    """Problem ``i`` of the list goes to fold ``i mod folds`` (the problems are already random)."""
    return {key: i % folds for i, key in enumerate(keys)}


@dataclass
class CrossValidated:
    """The paper's tree of one d_max, the ten fold trees, and the accuracies."""

    d_max: int
    pooled: DepthTree
    fold_trees: list[DepthTree]
    fold: dict[Key, int]
    grouped_accuracy: float
    samples: int

    def tree_for(self, key: Key) -> DepthTree:
        """The fold tree that never saw problem ``key``."""
        return self.fold_trees[self.fold[key]]

    def row(self, where: str) -> dict:
        return {"protocol": "same maps, 10-fold", "test map": where, "d_max": self.d_max, "samples": self.samples,
                "leaves": self.pooled.leaves, "min_samples_leaf": self.pooled.min_samples_leaf,
                "ccp_alpha": self.pooled.ccp_alpha, "cv_accuracy": self.pooled.accuracy,
                "grouped_cv_accuracy": self.grouped_accuracy,
                "fold_leaves": float(np.mean([t.leaves for t in self.fold_trees]))}


def cross_validate(samples: Samples, d_max: int, keys: Sequence[Key], *, folds: int = 10,
                   seed: int = 0) -> CrossValidated:
    """The pooled tree (parameters and accuracy by ``folds``-fold CV over samples), its accuracy
    under CV over problems, and one tree per fold of problems (trained without that fold)."""
    from sklearn.model_selection import GroupKFold, cross_val_score
    from sklearn.tree import DecisionTreeClassifier

    pooled = train_depth_tree(samples.x, samples.y, folds=folds, seed=seed)
    same = lambda: DecisionTreeClassifier(random_state=seed, min_samples_leaf=pooled.min_samples_leaf,  # noqa: E731
                                          ccp_alpha=pooled.ccp_alpha)
    groups = samples.groups()
    splits = min(folds, len(set(groups.tolist())))
    grouped = float(np.mean(cross_val_score(same(), samples.x, samples.y, groups=groups,
                                            cv=GroupKFold(n_splits=splits)))) if splits >= 2 else float("nan")
    fold = fold_of_problems(keys, folds)
    fold_trees = []
    for f in range(folds):
        x, y = samples.without({key for key, k in fold.items() if k == f})
        classifier = same().fit(x, y) if len(y) else pooled.classifier
        fold_trees.append(DepthTree(classifier, pooled.min_samples_leaf, pooled.ccp_alpha, float("nan")))
    return CrossValidated(d_max, pooled, fold_trees, fold, grouped, len(samples.y))


def collect(sample: Callable[[Key, int], tuple[np.ndarray, dict]], keys: Sequence[Key],
            d_max: int) -> Samples:
    """Features and labels along each problem's own d_max training run (``sample(key, d_max)``
    returns what :func:`reference.solutions.dynamic.tree.collect_samples` does)."""
    per_problem = {}
    for key in keys:
        x, y = sample(key, d_max)
        per_problem[key] = (x, y[d_max])
    return stack(per_problem)
