"""Pajarracos: card types, decision codes, and the layout of the int32 game state.

Everything here is plain constants: the engine, the bots, the reference implementation and the
replay all read the state through these names. Rules: ``pajarracos.md`` (R1-R26, A1-A17).

Card types (a hand is a count per type; cards of one type are interchangeable, A16)::

    FRUIT + k   (k = 0..4)  ordinary fruit card of kind k      types 0..4
    JUICY + k   (k = 0..4)  juicy fruit card of kind k (R9)    types 5..9
    LONE_CROW               crow card that eats one fruit (R12) type 10
    FLOCK                   crow card that eats a tree (R13)    type 11
    SCARECROW               (R15-R19)                            type 12

Deck order before the shuffle (card ids, pajarracos.md "Suggested card encoding", generalised to
the rule options): fruit ``id = kind * fruit_per_kind + index``, the ``juicy_per_kind`` lowest
indices juicy; then the lone crows, the flocks, the scarecrows.

Trees: seat ``s``'s tree of kind ``k`` has index ``tree = s * MAX_KINDS + k``. A tree exists while
its size is at least 1; a crow card or scarecrow lies on an existing tree only.
"""

from cardsim.core.layout import HEADER_LEN

MAX_PLAYERS = 6
MAX_KINDS = 5  # fruit_kinds range 1-5
MAX_PER_KIND = 20  # fruit_per_kind range 1-20
MAX_LONE_CROWS = 20
MAX_FLOCKS = 10
MAX_SCARECROWS = 20
MAX_HAND = 10  # hand_size range 1-10
MAX_DECK = MAX_KINDS * MAX_PER_KIND + MAX_LONE_CROWS + MAX_FLOCKS + MAX_SCARECROWS
N_TREES = MAX_PLAYERS * MAX_KINDS

KIND_NAMES = ("cherries", "apples", "oranges", "bananas", "grapes")  # pajarracos.md Components

# Card types ----------------------------------------------------------------------------------------
FRUIT = 0  # + kind: ordinary fruit
JUICY = 5  # + kind: juicy fruit (R9, A1)
LONE_CROW = 10
FLOCK = 11
SCARECROW = 12
N_TYPES = 13
CROW_TYPES = (LONE_CROW, FLOCK)

# What lies on a tree (seat block TREE_CROW) ------------------------------------------------------
NO_CROW, LONE, FLOCK_ON = 0, 1, 2  # FLOCK_ON: a flock of crows (R13)

# Discard pile classes (public, A16): a fruit card is a fruit of its kind there, juicy or not --------
D_FRUIT = 0  # + kind
D_LONE_CROW = 5
D_FLOCK = 6
D_SCARECROW = 7
N_DISCARD = 8

# Decision phases (state[H_PHASE]) ---------------------------------------------------------------
PHASE_ACTION = 0  # choose an action and its first part (R5); also each extra turn (R18), whose
# list also holds C_DECLINE when the extra turn may be declined (A17)
PHASE_JUICY_CROW = 1  # which crow card a juicy card attracts, when several are on trees (R10)
PHASE_FRUIT_MORE = 2  # split fruit plays only (A3 alternative): another orchard, or stop
PHASE_CROW_MORE = 3  # another crow card onto another open tree, or stop (R11, A7)
PHASE_SCARECROW_MORE = 4  # another scarecrow onto another own tree, or stop (R15, A8)
PHASE_DISCARD_MORE = 5  # another hand card of the same or a later type, or stop (R20)
PHASE_NAMES = ("action", "juicy_crow", "fruit_more", "crow_more", "scarecrow_more", "discard_more")

# Decision codes -----------------------------------------------------------------------------------
# One code space for all phases; a phase lists its legal codes in ascending code order, STOP first.
STOP = 0  # end a multi-part action
C_FRUIT = 1  # + (kind * MAX_PLAYERS + target) * PLAY_SPAN + ordinary * COUNT_BASE + juicy: play
# that many ordinary and juicy cards of `kind` into the target's orchard (R6-R9)
COUNT_BASE = 16  # > MAX_HAND
PLAY_SPAN = (MAX_HAND + 1) * COUNT_BASE
C_CROW = C_FRUIT + MAX_KINDS * MAX_PLAYERS * PLAY_SPAN  # + crow * N_TREES + tree; crow 0 = lone,
# 1 = flock (R11)
C_PROTECT = C_CROW + 2 * N_TREES  # + own kind: scarecrow protects that tree (R16)
C_SHOO_OUT = C_PROTECT + MAX_KINDS  # + own kind: "Shoo, out of the orchard!" (R17, R18)
C_SHOO_TO = C_SHOO_OUT + MAX_KINDS  # + own kind * N_TREES + destination tree (R19, A9)
C_DISCARD = C_SHOO_TO + MAX_KINDS * N_TREES  # + card type: discard one card of it (R20)
C_PASS = C_DISCARD + N_TYPES  # discard nothing (only with discard_min = 0, A12)
C_JUICY_CROW = C_PASS + 1  # + source tree of the crow card (R10)
C_DECLINE = C_JUICY_CROW + N_TREES  # decline the extra turn just begun: the turn ends (R18, A17)
N_CODES = C_DECLINE + 1
MAX_LEGAL = 512  # at most 210 fruit plays (10 cards, 6 orchards) + 50 crow + 135 scarecrow + 15


