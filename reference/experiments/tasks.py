"""Every ``compare`` runs its units of work through here: serially, on a local Dask cluster, or on a
cluster the user already runs; with a progress bar; resumable; the results in the tasks' order.

:func:`run_tasks` returns ``[function(task) for task in tasks]`` whatever runs it:

* ``jobs=1`` and no scheduler: this process, one task after another.
* ``jobs > 1``: a Dask ``distributed.LocalCluster`` of ``jobs`` worker processes (one thread each),
  bound to 127.0.0.1 with no dashboard, started for the call and stopped after it.
* a study of several phases (several calls) wraps them in :func:`one_local_cluster`, so they share
  one local cluster, started once.
* ``scheduler="tcp://HOST:PORT"``: the workers of a Dask cluster already running (``dask scheduler``
  on one machine, ``dask worker tcp://HOST:PORT --nthreads 1`` on each; every worker needs the kit
  importable, e.g. ``pip install ftr-kit[cluster]`` or the repository on its ``PYTHONPATH``, and the
  map files at the same paths).

Without the optional ``distributed`` package (``pip install ftr-kit[cluster]``), ``jobs > 1`` uses a
``concurrent.futures`` process pool on this machine instead (the same results), and a scheduler
address is refused with one line saying what to install.

**Resuming** (``store=DIR``): each finished task's result is written to ``DIR`` (a pickle named by
a hash of the function's name and the task, written atomically) as soon as it comes back; a rerun
with the same ``store`` loads those and runs only the rest. A changed task (another seed, another
map) has another name, so it runs; changed *code* is not seen: delete ``DIR`` after editing an
algorithm. Tasks must be picklable and functions importable by name (module level).

Every result is the function's value on its task, computed alone, so the order and the machine do
not change it (``tests/experiments/test_tasks.py`` runs a study serially and on a local cluster of 2
workers and compares).

>>> run_tasks(abs, [-2, 3, -5], progress=False)
[2, 3, 5]
"""

from __future__ import annotations

import hashlib
import itertools
import pickle
import sys
import threading
import time
import warnings
from concurrent.futures import ProcessPoolExecutor, as_completed
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Sequence, TypeVar

from reference.world.fileio import atomic_write_bytes

Task = TypeVar("Task")
Result = TypeVar("Result")

#: Where the kit says to get Dask's distributed engine.
INSTALL_HINT = "pip install 'ftr-kit[cluster]' (or: pip install distributed)"


def have_distributed() -> bool:
    """Is Dask's ``distributed`` importable here?"""
    try:
        import distributed  # noqa: F401
    except ImportError:
        return False
    return True


def task_key(function: Callable, task: Any) -> str:
    """The name a task's result is stored under: a hash of the function's module and name and the
    pickled task (a tuple of strings, numbers and cells pickles the same way in every run).

    >>> task_key(abs, 1) == task_key(abs, 1) != task_key(abs, 2)
    True
    """
    name = f"{getattr(function, '__module__', '')}.{getattr(function, '__qualname__', repr(function))}"
    return hashlib.sha256(pickle.dumps((name, task), protocol=4)).hexdigest()[:32]


class ResultStore:
    """Finished results on disk, one pickle per task (``KEY.pkl``); None: nothing is kept."""

    def __init__(self, folder: str | Path | None) -> None:
        self.folder = None if folder is None else Path(folder)

    def load(self, key: str) -> tuple[bool, Any]:
        if self.folder is None:
            return False, None
        path = self.folder / f"{key}.pkl"
        if not path.is_file():
            return False, None
        with open(path, "rb") as handle:
            return True, pickle.load(handle)

    def save(self, key: str, result: Any) -> None:
        if self.folder is not None:
            atomic_write_bytes(self.folder / f"{key}.pkl", pickle.dumps(result, protocol=4))


