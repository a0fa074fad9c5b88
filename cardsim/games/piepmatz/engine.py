"""Piepmatz compiled engine: deal, legal decisions, apply, phases B and C, final discard, scoring.

Every rule cites ``piepmatz.md``. The state layout and decision codes are in ``cards.py``; the
rules vector in ``rules.py`` (which already applies the 2-player removal of the "3+" cards); the
play loop that calls these kernels is ``cardsim.core.kernel``.

Chance (the game's ``rng`` stream, ``cardsim.core.rng``), in this order:

1. at the deal: the start player, ``randint(n_players)``, when ``first_player`` is random (R7, A23);
2. the feeder deck: its cards in code order (``seed_counts`` worth 1, then 2, then 3, then the
   crows, then the squirrels), ``shuffle``d; index 0 is the bottom, the last index the top (R3);
3. the column (R3, A1): cards from the top; a seed card goes to the lowest empty position, a bad
   card is set aside, until the column holds ``seed_column_size`` seed cards; if any bad card was
   set aside, the set-aside cards go on top of the deck in the order drawn and the whole deck is
   ``shuffle``d again;
4. 2 players with ``two_player_removed_species`` random: ``randint(species)`` is removed (R4, A2);
5. the bird deck: the birds of the species in the game in code order (``cards.py``), ``shuffle``d;
   one bird from the top onto each perch 0, 1, ... (R4); ``hand_size`` rounds of one card each,
   clockwise from the start player (R5); ``queue_size`` cards face up as the queue (R6);
6. during play, squirrels (R21, A11): for each stolen card, ``randint(pile size)`` picks the
   card at that index of the pile listed by value (its 1-point cards, then 2, then 3); and with
   ``crow_victim`` random (A10's alternative) each crow: ``randint(victims)`` picks the victim at
   that index of the CROW decision's legal list.

Decisions (a phase lists its legal codes in ascending code order; one legal code is applied without
asking a bot, ``core/kernel.py``):

- PLAY (R9, A4): ``play_code(bird, perch)`` for every hand card (ascending) and every perch.
- KEEP (R24, A13, A14): ``C_NO_KEEP``, then ``C_KEEP + bird`` for every hand card whose strength is
  at most the strength of the card just played. Offered after a failed first comparison when such a
  card exists (with ``keep_option_after_chain`` also when a chain ends).
- CROW (R20, A10): ``C_CROW + bird`` for every bird of the collection in a species with the most
  birds (the bird just collected counts).
- DRAW (R25, A15): ``C_DRAW + bird`` for every queue card, then ``C_DRAW_DECK`` while the bird deck
  is not empty; one card per decision, until the hand holds ``hand_size``; the queue is refilled from
  the deck after each queue card taken (the new card goes to the queue's end). With neither, the
  hand stays short (A16 play_on) or the end is triggered (A16 trigger_end).
- DISCARD (R31, A19): the final discard, one card per decision, each card a higher code than the
  seat's last one (so each set of cards once): ``C_DISCARD + bird`` for every hand card above the
  last discarded one that leaves enough higher cards for the discards still due. A seat with ``n``
  cards discards ``max(0, n - (hand_size - final_discard))`` (A16). Seats discard in turn order from
  the start player; the table does not change until every seat is done (the discards are secret:
  the public hand counts keep their value), then every hand joins its collection.

Phase B (R11-R23): the row's ground total against its perched bird; while it is greater, step 1
takes the seed card at position ``d`` (and a bad card beside it, A7 option for a lone one) or, with
``d`` above ``seed_column_size``, the feeder deck's top card (R16; an empty deck triggers the end,
R17, A9); step 2 the perched bird joins the collection; step 3 a crow (a CROW decision) or a
squirrel (chance) acts; step 4 the strongest ground bird (``promote_by``, ties to the perch, R22,
A21) moves up and the others close up. During a CROW decision the perch is empty (-1).
Phase C: draws, then the column is refilled (R26-R28); the turn passes. The end (R29, A17) is
triggered by an attempted draw from the empty feeder deck (``end_trigger`` deck_emptied: by the
draw that empties it); the round completes (R30, A18): the game ends after the turn of the seat
before the start player, then R31 and scoring. A turn starts with an empty hand only when the bird
supply is gone: it skips phases A and B; if every hand and the supply are empty the game ends at
once (A16).

The turn cap (a safeguard, not a rule) ends the game after a turn that reaches it, even one that
also ends the final round; no bot is asked then: each seat discards its lowest-coded cards, then
R32-R36 score the game.

After every decision the engine writes the deciding seat's view (its hand, every scoring pile as
it knows it and the cards it saw enter each, A22, and its own final discards, R31) after the public
table: a bot's observation is the state's prefix. The public table also keeps what every player
saw that the table no longer shows (the crows' victims, the bad cards drawn, the birds taken from
the queue into a hand, the squirrels' log): a search bot's determinizer reads only the prefix
(``determinize.py``, docs/search.md).

Speed: the functions a turn runs through (``advance`` and what it calls on the way to the next
decision: play, chain, crow, keep, draw, settle, the column and queue refills, the turn's end and
start; ``legal`` and ``show_view``) are ``INLINE_JIT``: LLVM inlines them into ``step`` and so
into the play loop. As calls, each passed ``state`` and ``rules`` as seven words apiece. Replaying
2,000 recorded 4-player planner games through ``deal``/``step`` (same games), alternated, min of
15: 337 -> 257 ns of process CPU per turn (load 2.7); the cold compile did not grow (``cardsim
run piepmatz -n 100 -p 4`` from an empty cache: 34.4 s wall against 39.7 for the code before,
load 2.7-3.0).
"""

from numba import njit

from cardsim.core import layout as L
from cardsim.core.bits import as_index
from cardsim.core.jit import HOT_RULES_JIT, INLINE_JIT, RULES_JIT
from cardsim.core.kernel import end_turn_cap_reached, first_class_kernels
from cardsim.core.rng import randint, shuffle
from cardsim.games.piepmatz import cards as C
from cardsim.games.piepmatz import rules as R

PAIR_BITS = 0x555  # the male bit of every strength in a 12-bit species mask

# Where things are ----------------------------------------------------------------------------------


@njit(**HOT_RULES_JIT)
def seat_at(seat, field):
    return C.F_SEATS + seat * C.SEAT_LEN + field


@njit(**HOT_RULES_JIT)
def count(state, seat, counter, amount):
    state[C.F_COUNTERS + seat * C.N_COUNTERS + counter] += amount