def fruit_code(kind: int, target: int, ordinary: int, juicy: int) -> int:
    """The decision code of a fruit play (R6-R9)."""
    return C_FRUIT + (kind * MAX_PLAYERS + target) * PLAY_SPAN + ordinary * COUNT_BASE + juicy


def fruit_play(code: int) -> tuple[int, int, int, int]:
    """(kind, target, ordinary, juicy) of a fruit play code."""
    orchard, count = divmod(code - C_FRUIT, PLAY_SPAN)
    kind, target = divmod(orchard, MAX_PLAYERS)
    return kind, target, *divmod(count, COUNT_BASE)


# End reasons (state[H_END_REASON]); 0 is the core's turn cap ------------------------------------
END_EMPTY_HAND = 1  # R23: the player to move holds no card
END_EMPTY_EXTRA_TURN = 2  # R23, A10: an extra turn begins with no card in hand and no reserve
END_REASONS = ("turn_cap", "empty_hand", "empty_hand_extra_turn")

# State layout (int32) -----------------------------------------------------------------------------
# [0, HEADER_LEN): the core header (cardsim.core.layout). H_TRIGGERED is 1 once the reserve pile is
# empty (R22). Then, all public (a bot's observation starts with state[:PUBLIC_END]):
F_RESERVE_LEFT = HEADER_LEN  # cards in the reserve pile
F_CROWS_ON_TREES = HEADER_LEN + 1  # crow cards lying on trees, all orchards
F_CTX_KIND = HEADER_LEN + 2  # fruit kind of the fruit action under way, else -1
F_CTX_TARGET = HEADER_LEN + 3  # orchard (seat) of the fruit batch under way, else -1
F_CTX_LAST = (
    HEADER_LEN + 4
)  # last tree (crow), own kind (scarecrow) or type (discard) chosen, else -1
F_CTX_USED = HEADER_LEN + 5  # bit per orchard (fruit action) or own kind (scarecrow action) used
F_CTX_SHOO_OUT = HEADER_LEN + 6  # 1 once this scarecrow action shooed a crow out (R18)
F_CTX_SHOO_TO = HEADER_LEN + 7  # 1 once this scarecrow action shooed a crow to a tree (R19)
F_EXTRA_TURNS = HEADER_LEN + 8  # extra turns begun in the current turn (R18, A10)
# Rule options a bot needs to read the table right (public: the rules are known to every player)
F_JUICY_OWN_CROWS = HEADER_LEN + 9  # 1: a juicy card may attract a crow off its player's trees (A4)
F_SHOO_TO_ENDS = HEADER_LEN + 10  # 1: a shoo-to is the action's last scarecrow (A8, A11)
# The trees as bit sets, kept by the engine as the trees change (what the seat blocks below say,
# read in one word by the listings and the bots instead of a pass over every tree):
F_FRUIT_TREES = HEADER_LEN + 11  # bit kind * MAX_PLAYERS + seat (a fruit code's orchard): the
# tree, existing or not, has no crow and no scarecrow, so it takes fruit (R7, R8)
F_OPEN_TREES = HEADER_LEN + 12  # bit tree (seat * MAX_KINDS + kind): an existing tree with no
# crow and no scarecrow, open to a crow card of another player (R11, R16, A7, A9)
F_CROWED_TREES = HEADER_LEN + 13  # bit tree: a crow card lies on it (R10, R12-R14)
F_DISCARD = HEADER_LEN + 14  # [N_DISCARD] discard pile by class D_*
# Juicy cards of each kind seen leaving a hand, played or discarded: a played card is face up, so
# every player saw it was juicy (A16) even though the tree and the discard pile no longer tell
# (a search bot's determinizer needs it to know how many juicy cards are still unseen)
F_JUICY_SEEN = F_DISCARD + N_DISCARD  # [MAX_KINDS]
# final_tie=replay (A14), public as every player knows a replay is under way and among whom:
F_TIE_MASK = F_JUICY_SEEN + MAX_KINDS  # the seats still tied, 0 before a replay (rules read it)
F_TIE_REPLAYS = F_TIE_MASK + 1  # games replayed to break a final tie
F_SEATS = F_TIE_REPLAYS + 1  # MAX_PLAYERS blocks of SEAT_LEN, one per seat:
TREE_SIZE = 0  # [MAX_KINDS] fruit cards in the tree of each kind (0: no tree)
TREE_CROW = MAX_KINDS  # [MAX_KINDS] NO_CROW, LONE or FLOCK_ON
TREE_SCARECROW = 2 * MAX_KINDS  # [MAX_KINDS] 1 if protected (R16)
TREE_SENDER = 3 * MAX_KINDS  # [MAX_KINDS] seat that sent the crow card there, -1 if none
HAND_COUNT = 4 * MAX_KINDS  # cards in hand (hands are private, their sizes are not)
SEAT_LEN = HAND_COUNT + 1
PUBLIC_END = F_SEATS + MAX_PLAYERS * SEAT_LEN
# A bot's observation is the state's prefix [0, OBS_LEN): the public table, then the hand of the
# seat to decide (the only private information it may see, A16), then room for the bot itself.
# The engine keeps ACTIVE_HAND equal to that seat's hand after every decision, which costs less
# than copying the public table into a separate observation at every decision.
F_ACTIVE_HAND = PUBLIC_END  # [N_TYPES] cards per type in the hand of the seat to decide (H_SEAT)
F_SCRATCH = F_ACTIVE_HAND + N_TYPES  # [SCRATCH_LEN] free for the bot: the engine never reads it.
# A bot that needs working space uses it instead of allocating (an allocation per decision costs
# more than the rest of a simple bot's work)
SCRATCH_LEN = 128
OBS_HAND = F_ACTIVE_HAND  # names as the bots see them
OBS_SCRATCH = F_SCRATCH
OBS_LEN = F_SCRATCH + SCRATCH_LEN
# Hidden from bots:
F_HANDS = OBS_LEN  # MAX_PLAYERS blocks of N_TYPES: cards in hand per type
F_RESERVE = F_HANDS + MAX_PLAYERS * N_TYPES  # [MAX_DECK] card types, bottom first; top is last
F_RESERVE_OUT_TURN = F_RESERVE + MAX_DECK  # turns completed when the reserve ran out, -1 before
F_CROWS_LEFT = F_RESERVE_OUT_TURN + 1  # crow cards on trees when the game ended (R23), before R24
F_COUNTERS = F_CROWS_LEFT + 1  # MAX_PLAYERS blocks of N_COUNTERS, the seat counters below

