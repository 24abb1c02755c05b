"""Hostile, but bounded: fork many sleepers, some escaping into their own session, then hang.

The sleepers become `sleep 120 MARKER` (MARKER filled in by the test), so the test can find any
survivor by its command line.
"""
import os
import time

MARKER = "0.0001"


def repeated_forward_astar(world, start, target, tie_break="larger_g"):
    for number in range(300):
        try:
            pid = os.fork()
        except OSError:
            break
        if pid == 0:
            if number % 2:
                os.setsid()  # leave the process group
            try:
                os.execv("/usr/bin/sleep", ["sleep", "120", MARKER])
            finally:
                os._exit(0)
    time.sleep(120)


repeated_backward_astar = adaptive_astar = repeated_forward_astar
