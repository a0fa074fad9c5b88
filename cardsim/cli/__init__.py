"""The ``cardsim`` command line: one module per command, each a thin adapter over library calls.

Numba's notice that first-class function types are experimental (the play loop takes the ruleset
and the bots as function values) is silenced here, before any compiled module is imported: it is
emitted while cached kernels load, so a filter set later comes too late.
"""

import warnings

from numba import NumbaExperimentalFeatureWarning

warnings.filterwarnings("ignore", category=NumbaExperimentalFeatureWarning)
