"""Not graded in this fixture's tests (only the heap checks run)."""
