"""Comparing the compiled engine's state with the reference's, field by field (the lockstep
tests, tests/test_pajarracos_reference.py and _examples.py): which state indices must agree and
a readable name for each (``cards.py`` layout).
"""

from __future__ import annotations

import numpy as np

from cardsim.core import layout as L
from cardsim.games.pajarracos import cards as C


def _field_names() -> dict[int, str]:
    names = {v: k for k, v in vars(L).items() if k.startswith("H_") and isinstance(v, int)}
    names.update({v: k for k, v in vars(C).items() if k.startswith("F_") and isinstance(v, int)})
    return names


_SEAT_FIELDS = (
    (C.TREE_SIZE, "tree_size"),
    (C.TREE_CROW, "tree_crow"),
    (C.TREE_SCARECROW, "tree_scarecrow"),
    (C.TREE_SENDER, "tree_sender"),
)


def field_name(i: int) -> str:
    """A readable name of state index ``i`` (cards.py layout): ``'seat 2 tree_crow[apples]'``."""
    if C.F_SEATS <= i < C.PUBLIC_END:
        seat, off = divmod(i - C.F_SEATS, C.SEAT_LEN)
        if off == C.HAND_COUNT:
            return f"seat {seat} hand_count"
        base, name = [f for f in _SEAT_FIELDS if f[0] <= off][-1]
        return f"seat {seat} {name}[{C.KIND_NAMES[off - base]}]"
    if C.F_HANDS <= i < C.F_RESERVE:
        seat, t = divmod(i - C.F_HANDS, C.N_TYPES)
        return f"seat {seat} hand[{C.card_type_name(t)}]"
    if C.F_COUNTERS <= i < C.F_SAVED:
        seat, c = divmod(i - C.F_COUNTERS, C.N_COUNTERS)
        return f"seat {seat} counter {C.SEAT_COUNTERS[c]}"
    if C.F_SAVED <= i < C.F_SAVED_RESERVE_OUT_TURN:
        seat, c = divmod(i - C.F_SAVED, C.SAVED_LEN)
        what = ("score", "trees", *C.SEAT_COUNTERS)[c]
        return f"seat {seat} saved {what}"
    if C.F_DISCARD <= i < C.F_SEATS:
        return f"F_DISCARD[{i - C.F_DISCARD}]"
    names = _field_names()
    if i in names:
        return names[i]
    base = max(v for v in names if v <= i)
    return f"{names[base]}[{i - base}]"


def compared_indices(state: np.ndarray) -> list[int]:
    """State indices that a rules-exact engine and the reference must agree on: everything but
    the reserve pile past its top (left as it was) and, once the game is over, the phase."""
    left = int(state[C.F_RESERVE_LEFT])
    skip = set(range(C.F_RESERVE + left, C.F_RESERVE + C.MAX_DECK))
    skip.update(range(C.F_SCRATCH, C.F_SCRATCH + C.SCRATCH_LEN))  # the bots' room
    if state[L.H_OVER]:
        skip.add(L.H_PHASE)
    return [i for i in range(C.STATE_LEN) if i not in skip]


def state_differences(
    engine_state: np.ndarray, ref_state: np.ndarray, limit: int = 12
) -> list[str]:
    """Named fields where the engine's state differs from the reference's (at most ``limit``)."""
    out = []
    for i in compared_indices(ref_state):
        if engine_state[i] != ref_state[i]:
            out.append(f"{field_name(i)}: engine {engine_state[i]}, reference {ref_state[i]}")
            if len(out) == limit:
                break
    return out
