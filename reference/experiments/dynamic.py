"""The study of Bulitko et al. (2007), scaled to this machine: ``ftr dynamic compare`` (SPEC §15).

Problems: on each map, random start/goal pairs (seeded) whose optimal cost lies in [90, 100], as
in the paper. Every method runs general LRTA* (:mod:`reference.solutions.dynamic.lrta`) with its
own line 3 of Figure 1: fixed depth, the decision tree (trained as the paper does, on the same maps
with 10-fold cross-validation, :mod:`reference.experiments.dynamic_trees`; and, as a generalisation
study, on the *other* maps' problems), the oracle, and pattern databases at several abstraction
levels with goal selection G, G+I, I (level 0: only toward the problems' goals, G only, unless
``Study.full_level_zero``).
A point of a figure is one setting: mean sub-optimality (cost / optimal) against mean expansions
per action, both averaged over problems.

>>> blocked = np.zeros((30, 30), dtype=bool)
>>> [p.optimal for p in pick_problems(blocked, 2, low=10, high=12, seed=1)]    # doctest: +ELLIPSIS
[(...), (...)]
"""

from __future__ import annotations

import csv
import time
import zlib
from dataclasses import dataclass
from functools import lru_cache, partial
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

from reference.experiments import report as report_writers  # (this module has its own report())
from reference.experiments.dynamic_trees import (
    CV_METHODS, HELD_OUT, SAME_MAPS, CrossValidated, Key, collect, cross_validate,
)
from reference.experiments.report import (
    DOES_NOT_HOLD, NOT_MEASURED, Claim, Finding, check, findings_list, for_every, for_some, open_runs, runs_file,
    verdict, verdict_of_difference,
)
from reference.experiments.tasks import one_local_cluster, prepare, run_tasks
from reference.world.grid import Cell, Cost, cost_value, octile
from reference.solutions.compiled.shortest_paths import astar_cost
from reference.solutions.dynamic.lrta import Controller, Neighbours, Run, fixed_depth, general_lrta
from reference.solutions.dynamic.pattern_database import GOAL_RULES, PatternDatabase, build_pattern_database
from reference.solutions.dynamic.tree import DepthTree, collect_samples, oracle, train_depth_tree

ENGINES = ("compiled", "python")
# This study's files keep the csv module's own "\r\n" line ends and their number style (report bytes unchanged).
write_csv = partial(report_writers.write_csv, line_end="\r\n")
markdown_table = partial(report_writers.to_markdown, number=report_writers.three_significant, rule="---", empty=None)


def write_runs_csv(rows: Sequence[dict], path: Path) -> None:
    """The runs as ``path``, or gzipped as ``path.gz`` when large (:func:`reference.experiments.report.write_runs`)."""
    report_writers.write_runs(path.parent, rows, path.name, line_end="\r\n", large=report_writers.LARGE_RUNS)


#: The three maps of the study (Baldur's Gate II, 176 x 176 and 160 x 160): the paper used three
#: 161-193 cell maps of a real-time strategy game; these are the MovingAI game maps in that range
#: with the fewest free cells (chosen when the databases were built in pure Python; kept so results compare).
STUDY_MAPS = ("bgmaps/AR0405SR.map", "bgmaps/AR0505SR.map", "bgmaps/AR0412SR.map")
SCALING_MAP = "bg512/AR0011SR.map"
SCALING_COST_RANGE = (270.0, 300.0)   # about three times the study's 90-100, as the paper's maps grew
SCALING_CAP = 30


@dataclass(frozen=True)
class Problem:
    """One problem of the study: a map, a start and a goal, and the goal's optimal cost."""
    map: str
    start: Cell
    goal: Cell
    optimal: Cost


def pick_problems(blocked: np.ndarray, count: int, *, low: float = 90.0, high: float = 100.0, seed: int = 0,
                  map_name: str = "", tries: int = 200_000) -> list[Problem]:
    """``count`` random start/goal pairs whose optimal cost lies in [low, high] (A*, exact costs)."""
    rng = np.random.default_rng(seed)
    free = np.argwhere(~blocked)
    problems: list[Problem] = []
    for _ in range(tries):
        if len(problems) == count:
            break
        start, goal = ((int(free[i, 0]), int(free[i, 1])) for i in rng.integers(len(free), size=2))
        if not low / np.sqrt(2) <= octile(start, goal) <= high:  # octile <= optimal <= ~√2·octile-ish: cheap filter
            continue
        cost, _ = astar_cost(blocked, start, goal, connectivity=8)
        if cost is not None and low <= cost_value(cost) <= high:
            problems.append(Problem(map_name, start, goal, cost))
    return problems


#: One way to run general LRTA* on a problem: ``runner(start, goal, max_actions) -> Run``.
Runner = Callable[[Cell, Cell, int], Run]


class Engine:
    """The methods of the study on one map, run by the readable code (``"python"``, the reference)
    or by its compiled twins (``"compiled"``, :mod:`reference.solutions.compiled.dynamic`; the same
    runs, tested move for move, only faster)."""

    def __init__(self, blocked: np.ndarray, kind: str = "compiled") -> None:
        if kind not in ENGINES:
            raise ValueError(f"engine must be one of {ENGINES}, not {kind!r}")
        self.kind = kind
        self.neighbours = Neighbours(blocked)
        self.blocked = self.neighbours.blocked
        if kind == "compiled":
            from reference.solutions.compiled import dynamic as compiled

            self.compiled = compiled
            self.lookahead = compiled.Lookahead(self.blocked)

    def controlled(self, controller: Controller) -> Runner:
        """General LRTA* with a Python ``controller`` (line 3 of Figure 1)."""
        if self.kind == "python":
            return lambda start, goal, limit: general_lrta(self.neighbours, start, goal, controller, max_actions=limit)
        return lambda start, goal, limit: self.compiled.general_lrta_compiled(
            self.blocked, start, goal, controller, max_actions=limit, lookahead=self.lookahead)

    def fixed(self, depth: int) -> Runner:
        if self.kind == "python":
            return self.controlled(fixed_depth(depth))
        return lambda start, goal, limit: self.compiled.run_fixed(
            self.blocked, start, goal, depth, max_actions=limit, lookahead=self.lookahead)

    def oracle(self, d_max: int) -> Runner:
        return self.controlled(oracle(d_max) if self.kind == "python" else self.compiled.oracle_compiled(d_max))

    def tree(self, tree: DepthTree) -> Runner:
        return self.controlled(tree.controller())

    def database(self, level: int, cap: int, progress=None, goal_regions: Sequence[int] | None = None) -> PatternDatabase:
        """The pattern database at ``level``; with ``goal_regions``, only the pairs toward those."""
        if self.kind == "python":
            return build_pattern_database(self.neighbours, level, cap, progress, goal_regions)
        return self.compiled.build_pattern_database_compiled(self.neighbours, level, cap, progress,
                                                             goal_regions=goal_regions)

    def with_database(self, database: PatternDatabase, goals: str, rule: str = "once") -> Runner:
        if self.kind == "python":
            return self.controlled(database.controller(goals, rule))
        return lambda start, goal, limit: self.compiled.run_database(
            self.blocked, start, goal, database, goals, max_actions=limit, lookahead=self.lookahead, rule=rule)

    def neighbours_index(self, cell: Cell) -> int:
        """The level-0 abstract state of ``cell``: its place among the free cells in row-major order
        (:func:`reference.solutions.dynamic.abstraction.clique_hierarchy`'s level 0)."""
        if not hasattr(self, "_cell_index"):
            self._cell_index = {cell: i for i, cell in enumerate(sorted(self.neighbours.table))}
        return self._cell_index[cell]

    def samples(self, start: Cell, goal: Cell, d_maxes: Sequence[int], max_actions: int,
                follow: Controller | None = None):
        """Training features and labels (:func:`reference.solutions.dynamic.tree.collect_samples`)."""
        if self.kind == "python":
            return collect_samples(self.neighbours, start, goal, d_maxes, max_actions=max_actions, follow=follow)
        return self.compiled.collect_samples_compiled(self.blocked, start, goal, d_maxes, max_actions=max_actions,
                                                      lookahead=self.lookahead, follow=follow)


def run_problem(problem: Problem, runner: Runner, max_actions: int, database: PatternDatabase | None = None) -> dict:
    """One run as the CLI reports it (suboptimality = cost / optimal); with the ``database`` the run
    used, also its per-action cap counts (:func:`capped_actions`)."""
    run = runner(problem.start, problem.goal, max_actions)
    optimal = cost_value(problem.optimal)
    row = {"reached": run.reached, "cost": cost_value(run.cost), "optimal": optimal,
           "suboptimality": cost_value(run.cost) / optimal if optimal else 1.0,
           "expansions_per_action": run.mean_expansions, "max_expansions_per_action": run.max_expansions}
    return row if database is None else {**row, **capped_actions(run, problem.goal, database)}


#: A study row's per-action cap counts (empty for methods without a pattern database).
CAP_COLUMNS = ("actions", "capped_global_actions", "intermediate_actions", "capped_intermediate_actions")


def capped_actions(run: Run, goal: Cell, database: PatternDatabase) -> dict:
    """Per action of ``run`` toward ``goal``: is the stored depth toward the global goal above the
    cap, and, for the actions that searched toward an intermediate goal, the stored depth toward it?

    "Pattern database LRTA* (level 5) reaches the cap of 30 about 10% of the time with global goal, and
    never with local goals" is counted this way: ``capped_global_actions / actions`` on the G runs,
    ``capped_intermediate_actions / intermediate_actions`` on the runs with intermediate goals.
    """
    region, level, cap = database.hierarchy.region, database.level, database.cap
    b = region(goal, level)
    capped_global = intermediate = capped_intermediate = 0
    for state, searched in zip(run.path, run.goals):
        a = region(state, level)
        capped_global += int(database.depth[a, b] > cap)
        if searched != goal:
            intermediate += 1
            capped_intermediate += int(database.depth[a, region(searched, level)] > cap)
    return {"actions": run.actions, "capped_global_actions": capped_global, "intermediate_actions": intermediate,
            "capped_intermediate_actions": capped_intermediate}


#: The parts of the study, each a group of methods (``ftr dynamic compare --parts``): ``trees`` are
#: trained on other maps (the generalisation study), ``cv`` on the same maps with 10-fold
#: cross-validation (the paper's protocol, :mod:`reference.experiments.dynamic_trees`).
PARTS = ("fixed", "trees", "cv", "pdb")


def pdb_methods(rules: Sequence[str]) -> list[tuple[str, str, str]]:
    """``(goal selection, goal rule, method name)`` of the pattern-database runs. G never takes an
    intermediate goal, so it is the same under both rules and runs once; the kit's repair is named
    ", once" (keep an intermediate goal until reached, each at most once); the paper's rule (the goal
    re-selected at every action) has the plain names."""
    methods = [("g", rules[0], "pdb G")] if rules else []
    for rule in rules:
        suffix = "" if rule == "paper" else ", once"
        methods += [("gi", rule, f"pdb G+I{suffix}"), ("i", rule, f"pdb I{suffix}")]
    return methods


def part_of(method: str) -> str:
    """The part of the study a method belongs to (``"pdb G+I, once"`` -> ``"pdb"``)."""
    return "fixed" if method == "fixed" else "pdb" if method.startswith("pdb") else "cv" if method in CV_METHODS \
        else "trees"


