"""Fruit Picking rule options: every parameter of ``fruit-picking.md`` (Parameters table), with
the doc's defaults, and their encoding into the int32 rules vector the engine reads.

Rules vector layout (int32), names ``R_*`` below; list-valued options take fixed-size blocks.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from cardsim.core.errors import CardsimError
from cardsim.core.options import RuleOption
from cardsim.games.fruit_picking import cards as C

_FARM_NAMES = tuple(C.KIND_NAMES[k] for k in C.FARM_CARDS)  # rain, pineapple, ..., strawberry
_DEFAULT_FARM_FRUITS = (2, 1, 1, 2, 2, 3)  # in FARM_CARDS order: rain 2, pineapple 1, grapes 1,
# cherry 2, banana 2, strawberry 3 (fruit-picking.md Components, R12)

OPTIONS = (
    RuleOption("seeds_per_player", "int", 18, "seeds in each player's bag", "R1", lo=6, hi=40),
    RuleOption(
        "setup_seeds",
        "int_list",
        (2, 2, 2),
        "seeds put on positions 1, 2, ... at setup",
        "R4",
        lo=0,
        hi=40,
        lengths=(1, 2, 3, 4, 5, 6),
    ),
    RuleOption(
        "farm_fruits",
        "int_list",
        _DEFAULT_FARM_FRUITS,
        f"fruits/raindrops per farm card, in the order {','.join(_FARM_NAMES)}",
        "R12",
        lo=0,
        hi=9,
        lengths=(6,),
    ),
    RuleOption(
        "market_cards_per_kind",
        "int",
        6,
        "market cards of each fruit kind",
        "Components",
        lo=1,
        hi=C.MAX_PER_KIND,
    ),
    RuleOption(
        "market_fruits",
        "int_list",
        None,
        "fruits printed on market cards: 5 values (per kind, in the order "
        "pineapple,grapes,cherry,banana,strawberry) or one per card, kind by kind; "
        "default: as on the farm cards",
        "A2",
        lo=0,
        hi=9,
    ),
    RuleOption(
        "market_slots",
        "int",
        None,
        "market slots (default 4; 3 with variant_beginners)",
        "R5, V3",
        lo=1,
        hi=C.MAX_SLOTS,
    ),
    RuleOption(
        "slot_surcharge",
        "int_list",
        None,
        "surcharge per slot from the stack outward (default 3,2,1,0, i.e. n-1..0; all 0 with "
        "variant_beginners)",
        "R15, V3",
        lo=0,
        hi=9,
    ),
    RuleOption("no_seed_refill", "int", 3, "seeds moved by the 'no seeds' rule", "R7", lo=1, hi=6),
    RuleOption(
        "no_seed_rule",
        "choice",
        "2014",
        "the 'no seeds' procedure: 2014 (House seeds back to storage, then seeds from storage) or "
        "2020 (seeds from storage, from the House only when storage runs short)",
        "R7, A3, A11",
        choices=("2014", "2020"),
    ),
    RuleOption(
        "skip_origin_when_lapping",
        "bool",
        False,
        "a planting of 7+ seeds skips the card it started from",
        "A4",
    ),
    RuleOption(
        "no_set_winner",
        "choice",
        "tiebreak",
        "who wins when nobody completed a set: tie-breaks among all, or nobody",
        "A8",
        choices=("tiebreak", "none"),
    ),
    RuleOption(
        "tiebreak_fruits",
        "choice",
        "all_cards",
        "fruits compared by the first tie-break: on all of a player's market cards, or on the "
        "cards forming their completed set (the best choice of set and cards)",
        "R22, A9",
        choices=("all_cards", "set_cards"),
    ),
    RuleOption("variant_umbrella", "bool", False, "umbrella marks add seeds when drawn", "V1"),
    RuleOption("umbrella_per_kind", "int", 1, "umbrella cards per fruit kind", "V1", lo=0, hi=6),
    RuleOption(
        "umbrella_fires_on_any_draw",
        "bool",
        True,
        "the mark fires on any draw (false: only when the card enters a market slot)",
        "A13",
    ),
    RuleOption(
        "variant_market_operation", "bool", False, "pay to draw two cards and keep one", "V2"
    ),
    RuleOption("market_op_cost", "int", 1, "seeds paid for a market operation", "V2", lo=0, hi=3),
    RuleOption(
        "market_op_pays_from",
        "choice",
        "house",
        "where the market operation is paid from (storage: the seed leaves play)",
        "A14",
        choices=("house", "storage"),
    ),
    RuleOption(
        "variant_beginners", "bool", False, "3 slots, no surcharge, 5 cards end the game", "V3"
    ),
    RuleOption(
        "beginner_cards_to_end",
        "int",
        5,
        "cards owned that end a beginners' game",
        "V3",
        lo=1,
        hi=10,
    ),
    RuleOption("beginner_sets_end_game", "bool", False, "sets also end a beginners' game", "A15"),
    RuleOption(
        "farm_order",
        "list_or_choice",
        "random",
        "order of the 6 non-House farm cards clockwise from the House",
        "R2, A16",
        choices=("random",),
        items=_FARM_NAMES,
    ),
    RuleOption(
        "first_player",
        "int_or_choice",
        "random",
        "seat of the initial player",
        "R2, A19",
        choices=("random",),
        lo=0,
        hi=C.MAX_PLAYERS - 1,
    ),
    RuleOption(
        "turn_cap",
        "int",
        1000,
        "safeguard: end the game after this many rounds",
        "A18",
        lo=1,
        hi=100000,
    ),
)

# Rules vector layout --------------------------------------------------------------------------------
R_SEEDS = 0
R_SETUP_SEEDS = 1  # [6] seeds on positions 1..6 at setup
R_FARM_WATER = 7  # [7] per kind code (PINEAPPLE..HOUSE): seeds added when watering
R_PER_KIND = 14
R_CARD_FRUITS = 15  # [MAX_CARDS] printed fruits per market card id
R_CARD_UMBRELLA = R_CARD_FRUITS + C.MAX_CARDS  # [MAX_CARDS] 1 if the card carries an umbrella
R_SLOTS = R_CARD_UMBRELLA + C.MAX_CARDS
R_SURCHARGE = R_SLOTS + 1  # [MAX_SLOTS]
R_NO_SEED_REFILL = R_SURCHARGE + C.MAX_SLOTS
R_SKIP_ORIGIN = R_NO_SEED_REFILL + 1
R_NO_SET_WINNER_NONE = R_SKIP_ORIGIN + 1  # 1: nobody wins without a set (A8 alternative)
R_UMBRELLA = R_NO_SET_WINNER_NONE + 1
R_UMBRELLA_ANY_DRAW = R_UMBRELLA + 1
R_MARKET_OP = R_UMBRELLA_ANY_DRAW + 1
R_OP_COST = R_MARKET_OP + 1
R_OP_FROM_STORAGE = R_OP_COST + 1
R_BEGINNERS = R_OP_FROM_STORAGE + 1
R_BEGINNER_CARDS = R_BEGINNERS + 1
R_BEGINNER_SETS = R_BEGINNER_CARDS + 1
R_FARM_RANDOM = R_BEGINNER_SETS + 1
R_FARM_ORDER = R_FARM_RANDOM + 1  # [6] kind codes for positions 1..6 when not random
R_FIRST_PLAYER = R_FARM_ORDER + 6  # -1: random
R_NO_SEED_2020 = R_FIRST_PLAYER + 1  # A11: 1 = the 2020 "no seeds" procedure
R_TIEBREAK_SET_CARDS = R_NO_SEED_2020 + 1  # A9: 1 = the first tie-break counts set cards only
R_LEN = R_TIEBREAK_SET_CARDS + 1


def market_slots(values: Mapping[str, Any]) -> int:
    """Slots in play: the option, else 4, or 3 for beginners (R5, V3)."""
    if values["market_slots"] is not None:
        return values["market_slots"]
    return 3 if values["variant_beginners"] else 4


def slot_surcharge(values: Mapping[str, Any]) -> tuple[int, ...]:
    """Surcharge per slot from the stack: the option, else n-1..0, or all 0 for beginners (R15, V3)."""
    n = market_slots(values)
    if values["slot_surcharge"] is not None:
        return tuple(values["slot_surcharge"])
    return (0,) * n if values["variant_beginners"] else tuple(range(n - 1, -1, -1))


def farm_fruits(values: Mapping[str, Any]) -> dict[int, int]:
    """Seeds added when watering, per kind code (R12); the House adds none."""
    out = dict(zip(C.FARM_CARDS, values["farm_fruits"], strict=True))
    out[C.HOUSE] = 0
    return out


def card_fruits(values: Mapping[str, Any]) -> list[int]:
    """Printed fruits per market card id (A2): per kind, or per card."""
    per_kind = values["market_cards_per_kind"]
    given = values["market_fruits"]
    water = farm_fruits(values)
    if given is None:
        given = tuple(water[k] for k in range(C.N_FRUIT_KINDS))
    if len(given) == C.N_FRUIT_KINDS:
        return [given[card // per_kind] for card in range(C.N_FRUIT_KINDS * per_kind)]
    return list(given)


def check(values: Mapping[str, Any], n_players: int) -> None:
    """Checks across options; one-line ``CardsimError`` naming the problem."""
    per_kind = values["market_cards_per_kind"]
    fruits = values["market_fruits"]
    if fruits is not None and len(fruits) not in (C.N_FRUIT_KINDS, C.N_FRUIT_KINDS * per_kind):
        raise CardsimError(
            f"rule option market_fruits: give 5 values (one per kind) or {5 * per_kind} (one per card)"
        )
    slots = market_slots(values)
    if len(slot_surcharge(values)) != slots:
        raise CardsimError(f"rule option slot_surcharge: give {slots} values, one per market slot")
    if sum(values["setup_seeds"]) > values["seeds_per_player"]:
        raise CardsimError("rule option setup_seeds: more seeds than seeds_per_player")
    first = values["first_player"]
    if first != "random" and first >= n_players:
        raise CardsimError(
            f"rule option first_player: seat {first} does not exist with {n_players} players"
        )
    if values["umbrella_per_kind"] > per_kind:
        raise CardsimError("rule option umbrella_per_kind: more than market_cards_per_kind")


def encode(values: Mapping[str, Any], n_players: int) -> np.ndarray:
    """The int32 rules vector for the engine (layout ``R_*`` above)."""
    check(values, n_players)
    r = np.zeros(R_LEN, np.int32)
    r[R_SEEDS] = values["seeds_per_player"]
    setup = values["setup_seeds"]
    r[R_SETUP_SEEDS : R_SETUP_SEEDS + len(setup)] = setup
    for kind, water in farm_fruits(values).items():
        r[R_FARM_WATER + kind] = water
    per_kind = values["market_cards_per_kind"]
    r[R_PER_KIND] = per_kind
    fruits = card_fruits(values)
    r[R_CARD_FRUITS : R_CARD_FRUITS + len(fruits)] = fruits
    for card in range(len(fruits)):
        r[R_CARD_UMBRELLA + card] = 1 if card % per_kind < values["umbrella_per_kind"] else 0
    r[R_SLOTS] = market_slots(values)
    surcharge = slot_surcharge(values)
    r[R_SURCHARGE : R_SURCHARGE + len(surcharge)] = surcharge
    r[R_NO_SEED_REFILL] = values["no_seed_refill"]
    r[R_SKIP_ORIGIN] = values["skip_origin_when_lapping"]
    r[R_NO_SET_WINNER_NONE] = values["no_set_winner"] == "none"
    r[R_UMBRELLA] = values["variant_umbrella"]
    r[R_UMBRELLA_ANY_DRAW] = values["umbrella_fires_on_any_draw"]
    r[R_MARKET_OP] = values["variant_market_operation"]
    r[R_OP_COST] = values["market_op_cost"]
    r[R_OP_FROM_STORAGE] = values["market_op_pays_from"] == "storage"
    r[R_BEGINNERS] = values["variant_beginners"]
    r[R_BEGINNER_CARDS] = values["beginner_cards_to_end"]
    r[R_BEGINNER_SETS] = values["beginner_sets_end_game"]
    order = values["farm_order"]
    r[R_FARM_RANDOM] = order == "random"
    if order != "random":
        r[R_FARM_ORDER : R_FARM_ORDER + 6] = [C.FARM_CARDS[_FARM_NAMES.index(n)] for n in order]
    first = values["first_player"]
    r[R_FIRST_PLAYER] = -1 if first == "random" else first
    r[R_NO_SEED_2020] = values["no_seed_rule"] == "2020"
    r[R_TIEBREAK_SET_CARDS] = values["tiebreak_fruits"] == "set_cards"
    return r
