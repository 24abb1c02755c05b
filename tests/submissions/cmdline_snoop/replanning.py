"""Hostile: find classmates' submission folders in other processes' command lines and read their code.

For its first six seconds it reads every ``/proc/*/cmdline``; every argument that is a folder (and
its ``submission`` sub-folder) is searched for ``replanning.py``, and any it can read that is not
its own is "stolen". It reports what it read in its error message (the test reads it).
"""
import os
import stat
import time

BEGAN = time.monotonic()


def _snoop():
    mine = os.path.dirname(os.path.abspath(__file__))
    stolen = set()
    while time.monotonic() < BEGAN + 6:
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as file:
                    arguments = file.read().decode("utf-8", "replace").split("\0")
            except OSError:
                continue
            for argument in arguments:
                for folder in (argument, os.path.join(argument, "submission"), os.path.dirname(argument)):
                    path = os.path.join(folder, "replanning.py")
                    if os.path.realpath(os.path.dirname(path)) == os.path.realpath(mine):
                        continue
                    try:
                        if not stat.S_ISREG(os.stat(path).st_mode):
                            continue  # a FIFO would block the open (another test's, named replanning.py)
                        with open(path) as file:
                            first = file.readline().strip()
                        stolen.add(first[:60])
                    except OSError:
                        pass
        time.sleep(0.05)
    return sorted(stolen)


def repeated_forward_astar(world, start, target, tie_break="larger_g"):
    raise RuntimeError(f"read from command lines: {_snoop()}")


repeated_backward_astar = adaptive_astar = repeated_forward_astar
