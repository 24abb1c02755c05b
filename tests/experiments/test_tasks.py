"""The task layer every ``compare`` runs through (``reference/experiments/tasks.py``).

Referees: a serial run of the same study (the rows a local Dask cluster of 2 workers on loopback
returns, or the process pool that stands in for it without Dask, must be the serial rows, times
aside); a result planted in the store (a rerun must return it, so it did not run that task again);
the list comprehension the layer stands for.
"""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from reference.experiments import realtime
from reference.experiments.realtime import without_times  # a run's times depend on the machine; the rest must not
from reference.experiments.tasks import ResultStore, have_distributed, one_local_cluster, run_tasks, task_key

ROOT = Path(__file__).resolve().parents[2]
needs_distributed = pytest.mark.skipif(not have_distributed(), reason="Dask's distributed is not installed")


def tiny_study(**options):
    """One 11 x 11 maze and one random grid, lookaheads 1 and 3, the readable engine: 16 runs."""
    return realtime.run_comparison(mazes=1, grids=1, size=11, lookaheads=(1, 3), progress=False, seed=7,
                                   engine="python", **options)


def test_serial_is_the_list_comprehension():
    assert run_tasks(sorted, [(7, 2), (9, 4, 1)], progress=False) == [sorted((7, 2)), sorted((9, 4, 1))]
    with pytest.raises(ValueError, match="jobs"):
        run_tasks(abs, [1], jobs=0, progress=False)


@needs_distributed
def test_a_local_cluster_of_two_workers_returns_the_serial_rows(tmp_path):
    serial = tiny_study(jobs=1)
    spread = tiny_study(jobs=2)   # a LocalCluster of 2 worker processes on 127.0.0.1
    assert len(serial) == 16 and without_times(spread) == without_times(serial)



def worker_process(task: int) -> tuple[int, int]:
    """The task and the id of the process that ran it (a module-level function: workers import it)."""
    return task, os.getpid()


@needs_distributed
def test_the_phases_of_a_study_share_one_local_cluster():
    # Two calls inside the block (as dynamic control's two phases, subgoaling's parts) run in the same
    # two worker processes, started once; the results are the serial ones, in order.
    with one_local_cluster(2) as scheduler:
        assert scheduler is not None and scheduler.startswith("tcp://127.0.0.1:")
        first = run_tasks(worker_process, list(range(8)), jobs=2, scheduler=scheduler, progress=False)
        second = run_tasks(worker_process, list(range(8, 16)), jobs=2, scheduler=scheduler, progress=False)
    assert [task for task, _ in first + second] == list(range(16))
    workers = {pid for _, pid in first}
    assert len(workers) <= 2 and {pid for _, pid in second} <= workers and os.getpid() not in workers
    # where a call needs no cluster (one job) or names its own, the block starts none
    with one_local_cluster(1) as none, one_local_cluster(2, "tcp://10.0.0.1:8786") as given:
        assert none is None and given == "tcp://10.0.0.1:8786"


def test_without_distributed_a_process_pool_returns_the_serial_rows():
    # The fallback on a machine without the cluster extra, which this suite's own install always has:
    # a child interpreter where `import distributed` fails (a None in sys.modules makes it raise
    # ImportError) runs the study with jobs=2 on a process pool; its rows must be the serial rows,
    # and a scheduler address is refused with the line saying what to install.
    child = ("import pickle, sys\n"
             "sys.modules['distributed'] = None\n"
             "from reference.experiments.tasks import have_distributed, run_tasks\n"
             "from tests.experiments.test_tasks import tiny_study\n"
             "assert not have_distributed()\n"
             "try:\n"
             "    run_tasks(abs, [1], scheduler='tcp://127.0.0.1:8786', progress=False)\n"
             "except RuntimeError as error:\n"
             "    print(error, file=sys.stderr)\n"
             "sys.stdout.buffer.write(pickle.dumps(tiny_study(jobs=2)))\n")
    done = subprocess.run([sys.executable, "-c", child], cwd=ROOT, capture_output=True, check=True)
    assert "--scheduler needs Dask's distributed engine: pip install" in done.stderr.decode()
    pooled = pickle.loads(done.stdout)
    assert len(pooled) == 16 and without_times(pooled) == without_times(tiny_study(jobs=1))

