# usage: python Main.py mazes/ 7
import os
import sys

from agent import runAgent


def loadMaze(fileName):
    rows = []
    for line in open(fileName):
        line = line.strip()
        if line:
            rows.append([1 if ch == "X" else 0 for ch in line])
    return rows


folder = sys.argv[1]
index = int(sys.argv[2]) if len(sys.argv) > 2 else 0
names = sorted(os.listdir(folder))
maze = loadMaze(os.path.join(folder, names[index]))
walked, expandedCount, ok = runAgent(maze, (0, 0), (len(maze) - 1, len(maze[0]) - 1))
print("Maze", names[index], "reached:", ok, "steps:", len(walked) - 1, "expanded:", expandedCount)
