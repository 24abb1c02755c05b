"""Compiled twins of ``reference/solutions/dynamic/``, module for module: :mod:`.lrta` (general LRTA*
and whole runs of a problem), :mod:`.pattern_database` (building the databases) and :mod:`.tree`
(the oracle and the decision trees' samples). The public twins are exported here.
"""

from .lrta import CompiledAgent, Lookahead, general_lrta_compiled, run_database, run_fixed
from .pattern_database import build_pattern_database_compiled
from .tree import collect_samples_compiled, oracle_compiled

__all__ = ["CompiledAgent", "Lookahead", "build_pattern_database_compiled", "collect_samples_compiled",
           "general_lrta_compiled", "oracle_compiled", "run_database", "run_fixed"]
