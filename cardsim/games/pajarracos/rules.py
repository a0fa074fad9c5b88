"""Pajarracos rule options: every parameter of ``pajarracos.md`` (Parameters table) with the doc's
defaults, and their encoding into the int32 rules vector the engine reads (``R_*`` below).

Setting ``lone_crows``, ``flocks`` or ``scarecrows`` to 0 gives the baselines for measuring what
those cards do to a game (the crow-impact ablation).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from cardsim.core.errors import CardsimError
from cardsim.core.options import RuleOption
from cardsim.games.pajarracos import cards as C

OPTIONS = (
    RuleOption(
        "hand_size", "int", 5, "cards dealt, and refilled after every turn", "R2, R21", lo=1, hi=10
    ),
    RuleOption("fruit_kinds", "int", 5, "kinds of fruit in the deck", "Components", lo=1, hi=5),
    RuleOption(
        "fruit_per_kind",
        "int",
        9,
        "fruit cards of each kind",
        "Components",
        lo=1,
        hi=C.MAX_PER_KIND,
    ),
    RuleOption(
        "juicy_per_kind", "int", 1, "juicy cards among each kind's fruit cards", "A1", lo=0, hi=20
    ),
    RuleOption(
        "lone_crows", "int", 8, "lone crow cards", "Components, R12", lo=0, hi=C.MAX_LONE_CROWS
    ),
    RuleOption(
        "flocks", "int", 2, "flock of crows cards", "Components, R13", lo=0, hi=C.MAX_FLOCKS
    ),
    RuleOption(
        "scarecrows", "int", 10, "scarecrow cards", "Components, R15", lo=0, hi=C.MAX_SCARECROWS
    ),
    RuleOption(
        "first_player",
        "int_or_choice",
        "random",
        "seat of the first player",
        "R4, A15",
        choices=("random",),
        lo=0,
        hi=C.MAX_PLAYERS - 1,
    ),
    RuleOption(
        "juicy_may_be_played_alone",
        "bool",
        True,
        "a play may hold juicy cards without an ordinary card of their kind",
        "A2",
    ),
    RuleOption(
        "fruit_single_target",
        "bool",
        True,
        "all cards of a fruit action go onto one tree (false: split over several orchards)",
        "A3",
    ),
    RuleOption(
        "juicy_attracts_own_crows",
        "bool",
        True,
        "a juicy card may attract a crow card from the player's own trees (false: only from other "
        "players' trees)",
        "R10, A4",
    ),
    RuleOption(
        "shoo_to_ends_action",
        "bool",
        True,
        "a shoo to another tree ends the action at once: no scarecrow after it, no extra turn "
        "(false: the action's other scarecrows may follow, more shoo-tos included)",
        "R19, A8, A11",
    ),
    RuleOption(
        "extra_turn_separate",
        "bool",
        False,
        "crows eat and the player draws before an extra turn, not only after it",
        "A10",
    ),
    RuleOption(
        "empty_extra_turn",
        "choice",
        "ends_game",
        "an extra turn begun with an empty hand while the reserve pile is empty: the game ends "
        "(R23), or the extra turn is lost and play goes on",
        "R23, A10, A13",
        choices=("ends_game", "lost"),
    ),
    RuleOption(
        "extra_turn_optional",
        "bool",
        True,
        "the player may decline an extra turn they earned (false: it is compulsory)",
        "R18, A17",
    ),
    RuleOption(
        "discard_min",
        "int",
        1,
        "fewest cards a discard action discards (0: pass)",
        "R20, A12",
        lo=0,
        hi=1,
    ),
    RuleOption(
        "final_tie",
        "choice",
        "shared",
        "still tied after the kinds tie-break: shared win, or replay the game among them",
        "R26, A14",
        choices=("shared", "replay"),
    ),
    RuleOption(
        "turn_cap",
        "int",
        500,
        "safeguard: end the game after this many rounds",
        "Parameters",
        lo=1,
        hi=100000,
    ),
)

# Rules vector layout -------------------------------------------------------------------------------
R_HAND_SIZE = 0
R_FRUIT_KINDS = 1
R_FRUIT_PER_KIND = 2
R_JUICY_PER_KIND = 3
R_LONE_CROWS = 4
R_FLOCKS = 5
R_SCARECROWS = 6
R_FIRST_PLAYER = 7  # -1: random (A15)
R_JUICY_ALONE = 8  # A2
R_SINGLE_TARGET = 9  # A3
R_EXTRA_SEPARATE = 10  # A10
R_DISCARD_MIN = 11  # A12
R_REPLAY_TIES = 12  # A14: 1 = replay, 0 = shared
R_JUICY_OWN_CROWS = 13  # A4: 1 = crows on the player's own trees answer a juicy card too
R_SHOO_TO_ENDS = 14  # A8, A11: 1 = a shoo-to ends the action at once
R_EMPTY_EXTRA_ENDS = 15  # A10, A13: 1 = an empty-handed extra turn with no reserve ends the game
R_EXTRA_OPTIONAL = 16  # A17: 1 = an extra turn may be declined
R_LEN = 17


def deck_size(values: Mapping[str, Any]) -> int:
    return (
        values["fruit_kinds"] * values["fruit_per_kind"]
        + values["lone_crows"]
        + values["flocks"]
        + values["scarecrows"]
    )


def check(values: Mapping[str, Any], n_players: int) -> None:
    """Checks across options; one-line ``CardsimError`` naming the problem."""
    if values["juicy_per_kind"] > values["fruit_per_kind"]:
        raise CardsimError("rule option juicy_per_kind: more than fruit_per_kind")
    first = values["first_player"]
    if first != "random" and first >= n_players:
        raise CardsimError(
            f"rule option first_player: seat {first} does not exist with {n_players} players"
        )


def encode(values: Mapping[str, Any], n_players: int) -> np.ndarray:
    """The int32 rules vector for the engine (layout ``R_*`` above)."""
    check(values, n_players)
    r = np.zeros(R_LEN, np.int32)
    r[R_HAND_SIZE] = values["hand_size"]
    r[R_FRUIT_KINDS] = values["fruit_kinds"]
    r[R_FRUIT_PER_KIND] = values["fruit_per_kind"]
    r[R_JUICY_PER_KIND] = values["juicy_per_kind"]
    r[R_LONE_CROWS] = values["lone_crows"]
    r[R_FLOCKS] = values["flocks"]
    r[R_SCARECROWS] = values["scarecrows"]
    first = values["first_player"]
    r[R_FIRST_PLAYER] = -1 if first == "random" else first
    r[R_JUICY_ALONE] = values["juicy_may_be_played_alone"]
    r[R_SINGLE_TARGET] = values["fruit_single_target"]
    r[R_EXTRA_SEPARATE] = values["extra_turn_separate"]
    r[R_DISCARD_MIN] = values["discard_min"]
    r[R_REPLAY_TIES] = values["final_tie"] == "replay"
    r[R_JUICY_OWN_CROWS] = values["juicy_attracts_own_crows"]
    r[R_SHOO_TO_ENDS] = values["shoo_to_ends_action"]
    r[R_EMPTY_EXTRA_ENDS] = values["empty_extra_turn"] == "ends_game"
    r[R_EXTRA_OPTIONAL] = values["extra_turn_optional"]
    return r
