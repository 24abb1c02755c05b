"""Running many independent runs, on one core or several, with a progress bar.

>>> map_with_progress(abs, [-2, 3, -5], progress=False)
[2, 3, 5]
"""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor
from typing import Callable, Iterable, TypeVar

Task = TypeVar("Task")
Result = TypeVar("Result")


def map_with_progress(function: Callable[[Task], Result], tasks: Iterable[Task], jobs: int = 1,
                      description: str = "runs", progress: bool = True) -> list[Result]:
    """``[function(task) for task in tasks]``, in order; with ``jobs > 1`` in that many processes
    (``function`` and the tasks must then be picklable). A tqdm bar on stderr counts the runs."""
    from tqdm import tqdm

    tasks = list(tasks)
    results: list[Result] = []
    with tqdm(total=len(tasks), desc=description, unit="run", disable=not progress) as bar:
        if jobs > 1:
            with ProcessPoolExecutor(max_workers=jobs) as pool:
                for result in pool.map(function, tasks, chunksize=1):
                    results.append(result)
                    bar.update()
        else:
            for task in tasks:
                results.append(function(task))
                bar.update()
    return results
