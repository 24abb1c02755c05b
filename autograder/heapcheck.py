"""The heap check: random operation sequences against a model, and the "from scratch" source check.

Items are cells ``(row, col)``; priorities are distinct, so every ``pop`` and ``peek`` has exactly
one right answer. Some sequences use integer priorities, some the SPEC's key tuples
``(f, -g, stamp)``. Misuse must raise (SPEC §11): ``pop``/``peek`` on an empty heap ``IndexError``,
``update``/``remove`` of an absent item ``KeyError``, a second ``push`` of an item ``ValueError``.

>>> sequences = make_sequences(seed=1, count=2, length=30)
>>> len(sequences), sequences[0][0][0]
(2, 'pop')
>>> model_answers(sequences[0])[0]
[1, 'IndexError']
"""

from __future__ import annotations

import ast
import random

#: Modules that make the heap not "from scratch" (with their C halves), and the kit's private packages.
FORBIDDEN_MODULES = ("heapq", "_heapq", "queue", "_queue", "sortedcontainers", "bisect", "_bisect",
                     "reference.solutions", "autograder")


def make_sequences(seed: int, count: int = 24, length: int = 300) -> list[list[list]]:
    """``count`` op sequences ``[op, item, priority]``; the first starts on an empty heap with pop and peek."""
    rng = random.Random(seed)
    sequences = []
    for number in range(count):
        tuple_keys = number % 2 == 1
        present: set[int] = set()
        used_priorities: set = set()
        ops = [["pop", 0, [0]], ["peek", 0, [0]]] if number == 0 else []

        def fresh_priority(tuple_keys=tuple_keys, used_priorities=used_priorities):
            while True:
                if tuple_keys:
                    f = rng.randrange(0, 60)
                    value = [f, -rng.randrange(0, f + 1), rng.randrange(0, 10_000)]
                else:
                    value = [rng.randrange(-10_000, 10_000)]
                if tuple(value) not in used_priorities:
                    used_priorities.add(tuple(value))
                    return value

        while len(ops) < length:
            roll = rng.random()
            absent = rng.randrange(0, 50) * 1000 + rng.randrange(0, 50)
            if roll < 0.45 or not present:
                if present and rng.random() < 0.05:
                    item = rng.choice(sorted(present))  # a duplicate push: ValueError
                else:
                    item = absent
                    if item in present:
                        continue
                    present.add(item)
                ops.append(["push", item, fresh_priority()])
            elif roll < 0.60:
                ops.append(["pop", 0, [0]])
            elif roll < 0.70:
                ops.append(["update", rng.choice(sorted(present)) if rng.random() < 0.9 else absent, fresh_priority()])
            elif roll < 0.78:
                item = rng.choice(sorted(present)) if rng.random() < 0.85 else absent
                present.discard(item)
                ops.append(["remove", item, [0]])
            elif roll < 0.86:
                ops.append(["peek", 0, [0]])
            elif roll < 0.93:
                ops.append(["len", 0, [0]])
            else:
                ops.append(["contains", rng.choice(sorted(present)) if rng.random() < 0.5 else absent, [0]])
            # `present` is only a hint for choosing items; the model decides what is really in the heap.
        # Drain: pop everything, then misuse on the empty heap.
        ops += [["pop", 0, [0]]] * 12 + [["len", 0, [0]], ["pop", 0, [0]], ["remove", 1, [0]], ["update", 1, [5]]]
        sequences.append(ops)
    return sequences


def model_answers(sequence: list[list]) -> list[list]:
    """What a correct heap answers: ``[0, value]`` (value, or None) or ``[1, exception name]``."""
    heap: dict[int, tuple] = {}
    answers: list[list[object]] = []
    for op, item, priority in sequence:
        key = tuple(priority)
        if op == "push":
            answers.append([1, "ValueError"] if item in heap else [0, None])
            heap.setdefault(item, key)
        elif op in ("pop", "peek"):
            if not heap:
                answers.append([1, "IndexError"])
                continue
            smallest = min(heap, key=heap.__getitem__)
            answers.append([0, smallest])
            if op == "pop":
                del heap[smallest]
        elif op in ("update", "remove"):
            if item not in heap:
                answers.append([1, "KeyError"])
                continue
            answers.append([0, None])
            if op == "update":
                heap[item] = key
            else:
                del heap[item]
        elif op == "len":
            answers.append([0, len(heap)])
        else:
            answers.append([0, item in heap])
    return answers


