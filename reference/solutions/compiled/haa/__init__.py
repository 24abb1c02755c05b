"""Compiled twins of ``reference/solutions/haa/``: the builder's searches (``abstraction``) and the queries (``query``)."""