@dataclass
class Study:
    """Settings of a compare run (the paper's numbers are the defaults where they fit)."""

    maps: Sequence[str] = STUDY_MAPS
    problems: int = 100
    cost_range: tuple[float, float] = (90.0, 100.0)
    cap: int = 20
    fixed_depths: Sequence[int] = (1, 2, 3, 4, 6, 8, 10, 14)
    tree_depths: Sequence[int] = (5, 10, 15, 20)
    levels: Sequence[int] = (2, 3, 4, 5)
    max_actions_factor: int = 20   # a run stops unreached after this many times its optimal cost in actions
    seed: int = 0
    engine: str = "compiled"
    tree_trajectories: str = "each"   # "each": training follows each d_max; "deepest": the largest d_max for all
    goal_rules: Sequence[str] = GOAL_RULES   # intermediate goals per action (the paper) and/or kept, once (the kit)
    parts: Sequence[str] = PARTS      # which methods to run (the others' rows are kept from the last run)
    cv_folds: int = 10                # the paper's protocol: folds of the cross-validation
    full_level_zero: bool = False     # level 0: the whole |V|^2 table, so G+I and I run too (else the goals' columns, G only)



def load_map(movingai: Path, name: str) -> np.ndarray:
    """The blocked array of a MovingAI map (ground-only agent: only passable ground is free)."""
    from reference.world.maps import read_terrain
    from reference.world.terrain import GROUND_ONLY, passable

    return ~passable(read_terrain(movingai / name), GROUND_ONLY)


# -- The study as tasks ---------------------------------------------------------------------------
#
# run_study runs its work through the kit's task layer (reference.experiments.tasks): serially, on a
# local Dask cluster, or on a cluster the user runs. A task is ``(function, arguments)`` with a
# module-level function of this section: it carries the map's cells and the problems, so a worker
# needs no map files, builds the map's Engine once (engine_of), and returns the rows of one map.

#: The generalisation trees' training runs stop after this many times a problem's optimal cost in
#: actions (20 whatever ``Study.max_actions_factor`` says, as the study has always run them).
TRAINING_ACTIONS_FACTOR = 20


@dataclass(frozen=True, eq=False)
class StudyMap:
    """A map as a task carries it: its name, its blocked cells, and the engine to run it with.

    The cells travel with the task (31 KB for a study map, 262 KB at 512 x 512), so a worker needs no
    map files, and a changed map changes the task's name in the store (it runs again)."""

    name: str
    blocked: np.ndarray
    engine: str


_ENGINES: dict[tuple, Engine] = {}   # this process's engines, one per map (engine_of)


def engine_of(where: StudyMap) -> Engine:
    """The map's :class:`Engine`, built once per process: a worker that runs many tasks on one map
    builds its successor table and the compiled search's arrays once."""
    key = (where.name, where.engine, where.blocked.shape, zlib.crc32(np.packbits(where.blocked).tobytes()))
    if key not in _ENGINES:
        if len(_ENGINES) >= 4:   # a worker meets the study's three maps; the scaling map replaces them
            _ENGINES.clear()
        _ENGINES[key] = Engine(where.blocked, where.engine)
    return _ENGINES[key]


def call(task: tuple[Callable, tuple]) -> Any:
    """One task of the study, ``(function, arguments)``: ``function(*arguments)``."""
    function, arguments = task
    return function(*arguments)


def action_limit(problem: Problem, factor: int) -> int:
    """A run's action budget: ``factor`` times the problem's optimal cost, rounded up."""
    return factor * int(cost_value(problem.optimal) + 1)


def runs_of(method: str, setting: int, where: StudyMap, problems: Sequence[Problem], factor: int,
            runners: Runner | list[Runner], database: PatternDatabase | None = None) -> list[dict]:
    """The rows of ``method`` at ``setting``: every problem run by ``runners`` (one runner for all,
    or one per problem), with the cap counts of ``database`` if given."""
    rows = []
    for number, problem in enumerate(problems):
        runner = runners[number] if isinstance(runners, list) else runners
        row = run_problem(problem, runner, action_limit(problem, factor), database)
        rows.append({"method": method, "setting": setting, "map": where.name, "problem": number, **row,
                     **{column: row.get(column, "") for column in CAP_COLUMNS}})
    return rows


def fixed_runs(where: StudyMap, problems: Sequence[Problem], factor: int, depth: int) -> list[dict]:
    """Task: fixed-depth LRTA* at ``depth`` on every problem of a map."""
    return runs_of("fixed", depth, where, problems, factor, engine_of(where).fixed(depth))


def oracle_runs(where: StudyMap, problems: Sequence[Problem], factor: int, d_max: int) -> list[dict]:
    """Task: the oracle's depth (up to ``d_max``) on every problem of a map."""
    return runs_of("oracle", d_max, where, problems, factor, engine_of(where).oracle(d_max))


def tree_runs(method: str, where: StudyMap, problems: Sequence[Problem], factor: int, d_max: int,
              trees: DepthTree | Sequence[DepthTree]) -> list[dict]:
    """Task: a decision tree's depth on every problem of a map; ``trees``: one tree, or one per
    problem (the 10-fold study's held-out trees). The trees travel pickled (scikit-learn's do)."""
    engine = engine_of(where)
    runners = engine.tree(trees) if isinstance(trees, DepthTree) else [engine.tree(tree) for tree in trees]
    return runs_of(method, d_max, where, problems, factor, runners)


def database_runs(where: StudyMap, problems: Sequence[Problem], factor: int, level: int, cap: int,
                  methods: Sequence[tuple[str, str, str]], full_level_zero: bool) -> tuple[dict, list[dict]]:
    """Task: build the pattern database at ``level`` and run every one of ``methods``
    (:func:`pdb_methods`) with it on every problem of a map; returns (its Table 2 row, the rows).

    One task, not one per method: the database (up to 0.5 GB at level 0) is built where it is used,
    never sent, and its build is most of the task's cost."""
    engine = engine_of(where)
    if level == 0 and not full_level_zero:
        # No abstraction: |V|^2 pairs (87 million on AR0405SR). Only the columns toward the problems'
        # goals are built, all that goal selection G reads (see docs/dynamic.md).
        database = engine.database(0, cap, goal_regions=sorted({engine.neighbours_index(p.goal) for p in problems}))
    else:
        database = engine.database(level, cap)
    rows = []
    for goals, rule, method in methods:
        if database.goal_regions is None or goals == "g":   # G+I and I read every column
            rows += runs_of(method, level, where, problems, factor, engine.with_database(database, goals, rule),
                            database)
    return database_row(where.name, database), rows


def training_samples(where: StudyMap, problems: Sequence[Problem], d_maxes: Sequence[int], factor: int,
                     follow: DepthTree | None = None) -> list[tuple[np.ndarray, dict[int, np.ndarray]]]:
    """Task: the trees' features and labels along each problem's training run (:meth:`Engine.samples`),
    the agent following ``follow``'s depths if given (DAgger), else the deepest d_max's search."""
    engine = engine_of(where)
    return [engine.samples(problem.start, problem.goal, d_maxes, action_limit(problem, factor),
                           follow=None if follow is None else follow.controller()) for problem in problems]


def retrained_tree_runs(where: StudyMap, problems: Sequence[Problem], factor: int, d_max: int, tree: DepthTree,
                        x: np.ndarray, y: np.ndarray, training: Sequence[tuple[StudyMap, Sequence[Problem]]],
                        seed: int) -> tuple[dict, list[dict]]:
    """Task: ``tree`` (trained on ``x``, ``y``, the samples of the ``training`` maps' problems) retrained
    once on the states its own agent visits there (DAgger, Ross, Gordon & Bagnell 2011), then run on
    every problem of ``where``; returns (the retrained tree's numbers for ``trees.csv``, the rows).

    One task: the retraining needs only this tree's samples and its own runs' (not the other trees'),
    so the runs, the training and the test runs go together, without a trip back."""
    own_x, own_y = [x], [y]
    for training_map, training_problems in training:
        for more_x, more_y in training_samples(training_map, training_problems, [d_max], TRAINING_ACTIONS_FACTOR,
                                               follow=tree):
            own_x.append(more_x)
            own_y.append(more_y[d_max])
    retrained = train_depth_tree(np.vstack(own_x), np.concatenate(own_y), seed=seed)
    numbers = {"retrained_samples": sum(map(len, own_y)), "retrained_leaves": retrained.leaves,
               "retrained_cv_accuracy": retrained.accuracy}
    return numbers, tree_runs("tree, retrained", where, problems, factor, d_max, retrained)


@lru_cache(maxsize=1)
def warm_up_compiled() -> None:
    """Compile (or load from Numba's cache) every compiled function the study calls, once per
    process, on a tiny map: run here before the tasks, the workers then load the cache."""
    engine = Engine(np.array([[c == "@" for c in row] for row in ("......", ".@@@..", "....@.", "......")]))
    start, goal = (0, 0), (3, 5)
    engine.fixed(2)(start, goal, 50)
    engine.oracle(3)(start, goal, 50)
    engine.samples(start, goal, [3], 50)
    database = engine.database(1, 4)
    for goals, rule, _ in pdb_methods(GOAL_RULES):
        engine.with_database(database, goals, rule)(start, goal, 50)


#: What compiling the study's engine costs when Numba's cache is empty (measured on the shared machine).
COMPILE_TIME = "about 15 CPU-seconds of compiling"


def run_study(movingai: Path, study: Study, progress: bool = True, log: Callable[[str], None] = print, *,
              jobs: int = 1, scheduler: str | None = None,
              store: str | Path | None = None) -> tuple[list[dict], list[dict], list[dict]]:
    """Every method on every problem; returns (rows, database rows for Table 2, one row per tree).

    The work runs as tasks of :func:`reference.experiments.tasks.run_tasks`: ``jobs`` processes here
    (1: this one), or the Dask cluster at ``scheduler``; finished tasks kept in ``store`` and taken
    from it on a rerun. Two phases, one progress bar each:

    1. what needs no trained tree, one task per map and setting: fixed depths, the oracle, the
       pattern databases (one task per map and level: the build and its runs), and the trees'
       training samples (per map and d_max);
    2. the trees, trained here on those samples (a tree needs every other map's, or problem's,
       samples; training is cheap beside the runs), then run, one task per map and d_max; a
       generalisation tree's task also retrains it on its own runs (DAgger) and runs that.

    The rows, Table 2 and the tree rows come back in the serial order whatever runs the tasks.
    """
    if study.engine == "compiled" and scheduler is None:   # compile here once; local workers load the cache
        prepare(warm_up_compiled, "the compiled engine (Numba)", COMPILE_TIME, progress)
    with one_local_cluster(jobs, scheduler) as cluster:   # both phases on one local cluster, started once
        return _run_study(movingai, study, progress, log, jobs, cluster, store)