def run_tasks(function: Callable[[Task], Result], tasks: Iterable[Task], *, jobs: int = 1,
              scheduler: str | None = None, store: str | Path | None = None, description: str = "tasks",
              progress: bool = True) -> list[Result]:
    """``[function(task) for task in tasks]``, in order, run as the module docstring says: ``jobs``
    local processes (1: this one), or the cluster at ``scheduler``; results kept in ``store`` (a
    folder; None: not kept) and taken from it on a rerun. A tqdm bar on stderr counts the tasks
    (those found in ``store`` are counted at once)."""
    from tqdm import tqdm

    tasks = list(tasks)
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, got {jobs}")
    if scheduler is not None and not have_distributed():
        raise RuntimeError(f"--scheduler needs Dask's distributed engine: {INSTALL_HINT}")
    kept = ResultStore(store)
    keys = [task_key(function, task) for task in tasks]
    results: list[Any] = [None] * len(tasks)
    waiting: list[int] = []
    for index, key in enumerate(keys):
        found, result = kept.load(key)
        if found:
            results[index] = result
        else:
            waiting.append(index)
    resumed = len(tasks) - len(waiting)
    with tqdm(total=len(tasks), initial=resumed, desc=description, unit="task", disable=not progress) as bar:
        if resumed and progress:
            bar.write(f"{description}: {resumed} of {len(tasks)} tasks already done in {kept.folder}, skipped")

        def finished(index: int, result: Any) -> None:
            results[index] = result
            kept.save(keys[index], result)
            bar.update()

        if not waiting:
            pass
        elif scheduler is not None or (jobs > 1 and have_distributed()):
            _run_on_dask(function, tasks, keys, waiting, finished, jobs, scheduler)
        elif jobs > 1:
            with ProcessPoolExecutor(max_workers=jobs) as pool:
                futures = {pool.submit(function, tasks[index]): index for index in waiting}
                for future in as_completed(futures):
                    finished(futures[future], future.result())
        else:
            for index in waiting:
                finished(index, function(tasks[index]))
    return results


@contextmanager
def one_local_cluster(jobs: int, scheduler: str | None = None) -> Iterator[str | None]:
    """The scheduler for every :func:`run_tasks` call of a study with several phases: one local Dask
    cluster of ``jobs`` workers for them all, started here and stopped at the end of the block, instead
    of one per call (starting one costs 5-15 s of a busy machine, and its workers' imports again).
    Yields its address; yields ``scheduler`` unchanged where there is one already, or where ``jobs``
    is 1 or Dask's ``distributed`` is missing (then each call runs as it would without the block).

    >>> with one_local_cluster(1) as scheduler:
    ...     run_tasks(abs, [-2, 3], jobs=1, scheduler=scheduler, progress=False)
    [2, 3]
    """
    if scheduler is not None or jobs <= 1 or not have_distributed():
        yield scheduler
        return
    cluster = _local_cluster(jobs)
    try:
        yield cluster.scheduler_address
    finally:
        cluster.close()


def _local_cluster(jobs: int):
    """A Dask ``LocalCluster`` of ``jobs`` worker processes, one thread each (the kit's searches hold
    the GIL), on the loopback only, without a dashboard, with glibc's memory allocator as in any
    other process (:data:`WORKER_ENVIRONMENT`)."""
    import dask
    from distributed import LocalCluster

    with warnings.catch_warnings(), dask.config.set(WORKER_ENVIRONMENT):
        warnings.simplefilter("ignore", UserWarning)  # "scratch directories ... taking a surprisingly long time"
        return LocalCluster(n_workers=jobs, threads_per_worker=1, processes=True, host="127.0.0.1",
                            dashboard_address=None)


#: Dask's nannies start each worker with ``MALLOC_TRIM_THRESHOLD_=65536``. Any fixed threshold turns
#: off glibc's sliding mmap threshold, so large arrays are mmapped afresh, and the compiled planners
#: slow down, unevenly: one LRTA* run (lookahead one) on a 301 x 301 maze took 9.2 s of CPU in such a
#: worker against 6.3 s in a plain process, 9.2 s in a plain process given the variable, and 5.8-6.0 s
#: given it together with an mmap threshold no array reaches (so where the arrays are placed is the
#: cause). ``None`` unsets the variable (Dask's own way to unset a pre-spawn variable); the workers
#: then run as fast as a plain process.
WORKER_ENVIRONMENT = {"distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_": None}


