"""Piña Pirata: pirates, cards, tiles, decision codes and the layout of the int32 game state.

Plain constants read by the engine, the bots, the reference implementation and the replay.
Rules: ``pina-pirata.md`` (R1-R22, M1-M2, T1-T40, A1-A44).

Cards (``pina-pirata.md`` "Suggested card encoding"): a card is a bit mask of its pirates, bit
``p`` for pirate ``p`` in ``PIRATES`` order. With ``pirate_types`` = k and ``solitary_per_type``
= s, card ids are the duos ``(a, b)``, a < b, in lexicographic order, then for each pirate its s
solitary cards: 45 + 10 = 55 cards with the defaults (E3). The masks are public and kept in the
state (``F_MASKS``).

Seats are numbered clockwise; the player on your **left** is ``seat + 1`` (R6: the player to the
dealer's left plays first and turns pass clockwise), on your **right** ``seat - 1`` (A6: fixed
seats, whatever the direction of play).
"""

from cardsim.core.layout import HEADER_LEN

MAX_PLAYERS = 6
N_PIRATES = 10
PIRATES = (
    "Rabbit", "Parrot", "Monkey", "Octopus", "Tiger", "Penguin", "Crocodile", "Rat", "Turtle",
    "Walrus",
)  # fmt: skip
RABBIT, PARROT, MONKEY, OCTOPUS, TIGER, PENGUIN, CROCODILE, RAT, TURTLE, WALRUS = range(10)
ALL_PIRATES = (1 << N_PIRATES) - 1
MAX_SOLITARY = 3  # solitary_per_type range 0-3
MAX_CARDS = 45 + N_PIRATES * MAX_SOLITARY  # 75
N_TILES = 40
MAX_HAND_OPTION = 12

TILE_NAMES = (
    "",
    "Follow the Penguin", "Turtleball", "Iceberg", "Man Overboard", "Go Fish", "Acrobats",
    "No Other Walrus", "Walrus Attack", "Madness", "Tick Tock", "Bayou", "Staredown",
    "Mating Season", "Bunny Checkpoint", "Shipwreck", "Sabotage", "Recruiting", "Maelstrom",
    "Labyrinth", "Crystal Ball", "Stowaway", "Fake Map", "Picky Cartographer", "Migration",
    "Disinformation", "Rabbit Hunt", "Old Sea Dog", "Lucky Charm", "Big Hug",
    "The Tortoise and the Hare", "Alligaturtle", "Plan B", "Moonlight", "Despair",
    "Favorable Current", "Full Sails", "Double Rations", "New Captain", "Voodoo", "Ghost",
)  # fmt: skip
"""``TILE_NAMES[t]`` is tile Tt's name (index 0 unused)."""

# Tiles triggered by playing a card showing their key pirate (pina-pirata.md T-table, "play").
PLAY_KEY = {
    1: PENGUIN, 4: PARROT, 5: PARROT, 8: WALRUS, 10: CROCODILE, 12: CROCODILE, 14: OCTOPUS,
    15: OCTOPUS, 16: MONKEY, 17: MONKEY, 18: MONKEY, 19: RAT, 20: RAT, 21: RAT, 22: TURTLE,
    23: TURTLE, 25: TIGER, 27: TIGER, 30: RABBIT,
}  # fmt: skip
# "play onto" tiles: (key pirate played, pirate the card underneath must show)
PLAY_ONTO = {2: (PENGUIN, TURTLE), 26: (TIGER, RABBIT)}


def card_masks(pirate_types: int, solitary_per_type: int) -> list[int]:
    """The pirate mask of every card id (module docstring)."""
    masks = [(1 << a) | (1 << b) for a in range(pirate_types) for b in range(a + 1, pirate_types)]
    for p in range(pirate_types):
        masks += [1 << p] * solitary_per_type
    return masks


def card_name(mask: int) -> str:
    """``'Tiger/Rat'`` or ``'solitary Walrus'``."""
    names = [PIRATES[p] for p in range(N_PIRATES) if mask >> p & 1]
    return f"solitary {names[0]}" if len(names) == 1 else "/".join(names)


