"""Compiled twins (Numba) of the readable reference planners: same traces, expansion for expansion (SPEC §16)."""
