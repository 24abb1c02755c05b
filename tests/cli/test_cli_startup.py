"""What a process of the ``ftr`` command imports, and how it ends: the structure behind a fast start.

Times are measured by ``bench/startup.py`` (docs/speed.md), never asserted here; these tests hold the
structure that buys them: the command line imports neither Numba nor SciPy, ``ftr run`` imports only
its own command module, a warm ``ftr run`` runs the twin compiled ahead of time without importing Numba
(and that module gives the Numba twin's traces), a warm Numba twin starts Numba without SciPy and without
filling Numba's registries of implementations (compiling still works afterwards), and ``ftr run``'s quick
exit loses no output. Each runs in a fresh interpreter.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

REPO = Path(__file__).resolve().parents[2]
MAZE = ["mazes/maze_00.map", "--scen", "mazes/mazes.scen", "--index", "0"]


def fresh_python(code: str) -> str:
    """Run ``code`` in a new interpreter in the repository; its stdout (it must succeed)."""
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


def loaded_after(code: str) -> set[str]:
    """The top-level and ``reference.cli`` modules imported by ``code``."""
    out = fresh_python(code + "\nimport sys, json\nprint(json.dumps(sorted(sys.modules)))")
    return set(json.loads(out.splitlines()[-1]))


def test_the_whole_command_line_imports_neither_numba_nor_scipy_nor_matplotlib() -> None:
    loaded = loaded_after("from reference.cli import build_parser\nbuild_parser()")
    assert "reference.cli.grade" in loaded and "reference.cli.path" in loaded  # every command registered
    assert not {"numba", "scipy", "matplotlib"} & loaded


def test_ftr_run_registers_only_its_own_module() -> None:
    loaded = loaded_after("from reference.cli import build_parser\nparser = build_parser('run')\n"
                          "assert list(parser._subparsers._group_actions[0].choices) == ['run']")
    assert "reference.cli.run" in loaded
    assert not {name for name in loaded if name.startswith("reference.cli.")} - {
        "reference.cli.run", "reference.cli._common", "reference.cli._ahead_of_time"}


def test_a_command_named_unlike_its_module_still_finds_its_parser() -> None:
    out = fresh_python("from reference.cli import build_parser\n"
                       "print(*build_parser('secret-seed')._subparsers._group_actions[0].choices)")
    assert {"secret-seed", "run", "path", "grade"} <= set(out.split())  # no module secret_seed.py: the whole parser


def test_the_readable_engine_never_imports_numba() -> None:
    loaded = loaded_after(f"from reference.cli import main\nmain(['run', *{MAZE!r}, '--engine', 'python'])")
    assert "reference.solutions.replanning" in loaded
    assert not {"numba", "scipy", "reference.cli._ahead_of_time"} & loaded


def ahead_of_time_module():
    """The twin compiled ahead of time for the present sources, built first if need be (about 20 s); the
    test is skipped where it cannot be built (no C compiler, a read-only kit)."""
    from reference.cli._ahead_of_time import build_ahead_of_time_module, can_build, load_ahead_of_time_module

    module = load_ahead_of_time_module()
    if module is None and can_build() and build_ahead_of_time_module(wait=True):
        module = load_ahead_of_time_module()
    if module is None:
        pytest.skip("the twin cannot be compiled ahead of time here")
    return module


def test_a_build_under_way_elsewhere_is_left_to_it(capsys) -> None:
    # Another process holds the build's lock (as a parallel `ftr run` that found no module does while it
    # builds): a run that found none goes on without building, at once.
    import fcntl

    from reference.cli._ahead_of_time import build_ahead_of_time_module, module_name_and_path

    ahead_of_time_module()  # (the module for these sources exists: a build would not touch it)
    capsys.readouterr()     # (what building it just now said, if it had to)
    _name, path = module_name_and_path()
    with open(path.with_name(path.name + ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        assert build_ahead_of_time_module() is False   # not "built": it was left to the lock's holder
    assert "compiling" not in capsys.readouterr().err  # and it never began a build


def test_a_warm_ftr_run_never_imports_numba() -> None:
    ahead_of_time_module()
    loaded = loaded_after(f"from reference.cli import main\nmain(['run', *{MAZE!r}, '--algorithm', 'adaptive'])")
    assert "reference.cli._ahead_of_time" in loaded
    assert not {"numba", "scipy", "reference.solutions.compiled"} & loaded


def test_the_ahead_of_time_twin_gives_the_numba_twins_traces() -> None:
    from reference.cli._ahead_of_time import run_ahead_of_time
    from reference.solutions.compiled.replanning import run_compiled
    from reference.world.instances import load_folder, standard_mazes_dir
    from reference.world.trace import TIE_BREAKS

    module = ahead_of_time_module()
    instances = load_folder(standard_mazes_dir())[:6]
    for instance in instances:
        for algorithm in ("forward", "backward", "adaptive"):
            for tie_break in TIE_BREAKS:
                for record_cells in (True, False):
                    ahead = run_ahead_of_time(module, instance.grid, instance.start, instance.target, algorithm,
                                              tie_break, record_cells)
                    twin = run_compiled(instance.grid, instance.start, instance.target, algorithm, tie_break,
                                        record_cells)
                    assert ahead is not None and vars(ahead).keys() == vars(twin).keys()
                    for field, value in vars(twin).items():
                        assert np.array_equal(getattr(ahead, field), value), (instance.name, algorithm, field)
    # what only run_compiled handles, with its error: a blocked target
    blocked = instances[0].grid
    row, col = map(int, np.argwhere(blocked.blocked)[0])
    assert run_ahead_of_time(module, blocked, instances[0].start, (row, col), "forward", "larger_g", False) is None


def test_a_warm_twin_fills_no_registries_nor_imports_scipy_and_compiling_still_works() -> None:
    # numba.np.linalg and numba.typed.typeddict are among the modules Numba's refresh() imports to fill
    # its registries: a run loaded from the cache needs none of them (compiled/__init__.py).
    code = f"""