@njit(**HOT_RULES_JIT)
def whole(x):
    """``x`` (a card, code, seat or count: 0 <= x < 2**16), known to the compiler to be
    non-negative: its divisions, remainders and the indexes made from it then need no fixing
    for negative numbers (floor division, wraparound indexing)."""
    return x & 0xFFFF


@njit(**HOT_RULES_JIT)
def strength(bird):
    return whole(bird) % C.BIRDS_PER_SPECIES // 2 + 1


@njit(**HOT_RULES_JIT)
def popcount(x):
    """Birds in a 12-bit species mask, without branches (a mispredicted loop costs more)."""
    x = x - ((x >> 1) & 0x555)
    x = (x & 0x333) + ((x >> 2) & 0x333)
    x = (x + (x >> 4)) & 0x0F0F
    return (x + (x >> 8)) & 0x1F


@njit(**HOT_RULES_JIT)
def pair_mask(mask):
    """Bits of a species mask's birds that form pairs (R32)."""
    pairs = mask & (mask >> 1) & PAIR_BITS
    return pairs | (pairs << 1)


# Hands (hidden, ascending codes) -------------------------------------------------------------------


@njit(**HOT_RULES_JIT)
def hand_len(state, seat):
    return state[C.F_HAND_LEN + seat]


@njit(**HOT_RULES_JIT)
def hand_card(state, seat, i):
    return whole(state[C.F_HANDS + seat * C.MAX_HAND + i])


@njit(**INLINE_JIT)
def hand_add(state, seat, bird):
    """Insert ``bird`` keeping the hand ascending."""
    base = C.F_HANDS + seat * C.MAX_HAND
    i = state[C.F_HAND_LEN + seat]
    while i > 0 and state[base + i - 1] > bird:
        state[base + i] = state[base + i - 1]
        i -= 1
    state[base + i] = bird
    state[C.F_HAND_LEN + seat] += 1
    state[seat_at(seat, C.HAND_COUNT)] += 1


@njit(**HOT_RULES_JIT)
def hand_remove(state, seat, bird, public):
    """Take ``bird`` out of the hand; ``public``: the hand count on the table changes too."""
    base = C.F_HANDS + seat * C.MAX_HAND
    n = state[C.F_HAND_LEN + seat]
    i = 0
    while state[base + i] != bird:
        i += 1
    for j in range(i, n - 1):
        state[base + j] = state[base + j + 1]
    state[base + n - 1] = 0
    state[C.F_HAND_LEN + seat] = n - 1
    if public:
        state[seat_at(seat, C.HAND_COUNT)] -= 1
        species = whole(bird) // C.BIRDS_PER_SPECIES  # seen leaving: no longer a known hand card
        state[seat_at(seat, C.HAND_KNOWN + species)] &= ~(1 << (whole(bird) % C.BIRDS_PER_SPECIES))


@njit(**HOT_RULES_JIT)
def collect(state, seat, bird):
    """A bird joins ``seat``'s collection (R18, R24, R31), and its species' standing."""
    species = whole(bird) // C.BIRDS_PER_SPECIES
    state[seat_at(seat, C.COLLECTION + species)] |= 1 << (whole(bird) % C.BIRDS_PER_SPECIES)
    state[seat_at(seat, C.SPECIES_BIRDS + species)] += 1
    state[seat_at(seat, C.SPECIES_POINTS + species)] += state[C.F_BIRD_POINTS + strength(bird) - 1]


@njit(**HOT_RULES_JIT)
def release(state, seat, bird):
    """A bird leaves ``seat``'s collection (R20), and its species' standing."""
    species = whole(bird) // C.BIRDS_PER_SPECIES
    state[seat_at(seat, C.COLLECTION + species)] &= ~(1 << (whole(bird) % C.BIRDS_PER_SPECIES))
    state[seat_at(seat, C.SPECIES_BIRDS + species)] -= 1
    state[seat_at(seat, C.SPECIES_POINTS + species)] -= state[C.F_BIRD_POINTS + strength(bird) - 1]


# Rows ------------------------------------------------------------------------------------------------


# A row's summaries (cards.py: F_ROW_STRENGTHS, F_GROUND_TOTAL, F_STRONGEST) change with it: a
# card played at its end (R9), the perched bird collected (R18), a ground bird moving up (R22).


@njit(**HOT_RULES_JIT)
def ground_total(state, perch):
    """Sum of the strengths of the row's ground birds (R11, A5)."""
    return state[C.F_GROUND_TOTAL + perch]


@njit(**HOT_RULES_JIT)
def perched_strength(state, perch):
    return state[C.F_ROW_STRENGTHS + perch] & 7


@njit(**HOT_RULES_JIT)
def strongest_ground(strengths, n):
    """Place * 8 + strength of the strongest ground bird of a row of ``n`` birds (its strengths,
    3 bits per place), the first of the strongest (R22: ties go to the perch); 0 with none."""
    strongest = 0
    place = 0
    for i in range(1, n):
        s = strengths >> (3 * i) & 7
        if s > strongest:
            strongest = s
            place = i
    return place * 8 + strongest


@njit(**HOT_RULES_JIT)
def row_append(state, perch, bird):
    """R9: ``bird`` at the end of the row."""
    n = state[C.F_ROW_LEN + perch]
    s = strength(bird)
    state[C.F_ROWS + perch * C.MAX_ROW + n] = bird
    state[C.F_ROW_LEN + perch] = n + 1
    state[C.F_ROW_STRENGTHS + perch] |= s << (3 * n)
    state[C.F_GROUND_TOTAL + perch] += s
    if s > state[C.F_STRONGEST + perch] & 7:  # the first of the strongest stays
        state[C.F_STRONGEST + perch] = n * 8 + s


@njit(**HOT_RULES_JIT)
def empty_perch(state, perch):
    """R18: the perched bird has left the perch (collected)."""
    state[C.F_ROWS + perch * C.MAX_ROW] = -1
    state[C.F_ROW_STRENGTHS + perch] &= ~7


@njit(**INLINE_JIT)
def promote(state, rules, perch):
    """R22, A21: the strongest ground bird (highest egg value with promote_by=egg_value; ties: the
    one closest to the perch) moves to the empty perch; the others close up in order."""
    base = C.F_ROWS + perch * C.MAX_ROW
    n = state[C.F_ROW_LEN + perch]
    strengths = state[C.F_ROW_STRENGTHS + perch]
    best = state[C.F_STRONGEST + perch] >> 3
    if rules[R.R_PROMOTE_BY_EGGS]:
        best_key = -1
        for i in range(1, n):
            key = rules[R.R_BIRD_POINTS + (strengths >> (3 * i) & 7) - 1]
            if key > best_key:
                best_key = key
                best = i
    state[base] = state[base + best]
    for j in range(best, n - 1):
        state[base + j] = state[base + j + 1]
    state[base + n - 1] = 0
    state[C.F_ROW_LEN + perch] = n - 1
    moved = strengths >> (3 * best) & 7
    low = strengths & ((1 << (3 * best)) - 1) & ~7  # the ground before it (the perch is empty)
    strengths = low | (strengths >> (3 * best + 3)) << (3 * best) | moved
    state[C.F_ROW_STRENGTHS + perch] = strengths
    state[C.F_GROUND_TOTAL + perch] -= moved
    state[C.F_STRONGEST + perch] = strongest_ground(strengths, n - 1)


