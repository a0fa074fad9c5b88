"""Piña Pirata's table in the state vector (``cards.py`` layout): Hands, the Action pile(s) and
the deck (pina-pirata.md Components, R1, R4, R8, R19, A7), cards in front of players (R22), what
each seat has seen of where a card went (A15), the tiles in play as bit sets, and the task
stack's push, pop and ask.

Compiled helpers of ``engine.py``, whose docstring states the engine's contract (the task stack,
chance in order of use, canonical orders); every rule cites ``pina-pirata.md``.
"""

import numpy as np
from numba import njit

from cardsim.core import layout as L
from cardsim.core.bits import as_index, low_bit_index
from cardsim.core.jit import HOT_RULES_JIT, INLINE_JIT, RULES_JIT
from cardsim.core.rng import shuffle
from cardsim.games.pina_pirata import cards as C
from cardsim.games.pina_pirata import rules as R

_KEY = np.full(C.N_TILES + 1, -1, np.int32)  # key pirate of each "play" tile (cards.PLAY_KEY)
for _t, _p in C.PLAY_KEY.items():
    _KEY[_t] = _p
_ONTO_PLAYED = np.full(C.N_TILES + 1, -1, np.int32)  # "play onto" tiles: pirate played
_ONTO_UNDER = np.full(C.N_TILES + 1, -1, np.int32)  # ... and pirate the card underneath shows
for _t, (_a, _b) in C.PLAY_ONTO.items():
    _ONTO_PLAYED[_t] = _a
    _ONTO_UNDER[_t] = _b
PLAY_KEY_TABLE = _KEY
ONTO_PLAYED_TABLE = _ONTO_PLAYED
ONTO_UNDER_TABLE = _ONTO_UNDER

# The tiles the rules test by number (``tile_on(state, T37)``), as int64 values: numba compiles a
# function once per argument types, and a number written out in a call is a type of its own
# (``Literal[int](37)``), so tile_on was compiled 22 times (one per tile) and tile_age 9 times,
# ~60 ms of a cold compile each, and every compiled level above links and re-optimizes each copy.
T3, T6, T7, T8, T9, T13, T15, T22, T24, T26, T28 = (
    np.int64(t) for t in (3, 6, 7, 8, 9, 13, 15, 22, 24, 26, 28)
)
T29, T31, T32, T33, T34, T35, T36, T37, T38, T39, T40 = (
    np.int64(t) for t in (29, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40)
)

B_CROC_TURTLE = (1 << C.CROCODILE) | (1 << C.TURTLE)


B_WALRUS = 1 << C.WALRUS


J = RULES_JIT


# Reads ---------------------------------------------------------------------------------------------
@njit(**J)
def sf(seat, field):
    """Index of ``field`` (cards.SH_*) of ``seat``'s public block (``as_index``: for indexing)."""
    return as_index(C.F_SEATS + seat * C.SEAT_LEN + field)


@njit(**J)
def hand_n(state, seat):
    return state[sf(seat, C.SH_HAND_N)]


@njit(**J)
def tile_on(state, tile):
    """Tile ``tile`` is in play face up (its rule applies; T27 turns tiles face down): one bit of
    ``F_TILES_ON``, kept by ``sync_tiles``."""
    return (state[C.F_TILES_ON + (tile >> 5)] >> (tile & 31)) & 1 == 1


