"""``ftr grade``, ``ftr check``, ``ftr solution export``, ``ftr grade-all``, ``ftr gradescope build``."""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path

from . import UsageError

SUBMISSION_HELP = """\
A submission is either
  * a FOLDER laid out like starter/: heap.py (class BinaryHeap) and replanning.py
    (repeated_forward_astar, repeated_backward_astar, adaptive_astar), where replanning.py imports
    the heap as `from heap import BinaryHeap` and nothing of the kit but reference.world; or
  * a NOTEBOOK (.ipynb) whose code cells define the same names. Only imports, def, class and
    assignments at the top of each cell are used; cells that test, print or plot are ignored.
Student code runs in sandboxed child processes (bubblewrap where it runs: their own namespaces, file
system, uid and limits); see docs/autograder.md. Grading other people's code needs bubblewrap or root:
elsewhere `ftr grade` and `grade-all` refuse unless given --unisolated-i-trust-these-students.
"""


def _add_grading_options(parser: argparse.ArgumentParser, hidden: bool = True) -> None:
    if hidden:
        parser.add_argument("--hidden", action="store_true",
                            help="also grade on hidden instances made from the secret seed (FTR_SECRET_SEED or "
                                 "course/secret_seed.txt); the hidden instances are a group of each search check, half its "
                                 "points by default (the rubric's [groups])")
    parser.add_argument("--full", action="store_true", help="all 50 standard mazes instead of the default eight")
    parser.add_argument("--task-seconds", type=float, default=30.0,
                        help="CPU seconds per instance at least; bigger instances get more, in proportion to the "
                             "reference's expansions (default 30)")


def _options(args: argparse.Namespace, progress: bool):
    """The grading options the arguments ask for; with --hidden, a UsageError at once if there is no
    secret seed (before anything is graded, so that no report is written without the hidden part)."""
    from autograder.grader import GradingOptions
    from autograder.instances import SecretSeedMissing, secret_seed
    from autograder.sandbox import Limits

    if getattr(args, "hidden", False):
        try:
            secret_seed()
        except SecretSeedMissing as error:
            raise UsageError(str(error)) from None
    return GradingOptions(hidden=getattr(args, "hidden", False), full=args.full,
                          limits=Limits(task_seconds=args.task_seconds), progress=progress, **_selection(args))


def _selection(args: argparse.Namespace) -> dict:
    """``--only`` / ``--instance`` as grading options (a UsageError naming the valid ones)."""
    from autograder.grader import SelectionError, selection

    try:
        return selection(getattr(args, "only", None), getattr(args, "instance", None))
    except SelectionError as error:
        raise UsageError(str(error)) from None


def register_grade(subparsers: argparse._SubParsersAction) -> None:
    """Add ``ftr grade`` to ``subparsers``."""
    parser = subparsers.add_parser(
        "grade", help="grade one submission (folder or notebook)",
        description="Grade one student submission and print a report: per check the points, the status and "
                    "the first divergences.\n\n" + SUBMISSION_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("submission", type=Path, metavar="SUBMISSION", help="a submission folder or .ipynb file")
    _add_grading_options(parser)
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write the report as JSON")
    parser.add_argument("--gradescope", type=Path, metavar="FILE", help="also write Gradescope's results.json")
    _add_unisolated_option(parser)
    parser.set_defaults(handler=grade)


def _add_unisolated_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--unisolated-i-trust-these-students", dest="unisolated", action="store_true",
                        help="grade even where student code cannot be isolated (no bubblewrap, not root): it then "
                             "runs as you and can read and change your files, the kit and the secret seed")


def _refuse_unisolated(args: argparse.Namespace) -> None:
    """Grading other people's code: a UsageError (one line, what to install) where children are not
    isolated, unless the instructor passed --unisolated-i-trust-these-students (then a warning)."""
    from autograder.sandbox import isolation_refusal, isolation_warning

    refusal = isolation_refusal()
    if refusal and not args.unisolated:
        raise UsageError(refusal)
    warning = isolation_warning()
    if warning:
        print(warning, file=sys.stderr)


