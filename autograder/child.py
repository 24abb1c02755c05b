"""The sandboxed side of grading: import the student's code, run the tasks the grader sends, reply.

This file runs in the child process only, copied into the sandbox as ``ftr_child.py`` next to
``ftr_wire.py`` (a copy of :mod:`autograder.wire`) and a private copy of ``reference/world``.
It is started with ``python -I -S -B`` (no environment variables, no site-packages processing) and
works in this order, so that nothing of the student's can stand in for the harness's own modules:

1. set its own resource limits (CPU, memory, processes, file size) from its arguments, before any
   student code exists in the process;
2. import everything the harness needs (the standard library, NumPy, ``reference.world``) with
   ``sys.path`` = the sandbox's library folder, the standard library and site-packages;
3. only then put the submission folder on ``sys.path`` and import ``heap`` and ``replanning`` by
   their file paths (a student's ``json.py`` or ``random.py`` is theirs to use, never the harness's);
4. in ``from_scratch`` mode (the extra-credit check), ``heapq``, ``queue``, ``bisect`` and their C
   halves are first removed from ``sys.modules`` and refused to the student's code, however it asks
   (``import``, ``__import__``, ``importlib.import_module``); only ``heap`` is imported.

Nothing this process says is trusted: the grader checks every field of every reply, and it judges
traces, not claims. Usage (by the grader only)::

    python -I -S -B ftr_child.py TASK_FD RESULT_FD LIB_DIR SUBMISSION_DIR SETTINGS_JSON
"""

import os
import sys

#: The modules a heap written "from scratch" may not use (the C halves too).
SHORTCUT_MODULES = ("heapq", "_heapq", "queue", "_queue", "bisect", "_bisect", "sortedcontainers")


def _limit(settings: dict) -> None:
    """Resource limits for this process and everything it starts (the hard limits cannot be raised)."""
    try:
        import resource
    except ImportError:  # not a POSIX system: the grader's wall-clock limits still hold
        return
    for name, key in (("RLIMIT_CPU", "cpu_seconds"), ("RLIMIT_AS", "memory_bytes"), ("RLIMIT_NPROC", "processes"),
                      ("RLIMIT_FSIZE", "file_bytes"), ("RLIMIT_CORE", "core")):
        value = settings.get(key, 0 if key == "core" else None)
        if value is None or not hasattr(resource, name):
            continue
        try:
            resource.setrlimit(getattr(resource, name), (int(value), int(value)))
        except (ValueError, OSError):
            pass  # refused here (macOS and RLIMIT_AS): the grader's own limits still hold


_SHOWN_ROOTS: list = []  # the sandbox's folders, left out of file names in messages


def _describe(error: BaseException, limit: int = 1500) -> str:
    """``Type: message`` plus the last lines of the traceback that are in the student's files."""
    import traceback

    frames = [f for f in traceback.extract_tb(error.__traceback__) if "ftr_child" not in f.filename]
    where = "".join(traceback.format_list(frames[-3:]))
    for root in _SHOWN_ROOTS:
        where = where.replace(root, "")
    try:
        message = str(error)
    except BaseException:  # noqa: BLE001 - a student's exception whose __str__ raises
        message = "(its message could not be shown)"
    text = f"{type(error).__name__}: {message}"
    if where:
        text += "\n" + where.rstrip()
    return text[:limit]


class _RefuseShortcuts:
    """A meta-path finder that refuses the shortcut modules to code in the submission."""

    def __init__(self, submission_dir: str) -> None:
        self.submission_dir = submission_dir.rstrip("/") + "/"

    def _asked_by_student(self) -> bool:
        frame = sys._getframe(2)
        while frame is not None:
            filename = frame.f_code.co_filename
            if filename.startswith(self.submission_dir) or filename.startswith(("<In [", "<code cell", "<the notebook")):
                return True
            frame = frame.f_back
        return False

    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in SHORTCUT_MODULES and self._asked_by_student():
            raise ImportError(f"{name} may not be used by a heap written from scratch", name=name)
        return None