@njit(**J)
def sync_tiles(state):
    """``F_TILES_ON`` and ``F_TRIGGERS`` from the tiles in play and their faces: after every
    change of either. Tiles change only between rounds or by T27, so a play's trigger test and
    ``show``'s T33 test read a word instead of passing over the tiles every turn."""
    w0 = 0
    w1 = 0
    keys = 0
    for slot in range(state[C.F_N_TILES]):
        sets_off = 0  # F_SLOT_TRIGGERS: what triggers_mask tests, in its order
        if state[C.F_TILE_DOWN + slot] == 0:
            t = state[C.F_TILES + slot]
            if t < 32:
                w0 |= 1 << t
            else:
                w1 |= 1 << (t - 32)
            if PLAY_KEY_TABLE[t] >= 0:
                keys |= 1 << PLAY_KEY_TABLE[t]
                sets_off = 1 << PLAY_KEY_TABLE[t]
            elif ONTO_PLAYED_TABLE[t] >= 0:
                keys |= 1 << ONTO_PLAYED_TABLE[t]  # and the card underneath must match (T2, T26)
                sets_off = (1 << ONTO_PLAYED_TABLE[t]) | C.SLOT_CHECK
            elif t == 11 or t == 40:
                keys = -1  # T11 acts on every play (A27); T40 on a solitary card of any pirate
                sets_off = (1 << C.N_PIRATES) - 1
                if t == 40:
                    sets_off |= C.SLOT_CHECK
        state[C.F_SLOT_TRIGGERS + slot] = sets_off
    state[C.F_TILES_ON] = w0
    state[C.F_TILES_ON + 1] = w1
    state[C.F_TRIGGERS] = keys
    if w1 >> (33 - 32) & 1 == 0:
        for s in range(state[L.H_N_PLAYERS]):
            state[sf(s, C.SH_SHOWN)] = -1  # T33 is not face up: no card is shown (``show``)


# Hands as bit sets (F_HAND_BITS, kept with F_LOC by to_hand / from_hand): a set bit's card id
# is ``low_bit_index`` of its lowest set bit (core.bits: one tzcnt instead of a de Bruijn
# multiplication and table read: 966 -> 934 instructions a 4-player random turn, callgrind,
# 2026-12-02).


@njit(**HOT_RULES_JIT)
def pirate_cards(state, pirates):
    """The cards printed with any pirate of the mask ``pirates``, as the three words of a card
    bit set (the union of their ``F_PIRATE_BITS``). Inlined: it is on list_plays' per-turn path
    (a 4-player game costs the same as with the loop written out twice, within +-5%)."""
    s0 = 0
    s1 = 0
    s2 = 0
    while pirates:
        low = pirates & -pirates
        pirates ^= low
        base = C.F_PIRATE_BITS + low_bit_index(low) * C.HAND_WORDS
        s0 |= state[as_index(base)]
        s1 |= state[as_index(base + 1)]
        s2 |= state[as_index(base + 2)]
    return s0, s1, s2


@njit(**J)
def solitary_walrus_word(state, w):
    """Word ``w`` of the set of solitary Walrus cards (printed with the Walrus alone), which T7
    makes every pirate (A20, A38)."""
    y = state[C.F_PIRATE_BITS + C.WALRUS * C.HAND_WORDS + w] & 0xFFFFFFFF
    solitary = 0
    while y:
        low = y & -y
        y ^= low
        if state[C.F_MASKS + w * 32 + low_bit_index(low)] == B_WALRUS:
            solitary |= low
    return solitary


@njit(**J)
def hand_word(state, seat, w):
    """Word ``w`` of ``seat``'s Hand, as a non-negative int64."""
    return state[as_index(C.F_HAND_BITS + seat * C.HAND_WORDS + w)] & 0xFFFFFFFF


@njit(**J)
def tile_age(state, tile):
    return state[C.F_TILE_SLOT + tile]


@njit(**J)
def all_pirates(rules):
    return (1 << rules[R.R_PIRATE_TYPES]) - 1


@njit(**J)
def is_solitary(state, card):
    m = state[C.F_MASKS + card]
    return m & (m - 1) == 0


@njit(**J)
def play_mask(state, rules, card):
    """Pirates a card shows for matching and for the tiles a play triggers: the solitary Walrus
    is every pirate under T7 (A4, A20, A38); Turtles and Crocodiles are one under T31 (A39)."""
    m = state[as_index(C.F_MASKS + card)]
    if m == B_WALRUS and tile_on(state, T7):
        return all_pirates(rules)
    if m & B_CROC_TURTLE and tile_on(state, T31):
        m |= B_CROC_TURTLE & all_pirates(rules)
    return m


