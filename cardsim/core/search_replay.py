"""The search bot (``ismcts``) in the plain-Python reference replays (``core/reference.py``,
``cardsim replay``): the compiled search of the run's play loop, called one decision at a time,
with what it decided and how sure it was.

Above both ``ismcts`` (the search) and ``specialize`` (the play loop that binds the search to a
ruleset), which is why it is a module of its own: the loop imports the search, this imports both.
"""

from __future__ import annotations

import numpy as np

from cardsim.core import layout as L
from cardsim.core import specialize
from cardsim.core.ismcts import (
    T_ACTION,
    T_CHILD,
    T_PHASE,
    T_SEAT,
    T_SIBLING,
    T_VISITS,
    search_buffers,
)
from cardsim.core.outcomes import game_column_names, seat_column_names


def root_share(tree, obs, legal_code: int) -> float:
    """The share of the root's iterations that went through the decision ``legal_code`` of the
    last search left in ``tree`` (plain Python: replays)."""
    total = int(tree[0, T_VISITS])
    child = int(tree[0, T_CHILD])
    while child >= 0:
        row = tree[child]
        if (
            row[T_ACTION] == legal_code
            and row[T_SEAT] == obs[L.H_SEAT]
            and row[T_PHASE] == obs[L.H_PHASE]
        ):
            return int(row[T_VISITS]) / total if total else 0.0
        child = int(row[T_SIBLING])
    return 0.0


class SearchDecider:
    """A search bot of ``spec`` as a plain bot ``(obs, legal, n, params, rng) -> index`` for the
    reference replays (``core/reference.py``): it runs the compiled search with the play loop's
    functions and keeps, per decision, (turn, seat, decision code, the root visit share of that
    decision) in ``log``, which ``cardsim replay`` prints."""

    def __init__(self, spec):
        self.loop = specialize.loop_for(spec)
        self.rules = spec.rules_vector()
        sizes = (
            spec.ruleset.state_len,
            spec.ruleset.legal_len,
            len(game_column_names(spec.ruleset)),
            len(seat_column_names(spec.ruleset)),
        )
        self.buffers = search_buffers(sizes)
        self.log: list[tuple[int, int, int, float]] = []

    def __call__(self, obs, legal, n, params, rng) -> int:
        obs = np.ascontiguousarray(obs, np.int32)
        choice = int(self.loop.search(self.rules, obs, legal, n, params, rng, *self.buffers))
        share = root_share(self.buffers[0], obs, int(legal[choice]))
        self.log.append((int(obs[L.H_TURNS]), int(obs[L.H_SEAT]), int(legal[choice]), share))
        return choice
