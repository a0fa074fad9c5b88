"""Compile options shared by every rules engine and the play loop.

``RULES_JIT``: compiled, cached on disk, and without Numba's reference counting. Numba counts
references to every array handed to a function with an atomic add and a call; the rules of a card
game are hundreds of tiny reads and writes of one state vector, and those counts were most of the
time spent (measured: a Fruit Picking step went from ~50 ns to ~20 ns without them). The price:
a function compiled this way must not allocate arrays, and any array view it returns is borrowed
from an argument, never owned. Every function compiled with it follows that rule; arrays are
allocated once per game by ``kernel.run_chunk``.
"""

RULES_JIT = {"cache": True, "_nrt": False}

INLINE_RULES_JIT = {**RULES_JIT, "inline": "always"}
"""For the small helpers of a ruleset: inlined into the kernel that calls them."""
