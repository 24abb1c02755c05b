"""Random mazes by depth-first search with random tie breaking (30 % blocked cells)."""
import random


def random_maze(size, seed=0, blocked=0.3):
    rng = random.Random(seed)
    grid = [[0] * size for _ in range(size)]
    visited = set()
    stack = [(0, 0)]
    while stack:
        r, c = stack.pop()
        if (r, c) in visited:
            continue
        visited.add((r, c))
        grid[r][c] = 1 if rng.random() < blocked and (r, c) != (0, 0) else 0
        options = [(r + dr, c + dc) for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))
                   if 0 <= r + dr < size and 0 <= c + dc < size and (r + dr, c + dc) not in visited]
        rng.shuffle(options)
        stack.extend(options)
    grid[size - 1][size - 1] = 0
    return grid
