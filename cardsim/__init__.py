"""cardsim: Monte Carlo strategy analysis for card games.

Rules-exact, Numba-compiled simulators (``cardsim.games``), a batch runner that spreads games over
every core (``cardsim.core``), and a pandas layer that turns outcomes into balance numbers
(``cardsim.analysis``). ``cardsim.simulate(...)`` plays a run and returns its
``Results`` and ``cardsim.ladder(...)`` the skill ladder; they are loaded on first use, so ``import cardsim`` stays light.
"""

__version__ = "0.1.0"

__all__ = ["Results", "ladder", "simulate"]


def __getattr__(name: str):
    if name == "simulate":
        from cardsim.api import simulate

        return simulate
    if name == "ladder":
        from cardsim.api import ladder

        return ladder
    if name == "Results":
        from cardsim.analysis.results import Results

        return Results
    raise AttributeError(f"module 'cardsim' has no attribute {name!r}")
