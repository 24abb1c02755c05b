"""Hostile, but bounded: fork many sleepers, some escaping into their own session, then hang.

The sleepers move into MARK_DIR (filled in by the test) so that the test can find any survivor.
"""
import os
import time

MARK_DIR = None


def repeated_forward_astar(world, start, target, tie_break="larger_g"):
    for number in range(300):
        try:
            pid = os.fork()
        except OSError:
            break
        if pid == 0:
            if MARK_DIR:
                os.chdir(MARK_DIR)
            if number % 2:
                os.setsid()  # leave the process group
            time.sleep(120)
            os._exit(0)
    time.sleep(120)


repeated_backward_astar = adaptive_astar = repeated_forward_astar
