"""Piepmatz (Songbirds): card codes, decision codes and the layout of the int32 game state.

Plain constants read by the engine, the bots, the reference and the replay. Rules: ``piepmatz.md``
(R1-R36, A1-A23).

Bird cards (72, piepmatz.md Components)::

    bird = species * 12 + (strength - 1) * 2 + sex      species 0..5, strength 1..6, sex 0 male 1 female

so a species' birds are the 12 bits ``(strength - 1) * 2 + sex`` of a collection mask, and a pair
(R32) is both bits of one strength.

Feeder cards (piepmatz.md Components, A3)::

    SEED + v  (v = 1..3)   a seed card worth v points     codes 1..3
    CROW                   a crow (R20)                   code 4
    SQUIRREL               a squirrel (R21)               code 5
"""

from cardsim.core.layout import HEADER_LEN

MAX_PLAYERS = 4
MAX_SPECIES = 6
MAX_STRENGTH = 6
BIRDS_PER_SPECIES = 2 * MAX_STRENGTH
N_BIRDS = MAX_SPECIES * BIRDS_PER_SPECIES
MAX_PERCHES = 4  # perches range 1-4
MAX_HAND = 8  # hand_size range 1-8
MAX_QUEUE = 6  # queue_size range 0-6
MAX_COLUMN = 6  # seed_column_size and max_bad_cards_in_column range up to 6
MAX_SEED_COUNT = 20  # seed cards of one value, at most
MAX_BAD = 6  # crows and squirrels range up to 6 each
MAX_FEEDER = 3 * MAX_SEED_COUNT + 2 * MAX_BAD
MAX_ROW = 10  # perched bird, at most 6 ground birds of total <= 6, and the card just played (R11)
SEED_VALUES = 3

SPECIES_NAMES = (
    "chaffinch",
    "sparrow",
    "bullfinch",
    "blackbird",
    "greenfinch",
    "yellowhammer",
)  # piepmatz.md Species table, as printed on the cards

# Feeder card codes ---------------------------------------------------------------------------------
NO_CARD = 0  # an empty place in a column
SEED = 0  # + value 1..3: a seed card
CROW = 4  # a crow (R20)
SQUIRREL = 5  # a squirrel (R21)


def species_of(bird: int) -> int:
    return bird // BIRDS_PER_SPECIES


def strength_of(bird: int) -> int:
    return bird % BIRDS_PER_SPECIES // 2 + 1


def sex_of(bird: int) -> int:
    return bird % 2


def bird_name(bird: int) -> str:
    """``'chaffinch 5 (female)'``."""
    sex = "female" if sex_of(bird) else "male"
    return f"{SPECIES_NAMES[species_of(bird)]} {strength_of(bird)} ({sex})"


def feeder_name(card: int) -> str:
    if card == CROW:
        return "crow"
    if card == SQUIRREL:
        return "squirrel"
    return f"{card - SEED}-point seed card"


# Decision phases (state[H_PHASE]) -------------------------------------------------------------
PHASE_PLAY = 0  # phase A: which hand card onto which perch (R9)
PHASE_KEEP = 1  # R24: add a hand card of strength <= the card just played, or not
PHASE_CROW = 2  # R20: which bird of a species with the most birds the crow chases away
PHASE_DRAW = 3  # R25: a queue card or the bird deck's top card
PHASE_DISCARD = 4  # R31: the next card of the final discard
PHASE_C = 5  # internal: phase C runs next (never pending when a bot is asked)
PHASE_NAMES = ("play", "keep", "crow", "draw", "discard", "phase_c")

# Decision codes --------------------------------------------------------------------------------
# One code space for all phases; a phase lists its legal codes in ascending code order.
C_PLAY = 0  # + bird * MAX_PERCHES + perch: play that hand card at the end of that row (R9)
C_NO_KEEP = C_PLAY + N_BIRDS * MAX_PERCHES  # R24: add no card
C_KEEP = C_NO_KEEP + 1  # + bird: add that hand card to the collection (R24)
C_CROW = C_KEEP + N_BIRDS  # + bird: the crow removes that bird of the collection (R20)
C_DRAW = C_CROW + N_BIRDS  # + bird: take that queue card (R25)
C_DRAW_DECK = C_DRAW + N_BIRDS  # take the bird deck's top card (R25)
C_DISCARD = C_DRAW_DECK + 1  # + bird: discard that hand card at the end (R31)
N_CODES = C_DISCARD + N_BIRDS
MAX_LEGAL = 80  # at most 72 crow choices; 8 x 4 plays; 6 + 1 draws; 8 discards


