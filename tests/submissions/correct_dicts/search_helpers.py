"""Helpers shared by the three algorithms (a helper module next to replanning.py)."""

INF = float("inf")
MOVES = ((0, 1), (1, 0), (0, -1), (-1, 0))   # east, south, west, north


def neighbours(cell, height, width, walls):
    r, c = cell
    for dr, dc in MOVES:
        nr, nc = r + dr, c + dc
        if 0 <= nr < height and 0 <= nc < width and (nr, nc) not in walls:
            yield (nr, nc)


def distance(a, b):
    return abs(a[0] - b[0]) + abs(a[1] - b[1])
