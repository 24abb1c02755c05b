"""Hostile: never finish, and ignore polite signals."""
import signal


def repeated_forward_astar(world, start, target, tie_break="larger_g"):
    for name in ("SIGTERM", "SIGINT", "SIGXCPU"):
        signal.signal(getattr(signal, name), signal.SIG_IGN)
    while True:
        pass


repeated_backward_astar = adaptive_astar = repeated_forward_astar
