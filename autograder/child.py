"""The sandboxed side of grading: import the student's code, run the tasks the grader sends, reply.

This file runs in the child process only, copied into the sandbox as ``ftr_child.py`` next to
``ftr_wire.py`` (a copy of :mod:`autograder.wire`) and a private copy of ``reference/world``.
It is started with ``python -I -S -B`` (no environment variables, no site-packages processing) and
works in this order, so that nothing of the student's can stand in for the harness's own modules:

1. take its channel: tasks arrive on its standard input, replies leave on its standard output
   (both moved to private descriptors; what it prints then goes to stderr, the grader's capped file);
2. set its own resource limits (CPU, memory, processes, file size) from its arguments, before any
   student code exists in the process;
3. import everything the harness needs (the standard library, NumPy, ``reference.world``) with
   ``sys.path`` = the sandbox's library folder, the standard library and the child site folder
   (NumPy only: :mod:`autograder.childsite`), then say ``ready`` and wait for ``start`` (meanwhile
   the grader puts the whole process tree in its control groups);
4. only then put the submission folder on ``sys.path`` and import ``heap`` and ``replanning`` by
   their file paths (a student's ``json.py`` or ``random.py`` is theirs to use, never the harness's);
5. in ``from_scratch`` mode (the extra-credit check), ``heapq``, ``queue``, ``bisect`` and their C
   halves are first removed from ``sys.modules``, every reference other modules keep to them is
   dropped, and they are refused to everyone in the process, whoever asks and however
   (``import``, ``__import__``, ``importlib.import_module`` from any thread, a built-in's spec);
   only ``heap`` is imported.

Nothing this process says is trusted: the grader checks every field of every reply, and it judges
traces, not claims. Usage (by the grader only)::

    python -I -S -B ftr_child.py LIB_DIR SUBMISSION_DIR SETTINGS_JSON    < tasks  > replies
"""

import os
import sys

#: The modules a heap written "from scratch" may not use (the C halves too).
SHORTCUT_MODULES = ("heapq", "_heapq", "queue", "_queue", "bisect", "_bisect", "sortedcontainers")


def _limit(settings: dict) -> None:
    """Resource limits for this process and everything it starts (the hard limits cannot be raised)."""
    try:
        import resource
    except ImportError:  # Windows: the grader's CPU and wall-clock limits still hold
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


def _is_shortcut(name) -> bool:
    return isinstance(name, str) and name.split(".")[0] in SHORTCUT_MODULES


class _RefuseShortcuts:
    """A meta-path finder that refuses the shortcut modules to everyone in the process (the harness
    imported what it needs before; so the refusal does not depend on who asks, or from which thread)."""

    def find_spec(self, name, path=None, target=None):
        if _is_shortcut(name):
            raise ImportError(f"{name} may not be used by a heap written from scratch", name=name)
        return None


def _refuse_shortcuts() -> None:
    """Drop the shortcut modules, every reference other modules keep to them or their functions, and
    refuse them from now on: to the import system and to the low-level makers of built-in and
    extension modules (``_imp.create_builtin``, ``_imp.create_dynamic``)."""
    import _imp

    for name in SHORTCUT_MODULES:
        sys.modules.pop(name, None)
    for module in list(sys.modules.values()):
        try:
            names = list(vars(module).items())
        except TypeError:
            continue
        for attribute, value in names:
            owner = getattr(value, "__name__", None) if type(value) is type(sys) else getattr(value, "__module__", None)
            if _is_shortcut(owner):
                try:
                    setattr(module, attribute, None)  # e.g. collections._heapq
                except (AttributeError, TypeError):
                    pass

    def guarded(make):
        def make_unless_shortcut(spec, *args):
            if _is_shortcut(getattr(spec, "name", None)):
                raise ImportError(f"{spec.name} may not be used by a heap written from scratch", name=spec.name)
            return make(spec, *args)
        return make_unless_shortcut

    _imp.create_builtin = guarded(_imp.create_builtin)
    _imp.create_dynamic = guarded(_imp.create_dynamic)
    sys.meta_path.insert(0, _RefuseShortcuts())


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
                if spec is None or spec.loader is None:  # never for a .py path; said plainly if it were
                    raise ImportError(f"Python found no way to load {module_name}.py")
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
        results: list[list[object]] = []  # [0, value] or [1, exception name, message] per op
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