# Card locations (hidden F_LOC) ---------------------------------------------------------------------
LOC_DECK = 0
LOC_PILE = 1  # + pile (0, or 1 under T37)
LOC_ASIDE = 3  # set aside by T11 (face down; face up under aside_face_up, A15)
LOC_NONE = 4  # not in this game (unused card ids)
LOC_HAND = 8  # + seat
LOC_FRONT = 16  # + seat: in front of a player by T26 or T38 (R22)
LOC_VOODOO = 24  # + seat: in front of a player by T39 (R22)

# What a seat has seen of a card now out of its sight (F_SEEN, F_SEEN_VIEW): 0 nothing (or the
# card lies in a public place: Action pile, in front of a player), else where it lies
SEEN_ASIDE = LOC_ASIDE  # set aside by T11 (it saw the face: T13's deck top, or it looked)
SEEN_HAND = LOC_HAND  # + seat: in that seat's Hand (given, taken, revealed, looked at)
SEEN_DECK = 32  # + index from the deck's bottom (F_DECK): put there by it (T4), looked at (T20)

# Tile whereabouts (hidden F_TILE_WHERE) -------------------------------------------------------------
W_PILE = 0
W_PLAY = 1
W_REMOVED = 2  # replaced at 6 tiles (R17): out of the game
W_OUT = 3  # not in this game's tile_pool
W_MAP = 8  # + seat: a piece of that player's Treasure Map

# Decision phases (state[H_PHASE]) ------------------------------------------------------------------
PH_MAIN = 0  # the turn's step: play a card, or draw (R7, R8; T38 leader: draw or pass)
PH_EXTRA = 1  # an optional extra play (T8, T15, T26): play or PASS
PH_FULL_SAILS = 2  # T36's extra attempt: play (or draw, if must_play_if_able is off)
PH_T3 = 3  # after a draw: discard a Penguin card, or PASS
PH_T4 = 4  # put a card from your Hand on top of the deck
PH_T5_NAME = 5  # name a pirate and an opponent
PH_T5_GIVE = 6  # which card showing the named pirate is given (CTX_A = pirate, CTX_B = taker)
PH_T14 = 7  # reveal a Rabbit (YES) or draw (PASS)
PH_T15 = 8  # draw a card (YES) or not (PASS)
PH_T16 = 9  # give a card to the player on your left
PH_T17 = 10  # take a card from the Hand of the player on your right (the legal set shows it)
PH_T19 = 11  # take the card you played onto (YES) or not (PASS)
PH_T20_NAME = 12  # name a pirate for the deck's top card
PH_T20_DISCARD = 13  # discard a card (the top card showed the named pirate)
PH_T21 = 14  # discard a card under the card just played
PH_T23 = 15  # discard one card after drawing two
PH_T24 = 16  # give the Turtle just drawn (CTX_A) to the player on your left (YES) or keep it
PH_T27 = 17  # turn a tile face down (C_TILE + slot) or PASS
PH_T30 = 18  # reveal a card of your Hand (CTX_A = the player of the Rabbit)
PH_T35 = 19  # discard a card while holding exactly 5 cards, or PASS
PH_T40 = 20  # name the Joker pirate
PH_ASSIGN = 21  # round winner: which drawn tile goes into play and which becomes a map piece
PH_REPLACE = 22  # round winner at the tile limit: which tile in play the new one replaces
PH_T38_DRAW = 23  # cannot play, leading in cards in front (T38): DRAW or PASS
PHASE_NAMES = (
    "main", "extra_play", "full_sails", "iceberg_discard", "man_overboard", "go_fish_name",
    "go_fish_give", "bunny_reveal", "shipwreck_draw", "sabotage_give", "recruiting_take",
    "labyrinth_take", "crystal_ball_name", "crystal_ball_discard", "stowaway_discard",
    "cartographer_discard", "migration_give", "old_sea_dog_tile", "tortoise_reveal",
    "current_discard", "ghost_name", "assign_tiles", "replace_tile", "new_captain_draw",
)  # fmt: skip

