"""Fruit Picking: card and decision codes, and the layout of the int32 game state.

Everything here is plain constants: the engine, the bots, the reference implementation and the
replay all read the state through these names.

Kinds (``fruit-picking.md`` Components; rulebook order)::

    PINEAPPLE=0  GRAPES=1  CHERRY=2  BANANA=3  STRAWBERRY=4   (the five fruit kinds)
    RAIN=5       HOUSE=6                                        (farm-only cards)

Market card ids: ``card = kind * per_kind + index`` (``index`` 0..per_kind-1); the cards with
``index < umbrella_per_kind`` carry the umbrella mark (V1).

Farm positions: 0 is the House, 1..6 clockwise from it (fruit-picking.md Terms).
Market slots: 0 is next to the stack (+3 surcharge by default) .. ``n_slots - 1`` farthest (+0).
"""

from cardsim.core.layout import HEADER_LEN

# Kinds -------------------------------------------------------------------------------------------
PINEAPPLE, GRAPES, CHERRY, BANANA, STRAWBERRY, RAIN, HOUSE = range(7)
N_FRUIT_KINDS = 5
KIND_NAMES = ("pineapple", "grapes", "cherry", "banana", "strawberry", "rain", "house")
# Order of the six non-House farm cards before the initial player shuffles them (R2); also the
# order of the ``farm_fruits`` option.
FARM_CARDS = (RAIN, PINEAPPLE, GRAPES, CHERRY, BANANA, STRAWBERRY)

N_POSITIONS = 7  # House + 6 cards (R2)
MAX_PLAYERS = 4
MAX_SLOTS = 6  # market_slots range 1-6
MAX_PER_KIND = 10  # market_cards_per_kind range 1-10
MAX_CARDS = N_FRUIT_KINDS * MAX_PER_KIND

# Sets (R20), as bits of a seat's SEAT_SETS field ------------------------------------------------
SET_VARIETY, SET_GREEDY, SET_SMILEY, SET_FAMILY = 1, 2, 4, 8
SET_NAMES = ("variety", "greedy", "smiley", "family")

# Decision phases (state[H_PHASE]) and decision codes --------------------------------------------
PHASE_PLANT = 0  # choose a farm position 1..6 holding seeds (R8); code = the position
PHASE_TARGET = (
    1  # code WATER (R12) or BUY_SLOT + slot (R13) for an affordable card of the target fruit
)
PHASE_MARKET_OP = 2  # V2: code 0 = draw one card as usual, 1 = pay to draw two
PHASE_OP_CHOOSE = (
    3  # V2: code 0 = first drawn card to the market, 1 = second (the other to the bottom)
)
WATER = 0
BUY_SLOT = 1
DECLINE, USE = 0, 1
MAX_LEGAL = 8

# End reasons (state[H_END_REASON]); 0 is the core's turn cap ------------------------------------
END_SET_COMPLETED = 1  # R21: a player completed a set
END_STACK_EXHAUSTED = 2  # R21, A7: the last card was drawn from the market stack
END_CARDS_BOUGHT = 3  # V3, A15: a player owns beginner_cards_to_end cards
END_REASONS = ("turn_cap", "set_completed", "stack_exhausted", "cards_bought")

# State layout (int32) -----------------------------------------------------------------------------
# [0, HEADER_LEN): the core header (cardsim.core.layout): OVER SEAT TURNS N_PLAYERS FIRST END_REASON
# PHASE TRIGGERED CAP_TURNS. Then, all public (a bot's observation is state[:PUBLIC_END]):
F_SKIP_ORIGIN = HEADER_LEN  # rule option A4, for bots' planting previews
F_N_SLOTS = HEADER_LEN + 1  # market slots in play
F_TARGET = HEADER_LEN + 2  # target position while PHASE_TARGET, else -1
F_STACK_LEFT = HEADER_LEN + 3  # cards left in the market stack
F_OP_CARD_A = HEADER_LEN + 4  # V2: first drawn card while PHASE_OP_CHOOSE, else -1
F_OP_CARD_B = HEADER_LEN + 5  # V2: second drawn card while PHASE_OP_CHOOSE, else -1
F_TRIGGER_SEAT = HEADER_LEN + 6  # seat whose turn triggered the end, -1 before (and for setup)
F_TRIGGER_REASON = HEADER_LEN + 7  # END_* code of the trigger, -1 before
F_UMBRELLA_TRIGGERS = HEADER_LEN + 8  # V1: umbrella marks fired so far
F_PER_KIND = HEADER_LEN + 9  # market cards per kind (rule option): a card's kind is card // it
F_OP_COST = HEADER_LEN + 10  # V2: seeds a market operation costs (rule option)
F_FARM_KIND = HEADER_LEN + 11  # [7] kind of the card at each position (same for every player, R2)
F_FARM_WATER = F_FARM_KIND + N_POSITIONS  # [7] seeds added when watering there (R12); House 0
F_SEATS = F_FARM_WATER + N_POSITIONS  # MAX_PLAYERS blocks of SEAT_LEN, one per seat:
SEAT_SEEDS = 0  # [7] seeds on positions 0..6 (position 0 = House = money, R14)
SEAT_STORAGE = 7  # seeds in storage (R3)
SEAT_OUT = 8  # seeds paid away for V2 from storage (A14 option), out of play
SEAT_OWNED = 9  # [5] market cards owned per fruit kind (R17)
SEAT_FRUITS = 14  # printed fruits on owned market cards (R22 tie-break 1, A9)
SEAT_COMPLETED = 15  # 1 once the seat has completed a set (R20, A1); qualifies it in R22
SEAT_SETS = 16  # bits SET_* of the sets its cards contain
SEAT_N_CARDS = 17  # market cards owned
SEAT_LEN = 18
F_MARKET_CARD = F_SEATS + MAX_PLAYERS * SEAT_LEN  # [6] card id per slot, -1 empty
F_MARKET_KIND = F_MARKET_CARD + MAX_SLOTS  # [6] fruit kind per slot, -1 empty
F_MARKET_PRICE = F_MARKET_KIND + MAX_SLOTS  # [6] price per slot (R15), 0 empty
# Where each market card is known to be (R17: a bought card lies face up beside its buyer): the
# seat that bought it; under V2 (A14: the two drawn cards are shown), -2 - k for the k-th card put
# under the stack (k from 0; the mark stays when the card is drawn again and means something only
# while the card is in no slot: the determinizer, determinize.py, reads the stack's known bottom
# from it); else -1. The set-cards tie-break (A9) reads the owners.
F_CARD_OWNER = F_MARKET_PRICE + MAX_SLOTS  # [MAX_CARDS]
F_BOTTOM_PUTS = F_CARD_OWNER + MAX_CARDS  # V2: cards put under the stack so far (A14)
PUBLIC_END = F_BOTTOM_PUTS + 1
# Hidden from bots (A17: only the stack order is hidden; counters are not a bot's business):
F_STACK = (
    PUBLIC_END  # [MAX_CARDS] the stack, bottom first; the top card is F_STACK + stack_left - 1
)
F_COUNTERS = F_STACK + MAX_CARDS  # MAX_PLAYERS blocks of N_COUNTERS, the seat counters below