import os, sys
os.environ["FTR_NO_AHEAD_OF_TIME"] = "1"   # the Numba twin, not the module compiled ahead of time
from reference.cli import main
main(['run', *{MAZE!r}])           # the first process of the test session may compile (cold cache)
main(['run', *{MAZE!r}, '--algorithm', 'adaptive'])
print(sorted(name for name in sys.modules if name.split('.')[0] == 'scipy'))
print(sorted(name for name in ('numba.np.linalg', 'numba.typed.typeddict') if name in sys.modules))
import numpy as np, numba
dot = numba.njit(lambda a, b: np.dot(a, b))   # compiling fills the registries; Numba finds SciPy's BLAS
print(dot(np.arange(3.0), np.arange(3.0)), 'scipy.linalg.cython_blas' in sys.modules)
"""
    fresh_python(code)  # fills Numba's cache if the kit's sources changed since it was written
    lines = fresh_python(code).splitlines()
    assert "maze_00#0  yes" in lines[3]
    assert lines[-3:] == ["[]", "[]", "5.0 True"]  # 0*0 + 1*1 + 2*2


def test_hidden_modules_come_back() -> None:
    from reference.solutions.compiled import modules_hidden

    with modules_hidden("json", "a_module_nobody_has"):  # json is imported already: left alone
        assert sys.modules["a_module_nobody_has"] is None and sys.modules["json"] is json
    assert "a_module_nobody_has" not in sys.modules


def test_the_quick_exit_keeps_the_output_and_the_trace_file(tmp_path: Path, capsys, monkeypatch) -> None:
    from reference.cli import main

    trace = tmp_path / "compiled.json"
    done = subprocess.run([sys.executable, "-m", "reference.cli", "run", *MAZE, "--jsonl", "--trace", str(trace)],
                          cwd=REPO, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    # the same run of the readable engine, in this process: main() with argv returns, no quick exit
    monkeypatch.chdir(REPO)
    assert main(["run", *MAZE, "--jsonl", "--trace", str(tmp_path / "python.json"), "--engine", "python"]) == 0
    assert done.stdout == capsys.readouterr().out and done.stdout.count("\n") == 1
    assert trace.read_text() == (tmp_path / "python.json").read_text()
    mistake = subprocess.run([sys.executable, "-m", "reference.cli", "run", "no/such/folder"], cwd=REPO,
                             capture_output=True, text=True, timeout=300)
    assert (mistake.returncode, mistake.stderr) == (2, "ftr: error: no/such/folder: no such file or folder\n")


def test_a_warm_process_loads_numbas_runtime_and_a_damaged_copy_is_rebuilt(tmp_path: Path) -> None:
    # compiled/__init__.py saves Numba's runtime (NRT) as object code in the package's __pycache__. A
    # process that finds it must not build the runtime from LLVM IR (create_nrt_module is Numba's
    # first step of that build), and must still run; a damaged file is rebuilt, replaced, and runs.
    def runtime_builds(folder: Path | None) -> list[str]:
        # With a folder, the child moves the runtime's cache there before the runtime starts, so the
        # damage below stays private: in the package's shared __pycache__, another test's process
        # starting Numba at that moment would mend it first (CI saw that once).
        private = "" if folder is None else (
            "from reference.solutions.compiled import cache_runtime_code\n"
            f"from pathlib import Path\ncache_runtime_code(Path({str(folder)!r}))\n")
        return fresh_python(f"""
import os
os.environ["FTR_NO_AHEAD_OF_TIME"] = "1"   # the Numba twin, not the module compiled ahead of time
from numba.core.runtime import nrtdynmod
built = []
numba_build = nrtdynmod.create_nrt_module
nrtdynmod.create_nrt_module = lambda context: built.append(1) or numba_build(context)
{private}from reference.cli import main
main(['run', *{MAZE!r}])
print('built', len(built))
""").splitlines()

    runtime_builds(None)   # builds and saves the package's copy if it has none yet
    lines = runtime_builds(None)
    assert "maze_00#0  yes" in lines[3] and lines[-1] == "built 0"

    assert runtime_builds(tmp_path)[-1] == "built 1"   # an empty folder: built and saved
    [saved] = tmp_path.glob("numba-runtime-*.nbo")
    assert runtime_builds(tmp_path)[-1] == "built 0"
    saved.write_bytes(b"not a pickle")
    lines = runtime_builds(tmp_path)
    assert "maze_00#0  yes" in lines[3] and lines[-1] == "built 1"
    assert saved.read_bytes() != b"not a pickle"            # replaced by the rebuilt runtime
    assert runtime_builds(tmp_path)[-1] == "built 0"       # and loaded from it again