# Decision codes (one code space; each phase lists its legal codes in ascending order) -------------
CARD_SPAN = 128  # > MAX_CARDS
C_PLAY = 0  # + pile * CARD_SPAN + card: play that card onto that Action pile (R7, R18)
C_DRAW = 256  # draw a card (R8)
C_PASS = 257  # decline an optional play, draw, discard, take or tile choice
C_YES = 258  # accept (T14 reveal, T15 draw, T19 take, T24 give)
C_CARD = 300  # + pile * CARD_SPAN + card: the card to give, take, reveal, put or discard
C_NAME = 600  # + pirate * MAX_PLAYERS + opponent (T5)
C_PIRATE = 700  # + pirate (T20, T40)
C_TILE = 800  # + slot of a tile in play (T27; R17's replacement)
C_ASSIGN = 900  # + play_index * 4 + map_index, index 3 = none (R11, A8, A41)
C_BEGIN = -1  # no decision: the game's first step (engine.begin, the play loop's deal)
MAX_LEGAL = 2 * MAX_CARDS + 8 + N_PIRATES * MAX_PLAYERS

# End reasons (state[H_END_REASON]); 0 is the core's turn cap ----------------------------------------
END_MAP = 1  # M2: a player holds the whole Treasure Map
END_CRUISE = 2  # M1: the planned number of rounds was played
END_REASONS = ("turn_cap", "treasure_map", "cruise_over")

# Task kinds of the engine's resumable task stack (engine.py) -----------------------------------------
K_TURN_START = 0
K_WINDOW = 1  # T35 window (a: next position in turn order)
K_MAIN = 2
K_TILE = 3  # a triggered tile resolving (a: slot, b: sub-step, c: scratch)
K_DRAWN = 4  # a draw-triggered tile (a: slot, b: drawing seat, c: card drawn)
K_OPT_EXTRAS = 5  # optional extra plays granted by T8 / T15
K_TURN_EXTRAS = 6  # T26 / T36 once per turn (a: next slot to look at)
K_TURN_END = 7
K_ROUND_END = 8  # (a: sub-step)
K_FULL_SAILS_DRAW = 9
TASK_LEN = 4
MAX_TASKS = 128

