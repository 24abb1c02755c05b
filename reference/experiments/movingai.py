"""The check that ties the eight-connected world to the field: MovingAI's optimal lengths (SPEC §12).

On every scenario file under ``../shared/movingai`` (Dragon Age: Origins, Baldur's Gate,
Warcraft III, mazes, rooms, random maps), the kit's eight-connected A* (the compiled twin, which
expands what the readable A* expands) solves each line and compares its exact length with the
file's ``optimal_length`` to one unit in the last printed place: some values were computed with √2
in single precision, so ``137.764`` stands for ``137.7645020...``.

Each line gets a verdict: ``match``; ``differs`` (a path was found, of another length); ``start
blocked`` or ``goal blocked`` (the line's cell is not passable for the scenario's agent on this
map); ``no path``. Warcraft III scenario files were made for other versions of their maps
(SPEC §12): their lines are reported separately and never fail the check.

``python -m reference.experiments.movingai [--movingai DIR] [--out DIR] [--sample N]`` (or
``ftr path --check-all``) writes ``movingai_check.md`` (per-file counts, timings, every line that does
not match with its cause) and ``movingai_lines.csv`` (every line that does not match) into
``--out`` (default ``docs/gamemaps``).

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp()) / "tiny"; folder.mkdir()
>>> _ = (folder / "t.map").write_text("type octile\\nheight 2\\nwidth 3\\nmap\\n...\\n.@.\\n")
>>> _ = (folder / "t.map.scen").write_text("version 1\\n0\\tt.map\\t3\\t2\\t0\\t1\\t2\\t1\\t4\\n"
...                                        "0\\tt.map\\t3\\t2\\t0\\t1\\t2\\t1\\t3.41421\\n")
>>> [(line.index, line.verdict, line.length) for line in check_file(folder / "t.map.scen")]  # no cutting around @
[(0, 'match', 4.0), (1, 'differs', 4.0)]
"""

from __future__ import annotations

import argparse
import io
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

import numpy as np

from reference.experiments.movingai_data import movingai_dir, require_movingai
from reference.experiments.report import to_csv
from reference.world.fileio import atomic_write_text
from reference.world.grid import cost_value
from reference.world.maps import Scenario, read_scen, read_scen_terrains
from reference.world.terrain import Capability, capability_name, passable, scenario_capability

#: The collections of ``../shared/movingai`` that have scenario files, in the report's order.
#: The mazes come last: they hold most of the lines and most of the work.
COLLECTIONS = ("dao", "bg512", "random", "rooms", "wc3maps512", "mazes")

#: Collections whose scenario files do not fit these versions of their maps (SPEC §12): reported, not failed.
MISFIT_COLLECTIONS = frozenset({"wc3maps512"})

VERDICTS = ("match", "differs", "start blocked", "goal blocked", "no path")


@dataclass(frozen=True)
class LineCheck:
    """One scenario line checked: the file's value, the kit's (None: no path), and the verdict."""

    file: str
    index: int
    start: tuple[int, int]
    goal: tuple[int, int]
    capability: str
    optimal: float
    decimals: int
    length: float | None
    expansions: int
    verdict: str

    @property
    def difference(self) -> float | None:
        return None if self.length is None else self.length - self.optimal


def matches(length: float, optimal: float, decimals: int) -> bool:
    """``length`` lies within one unit in the last printed place of ``optimal``.

    The printed value itself is a decimal that binary doubles only approximate, so the unit gets a
    relative slack of 1e-9 (far below any difference between two grid path lengths).

    >>> matches(137.7645020, 137.764, 3), matches(137.7645020, 137.763, 3), matches(3.0, 3.0, 0)
    (True, False, True)
    """
    unit = 10.0 ** -decimals
    return abs(length - optimal) <= unit * (1 + 1e-9)


