"""Run the three agents on the same 30 worlds; print mean expansions and moves per agent."""
from statistics import mean

from lab.agents import AdaptiveAStar, BackwardAStar, RepeatedAStar
from lab.world import TrueGrid

results = {cls.name: ([], []) for cls in (RepeatedAStar, BackwardAStar, AdaptiveAStar)}
for seed in range(30):
    world = TrueGrid.random(61, 61, 0.3, seed)
    for cls in (RepeatedAStar, BackwardAStar, AdaptiveAStar):
        agent = cls(61, 61)
        trajectory, reached = agent.run(world, (0, 0), (60, 60))
        if reached:
            results[cls.name][0].append(sum(agent.log))
            results[cls.name][1].append(len(trajectory) - 1)
for name, (expansions, moves) in results.items():
    print(f"{name:9s} expansions {mean(expansions):9.1f} moves {mean(moves):7.1f} over {len(moves)} worlds")