def _refuse_shortcuts(submission_dir: str) -> None:
    for name in SHORTCUT_MODULES:
        sys.modules.pop(name, None)
    collections = sys.modules.get("collections")
    if collections is not None and hasattr(collections, "_heapq"):
        collections._heapq = None  # the one stdlib module that keeps heapq as an attribute
    sys.meta_path.insert(0, _RefuseShortcuts(submission_dir))


def _import_folder(submission_dir: str, modules: tuple, names: dict) -> dict:
    """Import the student's modules by their paths; return the error of each."""
    import importlib.util

    errors = {}
    wanted = {"heap": ("BinaryHeap",),
              "replanning": ("repeated_forward_astar", "repeated_backward_astar", "adaptive_astar")}
    for module_name in modules:
        path = os.path.join(submission_dir, module_name + ".py")
        try:
            module = sys.modules.get(module_name)  # replanning's `from heap import ...` may have loaded heap
            if module is None or getattr(module, "__file__", None) != path:
                if not os.path.exists(path):
                    raise ModuleNotFoundError(f"No module named {module_name!r} ({module_name}.py is missing)")
                spec = importlib.util.spec_from_file_location(module_name, path)
                module = importlib.util.module_from_spec(spec)
                sys.modules[module_name] = module
                spec.loader.exec_module(module)
        except BaseException as error:  # noqa: BLE001 - SystemExit too: the student's code is untrusted
            sys.modules.pop(module_name, None)
            errors[module_name] = _describe(error)
            continue
        for attribute in wanted[module_name]:
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
                    value = len(heap)
                else:  # "contains"
                    value = cell in heap
                results.append([0, value])
            except Exception as error:  # noqa: BLE001
                kind = next((k.__name__ for k in (IndexError, KeyError, ValueError) if isinstance(error, k)),
                            "other")
                results.append([1, kind, _describe(error, 200).splitlines()[0]])
        outcomes.append(results)
    return {"kind": "heap", "outcomes": outcomes}


def run_search_task(task: dict, blocked_bits: bytes, names: dict, world_classes, wire) -> tuple:
    """Run one algorithm on one instance through the fog-of-war world; encode the returned trace."""
    from array import array

    np, Gridworld, FogOfWarWorld = world_classes
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
    import json

    task_fd, result_fd = int(argv[1]), int(argv[2])
    lib_dir, submission_dir = argv[3], argv[4]
    settings = json.loads(argv[5])
    _limit(settings)
    # The harness's own modules first, from the library folder and the standard library only.
    import site

    site_packages = [p for p in site.getsitepackages() if os.path.isdir(p)]
    sys.path[:] = [lib_dir] + [p for p in sys.path if p and p != submission_dir] + site_packages
    import __future__  # noqa: F401 - the notebook runner's, loaded before any student code
    import array  # noqa: F401
    import importlib.util  # noqa: F401
    import traceback  # noqa: F401
    import types  # noqa: F401

    import ftr_wire as wire

    world_classes = None
    if not settings.get("from_scratch"):
        import numpy as np

        from reference.world.grid import Gridworld
        from reference.world.sensing import FogOfWarWorld

        world_classes = (np, Gridworld, FogOfWarWorld)
    _SHOWN_ROOTS.extend(folder.rstrip("/") + "/" for folder in (submission_dir, lib_dir))
    write_frame, read_frame = wire.write_frame, wire.read_frame  # kept before student code runs
    if settings.get("from_scratch"):
        _refuse_shortcuts(submission_dir)
    sys.path.insert(1, submission_dir)  # after lib: the student's helpers, never the kit's world
    names: dict = {}
    statements_file = os.path.join(submission_dir, "notebook_statements.json")
    modules = ("heap",) if settings.get("from_scratch") else ("heap", "replanning")
    try:
        if os.path.exists(statements_file):
            errors = _run_notebook(statements_file, names)
        else:
            errors = _import_folder(submission_dir, modules, names)
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
                reply, reply_arrays = run_search_task(task, blocked_bits, names, world_classes, wire)
        except BaseException as error:  # noqa: BLE001 - SystemExit, KeyboardInterrupt: all reported
            reply, reply_arrays = {"kind": "error", "error": _describe(error)}, []
        reply["task"] = task["id"]
        write_frame(result_fd, reply, reply_arrays)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