def play_code(bird: int, perch: int) -> int:
    return C_PLAY + bird * MAX_PERCHES + perch


# End reasons (state[H_END_REASON]); 0 is the core's turn cap ------------------------------------
END_FEEDER = 1  # R29, R30: the feeder deck was exhausted and the round completed
END_BIRDS = 2  # A16 alternative trigger_end: the bird supply ran out and the round completed
END_NO_CARDS = 3  # A16: every hand and the bird supply are empty, the game ends at once
END_REASONS = ("turn_cap", "feeder_empty", "birds_exhausted", "no_cards_left")

# What triggered the end (game counter end_trigger) ---------------------------------------------
TRIGGER_NONE = 0
TRIGGER_CHAIN_DRAW = 1  # R17: d >= 5 with an empty feeder deck
TRIGGER_REFILL = 2  # R28: the column could not be refilled
TRIGGER_LAST_CARD = 3  # A17 alternative deck_emptied: the last feeder card was drawn
TRIGGER_BIRDS = 4  # A16 alternative trigger_end: a bird draw found no bird
TRIGGER_NAMES = ("none", "chain_draw", "column_refill", "last_feeder_card", "bird_supply")

# State layout (int32) ----------------------------------------------------------------------------
# [0, HEADER_LEN): the core header (cardsim.core.layout). H_TRIGGERED: the end is triggered (R29).
# Then the public table (a bot's observation starts with state[:PUBLIC_END]):
F_FEEDER_LEFT = HEADER_LEN  # cards in the face-down feeder deck
F_BIRDS_LEFT = HEADER_LEN + 1  # cards in the face-down bird deck
F_SEED_LEN = HEADER_LEN + 2  # seed cards in the column
F_SEED_COL = HEADER_LEN + 3  # [MAX_COLUMN] feeder codes, position 1 (next to the base) first
# places of the bad-card column in use: its bad cards, which fill them (A8's default, both columns
# close up); under bad_cards_attached (A8's alternative) up to the highest bad card, with empty
# places (NO_CARD) where a seed card slid away from beneath a bad card beside no seed card
F_BAD_LEN = F_SEED_COL + MAX_COLUMN
F_BAD_COL = F_BAD_LEN + 1  # [MAX_COLUMN] CROW, SQUIRREL or NO_CARD, position 1 first (R27)
F_QUEUE_LEN = F_BAD_COL + MAX_COLUMN  # face-up queue cards
F_QUEUE = F_QUEUE_LEN + 1  # [MAX_QUEUE] birds, oldest first; a refill goes to the end (R25)
F_PERCHES = F_QUEUE + MAX_QUEUE  # perches in this game (R2)
F_ROW_LEN = F_PERCHES + 1  # [MAX_PERCHES] birds in each row, the perched bird included
F_ROWS = F_ROW_LEN + MAX_PERCHES  # [MAX_PERCHES * MAX_ROW] row r: perched bird, then ground birds
# Row summaries, kept by the engine as the rows change (R9, R18, R22), so that neither the rules nor
# the bots add up the rows again at every comparison or decision:
F_ROW_STRENGTHS = F_ROWS + MAX_PERCHES * MAX_ROW  # [MAX_PERCHES] the birds' strengths, 3 bits per
# place (place 0, the perched bird, lowest; 0 while the perch is empty for a crow's decision)
F_GROUND_TOTAL = F_ROW_STRENGTHS + MAX_PERCHES  # [MAX_PERCHES] sum of its ground strengths (R11)
F_STRONGEST = F_GROUND_TOTAL + MAX_PERCHES  # [MAX_PERCHES] its strongest ground bird: place * 8 +
# strength, the first of the strongest (R22 by strength: ties go to the perch); 0 with no ground
F_PLAYED = F_STRONGEST + MAX_PERCHES  # bird played this turn, -1 before (R24 limit)
F_PLAYED_PERCH = F_PLAYED + 1  # its perch, -1 before
F_LAST_DISCARD = F_PLAYED_PERCH + 1  # final discard: last card the seat discarded, -1 (R31)
F_REMOVED_SPECIES = F_LAST_DISCARD + 1  # 2 players: the species removed (R4, A2), else -1
F_BIRD_POINTS = F_REMOVED_SPECIES + 1  # [MAX_STRENGTH] points of a bird by strength (R34, rule)
F_PAIR_POINTS = F_BIRD_POINTS + MAX_STRENGTH  # points of a pair (R32, rule)
F_COLUMN_SIZE = F_PAIR_POINTS + 1  # seed cards the column holds (R13, rule)
# Cards every player saw leave the game or the feeder deck, recorded for a search bot's
# determinizer (docs/search.md), which must know which cards are still unseen:
F_GONE = F_COLUMN_SIZE + 1  # [MAX_SPECIES] 12-bit masks of the birds the crows removed (R20)
F_BAD_DRAWN = F_GONE + MAX_SPECIES  # [2] crows, squirrels drawn from the feeder deck (R16, R26,
# R27: shown to all; the bad cards of the setup, shuffled back in (R3, A1), are not counted)
# Every squirrel that took cards (R21), in order: whose pile, how many cards, and (public scoring
# piles only, A22) the seed cards seen entering that pile until then, by value. A seat that does
# not know the pile card for card knows the squirrel could only take cards already in it:
F_SQUIRRELS_LOGGED = F_BAD_DRAWN + 2  # entries of the log
F_SQUIRREL_LOG = F_SQUIRRELS_LOGGED + 1  # [MAX_BAD * SQUIRREL_ENTRY], an entry per squirrel:
SQ_OWNER = 0  # the pile's seat
SQ_TAKEN = 1  # cards taken
SQ_ENTERED = 2  # [SEED_VALUES] seed cards worth 1, 2, 3 seen entering the pile before it came
SQUIRREL_ENTRY = SQ_ENTERED + SEED_VALUES
F_SEATS = F_SQUIRREL_LOG + MAX_BAD * SQUIRREL_ENTRY  # MAX_PLAYERS blocks of SEAT_LEN:
COLLECTION = 0  # [MAX_SPECIES] 12-bit masks of the birds in the collection (public, R18)
HAND_COUNT = MAX_SPECIES  # cards in hand (hidden hands, public sizes)
PILE_SIZE = HAND_COUNT + 1  # cards in the face-down scoring pile
PILE_LOST = PILE_SIZE + 1  # cards the squirrels removed from it (how many is public, A22)
CROWS_TAKEN = PILE_LOST + 1  # crows resolved (face up, R19)
SQUIRRELS_TAKEN = CROWS_TAKEN + 1  # squirrels resolved (face up, R19)
# The collection's standing per species, kept by the engine as birds join or leave it (R18, R20,
# R24, R31), read by the bots for the majorities (R33) instead of counting every mask each decision
# (a state written by hand sets them with COLLECTION, as reference.state_array does):
SPECIES_BIRDS = SQUIRRELS_TAKEN + 1  # [MAX_SPECIES] birds of each species in the collection
SPECIES_POINTS = SPECIES_BIRDS + MAX_SPECIES  # [MAX_SPECIES] their egg points (R34)
HAND_KNOWN = SPECIES_POINTS + MAX_SPECIES  # [MAX_SPECIES] 12-bit masks of the hand's birds every
# player saw it take from the face-up queue (R25), until played or kept (a secret final discard,
# R31, A19, does not clear them)
SEAT_LEN = HAND_KNOWN + MAX_SPECIES
PUBLIC_END = F_SEATS + MAX_PLAYERS * SEAT_LEN
# The deciding seat's own view, kept by the engine after every decision (the bot's observation is
# the state's prefix [0, OBS_LEN), as in Pajarracos): its hand, and every scoring pile as it knows
# it (A22: public_scoring_piles, squirrel_reveal).
F_ACTIVE_HAND_LEN = PUBLIC_END
F_ACTIVE_HAND = F_ACTIVE_HAND_LEN + 1  # [MAX_HAND] its hand, ascending bird codes
F_ACTIVE_PILES = F_ACTIVE_HAND + MAX_HAND  # [MAX_PLAYERS * 3] seeds worth 1, 2, 3 in each pile
F_ACTIVE_EXACT = F_ACTIVE_PILES + MAX_PLAYERS * SEED_VALUES  # [MAX_PLAYERS] 1: the seat knows
# that pile card for card; 0: it knows the cards that entered it, and (PILE_LOST) how many left
F_ACTIVE_ENTERED = F_ACTIVE_EXACT + MAX_PLAYERS  # [MAX_PLAYERS * 3] seed cards worth 1, 2, 3
# the seat saw enter each pile (all piles with public_scoring_piles, else its own): with an exact
# pile, what the squirrels took from it (A22)
F_ACTIVE_DISCARDED = F_ACTIVE_ENTERED + MAX_PLAYERS * SEED_VALUES  # [MAX_SPECIES] 12-bit masks:
# the birds the deciding seat has discarded so far in the final discard (R31), 0 otherwise
VIEW_END = F_ACTIVE_DISCARDED + MAX_SPECIES
# [SCRATCH_LEN] the bot's room: the engine never reads it; at an even index, as the bots keep
# float64 values there (bots.py)
F_SCRATCH = VIEW_END + VIEW_END % 2
SCRATCH_LEN = 152
OBS_HAND_LEN = F_ACTIVE_HAND_LEN  # names as the bots see them
OBS_HAND = F_ACTIVE_HAND
OBS_PILES = F_ACTIVE_PILES
OBS_EXACT = F_ACTIVE_EXACT
OBS_SCRATCH = F_SCRATCH
OBS_LEN = F_SCRATCH + SCRATCH_LEN
# Hidden from bots:
F_HAND_LEN = OBS_LEN  # [MAX_PLAYERS] cards in hand (the public count lags during R31)
F_HANDS = F_HAND_LEN + MAX_PLAYERS  # [MAX_PLAYERS * MAX_HAND] ascending bird codes
F_PILES = F_HANDS + MAX_PLAYERS * MAX_HAND  # [MAX_PLAYERS * 3] seed cards per value in each pile
F_ENTERED = F_PILES + MAX_PLAYERS * SEED_VALUES  # [MAX_PLAYERS * 3] seed cards seen entering it
F_FEEDER = F_ENTERED + MAX_PLAYERS * SEED_VALUES  # [MAX_FEEDER] bottom first, top is last
F_BIRD_DECK = F_FEEDER + MAX_FEEDER  # [N_BIRDS] bottom first, top is last
F_PUBLIC_PILES = F_BIRD_DECK + N_BIRDS  # copy of rule public_scoring_piles (observe has no rules)
F_REVEAL_ALL = F_PUBLIC_PILES + 1  # copy of rule squirrel_reveal == public
F_TRIGGER = F_REVEAL_ALL + 1  # TRIGGER_* code, 0 before
F_TRIGGER_TURN = F_TRIGGER + 1  # turns completed when the end was triggered, -1 before
F_BAD_REMOVED = F_TRIGGER_TURN + 1  # bad cards removed because the column was full (R27)
F_DISCARDED = F_BAD_REMOVED + 1  # cards of the final discard, all seats (R31)
F_VIEW_PILES_FOR = F_DISCARDED + 1  # the seat whose view of the scoring piles F_ACTIVE_PILES and
# F_ACTIVE_EXACT show, + 1; 0 before the first (engine.show_view: not a rule's state)
F_COUNTERS = F_VIEW_PILES_FOR + 1  # MAX_PLAYERS blocks of N_COUNTERS

