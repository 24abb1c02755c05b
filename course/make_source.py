"""Write the nbgrader source notebook ``course/source/replanning/replanning.ipynb``.

The notebook is made from this script so that its points always match ``course/rubric.toml``
and its cell metadata is exactly what nbgrader expects. Its solution cells are the kit's readable
reference itself (``reference/solutions/heap.py``, ``agent.py`` and ``replanning.py``, read with
``ast`` by :mod:`reference.solutions.sources`): no solution code lives in this file. After editing
the rubric, the text below or the reference, run it again and commit both files::

    python course/make_source.py            # rewrites course/source/replanning/replanning.ipynb

Cell kinds (nbgrader's metadata, schema version 3):

* ``markdown``/``code``: read-only text and code (``locked``);
* ``solution``: the student's code; the reference lines sit between ``### BEGIN SOLUTION`` and
  ``### END SOLUTION`` and nbgrader replaces them with a stub in the release;
* ``tests``: an autograded test cell worth the rubric's points for one check; it calls
  :func:`autograder.notebook.check` on the public instances and, between ``### BEGIN HIDDEN TESTS``
  and ``### END HIDDEN TESTS``, on the hidden ones. The last call's value is the cell's output, the
  points earned, which nbgrader (>= 0.6) reads as partial credit: at grading time the hidden call,
  in the student's copy the public one. A check that earns nothing raises, and the cell scores 0;
* ``answer``: a manually graded Markdown answer to a written question;
* ``scratch``: a plain cell where the student tries things (not graded, left as it is).

>>> cells = notebook_cells(load_rubric())
>>> sum(c["metadata"].get("nbgrader", {}).get("points", 0) for c in cells)  # 60 + 5 extra + 40
105
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from textwrap import dedent
from typing import Any

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

COURSE = Path(__file__).resolve().parent
sys.path.insert(0, str(COURSE.parent))  # run as a script from anywhere: the kit's packages

from reference.solutions import agent, heap, replanning  # noqa: E402
from reference.solutions.sources import import_lines, notebook_code  # noqa: E402

SOURCE_NOTEBOOK = COURSE / "source" / "replanning" / "replanning.ipynb"

# -- cell builders ----------------------------------------------------------------------------------


def _cell(kind: str, text: str, grade_id: str, nbgrader: dict[str, Any]) -> dict[str, Any]:
    cell: dict[str, Any] = {
        "cell_type": kind,
        "metadata": {"nbgrader": {"schema_version": 3, "grade_id": grade_id, "task": False, **nbgrader}},
        "source": dedent(text).strip("\n"),
    }
    if kind == "code":
        cell.update(execution_count=None, outputs=[])
    return cell


def markdown(grade_id: str, text: str) -> dict[str, Any]:
    return _cell("markdown", text, grade_id, {"grade": False, "solution": False, "locked": True})


def code(grade_id: str, text: str) -> dict[str, Any]:
    return _cell("code", text, grade_id, {"grade": False, "solution": False, "locked": True})


def solution(grade_id: str, text: str) -> dict[str, Any]:
    return _cell("code", text, grade_id, {"grade": False, "solution": True, "locked": False})


def scratch(text: str) -> dict[str, Any]:
    """A plain code cell for the student to play in; nbgrader neither grades nor replaces it."""
    return {"cell_type": "code", "metadata": {}, "source": dedent(text).strip("\n"),
            "execution_count": None, "outputs": []}


def tests(check_id: str, points: int, what: str) -> dict[str, Any]:
    # No assignments: the autograder keeps a notebook's top-level definitions and assignments, and
    # these lines must not become part of the student's code. The last value is the cell's points.
    text = f'''
        # {what} ({points} points). Run this cell to check your code on the public instances.
        check("{check_id}", globals())
        ### BEGIN HIDDEN TESTS
        check("{check_id}", globals(), instances="both")
        ### END HIDDEN TESTS
    '''
    return _cell("code", text, f"test_{check_id}", {"grade": True, "solution": False, "locked": True,
                                                     "points": points})


def answer(question_id: str, points: int) -> dict[str, Any]:
    text = f"*Your answer to {question_id.split('_')[0]} ({points} points).*\n\n" \
           "(Model answer: course/answer_key.md; it never goes to students.)"
    return _cell("markdown", text, f"answer_{question_id}", {"grade": True, "solution": True, "locked": False,
                                                              "points": points})


# -- the notebook's text and code ---------------------------------------------------------------------

INTRO = """
    # Fast Trajectory Replanning for Computer Games

    A game character sees only its four neighbouring cells (the fog of war) and must still reach the
    cell the player clicked. It plans with the **freespace assumption** (every cell it has not seen
    blocked is presumed unblocked), walks the shortest presumed-unblocked path, and plans again as
    soon as it sees that path blocked. You will write the three planners of the handout: Repeated
    Forward A*, Repeated Backward A* and Adaptive A*, on top of your own binary heap, then answer the
    written questions.

    **How this notebook is graded.** Each *test cell* (they are read-only) runs the autograder's
    checks on your functions and shows the points you earned and where your run first differs from
    the rules. The same checks run again at grading time on hidden instances made the same way.
    Do not rename the functions or the class; do not delete or copy cells. A cell that runs forever
    costs that cell's points: keep your own experiments small. The written answers are graded by hand.

    Your code meets the world only through `world.height`, `world.width` and `world.sense(cell)`;
    import nothing from the kit except `reference.world`.