@njit(**J)
def held_mask(state, rules, card):
    """Pirates a card shows in a Hand, a reveal, a draw or on the deck (T3, T13, T14, T20, T24,
    T28, T30, T32): printed, unless the A38 / A39 options widen T7 / T31 to every purpose."""
    m = state[C.F_MASKS + card]
    if m == B_WALRUS and rules[R.R_WALRUS_EVERYWHERE] and tile_on(state, T7):
        return all_pirates(rules)
    if m & B_CROC_TURTLE and rules[R.R_ALLIGATURTLE_ALL] and tile_on(state, T31):
        m |= B_CROC_TURTLE & all_pirates(rules)
    return m


@njit(**J)
def pile_top(state, pile):
    n = state[as_index(C.F_PILE_N + pile)]
    if n == 0:
        return -1
    return state[as_index(C.F_PILE + pile * C.MAX_CARDS + n - 1)]


@njit(**J)
def deck_shown(state):
    """T13: the deck's top card lies face up (-1 when T13 is off or the deck is empty)."""
    n = state[C.F_DECK_N]
    if n == 0 or not tile_on(state, T13):
        return -1
    return state[C.F_DECK + n - 1]


@njit(**J)
def front_mask(state, seat):
    return state[sf(seat, C.SH_FRONT_MASK)]


@njit(**J)
def front_leader(state, rules, seat):
    """``seat`` has more cards in front of them than every other player (A29): strictly more, or
    with ``front_ties_lead`` at least as many and at least one (else every empty table leads)."""
    mine = state[sf(seat, C.SH_FRONT_N)]
    ties = rules[R.R_FRONT_TIES]
    if ties and mine == 0:
        return False
    for s in range(state[L.H_N_PLAYERS]):
        if s != seat and state[sf(s, C.SH_FRONT_N)] + 1 - ties > mine:
            return False
    return True


@njit(**J)
def seat_after(state, seat, steps):
    """The seat ``steps`` turns after ``seat`` in the current direction of play."""
    n = state[L.H_N_PLAYERS]
    s = seat + steps * state[C.F_DIR]  # within [-n, 2n]: steps <= n (T12: 2); no division
    while s >= n:
        s -= n
    while s < 0:
        s += n
    return s


@njit(**J)
def left_of(state, seat):
    left = seat + 1  # A6: fixed seats
    return 0 if left == state[L.H_N_PLAYERS] else left


@njit(**J)
def right_of(state, seat):
    return state[L.H_N_PLAYERS] - 1 if seat == 0 else seat - 1


@njit(**J)
def count(state, seat, counter, amount):
    state[as_index(C.F_COUNTERS + seat * C.N_COUNTERS + counter)] += amount


# What each seat has seen (F_SEEN; determinize.py) ---------------------------------------------------
# A seat's row says where it has seen each card that is now out of its sight (cards.SEEN_*): a card
# it gave away or was shown, a card it put on the deck or looked at there. An entry is wiped when
# its card moves face down where that seat cannot follow it (give, T4, the deck's order changed),
# and set again by the moves it watches. A card that goes to a public place (played, discarded,
# turned up from the deck) keeps its stale entry, at no cost on the per-turn path: the public
# place is in the prefix and wins (determinize.py), and the entry is wiped when the card leaves
# the Action pile face down (reshuffle, R8) or is overwritten when a player takes it from there
# (T2, T19). No rule reads these rows: only ``show`` copies the deciding seat's row into its view.
@njit(**J)
def seen_set(state, seat, card, value):
    """``seat`` has seen ``card`` at ``value`` (cards.SEEN_*; 0: it no longer knows). A card in
    its own Hand needs no entry (F_ACTIVE_HAND shows it)."""
    if value == C.SEEN_HAND + seat:
        value = 0
    i = as_index(C.F_SEEN + seat * C.MAX_CARDS + card)
    old = state[i]
    if old == 0 and value != 0:
        state[as_index(C.F_SEEN_N + seat)] += 1
        state[C.F_SEEN_TOTAL] += 1
    elif old != 0 and value == 0:
        state[as_index(C.F_SEEN_N + seat)] -= 1
        state[C.F_SEEN_TOTAL] -= 1
    state[i] = value