def check_line(scenario: Scenario, terrain: np.ndarray, blocked_for: dict[Capability, np.ndarray], file: str,
               index: int) -> LineCheck:
    """Solve one scenario line with the compiled eight-connected A*; ``blocked_for`` caches the
    blocked array per capability."""
    from reference.solutions.compiled.shortest_paths import astar_cost  # here: Numba loads only when a check runs

    capability = scenario_capability(terrain, scenario.start)
    if capability not in blocked_for:
        blocked_for[capability] = ~passable(terrain, capability)
    blocked = blocked_for[capability]
    # a scenario made in code has no printed form: compare to 1e-4, as fine as the benchmark prints
    decimals = scenario.optimal_decimals if scenario.optimal_decimals is not None else 4

    def checked(length: float | None, expansions: int, verdict: str) -> LineCheck:
        return LineCheck(file=file, index=index, start=scenario.start, goal=scenario.target,
                         capability=capability_name(capability), optimal=scenario.optimal_length,
                         decimals=decimals, length=length, expansions=expansions, verdict=verdict)

    if blocked[scenario.start]:
        return checked(None, 0, "start blocked")
    if blocked[scenario.target]:
        return checked(None, 0, "goal blocked")
    cost, expansions = astar_cost(blocked, scenario.start, scenario.target, connectivity=8)
    if cost is None:
        return checked(None, expansions, "no path")
    length = cost_value(cost)
    return checked(length, expansions, "match" if matches(length, scenario.optimal_length, decimals) else "differs")


def check_file(scen_path: Path, indices: Sequence[int] | None = None, name: str | None = None) -> list[LineCheck]:
    """Check the lines ``indices`` (default: all) of one scenario file, maps read beside it."""
    scenarios = read_scen(scen_path)
    terrains = read_scen_terrains(scen_path, scenarios)
    name = name or Path(scen_path).name
    blocked_for: dict[str, dict[Capability, np.ndarray]] = {}  # map name -> capability -> blocked
    indices = range(len(scenarios)) if indices is None else indices
    results = []
    for index in indices:
        scenario = scenarios[index]
        results.append(check_line(scenario, terrains[scenario.map], blocked_for.setdefault(scenario.map, {}), name, index))
    return results


def scenario_files(movingai: Path) -> list[Path]:
    """Every ``.scen`` file of the collections, in report order."""
    return [path for collection in COLLECTIONS for path in sorted((movingai / collection).glob("*.scen"))]


def sample_indices(count: int, sample: int | None) -> list[int]:
    """``sample`` line indices spread evenly from first to last (all lines with None): the files
    list their lines by bucket, short paths first, so the sample covers every length.

    >>> sample_indices(10, 4), sample_indices(3, 5), sample_indices(3, None)
    ([0, 3, 6, 9], [0, 1, 2], [0, 1, 2])
    """
    if sample is None or sample >= count:
        return list(range(count))
    if sample == 1:
        return [0]
    return sorted({round(i * (count - 1) / (sample - 1)) for i in range(sample)})


@dataclass
class FileReport:
    """One scenario file's check: every line's verdict and what the check cost."""
    file: str
    collection: str
    lines: list[LineCheck]
    seconds: float       # wall clock
    cpu_seconds: float   # this process's processor time: what the check costs on an idle machine

    def count(self, verdict: str) -> int:
        return sum(line.verdict == verdict for line in self.lines)

    @property
    def misfit(self) -> bool:
        return self.collection in MISFIT_COLLECTIONS


def check_all(movingai: Path, sample: int | None = None, progress: bool = True,
              after_each_file: Callable[[list[FileReport], int], None] | None = None) -> list[FileReport]:
    """Check every line (or ``sample`` lines spread over each file) of every scenario file under
    ``movingai``; ``after_each_file(reports so far, number of files)`` runs after each file."""
    from tqdm import tqdm

    files = scenario_files(movingai)
    chosen = {path: sample_indices(len(read_scen(path)), sample) for path in files}
    reports: list[FileReport] = []
    with tqdm(total=sum(len(i) for i in chosen.values()), desc="scenario lines", unit="line", disable=not progress) as bar:
        for path in files:
            collection = path.parent.name
            began, began_cpu = time.perf_counter(), time.process_time()
            lines = check_file(path, chosen[path], name=f"{collection}/{path.name}")
            reports.append(FileReport(f"{collection}/{path.name}", collection, lines,
                                      time.perf_counter() - began, time.process_time() - began_cpu))
            bar.update(len(lines))
            if after_each_file is not None:
                after_each_file(reports, len(files))
    return reports


def failures(reports: list[FileReport]) -> list[LineCheck]:
    """The lines that fail the check: not a match, outside the misfit collections."""
    return [line for report in reports if not report.misfit for line in report.lines if line.verdict != "match"]


def cause(line: LineCheck, misfit: bool) -> str:
    """Why a line does not match, as far as the check can tell."""
    if misfit:
        what = {"differs": "another length", "start blocked": "a start the agent cannot stand on",
                "goal blocked": "a goal the agent cannot stand on", "no path": "no path"}[line.verdict]
        return f"this map version gives {what}: the scenario file was made for another version of the map"
    return {"differs": "the kit's length differs from the file's", "start blocked": "the start is not passable",
            "goal blocked": "the goal is not passable", "no path": "the kit finds no path"}[line.verdict]