"""

IMPORTS = """
    # The public world model: grids, the fog-of-war world, the agent's memory and the trace record.
    from reference.world import FogOfWarWorld, Gridworld, Knowledge, SearchRecord, Trace, manhattan
    from autograder.notebook import check
"""

HEAP_INTRO = """
    ## Part 1: a binary heap (8 points, and 5 extra-credit points if written from scratch)

    OPEN is a priority queue. Write a binary min-heap with a dictionary from each item to its place
    in the array, so that `update` and `remove` need O(log n):

    - `push(item, priority)`, `pop() -> item` (smallest priority), `peek() -> item`,
      `update(item, priority)` (higher or lower), `remove(item)`, `len(heap)`, `item in heap`;
    - `pop`/`peek` on an empty heap raise `IndexError`; `update`/`remove` of an absent item raise
      `KeyError`; pushing an item that is already in the heap raises `ValueError`;
    - priorities are compared with `<` only (they will be tuples such as `(f, -g, stamp)`).

    The extra credit needs a heap from scratch: no `heapq`, `queue.PriorityQueue`,
    `sortedcontainers` or `bisect` anywhere in the notebook.
"""

def heap_solution() -> str:
    """The binary heap cell: reference/solutions/heap.py itself, method bodies marked as solution."""
    return import_lines(heap) + "\n\n\n" + notebook_code(heap)


HEAP_TRY = """
    # Try your heap here (this cell is not graded).
    heap = BinaryHeap()
    for item, priority in [("c", 3), ("a", 1), ("b", 2)]:
        heap.push(item, priority)
    [heap.pop() for _ in range(len(heap))]
