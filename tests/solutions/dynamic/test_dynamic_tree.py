"""Decision-tree depth (Bulitko et al. 2007): features, labels, training, and the controllers."""

from __future__ import annotations

import numpy as np

from reference.solutions.dynamic.lrta import Agent, Neighbours, general_lrta
from reference.solutions.dynamic.tree import (
    collect_samples, depth_label, features, oracle, train_depth_tree,
)


def test_the_label_is_the_shallowest_depth_agreeing_with_every_deeper_one():
    # d_max = 5 takes E; depths 4 and 3 agree, depth 2 says S: the progression stops at 3,
    # even though depth 1 says E again.
    assert depth_label({1: "E", 2: "S", 3: "E", 4: "E", 5: "E"}, 5) == 3
    assert depth_label({1: "E", 2: "E"}, 2) == 1
    assert depth_label({1: "S", 2: "E"}, 2) == 2


def test_the_four_features_count_over_the_last_n_steps():
    # The agent went (0,0) -> (0,1) -> (0,0) -> (0,1) -> (0,2), raising h twice; goal (3, 6), n = 3.
    agent = Agent(Neighbours(np.zeros((4, 7), dtype=bool)), (0, 0), (3, 6),
                  path=[(0, 0), (0, 1), (0, 0), (0, 1), (0, 2)], raised=[True, False, True, False])
    h_goal, h_back, revisits, updates = features(agent, n=3)
    assert h_goal == 3 * np.sqrt(2) + 1            # octile from (0,2) to (3,6): 3 diagonals + 1 straight
    assert h_back == 1.0                           # 3 steps ago the agent was at (0,1)
    assert revisits == 0.0                         # last 3 states (0,0), (0,1), (0,2) are distinct
    assert updates == 1.0                          # of the last 3 steps, one raised h
    assert features(agent, n=5)[2] == 2.0          # last 5: (0,0) and (0,1) each occur twice


def test_training_on_one_map_and_running_the_tree_and_the_oracle():
    rng = np.random.default_rng(3)
    blocked = rng.random((24, 24)) < 0.25
    blocked[0, 0] = blocked[23, 23] = blocked[0, 23] = blocked[23, 0] = False
    neighbours = Neighbours(blocked)
    x, labels = collect_samples(neighbours, (0, 0), (23, 23), [3, 6], max_actions=2000)
    assert x.shape[1] == 4 and len(x) == len(labels[3]) == len(labels[6]) > 0
    assert labels[3].max() <= 3 and labels[6].max() <= 6 and labels[3].min() >= 1
    tree = train_depth_tree(x, labels[6], leaf_sizes=(5, 20), alphas=(0.0, 0.01), folds=3)
    assert tree.min_samples_leaf in (5, 20) and 0 <= tree.accuracy <= 1
    # the tree's hand-walked prediction equals scikit-learn's own predict()
    agent_depths = []
    control = tree.controller()
    def recording(agent):
        depth, goal = control(agent)
        assert depth == int(tree.classifier.predict(np.array([features(agent)]))[0])
        agent_depths.append(depth)
        return depth, goal
    for controller in (recording, oracle(6)):
        run = general_lrta(neighbours, (0, 23), (23, 0), controller, max_actions=5000)
        assert run.reached
    assert set(agent_depths) <= set(labels[6].tolist())