# State layout (int32) --------------------------------------------------------------------------------
# Public: a bot's observation is the prefix [0, OBS_LEN).
F_ACTIVE = HEADER_LEN  # seat whose turn it is
F_DIR = HEADER_LEN + 1  # +1 clockwise, -1 reversed (T1)
F_DEALER = HEADER_LEN + 2
F_ROUND = HEADER_LEN + 3  # rounds completed (won or capped)
F_ROUND_TURNS = HEADER_LEN + 4  # turns completed in this round
F_DECK_N = HEADER_LEN + 5
F_TOP = HEADER_LEN + 6  # [2] top card of each Action pile, -1 if none (pile 1: T37 only)
F_DECK_SHOWN = HEADER_LEN + 8  # T13: the deck's face-up top card, else -1
F_GHOST = HEADER_LEN + 9  # T40: pirate named as Joker, else -1
F_T22_HOLDER = HEADER_LEN + 10  # T22: seat holding Fake Map, else -1
F_SKIP = HEADER_LEN + 11  # T12: 1 while the next player's turn is to be skipped
F_PENDING_EXTRA = HEADER_LEN + 12  # optional extra plays granted (T8, T15)
F_CTX_A = HEADER_LEN + 13  # context of the pending decision (phase docs)
F_CTX_B = HEADER_LEN + 14
F_N_TILES = HEADER_LEN + 15  # tiles in play (face down included)
F_ADV_N = HEADER_LEN + 16  # tiles in the Adventure pile
F_N_CARDS = HEADER_LEN + 17  # cards in this game
F_REVEALED = HEADER_LEN + 18  # last card revealed by T20 (a hit), else -1
F_TILES = HEADER_LEN + 19  # [N_TILES] tile number per slot, oldest first (R15, A2), 0 empty
F_TILE_DOWN = F_TILES + N_TILES  # [N_TILES] 1 while turned face down (T27)
F_TILE_ADDER = F_TILE_DOWN + N_TILES  # [N_TILES] seat that put it in play, -1 at setup
F_SEATS = F_TILE_ADDER + N_TILES  # MAX_PLAYERS blocks of SEAT_LEN:
SH_HAND_N = 0  # cards in Hand
SH_FRONT_N = 1  # cards in front of the player (T26, T38, T39; R22)
SH_FRONT_MASK = 2  # pirates on those cards (T39 Jokers)
SH_MAPS = 3  # map pieces
SH_ROUNDS_WON = 4
SH_SHOWN = 5  # T33: the only card of a one-card Hand, face up; else -1
SH_REVEALED = (
    6  # this round's last reveal by the player (A15): the card shown to T30, REVEALED_RABBIT
)
# for a Rabbit card shown to T14 (A35: which one is not asked), else -1
SH_ASIDE_N = 7  # cards the player set aside by T11 that still lie aside (public: all see who
# played the Crocodile; the setter matters under A27's alternative, bayou_setter_only)
SEAT_LEN = 8
REVEALED_RABBIT = -2
F_MASKS = F_SEATS + MAX_PLAYERS * SEAT_LEN  # [MAX_CARDS] pirate mask per card id
F_ROUND_END = F_MASKS + MAX_CARDS  # [3] tiles the round winner drew (R11), 0 if none
HAND_WORDS = 3  # card sets as bits: bit c % 32 of word c // 32 is card c (MAX_CARDS <= 96)
# [N_PIRATES][HAND_WORDS] the cards printed with each pirate (F_MASKS as bit sets; engine.list_plays
# and the bots' per-pirate counts, a popcount each instead of a pass over every card)
F_PIRATE_BITS = F_ROUND_END + 3
# [MAX_PLAYERS][HAND_WORDS] the set-aside cards (T11) of each setter, as bit sets, while they lie
# face up (A15's alternative, aside_face_up); all 0 under the default (face down)
F_ASIDE_UP = F_PIRATE_BITS + N_PIRATES * HAND_WORDS
PUBLIC_END = F_ASIDE_UP + MAX_PLAYERS * HAND_WORDS  # the table as reference.py models it
# The rest of the table: what every player has seen but the reference does not model (the whole
# Action piles, the play being resolved, the task stack), before the deciding seat's own view.
# Public (pina-pirata.md A15), so a search bot's determinizer (determinize.py) reads it: a
# perfect-recall player knows every card played onto the piles and what the tiles still owe.
F_PILE = PUBLIC_END  # [2][MAX_CARDS] Action piles, bottom first
F_PILE_N = F_PILE + 2 * MAX_CARDS  # [2]
F_N_PILES = F_PILE_N + 2  # 1, or 2 under T37
F_TILE_SLOT = F_N_PILES + 1  # [N_TILES + 1] slot of a tile in play, else -1
F_PLAY_SEAT = F_TILE_SLOT + N_TILES + 1  # the play being resolved: its player,
F_PLAY_CARD = F_PLAY_SEAT + 1  # card,
F_PLAY_UNDER = F_PLAY_CARD + 1  # the top card it was played onto (-1: went in front, T38),
F_PLAY_PILE = F_PLAY_UNDER + 1  # the Action pile it went to
F_MAIN_PLAYED = F_PLAY_PILE + 1  # 1 if this turn's main step was a play (T36, A24)
F_ROUND_FIRST = F_MAIN_PLAYED + 1  # first player of this round (R6)
F_WINNER = F_ROUND_FIRST + 1  # round winner, -1
F_GAME_WINNER = F_WINNER + 1
F_TURN_PLAYS = F_GAME_WINNER + 1  # plays made in this turn (A16: an endless chain of extra plays)
F_ASIDE_N = F_TURN_PLAYS + 1  # cards set aside by T11 (A15: seen, not their faces unless face up)
F_TILES_ON = (
    F_ASIDE_N + 1
)  # [2] bit t % 32 of word t // 32: tile t in play face up (engine.sync_tiles)
# pirates whose play can set off a face-up tile (-1: any play can, T11 or T40; engine.sync_tiles)
F_TRIGGERS = F_TILES_ON + 2
# [N_TILES] per slot, the pirates whose play sets off its tile (face up; 0 else), with
# SLOT_CHECK when the play must also pass the tile's own test (T2, T26's card underneath; T40's
# solitary card): the play's pass over the tiles reads a word per slot (engine.sync_tiles)
F_SLOT_TRIGGERS = F_TRIGGERS + 1
SLOT_CHECK = 1 << 30
# [MAX_PLAYERS][HAND_WORDS] the cards in front of each player (T26, T38, T39; R22), as bit sets
F_FRONT_BITS = F_SLOT_TRIGGERS + N_TILES
F_VOODOO_BITS = F_FRONT_BITS + MAX_PLAYERS * HAND_WORDS  # [HAND_WORDS] those of them from T39
F_REMOVED_TILES = F_VOODOO_BITS + HAND_WORDS  # [2] bit t % 32 of word t // 32: removed (R17)
# [HAND_WORDS] while F_DECK_POOL_ON is 1, every card of the deck is one of these: the cards of the
# Action pile(s) reshuffled into it (R8, A7), seen there by everybody; 0 after a deal (any card)
# or once a card nobody else saw went in (T4's, T11's under T27)
F_DECK_POOL = F_REMOVED_TILES + 2
F_DECK_POOL_ON = F_DECK_POOL + HAND_WORDS
F_SP = F_DECK_POOL_ON + 1  # tasks on the stack
F_STACK = F_SP + 1  # [MAX_TASKS][TASK_LEN] (a popped K_DRAWN task's card is wiped: private)
TABLE_END = F_STACK + MAX_TASKS * TASK_LEN
# The deciding seat's own view (engine.show writes it at each decision):
F_ACTIVE_HAND = TABLE_END  # [MAX_CARDS] 1 for each card in the deciding seat's Hand
F_SHOWN_BITS = F_ACTIVE_HAND + MAX_CARDS  # [HAND_WORDS] the same Hand as a bit set
# [MAX_CARDS] where the deciding seat has seen each card that is out of sight now (SEEN_*, 0:
# not seen, or in a public place): its row of F_SEEN
F_SEEN_VIEW = F_SHOWN_BITS + HAND_WORDS
F_OWN_MAPS = F_SEEN_VIEW + MAX_CARDS  # [2] the tiles of its own Treasure Map, bits as F_TILES_ON
F_SCRATCH = F_OWN_MAPS + 2  # free for the bot; the engine never reads it
SCRATCH_LEN = 64
OBS_HAND = F_ACTIVE_HAND
OBS_SCRATCH = F_SCRATCH
OBS_LEN = F_SCRATCH + SCRATCH_LEN
# Hidden from bots:
F_LOC = OBS_LEN  # [MAX_CARDS] LOC_* of each card
F_DECK = F_LOC + MAX_CARDS  # [MAX_CARDS] bottom first, top last (count F_DECK_N)
F_ADV = F_DECK + MAX_CARDS  # [N_TILES] Adventure pile, bottom first, top last
F_TILE_WHERE = F_ADV + N_TILES  # [N_TILES + 1] W_* per tile number
F_HAND_BITS = F_TILE_WHERE + N_TILES + 1  # [MAX_PLAYERS][HAND_WORDS] each Hand as a bit set
# [MAX_PLAYERS][MAX_CARDS] each Hand as F_ACTIVE_HAND shows it (1 per card held): a decision's
# F_ACTIVE_HAND is a copy of one row (engine.show), not an expansion of the bits
F_HAND_CARDS = F_HAND_BITS + MAX_PLAYERS * HAND_WORDS
# [MAX_PLAYERS][MAX_CARDS] what each seat has seen of the cards out of its sight (SEEN_*; engine
# "What each seat has seen"), with the count of entries set per seat and in all
F_SEEN = F_HAND_CARDS + MAX_PLAYERS * MAX_CARDS
F_SEEN_N = F_SEEN + MAX_PLAYERS * MAX_CARDS  # [MAX_PLAYERS]
F_SEEN_TOTAL = F_SEEN_N + MAX_PLAYERS
F_SEEN_VIEW_N = F_SEEN_TOTAL + 1  # entries set in F_SEEN_VIEW (show copies a row only then)
F_MAP_BITS = F_SEEN_VIEW_N + 1  # [MAX_PLAYERS][2] each seat's map tiles (F_OWN_MAPS)
F_COUNTERS = F_MAP_BITS + 2 * MAX_PLAYERS  # MAX_PLAYERS blocks of N_COUNTERS

