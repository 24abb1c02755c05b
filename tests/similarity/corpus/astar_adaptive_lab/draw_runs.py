"""Side-by-side pictures of the three agents' walks on one world."""
import matplotlib.pyplot as plt
import numpy as np

from lab.agents import AdaptiveAStar, BackwardAStar, RepeatedAStar
from lab.world import TrueGrid

world = TrueGrid.random(41, 41, 0.3, seed=3)
image = np.zeros((41, 41))
for r, c in world._blocked:
    image[r, c] = 1
fig, axes = plt.subplots(1, 3, figsize=(12, 4))
for ax, cls in zip(axes, (RepeatedAStar, BackwardAStar, AdaptiveAStar)):
    agent = cls(41, 41)
    walk, reached = agent.run(world, (0, 0), (40, 40))
    ax.imshow(image, cmap="binary")
    ax.plot([c for _, c in walk], [r for r, _ in walk], color="tab:red")
    ax.set_title(f"{cls.name}: {sum(agent.log)} expansions")
    ax.axis("off")
fig.savefig("walks.png", dpi=100)
