"""``ftr dynamic compare`` on the task layer (``run_study(..., jobs=, store=)``).

Referees: the serial run of the same study (a local Dask cluster of 2 workers must return its rows,
Table 2 rows and tree rows, build times aside); a result planted in the store (a rerun must return it,
so it did not run that task again) and the store's files left untouched by a rerun (no task ran).
Every phase runs: fixed depths, the generalisation trees with the oracle and the DAgger retraining,
the 10-fold trees, and pattern databases at level 0 (the goals' columns) and level 1.
"""

from __future__ import annotations

import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from reference.experiments.dynamic import Study, run_study
from reference.experiments.tasks import have_distributed
from reference.world.grid import Gridworld
from reference.world.maps import write_map

ROOT = Path(__file__).resolve().parents[2]

#: Two small maps (12 x 12): an open room with a wall across it and a gap, and one with two pillars.
MAPS = {
    "t/wall.map": ["." * 12] * 4 + ["@" * 10 + ".."] * 3 + ["." * 12] * 5,
    "t/pillars.map": ["." * 12] * 3 + ["..@@@...@@.."] * 5 + ["." * 12] * 4,
}

#: What a row's value depends on besides the study: the build's processor time.
TIMES = {"seconds", "seconds_all_columns"}


@pytest.fixture(scope="module")
def movingai(tmp_path_factory):
    folder = tmp_path_factory.mktemp("movingai")
    for name, rows in MAPS.items():
        (folder / name).parent.mkdir(exist_ok=True)
        write_map(Gridworld.from_strings(rows), folder / name)
    return folder


def small_study() -> Study:
    """Three problems of optimal cost 8-12 per map, every part of the study at its smallest."""
    return Study(maps=tuple(MAPS), problems=3, cost_range=(8.0, 12.0), cap=6, fixed_depths=(1, 3),
                 tree_depths=(3,), levels=(0, 1), cv_folds=3)


def study_on(movingai, **options):
    rows, databases, trees = run_study(movingai, small_study(), progress=False, log=lambda text: None, **options)
    return rows, [{k: v for k, v in d.items() if k not in TIMES} for d in databases], trees


@pytest.fixture(scope="module")
def serial(movingai):
    """The study run in this process, one task after another."""
    return study_on(movingai)


def test_every_part_of_the_study_runs(serial):
    rows, databases, trees = serial
    # 2 maps x 3 problems x (2 fixed depths + tree, oracle, retrained + same maps, 10-fold) = 42 runs;
    # pdb: level 0 (goal columns) runs G only, level 1 G and G+I, I under both rules: 6 x 6 = 36.
    assert len(rows) == 42 + 36
    assert [(d["map"], d["level"]) for d in databases] == [(m, level) for level in (0, 1) for m in MAPS]
    assert [t.get("test map") for t in trees] == [*MAPS, "t/wall.map, t/pillars.map"]   # two trees, then 10-fold


@pytest.mark.skipif(not have_distributed(), reason="Dask's distributed is not installed")
def test_a_local_cluster_of_two_workers_returns_the_serial_rows(movingai, serial, tmp_path):
    spread = study_on(movingai, jobs=2, store=tmp_path / "store")   # a LocalCluster of 2 worker processes
    assert spread == serial and len(serial[0]) == 78


def test_a_rerun_takes_every_task_from_the_store(movingai, tmp_path):
    store = tmp_path / "store"
    first = study_on(movingai, store=store)
    kept = {path.name: (path.stat().st_mtime_ns, path.stat().st_ino) for path in store.glob("*.pkl")}
    # 2 maps x (2 fixed + oracle + 2 pdb levels + 2 samples) + 2 maps x (tree + retrained + same maps
    # + 10-fold) = 14 + 8 tasks, 20 names: on each map the generalisation trees' samples (the first
    # max(5, 3 // 4) problems, 20 x the optimal cost) are the same task as the 10-fold trees' (every
    # problem, Study.max_actions_factor = 20), kept once.
    assert len(kept) == 20
    # Plant rows no run can give under the name of fixed depth 1 on the first map: the rerun must
    # return them (it did not run that task again).
    for path in store.glob("*.pkl"):
        result = pickle.loads(path.read_bytes())
        if isinstance(result, list) and result and result[0].get("method") == "fixed" \
                and result[0]["setting"] == 1 and result[0]["map"] == "t/wall.map":
            planted = [{**row, "cost": -1.0} for row in result]
            path.write_bytes(pickle.dumps(planted))
            kept[path.name] = (path.stat().st_mtime_ns, path.stat().st_ino)
            break
    else:
        pytest.fail("no stored result of fixed depth 1 on t/wall.map")
    again = study_on(movingai, store=store)
    assert again[0][:3] == planted and again[0][3:] == first[0][3:] and again[1:] == first[1:]
    # No task ran: every result was read, none written again (a task that runs is saved at once).
    assert {path.name: (path.stat().st_mtime_ns, path.stat().st_ino) for path in store.glob("*.pkl")} == kept


def test_the_command_line_refuses_a_bad_jobs_count_in_one_line(shared_dir, tmp_path):
    done = subprocess.run([sys.executable, "-m", "reference.cli", "dynamic", "compare", "--quick", "--out", str(tmp_path),
                           "--movingai", str(shared_dir / "movingai"), "--jobs", "0"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 2 and done.stderr.strip().splitlines() == ["ftr: error: --jobs must be at least 1, got 0"]