SEAT_COUNTERS = (
    "rounds_won",  # rounds this seat won (R10)
    "map_pieces",  # map pieces held at the end (M2; starting piece included)
    "cards_played",  # cards played (R7, R18; extra plays included)
    "cards_drawn",  # cards drawn from the deck into the Hand (R8 and tiles, A18)
    "tiles_triggered",  # tile effects its plays set off (resolved face up)
    "tiles_against",  # tile effects of others' plays that struck it (T2, T5, T10, T12, T14, T16, T17)
    "first_player_rounds",  # rounds in which it took the first turn (R6, R12)
)
(
    C_ROUNDS_WON,
    C_MAP_PIECES,
    C_CARDS_PLAYED,
    C_CARDS_DRAWN,
    C_TILES_TRIGGERED,
    C_TILES_AGAINST,
    C_FIRST_PLAYER_ROUNDS,
) = range(7)
N_COUNTERS = len(SEAT_COUNTERS)
ROUND_SLOTS = 12  # per-round figures kept for the first rounds

GAME_COUNTERS = (
    "rounds",  # rounds played (won or ended by the round turn cap)
    "rounds_capped",  # rounds ended by round_turn_cap with no winner (A16)
    "longest_round",  # turns of the longest round
    "first_player_wins",  # rounds won by the round's first player (R6)
    "tiles_at_wins",  # tiles in play summed over the round wins
    "tile_resets",  # Cruise resets (M1, A13)
    *(f"turns_round_{i + 1}" for i in range(ROUND_SLOTS)),  # turns of round i (0: not played)
    *(f"tiles_round_{i + 1}" for i in range(ROUND_SLOTS)),  # tiles in play during round i
)
G_ROUNDS = 0
G_ROUNDS_CAPPED = 1
G_LONGEST = 2
G_FIRST_WINS = 3
G_TILES_AT_WINS = 4
G_RESETS = 5
G_TURNS_ROUND = 6
G_TILES_ROUND = G_TURNS_ROUND + ROUND_SLOTS
N_GAME_COUNTERS = len(GAME_COUNTERS)
F_GAME_COUNTERS = F_COUNTERS + MAX_PLAYERS * N_COUNTERS
# [MAX_CARDS] the seat that set each card aside (T11): read only under A27's alternative
# (bayou_setter_only), so it lies past the counters, outside every bot's view but public in play
F_ASIDE_BY = F_GAME_COUNTERS + N_GAME_COUNTERS
STATE_LEN = F_ASIDE_BY + MAX_CARDS