def test_a_rerun_takes_finished_tasks_from_the_store(tmp_path):
    store = tmp_path / "tasks"
    first = tiny_study(jobs=1, store=store)
    assert len(list(store.glob("*.pkl"))) == len(first)
    # Plant a result no run can give under the first task's name, and delete the second's: the
    # rerun must return the planted one (it was not run again) and run the second afresh.
    tasks = [(kind, 0, 11, 7, algorithm, heuristic, lookahead, "python", "fixed")
             for kind in ("maze", "random") for algorithm, heuristic, lookahead in realtime.settings_for(kind, (1, 3))]
    keys = [task_key(realtime.run_one, task) for task in tasks]
    assert sorted(keys) == sorted(path.stem for path in store.glob("*.pkl"))   # the same tasks, the same names
    ResultStore(store).save(keys[0], {"planted": True})
    (store / f"{keys[1]}.pkl").unlink()
    again = tiny_study(jobs=1, store=store)
    assert again[0] == {"planted": True}
    assert without_times(again[1:]) == without_times(first[1:])


@pytest.mark.slow
@needs_distributed
def test_the_command_line_runs_on_a_cluster_already_running(tmp_path):
    # A real scheduler and two workers in their own processes (127.0.0.1 only), then `ftr realtime
    # compare --scheduler` against them; its runs.csv must equal a serial run's, times aside.
    from distributed import LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, host="127.0.0.1", dashboard_address=None) as cluster:
        outs = {}
        for name, extra in (("serial", ["--jobs", "1"]), ("cluster", ["--scheduler", cluster.scheduler_address])):
            outs[name] = tmp_path / name
            subprocess.run([sys.executable, "-m", "reference.cli", "realtime", "compare", "--out", str(outs[name]),
                            "--mazes", "1", "--grids", "1", "--size", "11", "--lookaheads", "1,3", "--engine",
                            "python", "--quiet", *extra], cwd=ROOT, check=True, capture_output=True, text=True)
    rows = {name: without_times(realtime.read_runs(out / "runs.csv.gz" if (out / "runs.csv.gz").exists()
                                                   else out / "runs.csv")) for name, out in outs.items()}
    assert rows["cluster"] == rows["serial"] and len(rows["serial"]) == 16


def test_a_slow_preparation_is_announced_and_a_quick_one_is_not(capsys):
    import time

    from reference.experiments.tasks import prepare

    prepare(lambda: None, "the quick step", "a while")
    assert capsys.readouterr().err == ""
    prepare(lambda: time.sleep(0.5), "the slow step", "about 2 CPU-minutes", patience=0.05)
    err = capsys.readouterr().err
    assert "preparing the slow step: about 2 CPU-minutes the first time" in err and "the slow step ready after" in err


def test_the_command_line_says_when_a_run_is_scaled_down(tmp_path):
    done = subprocess.run([sys.executable, "-m", "reference.cli", "realtime", "compare", "--out", str(tmp_path),
                           "--mazes", "1", "--grids", "0", "--size", "11", "--lookaheads", "1", "--engine", "python",
                           "--jobs", "1"], cwd=ROOT, capture_output=True, text=True, check=True)
    assert "scaled down: 1 mazes and 0 random grids of 11 x 11 (the paper: 1000 mazes" in done.stderr
    assert (tmp_path / ".tasks").is_dir()     # finished runs kept for a rerun


def square_but_shut_the_cluster_once(task: tuple[str, int]) -> int:
    """A task's function that, the first time it meets number 5, shuts the whole Dask cluster down
    (scheduler and workers, as a crashed or lost scheduler would be) before answering; ``task``:
    ``(marker file, number)``, the marker saying it was done."""
    marker, number = task
    if number == 5 and not Path(marker).exists():
        Path(marker).write_text("shut")
        from distributed import get_client
        get_client().shutdown()
    return number * number