def _run_study(movingai: Path, study: Study, progress: bool, log: Callable[[str], None], jobs: int,
               scheduler: str | None, store: str | Path | None) -> tuple[list[dict], list[dict], list[dict]]:
    """:func:`run_study`'s work, once the engine is compiled and the cluster (if any) runs."""
    where = {name: StudyMap(name, load_map(movingai, name), study.engine) for name in study.maps}
    low, high = study.cost_range
    # Each study map keeps its own seed (its place in STUDY_MAPS), so a run of some of the maps
    # (``--maps``) draws the same problems as the full study and its rows pair with it.
    problems = {name: pick_problems(where[name].blocked, study.problems, low=low, high=high, map_name=name,
                                    seed=study.seed + (STUDY_MAPS.index(name) if name in STUDY_MAPS else i))
                for i, name in enumerate(where)}
    factor = study.max_actions_factor
    quarter = max(5, study.problems // 4)   # the generalisation trees train on each map's first quarter
    fixed_depths = study.fixed_depths if "fixed" in study.parts else ()
    tree_depths = study.tree_depths if "trees" in study.parts else ()
    cv_depths = study.tree_depths if "cv" in study.parts else ()
    levels = study.levels if "pdb" in study.parts else ()
    databases_run = pdb_methods(study.goal_rules)

    def run(tasks: dict[tuple, tuple], description: str) -> dict[tuple, Any]:
        """Run ``tasks`` (a label of ours -> the task) and return their results by label."""
        results = run_tasks(call, list(tasks.values()), jobs=jobs, scheduler=scheduler, store=store,
                            description=description, progress=progress and bool(tasks))
        return dict(zip(tasks, results))

    # Phase 1. The database builds first, the lowest level (the most regions) first: the longest tasks
    # start at once and the short ones fill in beside them (the rows are put in order at the end).
    first: dict[tuple, tuple] = {}
    for level in sorted(levels):
        for name in where:
            first["pdb", level, name] = (database_runs, (where[name], problems[name], factor, level, study.cap,
                                                         databases_run, study.full_level_zero))
    for name in where:
        for depth in fixed_depths:
            first["fixed", depth, name] = (fixed_runs, (where[name], problems[name], factor, depth))
    for d_max in tree_depths:
        for name in where:
            first["oracle", d_max, name] = (oracle_runs, (where[name], problems[name], factor, d_max))
    # The generalisation trees' agent follows the d_max search of the tree being trained (the paper's
    # training phase), or, with tree_trajectories="deepest", one run at the largest d_max labels them all.
    runs = ([[d] for d in tree_depths] if study.tree_trajectories == "each" else [list(tree_depths)]) \
        if tree_depths else []
    for name in where:
        for d_maxes in runs:
            first["samples", tuple(d_maxes), name] = (training_samples, (where[name], problems[name][:quarter],
                                                                         d_maxes, TRAINING_ACTIONS_FACTOR))
    for d_max in cv_depths:   # the paper's protocol: along each d_max's own run, every problem
        for name in where:
            first["cv samples", d_max, name] = (training_samples, (where[name], problems[name], [d_max], factor))
    done = run(first, "dynamic control: runs, databases, samples")

    # Phase 2. Decision trees: train on the other maps' problems (leave one map out), test on this one.
    samples: dict[tuple[str, int], tuple[np.ndarray, np.ndarray]] = {}
    for name in where:
        for d_maxes in runs:
            per_problem = done["samples", tuple(d_maxes), name]
            for d in d_maxes:
                samples[name, d] = (np.vstack([x for x, _ in per_problem]), np.concatenate([y[d] for _, y in per_problem]))
    second: dict[tuple, tuple] = {}
    trained: dict[tuple[int, str], tuple[DepthTree, int]] = {}   # a tree and its samples, by d_max and test map
    for d_max in tree_depths:
        for name in where:
            others = [m for m in where if m != name] or [name]
            x = np.vstack([samples[m, d_max][0] for m in others])
            y = np.concatenate([samples[m, d_max][1] for m in others])
            tree = train_depth_tree(x, y, seed=study.seed)
            trained[d_max, name] = tree, len(y)
            log(f"tree d_max={d_max} for {name}: {len(y)} samples, min leaf {tree.min_samples_leaf}, "
                f"ccp_alpha {tree.ccp_alpha:g}, CV accuracy {tree.accuracy:.2f}, {tree.leaves} leaves")
            second["tree", d_max, name] = (tree_runs, ("tree", where[name], problems[name], factor, d_max, tree))
            second["retrained", d_max, name] = (retrained_tree_runs, (
                where[name], problems[name], factor, d_max, tree, x, y,
                tuple((where[m], problems[m][:quarter]) for m in others), study.seed))
    cross_validated = cross_validated_trees({(name, d_max): done["cv samples", d_max, name]
                                             for d_max in cv_depths for name in where},
                                            {name: len(problems[name]) for name in where}, cv_depths, study, log)
    for d_max, found in cross_validated.items():
        for name in where:
            second["same maps", d_max, name] = (tree_runs, (SAME_MAPS, where[name], problems[name], factor, d_max,
                                                            found.pooled))
            held_out = tuple(found.tree_for((name, number)) for number in range(len(problems[name])))
            second["held out", d_max, name] = (tree_runs, (HELD_OUT, where[name], problems[name], factor, d_max,
                                                           held_out))
    done |= run(second, "dynamic control: trees")

    trees: list[dict] = []
    for (d_max, name), (tree, count) in trained.items():
        retrained, _ = done["retrained", d_max, name]
        log(f"tree d_max={d_max} for {name}, retrained on its own runs: {retrained['retrained_samples']} samples, "
            f"CV accuracy {retrained['retrained_cv_accuracy']:.2f}, {retrained['retrained_leaves']} leaves")
        trees.append({"test map": name, "d_max": d_max, "samples": count, "leaves": tree.leaves,
                      "min_samples_leaf": tree.min_samples_leaf, "ccp_alpha": tree.ccp_alpha,
                      "cv_accuracy": tree.accuracy, **retrained})

    # The rows in the order the study has always written them.
    rows = [row for name in where for depth in fixed_depths for row in done["fixed", depth, name]]
    for d_max in tree_depths:
        for name in where:
            rows += done["tree", d_max, name] + done["oracle", d_max, name] + done["retrained", d_max, name][1]
    for d_max in cross_validated:
        for name in where:
            rows += done["same maps", d_max, name] + done["held out", d_max, name]
    databases = []
    for level in levels:
        for name in where:
            database, database_rows = done["pdb", level, name]
            databases.append(database)
            rows += database_rows
    where_trained = ", ".join(where)
    return rows, databases, trees + [found.row(where_trained) for found in cross_validated.values()]


def cross_validated_trees(samples: dict[tuple[str, int], list], counts: dict[str, int], d_maxes: Sequence[int],
                          study: Study, log: Callable[[str], None]) -> dict[int, CrossValidated]:
    """The paper's protocol (:mod:`reference.experiments.dynamic_trees`), per d_max: one tree trained
    on the samples along its own training run on every problem of every map (``samples[name, d_max]``,
    one entry per problem; ``counts``: the problems per map), to run on the same problems (``tree,
    same maps``), and the fold trees each problem is run by (``tree, 10-fold``)."""
    keys = [(name, number) for name, count in counts.items() for number in range(count)]

    def sample(key: Key, d_max: int) -> tuple[np.ndarray, dict]:
        name, number = key
        return samples[name, d_max][number]

    found = {}
    for d_max in d_maxes:
        found[d_max] = cross_validate(collect(sample, keys, d_max), d_max, keys, folds=study.cv_folds,
                                      seed=study.seed)
        log(f"tree d_max={d_max} on the same maps: {found[d_max].samples} samples, min leaf "
            f"{found[d_max].pooled.min_samples_leaf}, ccp_alpha {found[d_max].pooled.ccp_alpha:g}, {study.cv_folds}-fold "
            f"CV accuracy {found[d_max].pooled.accuracy:.2f} over samples, {found[d_max].grouped_accuracy:.2f} over "
            f"problems, {found[d_max].pooled.leaves} leaves")
    return found


def database_row(name: str, database: PatternDatabase) -> dict:
    """Table 2's row: size, build time, and how often the cap is reached toward the global goal
    (``capped_pairs``) and toward the intermediate goal (``capped_intermediate``), over the pairs
    of different, connected regions."""
    built = database.regions if database.goal_regions is None else len(database.goal_regions)
    if database.goal_regions is not None:   # only these columns hold depths (and no intermediate goal is read)
        columns = list(database.goal_regions)
        pairs = database.next_region[:, columns] >= 0
        return {"map": name, "level": database.level, "regions": database.regions, "size": database.size,
                "seconds": database.seconds, "goal_columns_built": built,
                "seconds_all_columns": database.seconds * database.regions / max(built, 1),
                "capped_pairs": float(np.mean(database.depth[:, columns][pairs] > database.cap)) if pairs.any() else 0.0,
                "capped_intermediate": None}
    pairs = database.next_region >= 0
    via = np.where(pairs, database.next_region, 0)
    toward_via = np.take_along_axis(database.depth, via, axis=1)
    return {"map": name, "level": database.level, "regions": database.regions, "size": database.size,
            "seconds": database.seconds, "goal_columns_built": built,
            # the whole table's build time, extrapolated from the columns built (each column costs alike)
            "seconds_all_columns": database.seconds * database.regions / max(built, 1),
            "capped_pairs": float(np.mean(database.depth[pairs] > database.cap)) if pairs.any() else 0.0,
            "capped_intermediate": float(np.mean(toward_via[pairs] > database.cap)) if pairs.any() else 0.0}


def summarise(rows: Sequence[dict]) -> list[dict]:
    """One line per (method, setting): means over all problems of all maps.

    An unsolved run (stopped at its action limit) counts with the cost it had run up by then, so its
    sub-optimality is a lower bound; ``reached`` says how many runs solved their problem.
    """
    groups: dict[tuple, list[dict]] = {}
    for row in rows:
        groups.setdefault((row["method"], row["setting"]), []).append(row)
    table = []
    for (method, setting), members in groups.items():
        table.append({"method": method, "setting": setting, "problems": len(members),
                      "reached": sum(bool(r["reached"]) for r in members),
                      "suboptimality": float(np.mean([r["suboptimality"] for r in members])),
                      "suboptimality_se": float(np.std([r["suboptimality"] for r in members]) / np.sqrt(len(members))),
                      "expansions_per_action": float(np.mean([r["expansions_per_action"] for r in members])),
                      "max_expansions_per_action": max(r["max_expansions_per_action"] for r in members)})
    return table


def plot_tradeoff(summary: Sequence[dict], methods: Sequence[str], title: str, ax=None):
    """Sub-optimality against mean expansions per action, one labelled curve per method."""
    from matplotlib.figure import Figure

    if ax is None:
        ax = Figure(figsize=(7, 5)).subplots()
    markers = {"fixed": "s", "tree": "^", "tree, retrained": "<", "tree, same maps": ">", "tree, 10-fold": "*",
               "oracle": "v", "Koenig's LRTA*": "h", "prioritized LRTA*": "p", "PR LRTS, level 3": "1",
               "PR LRTS, level 4": "2", "PR LRTS, level 5": "3", "pdb G": "o", "pdb G+I": "D",
               "pdb I": "P", "pdb G+I, once": "d", "pdb I, once": "X"}
    for method in methods:
        points = sorted((r for r in summary if r["method"] == method), key=lambda r: r["expansions_per_action"])
        if not points:
            continue
        xs = [p["expansions_per_action"] for p in points]
        ys = [p["suboptimality"] for p in points]
        label = {"fixed": "fixed depth (label: d)", "tree": "decision tree, trained on other maps (label: d_max)",
                 "tree, same maps": "decision tree, same maps (paper's protocol; label: d_max)",
                 "tree, 10-fold": "decision tree, same maps, problem held out (label: d_max)",
                 "tree, retrained": "tree retrained on its own runs (label: d_max)",
                 "oracle": "oracle depth (label: d_max)",
                 "pdb G+I": "pdb G+I, goal per action (paper; label: level)",
                 "pdb I": "pdb I, goal per action (paper; label: level)",
                 "pdb G+I, once": "pdb G+I, goal kept, once (kit; label: level)",
                 "pdb I, once": "pdb I, goal kept, once (kit; label: level)",
                 "Koenig's LRTA*": "Koenig's LRTA* (label: A* expansions per episode)",
                 "prioritized LRTA*": "prioritized LRTA* (label: queued updates per action)",
                 }.get(method, f"{method} (label: {'depth' if method.startswith('PR LRTS') else 'level'})")
        ax.errorbar(xs, ys, yerr=[p["suboptimality_se"] for p in points], marker=markers.get(method, "."),
                    label=label, capsize=2, linestyle="--" if method.endswith(", once") else "-")
        for k, p in enumerate(points):   # neighbours' labels on alternate sides, so close points' labels part
            ax.annotate(str(p["setting"]), (p["expansions_per_action"], p["suboptimality"]), fontsize=7,
                        xytext=(4, 3) if k % 2 == 0 else (-4, -9), ha="left" if k % 2 == 0 else "right",
                        textcoords="offset points")
    ax.set_xscale("log")
    ax.set_xlabel("mean states expanded per action (log)")
    ax.set_ylabel("sub-optimality (cost / optimal cost)")
    ax.set_title(title)
    ax.grid(which="both", alpha=0.3)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0)   # beside, off the curves
    return ax


