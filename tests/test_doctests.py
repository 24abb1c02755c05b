"""Every docstring example in the kit's modules (the reference and the autograder) runs and gives what it shows."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import autograder
import reference

MODULES = sorted(info.name for package in (reference, autograder)
                 for info in pkgutil.walk_packages(package.__path__, package.__name__ + ".")
                 if not info.name.endswith("__main__"))


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{result.failed} docstring example(s) failed in {name}"
