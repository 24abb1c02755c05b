"""Run the planner on a random maze and print what happened."""
import argparse

from astar import AStarPlanner
from maze import random_maze


def main():
    parser = argparse.ArgumentParser(description="Repeated Forward A* demo")
    parser.add_argument("--size", type=int, default=101)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    grid = random_maze(args.size, args.seed)
    planner = AStarPlanner(args.size, args.size)
    trajectory, reached = planner.run(grid, (0, 0), (args.size - 1, args.size - 1))
    print(f"reached={reached} moves={len(trajectory) - 1} expanded={planner.expanded_total}")


if __name__ == "__main__":
    main()