@njit(**J)
def seen_by_all(state, card, value):
    """Every seat saw ``card`` go to ``value`` (a public move into a Hand: T2, T19, T30, T33)."""
    for s in range(state[L.H_N_PLAYERS]):
        seen_set(state, s, card, value)


@njit(**J)
def seen_give(state, card, seats, value):
    """The seats of the bit mask ``seats`` (those that knew where ``card`` was) saw it go to
    ``value``."""
    for s in range(state[L.H_N_PLAYERS]):
        if seats >> s & 1:
            seen_set(state, s, card, value)


@njit(**J)
def seen_follow(state, card, value):
    """Every seat that knew where ``card`` was saw it go to ``value`` (T11's set-aside cards)."""
    seats = 0
    for s in range(state[L.H_N_PLAYERS]):
        if state[C.F_SEEN + s * C.MAX_CARDS + card] != 0:
            seats |= 1 << s
    seen_give(state, card, seats, value)


@njit(**J)
def forget(state, card):
    """``card`` moved where no seat can follow it: every entry of it is wiped."""
    for s in range(state[L.H_N_PLAYERS]):
        seen_set(state, s, card, 0)


@njit(**J)
def forget_deck(state):
    """The deck's order changed for all (T27 shuffles T37's pile in, puts T11's cards under):
    every entry at a deck position is wiped."""
    for s in range(state[L.H_N_PLAYERS]):
        for card in range(state[C.F_N_CARDS]):
            if state[C.F_SEEN + s * C.MAX_CARDS + card] >= C.SEEN_DECK:
                seen_set(state, s, card, 0)


@njit(**J)
def forget_all(state):
    """A new deal (R12): nobody has seen anything of it yet."""
    if state[C.F_SEEN_TOTAL]:
        for i in range(C.MAX_PLAYERS * C.MAX_CARDS):
            state[C.F_SEEN + i] = 0
        for s in range(C.MAX_PLAYERS):
            state[C.F_SEEN_N + s] = 0
        state[C.F_SEEN_TOTAL] = 0


@njit(**J)
def seen_top(state):
    """The seats that know the deck's top card, as a bit mask: all of them under T13 (its face
    is up), else those that put it there or looked at it (T4, T20). 0 for an empty deck (a
    reshuffle will make a new one nobody has seen)."""
    n = state[C.F_DECK_N]
    if n == 0:
        return 0
    top = state[C.F_DECK + n - 1]
    if deck_shown(state) == top:
        return (1 << state[L.H_N_PLAYERS]) - 1
    seats = 0
    if state[C.F_SEEN_TOTAL]:
        for s in range(state[L.H_N_PLAYERS]):
            if state[C.F_SEEN + s * C.MAX_CARDS + top] == C.SEEN_DECK + n - 1:
                seats |= 1 << s
    return seats


@njit(**J)
def seen_listed(state, seat, owner, out, n):
    """``seat`` chooses among the cards of ``owner``'s Hand listed in ``out[:n]`` (T5 when the
    taker chooses, A36; T17): it has seen them."""
    for i in range(n):
        seen_set(state, seat, (out[i] - C.C_CARD) % C.CARD_SPAN, C.SEEN_HAND + owner)


@njit(**J)
def pass_seen(state, card, owner, left):
    """T18: ``owner`` passes ``card`` to ``left`` with its whole Hand; it knows where it went,
    and every seat that knew the card in ``owner``'s Hand follows it."""
    if state[C.F_SEEN_TOTAL]:
        for s in range(state[L.H_N_PLAYERS]):
            if state[C.F_SEEN + s * C.MAX_CARDS + card] == C.SEEN_HAND + owner:
                seen_set(state, s, card, C.SEEN_HAND + left)
    seen_set(state, owner, card, C.SEEN_HAND + left)
    seen_set(state, left, card, 0)  # now in its own Hand


