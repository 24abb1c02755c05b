"""Hostile: attack every other process it can reach while it is being graded.

For a few seconds, over and over: kill(-1, SIGKILL) and kill(-1, SIGSTOP) (every process of its
uid), SIGKILL/SIGSTOP to every pid in /proc, and a look at every other process's working folder,
environment and memory. It reports what it could see in its error message (the test reads it).
"""
import os
import signal
import time

BEGAN = time.monotonic()


def _attack():
    seen = []
    while time.monotonic() < BEGAN + 5:  # the first five seconds of each child, while its neighbours run
        for sig in (signal.SIGSTOP, signal.SIGKILL):
            try:
                os.kill(-1, sig)
            except OSError:
                pass
        for entry in os.listdir("/proc"):
            if not entry.isdigit() or int(entry) in (1, os.getpid(), os.getppid()):
                continue  # itself, and what started it (in bubblewrap: its own sandbox's init)
            for sig in (signal.SIGSTOP, signal.SIGKILL):
                try:
                    os.kill(int(entry), sig)
                except OSError:
                    pass
            for what in ("cwd", "root"):
                try:
                    listing = os.listdir(f"/proc/{entry}/{what}")
                    if "heap.py" in listing or "replanning.py" in listing or "submission" in listing:
                        seen.append(f"{entry}/{what}")
                except OSError:
                    pass
            for what in ("environ", "mem"):
                try:
                    with open(f"/proc/{entry}/{what}", "rb") as file:
                        if file.read(64):
                            seen.append(f"{entry}/{what}")
                except OSError:
                    pass
        time.sleep(0.05)
    return sorted(set(seen))


def repeated_forward_astar(world, start, target, tie_break="larger_g"):
    raise RuntimeError(f"reached: {_attack()}")


repeated_backward_astar = adaptive_astar = repeated_forward_astar