SEAT_COUNTERS = (
    "seed_cards_taken",  # seed cards into its scoring pile (R13, R16)
    "seed_points_taken",  # their points
    "deck_draws",  # cards taken from the feeder deck with d >= 5 (R16)
    "crows_taken",  # crows resolved, each removing one of its birds (R20)
    "squirrels_taken",  # squirrels resolved (R21)
    "squirrel_cards_lost",  # seed cards the squirrels removed from its pile
    "squirrel_points_lost",  # their points
    "chains",  # turns whose first comparison succeeded (R12)
    "promotions",  # repetitions of steps 1-5: perched birds taken, ground birds moved up (R18, R22)
    "keeps",  # R24 options used
    *(f"birds_{name}" for name in SPECIES_NAMES),  # collection at the end, per species (R33)
    "birds",  # collection at the end, all species
    "pairs",  # bird pairs at the end (R32)
    "majorities",  # species it scored as (joint) majority holder (R33)
    "points_seeds",  # R35
    "points_majorities",  # R33, R34
    "points_pairs",  # R32
)
(
    C_SEED_CARDS,
    C_SEED_POINTS,
    C_DECK_DRAWS,
    C_CROWS,
    C_SQUIRRELS,
    C_SQUIRREL_CARDS,
    C_SQUIRREL_POINTS,
    C_CHAINS,
    C_PROMOTIONS,
    C_KEEPS,
) = range(10)
C_BIRDS_SPECIES = 10  # + species
C_BIRDS = C_BIRDS_SPECIES + MAX_SPECIES
C_PAIRS = C_BIRDS + 1
C_MAJORITIES = C_PAIRS + 1
C_POINTS_SEEDS = C_MAJORITIES + 1
C_POINTS_MAJORITIES = C_POINTS_SEEDS + 1
C_POINTS_PAIRS = C_POINTS_MAJORITIES + 1
N_COUNTERS = len(SEAT_COUNTERS)
assert N_COUNTERS == C_POINTS_PAIRS + 1
F_SCORE = F_COUNTERS + MAX_PLAYERS * N_COUNTERS  # [MAX_PLAYERS] final scores (R32-R35)
STATE_LEN = F_SCORE + MAX_PLAYERS