# Per-seat counters, in order; the outcome's seat columns after score/rank/win ---------------------
SEAT_COUNTERS = (
    "fruit_cards",  # fruit cards in the orchard at the end (R25)
    "largest_tree",  # size of the largest tree at the end (R25)
    "trees",  # trees (kinds) in the orchard at the end (R26 tie-break)
    "crows_played",  # lone crows played from hand (R11)
    "flocks_played",  # flocks played from hand (R11)
    "crows_received",  # crow cards that landed on its trees: played, attracted or shooed there
    "fruit_lost",  # its fruit cards eaten by crow cards (R12, R13)
    "trees_wiped",  # its trees eaten whole by flocks (R13)
    "fruit_eaten_by_its_crows",  # fruit eaten by crow cards it sent (played, attracted, shooed)
    "protects",  # scarecrows used to protect a tree (R16)
    "shoo_outs",  # scarecrows used to shoo a crow out of the orchard (R17)
    "shoo_tos",  # scarecrows used to shoo a crow to another player's tree (R19)
    "crows_redirected_onto",  # crow cards other players shooed onto its trees (R19)
    "juicy_played",  # juicy fruit cards played (R9)
    "juicy_attractions",  # crow cards its juicy cards attracted (R10)
    "extra_turns",  # extra turns taken (R18; lost, declined and game-ending ones not counted)
    "cards_discarded",  # hand cards discarded by action 4 (R20)
    "fruit_played_own",  # fruit cards played into its own orchard
    "fruit_played_others",  # fruit cards played into other players' orchards
    "fruit_received",  # fruit cards other players played into its orchard
    "extra_turns_declined",  # extra turns it earned and declined (R18, A17)
)
(
    C_FRUIT_CARDS,
    C_LARGEST_TREE,
    C_TREES,
    C_CROWS_PLAYED,
    C_FLOCKS_PLAYED,
    C_CROWS_RECEIVED,
    C_FRUIT_LOST,
    C_TREES_WIPED,
    C_FRUIT_EATEN_BY_ITS_CROWS,
    C_PROTECTS,
    C_SHOO_OUTS,
    C_SHOO_TOS,
    C_CROWS_REDIRECTED_ONTO,
    C_JUICY_PLAYED,
    C_JUICY_ATTRACTIONS,
    C_EXTRA_TURNS,
    C_CARDS_DISCARDED,
    C_FRUIT_PLAYED_OWN,
    C_FRUIT_PLAYED_OTHERS,
    C_FRUIT_RECEIVED,
    C_EXTRA_TURNS_DECLINED,
) = range(21)
N_COUNTERS = len(SEAT_COUNTERS)
F_SAVED = F_COUNTERS + MAX_PLAYERS * N_COUNTERS  # final_tie=replay: the first game's results,
# MAX_PLAYERS blocks of SAVED_LEN (score, trees, then the counters), then its game counters
SAVED_SCORE = 0
SAVED_TREES = 1
SAVED_COUNTERS = 2
SAVED_LEN = SAVED_COUNTERS + N_COUNTERS
F_SAVED_RESERVE_OUT_TURN = F_SAVED + MAX_PLAYERS * SAVED_LEN
F_SAVED_CROWS_LEFT = F_SAVED_RESERVE_OUT_TURN + 1
STATE_LEN = F_SAVED_CROWS_LEFT + 1

