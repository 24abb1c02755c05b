"""nbgrader's configuration for the Fast Trajectory Replanning course.

Run every nbgrader command from this folder (``cd course``), e.g.::

    nbgrader generate_assignment replanning       # source/ -> release/ (solutions and hidden tests out)
    nbgrader collect replanning                   # or place submissions in submitted/<student>/replanning/
    nbgrader autograde replanning                 # runs the test cells; scores go to gradebook.db
    nbgrader generate_feedback replanning         # HTML per student in feedback/
    nbgrader export                               # grades.csv

The instructor guide (INSTRUCTOR.md) walks through the whole term.
"""

import os
import sys

c = get_config()  # noqa: F821  (nbgrader provides get_config when it loads this file)

# nbgrader starts its database tool `alembic` through PATH; it lives next to this interpreter (the
# venv's bin folder), which PATH need not hold when the venv is not activated.
os.environ["PATH"] = os.pathsep.join([os.path.dirname(sys.executable), os.environ.get("PATH", "")])

# `nbgrader autograde` grades the hidden tests, which need the instructor's secret seed: without it
# every student would get 0 on them. Stop before grading anyone, and say what to do.
if sys.argv[1:2] == ["autograde"]:
    from autograder.instances import SecretSeedMissing, secret_seed

    try:
        secret_seed()
    except SecretSeedMissing as error:
        sys.exit(f"nbgrader autograde: stopped before grading anyone: {error}. "
                 "`ftr secret-seed` writes a strong one (keep the same seed for the whole term).")

c.CourseDirectory.course_id = "ftr-replanning"
# The folder this file is in, whatever directory nbgrader was started from.
c.CourseDirectory.root = os.path.dirname(os.path.abspath(__file__))

# Test cells call the autograder, which runs the student's functions on every public (and at
# grading time hidden) instance: minutes, not seconds, for a slow but correct submission. A cell
# that runs longer is interrupted and scores zero; the kernel lives on and the next cells still run,
# so a student's infinite loop costs that one cell, not the notebook and not the batch.
c.Execute.timeout = 1800
c.Execute.interrupt_on_timeout = True

# nbgrader's own stubs for what students must write.
c.ClearSolutions.code_stub = {"python": "# YOUR CODE HERE\nraise NotImplementedError()"}
c.ClearSolutions.text_stub = "YOUR ANSWER HERE"

# Students see hidden tests neither in the release nor in their feedback (not even in tracebacks).
c.ClearHiddenTests.enforce_metadata = True

# Damaged submissions (invalid JSON, duplicated or deleted cells, a kernel that dies) get a note and
# a score for what could be graded instead of stopping nbgrader: see grading_guards.py.
sys.path.insert(0, c.CourseDirectory.root)
from grading_guards import ResilientExecute, ShortTestTracebacks, repair_submission  # noqa: E402
from nbgrader.converters import Autograde  # noqa: E402
from nbgrader.preprocessors import Execute  # noqa: E402

c.Autograde.pre_convert_hook = repair_submission
nbgrader_steps = Autograde.class_traits()["autograde_preprocessors"].default()
c.Autograde.autograde_preprocessors = [ResilientExecute if step is Execute else step for step in nbgrader_steps]
c.GenerateFeedback.preprocessors = [
    "nbgrader.preprocessors.GetGrades",
    "nbconvert.preprocessors.CSSHTMLHeaderPreprocessor",
    "nbgrader.preprocessors.ClearHiddenTests",
    ShortTestTracebacks,
]