#: Batches handed to the cluster at a time, per worker thread: one, the next handed out as it returns.
#: More let Dask's scheduler queue a second batch behind a long one on a busy worker while another
#: worker idles: with four (2 workers, 770 runs on 301 x 301 grids, some 5 s long, the rest
#: milliseconds) each worker stood idle 4-9 s and the run took 28.4 s; with one, 24.1 s and no
#: pause over half a second (the process pool that stands in without Dask: 21 s). Few tasks in the
#: scheduler also keep it alive: all 38,000 runs of the planning objectives submitted at once lost a
#: loaded local cluster's connection to the client within minutes.
IN_FLIGHT_PER_WORKER = 1

#: How often a run starts again after losing its connection to the scheduler before it gives up.
RECONNECTS = 3

#: The work one cluster task should carry, in seconds of the workers' time. A cluster task costs a
#: few milliseconds of its own (the scheduler, the messages, the pickles); the realtime default's
#: 2,310 runs take about 1.4 ms each, so with one run per cluster task they took 19.3 s on two
#: workers against 3.3 s in one process, and with batches 3.3 s (``bench/task_layer.py``). Tasks
#: are batched until a batch takes about this long (:func:`batch_size`); a longer task runs alone.
BATCH_SECONDS = 0.25

#: The most tasks in one batch: a bound on what a lost connection takes back.
MAX_BATCH = 256


def batch_size(tasks_done: int, seconds_spent: float) -> int:
    """How many tasks the next cluster task should run, from the workers' time so far: enough for
    about :data:`BATCH_SECONDS` of work, one while nothing has been timed.

    >>> batch_size(0, 0.0), batch_size(10, 0.06), batch_size(4, 8.0), batch_size(10**6, 1.0)
    (1, 41, 1, 256)
    """
    if tasks_done == 0 or seconds_spent <= 0:
        return 1
    return max(1, min(MAX_BATCH, int(BATCH_SECONDS * tasks_done / seconds_spent)))


def run_batch(function: Callable[[Task], Result], batch: Sequence[Task]) -> tuple[list[Result], float]:
    """``[function(task) for task in batch]`` on a worker, and the seconds it took.

    >>> run_batch(abs, [-1, 2])[0]
    [1, 2]
    """
    began = time.perf_counter()
    results = [function(task) for task in batch]
    return results, time.perf_counter() - began


def _run_on_dask(function: Callable, tasks: Sequence, keys: Sequence[str], waiting: Sequence[int],
                 finished: Callable[[int, Any], None], jobs: int, scheduler: str | None) -> None:
    """Run the waiting tasks on a Dask cluster (a local one of ``jobs`` workers unless ``scheduler``
    names one), handing each result to ``finished`` as it arrives; ``keys``: the tasks'
    :func:`task_key`, in the tasks' order.

    If the connection to the scheduler is lost, say so on stderr and start again with the tasks not
    yet finished (a new local cluster, or a new connection to ``scheduler``), up to
    :data:`RECONNECTS` times. A task that raises is not retried: its error is raised here.
    """
    left = list(waiting)
    for attempt in range(RECONNECTS + 1):
        try:
            _run_window(function, tasks, keys, left, finished, jobs, scheduler)
            return
        except _LostScheduler as lost:
            done = set(lost.finished)
            left = [index for index in left if index not in done]
            if attempt == RECONNECTS:
                raise RuntimeError(f"lost the connection to the Dask scheduler {RECONNECTS + 1} times ({lost.reason}); "
                                   f"{len(left)} tasks are not done. Finished tasks are kept: run the same "
                                   "command again to resume") from lost.__cause__
            print(f"lost the connection to the Dask scheduler ({lost.reason}); starting again with the "
                  f"{len(left)} tasks left (attempt {attempt + 2} of {RECONNECTS + 1})", file=sys.stderr, flush=True)


class _LostScheduler(Exception):
    """The cluster went away mid-run: which tasks had finished, and why it went."""

    def __init__(self, finished: list[int], reason: str) -> None:
        super().__init__(reason)
        self.finished, self.reason = finished, reason