def _bracket_expansions(points: Sequence[dict], quality: float) -> tuple[float, dict, dict] | None:
    ordered = sorted(points, key=lambda r: r["expansions_per_action"])
    for a, b in zip(ordered, ordered[1:]):
        low, high = sorted((a["suboptimality"], b["suboptimality"]))
        if low <= quality <= high and a["suboptimality"] != b["suboptimality"]:
            t = (quality - a["suboptimality"]) / (b["suboptimality"] - a["suboptimality"])
            return float(np.exp(np.log(a["expansions_per_action"]) * (1 - t) + np.log(b["expansions_per_action"]) * t)), a, b
    return None


def _bracket_quality(points: Sequence[dict], expansions: float) -> tuple[float, dict, dict] | None:
    ordered = sorted(points, key=lambda r: r["expansions_per_action"])
    for a, b in zip(ordered, ordered[1:]):
        if a["expansions_per_action"] <= expansions <= b["expansions_per_action"]:
            t = np.log(expansions / a["expansions_per_action"]) / np.log(b["expansions_per_action"] / a["expansions_per_action"])
            return float(a["suboptimality"] * (1 - t) + b["suboptimality"] * t), a, b
    return None


def interpolate_expansions(points: Sequence[dict], quality: float) -> float | None:
    """Expansions per action the fixed-depth curve needs to reach ``quality`` (piecewise-linear in log x)."""
    found = _bracket_expansions(points, quality)
    return found[0] if found else None


def interpolate_quality(points: Sequence[dict], expansions: float) -> float | None:
    """Sub-optimality of the fixed-depth curve at ``expansions`` per action (linear in log x)."""
    found = _bracket_quality(points, expansions)
    return found[0] if found else None


#: A setting takes part in the headline checks only if it solved at least this share of its problems
#: (an unsolved run's sub-optimality is only a lower bound); so does a fixed depth of the curve.
RELIABLE = 0.9


def reliable(row: dict) -> bool:
    """Does the summary row's setting take part in the headline checks (it solved at least :data:`RELIABLE` of
    its problems)?
    """
    return row["reached"] >= RELIABLE * row["problems"]


def _solved(row: dict) -> str:
    return f"{row['reached']}/{row['problems']} ({row['reached'] / row['problems']:.0%})"


def headline_numbers(summary: Sequence[dict]) -> list[dict]:
    """For each dynamic setting, against the fixed-depth curve:

    * ``work_ratio``: the expansions per action fixed depth needs for this setting's sub-optimality,
      divided by this setting's ("the same quality with nine times less computation");
    * ``cost_ratio``: fixed depth's sub-optimality at this setting's expansions per action divided by
      this setting's, that is the ratio of solution costs (the paper's "four times shorter
      solutions");
    * ``excess_ratio``: the same with the excess sub-optimality (sub-optimality − 1) of each.

    A ratio *counts* for the verdicts when the setting and the fixed depths it is read between each
    solved at least ``RELIABLE`` of their problems. Otherwise it is still given, read off the curve
    of every fixed depth, and ``note`` says which solved share kept it out (empty: it counts).
    """
    every = [r for r in summary if r["method"] == "fixed"]
    trusted = [r for r in every if reliable(r)]
    result = []
    for row in summary:
        if row["method"] == "fixed":
            continue
        notes = [] if reliable(row) else [f"solved {_solved(row)}"]
        ratios: dict[str, float | bool | None] = {"work_ratio": None, "cost_ratio": None, "excess_ratio": None}
        for kind, bracket, value in (("work", _bracket_expansions, row["suboptimality"]),
                                     ("quality", _bracket_quality, row["expansions_per_action"])):
            found = bracket(trusted, value) if reliable(row) else None
            counted = found is not None
            found = found or bracket(every, value)
            if found is None:
                continue
            level, a, b = found
            if not counted:
                notes += [f"fixed {r['setting']} solved {_solved(r)}" for r in (a, b)
                          if not reliable(r) and f"fixed {r['setting']} solved {_solved(r)}" not in notes]
            if kind == "work":
                ratios["work_ratio"] = level / row["expansions_per_action"]
            else:
                ratios["cost_ratio"] = level / row["suboptimality"]
                ratios["excess_ratio"] = (level - 1) / (row["suboptimality"] - 1) if row["suboptimality"] > 1 else None
            ratios[f"{kind}_counts"] = counted
        result.append({**row, **ratios, "work_counts": ratios.get("work_counts", False),
                       "quality_counts": ratios.get("quality_counts", False), "note": "; ".join(notes)})
    return result


def write_figures(summary: Sequence[dict], out: Path, suffix: str = "", where: str = "") -> list[Path]:
    """Figures 5 and 6 from the summary into ``out``; returns their paths."""
    from reference.experiments.plots import save_figure

    paths = []
    for stem, methods, title in (
        ("figure5", ("fixed", "tree, same maps", "tree, 10-fold", "tree", "tree, retrained", "oracle", "pdb G"),
         "Figure 5: margins for improvement over fixed depth"),
        ("figure6", ("fixed", "pdb G", "pdb G+I", "pdb I", "pdb G+I, once", "pdb I, once"),
         "Figure 6: effects of dynamic goal selection"),
    ):
        ax = plot_tradeoff(summary, methods, title + where)
        paths.append(save_figure(ax.figure, out / f"{stem}{suffix}.png"))
    return paths


def compare(out: Path, movingai: Path, study: Study, scaling: Study | None = None, progress: bool = True,
            log: Callable[[str], None] = print, *, jobs: int = 1, scheduler: str | None = None,
            store: str | Path | None = None) -> list[Path]:
    """Run the study (and the scaled-up one), write CSVs, tables, figures and findings.md into ``out``.

    ``ftr dynamic compare`` calls it.

    Parameters
    ----------
    out : Path
        The report folder (created if missing). Rows of the study's parts not run now are kept
        from the ``runs.csv`` already there.
    movingai : Path
        The MovingAI folder holding the study's maps (:data:`STUDY_MAPS`).
    study : Study
        The settings: maps, problems, depths, levels, parts, engine.
    scaling : Study, optional
        The scaled-up study (Figure 7) to run after it.
    progress : bool
        Show progress bars.
    log : callable
        Where progress lines go.
    jobs, scheduler, store
        Who runs the tasks and where finished ones are kept (:func:`run_study`,
        :func:`reference.experiments.tasks.run_tasks`): any of them gives the same files.

    Returns
    -------
    list of Path
        The files written.

    Raises
    ------
    reference.world.maps.MapFormatError
        A map of the study missing under ``movingai``, or not a MovingAI map.

    See Also
    --------
    run_study : the runs alone.
    replot : the report again from the CSVs, without runs.
    reference.solutions.dynamic.lrta.general_lrta : the readable planner (``Study.engine="python"``).
    reference.solutions.compiled.dynamic : its twins (``Study.engine="compiled"``, the default).
    """
    out.mkdir(parents=True, exist_ok=True)
    began = time.time()
    rows, databases, trees = run_study(movingai, study, progress, log, jobs=jobs, scheduler=scheduler, store=store)
    rows, databases = keep_other_parts(out, "runs.csv", "table2.csv", study, rows, databases)
    if "trees" in study.parts:
        write_csv([t for t in trees if "protocol" not in t], out / "trees.csv")
    if "cv" in study.parts:
        write_csv([t for t in trees if "protocol" in t], out / "trees_cv.csv")
    write_runs_csv(rows, out / "runs.csv")
    write_csv(databases, out / "table2.csv")
    written = report(out, study, rows, databases, time.time() - began)
    if scaling is not None:
        written += compare_scaling(out, movingai, scaling, progress, log, jobs=jobs, scheduler=scheduler, store=store)
    return written


def report(out: Path, study: Study, rows: Sequence[dict], databases: Sequence[dict], seconds: float | None) -> list[Path]:
    """summary.csv, Figures 5 and 6 and findings.md from the runs (``ftr dynamic compare --replot`` too)."""
    from reference.world.fileio import atomic_write_text

    summary = summarise(rows)
    write_csv(summary, out / "summary.csv")
    written = write_figures(summary, out, where=f" ({len(study.maps)} maps x {study.problems} problems)")
    trees = {name: read_csv(out / name) if (out / name).is_file() else [] for name in ("trees.csv", "trees_cv.csv")}
    atomic_write_text(out / "findings.md", findings(study, summary, list(databases), seconds, rows)
                      + tree_protocols(summary, trees["trees_cv.csv"], trees["trees.csv"]))
    return written + [out / "findings.md"]


def replot(out: Path) -> list[Path]:
    """Rebuild the summary, figures and findings from ``out``/runs.csv and table2.csv (no new runs)."""
    read = read_csv
    rows = read(out / "runs.csv")
    databases = read(out / "table2.csv") if (out / "table2.csv").is_file() else []
    maps = tuple(dict.fromkeys(r["map"] for r in rows))
    study = Study(maps=maps, problems=max(r["problem"] for r in rows) + 1)
    written = report(out, study, rows, databases, None)
    if runs_file(out / "runs_512.csv").is_file():
        scaled = read(out / "runs_512.csv")
        scaled_databases = read(out / "table2_512.csv") if (out / "table2_512.csv").is_file() else []
        scaling = Study(maps=tuple(dict.fromkeys(r["map"] for r in scaled)), problems=max(r["problem"] for r in scaled) + 1,
                        cost_range=SCALING_COST_RANGE, cap=SCALING_CAP)
        written += scaling_report(out, scaling, scaled, scaled_databases, None)
    return written   # Figure 8's report is dynamic_figure8's (it imports this module, not the other way)


def read_csv(path: Path) -> list[dict]:
    """A CSV this module wrote; ``runs.csv`` is read from ``runs.csv.gz`` when that is where it went."""
    path = runs_file(path)
    with open_runs(path) as handle:
        return [{k: _parse(v) for k, v in row.items()} for row in csv.DictReader(handle)]


def keep_other_parts(out: Path, runs_name: str, table_name: str, study: Study, rows: list[dict],
                     databases: list[dict]) -> tuple[list[dict], list[dict]]:
    """Add the rows of the parts this run left out (``study.parts``) from the last run in ``out``,
    the pattern-database rows of the levels it did not run, and the Table 2 rows of the levels it
    did not build; the old rows come first, as they were."""
    if set(study.parts) >= set(PARTS) or not runs_file(out / runs_name).is_file():
        return rows, databases
    kept = [row | {column: row.get(column, "") for column in CAP_COLUMNS} for row in read_csv(out / runs_name)
            if part_of(row["method"]) not in study.parts
            or (part_of(row["method"]) == "pdb" and row["setting"] not in study.levels)]
    built = {(d["map"], d["level"]) for d in databases}
    old_tables = read_csv(out / table_name) if (out / table_name).is_file() else []
    return kept + rows, [d for d in old_tables if (d["map"], d["level"]) not in built] + databases


