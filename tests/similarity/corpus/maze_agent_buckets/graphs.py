# Draw a maze with the agent's walk on top, and a line chart of expansions per trial.
import matplotlib.pyplot as plt


def drawWalk(maze, walked, fileName="walk.png"):
    plt.figure(figsize=(6, 6))
    plt.imshow(maze, cmap="Greys")
    plt.plot([c for r, c in walked], [r for r, c in walked], color="red", linewidth=1)
    plt.xticks([])
    plt.yticks([])
    plt.savefig(fileName)
    plt.close()


def drawTrials(counts, fileName="trials.png"):
    plt.figure()
    plt.plot(range(len(counts)), counts, "o-")
    plt.xlabel("trial")
    plt.ylabel("cells expanded")
    plt.grid(True)
    plt.savefig(fileName)
    plt.close()