# Moving cards ------------------------------------------------------------------------------------
@njit(**J)
def to_hand(state, seat, card):
    state[as_index(C.F_LOC + card)] = C.LOC_HAND + seat
    state[sf(seat, C.SH_HAND_N)] += 1
    state[as_index(C.F_HAND_BITS + seat * C.HAND_WORDS + (card >> 5))] |= 1 << (card & 31)
    state[as_index(C.F_HAND_CARDS + seat * C.MAX_CARDS + card)] = 1


@njit(**J)
def from_hand(state, card):
    seat = state[as_index(C.F_LOC + card)] - C.LOC_HAND
    state[sf(seat, C.SH_HAND_N)] -= 1
    state[as_index(C.F_HAND_BITS + seat * C.HAND_WORDS + (card >> 5))] &= ~(1 << (card & 31))
    state[as_index(C.F_HAND_CARDS + seat * C.MAX_CARDS + card)] = 0


# T11's set-aside cards ----------------------------------------------------------------------------
# Their number and each setter's share are public (SH_ASIDE_N: all see the Crocodile played); their
# faces are hidden (A15) unless aside_face_up lays them face up (F_ASIDE_UP, per setter).
@njit(**J)
def set_aside(state, rules, seat, card, knew):
    """``seat`` sets ``card`` aside (T11); ``knew``: the seats that knew the card on the deck."""
    state[as_index(C.F_LOC + card)] = C.LOC_ASIDE
    state[as_index(C.F_ASIDE_BY + card)] = seat
    state[C.F_ASIDE_N] += 1
    state[sf(seat, C.SH_ASIDE_N)] += 1
    if rules[R.R_ASIDE_FACE_UP]:  # A15's alternative: everybody sees its face
        state[as_index(C.F_ASIDE_UP + seat * C.HAND_WORDS + (card >> 5))] |= 1 << (card & 31)
    seen_give(state, card, knew, C.SEEN_ASIDE)  # wipes their stale deck places


@njit(**J)
def take_aside(state, rules, seat, card):
    """``seat`` takes the set-aside ``card`` into its Hand (T11, A27)."""
    setter = state[as_index(C.F_ASIDE_BY + card)]
    to_hand(state, seat, card)
    state[C.F_ASIDE_N] -= 1
    state[sf(setter, C.SH_ASIDE_N)] -= 1
    if rules[R.R_ASIDE_FACE_UP]:  # face up: every seat saw which card went into that Hand
        state[as_index(C.F_ASIDE_UP + setter * C.HAND_WORDS + (card >> 5))] &= ~(1 << (card & 31))
        seen_by_all(state, card, C.SEEN_HAND + seat)
    else:
        seen_follow(state, card, C.SEEN_HAND + seat)


@njit(**J)
def clear_aside(state):
    """No card lies aside any more (a new deal, R12; T27 puts them under the deck)."""
    state[C.F_ASIDE_N] = 0
    for s in range(C.MAX_PLAYERS):
        state[sf(s, C.SH_ASIDE_N)] = 0
    for i in range(C.MAX_PLAYERS * C.HAND_WORDS):
        state[C.F_ASIDE_UP + i] = 0


@njit(**J)
def empty_hands(state):
    """Every Hand empty (a new deal): counts, bit sets and ``F_HAND_CARDS`` rows."""
    for s in range(state[L.H_N_PLAYERS]):
        state[sf(s, C.SH_HAND_N)] = 0
        for w in range(C.HAND_WORDS):
            state[C.F_HAND_BITS + s * C.HAND_WORDS + w] = 0
        for card in range(C.MAX_CARDS):
            state[C.F_HAND_CARDS + s * C.MAX_CARDS + card] = 0