def format_report(reports: list[FileReport], sample: int | None, file_count: int | None = None) -> str:
    """The Markdown report: per-file counts and times, then every line that does not match.
    With ``file_count`` above ``len(reports)`` it says the check is still under way."""
    out = io.StringIO()
    checked = sum(len(r.lines) for r in reports)
    seconds = sum(r.seconds for r in reports)
    cpu_seconds = sum(r.cpu_seconds for r in reports)
    out.write("# MovingAI check: eight-connected A* against the benchmark's optimal lengths\n\n")
    out.write("Regenerate with `python -m reference.experiments.movingai` (or `ftr path --check-all`); "
              f"{'every line' if not sample else f'{sample} lines spread over each file'} of every scenario file, "
              "compiled A* (the readable A*'s twin), one process.\n\n")
    if file_count is not None and file_count > len(reports):
        out.write(f"**Partial: {len(reports)} of {file_count} scenario files checked so far.**\n\n")
    out.write(f"{checked:,} lines in {cpu_seconds:,.0f} s of processor time ({seconds:,.0f} s wall clock on a shared "
              f"machine). Failures (outside Warcraft III): **{len(failures(reports))}**.\n\n")
    out.write("| file | lines | match | differs | start blocked | goal blocked | no path | expansions | CPU s |\n")
    out.write("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n")
    for r in reports:
        tag = " (misfit: reported, not failed)" if r.misfit else ""
        counts = " | ".join(str(r.count(v)) for v in VERDICTS)
        expansions = sum(line.expansions for line in r.lines)
        out.write(f"| {r.file}{tag} | {len(r.lines)} | {counts} | {expansions:,} | {r.cpu_seconds:.1f} |\n")
    for misfit in (False, True):
        lines = [(line, r.misfit) for r in reports if r.misfit == misfit for line in r.lines if line.verdict != "match"]
        title = "Warcraft III lines that do not match (misfit files)" if misfit else "Lines that do not match"
        out.write(f"\n## {title}: {len(lines)}\n\n")
        if not lines:
            out.write("None.\n")
            continue
        if misfit:
            out.write("Every such line is listed in `movingai_lines.csv`. By verdict:\n\n")
            for verdict in VERDICTS[1:]:
                out.write(f"- {verdict}: {sum(line.verdict == verdict for line, _ in lines)}\n")
            differences = [line.difference for line, _ in lines if line.verdict == "differs"]
            found = [difference for difference in differences if difference is not None]  # all: "differs" has a length
            if found:
                shorter = sum(difference < 0 for difference in found)
                out.write(f"\nOf the {len(found)} lines of another length, {shorter} are shorter on this map "
                          f"version and {len(found) - shorter} longer.\n")
            continue
        out.write("| file | line | start (row, col) | goal | file's optimal | kit | cause |\n| --- | ---: | --- | --- | ---: | ---: | --- |\n")
        for line, _ in lines:
            kit = "-" if line.length is None else f"{line.length:.7f}"
            out.write(f"| {line.file} | {line.index} | {line.start} | {line.goal} | {line.optimal} | {kit} | {cause(line, misfit)} |\n")
    return out.getvalue()


#: The columns of ``movingai_lines.csv``, one row per line that does not match.
LINE_COLUMNS = ("file", "index", "start_row", "start_col", "goal_row", "goal_col", "capability", "optimal",
                "kit_length", "verdict", "cause")


def format_csv(reports: list[FileReport]) -> str:
    """Every line that does not match, one CSV row each (the header alone when every line matches)."""
    rows = [dict(zip(LINE_COLUMNS, (line.file, line.index, *line.start, *line.goal, line.capability, line.optimal,
                                    "" if line.length is None else f"{line.length:.7f}", line.verdict,
                                    cause(line, r.misfit))))
            for r in reports for line in r.lines if line.verdict != "match"]
    return to_csv(rows, columns=LINE_COLUMNS)