# Per-seat counters, in order; the outcome's seat columns after score/rank/win ---------------------
SEAT_COUNTERS = (
    "cards_bought",  # market cards bought
    "fruits",  # printed fruits on them (tie-break 1)
    "farm_seeds",  # seeds on the 7 farm cards at the end (tie-break 2, A10)
    "set_completed",  # 1 if the seat completed a set
    "set_turn",  # game turn (1-based, all seats counted) in which it first completed a set, 0 if never
    "set_variety",  # 1 if the purchase that completed its first set completed Variety (R20)
    "set_greedy",  # ... Greedy; a purchase can complete several sets at once
    "set_smiley",
    "set_family",
    "house_repeats",  # plantings that ended on the House and had to be repeated (R10)
    "no_seed_turns",  # turns spent on the "no seeds" rule (R7, A3)
    "waterings",  # turns ending in watering (R12)
    "umbrella_seeds",  # seeds moved onto its farm by umbrella marks (V1)
    "market_ops",  # market operations paid (V2)
    "tiebreak_fruits",  # fruits the first tie-break compared (R22, A9: all cards or set cards)
)
C_CARDS_BOUGHT, C_FRUITS, C_FARM_SEEDS, C_SET_COMPLETED, C_SET_TURN = range(5)
C_SET_VARIETY = 5  # .. C_SET_VARIETY + 3 in SET_NAMES order
C_HOUSE_REPEATS, C_NO_SEED_TURNS, C_WATERINGS, C_UMBRELLA_SEEDS, C_MARKET_OPS = range(9, 14)
C_TIEBREAK_FRUITS = 14
N_COUNTERS = len(SEAT_COUNTERS)
STATE_LEN = F_COUNTERS + MAX_PLAYERS * N_COUNTERS

GAME_COUNTERS = (
    "trigger_seat",  # seat whose turn triggered the end (-1: none, e.g. turn cap)
    "umbrella_triggers",  # umbrella marks fired (V1)
    "stack_left",  # cards left in the market stack at the end
)


# What each counter counts, in the game's words (``cardsim counters fruit-picking``, reports) ----
COUNTER_GLOSSARY = {
    "cards_bought": "market cards the player bought (R13)",
    "fruits": "fruits printed on the player's market cards: the first tie-break (R22)",
    "farm_seeds": "seeds left on the player's farm cards at the end: the second tie-break (R22, A10)",
    "set_completed": "1 if the player completed a set (R20); the winner is always one of these (R22)",
    "set_turn": "the game turn in which the player first completed a set, 0 if never (R21)",
    "set_variety": "1 if the purchase that completed the player's first set completed Variety (R20)",
    "set_greedy": "1 if that purchase completed Greedy (R20)",
    "set_smiley": "1 if that purchase completed Smiley (R20)",
    "set_family": "1 if that purchase completed Family (R20)",
    "house_repeats": "plantings that ended on the House and had to be made again (R10)",
    "no_seed_turns": "turns the player spent taking seeds back because none were left to plant (R7, A3)",
    "waterings": "turns the player ended by watering plants (R12)",
    "umbrella_seeds": "seeds an umbrella mark moved onto the player's farm (variant V1)",
    "market_ops": "market operations the player paid for (variant V2)",
    "tiebreak_fruits": "fruits the first tie-break compared: on all the player's market cards, or "
    "on the cards of their best completed set (tiebreak_fruits=set_cards) (R22, A9)",
    "trigger_seat": "the seat whose turn triggered the end of the game (-1: none, e.g. the turn cap)",
    "umbrella_triggers": "umbrella marks that fired during the game (variant V1)",
    "stack_left": "cards left in the market stack at the end",
}

# Seat counters that restate the result: whoever completed a set wins (R22), so these say who won
# rather than why; they are listed but kept out of the counter-impact regression.
OUTCOME_COUNTERS = (
    "set_completed",
    "set_turn",
    "set_variety",
    "set_greedy",
    "set_smiley",
    "set_family",
    "tiebreak_fruits",  # equal to "fruits" under the default reading (A9)
)


def seat_base(seat: int) -> int:
    """Index of ``seat``'s block in the state."""
    return F_SEATS + seat * SEAT_LEN