COUNTER_GLOSSARY = {
    "rounds_won": "rounds the player won by ending a turn with an empty Hand or by T28/T32 (R10)",
    "map_pieces": "Treasure Map pieces held at the end, the one given at setup included (M2, A42)",
    "cards_played": "cards the player played onto an Action pile or in front (R7, R18; extra plays included)",
    "cards_drawn": "cards the player drew from the deck into the Hand, tile draws included (R8, A18)",
    "tiles_triggered": "tile effects the player's plays set off (each resolved face up, R15)",
    "tiles_against": "tile effects of other players' plays that struck the player (T2, T5, T10, T12, T14, T16, T17)",
    "first_player_rounds": "rounds in which the player took the first turn (R6, R12)",
    "rounds": "rounds played, won or ended by the round turn cap",
    "rounds_capped": "rounds ended by round_turn_cap with no winner (A16 safeguard)",
    "longest_round": "turns of the game's longest round",
    "first_player_wins": "rounds won by the round's first player (R6)",
    "tiles_at_wins": "tiles in play summed over the round wins",
    "tile_resets": "Cruise tile resets (M1, A13)",
    **{
        f"turns_round_{i + 1}": f"turns of round {i + 1} (0: not played)"
        for i in range(ROUND_SLOTS)
    },
    **{f"tiles_round_{i + 1}": f"tiles in play during round {i + 1}" for i in range(ROUND_SLOTS)},
}
OUTCOME_COUNTERS = ("rounds_won", "map_pieces")  # the score itself (M1: rounds, M2: map pieces)


def seat_field(seat: int, field: int) -> int:
    return F_SEATS + seat * SEAT_LEN + field
