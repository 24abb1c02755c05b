"""The sandboxed side of grading: import the student's code, run the tasks the grader sends, reply.

This file runs in the child process only, copied into the sandbox as ``ftr_child.py`` next to
``ftr_wire.py`` (a copy of :mod:`autograder.wire`) and a private copy of ``reference/world``.
It is started with ``python -I -S`` (no environment variables, no site-packages processing) and
builds its own ``sys.path``: the sandbox's library folder, the submission folder, the standard
library and the interpreter's site-packages (for NumPy) — nothing else of the kit.

Nothing this process says is trusted: the grader validates every field of every reply, and it
judges traces, not claims. Usage (by the grader only)::

    python -I -S ftr_child.py TASK_FD RESULT_FD LIB_DIR SUBMISSION_DIR
"""

import os
import sys


def _set_path(lib_dir: str, submission_dir: str) -> None:
    import site

    site_packages = [p for p in site.getsitepackages() if os.path.isdir(p)]
    sys.path[:] = [lib_dir, submission_dir] + [p for p in sys.path if p] + site_packages


_SHOWN_ROOTS: list = []  # the sandbox's folders, left out of file names in messages


def _describe(error: BaseException, limit: int = 1500) -> str:
    """``Type: message`` plus the last lines of the traceback that are in the student's files."""
    import traceback

    frames = [f for f in traceback.extract_tb(error.__traceback__) if "ftr_child" not in f.filename]
    where = "".join(traceback.format_list(frames[-3:]))
    for root in _SHOWN_ROOTS:
        where = where.replace(root, "")
    text = f"{type(error).__name__}: {error}"
    if where:
        text += "\n" + where.rstrip()
    return text[:limit]


def _import_folder(names: dict) -> dict:
    """Import ``heap`` and ``replanning`` from the submission folder; return the error of each."""
    import importlib

    errors = {}
    for module_name, attributes in (("heap", ("BinaryHeap",)),
                                    ("replanning", ("repeated_forward_astar", "repeated_backward_astar",
                                                    "adaptive_astar"))):
        try:
            module = importlib.import_module(module_name)
        except BaseException as error:  # noqa: BLE001 - SystemExit too: the student's code is untrusted
            errors[module_name] = _describe(error)
            continue
        for attribute in attributes:
            if hasattr(module, attribute):
                names[attribute] = getattr(module, attribute)
    return errors


def _run_notebook(statements_file: str, names: dict) -> dict:
    """Execute a notebook's kept statements one by one in one namespace; an error skips only its statement."""
    import __future__

    import json
    import types

    lazy_annotations = __future__.annotations.compiler_flag  # a missing annotation name breaks nothing
    with open(statements_file, encoding="utf-8") as file:
        statements = json.load(file)
    module = types.ModuleType("notebook_submission")
    module.__file__ = statements_file
    sys.modules["notebook_submission"] = module
    errors = {}
    for statement in statements:
        try:
            code = compile(statement["source"], f"<{statement['cell']}>", "exec", flags=lazy_annotations)
            exec(code, module.__dict__)  # noqa: S102 - inside the sandbox, on purpose
        except BaseException as error:  # noqa: BLE001
            if len(errors) < 20:  # enough to report; the hello message stays small
                errors.setdefault(str(statement["cell"]), _describe(error))
    for attribute in ("BinaryHeap", "repeated_forward_astar", "repeated_backward_astar", "adaptive_astar"):
        if attribute in module.__dict__:
            names[attribute] = module.__dict__[attribute]
    return errors


# -- tasks ------------------------------------------------------------------------------------------

def _item_id(item) -> int:
    """A popped/peeked item back to its number; anything that is not exactly a pushed cell is -1."""
    if type(item) is tuple and len(item) == 2 and type(item[0]) is int and type(item[1]) is int:
        return item[0] * 1000 + item[1]
    return -1


def _priority(values):
    return values[0] if len(values) == 1 else tuple(values)