def _run_window(function: Callable, tasks: Sequence, keys: Sequence[str], waiting: Sequence[int],
                finished: Callable[[int, Any], None], jobs: int, scheduler: str | None) -> None:
    """One connection to a cluster: keep ``IN_FLIGHT_PER_WORKER`` batches of tasks per worker
    submitted (:func:`batch_size` tasks each, in the tasks' order), submitting the next as each one
    finishes. Raises :class:`_LostScheduler` if the scheduler goes."""
    from distributed import Client, as_completed as dask_completed
    from distributed.client import FutureCancelledError
    from distributed.comm.core import CommClosedError

    done: list[int] = []
    failed: BaseException | None = None    # a task's or the store's error, raised once the cluster is closed
    cluster = None
    try:
        if scheduler is None:
            cluster = _local_cluster(jobs)
        with Client(scheduler if scheduler is not None else cluster) as client:
            workers = jobs if scheduler is None else max(1, sum(client.nthreads().values()))
            upcoming = iter(waiting)
            where: dict[str, list[int]] = {}
            timed_tasks, timed_seconds = 0, 0.0   # the workers' time so far, for the batch size

            def submit() -> Any:
                batch = list(itertools.islice(upcoming, batch_size(timed_tasks, timed_seconds)))
                if not batch:
                    return None
                # pure=False: a batch is never merged with an equal one; key names keep the order readable
                future = client.submit(run_batch, function, [tasks[index] for index in batch], pure=False,
                                       key=f"tasks-{batch[0]}-{len(batch)}-{keys[batch[0]]}")
                where[future.key] = batch
                return future

            first = [submit() for _ in range(IN_FLIGHT_PER_WORKER * workers)]
            running = dask_completed([future for future in first if future is not None])
            for future in running:
                if future.status == "error":
                    failed = future.exception()
                    break
                batch = where.pop(future.key)
                results, seconds = future.result()    # a lost connection raises here: the cluster's error
                timed_tasks += len(batch)
                timed_seconds += seconds
                try:
                    for index, result in zip(batch, results):
                        finished(index, result)
                        done.append(index)
                except OSError as error:   # the store's (a full disk), not the cluster's: not retried
                    failed = error
                    break
                future.release()
                following = submit()
                if following is not None:
                    running.add(following)
    except (FutureCancelledError, CommClosedError, OSError) as error:
        # The cluster's errors, never a task's (a task's error is `failed`): a future cancelled because
        # the connection went, a closed comm, a connection refused.
        raise _LostScheduler(done, f"{type(error).__name__}: {error}".splitlines()[0]) from error
    finally:
        if cluster is not None:
            cluster.close()
    if failed is not None:
        raise failed


def prepare(step: Callable[[], Any], what: str, first_time: str, progress: bool = True, patience: float = 2.0) -> None:
    """Run ``step`` (e.g. compiling the Numba engine) in this process before any task, so that the
    workers load its result rather than each doing it again. If it takes longer than ``patience``
    seconds, say so on stderr, with ``first_time`` (how long it takes when nothing is cached), and
    say when it is done; a quick step (all cached) prints nothing.

    >>> prepare(lambda: None, "the compiled engine", "about 2 CPU-minutes")
    """
    done = threading.Event()
    began = time.perf_counter()

    def notice() -> None:
        if not done.wait(patience) and progress:
            print(f"preparing {what}: {first_time} the first time (longer on a busy machine); "
                  "later runs load it from the cache in about a second", file=sys.stderr, flush=True)

    watcher = threading.Thread(target=notice, daemon=True)
    watcher.start()
    try:
        step()
    finally:
        done.set()
        watcher.join()
    seconds = time.perf_counter() - began
    if seconds > patience and progress:
        print(f"{what} ready after {seconds:.0f} s", file=sys.stderr, flush=True)


def scheduler_help() -> str:
    """The ``--scheduler`` option's help, shared by every ``compare``."""
    return ("the address of a running Dask scheduler (e.g. tcp://10.0.0.5:8786) whose workers run the tasks "
            f"instead of this machine's processes (needs {INSTALL_HINT}; see docs/cluster.md)")