GAME_COUNTERS = (
    "feeder_left",  # cards left in the feeder deck at the end
    "end_trigger",  # what triggered the end: TRIGGER_NAMES index (0: none, e.g. the turn cap)
    "trigger_turn",  # turns completed when the end was triggered (-1: never)
    "birds_left",  # cards left in the bird deck at the end
    "removed_species",  # 2 players: the species removed (R4, A2), else -1
    "bad_cards_removed",  # bad cards drawn while the bad-card column was full (R27)
)

COUNTER_GLOSSARY = {
    "seed_cards_taken": "seed cards the player took into their scoring pile (R13, R16)",
    "seed_points_taken": "points of the seed cards the player took (before squirrels)",
    "deck_draws": "cards the player took from the feeder deck with a difference of 5 or more (R16)",
    "crows_taken": "crows the player took; each chased one of its birds away (R20)",
    "squirrels_taken": "squirrels the player took (R21)",
    "squirrel_cards_lost": "seed cards the squirrels removed from the player's scoring pile (R21)",
    "squirrel_points_lost": "points of those seed cards",
    "chains": "turns in which the player's card made the ground birds outweigh the perch (R12)",
    "promotions": "perched birds the player collected, each followed by a bird moving up (R18, R22)",
    "keeps": "hand cards the player added to their collection after a failed comparison (R24)",
    **{
        f"birds_{name}": f"{name}es in the player's collection at the end (R33)"
        if name.endswith("ch")
        else f"{name}s in the player's collection at the end (R33)"
        for name in SPECIES_NAMES
    },
    "birds": "birds in the player's collection at the end, all species",
    "pairs": "bird pairs (male and female of one species and strength) at the end (R32)",
    "majorities": "species the player scored as holder, or joint holder, of the most birds (R33)",
    "points_seeds": "points of the seed cards in the player's scoring pile at the end (R35)",
    "points_majorities": "points the player scored for species majorities (R33, R34)",
    "points_pairs": "points the player scored for bird pairs (R32)",
    "feeder_left": "cards left in the feeder deck when the game ended",
    "end_trigger": "what triggered the end: 0 none, 1 a chain's deck draw (R17), 2 the column "
    "refill (R28), 3 the last feeder card drawn (A17), 4 the bird supply (A16)",
    "trigger_turn": "turns completed when the end was triggered (-1: it never was)",
    "birds_left": "cards left in the bird deck when the game ended",
    "removed_species": "2 players: the species removed from the game (R4), else -1",
    "bad_cards_removed": "bad cards drawn while the bad-card column was full, out of the game (R27)",
}

# Seat counters that restate the result: the score is their sum (R32-R35), so they say who won
# rather than why; listed, but kept out of the counter-impact regression.
OUTCOME_COUNTERS = ("points_seeds", "points_majorities", "points_pairs")


def seat_base(seat: int) -> int:
    """Index of ``seat``'s public block in the state."""
    return F_SEATS + seat * SEAT_LEN


def row_base(perch: int) -> int:
    return F_ROWS + perch * MAX_ROW
