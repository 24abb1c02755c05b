"""Hostile: leave a process behind that outlives the grading.

A double fork, a new session, then exec of `sleep` with an empty environment (no token to find it
by). MARKER (filled in by the test) ends up in the survivor's command line, so the test can look.
"""
import os

MARKER = "0.000424242"


def repeated_forward_astar(world, start, target, tie_break="larger_g"):
    for _ in range(3):
        pid = os.fork()
        if pid == 0:
            os.setsid()
            if os.fork() == 0:
                try:
                    os.execve("/usr/bin/sleep", ["sleep", "300", MARKER], {})
                finally:
                    os._exit(0)
            os._exit(0)
        os.waitpid(pid, 0)
    raise RuntimeError("left a survivor behind")


repeated_backward_astar = adaptive_astar = repeated_forward_astar