@needs_distributed
def test_a_lost_scheduler_is_left_behind_and_the_rest_run_on_a_new_cluster(tmp_path, capsys):
    # A real loss: a task shuts the local cluster's scheduler down mid-run. The run must say so,
    # start a new local cluster, and still return every square, in order, each stored once.
    import dask

    marker = str(tmp_path / "shut")
    tasks = [(marker, number) for number in range(24)]
    # The client waits Dask's connect timeout (30 s) for the lost scheduler to come back before it
    # closes; on loopback 10 s is plenty, and the test is 20 s shorter.
    with dask.config.set({"distributed.comm.timeouts.connect": "10s"}):
        squares = run_tasks(square_but_shut_the_cluster_once, tasks, jobs=2, store=tmp_path / "tasks",
                            progress=False)
    assert squares == [number * number for number in range(24)]
    assert Path(marker).exists() and len(list((tmp_path / "tasks").glob("*.pkl"))) == 24
    assert "lost the connection to the Dask scheduler" in capsys.readouterr().err


def fail_on_three(number: int) -> int:
    """A task's function that raises for 3: a task's own error, not the cluster's."""
    if number == 3:
        raise FileNotFoundError("no map 3")
    return number


@needs_distributed
def test_a_tasks_own_error_is_raised_not_retried(tmp_path, capsys):
    with pytest.raises(FileNotFoundError, match="no map 3"):
        run_tasks(fail_on_three, range(8), jobs=2, progress=False)
    assert "lost the connection" not in capsys.readouterr().err


@needs_distributed
def test_tiny_tasks_run_in_batches_in_order_and_a_batchs_error_is_raised(tmp_path, capsys):
    # 300 tasks of microseconds: after the first round (one task per worker) every cluster task
    # carries up to MAX_BATCH of them (batch_size: 0.25 s of work), so the worker that ran a task
    # changes only between batches, a few times, where one task per cluster task switched between
    # the two workers 214 times. Order and store are as without batches.
    store = tmp_path / "tasks"
    results = run_tasks(worker_process, list(range(300)), jobs=2, store=store, progress=False)
    assert [task for task, _ in results] == list(range(300))
    assert len(list(store.glob("*.pkl"))) == 300
    switches = sum(first != second for (_, first), (_, second) in zip(results, results[1:]))
    assert switches < 20, switches
    # a task's own error deep inside a batch is raised as itself, not taken for a lost scheduler
    with pytest.raises(FileNotFoundError, match="no map 3"):
        run_tasks(fail_on_three, [*range(10, 110), 3, *range(110, 150)], jobs=2, progress=False)
    assert "lost the connection" not in capsys.readouterr().err


def trim_threshold(_: int) -> str | None:
    """The worker's MALLOC_TRIM_THRESHOLD_, if any."""
    return os.environ.get("MALLOC_TRIM_THRESHOLD_")


@needs_distributed
def test_local_workers_keep_the_usual_memory_allocator():
    # Dask's own configuration (the referee) starts every worker with MALLOC_TRIM_THRESHOLD_=65536,
    # which turns off glibc's sliding mmap threshold and made the compiled planners 1.5x slower
    # (docs/cluster.md); the layer's local cluster must start its workers without it. In a child
    # interpreter: a cluster started elsewhere in this process would have put the variable into this
    # process's own environment, which workers inherit.
    import dask

    assert dask.config.get("distributed.nanny.pre-spawn-environ")["MALLOC_TRIM_THRESHOLD_"] == 65536
    child = ("import os\n"
             "from reference.experiments.tasks import run_tasks\n"
             "from tests.experiments.test_tasks import trim_threshold\n"
             "if __name__ == '__main__':\n"
             "    print(run_tasks(trim_threshold, [0, 1], jobs=2, progress=False))\n")
    environment = {key: value for key, value in os.environ.items() if key != "MALLOC_TRIM_THRESHOLD_"}
    done = subprocess.run([sys.executable, "-c", child], cwd=ROOT, env=environment, capture_output=True,
                          text=True, check=True)
    assert done.stdout.strip() == "[None, None]"


@needs_distributed
def test_a_store_that_cannot_be_written_is_its_own_error_not_a_lost_scheduler(tmp_path, capsys):
    # Saving a result fails (the store is a file, not a folder: an OSError, as a full disk's would
    # be); a refused connection is an OSError too, but this one must be raised at once, as itself,
    # not retried as a lost scheduler (that ends in a RuntimeError after four clusters).
    store = tmp_path / "not_a_folder"
    store.write_text("")
    with pytest.raises(FileExistsError):   # making the store's folder where a file is
        run_tasks(abs, range(4), jobs=2, store=store, progress=False)
    assert "lost the connection" not in capsys.readouterr().err