def _parse(text: str):
    if text in ("True", "False"):
        return text == "True"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def compare_scaling(out: Path, movingai: Path, scaling: Study, progress: bool = True,
                    log: Callable[[str], None] = print, *, jobs: int = 1, scheduler: str | None = None,
                    store: str | Path | None = None) -> list[Path]:
    """Only the scaling run (Figure 7 and its Table 2 rows), into ``out``/scaling.md and figure7.png;
    ``jobs``, ``scheduler``, ``store``: as :func:`compare`'s."""
    out.mkdir(parents=True, exist_ok=True)
    began = time.time()
    rows, databases, trees = run_study(movingai, scaling, progress, log, jobs=jobs, scheduler=scheduler, store=store)
    rows, databases = keep_other_parts(out, "runs_512.csv", "table2_512.csv", scaling, rows, databases)
    # The counted-only rows of an earlier run go; the levels below the lowest built are counted anew.
    databases = [d for d in databases if is_built(d)]
    for name in scaling.maps:
        databases += unbuilt_levels(load_map(movingai, name), name, databases)
    if "cv" in scaling.parts:
        write_csv(trees, out / "trees_cv_512.csv")
    write_runs_csv(rows, out / "runs_512.csv")
    write_csv(databases, out / "table2_512.csv")
    return scaling_report(out, scaling, rows, databases, time.time() - began)


def is_built(database: dict) -> bool:
    """Whether a Table 2 row was built (it has a build time) or only counted (:func:`unbuilt_levels`)."""
    return database.get("seconds") not in (None, "")


def unbuilt_levels(blocked: np.ndarray, name: str, databases: Sequence[dict]) -> list[dict]:
    """Table 2 rows, regions and size only, for the levels below the lowest one built on map ``name``.

    On its 512 x 512 map the paper, too, built levels 3-7 only and estimated levels 0-2 ("prohibitively
    expensive"); :func:`table2_beside_paper` estimates these rows' build times from the built ones.
    Counting the regions costs one clique abstraction (seconds), not a database.
    """
    from reference.solutions.dynamic.abstraction import clique_hierarchy

    built = [d["level"] for d in databases if d["map"] == name and is_built(d)]
    if not built or min(built) == 0:
        return []
    hierarchy = clique_hierarchy(Neighbours(blocked), min(built) - 1)
    return [{"map": name, "level": level, "regions": len(hierarchy.levels[level].members),
             "size": len(hierarchy.levels[level].members) ** 2} for level in range(min(built))]


def build_time_law(databases: Sequence[dict]) -> tuple[float, float] | None:
    """``(a, b)`` of ``seconds = a * regions + b * regions ** 2``, fitted to the built levels.

    The build runs one Dijkstra over the whole map per goal region (the ``a`` term) and one
    optimal-depth search per pair of regions (the ``b`` term). Least squares on relative errors (each
    level's equation divided by its seconds), so the small levels count as much as the large ones.

    >>> a, b = build_time_law([{"regions": 10, "seconds": 2.0}, {"regions": 100, "seconds": 110.0}])
    >>> round(a, 6), round(b, 6)
    (0.1, 0.01)
    """
    built = [(d["regions"], d.get("seconds_all_columns") or d["seconds"]) for d in databases if is_built(d)]
    if len(built) < 2:
        return None
    regions, seconds = np.array(built, dtype=float).T
    terms = np.column_stack([regions, regions ** 2]) / seconds[:, None]
    (a, b), *_ = np.linalg.lstsq(terms, np.ones(len(built)), rcond=None)
    return float(a), float(b)


def duration(seconds: float) -> str:
    """A build time in the unit a reader would use, as the paper's Table 2 gives them.

    >>> duration(50), duration(3000), duration(56_000), duration(1_300_000)
    ('50 s', '50 min', '15.6 hours', '15 days')
    """
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 2 * 3600:
        return f"{seconds / 60:.0f} min"
    if seconds < 2 * 86400:
        return f"{seconds / 3600:.1f} hours"
    return f"{seconds / 86400:.0f} days"


#: The paper's Table 2 (pattern databases for a 512 x 512 map) by abstraction level: stored
#: (depth, intermediate goal) entries, build time as printed (``est.`` where it did not build the
#: level), and the resulting LRTA*'s sub-optimality and states expanded per action.
PAPER_TABLE2_512 = {0: (1.1e10, "est. 1 year", None, None), 1: (7.4e8, "est. 1 month", None, None),
                    2: (5.9e7, "est. 4 days", None, None), 3: (6.1e6, "19 hours", 1.09, 5),
                    4: (8.6e5, "5 hours", 1.11, 16), 5: (1.5e5, "2 hours", 1.65, 111),
                    6: (3.1e4, "50 min", 1.99, 253), 7: (6.4e3, "20 min", 3.12, 529)}


def table2_beside_paper(databases: Sequence[dict], summary: Sequence[dict],
                        methods: Sequence[str] = ("pdb I", "pdb I, once")) -> str:
    """The paper's Table 2 beside the kit's, level by level: the pattern databases' sizes, build times
    (``est.``: a level not built, its time from :func:`build_time_law`, as the paper estimated its
    levels 0-2) and each of ``methods``' sub-optimality (solved share) and expansions per action.
    ``databases``: the Table 2 rows of one map (the scaling run has one)."""
    law = build_time_law(databases)
    point = {(row["method"], row["setting"]): row for row in summary}
    by_level = {d["level"]: d for d in databases}
    rows = []
    for level in sorted(set(by_level) | set(PAPER_TABLE2_512)):
        ours = by_level.get(level, {})
        paper_size, paper_time, paper_suboptimality, paper_expansions = PAPER_TABLE2_512.get(level, (None,) * 4)
        if not ours:
            time_text = None
        elif is_built(ours):
            time_text = duration(ours["seconds"])
        else:
            time_text = None if law is None else "est. " + duration(law[0] * ours["regions"] + law[1] * ours["regions"] ** 2)
        row = {"level": level, "regions": ours.get("regions"),
               "size": f"{ours['size']:.1e}" if ours else None, "time": time_text}
        for method in methods:
            run = point.get((method, level))
            row[f"{method}: sub-optimality (solved)"] = (
                None if run is None else f"{run['suboptimality']:.2f} ({run['reached']}/{run['problems']})")
            row[f"{method}: expansions"] = None if run is None else f"{run['expansions_per_action']:.1f}"
        rows.append(row | {"paper: size": None if paper_size is None else f"{paper_size:.1e}", "paper: time": paper_time,
                           "paper: sub-optimality": paper_suboptimality, "paper: expansions": paper_expansions})
    law_text = "" if law is None else (f" `est.`: not built; the time fitted to the built levels' times, "
                                       f"{law[0]:.3g} s x regions + {law[1]:.3g} s x regions² (one Dijkstra per goal "
                                       "region, one depth search per pair).")
    return (markdown_table(rows) + "\n`size`: stored pairs (regions²); `time`: processor time to build, compiled;"
            f"{law_text} Sub-optimality and expansions per action where the level ran (an unsolved run counts with "
            "the cost it had run up). The paper's columns are its Table 2; its `est.` rows are its own estimates, "
            "and it does not say which goal selection its last two columns used.\n\n")


def _best(heads: Sequence[dict], methods: Sequence[str], key: str) -> dict | None:
    """The setting of ``methods`` with the largest counted ratio ``key``."""
    counts = "work_counts" if key == "work_ratio" else "quality_counts"
    return max((h for h in heads if h["method"] in methods and h[key] and h[counts]), key=lambda h: h[key],
               default=None)


def _setting(row: dict) -> str:
    return f"{row['method']} {row['setting']} (sub-optimality {row['suboptimality']:.3f} at " \
           f"{row['expansions_per_action']:.1f} expansions per action)"


#: The intermediate-goal methods of each goal rule (G is the same under both).
RULE_METHODS = {"paper": ("pdb G+I", "pdb I"), "once": ("pdb G+I, once", "pdb I, once")}
RULE_NAMES = {"paper": "the paper's goal rule (the goal re-selected at every action)",
              "once": "the kit's goal rule (an intermediate goal kept until reached, each at most once)"}


def under_rule(rows: Sequence[dict], rule: str) -> list[dict]:
    """The rows of every method but the other goal rule's intermediate-goal methods."""
    other = RULE_METHODS["once" if rule == "paper" else "paper"]
    return [r for r in rows if r["method"] not in other]


def bootstrap_ratio(rows: Sequence[dict], head: dict, key: str, resamples: int = 400, seed: int = 0,
                    every_fixed: bool = False) -> tuple | None:
    """A 95% percentile interval for ``head``'s ratio ``key`` (work_ratio, cost_ratio, excess_ratio):
    the problems (map, problem) are resampled with replacement, the same sample for every setting
    (the runs are paired), and the ratio is read again off the fixed depths that counted (with
    ``every_fixed``, off every fixed depth, as a ratio that is only a bound is read)."""
    keys = sorted({(r["map"], r["problem"]) for r in rows})
    index = {k: i for i, k in enumerate(keys)}
    by_setting: dict[tuple, list[dict]] = {}   # one pass over the rows, not one per setting
    for r in rows:
        by_setting.setdefault((r["method"], r["setting"]), []).append(r)

    def arrays(method, setting):
        sub, exp = np.full(len(keys), np.nan), np.full(len(keys), np.nan)
        for r in by_setting.get((method, setting), ()):
            sub[index[r["map"], r["problem"]]] = r["suboptimality"]
            exp[index[r["map"], r["problem"]]] = r["expansions_per_action"]
        return sub, exp

    fixed_settings = sorted({r["setting"] for r in summarise([r for r in rows if r["method"] == "fixed"])
                             if reliable(r) or every_fixed})
    fixed = {d: arrays("fixed", d) for d in fixed_settings}
    target = arrays(head["method"], head["setting"])
    rng = np.random.default_rng(seed)
    # The resamples are drawn one by one (the same picks as one draw per resample always gave), then
    # every setting's means over all of them in one call each: this runs for every setting judged
    # (judged_ratio), and a call per resample and setting made a report's findings take minutes.
    picks = np.array([rng.integers(len(keys), size=len(keys)) for _ in range(resamples)])
    curves = [(np.nanmean(sub[picks], axis=1), np.nanmean(exp[picks], axis=1)) for sub, exp in fixed.values()]
    qualities, works = np.nanmean(target[0][picks], axis=1), np.nanmean(target[1][picks], axis=1)
    values = []
    for i in range(resamples):
        curve = [{"suboptimality": float(sub[i]), "expansions_per_action": float(exp[i])} for sub, exp in curves]
        quality, work = float(qualities[i]), float(works[i])
        if key == "work_ratio":
            found = _bracket_expansions(curve, quality)
            value = found[0] / work if found else None
        else:
            found = _bracket_quality(curve, work)
            value = None if not found else found[0] / quality if key == "cost_ratio" else (
                (found[0] - 1) / (quality - 1) if quality > 1 else None)
        values.append(value)
    inside = [v for v in values if v is not None]
    if len(inside) < resamples / 2:
        return None
    return float(np.percentile(inside, 2.5)), float(np.percentile(inside, 97.5)), len(inside) / resamples


