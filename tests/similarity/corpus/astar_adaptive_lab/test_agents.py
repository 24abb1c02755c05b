from lab.agents import AdaptiveAStar, BackwardAStar, RepeatedAStar
from lab.world import TrueGrid


def test_all_agents_reach_the_target_on_the_same_world():
    world = TrueGrid(5, 5, {(1, 1), (2, 2), (3, 1)})
    for cls in (RepeatedAStar, BackwardAStar, AdaptiveAStar):
        trajectory, reached = cls(5, 5).run(world, (0, 0), (4, 4))
        assert reached and trajectory[-1] == (4, 4)


def test_adaptive_learns_h_from_the_first_search():
    agent = AdaptiveAStar(3, 3)
    agent.one_search((0, 0), (2, 2))
    assert agent.learned[(0, 0)] == 4