@njit(**J)
def refresh_fronts(state):
    """Cards in front of each player, their pirates (R22: T26, T38 and T39 cards alike) and
    their public bit sets (F_FRONT_BITS, F_VOODOO_BITS)."""
    no_fronts(state)
    for card in range(state[C.F_N_CARDS]):
        loc = state[C.F_LOC + card]
        if loc >= C.LOC_FRONT:
            s = (loc - C.LOC_FRONT) % 8
            state[sf(s, C.SH_FRONT_N)] += 1
            state[sf(s, C.SH_FRONT_MASK)] |= state[C.F_MASKS + card]
            bit = 1 << (card & 31)
            state[C.F_FRONT_BITS + s * C.HAND_WORDS + (card >> 5)] |= bit
            if loc >= C.LOC_VOODOO:
                state[C.F_VOODOO_BITS + (card >> 5)] |= bit


@njit(**J)
def no_fronts(state):
    """No card in front of any player."""
    for s in range(state[L.H_N_PLAYERS]):
        state[sf(s, C.SH_FRONT_N)] = 0
        state[sf(s, C.SH_FRONT_MASK)] = 0
        for w in range(C.HAND_WORDS):
            state[C.F_FRONT_BITS + s * C.HAND_WORDS + w] = 0
    for w in range(C.HAND_WORDS):
        state[C.F_VOODOO_BITS + w] = 0


@njit(**J)
def pile_push(state, pile, card):
    """``card`` onto Action pile ``pile`` (``as_index``: a push every play, no negative test)."""
    n = state[as_index(C.F_PILE_N + pile)]
    state[as_index(C.F_PILE + pile * C.MAX_CARDS + n)] = card
    state[as_index(C.F_PILE_N + pile)] = n + 1
    state[as_index(C.F_LOC + card)] = C.LOC_PILE + pile


@njit(**J)
def pile_insert(state, pile, pos, card):
    """Insert ``card`` at position ``pos`` (0 = bottom) of Action pile ``pile``."""
    base = C.F_PILE + pile * C.MAX_CARDS
    n = state[C.F_PILE_N + pile]
    for i in range(n, pos, -1):
        state[base + i] = state[base + i - 1]
    state[base + pos] = card
    state[C.F_PILE_N + pile] = n + 1
    state[C.F_LOC + card] = C.LOC_PILE + pile


@njit(**J)
def pile_position(state, pile, card):
    base = C.F_PILE + pile * C.MAX_CARDS
    for i in range(state[C.F_PILE_N + pile]):
        if state[as_index(base + i)] == card:
            return i
    return -1


@njit(**J)
def pile_remove(state, pile, card):
    """Take ``card`` out of Action pile ``pile`` (it is there)."""
    base = C.F_PILE + pile * C.MAX_CARDS
    n = state[C.F_PILE_N + pile]
    pos = pile_position(state, pile, card)
    for i in range(pos, n - 1):
        state[base + i] = state[base + i + 1]
    state[C.F_PILE_N + pile] = n - 1


@njit(**J)
def reshuffle(state, rng):
    """R8, A7: every Action-pile card but the top card(s) becomes the new deck, shuffled; pile 0's
    cards from the bottom up, then pile 1's. Everybody saw those cards (F_DECK_POOL)."""
    n = state[C.F_DECK_N]
    if n == 0:  # the deck is those cards alone
        for w in range(C.HAND_WORDS):
            state[C.F_DECK_POOL + w] = 0
        state[C.F_DECK_POOL_ON] = 1
    for pile in range(state[C.F_N_PILES]):
        base = C.F_PILE + pile * C.MAX_CARDS
        pn = state[C.F_PILE_N + pile]
        if pn > 1:
            for i in range(pn - 1):
                card = state[base + i]
                state[C.F_DECK + n] = card
                state[C.F_LOC + card] = C.LOC_DECK
                state[C.F_DECK_POOL + (card >> 5)] |= 1 << (card & 31)
                if state[C.F_SEEN_TOTAL]:
                    forget(state, card)  # an entry left from before it was played (below)
                n += 1
            state[base] = state[base + pn - 1]
            state[C.F_PILE_N + pile] = 1
    state[C.F_DECK_N] = n
    shuffle(rng, state[C.F_DECK : C.F_DECK + n], n)


