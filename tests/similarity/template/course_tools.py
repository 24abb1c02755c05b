"""Course tools handed out in week 3 (not part of the starter): read a maze, time a run, draw it."""
import time


def read_maze_file(path):
    """A maze file of '.' (free) and '#' (blocked) rows as a list of strings."""
    with open(path) as handle:
        rows = [line.rstrip("\n") for line in handle if line.strip()]
    widths = {len(row) for row in rows}
    if len(widths) != 1:
        raise ValueError(f"{path}: rows of different widths {sorted(widths)}")
    return rows


def blocked_cells(rows):
    return {(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "#"}


class Stopwatch:
    """with Stopwatch() as watch: ...; watch.seconds"""

    def __enter__(self):
        self.began = time.perf_counter()
        return self

    def __exit__(self, *exc):
        self.seconds = time.perf_counter() - self.began
        return False


def render(rows, trajectory, expanded=()):
    """The maze as text: '*' on the trajectory, '+' on expanded cells."""
    picture = [list(row) for row in rows]
    for r, c in expanded:
        if picture[r][c] == ".":
            picture[r][c] = "+"
    for r, c in trajectory:
        picture[r][c] = "*"
    return "\n".join("".join(row) for row in picture)


def summary(trace):
    """One line: searches, expansions, moves, reached."""
    searches = trace["searches"] if isinstance(trace, dict) else trace.searches
    trajectory = trace["trajectory"] if isinstance(trace, dict) else trace.trajectory
    expansions = sum(len(s["expanded"] if isinstance(s, dict) else s.expanded) for s in searches)
    return f"{len(searches)} searches, {expansions} expansions, {len(trajectory) - 1} moves"