# Feeder ----------------------------------------------------------------------------------------------


@njit(**HOT_RULES_JIT)
def trigger(state, code):
    """R29: the end is triggered (once); what did it and when are kept for the counters."""
    if state[L.H_TRIGGERED] == 0:
        state[L.H_TRIGGERED] = 1
        state[C.F_TRIGGER] = code
        state[C.F_TRIGGER_TURN] = state[L.H_TURNS]


@njit(**INLINE_JIT)
def draw_feeder(state, rules, trigger_code):
    """The feeder deck's top card, or NO_CARD from an empty deck, which triggers the end (R17,
    R28, A17); with ``end_trigger=deck_emptied`` the draw that empties it triggers it."""
    left = state[C.F_FEEDER_LEFT]
    if left == 0:
        trigger(state, trigger_code)
        return C.NO_CARD
    left -= 1
    state[C.F_FEEDER_LEFT] = left
    card = state[C.F_FEEDER + left]
    if left == 0 and rules[R.R_DECK_EMPTIED]:
        trigger(state, C.TRIGGER_LAST_CARD)
    return card


@njit(**INLINE_JIT)
def take_seed(state, seat, card):
    """A seed card into ``seat``'s face-down scoring pile, seen by all as it goes (R13, R16)."""
    v = card - C.SEED
    state[C.F_PILES + seat * C.SEED_VALUES + v - 1] += 1
    state[C.F_ENTERED + seat * C.SEED_VALUES + v - 1] += 1
    show_own_pile(state, seat, v - 1)
    state[seat_at(seat, C.PILE_SIZE)] += 1
    count(state, seat, C.C_SEED_CARDS, 1)
    count(state, seat, C.C_SEED_POINTS, v)


@njit(**HOT_RULES_JIT)
def pop_column(state, column, length_field, position):
    """Remove the card at ``position`` (0-based) of a column; the column closes up (R15, A8)."""
    n = state[length_field]
    card = state[column + position]
    for j in range(position, n - 1):
        state[column + j] = state[column + j + 1]
    state[column + n - 1] = C.NO_CARD
    state[length_field] = n - 1
    return card


@njit(**INLINE_JIT)
def take_bad(state, rules, position, seeds):
    """The bad card at ``position`` (0-based; NO_CARD for an empty place) is taken (R14, or A7's
    alternative for one beside no seed card, ``seeds`` 0). The bad-card column closes up (A8's
    default); under ``bad_cards_attached`` only the bad cards beside the seed cards above it,
    which slide down one place (the column had ``seeds`` seed cards), move with them: a bad card
    beside no seed card (the feeder deck is empty, or it lies beyond the seed column) stays."""
    if not rules[R.R_BAD_ATTACHED]:
        return pop_column(state, C.F_BAD_COL, C.F_BAD_LEN, position)
    card = state[C.F_BAD_COL + position]
    for j in range(position, seeds - 1):
        state[C.F_BAD_COL + j] = state[C.F_BAD_COL + j + 1]
    state[C.F_BAD_COL + max(position, seeds - 1)] = C.NO_CARD
    n = state[C.F_BAD_LEN]
    while n > 0 and state[C.F_BAD_COL + n - 1] == C.NO_CARD:
        n -= 1
    state[C.F_BAD_LEN] = n
    return card


@njit(**INLINE_JIT)
def bad_cards(state):
    """Bad cards in the bad-card column (empty places left out: A8's alternative)."""
    n = 0
    for j in range(state[C.F_BAD_LEN]):
        if state[C.F_BAD_COL + j] != C.NO_CARD:
            n += 1
    return n


@njit(**INLINE_JIT)
def bad_place(state, rules):
    """R27: where a bad card drawn now goes, the lowest empty place of the bad-card column; -1
    when it holds ``max_bad_cards_in_column`` bad cards already. Empty places below the top one
    exist only under ``bad_cards_attached`` (A8)."""
    n = state[C.F_BAD_LEN]
    if not rules[R.R_BAD_ATTACHED]:
        return n if n < rules[R.R_MAX_BAD] else -1
    if bad_cards(state) >= rules[R.R_MAX_BAD]:
        return -1
    for j in range(n):
        if state[C.F_BAD_COL + j] == C.NO_CARD:
            return j
    return n


@njit(**INLINE_JIT)
def refill_column(state, rules):
    """R26-R28: draw until the column holds its seed cards; bad cards beside them from position 1
    up, a bad card beyond ``max_bad_cards_in_column`` leaves the game."""
    while state[C.F_SEED_LEN] < rules[R.R_COLUMN_SIZE]:
        card = draw_feeder(state, rules, C.TRIGGER_REFILL)
        if card == C.NO_CARD:
            return
        if card < C.CROW:
            state[C.F_SEED_COL + state[C.F_SEED_LEN]] = card
            state[C.F_SEED_LEN] += 1
            continue
        state[C.F_BAD_DRAWN + card - C.CROW] += 1  # face up (R26, R27)
        place = bad_place(state, rules)
        if place >= 0:
            state[C.F_BAD_COL + place] = card
            if place == state[C.F_BAD_LEN]:
                state[C.F_BAD_LEN] += 1
        else:
            state[C.F_BAD_REMOVED] += 1


@njit(**RULES_JIT)
def random_seed_value(state, piles, size, rng):
    """The value (0-2: worth 1-3) of a card drawn at random from a pile of ``size`` seed cards,
    counted by value from ``state[piles]`` (R21, A11: the squirrel's draw; cards.py order)."""
    r = randint(rng, size)
    v = 0
    while r >= state[piles + v]:
        r -= state[piles + v]
        v += 1
    return v