@njit(**J)
def deck_take(state, rng):
    """``deck_take_inline`` as a call, for the deal's Action pile cards, refills and tiles."""
    return deck_take_inline(state, rng)


# Inlined into ``draw`` only (~0.5 a turn; the per-turn call was ~1.5% of the instructions of a
# 4-player random game): one copy, not one per caller (8 callers: +8 s of cold compile, 2026-12-02)
@njit(**INLINE_JIT)
def deck_take_inline(state, rng):
    """The deck's top card, taken off the deck (reshuffling an empty deck first, A7), or -1."""
    if state[C.F_DECK_N] == 0:
        reshuffle(state, rng)
    n = state[C.F_DECK_N]
    if n == 0:
        return -1
    card = state[C.F_DECK + n - 1]
    state[C.F_DECK_N] = n - 1
    state[C.F_LOC + card] = C.LOC_NONE
    if n == 1 and tile_on(state, T13):
        reshuffle(state, rng)  # A7: under T13 an emptied deck is rebuilt at once
    return card


@njit(**J)
def deck_put_top(state, card):
    state[C.F_DECK_POOL_ON] = 0  # T4: a card of a Hand, which only its owner saw
    n = state[C.F_DECK_N]
    state[C.F_DECK + n] = card
    state[C.F_DECK_N] = n + 1
    state[C.F_LOC + card] = C.LOC_DECK


@njit(**J)
def deck_put_bottom(state, card):
    forget_deck(state)  # every position moves up one
    state[C.F_DECK_POOL_ON] = 0  # T11's set-aside cards, face down
    n = state[C.F_DECK_N]
    for i in range(n, 0, -1):
        state[C.F_DECK + i] = state[C.F_DECK + i - 1]
    state[C.F_DECK] = card
    state[C.F_DECK_N] = n + 1
    state[C.F_LOC + card] = C.LOC_DECK


@njit(**J)
def refill_piles(state, rng):
    """A7, R1: an empty Action pile takes the deck's top card at once."""
    for pile in range(state[C.F_N_PILES]):
        if state[C.F_PILE_N + pile] == 0:
            card = deck_take(state, rng)
            if card >= 0:
                pile_push(state, pile, card)


@njit(**J)
def discard(state, rules, card, pile):
    """R19: a card from a Hand onto Action pile ``pile`` without matching or triggering; on top
    (A3 default) or beneath the top card (``discard_to_top`` false)."""
    from_hand(state, card)
    n = state[C.F_PILE_N + pile]
    if rules[R.R_DISCARD_TOP] or n == 0:
        pile_push(state, pile, card)
    else:
        pile_insert(state, pile, n - 1, card)


# The task stack ------------------------------------------------------------------------------------
@njit(**J)
def push(state, kind, a, b, c):
    sp = state[C.F_SP]
    base = C.F_STACK + sp * C.TASK_LEN
    state[as_index(base)] = kind
    state[as_index(base + 1)] = a
    state[as_index(base + 2)] = b
    state[as_index(base + 3)] = c
    state[C.F_SP] = sp + 1


@njit(**J)
def pop(state):
    state[C.F_SP] -= 1


@njit(**J)
def top_task(state):
    """Index in the state of the top task's ``kind`` (``+1..+3``: a, b, c)."""
    return C.F_STACK + (state[C.F_SP] - 1) * C.TASK_LEN


@njit(**J)
def ask(state, seat, phase, a, b):
    state[L.H_SEAT] = seat
    state[L.H_PHASE] = phase
    state[C.F_CTX_A] = a
    state[C.F_CTX_B] = b


@njit(**J)
def push_window(state):
    """A T35 window (A17), only while T35 is face up: it cannot turn face up within a round, and a
    window whose T35 went face down meanwhile closes at once (``task_window``)."""
    if tile_on(state, T35):
        push(state, C.K_WINDOW, 0, 0, 0)
