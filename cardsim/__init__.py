"""cardsim: Monte Carlo strategy analysis for card games.

Rules-exact, Numba-compiled simulators (``cardsim.games``), a batch runner that spreads games over
every core (``cardsim.core``), and a pandas layer that turns outcomes into balance numbers
(``cardsim.analysis``). ``cardsim.simulate(...)`` plays a run and returns its ``Results``;
``cardsim.compare``, ``cardsim.sweep``, ``cardsim.diff`` and ``cardsim.ladder`` play an
experiment as the commands of those names do (docs/api.md). Each is loaded on first use, so ``import cardsim`` stays light.
"""

from cardsim.version import __version__ as __version__

# public name -> the module that defines it, imported on first use (PEP 562)
_LAZY = {
    "simulate": "cardsim.api",
    "compare": "cardsim.api",
    "sweep": "cardsim.api",
    "diff": "cardsim.api",
    "ladder": "cardsim.api",
    "tune": "cardsim.api",
    "screen": "cardsim.api",
    "Results": "cardsim.analysis.results",
    "Estimate": "cardsim.analysis.values",
}

__all__ = sorted(_LAZY)


def __getattr__(name: str):
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'cardsim' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *_LAZY])