def _show_op(op: list) -> str:
    name, item, priority = op
    cell = f"({item // 1000}, {item % 1000})"
    key = priority[0] if len(priority) == 1 else tuple(priority)
    return {"push": f"push({cell}, {key})", "update": f"update({cell}, {key})", "remove": f"remove({cell})",
            "contains": f"{cell} in heap", "len": "len(heap)"}.get(name, f"{name}()")


def judge_heap(sequences: list[list[list]], outcomes: object) -> tuple[int, list[str]]:
    """Compare the child's answers with the model's; return (sequences passed, first messages)."""
    if not isinstance(outcomes, list) or len(outcomes) != len(sequences):
        return 0, ["the heap check's reply is malformed"]
    passed, messages = 0, []
    for number, (sequence, got) in enumerate(zip(sequences, outcomes), start=1):
        want = model_answers(sequence)
        if not isinstance(got, list) or len(got) != len(want):
            messages.append(f"heap sequence {number}: the reply is malformed")
            continue
        for index, (w, g) in enumerate(zip(want, got)):
            if not isinstance(g, list) or len(g) < 2 or g[:2] != w:
                recent = "; ".join(_show_op(op) for op in sequence[max(0, index - 3):index])
                shown = g[2] if isinstance(g, list) and len(g) > 2 and g[0] == 1 else (
                    _describe_value(sequence[index][0], g[1]) if isinstance(g, list) and len(g) >= 2 else repr(g))
                messages.append(f"heap sequence {number}, operation {index + 1}: {_show_op(sequence[index])}"
                                f"{' after ' + recent if recent else ''}: expected "
                                f"{_describe_value(sequence[index][0], w[1]) if w[0] == 0 else 'raise ' + w[1]}; "
                                f"yours: {shown}{_rule(sequence[index][0], w)}")
                break
        else:
            passed += 1
    return passed, messages


def _describe_value(op: str, value) -> str:
    if op in ("pop", "peek"):
        if type(value) is int and value >= 0:
            return f"({value // 1000}, {value % 1000})"
        return "something that is not one of the cells pushed"
    if op in ("len", "contains"):
        return repr(value)
    return "no error" if value is None else repr(value)


def _rule(op: str, want: list) -> str:
    if want[0] == 1:
        return {"IndexError": " — pop/peek on an empty heap raise IndexError",
                "KeyError": " — update/remove of an absent item raise KeyError",
                "ValueError": " — pushing an item already in the heap raises ValueError"}[want[1]]
    if op in ("pop", "peek"):
        return " — pop/peek give the item with the smallest priority"
    return ""


def from_scratch_problems(sources: dict[str, str]) -> list[str]:
    """Why the submission is not "from scratch": a module or cell that imports a shortcut, names one in a
    string (for ``importlib``), or reaches one as an attribute (``collections._heapq``).

    This is the static half of the check; the run-time half runs the heap where the shortcuts cannot
    be imported at all (:mod:`autograder.child`).

    >>> from_scratch_problems({"heap.py": "import heapq"})
    ['heap.py line 1: imports heapq']
    >>> from_scratch_problems({"In [3]": "q = __import__('bisect')"})
    ['In [3] line 1: names bisect']
    >>> from_scratch_problems({"heap.py": "class BinaryHeap: pass"})
    []
    """
    problems = []
    for filename, source in sources.items():
        try:
            tree = ast.parse(source)
        except (SyntaxError, ValueError, RecursionError, MemoryError) as error:
            problems.append(f"{filename}: cannot be parsed ({type(error).__name__})")
            continue
        for node in ast.walk(tree):
            names, verb = [], "imports"
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                names, verb = [node.value.strip()], "names"
            elif isinstance(node, ast.Attribute):
                names, verb = [node.attr], "names"
            for name in names:
                if any(name == bad or name.startswith(bad + ".") for bad in FORBIDDEN_MODULES):
                    problems.append(f"{filename} line {getattr(node, 'lineno', '?')}: {verb} {name}")
                    break
    return problems