def _interval(rows: Sequence[dict], head: dict, key: str) -> str:
    found = bootstrap_ratio(rows, head, key) if rows else None
    if found is None:
        return ""
    low, high, share = found
    outside = "" if share == 1 else f"; {1 - share:.0%} of the resamples fall outside the curve"
    return f", 95% interval {low:.1f}-{high:.1f}x (bootstrap over the {head['problems']} problems{outside})"


def solved_all(row: dict) -> bool:
    """Did the summary row's setting solve every one of its problems?"""
    return row["reached"] == row["problems"]


def judged_ratio(rows: Sequence[dict], head: dict, key: str, factor: float) -> dict | None:
    """``head``'s ratio ``key`` (work_ratio or cost_ratio) judged against the claimed ``factor`` by
    the kit's rule (:func:`reference.experiments.report.verdict`, docs/verdicts.md).

    Fixed depth's unsolved runs make its sub-optimality a lower bound: the true curve lies higher,
    so against a setting that solved *every* problem both ratios can only be larger than read, and
    the ratio is judged as a lower bound (read off every fixed depth when one of them solved fewer
    than 90%). A setting with unsolved runs of its own has no such direction: its ratio is judged
    as measured if it and the fixed depths it is read between solved at least 90% (the kit's
    approximation), and not judged otherwise (None).
    """
    counted = head["work_counts" if key == "work_ratio" else "quality_counts"]
    if not head.get(key) or not (counted or solved_all(head)):
        return None
    bound = "lower" if solved_all(head) else None
    found = bootstrap_ratio(rows, head, key, every_fixed=not counted) if rows else None
    low, high = (found[0], found[1]) if found else (head[key], head[key])
    return {"head": head, "value": head[key], "low": low, "high": high, "bound": bound,
            "how": "read off the curve" if counted else "read off every fixed depth (one solved under 90%)",
            "verdict": verdict(low, high, above=factor, bound=bound)}


def dominance_bounds(summary: Sequence[dict], rows: Sequence[dict], methods: Sequence[str],
                     factor: float) -> list[dict]:
    """Settings of ``methods`` beyond the fixed-depth curve: they solved every problem with a
    sub-optimality whose 95% interval lies below every fixed depth's. Fixed depth would need more
    expansions than its best (lowest sub-optimality) depth to match them, so the best depth's
    expansions per action over the setting's is a lower bound on the work ratio, judged as one
    against ``factor`` (interval: bootstrap over the problems, paired)."""
    fixed = [r for r in summary if r["method"] == "fixed"]
    if not fixed:
        return []
    best_fixed = min(fixed, key=lambda r: r["suboptimality"])
    found = []
    for row in summary:
        if (row["method"] in methods and solved_all(row)
                and row["suboptimality"] + 1.96 * row["suboptimality_se"] < best_fixed["suboptimality"]):
            value = best_fixed["expansions_per_action"] / row["expansions_per_action"]
            low, high = _paired_ratio_interval(rows, best_fixed, row) if rows else (value, value)
            found.append({"head": row, "value": value, "low": low, "high": high, "bound": "lower",
                          "how": f"beyond the curve, against the best fixed depth, {best_fixed['setting']} "
                                 f"({best_fixed['suboptimality']:.2f} at {best_fixed['expansions_per_action']:.0f})",
                          "verdict": verdict(low, high, above=factor, bound="lower")})
    return found


def _paired_ratio_interval(rows: Sequence[dict], numerator: dict, denominator: dict, resamples: int = 400,
                           seed: int = 0) -> tuple[float, float]:
    """95% bootstrap interval of the mean expansions per action of ``numerator``'s setting over
    ``denominator``'s, the problems resampled together (the runs are paired)."""
    def per_problem(row: dict) -> dict:
        return {(r["map"], r["problem"]): r["expansions_per_action"] for r in rows
                if r["method"] == row["method"] and r["setting"] == row["setting"]}

    top, bottom = per_problem(numerator), per_problem(denominator)
    keys = sorted(set(top) & set(bottom))
    a, b = np.array([top[k] for k in keys]), np.array([bottom[k] for k in keys])
    picks = np.random.default_rng(seed).integers(len(keys), size=(resamples, len(keys)))
    ratios = a[picks].mean(axis=1) / b[picks].mean(axis=1)
    return float(np.percentile(ratios, 2.5)), float(np.percentile(ratios, 97.5))


def _judged(entry: dict) -> str:
    """One judged ratio in words: setting, value ("at least" for a bound), interval, how, verdict."""
    at_least = "at least " if entry["bound"] == "lower" else ""
    return (f"{_setting(entry['head'])}, solved {_solved(entry['head'])}: {at_least}{entry['value']:.2f}x, 95% "
            f"interval {entry['low']:.1f}-{entry['high']:.1f}x, {entry['how']}: {entry['verdict']}")


def some_setting_reaches(claim: str, judged: Sequence[dict]) -> Finding:
    """A claim that some setting reaches a factor: its verdict by
    :func:`reference.experiments.report.for_some` over the ``judged`` settings, the (at most two)
    largest that decide it, and the largest with another verdict."""
    if not judged:
        return Finding(claim, NOT_MEASURED, "no setting with a ratio that can be judged")
    overall = for_some([j["verdict"] for j in judged])
    by_value = sorted(judged, key=lambda j: -j["value"])
    deciding = [j for j in by_value if j["verdict"] == overall]
    others = [j for j in by_value if j["verdict"] != overall]
    more = len(deciding) - 2
    tail = f"; {more} more setting{'s' if more > 1 else ''}: {overall}" if more > 0 else ""
    return Finding(claim, overall, f"{len(judged)} setting{'' if len(judged) == 1 else 's'} judged. "
                   + "; ".join(_judged(j) for j in deciding[:2] + others[:1]) + tail)


#: The abstract's two claims: (ratio key, claim, the paper's factor).
RATIO_CLAIMS = (
    ("work_ratio", "*The same quality as fixed-depth LRTA* with nine times less computation* (paper: 9x)", 9),
    ("cost_ratio", "*The same amount of computation, four times better quality*: \"four times shorter solutions\", "
     "fixed depth's solution cost over the setting's at the same expansions per action (paper: 4x)", 4),
)


def ratio_headlines(heads: Sequence[dict], rows: Sequence[dict], summary: Sequence[dict] = ()) -> str:
    """The abstract's two claims (:data:`RATIO_CLAIMS`), on the paper's measures, judged over every
    setting (:func:`judged_ratio`; the work claim also over the settings beyond the curve,
    :func:`dominance_bounds`); with excess sub-optimality (not the paper's measure) beside the second."""
    methods = sorted({h["method"] for h in heads})
    found = []
    for key, claim, factor in RATIO_CLAIMS:
        judged = [j for h in heads if (j := judged_ratio(rows, h, key, factor)) is not None]
        if key == "work_ratio":
            judged += dominance_bounds(summary, rows, methods, factor)
        found.append(some_setting_reaches(claim, judged))
    excess = _best(heads, methods, "excess_ratio")
    if not excess:
        return findings_list(found)
    return findings_list(found) + (
        f"  - Beside it, on another measure (excess sub-optimality, sub-optimality − 1; not the paper's): "
        f"{excess['excess_ratio']:.1f}x ({_setting(excess)}{_interval(rows, excess, 'excess_ratio')}); "
        f"{'at least' if excess['excess_ratio'] >= 4 else 'below'} 4x on this measure.\n")


def goal_headline(heads: Sequence[dict], claim: str, summary: Sequence[dict] = (),
                  methods: Sequence[str] = RULE_METHODS["paper"], rows: Sequence[dict] = ()) -> str:
    """"Intermediate goals expand an order of magnitude fewer states than fixed depth of similar
    sub-optimality" (Figures 6 and 7), for the intermediate-goal ``methods``: judged as the work
    claim of :func:`ratio_headlines` with the factor 10, over the settings of ``methods`` read off
    the curve and those beyond it (a lower bound)."""
    judged = [j for h in heads if h["method"] in methods and (j := judged_ratio(rows, h, "work_ratio", 10)) is not None]
    judged += dominance_bounds(summary, rows, methods, 10)
    return findings_list([some_setting_reaches(f"*{claim}* (paper: 10x)", judged)])


def cap_shares(rows: Sequence[dict]) -> list[dict]:
    """Per (method, level) of the pattern-database runs: the share of actions whose stored depth
    toward the global goal exceeds the cap, and the share of the actions toward an intermediate
    goal whose stored depth toward it does (:func:`capped_actions`); with 95% intervals from a
    bootstrap over the runs (an action's neighbours are not independent, its run's are)."""
    groups: dict[tuple, list[dict]] = {}
    for row in rows:
        if str(row["method"]).startswith("pdb") and row.get("actions") not in ("", None):
            groups.setdefault((row["method"], row["setting"]), []).append(row)
    table = []
    for (method, level), members in sorted(groups.items(), key=lambda item: (item[0][1], item[0][0])):
        # Each group draws from its own seed, so adding a level or a method leaves the others' intervals as they were.
        rng = np.random.default_rng([int(level), zlib.crc32(str(method).encode())])
        counts = np.array([[r["actions"], r["capped_global_actions"], r["intermediate_actions"],
                            r["capped_intermediate_actions"]] for r in members], dtype=float)
        picks = rng.integers(len(members), size=(400, len(members)))
        entry = {"method": method, "level": level, "runs": len(members), "reached": sum(bool(r["reached"]) for r in members),
                 "actions": int(counts[:, 0].sum())}
        for name, part, whole in (("global", 1, 0), ("intermediate", 3, 2)):
            total = counts[:, whole].sum()
            entry[f"capped_{name}"] = counts[:, part].sum() / total if total else None
            if total:
                shares = counts[picks, part].sum(axis=1) / np.maximum(counts[picks, whole].sum(axis=1), 1)
                entry[f"capped_{name}_interval"] = f"{np.percentile(shares, 2.5):.3f}-{np.percentile(shares, 97.5):.3f}"
            else:
                entry[f"capped_{name}_interval"] = None
        entry["intermediate_actions"] = int(counts[:, 2].sum())
        solved = counts[[bool(r["reached"]) for r in members]]
        entry["capped_global_solved"] = solved[:, 1].sum() / solved[:, 0].sum() if solved[:, 0].sum() else None
        table.append(entry)
    return table


CAP_TABLE_COLUMNS = ["method", "level", "runs", "reached", "actions", "capped_global", "capped_global_interval",
                     "capped_global_solved",
                     "intermediate_actions", "capped_intermediate", "capped_intermediate_interval"]


def _percent_interval(text: str | None) -> str:
    """``"0.359-0.619"`` as ``"35.9-61.9%"``."""
    if not text:
        return "–"
    low, high = (float(v) for v in text.split("-"))
    return f"{100 * low:.1f}-{100 * high:.1f}%"


def _share(shares: Sequence[dict], method: str, level: int) -> dict | None:
    return next((s for s in shares if s["method"] == method and s["level"] == level), None)


