"""nbgrader's configuration for the Fast Trajectory Replanning course.

Run every nbgrader command from this folder (``cd course``), e.g.::

    nbgrader generate_assignment replanning       # source/ -> release/ (solutions and hidden tests out)
    nbgrader collect replanning                   # or place submissions in submitted/<student>/replanning/
    nbgrader autograde replanning                 # runs the test cells; scores go to gradebook.db
    nbgrader generate_feedback replanning         # HTML per student in feedback/
    nbgrader export                               # grades.csv

The instructor guide (INSTRUCTOR.md) walks through the whole term.
"""

c = get_config()  # noqa: F821  (nbgrader provides get_config when it loads this file)

c.CourseDirectory.course_id = "ftr-replanning"
# The folder this file is in, whatever directory nbgrader was started from.
c.CourseDirectory.root = __import__("os").path.dirname(__import__("os").path.abspath(__file__))

# Test cells call the autograder, which runs the student's functions on every public (and at
# grading time hidden) instance: minutes, not seconds, for a slow but correct submission. A cell
# that runs longer is interrupted and scores zero; the kernel lives on and the next cells still run,
# so a student's infinite loop costs that one cell, not the notebook and not the batch.
c.Execute.timeout = 1800
c.Execute.interrupt_on_timeout = True
# A kernel that dies is restarted once before nbgrader gives up on that notebook.
c.Execute.execute_retries = 1

# nbgrader's own stubs for what students must write.
c.ClearSolutions.code_stub = {"python": "# YOUR CODE HERE\nraise NotImplementedError()"}
c.ClearSolutions.text_stub = "YOUR ANSWER HERE"

# Students see hidden tests neither in the release nor in their feedback.
c.ClearHiddenTests.enforce_metadata = True
c.GenerateFeedback.preprocessors = [
    "nbgrader.preprocessors.GetGrades",
    "nbconvert.preprocessors.CSSHTMLHeaderPreprocessor",
    "nbgrader.preprocessors.ClearHiddenTests",
]
