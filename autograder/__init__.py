"""The autograder: grade student implementations safely, exactly, with feedback that teaches.

Student code runs only in a sandboxed child process (:mod:`autograder.sandbox`); the grader
(:mod:`autograder.grader`) has each check kind (:mod:`autograder.checks`) judge what comes back
(:mod:`autograder.heapcheck`, :mod:`autograder.searchcheck`) against the reference's runs
(:mod:`autograder.expected`) and the SPEC, and reports per rubric check (:mod:`autograder.report`).

    from autograder.grader import grade_submission
    report = grade_submission("submissions/alice")      # a folder or a .ipynb
    print(report.to_text())

See docs/autograder.md.
"""
