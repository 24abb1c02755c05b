"""A run you can step through: one self-contained HTML page (no server, no network) with play,
pause, step forward and back, sliders over frames and searches, a legend, and on small grids the
handout's g, f and h in every cell.

A frame is one expansion of one search, the search's path once it is done, or one move of the
agent; the last frame is the end of the run. Every number the page shows comes from the trace and
the kit's replay (:func:`~reference.world.replay.search_contexts`, and ComputePath's lines 9-11
replayed along the expansion order as :func:`~reference.world.replay.annotate_search` does), never
from an A*: what the agent knew when each search began, the walls it saw at each step, and on grids
of at most :data:`~reference.world.pictures.MAX_CELLS_WITH_NUMBERS` rows and columns each cell's
g-value after every expansion, its h and f, its tree pointer, and Adaptive A*'s learned h.

The page carries the run as compact JSON (cells as deflated integer arrays, :func:`_packed`) and a small canvas player
written in plain JavaScript: Matplotlib's own HTML player (:func:`~reference.world.animation.show_inline`)
embeds one PNG per frame, which for every expansion of a 101 x 101 maze would be hundreds of MB.

>>> from reference.world.grid import Gridworld
>>> from reference.world.trace import SearchRecord, Trace
>>> grid = Gridworld.from_strings(["...", ".@."])
>>> trace = Trace("forward", "larger_g", True, [(1, 0), (0, 0), (0, 1), (0, 2), (1, 2)],
...               [SearchRecord((1, 0), (1, 2), [(1, 0), (0, 0), (0, 1), (0, 2)],
...                             [(1, 0), (0, 0), (0, 1), (0, 2), (1, 2)])])
>>> data = player_data(grid, trace)
>>> data["frames"], data["searches"][0]["expansions"]   # 4 expansions + the path + 4 moves + the end
(10, 4)
>>> data["numbers"][0]["g"][:3]    # (after expansion k, cell index, g, parent): the start, then E3's successors
[[0, 3, 0, -1], [1, 0, 1, 3], [2, 1, 2, 0]]
"""

from __future__ import annotations

import base64
import html
import json
import os
import zlib
from pathlib import Path
from typing import Any

import numpy as np

from .fileio import atomic_write_text
from .grid import Cell, Gridworld, as_cell
from .pictures import (AGENT_COLOUR, BLACK, HIDDEN_WALL, MAX_CELLS_WITH_NUMBERS, NEW_WALL, TARGET_COLOUR, TRAIL,
                       target_of)
from .replay import heuristic_for, search_contexts
from .sensing import Knowledge
from .trace import ALGORITHMS, SearchRecord, Trace

SEARCHED = (0.45, 0.7, 1.0)          # as in the GIF (reference.world.animation)
SEARCHED_FAINT = (0.82, 0.9, 1.0)
CURRENT = (0.1, 0.3, 0.85)           # the cell just expanded
PATH = "#d62728"                     # Matplotlib's tab:red, the GIF's path
TEMPLATE = Path(__file__).with_name("player.html")


def _css(colour) -> str:
    if isinstance(colour, str):
        return {"tab:blue": "#1f77b4", "tab:red": "#d62728"}.get(colour, colour)
    return "#" + "".join(f"{round(255 * c):02x}" for c in colour[:3])


def _packed(values) -> str:
    """Integers as the page reads them: differences of consecutive values (a search's expansions lie
    close together, so these are small), as little-endian int32, deflated (zlib), in base64. The page
    inflates them with the browser's own ``DecompressionStream`` and adds them up again. Deflating the
    differences makes a big run's page some thirteen times smaller: maze 29's Backward A* run, 2.3
    million expansions, takes 0.51 MB instead of 6.75 MB.

    >>> import zlib
    >>> np.frombuffer(zlib.decompress(base64.b64decode(_packed([5, 7, 6]))), "<i4").tolist()
    [5, 2, -1]
    """
    values = np.asarray(values, dtype=np.int64)
    differences = np.diff(values, prepend=0).astype("<i4")
    return base64.b64encode(zlib.compress(differences.tobytes(), 9)).decode("ascii")


def _cells(cells, width: int) -> str:
    """Cells as :func:`_packed` integers ``row * width + col``."""
    return _packed([row * width + col for row, col in cells])