GAME_COUNTERS = (
    "reserve_out_turn",  # turns completed when the reserve pile ran out (-1: it never did)
    "crows_left",  # crow cards still on trees when the game ended (R23, R24)
    "tie_replays",  # games replayed to break a final tie (final_tie=replay, A14)
)


# What each counter counts, in the game's words (``cardsim counters pajarracos``, reports) -------
COUNTER_GLOSSARY = {
    "fruit_cards": "fruit cards in the player's orchard at the end: part of the score (R25)",
    "largest_tree": "cards in the player's largest tree at the end: the rest of the score (R25)",
    "trees": "trees (kinds of fruit) in the player's orchard at the end: the tie-break (R26)",
    "crows_played": "lone crows the player played from hand (R11)",
    "flocks_played": "flocks of crows the player played from hand (R11)",
    "crows_received": "crow cards that landed on the player's trees: played, attracted or shooed there",
    "fruit_lost": "the player's fruit cards eaten by crows (R12, R13)",
    "trees_wiped": "the player's trees eaten whole by flocks (R13)",
    "fruit_eaten_by_its_crows": "fruit cards eaten by crows the player sent (played, attracted or shooed)",
    "protects": "scarecrows the player used to protect a tree (R16)",
    "shoo_outs": "scarecrows the player used to shoo a crow out of the orchard (R17)",
    "shoo_tos": "scarecrows the player used to shoo a crow onto another player's tree (R19)",
    "crows_redirected_onto": "crows other players shooed onto the player's trees (R19)",
    "juicy_played": "juicy fruit cards the player played (R9)",
    "juicy_attractions": "crows the player's juicy fruit attracted (R10)",
    "extra_turns": "extra turns the player took after shooing a crow out (R18)",
    "cards_discarded": "hand cards the player discarded as an action (R20)",
    "fruit_played_own": "fruit cards the player played into their own orchard",
    "fruit_played_others": "fruit cards the player played into other players' orchards",
    "fruit_received": "fruit cards other players played into the player's orchard",
    "extra_turns_declined": "extra turns the player earned and declined (R18, A17)",
    "reserve_out_turn": "turns completed when the reserve pile ran out (-1: it never did)",
    "crows_left": "crow cards still on trees when the game ended (R23, R24)",
    "tie_replays": "games replayed to break a final tie (final_tie=replay, A14)",
}

# Seat counters that restate the result: the score is fruit cards plus the largest tree (R25), so
# these say who won rather than why; they are listed but kept out of the counter-impact regression.
OUTCOME_COUNTERS = ("fruit_cards", "largest_tree")


def seat_base(seat: int) -> int:
    """Index of ``seat``'s public block in the state."""
    return F_SEATS + seat * SEAT_LEN


def tree_index(seat: int, kind: int) -> int:
    return seat * MAX_KINDS + kind


def card_type_name(t: int) -> str:
    """``'juicy apples'``, ``'lone crow'``... for replays and messages."""
    if t < JUICY:
        return KIND_NAMES[t - FRUIT]
    if t < LONE_CROW:
        return f"juicy {KIND_NAMES[t - JUICY]}"
    return ("lone crow", "flock of crows", "scarecrow")[t - LONE_CROW]
