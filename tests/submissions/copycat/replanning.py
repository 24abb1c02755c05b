"""Hostile: no code of its own. It looks through /proc (other processes' cwd and root), /tmp and the
sandbox folders for another student's modules and runs them as its own."""
import glob
import os


def _find(name):
    mine = os.path.dirname(os.path.abspath(__file__))
    candidates = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            for what in ("cwd", "root"):
                candidates += glob.glob(f"/proc/{entry}/{what}/**/{name}", recursive=False)
                candidates += glob.glob(f"/proc/{entry}/{what}/../submission/{name}")
                candidates += glob.glob(f"/proc/{entry}/{what}/sandbox/submission/{name}")
    for pattern in (f"/tmp/**/{name}", f"/tmp/*/*/*/submission/{name}", f"/tmp/*/*/submission/{name}"):
        candidates += glob.glob(pattern, recursive=True)
    for path in candidates:
        try:
            if os.path.dirname(os.path.realpath(path)) != mine and os.path.getsize(path) > 500:
                return path
        except OSError:
            continue
    return None


_found = _find("replanning.py")
if _found:
    with open(_found) as _file:
        exec(compile(_file.read(), _found, "exec"))  # noqa: S102
else:
    def repeated_forward_astar(world, start, target, tie_break="larger_g"):
        raise RuntimeError("found nobody to copy")

    repeated_backward_astar = adaptive_astar = repeated_forward_astar