@njit(**RULES_JIT)
def squirrel(state, rules, seat, rng):
    """R21, A11: up to ``squirrel_steal`` random seed cards leave ``seat``'s scoring pile."""
    piles = C.F_PILES + seat * C.SEED_VALUES
    log_squirrel(state, rules, seat)
    for _ in range(rules[R.R_STEAL]):
        size = state[seat_at(seat, C.PILE_SIZE)]
        if size == 0:
            return
        v = random_seed_value(state, piles, size, rng)
        state[piles + v] -= 1
        show_own_pile(state, seat, v)
        state[seat_at(seat, C.PILE_SIZE)] -= 1
        state[seat_at(seat, C.PILE_LOST)] += 1
        count(state, seat, C.C_SQUIRREL_CARDS, 1)
        count(state, seat, C.C_SQUIRREL_POINTS, v + 1)


@njit(**RULES_JIT)
def log_squirrel(state, rules, seat):
    """R21, A22: the squirrel about to take cards from ``seat``'s pile, in the public log
    (cards.py ``F_SQUIRREL_LOG``): how many it takes and, with public piles, what had entered
    the pile by then."""
    taken = min(rules[R.R_STEAL], state[seat_at(seat, C.PILE_SIZE)])
    if taken <= 0:
        return
    entry = C.F_SQUIRREL_LOG + state[C.F_SQUIRRELS_LOGGED] * C.SQUIRREL_ENTRY
    state[C.F_SQUIRRELS_LOGGED] += 1
    state[entry + C.SQ_OWNER] = seat
    state[entry + C.SQ_TAKEN] = taken
    if state[C.F_PUBLIC_PILES]:
        for v in range(C.SEED_VALUES):
            state[entry + C.SQ_ENTERED + v] = state[C.F_ENTERED + seat * C.SEED_VALUES + v]


# Birds ------------------------------------------------------------------------------------------------


@njit(**INLINE_JIT)
def draw_bird(state):
    """The bird deck's top card."""
    state[C.F_BIRDS_LEFT] -= 1
    return state[C.F_BIRD_DECK + state[C.F_BIRDS_LEFT]]


@njit(**INLINE_JIT)
def refill_queue(state, rules):
    """R6, R25: the queue is topped up from the bird deck while it lasts (A16)."""
    while state[C.F_QUEUE_LEN] < rules[R.R_QUEUE_SIZE] and state[C.F_BIRDS_LEFT] > 0:
        state[C.F_QUEUE + state[C.F_QUEUE_LEN]] = draw_bird(state)
        state[C.F_QUEUE_LEN] += 1


# Dealing ---------------------------------------------------------------------------------------------


@njit(**RULES_JIT)
def deal_feeder(state, rules, rng):
    """R3, A1: the shuffled feeder deck, four seed cards face up, the set-aside bad cards shuffled
    back in. The set-aside cards wait in the (still empty) bird deck area."""
    n = 0
    for v in range(1, C.SEED_VALUES + 1):
        for _ in range(rules[R.R_SEEDS + v - 1]):
            state[C.F_FEEDER + n] = C.SEED + v
            n += 1
    for _ in range(rules[R.R_CROWS]):
        state[C.F_FEEDER + n] = C.CROW
        n += 1
    for _ in range(rules[R.R_SQUIRRELS]):
        state[C.F_FEEDER + n] = C.SQUIRREL
        n += 1
    shuffle(rng, state[C.F_FEEDER : C.F_FEEDER + n], n)
    state[C.F_FEEDER_LEFT] = n
    aside = 0
    while state[C.F_SEED_LEN] < rules[R.R_COLUMN_SIZE]:  # rules.check: enough seed cards
        n -= 1
        card = state[C.F_FEEDER + n]
        if card < C.CROW:
            state[C.F_SEED_COL + state[C.F_SEED_LEN]] = card
            state[C.F_SEED_LEN] += 1
        else:
            state[C.F_BIRD_DECK + aside] = card
            aside += 1
    for i in range(aside):
        state[C.F_FEEDER + n + i] = state[C.F_BIRD_DECK + i]
        state[C.F_BIRD_DECK + i] = 0
    n += aside
    state[C.F_FEEDER_LEFT] = n
    if aside > 0:
        shuffle(rng, state[C.F_FEEDER : C.F_FEEDER + n], n)
    if n == 0 and rules[R.R_DECK_EMPTIED]:
        trigger(state, C.TRIGGER_LAST_CARD)


@njit(**RULES_JIT)
def deal_birds(state, rules, n_players, rng):
    """R4-R6: a species removed with 2 players, the shuffled bird deck, one bird per perch, the
    hands, the queue."""
    removed = rules[R.R_REMOVED_SPECIES]
    if removed == R.RANDOM:
        removed = randint(rng, rules[R.R_SPECIES])
    state[C.F_REMOVED_SPECIES] = removed if removed >= 0 else -1
    n = 0
    for species in range(rules[R.R_SPECIES]):
        if species == removed:
            continue
        for s in range(rules[R.R_STRENGTHS]):
            for sex in range(2):
                state[C.F_BIRD_DECK + n] = species * C.BIRDS_PER_SPECIES + s * 2 + sex
                n += 1
    shuffle(rng, state[C.F_BIRD_DECK : C.F_BIRD_DECK + n], n)
    state[C.F_BIRDS_LEFT] = n
    state[C.F_PERCHES] = rules[R.R_PERCHES]
    for perch in range(rules[R.R_PERCHES]):  # rules.check: enough birds for the setup
        bird = draw_bird(state)
        state[C.F_ROWS + perch * C.MAX_ROW] = bird
        state[C.F_ROW_LEN + perch] = 1
        state[C.F_ROW_STRENGTHS + perch] = strength(bird)
    first = state[L.H_FIRST]
    for _ in range(rules[R.R_HAND_SIZE]):
        for i in range(n_players):
            hand_add(state, (first + i) % n_players, draw_bird(state))
    refill_queue(state, rules)


@njit(**RULES_JIT)
def setup(state, rules, n_players, rng):
    """Deal a new game into a zeroed ``state`` (R2-R7)."""
    state[L.H_N_PLAYERS] = n_players
    state[L.H_END_REASON] = -1
    state[C.F_TRIGGER_TURN] = -1
    state[C.F_PLAYED] = -1
    state[C.F_PLAYED_PERCH] = -1
    state[C.F_LAST_DISCARD] = -1
    for s in range(C.MAX_STRENGTH):
        state[C.F_BIRD_POINTS + s] = rules[R.R_BIRD_POINTS + s]
    state[C.F_PAIR_POINTS] = rules[R.R_PAIR_POINTS]
    state[C.F_COLUMN_SIZE] = rules[R.R_COLUMN_SIZE]
    state[C.F_PUBLIC_PILES] = rules[R.R_PUBLIC_PILES]
    state[C.F_REVEAL_ALL] = rules[R.R_REVEAL_ALL]
    first = rules[R.R_FIRST_PLAYER]
    if first < 0:
        first = randint(rng, n_players)  # R7, A23
    state[L.H_FIRST] = first
    deal_feeder(state, rules, rng)
    deal_birds(state, rules, n_players, rng)
    start_turn(state, rules, first)
    settle(state, rules)
    show_view(state)