def register_check(subparsers: argparse._SubParsersAction) -> None:
    """Add ``ftr check`` (the students' self-check) to ``subparsers``."""
    parser = subparsers.add_parser(
        "check", help="students: check your submission on the public instances",
        description="The students' self-check: the same checks and messages as the grader, on the public "
                    "instances (the handout's examples, the SPEC's hand-made cases, standard mazes).\n\n"
                    + SUBMISSION_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("submission", type=Path, metavar="SUBMISSION", help="your folder (heap.py, replanning.py) or .ipynb")
    _add_grading_options(parser, hidden=False)
    parser.add_argument("--only", action="append", metavar="CHECK",
                        help="run only this check, named as the report names it (heap, forward_larger_g, "
                             "forward_smaller_g, backward, adaptive, efficiency, heap_from_scratch); repeatable")
    parser.add_argument("--instance", action="append", metavar="NAME",
                        help="run the search checks on this public instance only, named as the messages name it "
                             "(example_1, target_walled_in, maze_07, ...; any of the 50 mazes); repeatable")
    parser.set_defaults(handler=check)
    parser.epilog = ("Exit status: 0 at full marks, 1 below full marks, 2 when nothing could be graded (a usage error, "
                     "e.g. an unknown --only or --instance name). With --only or --instance the marks are those of "
                     "the checks and instances run.")


def check(args: argparse.Namespace) -> int:
    """``ftr check``: the report, and exit status 0 at full marks, 1 below (2 from a usage error)."""
    report = _grade_and_print(args)
    if report.score < report.max_score or report.extra_credit < sum(c.max_points for c in report.checks
                                                                    if c.extra_credit):
        print(rerun_hint(report, args.submission))
    return 0 if report.score >= report.max_score else 1


def rerun_hint(report, submission: Path) -> str:
    """The line after a report below full marks: how to rerun what failed (its check and, for a
    search check, the first instance its messages name)."""
    from autograder.grader import rerun_command

    return rerun_command(report, f"ftr check {shlex.quote(str(submission))}")


def _load(path: Path):
    from autograder.submission import SubmissionError, load_submission

    try:
        return load_submission(path)
    except SubmissionError as error:
        raise UsageError(str(error)) from None


def grade(args: argparse.Namespace) -> int:
    """``ftr grade``: print the report, write the requested files; exit status 0 once graded."""
    _grade_and_print(args)
    return 0


def _sandbox_or_stop() -> None:
    """Stop before grading anyone when no sandboxed child can start here: one line, exit 2."""
    from autograder.report import printable
    from autograder.sandbox import SandboxSetupError, sandbox_setup

    try:
        sandbox_setup()
    except SandboxSetupError as error:
        raise UsageError(f"cannot grade on this machine: {printable(error, newlines=False)}") from None


def _grade_and_print(args: argparse.Namespace):
    """Grade one submission; print the report and write the requested files, whatever happens (an error
    becomes a report with every check at 0, then ``ftr: error: ...``), except when the sandbox cannot
    start at all: then nothing is graded or written."""
    import json

    from autograder.grader import grade_submission
    from autograder.report import error_report, printable, write_private
    from autograder.sandbox import SandboxSetupError, isolation_warning

    def write(report) -> None:
        if getattr(args, "json", None):
            write_private(args.json, report.to_json())
        if getattr(args, "gradescope", None):
            write_private(args.gradescope, json.dumps(report.gradescope(), indent=2) + "\n")

    _sandbox_or_stop()
    if hasattr(args, "unisolated"):  # ftr grade: someone else's code
        _refuse_unisolated(args)
    try:
        submission = _load(args.submission)
        options = _options(args, progress=sys.stderr.isatty())
        if not hasattr(args, "unisolated") and isolation_warning():  # ftr check: say plainly what the sandbox is
            print("note: your code runs as a plain subprocess with time and resource limits (no bubblewrap "
                  "here); that is fine for checking your own code", file=sys.stderr)
        report = grade_submission(submission, options)
    except SandboxSetupError as error:  # e.g. every sandbox uid in use: nothing graded, nothing written
        raise UsageError(f"cannot grade on this machine: {printable(error, newlines=False)}") from None
    except (UsageError, Exception) as error:  # noqa: BLE001 - a report in every case
        message = printable(str(error) if isinstance(error, UsageError) else
                            f"grader error: {type(error).__name__}: {error}", newlines=False)
        write(error_report(printable(Path(args.submission).name, newlines=False), message))
        raise UsageError(message) from None
    print(report.to_text())
    write(report)
    return report


def register_grade_all(subparsers: argparse._SubParsersAction) -> None:
    """Add ``ftr grade-all`` to ``subparsers``."""
    parser = subparsers.add_parser(
        "grade-all", help="grade a folder of submissions into reports and a CSV gradebook",
        description="Grade every submission in SUBMISSIONS_DIR (each sub-folder or .ipynb is one student). "
                    "Writes OUT/<name>.txt and OUT/<name>.json per student and OUT/gradebook.csv, atomically. "
                    "Resumable: submissions already graded (unchanged since, with the same options, rubric and "
                    "secret seed) are skipped unless --force. Names students chose are escaped; a name that is "
                    "not plain UTF-8 or is long gets a report name with a hash.\n\n"
                    + SUBMISSION_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("submissions", type=Path, metavar="SUBMISSIONS_DIR")
    parser.add_argument("--out", type=Path, required=True, metavar="DIR", help="where reports and gradebook.csv go")
    parser.add_argument("--jobs", type=int, default=1, help="submissions graded at the same time (default 1)")
    parser.add_argument("--force", action="store_true", help="grade again even where a report exists")
    parser.add_argument("--similarity", action="store_true",
                        help="also compare the submissions' code: OUT/similarity/ (see ftr similarity)")
    _add_grading_options(parser)
    _add_unisolated_option(parser)
    parser.set_defaults(handler=grade_all)


def grade_all(args: argparse.Namespace) -> int:
    """``ftr grade-all``: grade every submission of a folder into reports and a CSV gradebook."""
    from autograder.batch import grade_all as run_batch

    if not args.submissions.is_dir():
        raise UsageError(f"{args.submissions}: not a folder of submissions")
    if args.jobs < 1:
        raise UsageError("--jobs must be at least 1")
    from autograder.report import printable
    from autograder.sandbox import SandboxSetupError

    options = _options(args, progress=False)
    if args.similarity:  # before grading: say at once if copydetect is missing
        from autograder.similarity import SimilarityError, require_copydetect
        try:
            require_copydetect()
        except SimilarityError as error:
            raise UsageError(str(error)) from None
    _sandbox_or_stop()  # before any report: never a gradebook of zeros
    _refuse_unisolated(args)
    try:
        gradebook = run_batch(args.submissions, args.out, options, jobs=args.jobs,
                              force=args.force, progress=True)
    except SandboxSetupError as error:
        raise UsageError(f"cannot grade on this machine: {printable(error, newlines=False)}") from None
    print(f"gradebook written to {gradebook}")
    if args.similarity:
        from .similarity import run_similarity
        run_similarity(args.submissions, args.out / "similarity")
    return 0


def register_solution(subparsers: argparse._SubParsersAction) -> None:
    """Add ``ftr solution`` (``export``) to ``subparsers``."""
    parser = subparsers.add_parser("solution", help="instructors: the reference solution as a submission")
    actions = parser.add_subparsers(title="actions", metavar="ACTION")
    export = actions.add_parser(
        "export", help="write the reference solution laid out as a student submission",
        description="Write heap.py and replanning.py (importing `from heap import BinaryHeap` and only "
                    "reference.world) into OUT, so `ftr grade OUT` confirms a configuration gives full marks.",
    )
    export.add_argument("out", type=Path, metavar="OUT")
    export.set_defaults(handler=solution_export)
    parser.set_defaults(handler=lambda args: parser.print_help() or 2)


def solution_export(args: argparse.Namespace) -> int:
    """``ftr solution export``: the reference solution laid out as a submission."""
    from autograder.export import SOLUTIONS, export_solution

    if not (SOLUTIONS / "replanning.py").exists():
        raise UsageError(f"the reference solutions are not part of this installation (no {SOLUTIONS})")
    folder = export_solution(args.out)
    print(f"reference solution written to {folder}/heap.py and {folder}/replanning.py")
    return 0


def register_gradescope(subparsers: argparse._SubParsersAction) -> None:
    """Add ``ftr gradescope`` (``build``) to ``subparsers``."""
    parser = subparsers.add_parser("gradescope", help="instructors: build the Gradescope autograder")
    actions = parser.add_subparsers(title="actions", metavar="ACTION")
    build = actions.add_parser(
        "build", help="write autograder.zip for Gradescope",
        description="Write a Gradescope autograder zip (setup.sh, run_autograder, the grading part of the kit, the "
                    "secret seed and the hidden instances' expected runs, computed now: the image needs its own "
                    "Python 3.10 or newer, NumPy and tqdm, and no compiler). "
                    "It grades /autograder/submission — a folder with heap.py and replanning.py, or one .ipynb — "
                    "on public and hidden instances and writes /autograder/results/results.json; tests on hidden "
                    "instances are visible after the due date.",
    )
    build.add_argument("--out", type=Path, default=Path("autograder.zip"), help="the zip to write (default autograder.zip)")
    build.add_argument("--full", action="store_true",
                       help="grade on all 50 standard mazes (set Gradescope's autograder timeout to 40 minutes)")
    build.set_defaults(handler=gradescope_build)
    parser.set_defaults(handler=lambda args: parser.print_help() or 2)


def gradescope_build(args: argparse.Namespace) -> int:
    """``ftr gradescope build``: the Gradescope autograder zip, with the hidden instances' expected results."""
    from autograder.gradescope import build_zip
    from autograder.instances import SecretSeedMissing, secret_seed

    try:
        seed = secret_seed()
    except SecretSeedMissing as error:
        raise UsageError(str(error)) from None
    print(f"Gradescope autograder written to {build_zip(args.out, seed, full=args.full)} (mode 0600: it holds the "
          "secret seed; upload it, never share it)")
    return 0


def register_secret_seed(subparsers: argparse._SubParsersAction) -> None:
    """Add ``ftr secret-seed`` to ``subparsers``."""
    parser = subparsers.add_parser(
        "secret-seed", help="instructors: write a strong random secret seed for the hidden instances",
        description="Write a 128-bit random number (Python's secrets module) to FILE, readable by you only "
                    "(0600). Every hidden random stream (instances, heap sequences) is derived from it through "
                    "SHA-256. Keep it out of version control and out of the student bundle.",
    )
    parser.add_argument("file", type=Path, nargs="?", default=None, metavar="FILE",
                        help="where to write it (default: course/secret_seed.txt in a source checkout, else "
                             "$XDG_CONFIG_HOME/ftr-kit/secret_seed.txt, i.e. ~/.config/ftr-kit/; grading looks "
                             "there too; elsewhere, name the file in FTR_SECRET_SEED_FILE)")
    parser.add_argument("--force", action="store_true", help="replace an existing seed (hidden instances change!)")
    parser.set_defaults(handler=secret_seed_command)


def secret_seed_command(args: argparse.Namespace) -> int:
    """``ftr secret-seed``: write a strong random seed for the hidden instances, readable by its owner only."""
    import secrets

    from autograder.instances import seed_file
    from autograder.report import write_private

    path = args.file or seed_file()
    if path.exists() and not args.force:
        raise UsageError(f"{path} exists already: replacing it changes every hidden instance (use --force)")
    write_private(path, f"{secrets.randbits(128)}\n")
    print(f"secret seed written to {path} (mode 0600)")
    return 0


COMMANDS = [(40, register_grade), (41, register_check), (42, register_grade_all), (43, register_solution),
            (44, register_gradescope), (45, register_secret_seed)]