def run_check(movingai: Path, out: Path | None, sample: int | None = None, progress: bool = True) -> list[FileReport]:
    """Check, writing ``movingai_check.md`` and ``movingai_lines.csv`` into ``out`` (if given)
    after every file, so that an interrupted check still leaves its report so far. ``ftr path
    --check-all`` calls it.

    Parameters
    ----------
    movingai : Path
        The MovingAI folder, holding the collections of :data:`COLLECTIONS`.
    out : Path or None
        Where the report goes (created if missing); None writes nothing.
    sample : int, optional
        Check this many lines spread over each file (default: every line).
    progress : bool
        Show a progress bar.

    Returns
    -------
    list of FileReport
        Every scenario file's checked lines and times; :func:`failures` picks the failing lines.

    See Also
    --------
    check_file : one scenario file.
    reference.solutions.compiled.shortest_paths.astar_cost : the compiled A* that solves each line.
    reference.solutions.shortest_paths.astar : the readable A* it mirrors (``compare_engines`` times both).
    """

    if out is None:
        return check_all(movingai, sample, progress)
    folder = out

    def write(reports: list[FileReport], file_count: int) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        atomic_write_text(folder / "movingai_check.md", format_report(reports, sample, file_count))
        atomic_write_text(folder / "movingai_lines.csv", format_csv(reports))

    return check_all(movingai, sample, progress, write)


def compare_engines(scen_path: Path, sample: int = 20) -> dict[str, float]:
    """Time the readable A* and its compiled twin side by side on ``sample`` lines of one file
    (processor time, the compiled one warmed up first); check they expand the same cells.

    The compiled search is timed through ``astar_cost``: turning its expanded indices into a list
    of cells (which the check below needs) costs Python time that is no part of the search.

    Returns the summed expansions and seconds of each and their ratio.
    """
    from reference.solutions.compiled.shortest_paths import astar as compiled_astar
    from reference.solutions.compiled.shortest_paths import astar_cost
    from reference.solutions.shortest_paths import astar as readable_astar

    scenarios = read_scen(scen_path)
    terrains = read_scen_terrains(scen_path, scenarios)
    problems = []
    for index in sample_indices(len(scenarios), sample):
        scenario = scenarios[index]
        terrain = terrains[scenario.map]
        blocked = ~passable(terrain, scenario_capability(terrain, scenario.start))
        if not blocked[scenario.start] and not blocked[scenario.target]:
            problems.append((blocked, scenario.start, scenario.target))
    compiled_astar(*problems[0], connectivity=8)  # compile (or load the cache) outside the timing
    seconds = {"readable": 0.0, "compiled": 0.0}
    expansions = 0
    for problem in problems:
        began = time.process_time()
        readable = readable_astar(*problem, connectivity=8)
        seconds["readable"] += time.process_time() - began
        began = time.process_time()
        astar_cost(*problem, connectivity=8)
        seconds["compiled"] += time.process_time() - began
        if compiled_astar(*problem, connectivity=8) != readable:
            raise AssertionError(f"{scen_path}: the twins differ on {problem[1]} -> {problem[2]}")
        expansions += readable.expansions
    return {"lines": len(problems), "expansions": expansions, **seconds, "ratio": seconds["readable"] / seconds["compiled"]}


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m reference.experiments.movingai``: check the benchmark's scenario lines, or time the two A*
    engines.
    """
    parser = argparse.ArgumentParser(prog="python -m reference.experiments.movingai", description=__doc__.split("\n\n")[0])
    parser.add_argument("--movingai", type=Path, default=None, help="the MovingAI folder (default: see `ftr movingai where`)")
    parser.add_argument("--out", type=Path, default=Path("docs/gamemaps"), help="where the report goes (default docs/gamemaps)")
    parser.add_argument("--sample", type=int, default=None, help="check N lines spread over each file (default: all)")
    parser.add_argument("--engines", type=Path, metavar="SCEN",
                        help="instead: time the readable A* against its compiled twin on --sample lines (default 20) of SCEN")
    args = parser.parse_args(argv)
    if args.engines:
        numbers = compare_engines(args.engines, args.sample or 20)
        print(f"{args.engines.name}: {numbers['lines']} lines, {numbers['expansions']:,} expansions each; readable "
              f"{numbers['readable']:.2f} s, compiled {numbers['compiled']:.3f} s: {numbers['ratio']:.0f}x")
        return 0
    reports = run_check(require_movingai(movingai_dir(args.movingai)), args.out, args.sample)
    print(f"{sum(len(r.lines) for r in reports):,} lines checked, {len(failures(reports))} failures; report in {args.out}")
    return 1 if failures(reports) else 0


if __name__ == "__main__":
    raise SystemExit(main())
