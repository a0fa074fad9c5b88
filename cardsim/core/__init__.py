"""The engine core shared by every ruleset: per-game random numbers, the bot interface, the
compiled play loop and batch runner, outcome records and the ruleset registry."""

from cardsim.core.cache import point_numba_cache

# Before any kernel is defined: numba's cache goes to a directory keyed by a hash of the sources
# (cache.py), so that an edit anywhere in the engines can never run stale compiled code.
point_numba_cache()
