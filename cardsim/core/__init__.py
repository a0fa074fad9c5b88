"""The engine core shared by every ruleset: per-game random numbers, the bot interface, the
compiled play loop and batch runner, outcome records and the ruleset registry."""

import warnings

from numba import NumbaExperimentalFeatureWarning

# The play loop takes rulesets and bots as first-class function values, which numba still calls
# experimental; it warns once per compile or cache load, which says nothing useful to a user.
warnings.filterwarnings("ignore", category=NumbaExperimentalFeatureWarning)
