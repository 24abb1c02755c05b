"""Figures for the write-up: expansions of Repeated Forward vs Adaptive A*, box plot and ratio."""
import numpy as np
import matplotlib.pyplot as plt

data = np.loadtxt("sweep.csv", delimiter=",", skiprows=1)
forward, adaptive = data[:, 1], data[:, 2]

fig, axes = plt.subplots(1, 2, figsize=(9, 3.5))
axes[0].boxplot([forward, adaptive], labels=["forward", "adaptive"])
axes[0].set_ylabel("expanded cells")
axes[1].plot(np.sort(adaptive / forward), marker=".", linestyle="none")
axes[1].axhline(1.0, color="grey", linewidth=0.8)
axes[1].set_ylabel("adaptive / forward")
axes[1].set_xlabel("maps, sorted")
fig.savefig("figure_adaptive.pdf")