def _numbers(record: SearchRecord, context, trace: Trace, width: int) -> dict[str, Any]:
    """A search's numbers for the page: each g-value as it is set (after how many expansions, by which
    parent), h of every presumed-unblocked cell, and Adaptive A*'s learned h after the search."""
    heuristic = heuristic_for(trace, context.index, context)
    # g and the tree pointer as each expansion sets them (ComputePath lines 9-11, as annotate_search
    # derives them), replayed once: [k, cell, g, parent] means "after k expansions". One pass keeps a
    # page of a hostile trace that lists one cell a million times linear, not quadratic.
    start = as_cell(record.start)
    g_now: dict[Cell, int] = {start: 0}
    g_events: list[list[int]] = [[0, start[0] * width + start[1], 0, -1]]
    for k, s in enumerate(map(as_cell, record.expanded), start=1):
        if s not in g_now:      # expanded but never generated: no numbers, generates nothing
            continue
        g_next = g_now[s] + 1
        for t in context.knowledge.successors(s):
            if g_now.get(t, g_next + 1) > g_next:
                g_now[t] = g_next
                g_events.append([k, t[0] * width + t[1], g_next, s[0] * width + s[1]])
    blocked = context.knowledge.blocked
    h = [heuristic((i // width, i % width)) if not blocked[i] else -1 for i in range(len(blocked))]
    learned = []
    if trace.algorithm == "adaptive" and record.path:
        goal = as_cell(record.goal)
        learned = [[s[0] * width + s[1], g_now[goal] - g_now[s]] for s in map(as_cell, record.expanded) if s in g_now]
    return {"g": g_events, "h": h, "learned": learned}


def player_data(grid: Gridworld, trace: Trace, numbers: bool | None = None) -> dict[str, Any]:
    """The run as the page reads it (see the module docstring). ``numbers``: g/f/h in the cells
    (default: when the grid has at most MAX_CELLS_WITH_NUMBERS rows and columns)."""
    height, width = grid.height, grid.width
    if numbers is None:
        numbers = max(height, width) <= MAX_CELLS_WITH_NUMBERS
    # the walls the agent sees at each step of its trajectory (SPEC §4), from the kit's Knowledge
    knowledge = Knowledge(height, width)
    seen_cells, seen_steps = [], []
    for step, cell in enumerate(trace.trajectory):
        for wall in knowledge.observe(n for n in grid.neighbours(as_cell(cell)) if grid.blocked[n]):
            seen_cells.append(wall)
            seen_steps.append(step)
    searches, expanded, paths, search_numbers = [], [], [], []
    for context in search_contexts(grid, trace):
        record = trace.searches[context.index]
        searches.append({"start": record.start[0] * width + record.start[1],
                         "goal": record.goal[0] * width + record.goal[1],
                         "step": context.trajectory_index, "expansions": len(record.expanded),
                         "path": len(record.path), "moves": len(context.moves)})
        expanded += record.expanded
        paths += record.path
        if numbers:
            search_numbers.append(_numbers(record, context, trace, width))
    frames = sum(s["expansions"] + 1 + s["moves"] for s in searches) + 1
    target = target_of(trace)
    palette = {"searched": SEARCHED, "faint": SEARCHED_FAINT, "current": CURRENT, "known": BLACK,
               "new": NEW_WALL, "hidden": tuple((np.asarray((1.0, 1.0, 1.0)) + HIDDEN_WALL) / 2 * 0.9),
               "trail": TRAIL, "path": PATH, "agent": AGENT_COLOUR, "target": TARGET_COLOUR}
    return {
        "height": height, "width": width,
        "algorithm": ALGORITHMS.get(trace.algorithm, trace.algorithm), "tieBreak": trace.tie_break,
        "adaptive": trace.algorithm == "adaptive", "reached": trace.reached,
        "target": -1 if target is None else target[0] * width + target[1],
        "blocked": base64.b64encode(np.packbits(grid.blocked.ravel(), bitorder="little").tobytes()).decode("ascii"),
        "trajectory": _cells(trace.trajectory, width),
        "seenCells": _cells(seen_cells, width), "seenSteps": _packed(seen_steps),
        "searches": searches, "expanded": _cells(expanded, width), "paths": _cells(paths, width),
        "numbers": search_numbers if numbers else None, "frames": frames,
        "colours": {name: _css(colour) for name, colour in palette.items()},
    }


def player_html(grid: Gridworld, trace: Trace, title: str | None = None, numbers: bool | None = None) -> str:
    """The whole page: the player (HTML, CSS and JavaScript, all inline) and the run's data."""
    data = json.dumps(player_data(grid, trace, numbers), separators=(",", ":"))
    title = title or f"{ALGORITHMS.get(trace.algorithm, trace.algorithm)}: a run step by step"
    page = TEMPLATE.read_text(encoding="utf-8")
    # "</" cannot end the script element early: JSON never needs it
    return page.replace("{{TITLE}}", html.escape(title)).replace("{{DATA}}", data.replace("</", "<\\/"))


def write_player(grid: Gridworld, trace: Trace, path: str | os.PathLike, title: str | None = None) -> Path:
    """Write the page to ``path`` atomically; return the path."""
    atomic_write_text(path, player_html(grid, trace, title))
    return Path(path)


def show_player(grid: Gridworld, trace: Trace, height: int | None = None):
    """The same page inside a notebook cell (an ``<iframe srcdoc>``, so several players never clash)."""
    from IPython.display import HTML

    cells = max(grid.height, grid.width)
    height = height or (min(1100, 360 + 48 * cells) if cells <= MAX_CELLS_WITH_NUMBERS else 980)
    page = html.escape(player_html(grid, trace), quote=True)
    return HTML(f'<div><iframe srcdoc="{page}" style="width:100%;height:{height}px;border:0"></iframe></div>')
