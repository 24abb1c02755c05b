"""The kit's infinity: one constant for the readable code, and the copies that differ on purpose."""

from __future__ import annotations

import importlib

import numpy as np

from reference.world.grid import INFINITY


def test_the_worlds_infinity_lies_above_every_path_and_fits_32_bits():
    # A simple path on a grid of fewer than 2**31 cells has fewer than 2**31 - 1 moves.
    assert INFINITY == 2**31 - 1 == int(np.iinfo(np.int32).max)


def test_the_readable_planners_use_the_worlds_infinity_itself():
    for name in ("replanning", "realtime.agent", "realtime.dstar_lite", "realtime.lookahead", "realtime.lrta"):
        assert importlib.import_module(f"reference.solutions.{name}").INFINITY is INFINITY, name


def test_the_replanning_twin_keeps_the_same_value():
    from reference.solutions.compiled import replanning

    assert replanning.INFINITY == INFINITY


def test_the_realtime_twins_infinity_lies_above_every_g_the_readable_planners_reach():
    # Its int64 arrays hold 1 << 62; every finite g of a run is below INFINITY, so the comparisons
    # of the twin and of the readable planners come out alike (their traces are compared elsewhere).
    from reference.solutions.compiled import realtime

    assert INFINITY < realtime.INFINITY <= np.iinfo(np.int64).max


def test_the_autograders_infinity_lies_above_every_integer_g():
    from autograder import searchcheck

    assert searchcheck.INFINITY == float("inf") > INFINITY
