"""The engine core shared by every ruleset: per-game random numbers, the bot interface, the
compiled play loop and batch runner, outcome records and the ruleset registry."""

import warnings

# The play loop takes rulesets and bots as first-class function values, which numba still calls
# experimental; it warns once per compile or cache load, which says nothing useful to a user.
# (Matched by message, so that numba-free modules of the core do not import numba for it.)
warnings.filterwarnings("ignore", message=".*[Ff]irst-class function type feature is experimental")
