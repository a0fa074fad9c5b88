"""cardsim: Monte Carlo strategy analysis for card games.

Rules-exact, Numba-compiled simulators (``cardsim.games``), a batch runner that spreads games over
every core (``cardsim.core``), and a pandas layer that turns outcomes into balance numbers
(``cardsim.analysis``).
"""

__version__ = "0.1.0"