def run_heap_task(task: dict, names: dict) -> dict:
    """Run op sequences on fresh heaps; record each op's result or the exception it raised.

    Result codes per op: ``[0, value]`` returned a value, ``[1, name]`` raised ``name``.
    """
    heap_class = names["BinaryHeap"]
    outcomes = []
    for sequence in task["sequences"]:
        heap = heap_class()
        results = []
        for op, item, priority in sequence:
            cell = (item // 1000, item % 1000)
            try:
                if op == "push":
                    heap.push(cell, _priority(priority))
                    value = None
                elif op == "pop":
                    value = _item_id(heap.pop())
                elif op == "peek":
                    value = _item_id(heap.peek())
                elif op == "update":
                    heap.update(cell, _priority(priority))
                    value = None
                elif op == "remove":
                    heap.remove(cell)
                    value = None
                elif op == "len":
                    length = len(heap)
                    value = length if type(length) is int else -1
                else:  # "contains"
                    found = cell in heap
                    value = found if type(found) is bool else None
                results.append([0, value])
            except Exception as error:  # noqa: BLE001
                kind = next((k.__name__ for k in (IndexError, KeyError, ValueError) if isinstance(error, k)),
                            "other")
                results.append([1, kind, f"{type(error).__name__}: {error}"[:200]])
        outcomes.append(results)
    return {"kind": "heap", "outcomes": outcomes}


def run_search_task(task: dict, blocked_bits: bytes, names: dict, wire) -> tuple:
    """Run one algorithm on one instance through the fog-of-war world; encode the returned trace."""
    from array import array

    import numpy as np

    from reference.world.grid import Gridworld
    from reference.world.sensing import FogOfWarWorld

    height, width = task["height"], task["width"]
    bits = np.unpackbits(np.frombuffer(blocked_bits, dtype=np.uint8), count=height * width)
    grid = Gridworld(height, width, bits.reshape(height, width).astype(bool))
    start, target = tuple(task["start"]), tuple(task["target"])
    world = FogOfWarWorld(grid, start)
    function = names[task["function"]]
    trace = function(world, start, target, tie_break=task["tie_break"])
    try:
        header, arrays = wire.encode_trace(trace, height, width)
    except wire.TraceShapeError as error:
        return {"kind": "error", "error": f"the returned trace is malformed: {error}"[:1500]}, []
    visited = array("i", [row * width + col for row, col in world.visited])
    header["kind"] = "trace"
    return header, arrays + [visited]


def main(argv: list) -> int:
    task_fd, result_fd = int(argv[1]), int(argv[2])
    lib_dir, submission_dir = argv[3], argv[4]
    _set_path(lib_dir, submission_dir)
    _SHOWN_ROOTS.extend(folder.rstrip("/") + "/" for folder in (submission_dir, lib_dir))
    import ftr_wire as wire

    write_frame, read_frame = wire.write_frame, wire.read_frame  # kept before student code runs
    names: dict = {}
    statements_file = os.path.join(submission_dir, "notebook_statements.json")
    try:
        if os.path.exists(statements_file):
            errors = _run_notebook(statements_file, names)
        else:
            errors = _import_folder(names)
    except BaseException as error:  # noqa: BLE001
        errors = {"submission": _describe(error)}
    write_frame(result_fd, {"kind": "hello", "errors": errors, "names": sorted(names)})
    while True:
        try:
            task, arrays = read_frame(task_fd)
        except wire.ChannelClosed:
            return 0
        if task.get("kind") == "stop":
            return 0
        try:
            if task["kind"] == "heap":
                reply, reply_arrays = run_heap_task(task, names), []
            else:
                blocked_bits = arrays[0].tobytes()[: task["bit_bytes"]]
                reply, reply_arrays = run_search_task(task, blocked_bits, names, wire)
        except BaseException as error:  # noqa: BLE001 - SystemExit, KeyboardInterrupt: all reported
            reply, reply_arrays = {"kind": "error", "error": _describe(error)}, []
        reply["task"] = task["id"]
        write_frame(result_fd, reply, reply_arrays)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
