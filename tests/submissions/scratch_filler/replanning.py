"""Hostile: fill /tmp, /var/tmp, /dev/shm and the working folder until the disk is full, and leave
planted files for the next student to find. It reports where it could write (the test reads it)."""
import os

PLANTED = "ftr_planted_by_scratch_filler"


def _fill():
    wrote = []
    chunk = b"x" * (1 << 20)
    for folder in ("/tmp", "/var/tmp", "/dev/shm", os.getcwd()):
        try:
            with open(os.path.join(folder, PLANTED), "wb") as file:
                file.write(b"planted")
            wrote.append(folder)
        except OSError:
            continue
        try:
            with open(os.path.join(folder, PLANTED + ".fill"), "wb") as file:
                for _ in range(4096):  # up to 4 GiB, or until the space (or the file size limit) runs out
                    file.write(chunk)
        except OSError:
            pass
    return wrote


def repeated_forward_astar(world, start, target, tie_break="larger_g"):
    raise RuntimeError(f"wrote into: {_fill()}")


repeated_backward_astar = adaptive_astar = repeated_forward_astar
