"""Piepmatz's table in the state vector (``cards.py`` layout): hands, the perches' rows, the
collections and their species standings, the bird deck and queue, the feeder's columns and the
scoring piles (piepmatz.md Components; the moves of Phase B, R12-R24, and Phase C, R25-R28, are
made of these), the end's trigger (R29) and the deal (Setup, R3-R6, A1).

Compiled helpers of ``engine.py``, whose docstring states the engine's contract; every rule
cites ``piepmatz.md``.
"""

from numba import njit

from cardsim.core import layout as L
from cardsim.core.jit import HOT_RULES_JIT, INLINE_JIT, RULES_JIT
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


@njit(**HOT_RULES_JIT)
def show_own_pile(state, seat, v):
    """The seed cards worth ``v + 1`` in ``seat``'s pile changed: in the view, if it is that
    seat's (a seat knows its own pile card for card, A22; the others' views are written when
    shown, ``show_view``)."""
    if state[C.F_VIEW_PILES_FOR] == seat + 1:
        at = seat * C.SEED_VALUES + v
        state[C.F_ACTIVE_PILES + at] = state[C.F_PILES + at]
        state[C.F_ACTIVE_ENTERED + at] = state[C.F_ENTERED + at]