"""

ASTAR_INTRO = """
    ## Part 2: Repeated Forward A*, Repeated Backward A* and Adaptive A*

    The cell below has two parts, the two procedures of the handout's Figure 4. `run_agent` is
    Main: the agent looks around, asks a planner for a search, walks its path, and repeats
    (`AgentBody` from `reference.world` is the agent's body: `look()` senses and remembers,
    `walk(path)` follows a path by rule 6). `RepeatedAStar` is the planner: `plan_episode` sets up
    one search (lines 19-25) and `compute_path` is ComputePath (lines 1-13). Fill in every body,
    the three public functions at the end included. Rules (the kit's SPEC, sections 4-8),
    which make every correct solution expand the same cells in the same order:

    1. Cells are `(row, col)`, row 0 at the top. Successors **east, south, west, north**
       (`(r, c+1), (r+1, c), (r, c-1), (r-1, c)`) that exist and are not known to be blocked; every
       move costs 1; h is the Manhattan distance to the search's goal state.
    2. The agent senses its four neighbours at the start and after every move
       (`world.sense(cell)` returns the blocked ones) and presumes everything else unblocked.
    3. If `start == target`: reached, no searches, trajectory `[start]`. Otherwise repeat:
       `counter += 1`; search (forward: agent to target; backward: target to agent); if OPEN runs
       empty, stop with `reached = False`; otherwise walk the path.
    4. **Lazy initialisation** with `counter` and `search(s)`: nothing after the first
       initialisation may visit every cell.
    5. ComputePath: `while g(goal) > min f over OPEN` pop the smallest key, add it to CLOSED, and for
       each successor `t`: if `search(t) < counter` then `g(t) = inf`, `search(t) = counter`; if
       `g(t) > g(s) + 1` then `g(t) = g(s) + 1`, `tree(t) = s`, and put `t` into OPEN with its new key.
       Keys, smallest first: `larger_g` `(f, -g, stamp)`, `smaller_g` `(f, g, stamp)`, where the
       stamp counts this search's insertions into OPEN. The goal is never expanded.
    6. The path runs from the agent to the target. Before each move, if a cell of the remaining
       path is known blocked, stop and search again; after each move, sense.
    7. Adaptive A* searches forward and, after each search that reaches the target, sets
       `h(s) = g(target) - g(s)` for every expanded `s`, for the rest of the run.

    Return a `Trace` (or a dict of the same shape): `algorithm`, `tie_break`, `reached`,
    `trajectory` (every cell the agent stood in), and one `SearchRecord(start, goal, expanded, path)`
    per search.
"""

def astar_solution() -> str:
    """The Repeated A* cell: the agent core (reference/solutions/agent.py) and the planner
    (reference/solutions/replanning.py) themselves, function bodies marked as solution."""
    return import_lines(agent, replanning) + "\n\n\n" + notebook_code(agent) + "\n\n" + notebook_code(replanning)


ASTAR_TRY = """
    # The handout's first example (Figure 2): the agent in E3, the target in E5.
    # The handout: the first search expands 10 cells, the second 13 (Adaptive A*: 10 and 10).
    example_1 = Gridworld.from_strings([".....", "..@..", "..@@.", "..@@.", "...@."])
    trace = repeated_forward_astar(FogOfWarWorld(example_1, (4, 2)), (4, 2), (4, 4))
    [len(search.expanded) for search in trace.searches]
"""

QUESTIONS: dict[str, str] = {
    "q0_first_move_east": """
        ### Question 0: the first move in the second example

        In the handout's second example (Figure 8) the agent starts in E2 and the target is in E5; the
        agent knows nothing yet about the cells it cannot see. Explain why its first move is to the east
        and not to the north.
    """,
    "q1_finite_time": """
        ### Question 1: finite time

        Convince us that in a finite gridworld the agent either reaches the target or discovers that it
        cannot, in finite time. Then show that the number of moves it makes before it reaches the target
        or discovers that this is impossible is bounded from above by the square of the number of
        unblocked cells.
    """,
    "q2_ties": """
        ### Question 2: breaking ties

        Repeated Forward A* must break ties when several cells in OPEN share the smallest f-value.
        Compare ties in favour of the **smaller** g-value with ties in favour of the **larger** g-value
        on the standard mazes (`forward_smaller_g` against `forward_larger_g`): report what you observe
        and explain it. Explain how a single integer priority `c * f(s) - g(s)`, with a suitable constant
        `c`, makes a heap that compares numbers break ties towards larger g (and which `c` works).
        Use the third example (a 5 x 5 grid with no blocked cells, the agent in A1 and the target in
        E5) to illustrate the difference in expansions.
    """,
    "q3_forward_vs_backward": """
        ### Question 3: forward against backward

        Compare Repeated Forward A* and Repeated Backward A* (both with ties to the larger g) on the
        standard mazes, in expansions and in runtime. Report your numbers and explain what you observe:
        why does the direction of the search matter so much when the agent only knows the cells near
        where it has been?
    """,
    "q4_heuristics": """
        ### Question 4: consistent heuristics

        Show that the Manhattan distances are consistent in gridworlds where the agent moves only in the
        four compass directions. Then show that the h-values of Adaptive A* stay consistent, even though
        action costs can increase (cells turn out blocked) between searches.
    """,
    "q5_forward_vs_adaptive": """
        ### Question 5: forward against adaptive

        Compare Repeated Forward A* and Adaptive A* (both with ties to the larger g) on the standard
        mazes, in expansions and in runtime. Report your numbers and explain what you observe.
    """,
    "q6_statistics": """
        ### Question 6: is the difference real?

        Pick one of the comparisons of questions 2, 3 or 5. Describe and carry out a statistical
        hypothesis test that tells whether the difference you observed is systematic or could be due to
        chance: the null hypothesis, the test and why it fits these data (the same 50 mazes under both
        settings), the result, and what you conclude.
    """,
    "q7_memory": """
        ### Question 7: memory

        A game company gives trajectory planning very little memory. Describe how you would reduce the
        memory of your implementation, and compute how much memory it needs in a 1001 x 1001 gridworld
        (state what you count, per cell and in total). What is the largest square gridworld your
        approach could handle within 4 MB?
    """,
}

QUESTIONS_INTRO = """
    ## Part 3: written questions (graded by hand)

    Answer each question in the cell below it (Markdown; formulas with `$...$`). Your numbers come
    from your own code on the 50 standard mazes: `load_folder("mazes")` from
    `reference.world.instances` gives them as instances (`grid`, `start`, `target`); run your
    functions on `FogOfWarWorld(instance.grid, instance.start)` in a scratch cell and count
    expansions with `trace.expansions`. `reference.world.pictures` draws any search of a trace.
"""


def load_rubric(path: Path = COURSE / "rubric.toml") -> dict[str, Any]:
    with open(path, "rb") as file:
        return tomllib.load(file)


def notebook_cells(rubric: dict[str, Any]) -> list[dict[str, Any]]:
    """Every cell of the source notebook, points taken from ``rubric``."""
    points = {**rubric["autograded"], **rubric["extra_credit"], **rubric["written"]}
    cells = [
        markdown("intro", INTRO),
        code("imports", IMPORTS),
        markdown("heap_intro", HEAP_INTRO),
        solution("binary_heap", heap_solution()),
        scratch(HEAP_TRY),
        tests("heap", points["heap"], "The heap against a model priority queue"),
        tests("heap_from_scratch", points["heap_from_scratch"], "Extra credit: a heap from scratch"),
        markdown("astar_intro", ASTAR_INTRO),
        solution("repeated_astar", astar_solution()),
        scratch(ASTAR_TRY),
        tests("forward_larger_g", points["forward_larger_g"], "Repeated Forward A*, ties to the larger g"),
        tests("forward_smaller_g", points["forward_smaller_g"], "Repeated Forward A*, ties to the smaller g"),
        tests("backward", points["backward"], "Repeated Backward A*"),
        tests("adaptive", points["adaptive"], "Adaptive A*"),
        tests("efficiency", points["efficiency"], "No pass over all cells per search (a large grid)"),
        markdown("questions_intro", QUESTIONS_INTRO),
    ]
    for question_id, text in QUESTIONS.items():
        cells.append(markdown(f"question_{question_id}", text))
        cells.append(answer(question_id, points[question_id]))
    return cells


def notebook(rubric: dict[str, Any]) -> dict[str, Any]:
    return {
        "cells": notebook_cells(rubric),
        "metadata": {
            "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
            "language_info": {"name": "python"},
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }


def write_source(path: Path = SOURCE_NOTEBOOK, rubric_path: Path = COURSE / "rubric.toml") -> Path:
    """Write the source notebook (points from ``rubric_path``) and return its path."""
    data = notebook(load_rubric(rubric_path))
    for number, cell in enumerate(data["cells"]):
        grade_id = cell["metadata"].get("nbgrader", {}).get("grade_id", "scratch")
        cell["id"] = f"{number:02d}-{grade_id}"[:64]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


if __name__ == "__main__":
    print(write_source(Path(sys.argv[1]) if len(sys.argv) > 1 else SOURCE_NOTEBOOK))