def cap_about_ten_percent(shares: Sequence[dict], level: int, cap: int) -> Finding | None:
    """"Pattern database LRTA* (level 5) reaches the cap of 30 about 10% of the time with global
    goal", per action of the pdb G runs: "about 10%" taken as 5-20%, judged by the kit's rule on
    the share's 95% interval (:func:`cap_shares`)."""
    glob = _share(shares, "pdb G", level)
    if glob is None:
        return None
    low, high = (float(v) for v in glob["capped_global_interval"].split("-")) if glob["capped_global_interval"] else (
        glob["capped_global"], glob["capped_global"])
    return Finding(
        f"*At level {level} (cap {cap}) the global goal reaches the cap about 10% of the time* (per action; paper: "
        "about 10%, taken as 5-20%)", verdict(low, high, above=0.05, below=0.2),
        f"kit: {glob['capped_global']:.1%} of the {glob['actions']:,} actions of the pdb G runs, {glob['runs']} runs "
        f"({glob['reached']} solved), 95% interval {_percent_interval(glob['capped_global_interval'])}; over the "
        f"solved runs' actions only {glob['capped_global_solved']:.1%}")


def never_capped_toward_local_goals(shares: Sequence[dict], level: int, method: str) -> Finding | None:
    """"... and never with local goals": no action of ``method`` toward an intermediate goal finds
    its stored depth beyond the cap (an exact count)."""
    local = _share(shares, method, level)
    if local is None or not local["intermediate_actions"]:
        return None
    share = local["capped_intermediate"]
    return Finding(
        f"*... and never with local goals* ({method}; paper: never)", share == 0,
        f"kit: {share:.2%} of {local['intermediate_actions']:,} actions toward intermediate goals in "
        f"{local['runs']} runs, 95% interval {_percent_interval(local['capped_intermediate_interval'])}",
        because=f"{share:.2%} of them do")


def cap_claims(shares: Sequence[dict], level: int, cap: int) -> list[Finding]:
    """The paper's claims about the cap at ``level``: the global goal's share, then each intermediate-goal
    method's (both goal rules); none when the pdb G runs did not run at that level."""
    if _share(shares, "pdb G", level) is None:
        return []
    return check([partial(cap_about_ten_percent, level=level, cap=cap),
                  *(partial(never_capped_toward_local_goals, level=level, method=method)
                    for method in (*RULE_METHODS["paper"], *RULE_METHODS["once"]))], shares)


def left_out(heads: Sequence[dict]) -> str:
    """The settings whose ratios the 90% rule keeps out of the verdicts, with their solved shares."""
    rows = [h for h in heads if h["note"] and (h["work_ratio"] or h["cost_ratio"])]
    if not rows:
        return ""
    return ("\n## Ratios the 90% rule keeps out of the verdicts\n\n"
            f"These settings, or the fixed depths their ratio is read between, solved fewer than {RELIABLE:.0%} of "
            "their problems (an unsolved run's sub-optimality is a lower bound), so their ratios are not read as "
            "measured. Their ratios against every fixed depth are below. Where the setting itself solved every problem "
            "and only a fixed depth fell short (the rows whose note names a fixed depth alone), the ratio is a "
            "*lower bound* (the true curve lies higher, which can only raise it), and the headlines above judge it as "
            "one, so such a setting can support a claim. A setting with unsolved runs of its own is not judged at all (its ratio has no known direction).\n\n"
            + markdown_table(sorted(rows, key=lambda r: (r["method"], r["setting"])),
                             ["method", "setting", "reached", "problems", "suboptimality", "expansions_per_action",
                              "work_ratio", "cost_ratio", "excess_ratio", "note"]))


def _every_setting(summary: Sequence[dict], heads: Sequence[dict]) -> str:
    """Every setting with its interval and its counted ratios (the uncounted ones: :func:`left_out`)."""
    merged = {(h["method"], h["setting"]): h for h in heads}
    shown = []
    for row in sorted(summary, key=lambda r: (r["method"], r["setting"])):
        head = merged.get((row["method"], row["setting"]), {})
        counted = {"work_ratio": head.get("work_counts"), "cost_ratio": head.get("quality_counts"),
                   "excess_ratio": head.get("quality_counts")}
        shown.append({**row, "suboptimality_ci": f"±{1.96 * row['suboptimality_se']:.2f}",
                      **{key: head.get(key) if counted[key] else None for key in counted}})
    return markdown_table(shown, ["method", "setting", "problems", "reached", "suboptimality", "suboptimality_ci",
                                  "expansions_per_action", "max_expansions_per_action", "work_ratio", "cost_ratio",
                                  "excess_ratio"])


RATIO_LEGEND = ("\n`suboptimality_ci`: half-width of the 95% interval of the mean (1.96 standard errors). `work_ratio`: "
                "expansions per action fixed-depth LRTA* needs for the same sub-optimality (interpolated along its "
                "curve, log scale), divided by this setting's; `cost_ratio`: fixed depth's sub-optimality at the same "
                "expansions per action divided by this setting's (the ratio of solution costs: the paper's \"four "
                "times shorter solutions\"); `excess_ratio`: the same with excess sub-optimality (sub-optimality − 1), "
                "not the paper's measure. Empty where the setting lies outside the fixed-depth curve, or where it or "
                "the fixed depths it lies between solved fewer than 90% of their problems (then see the table of "
                "left-out ratios).\n\n")


def scaling_report(out: Path, scaling: Study, rows: Sequence[dict], databases: Sequence[dict],
                   seconds: float | None) -> list[Path]:
    """The 512 x 512 scaling run's summary, Figure 7 and ``scaling.md`` into ``out``; returns the paths."""
    from reference.experiments.plots import save_figure
    from reference.world.fileio import atomic_write_text

    summary = summarise(rows)
    # Trees run on fewer problems than the rest (scaled down) are drawn and judged only beside fixed
    # depth on those same problems (figure7_trees.png), never against the other problems' means.
    tree_problems = {(r["map"], r["problem"]) for r in rows if r["method"] in CV_METHODS}
    unpaired = bool(tree_problems) and tree_problems != {(r["map"], r["problem"]) for r in rows}
    ax = plot_tradeoff(summary, ("fixed", *(() if unpaired else CV_METHODS), "pdb G", *RULE_METHODS["paper"],
                                 *RULE_METHODS["once"]),
                       f"Figure 7: 512 x 512 map ({scaling.problems} problems, cap {scaling.cap})")
    figure = save_figure(ax.figure, out / "figure7.png")
    paired = summarise([r for r in rows if (r["map"], r["problem"]) in tree_problems
                        and r["method"] in ("fixed", *CV_METHODS)]) if unpaired else summary
    trees_text = ""
    if unpaired:
        ax = plot_tradeoff(paired, ("fixed", *CV_METHODS), f"Figure 7, decision trees: the {len(tree_problems)} "
                                                           f"problems they ran (cap {scaling.cap})")
        save_figure(ax.figure, out / "figure7_trees.png")
        trees_text = (f"\n## Decision trees beside fixed depth on the {len(tree_problems)} problems they ran\n\n"
                      "![trees](figure7_trees.png)\n\n" + markdown_table(
                          sorted(paired, key=lambda r: (r["method"], r["setting"])),
                          ["method", "setting", "problems", "reached", "suboptimality", "expansions_per_action"]))
    heads = headline_numbers([r for r in summary if not (unpaired and r["method"] in CV_METHODS)])
    shares = cap_shares(rows)
    took = "" if seconds is None else f"; {seconds / 60:.1f} min wall-clock"
    text = ("# Scaling run (Figure 7; generated by `ftr dynamic compare --only-scaling`)\n\n"
            f"Map {', '.join(scaling.maps)}, {scaling.problems} problems with optimal cost "
            f"{scaling.cost_range[0]:g}-{scaling.cost_range[1]:g}, cap {scaling.cap}{took}. Unsolved runs "
            f"(stopped after {scaling.max_actions_factor} x the optimal cost in actions) count with the cost "
            f"run up by then. Methods: `pdb G+I`, `pdb I` use the paper's goal rule (re-selected at every action), "
            "`pdb G+I, once`, `pdb I, once` the kit's (kept until reached, each at most once).\n\n"
            + _every_setting(summary, heads) + RATIO_LEGEND
            + "## Table 2 beside the paper's (512 x 512)\n\n"
            + table2_beside_paper(databases, summary)
            + "## Table 2 rows (512 x 512)\n\n"
            + markdown_table(sorted((d for d in databases if is_built(d)), key=lambda d: d["level"]),
                             ["map", "level", "regions", "size", "seconds", "capped_pairs", "capped_intermediate"])
            + "\n`capped_pairs`, `capped_intermediate`: shares of pairs of connected regions (not of actions).\n\n"
            + "## The cap per action\n\n" + markdown_table(shares, CAP_TABLE_COLUMNS)
            + "\nShares of actions (`capped_global_solved`: over the solved runs' actions only); intervals: 95%, "
              "bootstrap over the runs.\n"
            + "\n## Headlines of the scaling run\n\n" + scaling_headlines(heads, databases, summary, shares, scaling.cap, rows)
            + left_out(heads)
            + trees_text
            + tree_protocols(paired, read_csv(out / "trees_cv_512.csv") if (out / "trees_cv_512.csv").is_file() else [],
                             where="the map"))
    atomic_write_text(out / "scaling.md", text)
    return [figure, *([out / "figure7_trees.png"] if unpaired else []), out / "scaling.md"]


def scaling_headlines(heads: Sequence[dict], databases: Sequence[dict], summary: Sequence[dict],
                      shares: Sequence[dict] = (), cap: int = SCALING_CAP, rows: Sequence[dict] = ()) -> str:
    """The scaling run's headline checks as Markdown list items (Figure 7's claims, the depth cap's share)."""
    text = ""
    for rule in GOAL_RULES:
        text += goal_headline(under_rule(heads, rule), "Intermediate goals, even at abstraction level 6, expand an "
                              "order of magnitude fewer states than fixed depth of similar sub-optimality (Figure 7; "
                              f"{RULE_NAMES[rule]})", under_rule(summary, rule), RULE_METHODS[rule], rows)
    text += findings_list(cap_claims(shares, 5, cap))
    level5 = [d for d in databases if d["level"] == 5]
    if level5:
        text += (f"- Beside it, per pair of connected regions (not the paper's measure): {level5[0]['capped_pairs']:.1%} "
                 f"toward the global goal, {level5[0]['capped_intermediate']:.1%} toward the intermediate goal.\n")
    return text


#: The paper's classification accuracy (correctly classified instances, 10-fold CV) by d_max.
PAPER_ACCURACY = {5: 0.72, 20: 0.44}


