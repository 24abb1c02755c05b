"""What every check kind shares: the task records, the judged replies, and the three steps' inputs.

A grading runs in three steps (:mod:`autograder.grader`), and each check kind
(:data:`autograder.checks.CHECKS`) takes part in each through a :class:`CheckKind`:

1. ``plan(check_id, planner)``: add the check's tasks to the :class:`Planner` (each knows its
   message to the child, :meth:`Task.frame`);
2. ``judge(task, outcome)``: one reply, as it arrives, to a :class:`Judged` (the reply is dropped);
3. ``score(check_id, points, scoring)``: the check's results from its tasks' verdicts.

>>> task = Task(7, "heap", 30.0, 1 << 20, "the heap check")
>>> task.name, Judged().tier
('the heap check', 'wrong')
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from reference.world.instances import Instance

from ..expected import ExpectedRun
from ..report import CheckResult
from ..rubric import Rubric
from ..sandbox import Lane, Limits, TaskOutcome
from ..submission import Submission

#: At most this many failures are shown per check (the same failure on many instances counts once).
SHOWN_PER_CHECK = 3
#: The task ids of the children's first messages (the main one, the from-scratch one).
HELLO, SCRATCH_HELLO = -1, -2


@dataclass
class InstanceSet:
    """One part of a search check: its id suffix, its (group, instance) pairs and Gradescope visibility."""

    suffix: str            # "" or "_hidden": appended to the check id
    instances: list[tuple[str, Instance]]
    visibility: str
    hidden: bool = False   # made from the secret seed: run in children of their own, after the public ones


@dataclass
class Task:
    """One run the grader asks a child for, and what it needs to judge the reply.

    ``check``: ``heap``, ``heap_from_scratch``, ``efficiency`` or a search check's id; a search task
    also has its instance, its instance set and group, and the reference's run on it. ``frame()`` is
    the message the child gets (:mod:`autograder.wire`): everything in it reaches the student's code.
    """

    id: int
    check: str
    cpu_seconds: float                  # the task's CPU budget
    reply_bytes: int                    # the largest reply the grader reads
    label: str                          # what a failure says was running: the function, never the instance
    instance: Instance | None = None
    instance_set: InstanceSet | None = None
    group: str | None = None
    expected: ExpectedRun | None = None

    @property
    def name(self) -> str:
        """What the grader's messages call the task: its instance's name, else "the heap check"."""
        return self.instance.name if self.instance is not None else "the heap check"

    def frame(self) -> tuple[dict, list]:
        """The task's message to the child: a JSON header and its int32 arrays."""
        raise NotImplementedError


@dataclass
class Judged:
    """What the grader keeps of one reply once it is judged (the reply itself is dropped)."""

    tier: str = "wrong"                 # exact, ties or wrong (heap: the number of sequences passed)
    problem: str | None = None
    note: str | None = None
    seconds: float = 0.0
    cpu_seconds: float | None = None
    timed_out: bool = False
    passed: int = 0
    messages: list[str] = field(default_factory=list)
    work: int = 0                       # an efficiency run: its verified expansions (searchcheck.verified_work)

    @classmethod
    def of(cls, outcome: TaskOutcome) -> Judged:
        """A verdict not reached yet (``wrong``), with the outcome's times."""
        return cls(seconds=outcome.seconds, cpu_seconds=outcome.cpu_seconds, timed_out=outcome.timed_out)


@dataclass
class Planner:
    """What planning a check needs, once per grading, and the tasks and lanes the checks add.

    ``public`` and ``hidden`` tasks are spread over lanes by the grader; ``lanes`` are checks' own
    (a child with other settings, a fresh child per timed run), run after the spread public ones.
    """

    rubric: Rubric
    wanted: tuple[str, ...]
    sets: list[InstanceSet]
    sequences: list                     # the heap check's operation sequences
    task_seconds: float                 # a task's CPU budget at least
    efficiency_ratio: float | None      # None: the rubric's
    tasks: dict[int, Task] = field(default_factory=dict)
    public: list[Task] = field(default_factory=list)
    hidden: list[Task] = field(default_factory=list)
    lanes: list[Lane] = field(default_factory=list)

    def next_id(self) -> int:
        return len(self.tasks)

    def add(self, task: Task, hidden: bool = False) -> Task:
        """A task to spread over the lanes of its phase (public, or hidden: children of their own)."""
        self.tasks[task.id] = task
        (self.hidden if hidden else self.public).append(task)
        return task

    def add_lane(self, tasks: list[Task], **lane) -> None:
        """Tasks run in a lane of their own (``lane``: :class:`~autograder.sandbox.Lane`'s settings)."""
        for task in tasks:
            self.tasks[task.id] = task
        self.lanes.append(Lane([task.frame() for task in tasks], **lane))


@dataclass
class Plan:
    """Every task of one grading, in lanes: public ones first, hidden ones in children of their own."""

    tasks: dict[int, Task]
    public_lanes: list[Lane]
    hidden_lanes: list[Lane]
    sets: list[InstanceSet]
    sequences: list
    limits: Limits
    workers: int

    def of_check(self, check: str, instance_set: InstanceSet | None = None) -> list[Task]:
        return [task for task in self.tasks.values()
                if task.check == check and (instance_set is None or task.instance_set is instance_set)]


@dataclass
class Replies:
    """What came back from the children, judged: per task id, and the children's first messages."""

    judged: dict[int, Judged] = field(default_factory=dict)
    hello: dict = field(default_factory=dict)
    scratch_hello: dict = field(default_factory=dict)
    task_cpu: float = 0.0       # the children's CPU time on tasks
    children_cpu: float = 0.0   # the children's CPU time in all, start-up included


@dataclass
class Scoring:
    """What scoring a check needs: the plan, the judged replies, the rubric, the submission, and for
    each needed name the child did not find, why (``missing``)."""

    plan: Plan
    replies: Replies
    rubric: Rubric
    submission: Submission
    missing: dict[str, str]


@dataclass(frozen=True)
class CheckKind:
    """One kind of check: its three steps. ``also_plans``: checks whose tasks it needs planned too
    (the from-scratch check needs the public heap task, whose child says which names it found)."""

    plan: Callable[[str, Planner], None]
    judge: Callable[[Task, TaskOutcome], Judged]
    score: Callable[[str, float, Scoring], list[CheckResult]]
    also_plans: tuple[str, ...] = ()


def reply(outcome: TaskOutcome | None, kind: str) -> tuple[dict, list] | None:
    """The child's reply (header, arrays) if it is one of ``kind`` ("heap", "trace"); None for a task
    not run, a failure, or a reply of another kind (the child's error reply)."""
    # The sandbox gives every outcome either a failure or a header (sandbox.TaskOutcome).
    if outcome is None or outcome.failure or outcome.header is None or outcome.header.get("kind") != kind:
        return None
    return outcome.header, outcome.arrays


def error_reply(outcome: TaskOutcome) -> str:
    """The error named by the reply of a task that did not fail but did not answer as asked either."""
    # Not a failure, so a reply: the sandbox gives every outcome either a failure or a header.
    assert outcome.header is not None, "an outcome without a failure carries the child's reply"
    return str(outcome.header.get("error", "an unexpected reply"))
