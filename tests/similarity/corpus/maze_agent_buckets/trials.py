# Fifty trials on generated mazes; prints the average and draws the charts.
import random

from agent import runAgent
from graphs import drawTrials, drawWalk

counts = []
for trial in range(50):
    random.seed(trial)
    maze = [[1 if random.random() < 0.3 else 0 for c in range(101)] for r in range(101)]
    maze[0][0] = 0
    maze[100][100] = 0
    walked, expandedCount, ok = runAgent(maze, (0, 0), (100, 100))
    counts.append(expandedCount)
    if trial == 0:
        drawWalk(maze, walked)
print("average expanded:", sum(counts) / len(counts))
drawTrials(counts)
