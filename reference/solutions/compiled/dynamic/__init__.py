"""Compiled twins of ``reference/solutions/dynamic/``: general LRTA* and its controllers (``lrta``)."""