def tree_protocols(summary: Sequence[dict], same_maps: Sequence[dict], other_maps: Sequence[dict] = (),
                   where: str = "the three maps") -> str:
    """The decision trees under both protocols side by side, and the paper's accuracy claim.\n\n    ``same_maps``: ``trees_cv.csv`` rows (:mod:`reference.experiments.dynamic_trees`); ``other_maps``:\n    ``trees.csv`` rows (trained on the other maps, one per test map).\n    """
    d_maxes = sorted({r["setting"] for r in summary if r["method"] in (SAME_MAPS, HELD_OUT, "tree")})
    if not d_maxes:
        return ""
    point = {(r["method"], r["setting"]): r for r in summary}

    def shown(method, d_max):
        r = point.get((method, d_max))
        return "–" if r is None else (f"{r['suboptimality']:.2f} at {r['expansions_per_action']:.1f} "
                                      f"({r['reached']}/{r['problems']})")

    cv = {r["d_max"]: r for r in same_maps}
    other = {d: [r["cv_accuracy"] for r in other_maps if r["d_max"] == d] for d in d_maxes}
    table = [{"d_max": d, "same maps (paper)": shown(SAME_MAPS, d), "same maps, held out": shown(HELD_OUT, d),
              "other maps": shown("tree", d), "oracle": shown("oracle", d), "fixed depth d_max": shown("fixed", d),
              "CV accuracy, samples": cv[d]["cv_accuracy"] if d in cv else None,
              "CV accuracy, problems": cv[d]["grouped_cv_accuracy"] if d in cv else None,
              "CV accuracy, other maps": float(np.mean(other[d])) if other[d] else None} for d in d_maxes]
    text = ("\n## Decision trees: the paper's protocol and the generalisation study\n\n"
            "The paper trains its classifiers on the game maps it tests on, with 10-fold cross-validation against "
            "over-fitting. `tree, same maps` does that: one tree per d_max trained on the samples along each d_max's "
            f"own training run on every problem of {where} (scikit-learn's `DecisionTreeClassifier`, minimum "
            "leaf size and cost-complexity pruning chosen by `GridSearchCV` with 10 folds), run on the same problems. "
            "`tree, same maps, held out` (`tree, 10-fold`) runs each problem with the tree trained on the other nine "
            "tenths of the problems (`GroupKFold` by problem), so no run meets a tree that saw its own trajectory. "
            + ("`tree` is the generalisation study: trained on a quarter of the two other maps' problems, run on the "
               "third map. " if other_maps else "")
            + "Cells: sub-optimality at expansions per action (solved/problems).\n\n"
            + markdown_table(table, list(table[0])))
    text += ("\n`CV accuracy, samples`: 10-fold CV over the samples, as WEKA's over instances (scikit-learn's "
             "stratified folds, in sample order); `problems`: 10-fold CV with folds of whole problems (no step of a "
             "run is tested by a tree trained on another step of it); `other maps`: the generalisation trees' own CV "
             "accuracy (mean over the three test maps). `fixed depth d_max`: fixed depth at the tree's d_max, where "
             "the study ran it.\n\n")
    problems = max((r["problems"] for r in summary if r["method"] == SAME_MAPS), default=None)
    return text + findings_list(check([accuracy_drops], cv, problems))


def accuracy_drops(cv: dict[int, dict], problems: int | None) -> Finding | None:
    """The paper's 10-fold accuracy, 72% at d_max 5 and 44% at 20: it falls, and each lies within 10
    points of the paper's (``cv``: ``trees_cv.csv`` rows by d_max). Judged by the rule on binomial 95%
    intervals whose sample size is the number of ``problems``, not of samples: the samples along one
    run are alike, so a run counts once (``trees_cv.csv`` keeps no per-fold accuracies to draw an
    interval from).

    >>> cv = {5: {"cv_accuracy": 0.50, "grouped_cv_accuracy": 0.51, "samples": 900},
    ...       20: {"cv_accuracy": 0.45, "grouped_cv_accuracy": 0.46, "samples": 400}}
    >>> accuracy_drops(cv, 100).verdict_words()   # 0.50 +- 0.098 lies below 0.62
    "does not hold, because the accuracy at d_max 5 lies more than 10 points from the paper's"
    """
    if not all(d in cv for d in PAPER_ACCURACY) or not problems:
        return None
    low, high = (cv[d]["cv_accuracy"] for d in sorted(PAPER_ACCURACY))

    def half(accuracy: float) -> float:   # 95% binomial half-width over the problems
        return 1.96 * float(np.sqrt(accuracy * (1 - accuracy) / problems))

    falls = verdict_of_difference(high - low, float(np.hypot(half(low), half(high))), positive=False)
    accuracy = {d: cv[d]["cv_accuracy"] for d in sorted(PAPER_ACCURACY)}
    close = {d: verdict(a - half(a), a + half(a), above=PAPER_ACCURACY[d] - 0.1, below=PAPER_ACCURACY[d] + 0.1)
             for d, a in accuracy.items()}
    far = [d for d, v in close.items() if v == DOES_NOT_HOLD]
    return Finding(
        "*Classification accuracy drops as d_max grows, from 72% at d_max 5 to 44% at 20* (paper, 10-fold CV)",
        for_every([falls, *close.values()]),
        f"kit, same maps: {low:.0%} ± {half(low):.0%} at 5 and {high:.0%} ± {half(high):.0%} at 20 (95% binomial "
        f"intervals over the {problems} problems) over {cv[5]['samples']:,} and {cv[20]['samples']:,} samples; "
        f"over whole problems {cv[5]['grouped_cv_accuracy']:.0%} and {cv[20]['grouped_cv_accuracy']:.0%}",
        because="accuracy does not fall with d_max" if falls == DOES_NOT_HOLD else
        f"the accuracy at d_max {' and '.join(map(str, far))} lies more than 10 points from the paper's")


def classifier_beats_fixed_depth(summary: Sequence[dict], heads: Sequence[dict], rows: Sequence[dict],
                                 method: str) -> Finding | None:
    """Figure 5: "the classifier approach outperforms the baseline for all but the largest depth (20)".
    Each d_max below the largest lies below the fixed-depth curve on work or on cost, each ratio
    judged above 1 by the rule on its bootstrap interval (a ratio not read as measured leaves it
    inconclusive); None when ``method`` did not run."""
    settings = sorted((r for r in summary if r["method"] == method), key=lambda r: r["setting"])
    if not settings:
        return None
    judged = {}
    for r in settings:
        head = next((h for h in heads if h["method"] == method and h["setting"] == r["setting"]), None)
        ratios = [] if head is None else [judged_ratio(rows, head, key, 1) for key in ("work_ratio", "cost_ratio")]
        judged[r["setting"]] = for_some([j["verdict"] for j in ratios if j is not None])
    shallow = [d for d in judged if d != max(judged)]
    return Finding(f"*The classifier outperforms fixed depth for all but the largest d_max* ({method})",
                   for_every([judged[d] for d in shallow]) if shallow else NOT_MEASURED,
                   "each d_max below the fixed-depth curve on work or cost, 95% interval above 1x: "
                   + ", ".join(f"{d}: {judged[d]}" for d in judged), because="" if shallow else "one d_max only")


#: The claims that do not depend on the goal rule: the decision trees of each protocol (Figure 5).
TREE_CLAIMS: list[Claim] = [partial(classifier_beats_fixed_depth, method=method)
                            for method in ("tree, same maps", "tree, 10-fold", "tree", "tree, retrained")]


def _study_words(study: Study, seconds: float | None) -> str:
    """The first paragraph of findings.md: what ran, and how the claims are judged."""
    took = "" if seconds is None else f"; the runs took {seconds / 60:.1f} min of wall-clock time on the shared machine"
    return (f"Maps: {', '.join(study.maps)}; {study.problems} problems per map, optimal cost "
            f"{study.cost_range[0]:g}-{study.cost_range[1]:g}, cap {study.cap}{took}. A run stops unreached after "
            f"{study.max_actions_factor} x its optimal cost in actions and then counts with the cost it had "
            "run up (a lower bound on its sub-optimality). Verdicts follow the kit's rule (docs/verdicts.md): a claim "
            "holds when a 95% interval lies wholly on its side, does not hold when wholly on the other, and is "
            "inconclusive otherwise. A ratio is read as measured when the setting and the fixed depths it is read "
            f"between each solved at least {RELIABLE:.0%} of their problems; a setting that solved every problem has its "
            "ratio judged as a lower bound (fixed depth's unsolved runs can only raise it); the others are listed with "
            "their solved shares at the end. Goal rules: `pdb G+I` and `pdb I` re-select the goal at every "
            "action, as the paper does; `pdb G+I, once` and `pdb I, once` are the kit's repair (an intermediate goal "
            "kept until reached, each at most once). `pdb G` takes no intermediate goal: the same under both.\n\n")


def _table2_section(databases: Sequence[dict]) -> str:
    return ("## Table 2: pattern databases per abstraction level\n\n"
            + markdown_table(sorted(databases, key=lambda d: (d["level"], d["map"])),
                             ["map", "level", "regions", "size", "seconds", "goal_columns_built", "seconds_all_columns",
                              "capped_pairs", "capped_intermediate"])
            + "\n`size`: stored pairs (regions²); `seconds`: processor time to build (with the engine the study ran, "
            "compiled by default); `capped_pairs`: share of pairs of connected regions whose optimal depth toward the "
            "global goal exceeds the cap; `capped_intermediate`: the same toward their intermediate goal. Level 0 (no "
            "abstraction, one state per cell): only the columns toward the problems' goals are built "
            "(`goal_columns_built`), all that goal selection G reads, so only `pdb G` runs there; "
            "`seconds_all_columns` extrapolates the whole table's build time from them (each column costs about "
            "the same: one Dijkstra and one depth per start state).\n\n")


def _cap_section(rows: Sequence[dict]) -> str:
    shares = cap_shares(rows)
    if not shares:
        return ""
    return ("## The cap per action\n\n" + markdown_table(shares, CAP_TABLE_COLUMNS)
            + "\n`capped_global`: share of the actions whose stored depth toward the global goal exceeds the cap "
            "(`capped_global_solved`: the same over the solved runs' actions only; unsolved runs are long); "
            "`capped_intermediate`: share of the actions searching toward an intermediate goal whose stored depth "
            "toward it exceeds the cap; intervals: 95%, bootstrap over the runs.\n\n")


def _rule_headlines(heads: Sequence[dict], summary: Sequence[dict], rows: Sequence[dict], rule: str) -> str:
    """The abstract's claims and Figure 6's under one goal rule (:data:`GOAL_RULES`)."""
    return (f"## Headlines with {RULE_NAMES[rule]}\n\n"
            + ratio_headlines(under_rule(heads, rule), rows, under_rule(summary, rule))
            + goal_headline(under_rule(heads, rule), "Intermediate goals expand an order of magnitude fewer states than "
                            "fixed depth of similar sub-optimality (Figure 6)", under_rule(summary, rule),
                            RULE_METHODS[rule], rows) + "\n")


def _beyond_the_curve(summary: Sequence[dict]) -> str:
    """The settings better and cheaper than every fixed depth, where no work ratio can be read off."""
    fixed = [r for r in summary if r["method"] == "fixed"]
    if not fixed:
        return ""
    best = min(f["suboptimality"] for f in fixed)
    cheapest_best = min(f["expansions_per_action"] for f in fixed if f["suboptimality"] == best)
    dominating = sorted((r for r in summary if r["method"] != "fixed" and reliable(r)
                         and all(r["suboptimality"] < f["suboptimality"] for f in fixed)
                         and r["expansions_per_action"] <= cheapest_best), key=lambda r: (r["method"], r["setting"]))
    if not dominating:
        return ""
    return ("\nBeyond the fixed-depth curve (no work ratio can be read off: the curve does not reach their "
            "sub-optimality): " + "; ".join(_setting(r) for r in dominating)
            + " have a lower sub-optimality than every fixed depth, with fewer expansions per action than the best "
              "fixed depth.\n")


def findings(study: Study, summary, databases, seconds: float | None, rows: Sequence[dict] = ()) -> str:
    """findings.md: the settings and tables, then the paper's claims checked against them, under each
    goal rule and then those that do not depend on it (:data:`TREE_CLAIMS`)."""
    heads = headline_numbers(summary)
    return "".join([
        "# Dynamic control in LRTA*: findings (generated by `ftr dynamic compare`)\n\n", _study_words(study, seconds),
        "## Every setting (means over all problems)\n\n", _every_setting(summary, heads), RATIO_LEGEND,
        _table2_section(databases), _cap_section(rows),
        *(_rule_headlines(heads, summary, rows, rule) for rule in GOAL_RULES),
        "## Headlines that do not depend on the goal rule\n\n", findings_list(check(TREE_CLAIMS, summary, heads, rows)),
        _beyond_the_curve(summary), left_out(heads)])
