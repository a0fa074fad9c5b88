"""Piepmatz rule options: every entry of the Parameters table of ``piepmatz.md`` (and every
ambiguity with a rule option, A2-A23) with the doc's defaults, and their encoding into the int32
rules vector the engine reads (``R_*`` below).

The feeder composition is not published (``[A]`` in the doc): ``seed_counts``, ``crows``,
``squirrels`` and ``three_plus_seed_values`` give it; ``squirrels=0`` or ``crows=1`` are the
baselines of the bad-card study. ``encode`` applies the 2-player setup (R3: the "3+" cards leave
the feeder deck; R4, A2: a species leaves the bird deck), so the engine deals what it is given.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from cardsim.core.errors import CardsimError
from cardsim.core.options import RuleOption
from cardsim.games.piepmatz import cards as C

OPTIONS = (
    RuleOption(
        "perches",
        "int_or_choice",
        "auto",
        "perches on the feeder base (auto: 2 for 2-3 players, 3 for 4)",
        "R2",
        choices=("auto",),
        lo=1,
        hi=C.MAX_PERCHES,
    ),
    RuleOption(
        "species",
        "int",
        6,
        "bird species in the box (a 2-player game removes one more)",
        "Components, R4",
        lo=1,
        hi=C.MAX_SPECIES,
    ),
    RuleOption(
        "strengths",
        "int",
        6,
        "birds have strengths 1..this, a male and a female of each",
        "Components",
        lo=1,
        hi=C.MAX_STRENGTH,
    ),
    RuleOption(
        "bird_points",
        "int_list",
        (1, 1, 2, 2, 3, 3),
        "points of a bird of strength 1..6 (ceil(strength / 2))",
        "R34",
        lo=0,
        hi=20,
        lengths=(6,),
    ),
    RuleOption("hand_size", "int", 4, "bird cards in hand", "R5, R25", lo=1, hi=C.MAX_HAND),
    RuleOption(
        "queue_size", "int", 3, "face-up bird cards in the queue", "R6, R25", lo=0, hi=C.MAX_QUEUE
    ),
    RuleOption(
        "seed_column_size",
        "int",
        4,
        "face-up seed cards in the column",
        "R3, R13, R26",
        lo=1,
        hi=C.MAX_COLUMN,
    ),
    RuleOption(
        "max_bad_cards_in_column",
        "int",
        4,
        "bad cards the bad-card column holds; a further one leaves the game",
        "R27",
        lo=0,
        hi=C.MAX_COLUMN,
    ),
    RuleOption(
        "seed_counts",
        "int_list",
        (10, 10, 10),
        "seed cards worth 1, 2 and 3 points",
        "A3",
        lo=0,
        hi=C.MAX_SEED_COUNT,
        lengths=(3,),
    ),
    RuleOption("crows", "int", 3, "crow cards in the feeder deck", "A3", lo=1, hi=C.MAX_BAD),
    RuleOption(
        "squirrels", "int", 3, "squirrel cards in the feeder deck", "A3", lo=0, hi=C.MAX_BAD
    ),
    RuleOption(
        "three_plus_seed_values",
        "int_list",
        (1, 2, 2, 3),
        'values of the four "3+" seed cards (removed with 2 players)',
        "A3, R3",
        lo=1,
        hi=3,
        lengths=(4,),
    ),
    RuleOption(
        "three_plus_crows",
        "int",
        1,
        'crows with the "3+" symbol (removed with 2 players)',
        "R3",
        lo=0,
        hi=C.MAX_BAD,
    ),
    RuleOption("squirrel_steal", "int", 2, "seed cards a squirrel removes", "R21", lo=0, hi=4),
    RuleOption("pair_points", "int", 5, "points of a bird pair", "R32", lo=0, hi=20),
    RuleOption(
        "final_discard", "int", 2, "hand cards discarded at the end", "R31", lo=0, hi=C.MAX_HAND
    ),
    RuleOption(
        "two_player_removed_species",
        "int_or_choice",
        "random",
        "species removed in a 2-player game (random, or a species id 0-5)",
        "R4, A2",
        choices=("random",),
        lo=0,
        hi=C.MAX_SPECIES - 1,
    ),
    RuleOption(
        "take_lone_bad_card",
        "bool",
        False,
        "a bad card alone at position d is taken (default: it stays)",
        "A7",
    ),
    RuleOption(
        "bad_cards_attached",
        "bool",
        False,
        "a bad card slides only with the seed card beside it; one beside no seed card stays in "
        "place (default: both columns close up)",
        "R15, A8",
    ),
    RuleOption(
        "crow_victim",
        "choice",
        "player",
        "the bird a crow removes: the player's choice, or a random one of the crowded species",
        "R20, A10",
        choices=("player", "random"),
    ),
    RuleOption(
        "keep_option_after_chain",
        "bool",
        False,
        "the R24 option is also offered when a chain ends",
        "A13",
    ),
    RuleOption(
        "promote_by",
        "choice",
        "strength",
        "step 4 moves up the ground bird of highest strength or of highest egg value",
        "R22, A21",
        choices=("strength", "egg_value"),
    ),
    RuleOption(
        "bird_exhaustion",
        "choice",
        "play_on",
        "an empty bird supply: play on with smaller hands, or trigger the end",
        "A16",
        choices=("play_on", "trigger_end"),
    ),
    RuleOption(
        "end_trigger",
        "choice",
        "attempted_draw",
        "the end is triggered by a draw from the empty feeder deck, or when it empties",
        "R29, A17",
        choices=("attempted_draw", "deck_emptied"),
    ),
    RuleOption(
        "pairs_count_for_majority",
        "bool",
        True,
        "paired birds count (and score) in species majorities",
        "R33, A20",
    ),
    RuleOption(
        "public_scoring_piles",
        "bool",
        True,
        "bots remember every seed card they saw enter a scoring pile",
        "A22",
    ),
    RuleOption(
        "squirrel_reveal",
        "choice",
        "victim_and_drawer",
        "who sees the seed cards a squirrel removes",
        "R21, A11, A22",
        choices=("victim_and_drawer", "public"),
    ),
    RuleOption(
        "first_player",
        "int_or_choice",
        "random",
        "seat of the start player",
        "R7, A23",
        choices=("random",),
        lo=0,
        hi=C.MAX_PLAYERS - 1,
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

# Rules vector layout ------------------------------------------------------------------------------
R_PERCHES = 0  # resolved for the player count (R2)
R_SPECIES = 1
R_STRENGTHS = 2
R_BIRD_POINTS = 3  # [MAX_STRENGTH]
R_HAND_SIZE = R_BIRD_POINTS + C.MAX_STRENGTH
R_QUEUE_SIZE = R_HAND_SIZE + 1
R_COLUMN_SIZE = R_QUEUE_SIZE + 1
R_MAX_BAD = R_COLUMN_SIZE + 1
R_SEEDS = R_MAX_BAD + 1  # [3] seed cards worth 1, 2, 3 in the game (2 players: "3+" removed)
R_CROWS = R_SEEDS + C.SEED_VALUES  # crows in the game (2 players: "3+" removed)
R_SQUIRRELS = R_CROWS + 1
R_STEAL = R_SQUIRRELS + 1
R_PAIR_POINTS = R_STEAL + 1
R_FINAL_DISCARD = R_PAIR_POINTS + 1
R_REMOVED_SPECIES = R_FINAL_DISCARD + 1  # -2: none (3-4 players), -1: random (A2), else the id
R_LONE_BAD = R_REMOVED_SPECIES + 1  # A7
R_KEEP_AFTER_CHAIN = R_LONE_BAD + 1  # A13
R_PROMOTE_BY_EGGS = R_KEEP_AFTER_CHAIN + 1  # A21
R_BIRDS_TRIGGER = R_PROMOTE_BY_EGGS + 1  # A16 trigger_end
R_DECK_EMPTIED = R_BIRDS_TRIGGER + 1  # A17 deck_emptied
R_PAIRS_IN_MAJORITY = R_DECK_EMPTIED + 1  # A20
R_PUBLIC_PILES = R_PAIRS_IN_MAJORITY + 1  # A22
R_REVEAL_ALL = R_PUBLIC_PILES + 1  # A22 squirrel_reveal=public
R_FIRST_PLAYER = R_REVEAL_ALL + 1  # -1: random (A23)
R_CROW_RANDOM = R_FIRST_PLAYER + 1  # A10
R_BAD_ATTACHED = R_CROW_RANDOM + 1  # A8
R_LEN = R_BAD_ATTACHED + 1

NO_REMOVAL = -2
RANDOM = -1


def perches_for(values: Mapping[str, Any], n_players: int) -> int:
    """R2: 3 perches with 4 players, 2 with 2 or 3, unless the option fixes them."""
    if values["perches"] == "auto":
        return 3 if n_players == 4 else 2
    return values["perches"]


def feeder_in_game(values: Mapping[str, Any], n_players: int) -> tuple[list[int], int, int]:
    """(seed cards worth 1, 2, 3; crows; squirrels) in the game: R3 removes the "3+" cards from a
    2-player game."""
    seeds = list(values["seed_counts"])
    crows = values["crows"]
    if n_players == 2:
        for v in values["three_plus_seed_values"]:
            seeds[v - 1] -= 1
        crows -= values["three_plus_crows"]
    return seeds, crows, values["squirrels"]


def species_in_game(values: Mapping[str, Any], n_players: int) -> int:
    return values["species"] - (1 if n_players == 2 else 0)


def check(values: Mapping[str, Any], n_players: int) -> None:
    """Checks across options; one-line ``CardsimError`` naming the problem."""
    first = values["first_player"]
    if first != "random" and first >= n_players:
        raise CardsimError(
            f"rule option first_player: seat {first} does not exist with {n_players} players"
        )
    if values["final_discard"] > values["hand_size"]:
        raise CardsimError("rule option final_discard: more than hand_size")
    removed = values["two_player_removed_species"]
    if removed != "random" and removed >= values["species"]:
        raise CardsimError(
            f"rule option two_player_removed_species: species {removed} is not in the game "
            f"(species={values['species']})"
        )
    if n_players == 2:
        counts = values["seed_counts"]
        for v in (1, 2, 3):
            need = list(values["three_plus_seed_values"]).count(v)
            if need > counts[v - 1]:
                raise CardsimError(
                    f"rule option three_plus_seed_values: {need} '3+' cards worth {v} but "
                    f"seed_counts has only {counts[v - 1]}"
                )
        if values["three_plus_crows"] > values["crows"]:
            raise CardsimError("rule option three_plus_crows: more than crows")
        if values["species"] < 2:
            raise CardsimError("rule option species: a 2-player game removes one, so at least 2")
    seeds, _, _ = feeder_in_game(values, n_players)
    if sum(seeds) < values["seed_column_size"]:
        raise CardsimError(
            f"rule option seed_counts: {sum(seeds)} seed cards in the game cannot fill a column "
            f"of {values['seed_column_size']}"
        )
    birds = species_in_game(values, n_players) * 2 * values["strengths"]
    needed = perches_for(values, n_players) + n_players * values["hand_size"] + values["queue_size"]
    if birds < needed:
        raise CardsimError(
            f"rule options species/strengths: {birds} bird cards cannot fill "
            f"{perches_for(values, n_players)} perches, {n_players} hands of "
            f"{values['hand_size']} and a queue of {values['queue_size']} ({needed} cards)"
        )


def encode(values: Mapping[str, Any], n_players: int) -> np.ndarray:
    """The int32 rules vector for the engine (layout ``R_*`` above)."""
    check(values, n_players)
    r = np.zeros(R_LEN, np.int32)
    r[R_PERCHES] = perches_for(values, n_players)
    r[R_SPECIES] = values["species"]
    r[R_STRENGTHS] = values["strengths"]
    r[R_BIRD_POINTS : R_BIRD_POINTS + C.MAX_STRENGTH] = values["bird_points"]
    r[R_HAND_SIZE] = values["hand_size"]
    r[R_QUEUE_SIZE] = values["queue_size"]
    r[R_COLUMN_SIZE] = values["seed_column_size"]
    r[R_MAX_BAD] = values["max_bad_cards_in_column"]
    seeds, crows, squirrels = feeder_in_game(values, n_players)
    r[R_SEEDS : R_SEEDS + C.SEED_VALUES] = seeds
    r[R_CROWS] = crows
    r[R_SQUIRRELS] = squirrels
    r[R_STEAL] = values["squirrel_steal"]
    r[R_PAIR_POINTS] = values["pair_points"]
    r[R_FINAL_DISCARD] = values["final_discard"]
    removed = values["two_player_removed_species"]
    if n_players != 2:
        r[R_REMOVED_SPECIES] = NO_REMOVAL
    else:
        r[R_REMOVED_SPECIES] = RANDOM if removed == "random" else removed
    r[R_LONE_BAD] = values["take_lone_bad_card"]
    r[R_KEEP_AFTER_CHAIN] = values["keep_option_after_chain"]
    r[R_CROW_RANDOM] = values["crow_victim"] == "random"
    r[R_BAD_ATTACHED] = values["bad_cards_attached"]
    r[R_PROMOTE_BY_EGGS] = values["promote_by"] == "egg_value"
    r[R_BIRDS_TRIGGER] = values["bird_exhaustion"] == "trigger_end"
    r[R_DECK_EMPTIED] = values["end_trigger"] == "deck_emptied"
    r[R_PAIRS_IN_MAJORITY] = values["pairs_count_for_majority"]
    r[R_PUBLIC_PILES] = values["public_scoring_piles"]
    r[R_REVEAL_ALL] = values["squirrel_reveal"] == "public"
    first = values["first_player"]
    r[R_FIRST_PLAYER] = RANDOM if first == "random" else first
    return r