def run_search_task(task: dict, blocked_bits: bytes, names: dict, world_classes) -> tuple:
    """Run one algorithm on one instance through the fog-of-war world; check and encode the returned
    trace with the kit's one trace validator (:func:`reference.world.trace.encode_trace`)."""
    from array import array

    np, Gridworld, FogOfWarWorld, trace_module = world_classes
    height, width = task["height"], task["width"]
    bits = np.unpackbits(np.frombuffer(blocked_bits, dtype=np.uint8), count=height * width)
    grid = Gridworld(height, width, bits.reshape(height, width).astype(bool))
    start, target = tuple(task["start"]), tuple(task["target"])
    world = FogOfWarWorld(grid, start)
    function = names[task["function"]]
    trace = function(world, start, target, tie_break=task["tie_break"])
    try:
        header, arrays = trace_module.encode_trace(trace, height, width)
    except trace_module.TraceFormatError as error:
        return {"kind": "error", "error": f"the returned trace is malformed: {error}"[:1500]}, []
    visited = array("i", [row * width + col for row, col in world.visited])
    header["kind"] = "trace"
    size = 4 * sum(len(part) for part in arrays) + 4 * len(visited) + 1024
    if size > task.get("reply_bytes", size):  # say what the run did; the grader would refuse the frame unread
        return _too_large(header, arrays, size), []
    return header, arrays + [visited]


def _too_large(header: dict, arrays: list, size: int) -> dict:
    """A trace over the task's reply cap, summarised: its size, counts, and how many searches expanded their goal."""
    trajectory, meta, expanded = arrays[0], arrays[1], arrays[2]
    past_goal, offset = 0, 0
    for search in range(header["searches"]):
        goal, count = meta[4 * search + 1], meta[4 * search + 2]
        past_goal += goal in expanded[offset:offset + count]
        offset += count
    return {"kind": "error", "error": f"the run's trace is {size:,} bytes, over the reply limit",
            "too_large": {"bytes": size, "searches": header["searches"], "expansions": len(expanded),
                          "moves": max(0, len(trajectory) - 1), "past_goal": past_goal}}


def _take_channel() -> tuple:
    """(task_fd, result_fd): the grader's pipes, moved off stdin/stdout; stdout then goes to stderr."""
    task_fd, result_fd = os.dup(0), os.dup(1)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    os.dup2(2, 1)
    return task_fd, result_fd


def _reached(paths: list) -> list:
    """The probe: which of the kit's private paths (and packages) this child can reach."""
    import importlib.util

    found = [path for path in paths if os.path.exists(path)]
    for package in ("reference.solutions", "autograder"):
        try:
            if importlib.util.find_spec(package) is not None:
                found.append(f"import {package}")
        except (ImportError, ValueError):
            pass
    return found


def main(argv: list) -> int:
    """The child's entry point: take the task channel, set the limits, then run the tasks it is sent; returns the
    exit code.
    """
    import json

    task_fd, result_fd = _take_channel()
    lib_dir, submission_dir = argv[1], argv[2]
    settings = json.loads(argv[3])
    _limit(settings)
    # The harness's own modules first, from the library folder, the standard library and NumPy's own folder.
    sys.path[:] = [lib_dir] + [p for p in sys.path if p and p != submission_dir] + [settings["site"]]
    import __future__  # noqa: F401 - the notebook runner's, loaded before any student code
    import array  # noqa: F401
    import importlib.util  # noqa: F401
    import traceback  # noqa: F401
    import types  # noqa: F401

    import ftr_wire as wire

    world_classes = None
    if not settings.get("from_scratch"):
        import numpy as np

        from reference.world import trace as trace_module
        from reference.world.grid import Gridworld
        from reference.world.sensing import FogOfWarWorld

        world_classes = (np, Gridworld, FogOfWarWorld, trace_module)
    write_frame, read_frame = wire.write_frame, wire.read_frame  # kept before student code runs
    write_frame(result_fd, {"kind": "ready"})
    try:
        go, _ = read_frame(task_fd)
    except wire.ChannelClosed:
        return 0
    if go.get("kind") != "start":
        return 0
    if "probe" in settings:
        write_frame(result_fd, {"kind": "hello", "errors": {}, "names": [], "reached": _reached(settings["probe"])})
        return 0
    _SHOWN_ROOTS.extend(folder.rstrip("/") + "/" for folder in (submission_dir, lib_dir))
    if settings.get("from_scratch"):
        _refuse_shortcuts()
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
                reply, reply_arrays = run_search_task(task, blocked_bits, names, world_classes)
        except BaseException as error:  # noqa: BLE001 - SystemExit, KeyboardInterrupt: all reported
            reply, reply_arrays = {"kind": "error", "error": _describe(error)}, []
        reply["task"] = task["id"]
        write_frame(result_fd, reply, reply_arrays)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
