"""nbgrader's configuration for the Fast Trajectory Replanning course.

Run every nbgrader command from this folder (``cd course``), e.g.::

    nbgrader generate_assignment replanning       # source/ -> release/ (solutions and hidden tests out)
    nbgrader collect replanning                   # or place submissions in submitted/<student>/replanning/
    nbgrader autograde replanning                 # grades outside the kernel; scores go to gradebook.db
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

c.CourseDirectory.course_id = "ftr-replanning"
# The folder this file is in, whatever directory nbgrader was started from.
c.CourseDirectory.root = os.path.dirname(os.path.abspath(__file__))

# The test cells do not run in the kernel at grading time (GradeOutsideKernel below), so a cell of
# the student's own is all the kernel runs: one that runs longer than this gets an error in the
# feedback, its kernel is replaced (grading_guards.ResilientExecute), and it costs nothing else.
c.Execute.timeout = 300

# nbgrader's own stubs for what students must write.
c.ClearSolutions.code_stub = {"python": "# YOUR CODE HERE\nraise NotImplementedError()"}
c.ClearSolutions.text_stub = "YOUR ANSWER HERE"

# Students see hidden tests neither in the release nor in their feedback (not even in tracebacks).
c.ClearHiddenTests.enforce_metadata = True

# Every path into autograding (`nbgrader autograde`, NbGraderAPI.autograde, Formgrader's button)
# goes through Autograde, so these hold on all of them (grading_guards.py):
# - without the secret seed the exporter nbgrader makes first refuses: nothing graded, nothing recorded;
# - the points come from the sandboxed autograder run by this process on the notebook, written into
#   the test cells; the student's kernel runs sandboxed (kernel_sandbox.py) and never sees a test cell;
# - damaged submissions (invalid JSON, duplicated or deleted cells, a kernel that dies) get a note and
#   a score for what could be graded instead of stopping nbgrader.
sys.path.insert(0, c.CourseDirectory.root)
from grading_guards import GradeOutsideKernel, RequireSecretSeed, ShortTestTracebacks, repair_submission  # noqa: E402
from nbgrader.converters import Autograde  # noqa: E402
from nbgrader.preprocessors import Execute  # noqa: E402

c.Autograde.exporter_class = RequireSecretSeed
c.Autograde.pre_convert_hook = repair_submission
nbgrader_steps = Autograde.class_traits()["autograde_preprocessors"].default()
c.Autograde.autograde_preprocessors = [GradeOutsideKernel if step is Execute else step for step in nbgrader_steps]
c.GenerateFeedback.preprocessors = [
    "nbgrader.preprocessors.GetGrades",
    "nbconvert.preprocessors.CSSHTMLHeaderPreprocessor",
    "nbgrader.preprocessors.ClearHiddenTests",
    ShortTestTracebacks,
]