# Scoring (R32-R36) ------------------------------------------------------------------------------------


@njit(**HOT_RULES_JIT)
def counted_mask(state, rules, seat, species):
    """The birds of a species that count for its majority (A20: all, or the unpaired ones)."""
    mask = state[seat_at(seat, C.COLLECTION + species)]
    if rules[R.R_PAIRS_IN_MAJORITY]:
        return mask
    return mask & ~pair_mask(mask)


@njit(**RULES_JIT)
def score_game(state, rules):
    """R32-R35 into the score and the final counters of every seat."""
    n_players = state[L.H_N_PLAYERS]
    for seat in range(n_players):
        seeds = 0
        for v in range(C.SEED_VALUES):
            seeds += (v + 1) * state[C.F_PILES + seat * C.SEED_VALUES + v]
        pairs = 0
        birds = 0
        for species in range(C.MAX_SPECIES):
            mask = state[seat_at(seat, C.COLLECTION + species)]
            pairs += popcount(mask & (mask >> 1) & PAIR_BITS)
            held = popcount(mask)
            birds += held
            state[C.F_COUNTERS + seat * C.N_COUNTERS + C.C_BIRDS_SPECIES + species] = held
        base = C.F_COUNTERS + seat * C.N_COUNTERS
        state[base + C.C_BIRDS] = birds
        state[base + C.C_PAIRS] = pairs
        state[base + C.C_POINTS_SEEDS] = seeds
        state[base + C.C_POINTS_PAIRS] = pairs * rules[R.R_PAIR_POINTS]
    for species in range(C.MAX_SPECIES):
        most = 0
        for seat in range(n_players):
            most = max(most, popcount(counted_mask(state, rules, seat, species)))
        if most == 0:
            continue
        for seat in range(n_players):
            mask = counted_mask(state, rules, seat, species)
            if popcount(mask) != most:
                continue
            points = 0
            for bit in range(C.BIRDS_PER_SPECIES):
                if mask >> bit & 1:
                    points += rules[R.R_BIRD_POINTS + bit // 2]
            base = C.F_COUNTERS + seat * C.N_COUNTERS
            state[base + C.C_MAJORITIES] += 1
            state[base + C.C_POINTS_MAJORITIES] += points
    for seat in range(n_players):
        base = C.F_COUNTERS + seat * C.N_COUNTERS
        state[C.F_SCORE + seat] = (
            state[base + C.C_POINTS_SEEDS]
            + state[base + C.C_POINTS_MAJORITIES]
            + state[base + C.C_POINTS_PAIRS]
        )


@njit(**RULES_JIT)
def finish_game(state, rules, reason):
    """R31 (the hands left after the discards join the collections), then scoring; game over."""
    for seat in range(state[L.H_N_PLAYERS]):
        for i in range(hand_len(state, seat)):
            collect(state, seat, hand_card(state, seat, i))
            state[C.F_HANDS + seat * C.MAX_HAND + i] = 0
        state[C.F_HAND_LEN + seat] = 0
        state[seat_at(seat, C.HAND_COUNT)] = 0
        for species in range(C.MAX_SPECIES):
            state[seat_at(seat, C.HAND_KNOWN + species)] = 0
    score_game(state, rules)
    state[L.H_OVER] = 1
    state[L.H_END_REASON] = reason


@njit(**HOT_RULES_JIT)
def discards_due(state, rules, seat):
    """R31, A16: cards ``seat`` still discards (it keeps hand_size - final_discard)."""
    keep = rules[R.R_HAND_SIZE] - rules[R.R_FINAL_DISCARD]
    return max(0, hand_len(state, seat) - keep)


@njit(**RULES_JIT)
def next_discarder(state, rules, reason, start):
    """The first seat from turn-order position ``start`` with discards due (a DISCARD decision),
    or, when none is left, the end of the game."""
    n_players = state[L.H_N_PLAYERS]
    for i in range(start, n_players):
        seat = (state[L.H_FIRST] + i) % n_players
        if discards_due(state, rules, seat) > 0:
            state[L.H_SEAT] = seat
            state[L.H_PHASE] = C.PHASE_DISCARD
            state[C.F_LAST_DISCARD] = -1
            for species in range(C.MAX_SPECIES):  # its own discards, none yet
                state[C.F_ACTIVE_DISCARDED + species] = 0
            return
    finish_game(state, rules, reason)


@njit(**RULES_JIT)
def end_reason_of(state):
    return C.END_BIRDS if state[C.F_TRIGGER] == C.TRIGGER_BIRDS else C.END_FEEDER


@njit(**RULES_JIT)
def discard(state, rules, bird):
    """R31: one card of the final discard, secret until every seat is done."""
    seat = whole(state[L.H_SEAT])
    hand_remove(state, seat, bird, False)
    state[C.F_DISCARDED] += 1
    state[C.F_LAST_DISCARD] = bird
    species = whole(bird) // C.BIRDS_PER_SPECIES  # the discarder's own view (R31)
    state[C.F_ACTIVE_DISCARDED + species] |= 1 << (whole(bird) % C.BIRDS_PER_SPECIES)
    if discards_due(state, rules, seat) == 0:
        position = (seat - state[L.H_FIRST]) % state[L.H_N_PLAYERS]
        next_discarder(state, rules, end_reason_of(state), position + 1)


@njit(**RULES_JIT)
def turn_cap_end(state, rules):
    """The safeguard ended the game: no bot is asked, each seat discards its lowest codes."""
    for seat in range(state[L.H_N_PLAYERS]):
        for _ in range(discards_due(state, rules, seat)):
            hand_remove(state, seat, hand_card(state, seat, 0), False)
            state[C.F_DISCARDED] += 1
    finish_game(state, rules, L.END_TURN_CAP)


# Turn flow -------------------------------------------------------------------------------------------


@njit(**INLINE_JIT)
def start_turn(state, rules, seat):
    """A seat's turn: phase A, or phase C at once with an empty hand; the game ends at once when
    every hand and the bird supply are empty (A16)."""
    state[L.H_SEAT] = seat
    state[C.F_PLAYED] = -1
    state[C.F_PLAYED_PERCH] = -1
    if hand_len(state, seat) > 0:
        state[L.H_PHASE] = C.PHASE_PLAY
        return
    if state[C.F_BIRDS_LEFT] == 0 and state[C.F_QUEUE_LEN] == 0:
        empty = True
        for other in range(state[L.H_N_PLAYERS]):
            empty = empty and hand_len(state, other) == 0
        if empty:
            finish_game(state, rules, C.END_NO_CARDS)
            return
    state[L.H_PHASE] = C.PHASE_C


@njit(**INLINE_JIT)
def end_turn(state, rules):
    """The turn is over: the turn cap, the last turn of the final round (R30, A18), or the next
    seat clockwise (R8)."""
    state[L.H_TURNS] += 1
    seat = whole(state[L.H_SEAT])
    n_players = state[L.H_N_PLAYERS]
    if end_turn_cap_reached(state):
        turn_cap_end(state, rules)
        return
    if state[L.H_TRIGGERED] and next_seat(seat, n_players) == state[L.H_FIRST]:
        next_discarder(state, rules, end_reason_of(state), 0)
        return
    start_turn(state, rules, next_seat(seat, n_players))


@njit(**HOT_RULES_JIT)
def next_seat(seat, n_players):
    """The seat clockwise of ``seat`` (R8), by a select: ``%`` of the int32 player count was a
    division at every turn's end."""
    seat += 1
    return 0 if seat == n_players else seat


@njit(**INLINE_JIT)
def settle(state, rules):
    """Run phase C (R25-R28) and the turns that follow until a decision is pending: a DRAW while
    the hand is short and a bird is there; then the column, the end of the turn, the next turn
    (which may skip to phase C with an empty hand, A16). A loop, not calls between the turn
    functions: numba compiles no mutual recursion."""
    while state[L.H_OVER] == 0 and state[L.H_PHASE] == C.PHASE_C:
        seat = whole(state[L.H_SEAT])
        if hand_len(state, seat) < rules[R.R_HAND_SIZE]:
            if state[C.F_QUEUE_LEN] > 0 or state[C.F_BIRDS_LEFT] > 0:
                state[L.H_PHASE] = C.PHASE_DRAW
                return
            if rules[R.R_BIRDS_TRIGGER]:
                trigger(state, C.TRIGGER_BIRDS)  # A16 trigger_end
        refill_column(state, rules)
        end_turn(state, rules)


@njit(**HOT_RULES_JIT)
def keep_candidates(state, seat):
    """Hand cards the R24 option may add: strength at most the played card's (A14)."""
    limit = strength(state[C.F_PLAYED])
    n = 0
    for i in range(hand_len(state, seat)):
        n += strength(hand_card(state, seat, i)) <= limit
    return n


@njit(**INLINE_JIT)
def offer_keep(state):
    """R24: the option when a hand card qualifies, else phase C."""
    if keep_candidates(state, state[L.H_SEAT]) > 0:
        state[L.H_PHASE] = C.PHASE_KEEP
    else:
        state[L.H_PHASE] = C.PHASE_C


@njit(**INLINE_JIT)
def chain(state, rules, rng):
    """R12-R23 from a compared row: repeat steps 1-5 while the ground total is greater. Returns
    early, perch empty, when a crow needs its CROW decision."""
    seat = whole(state[L.H_SEAT])
    perch = state[C.F_PLAYED_PERCH]
    row = C.F_ROWS + perch * C.MAX_ROW
    while True:
        total = ground_total(state, perch)
        perched = perched_strength(state, perch)
        if total <= perched:
            break
        d = total - perched  # R13
        bad = C.NO_CARD
        if d <= rules[R.R_COLUMN_SIZE]:
            seeds = state[C.F_SEED_LEN]
            if d <= seeds:
                take_seed(state, seat, pop_column(state, C.F_SEED_COL, C.F_SEED_LEN, d - 1))
                if d <= state[C.F_BAD_LEN]:  # R14: the bad card beside it comes too
                    bad = take_bad(state, rules, d - 1, seeds)
            elif rules[R.R_LONE_BAD] and d <= state[C.F_BAD_LEN]:  # A7 alternative
                bad = take_bad(state, rules, d - 1, 0)
        else:  # R16, R17
            card = draw_feeder(state, rules, C.TRIGGER_CHAIN_DRAW)
            if card != C.NO_CARD:
                count(state, seat, C.C_DECK_DRAWS, 1)
                if card < C.CROW:
                    take_seed(state, seat, card)
                else:
                    bad = card
                    state[C.F_BAD_DRAWN + card - C.CROW] += 1  # shown to all (R16)
        collect(state, seat, state[row])  # R18
        empty_perch(state, perch)
        count(state, seat, C.C_PROMOTIONS, 1)
        if bad == C.CROW:  # R19, R20: the player chooses the bird
            count(state, seat, C.C_CROWS, 1)
            state[seat_at(seat, C.CROWS_TAKEN)] += 1
            if not rules[R.R_CROW_RANDOM]:
                state[L.H_PHASE] = C.PHASE_CROW
                return
            chase_away(state, seat, random_crow_victim(state, seat, rng))  # A10's alternative
        if bad == C.SQUIRREL:  # R19, R21
            count(state, seat, C.C_SQUIRRELS, 1)
            state[seat_at(seat, C.SQUIRRELS_TAKEN)] += 1
            squirrel(state, rules, seat, rng)
        promote(state, rules, perch)  # R22
    if rules[R.R_KEEP_AFTER_CHAIN]:  # A13 alternative
        offer_keep(state)
    else:
        state[L.H_PHASE] = C.PHASE_C


@njit(**INLINE_JIT)
def play(state, rules, bird, perch, rng):
    """R9-R11, R24: the card at the end of the row, then the comparison."""
    seat = whole(state[L.H_SEAT])
    hand_remove(state, seat, bird, True)
    row_append(state, perch, bird)
    state[C.F_PLAYED] = bird
    state[C.F_PLAYED_PERCH] = perch
    if ground_total(state, perch) > perched_strength(state, perch):
        count(state, seat, C.C_CHAINS, 1)
        chain(state, rules, rng)
    else:
        offer_keep(state)


@njit(**INLINE_JIT)
def chase_away(state, seat, bird):
    """R20: the crow's bird leaves ``seat``'s collection and the game, in everyone's sight."""
    release(state, seat, bird)
    species = whole(bird) // C.BIRDS_PER_SPECIES
    state[C.F_GONE + species] |= 1 << (whole(bird) % C.BIRDS_PER_SPECIES)


@njit(**INLINE_JIT)
def crow(state, rules, bird, rng):
    """R20: the chosen bird leaves the game; the chain goes on with step 4."""
    chase_away(state, whole(state[L.H_SEAT]), bird)
    promote(state, rules, state[C.F_PLAYED_PERCH])
    chain(state, rules, rng)


@njit(**INLINE_JIT)
def keep(state, bird):
    """R24: the hand card joins the collection (or, ``C_NO_KEEP``, nothing does)."""
    if bird >= 0:
        seat = whole(state[L.H_SEAT])
        hand_remove(state, seat, bird, True)
        collect(state, seat, bird)
        count(state, seat, C.C_KEEPS, 1)
    state[L.H_PHASE] = C.PHASE_C


@njit(**INLINE_JIT)
def draw(state, rules, bird):
    """R25: a queue card (the queue closes up and is refilled) or, ``bird`` -1, the deck's top."""
    seat = whole(state[L.H_SEAT])
    if bird < 0:
        hand_add(state, seat, draw_bird(state))
    else:
        n = state[C.F_QUEUE_LEN]
        i = 0
        while state[C.F_QUEUE + i] != bird:
            i += 1
        species = whole(bird) // C.BIRDS_PER_SPECIES  # taken face up: a known hand card
        state[seat_at(seat, C.HAND_KNOWN + species)] |= 1 << (whole(bird) % C.BIRDS_PER_SPECIES)
        for j in range(i, n - 1):
            state[C.F_QUEUE + j] = state[C.F_QUEUE + j + 1]
        state[C.F_QUEUE + n - 1] = 0
        state[C.F_QUEUE_LEN] = n - 1
        hand_add(state, seat, bird)
        refill_queue(state, rules)
    state[L.H_PHASE] = C.PHASE_C


# Legal decisions ---------------------------------------------------------------------------------------


@njit(**HOT_RULES_JIT)
def list_plays(state, seat, out):
    """Every hand card on every perch (R9). Each card writes MAX_PERCHES codes, a fixed count
    LLVM writes as one vector store; those past the game's perches are overwritten by the next
    card's or lie past the list (MAX_LEGAL has room). As a loop over the game's perches, ~9
    instructions a play."""
    perches = state[C.F_PERCHES]
    n = 0
    for i in range(hand_len(state, seat)):
        code = C.C_PLAY + hand_card(state, seat, i) * C.MAX_PERCHES
        for perch in range(C.MAX_PERCHES):
            # as_index: numba's negative-index fix-up of a counter, 4 instructions a play
            out[as_index(n + perch)] = code + perch
        n += perches
    return n


@njit(**HOT_RULES_JIT)
def list_keeps(state, seat, out):
    limit = strength(state[C.F_PLAYED])
    out[0] = C.C_NO_KEEP
    n = 1
    for i in range(hand_len(state, seat)):
        bird = hand_card(state, seat, i)
        if strength(bird) <= limit:
            out[n] = C.C_KEEP + bird
            n += 1
    return n


@njit(**RULES_JIT)
def list_crow_victims(state, seat, out):
    most = 0
    for species in range(C.MAX_SPECIES):
        most = max(most, state[seat_at(seat, C.SPECIES_BIRDS + species)])
    n = 0
    for species in range(C.MAX_SPECIES):
        if state[seat_at(seat, C.SPECIES_BIRDS + species)] != most:
            continue
        mask = state[seat_at(seat, C.COLLECTION + species)]
        for bit in range(C.BIRDS_PER_SPECIES):
            if mask >> bit & 1:
                out[n] = C.C_CROW + species * C.BIRDS_PER_SPECIES + bit
                n += 1
    return n


@njit(**RULES_JIT)
def random_crow_victim(state, seat, rng):
    """A10's alternative: a bird drawn uniformly from those ``list_crow_victims`` lists, by its
    index in that (ascending) list."""
    most = 0
    for species in range(C.MAX_SPECIES):
        most = max(most, state[seat_at(seat, C.SPECIES_BIRDS + species)])
    n = 0
    for species in range(C.MAX_SPECIES):
        if state[seat_at(seat, C.SPECIES_BIRDS + species)] == most:
            n += most
    k = randint(rng, n)
    for species in range(C.MAX_SPECIES):
        if state[seat_at(seat, C.SPECIES_BIRDS + species)] != most:
            continue
        mask = state[seat_at(seat, C.COLLECTION + species)]
        for bit in range(C.BIRDS_PER_SPECIES):
            if mask >> bit & 1:
                if k == 0:
                    return species * C.BIRDS_PER_SPECIES + bit
                k -= 1
    return -1


@njit(**HOT_RULES_JIT)
def list_draws(state, out):
    n = 0
    for i in range(state[C.F_QUEUE_LEN]):  # insertion sort: ascending codes
        code = C.C_DRAW + state[C.F_QUEUE + i]
        j = n
        while j > 0 and out[j - 1] > code:
            out[j] = out[j - 1]
            j -= 1
        out[j] = code
        n += 1
    if state[C.F_BIRDS_LEFT] > 0:
        out[n] = C.C_DRAW_DECK
        n += 1
    return n


@njit(**HOT_RULES_JIT)
def list_discards(state, rules, seat, out):
    due = discards_due(state, rules, seat)
    size = hand_len(state, seat)
    last = state[C.F_LAST_DISCARD]
    n = 0
    for i in range(size):
        bird = hand_card(state, seat, i)
        if bird > last and size - i >= due:
            out[n] = C.C_DISCARD + bird
            n += 1
    return n


@njit(**INLINE_JIT)
def legal(state, rules, out):
    """The pending decision's legal codes in ``out``, ascending; returns how many."""
    seat = whole(state[L.H_SEAT])
    phase = state[L.H_PHASE]
    if phase == C.PHASE_PLAY:
        return list_plays(state, seat, out)
    if phase == C.PHASE_KEEP:
        return list_keeps(state, seat, out)
    if phase == C.PHASE_CROW:
        return list_crow_victims(state, seat, out)
    if phase == C.PHASE_DRAW:
        return list_draws(state, out)
    return list_discards(state, rules, seat, out)


# Applying decisions ------------------------------------------------------------------------------------


@njit(**INLINE_JIT)
def show_view(state):
    """The deciding seat's own view after the public table (cards.py): its hand and the scoring
    piles as it knows them (A22: its own always; the others' cards seen entering them, card for
    card where it drew the squirrel's cards, its left neighbour's pile, or all are revealed).

    The piles are written when the deciding seat changes (``F_VIEW_PILES_FOR``), not at every
    decision: in a seat's turn only its own pile changes (R13, R16, R21), which ``take_seed``
    and ``squirrel`` write into its view as they go (``show_own_pile``). The engine alone, 4
    players, replaying recorded planner games: 8% less time per turn."""
    seat = whole(state[L.H_SEAT])
    n = hand_len(state, seat)
    state[C.F_ACTIVE_HAND_LEN] = n
    for i in range(C.MAX_HAND):  # a hand's places past its cards hold 0 (hand_remove)
        state[C.F_ACTIVE_HAND + i] = hand_card(state, seat, i)
    if state[C.F_VIEW_PILES_FOR] != seat + 1:
        state[C.F_VIEW_PILES_FOR] = seat + 1
        show_piles(state, seat)


@njit(**HOT_RULES_JIT)
def show_own_pile(state, seat, v):
    """The seed cards worth ``v + 1`` in ``seat``'s pile changed: in the view, if it is that
    seat's (a seat knows its own pile card for card, A22; the others' views are written when
    shown, ``show_view``)."""
    if state[C.F_VIEW_PILES_FOR] == seat + 1:
        at = seat * C.SEED_VALUES + v
        state[C.F_ACTIVE_PILES + at] = state[C.F_PILES + at]
        state[C.F_ACTIVE_ENTERED + at] = state[C.F_ENTERED + at]


@njit(**INLINE_JIT)
def show_piles(state, seat):
    """``show_view``'s scoring piles, as ``seat`` knows them (A22)."""
    n_players = state[L.H_N_PLAYERS]
    public = state[C.F_PUBLIC_PILES] != 0
    reveal_all = state[C.F_REVEAL_ALL] != 0
    right = seat - 1 if seat > 0 else n_players - 1  # the seat whose left neighbour it is
    for owner in range(C.MAX_PLAYERS):  # selects, not branches: they would mispredict
        present = owner < n_players
        exact = present & ((owner == seat) | (public & (reveal_all | (owner == right))))
        seen = present & public
        for v in range(C.SEED_VALUES):
            known = state[C.F_PILES + owner * C.SEED_VALUES + v]
            entered = state[C.F_ENTERED + owner * C.SEED_VALUES + v]
            value = known if exact else (entered if seen else 0)
            state[C.F_ACTIVE_PILES + owner * C.SEED_VALUES + v] = value
            own = present & (owner == seat)
            state[C.F_ACTIVE_ENTERED + owner * C.SEED_VALUES + v] = entered if seen | own else 0
        state[C.F_ACTIVE_EXACT + owner] = 1 if exact else 0


@njit(**INLINE_JIT)
def advance(state, rules, code, rng):
    """Apply one legal decision and run the rules to the next pending decision."""
    code = whole(code)
    if code < C.C_NO_KEEP:
        play(state, rules, (code - C.C_PLAY) // C.MAX_PERCHES, code % C.MAX_PERCHES, rng)
    elif code < C.C_CROW:
        keep(state, code - C.C_KEEP)  # C_NO_KEEP gives -1
    elif code < C.C_DRAW:
        crow(state, rules, code - C.C_CROW, rng)
    elif code < C.C_DISCARD:
        draw(state, rules, code - C.C_DRAW if code < C.C_DRAW_DECK else -1)
    else:
        discard(state, rules, code - C.C_DISCARD)
    settle(state, rules)


@njit(**RULES_JIT)
def apply(state, rules, code, rng):
    """``advance``, then the deciding seat's view."""
    advance(state, rules, code, rng)
    show_view(state)


# The kernel contract ---------------------------------------------------------------------------------


@njit(**RULES_JIT)
def deal(state, rules, n_players, rng, out):
    """``setup``, then the legal decisions of the first real choice (core loop contract)."""
    setup(state, rules, n_players, rng)
    if state[L.H_OVER]:
        return 0
    n = legal(state, rules, out)
    return n if n > 1 else step(state, rules, out[0], rng, out)


@njit(**INLINE_JIT)
def step(state, rules, decision, rng, out):
    """``apply``, then forced decisions until the next real choice (core loop contract). The
    deciding seat's view is written once, for the choice a bot is asked (no bot sees the states
    a forced decision passes through)."""
    while True:
        advance(state, rules, decision, rng)
        if state[L.H_OVER]:
            return 0
        n = legal(state, rules, out)
        if n > 1:
            show_view(state)
            return n
        decision = out[0]


@njit(**RULES_JIT)
def observe(state, seat, buf):
    """The public table and ``seat``'s own view into ``buf`` (for tools: the play loop hands bots
    the state's prefix, whose view is the deciding seat's)."""
    saved = state[L.H_SEAT]
    state[L.H_SEAT] = seat
    show_view(state)
    for i in range(C.OBS_LEN):
        buf[i] = state[i]
    state[L.H_SEAT] = saved
    buf[L.H_SEAT] = saved
    show_view(state)
    if seat != saved:  # the discarder's own discards are its secret (R31, A19)
        for species in range(C.MAX_SPECIES):
            buf[C.F_ACTIVE_DISCARDED + species] = 0
    for i in range(C.OBS_SCRATCH, C.OBS_LEN):
        buf[i] = 0
    return buf


@njit(**RULES_JIT)
def finalize(state, rules, game_row, seat_rows):
    """Scores, ranks, winners (R36: points, then pairs; still tied: a shared win) and counters."""
    n_players = state[L.H_N_PLAYERS]
    extra = len(L.SEAT_COLUMNS)
    for seat in range(n_players):
        row = seat_rows[seat]
        row[L.S_SCORE] = state[C.F_SCORE + seat]
        for c in range(C.N_COUNTERS):
            row[extra + c] = state[C.F_COUNTERS + seat * C.N_COUNTERS + c]
    for seat in range(n_players):
        key = seat_rows[seat, L.S_SCORE] * 64 + seat_rows[seat, extra + C.C_PAIRS]
        better = 0
        for other in range(n_players):
            if seat_rows[other, L.S_SCORE] * 64 + seat_rows[other, extra + C.C_PAIRS] > key:
                better += 1
        seat_rows[seat, L.S_RANK] = better + 1
        seat_rows[seat, L.S_WIN] = 1 if better == 0 else 0
    g = len(L.GAME_COLUMNS)
    game_row[g + 0] = state[C.F_FEEDER_LEFT]
    game_row[g + 1] = state[C.F_TRIGGER]
    game_row[g + 2] = state[C.F_TRIGGER_TURN]
    game_row[g + 3] = state[C.F_BIRDS_LEFT]
    game_row[g + 4] = state[C.F_REMOVED_SPECIES]
    game_row[g + 5] = state[C.F_BAD_REMOVED]


PLAY_KERNELS = first_class_kernels(deal, step, observe, finalize)
"""(deal, step, observe, finalize) for ``cardsim.core.kernel``."""

KERNELS = (setup, legal, apply, observe, finalize)
"""The rules one call at a time, for tests and tools that drive a game from Python."""
