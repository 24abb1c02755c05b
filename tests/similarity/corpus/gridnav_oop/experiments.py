"""Run the planner on 50 mazes and write results.csv (maze, reached, moves, expanded, seconds)."""
import csv
import time

from astar import AStarPlanner
from maze import random_maze

ROWS = []
for index in range(50):
    grid = random_maze(101, seed=index)
    planner = AStarPlanner(101, 101)
    began = time.time()
    trajectory, reached = planner.run(grid, (0, 0), (100, 100))
    ROWS.append({"maze": index, "reached": reached, "moves": len(trajectory) - 1,
                 "expanded": planner.expanded_total, "seconds": round(time.time() - began, 4)})
    print(ROWS[-1])

with open("results.csv", "w", newline="") as handle:
    writer = csv.DictWriter(handle, fieldnames=list(ROWS[0]))
    writer.writeheader()
    writer.writerows(ROWS)
