"""Piña Pirata rule options: every entry of ``pina-pirata.md``'s Parameters table (but
``n_players``, which is ``--players``) with the doc's defaults and ranges, plus the core's game-level
turn cap; and their encoding into the int32 rules vector the engine reads (``R_*`` below).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from cardsim.core.errors import CardsimError
from cardsim.core.options import RuleOption
from cardsim.games.pina_pirata import cards as C

OPTIONS = (
    RuleOption("hand_size", "int", 8, "cards dealt to each player (2-5 players)", "R4", lo=1, hi=12),
    RuleOption("hand_size_6p", "int", 7, "cards dealt to each player with 6 players", "R4", lo=1, hi=12),
    RuleOption("pirate_types", "int", 10, "pirate types in the deck (the first ones of Rabbit, Parrot, Monkey, Octopus, Tiger, Penguin, Crocodile, Rat, Turtle, Walrus)", "Components", lo=2, hi=10),
    RuleOption("solitary_per_type", "int", 1, "solitary cards of each pirate", "Components", lo=0, hi=C.MAX_SOLITARY),
    RuleOption("mode", "choice", "treasure_hunt", "M1 cruise (fixed rounds, tile resets) or M2 treasure hunt (first to the map)", "M1, M2", choices=("cruise", "treasure_hunt")),
    RuleOption("start_tiles", "int", 2, "tiles drawn into play at setup", "R2, A41", lo=0, hi=6),
    RuleOption("tiles_drawn_at_round_end", "int", 3, "tiles the round winner draws", "R11, A12, A41", lo=2, hi=3),
    RuleOption("max_tiles_in_play", "int", 6, "most tiles in play in Treasure Hunt (a new one replaces one)", "R17", lo=1, hi=40),
    RuleOption("map_pieces_to_win", "int", 3, "map pieces to win besides the one given at setup", "M2, A42", lo=1, hi=3),
    RuleOption("cruise_rounds", "int", 10, "rounds of a Cruise game", "M1, A13", lo=1, hi=1000),
    RuleOption("cruise_reset_at", "int_or_choice", 8, "Cruise: reset the tiles when this many are in play", "M1, A13, A41", choices=("never",), lo=2, hi=20),
    RuleOption("tile_pool", "int_list", "all", "tiles in the game (T-numbers), or all", "Variants, A41", choices=("all",), lo=1, hi=40, prefix="T"),
    RuleOption("fixed_tiles", "int_list", "none", "tiles in play from the start, oldest first (T-numbers), or none", "studies", choices=("none",), lo=1, hi=40, prefix="T"),
    RuleOption("must_play_if_able", "bool", True, "a player who can play must play", "R7, A1"),
    RuleOption("discard_to_top", "bool", True, "a discard becomes the Action pile's top card (false: goes beneath it)", "R19, A3"),
    RuleOption("joker_on_top_matches_all", "bool", False, "a Joker on top of the Action pile matches any card", "R21, A4"),
    RuleOption("win_check_any_player", "bool", False, "any player with an empty Hand at the end of any turn wins", "R10, A5"),
    RuleOption("favorable_current_any_turn", "bool", True, "T35 may be used on any turn (false: own turn only)", "T35, A17"),
    RuleOption("tile_conflict", "choice", "prohibition_wins", "contradicting tiles: a prohibition wins, or the newest tile", "A19", choices=("prohibition_wins", "newest_wins")),
    RuleOption("full_sails_after_draw", "bool", True, "T36's extra attempt also after a draw", "T36, A24"),
    RuleOption("plan_b_duo_counts_twice", "bool", True, "T32: one duo may supply two of the pirates", "T32, A31"),
    RuleOption("go_fish_chooser", "choice", "giver", "T5: who chooses the card given", "T5, A36", choices=("giver", "taker", "random")),
    RuleOption("tortoise_reveal", "choice", "choice", "T30: the card each opponent reveals", "T30, A37", choices=("choice", "random")),
    RuleOption("solitary_walrus_scope", "choice", "play_only", "T7: the solitary Walrus is every pirate when played only, or everywhere", "T7, A38", choices=("play_only", "everywhere")),
    RuleOption("alligaturtle_scope", "choice", "all_purposes", "T31: Turtles and Crocodiles are one for all purposes, or for matching and triggers", "T31, A39", choices=("all_purposes", "matching_and_triggers")),
    RuleOption("voodoo_all_players", "bool", True, "T39: every player draws a Voodoo card (false: the player who added it)", "T39, A33"),
    RuleOption("stowaway_empty_hand_draws", "bool", True, "T21: a player left with no card after the play still draws (false: the effect is skipped, the player goes out)", "T21, A43"),
    RuleOption("front_ties_lead", "bool", False, "T26, T38: a player tied for the most cards in front (at least one) counts as having more", "T26, T38, A29"),
    RuleOption("tortoise_skips_empty_hands", "bool", False, "T30: an opponent with no cards is ignored (false: reveals nothing, so no draw)", "T30, A30"),
    RuleOption("rabbit_reveal_compulsory", "bool", False, "T14: a player holding a Rabbit must reveal it", "T14, A35"),
    RuleOption("aside_face_up", "bool", False, "T11: the set-aside cards lie face up, seen by every player (false: face down, only their number is seen)", "T11, A15"),
    RuleOption("bayou_setter_only", "bool", False, "T11: only the player who set cards aside takes them (false: any player who plays no Crocodile takes them all)", "T11, A27"),
    RuleOption("staredown_skips_add_up", "bool", False, "T12: each Staredown set off in a turn skips one more turn (false: any number give one skip)", "T12, A44"),
    RuleOption("winner_picks_play_tile_only", "bool", False, "R11: the round winner picks only the tile for play; the first drawn of the other two is the map piece", "R11, A8"),
    RuleOption("reuse_removed_tiles", "bool", False, "R11: when the Adventure pile runs short, the removed tiles are shuffled back into it", "R11, R17, A41"),
    RuleOption("first_dealer", "int_or_choice", "random", "seat of the first dealer", "R3", choices=("random",), lo=0, hi=C.MAX_PLAYERS - 1),
    RuleOption("round_turn_cap", "int", 2000, "safeguard: end a round with no winner after this many turns, or when a turn has made this many plays and could chain another extra play", "A16", lo=1, hi=1000000),
    RuleOption("turn_cap", "int", 10000, "safeguard: end the game after this many turns per player, all rounds together", "core", lo=1, hi=1000000),
)  # fmt: skip

# Rules vector layout --------------------------------------------------------------------------------
R_HAND_SIZE = 0  # for this game's player count (hand_size, or hand_size_6p with 6 players)
R_PIRATE_TYPES = 1
R_SOLITARY = 2
R_CRUISE = 3  # 1: M1 Cruise, 0: M2 Treasure Hunt
R_START_TILES = 4
R_TILES_DRAWN = 5
R_MAX_TILES = 6
R_MAP_TO_WIN = 7
R_CRUISE_ROUNDS = 8
R_CRUISE_RESET = 9  # 0: never
R_MUST_PLAY = 10
R_DISCARD_TOP = 11
R_JOKER_TOP = 12
R_WIN_ANY = 13
R_CURRENT_ANY = 14
R_NEWEST_WINS = 15
R_SAILS_AFTER_DRAW = 16
R_PLAN_B_TWICE = 17
R_GO_FISH = 18  # 0 giver, 1 taker, 2 random
R_TORTOISE_RANDOM = 19
R_WALRUS_EVERYWHERE = 20
R_ALLIGATURTLE_ALL = 21
R_VOODOO_ALL = 22
R_FIRST_DEALER = 23  # -1 random
R_ROUND_CAP = 24
R_STOWAWAY_DRAWS = 25
R_FRONT_TIES = 26
R_TORTOISE_SKIPS_EMPTY = 27
R_RABBIT_COMPULSORY = 28
R_BAYOU_SETTER_ONLY = 29
R_SKIPS_ADD_UP = 30
R_PICK_PLAY_ONLY = 31
R_REUSE_REMOVED = 32
R_ASIDE_FACE_UP = 33
R_N_POOL = 34
R_N_FIXED = 35
R_POOL = 36  # [N_TILES] tile numbers of the pool minus the fixed tiles, ascending
R_FIXED = R_POOL + C.N_TILES  # [N_TILES] fixed tiles, oldest first
R_STOP_FORCED = R_FIXED + C.N_TILES  # not an option: 1 makes step return forced decisions too
# (scenario tests look at the table after each one); runs leave it 0
R_LEN = R_STOP_FORCED + 1


def tiles_of(values: Mapping[str, Any]) -> tuple[list[int], list[int]]:
    """(pile tiles ascending, fixed tiles in order): the pool without the fixed tiles."""
    pool = values["tile_pool"]
    pool = list(range(1, C.N_TILES + 1)) if pool == "all" else sorted(set(pool))
    fixed = [] if values["fixed_tiles"] == "none" else list(values["fixed_tiles"])
    return [t for t in pool if t not in fixed], fixed


def check(values: Mapping[str, Any], n_players: int) -> None:
    """Checks across options; one-line ``CardsimError`` naming the problem."""
    pile, fixed = tiles_of(values)
    if len(set(fixed)) != len(fixed):
        raise CardsimError("rule option fixed_tiles: a tile is named twice")
    first = values["first_dealer"]
    if first != "random" and first >= n_players:
        raise CardsimError(
            f"rule option first_dealer: seat {first} does not exist with {n_players} players"
        )
    k, s = values["pirate_types"], values["solitary_per_type"]
    deck = k * (k - 1) // 2 + k * s
    hand = values["hand_size_6p"] if n_players == 6 else values["hand_size"]
    if n_players * hand + 2 > deck:
        raise CardsimError(
            f"rule option hand_size: {n_players} hands of {hand} need {n_players * hand + 2} "
            f"cards with the Action piles, the deck has {deck}"
        )
    treasure = values["mode"] == "treasure_hunt"
    setup = values["start_tiles"] + (n_players if treasure else 0)
    if len(fixed) + values["start_tiles"] > (values["max_tiles_in_play"] if treasure else 40):
        raise CardsimError(
            "rule option fixed_tiles: more tiles in play at setup than max_tiles_in_play"
        )
    if len(pile) < setup:
        raise CardsimError(
            f"rule option tile_pool: setup needs {setup} tiles besides the fixed ones, the pool has {len(pile)}"
        )
    reset = values["cruise_reset_at"]
    if not treasure and reset != "never" and reset <= len(fixed) + values["start_tiles"]:
        raise CardsimError("rule option cruise_reset_at: not above the tiles in play at setup")


def encode(values: Mapping[str, Any], n_players: int) -> np.ndarray:
    """The int32 rules vector for the engine (layout ``R_*`` above)."""
    check(values, n_players)
    r = np.zeros(R_LEN, np.int32)
    r[R_HAND_SIZE] = values["hand_size_6p"] if n_players == 6 else values["hand_size"]
    r[R_PIRATE_TYPES] = values["pirate_types"]
    r[R_SOLITARY] = values["solitary_per_type"]
    r[R_CRUISE] = values["mode"] == "cruise"
    r[R_START_TILES] = values["start_tiles"]
    r[R_TILES_DRAWN] = values["tiles_drawn_at_round_end"]
    r[R_MAX_TILES] = values["max_tiles_in_play"]
    r[R_MAP_TO_WIN] = values["map_pieces_to_win"]
    r[R_CRUISE_ROUNDS] = values["cruise_rounds"]
    reset = values["cruise_reset_at"]
    r[R_CRUISE_RESET] = 0 if reset == "never" else reset
    r[R_MUST_PLAY] = values["must_play_if_able"]
    r[R_DISCARD_TOP] = values["discard_to_top"]
    r[R_JOKER_TOP] = values["joker_on_top_matches_all"]
    r[R_WIN_ANY] = values["win_check_any_player"]
    r[R_CURRENT_ANY] = values["favorable_current_any_turn"]
    r[R_NEWEST_WINS] = values["tile_conflict"] == "newest_wins"
    r[R_SAILS_AFTER_DRAW] = values["full_sails_after_draw"]
    r[R_PLAN_B_TWICE] = values["plan_b_duo_counts_twice"]
    r[R_GO_FISH] = ("giver", "taker", "random").index(values["go_fish_chooser"])
    r[R_TORTOISE_RANDOM] = values["tortoise_reveal"] == "random"
    r[R_WALRUS_EVERYWHERE] = values["solitary_walrus_scope"] == "everywhere"
    r[R_ALLIGATURTLE_ALL] = values["alligaturtle_scope"] == "all_purposes"
    r[R_VOODOO_ALL] = values["voodoo_all_players"]
    r[R_STOWAWAY_DRAWS] = values["stowaway_empty_hand_draws"]
    r[R_FRONT_TIES] = values["front_ties_lead"]
    r[R_TORTOISE_SKIPS_EMPTY] = values["tortoise_skips_empty_hands"]
    r[R_RABBIT_COMPULSORY] = values["rabbit_reveal_compulsory"]
    r[R_BAYOU_SETTER_ONLY] = values["bayou_setter_only"]
    r[R_SKIPS_ADD_UP] = values["staredown_skips_add_up"]
    r[R_PICK_PLAY_ONLY] = values["winner_picks_play_tile_only"]
    r[R_REUSE_REMOVED] = values["reuse_removed_tiles"]
    r[R_ASIDE_FACE_UP] = values["aside_face_up"]
    first = values["first_dealer"]
    r[R_FIRST_DEALER] = -1 if first == "random" else first
    r[R_ROUND_CAP] = values["round_turn_cap"]
    pile, fixed = tiles_of(values)
    r[R_N_POOL] = len(pile)
    r[R_N_FIXED] = len(fixed)
    r[R_POOL : R_POOL + len(pile)] = pile
    r[R_FIXED : R_FIXED + len(fixed)] = fixed
    return r
