"""Piña Pirata compiled engine: deal, step, observe, finalize (``cardsim.core.kernel`` contract).

Every rule cites ``pina-pirata.md``; layout and codes are in ``cards.py``, the rules vector in
``rules.py``. A game is all its rounds (M1 Cruise: ``cruise_rounds`` rounds; M2 Treasure Hunt: until
a player holds 1 + ``map_pieces_to_win`` map pieces).

Resumable task stack. A play can set off several tiles (oldest first, R15), a tile can ask for
decisions (which card, which pirate, which opponent), draws set off T3/T24, and T35 opens a window
between every two steps. So the engine keeps a stack of tasks in the state (``K_*`` in cards.py,
four ints each): ``advance`` executes the top task until one needs a decision, lists its legal codes
and returns; ``step`` hands the decision to that same task and runs on (``advance`` again). A task
that needs sub-steps (T23's two draws, then a discard) records its sub-step, pushes the sub-tasks
above itself and yields to the loop. Single legal decisions are applied at once.

A turn (``start_turn``, or a TURN_START task at a round's start) pushes [WINDOW, MAIN, TURN_EXTRAS,
TURN_END] (a WINDOW only while T35 is face up, TURN_EXTRAS only while T26 or T36 is). A play
pushes, from the top: WINDOW (after the play), then for each tile it triggers, oldest first, TILE
and WINDOW, then OPT_EXTRAS (T8/T15 grants, A21; only while T8 or T15 is face up or a grant is
pending). Tiles turn face up only between rounds, so a task left out would have done nothing. A draw pushes its T3/T24 tasks (oldest first) then WINDOW.
TURN_EXTRAS gives T26's and T36's once-a-turn extra play in tile age order (A24, A29).

Chance (the game's ``rng`` stream), in order of use:

1. the first dealer, ``randint(n_players)``, when ``first_dealer`` is random (R3);
2. the Adventure pile: the pool's tiles minus the fixed ones, ascending, ``shuffle``d (R2); the top
   (last) tiles go into play after the fixed tiles, then one map piece per seat 0.. (M2, A9);
3. each round: card ids ``0..N-1`` ``shuffle``d into the deck (top = last); ``hand_size`` rounds of
   one card to each seat from the dealer's left clockwise (R4); the Action pile's card (and the
   second pile's, T37); T39's Voodoo cards from the first player clockwise (A33);
4. during play: reshuffles of the Action pile(s) into an empty deck (R8, A7), T5's and T30's random
   choices (A36, A37, ``randint`` over the candidate cards in id order), T27 on T37 (the second
   pile is shuffled into the deck, A40), Cruise tile resets (A13: like 2.).

Canonical orders of legal decisions: ascending code (cards.py ``C_*``).
"""

import numpy as np
from numba import njit

from cardsim.core import layout as L
from cardsim.core.bits import as_index, copy_within, low_bit_index, popcount
from cardsim.core.jit import HOT_RULES_JIT, INLINE_JIT, RULES_JIT
from cardsim.core.kernel import end_turn_cap_reached, first_class_kernels
from cardsim.core.rng import randint, shuffle
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
# The tiles that change what may be played onto what (play_mask, can_play, list_plays): T6, T7,
# T9, T13, T22, T29, T31, T34, T39, T40, as bits of the two F_TILES_ON words.
MATCH_TILES = (6, 7, 9, 13, 22, 29, 31, 34, 39, 40)
MATCH_TILES_ON_0 = sum(1 << t for t in MATCH_TILES if t < 32)
MATCH_TILES_ON_1 = sum(1 << (t - 32) for t in MATCH_TILES if t >= 32)
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


# Matching (R7, R18, R21 and the match tiles) ------------------------------------------------------
@njit(**J)
def newer(best, age):
    return age if age > best else best


@njit(**J)
def can_play(state, rules, seat, card, pile):
    """May ``seat`` play ``card`` onto Action pile ``pile``? A permission (a common pirate, R7;
    a Joker or match tile) and no prohibition (T7, T22); under ``tile_conflict`` newest_wins a
    prohibition yields to a newer tile's permission (A19). Ages: slot order, the basic rule -1."""
    top = pile_top(state, pile)
    if top < 0:
        return True  # an empty Action pile (A7: refilled at once when the deck allows)
    cm = play_mask(state, rules, card)
    tm = play_mask(state, rules, top)
    perm = -2
    if cm & tm:
        perm = -1
    if tile_on(state, T9) and cm & B_WALRUS:  # T9: Walruses are Jokers
        perm = newer(perm, tile_age(state, T9))
    shown = deck_shown(state)  # T13
    if shown >= 0 and held_mask(state, rules, shown) >> C.OCTOPUS & 1 and cm >> C.OCTOPUS & 1:
        perm = newer(perm, tile_age(state, T13))
    if tile_on(state, T34) and hand_n(state, seat) >= 8:  # T34, A28
        perm = newer(perm, tile_age(state, T34))
    if tile_on(state, T39) and cm & front_mask(state, seat):  # T39
        perm = newer(perm, tile_age(state, T39))
    ghost = state[C.F_GHOST]
    if ghost >= 0 and tile_on(state, T40) and cm >> ghost & 1:  # T40
        perm = newer(perm, tile_age(state, T40))
    if tile_on(state, T6) and cm >> C.PARROT & 1 and tm >> C.MONKEY & 1:  # T6
        perm = newer(perm, tile_age(state, T6))
    if tile_on(state, T29) and tm >> C.RABBIT & 1:  # T29
        perm = newer(perm, tile_age(state, T29))
    if rules[R.R_JOKER_TOP]:  # A4 alternative: a Joker on top matches any card
        if tile_on(state, T9) and tm & B_WALRUS:
            perm = newer(perm, tile_age(state, T9))
        if shown >= 0 and held_mask(state, rules, shown) >> C.OCTOPUS & 1 and tm >> C.OCTOPUS & 1:
            perm = newer(perm, tile_age(state, T13))
        if ghost >= 0 and tile_on(state, T40) and tm >> ghost & 1:
            perm = newer(perm, tile_age(state, T40))
        if tile_on(state, T39) and tm & front_mask(state, seat):
            perm = newer(perm, tile_age(state, T39))
    if perm == -2:
        return False
    prohibition = -2
    if tile_on(state, T7) and cm & B_WALRUS and tm & B_WALRUS:  # T7: no Walrus onto a Walrus
        prohibition = tile_age(state, T7)
    if tile_on(state, T22) and state[C.F_T22_HOLDER] == seat and hand_n(state, seat) == 1:
        prohibition = newer(prohibition, tile_age(state, T22))  # T22, A26
    if prohibition == -2:
        return True
    if not rules[R.R_NEWEST_WINS]:
        return False
    return perm > prohibition


@njit(**J)
def list_plays(state, rules, seat, out, n):
    """``list_plays_inline`` as a call, for the extra plays (T8, T15, T26, T36): one inlined copy
    (the main step's) instead of four, each re-optimized by every function above it."""
    return list_plays_inline(state, rules, seat, out, n)


@njit(**INLINE_JIT)  # into task_main, inlined into advance: the call is ~1 a turn
def list_plays_inline(state, rules, seat, out, n):
    """Append ``C_PLAY + pile * CARD_SPAN + card`` for every legal play, pile-major, ascending.

    ``can_play`` per card, computed once per pile: under ``tile_conflict`` prohibition_wins (the
    default) a card may be played when it is allowed at all (``always``: T34, T29, A4's
    alternative) or shows a pirate of ``allow`` (the top card's pirates and the Jokers of T9, T13,
    T39, T40, T6's Parrot onto a Monkey), and is not forbidden (T22's last card: every card; T7:
    a Walrus onto a Walrus). ``newest_wins`` weighs tile ages: ``can_play`` itself."""
    newest = rules[R.R_NEWEST_WINS]
    # Under prohibition_wins the playable cards are the Hand's cards printed with a pirate of
    # ``allow`` (F_PIRATE_BITS), whole words at a time, with what T7 and T31 change in a card's
    # play mask (play_mask) added: T31 gives every Crocodile and Turtle card both pirates, T7
    # makes the solitary Walrus every pirate.
    t7 = tile_on(state, T7)
    t31 = tile_on(state, T31)
    every = all_pirates(rules)
    h0 = hand_word(state, seat, 0)
    h1 = hand_word(state, seat, 1)
    h2 = hand_word(state, seat, 2)
    if (state[C.F_TILES_ON] & MATCH_TILES_ON_0) == 0 and (
        state[C.F_TILES_ON + 1] & MATCH_TILES_ON_1
    ) == 0:
        # No such tile face up (most turns of a round with few tiles): R7 alone, a card may
        # follow the top card when they share a printed pirate, under either tile_conflict;
        # what the general pass below computes then, without its dozen tile tests per pile.
        for pile in range(state[C.F_N_PILES]):
            top = pile_top(state, pile)
            s0 = h0
            s1 = h1
            s2 = h2
            if top >= 0:
                s0, s1, s2 = pirate_cards(state, state[C.F_MASKS + top])
                s0 &= h0
                s1 &= h1
                s2 &= h2
            offset = C.C_PLAY + pile * C.CARD_SPAN
            n = bits_out(s0, offset, out, n)
            n = bits_out(s1, offset + 32, out, n)
            n = bits_out(s2, offset + 64, out, n)
        return n
    for pile in range(state[C.F_N_PILES]):
        top = pile_top(state, pile)
        allow = 0
        always = top < 0
        forbid = 0
        if top >= 0 and not newest:
            tm = play_mask(state, rules, top)
            allow = tm
            if tile_on(state, T9):
                allow |= B_WALRUS
            shown = deck_shown(state)
            octopus = shown >= 0 and held_mask(state, rules, shown) >> C.OCTOPUS & 1 == 1
            if octopus:
                allow |= 1 << C.OCTOPUS
            if tile_on(state, T34) and hand_n(state, seat) >= 8:
                always = True
            front = front_mask(state, seat)
            if tile_on(state, T39):
                allow |= front
            ghost = state[C.F_GHOST]
            if ghost >= 0 and tile_on(state, T40):
                allow |= 1 << ghost
            if tile_on(state, T6) and tm >> C.MONKEY & 1:
                allow |= 1 << C.PARROT
            if tile_on(state, T29) and tm >> C.RABBIT & 1:
                always = True
            if rules[R.R_JOKER_TOP]:
                if tile_on(state, T9) and tm & B_WALRUS != 0:
                    always = True
                if octopus and tm >> C.OCTOPUS & 1 == 1:
                    always = True
                if ghost >= 0 and tile_on(state, T40) and tm >> ghost & 1 == 1:
                    always = True
                if tile_on(state, T39) and tm & front != 0:
                    always = True
            if tile_on(state, T7) and tm & B_WALRUS:
                forbid = B_WALRUS
            if tile_on(state, T22) and state[C.F_T22_HOLDER] == seat and hand_n(state, seat) == 1:
                forbid = -1
        if not newest:
            if forbid == -1:
                continue  # T22's last card (every card shows a pirate)
            s0 = h0
            s1 = h1
            s2 = h2
            if not always:
                s0, s1, s2 = pirate_cards(state, allow & ((1 << C.N_PIRATES) - 1))
                if t31 and allow & B_CROC_TURTLE & every:  # T31 (A39)
                    c0, c1, c2 = pirate_cards(state, B_CROC_TURTLE)
                    s0 |= c0
                    s1 |= c1
                    s2 |= c2
                if t7 and allow & every:  # T7: the solitary Walrus matches anything (A20)
                    s0 |= solitary_walrus_word(state, 0)
                    s1 |= solitary_walrus_word(state, 1)
                    s2 |= solitary_walrus_word(state, 2)
                s0 &= h0
                s1 &= h1
                s2 &= h2
            if forbid == B_WALRUS:  # T7: no Walrus onto a Walrus; only Walrus cards show one
                base = C.F_PIRATE_BITS + C.WALRUS * C.HAND_WORDS
                s0 &= ~state[base]
                s1 &= ~state[base + 1]
                s2 &= ~state[base + 2]
            offset = C.C_PLAY + pile * C.CARD_SPAN
            n = bits_out(s0, offset, out, n)
            n = bits_out(s1, offset + 32, out, n)
            n = bits_out(s2, offset + 64, out, n)
            continue
        for w in range(C.HAND_WORDS):
            x = hand_word(state, seat, w)
            while x:
                low = x & -x
                x ^= low
                card = w * 32 + low_bit_index(low)
                if top >= 0 and not can_play(state, rules, seat, card, pile):  # newest_wins
                    continue
                out[n] = C.C_PLAY + pile * C.CARD_SPAN + card
                n += 1
    return n


@njit(**J)
def bits_out(x, offset, out, n):
    """Append ``offset + i`` for every set bit ``i`` of ``x`` (below 2**32), ascending.
    ``as_index(n)``: ``n`` counts up from 0, and numba's test for a negative index was 4
    instructions a code listed (the legal plays of every turn)."""
    x &= 0xFFFFFFFF
    while x:
        low = x & -x
        x ^= low
        out[as_index(n)] = offset + low_bit_index(low)
        n += 1
    return n


@njit(**HOT_RULES_JIT)
def list_hand(state, rules, seat, base, piles, out, n, pirate_bit):
    """Append ``base + pile * CARD_SPAN + card`` for the cards of ``seat``'s Hand (only those
    whose printed/held mask has ``pirate_bit`` set when it is not 0), for ``piles`` piles.

    Inlined, so that ``list_hand_int64`` is compiled once: its eight callers pass int32, int64 and
    literal arguments, each combination a copy of its own."""
    return list_hand_int64(
        state, rules, np.int64(seat), np.int64(base), np.int64(piles), out, np.int64(n),
        np.int64(pirate_bit),
    )  # fmt: skip


@njit(**J)
def list_hand_int64(state, rules, seat, base, piles, out, n, pirate_bit):
    """``list_hand``."""
    for pile in range(piles):
        for w in range(C.HAND_WORDS):
            x = hand_word(state, seat, w)
            while x:
                low = x & -x
                x ^= low
                card = w * 32 + low_bit_index(low)
                if pirate_bit == 0 or held_mask(state, rules, card) & pirate_bit:
                    out[as_index(n)] = base + pile * C.CARD_SPAN + card  # n >= 0 (bits_out)
                    n += 1
    return n


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


@njit(**J)
def draw(state, seat, rng):
    """``seat`` draws a card (R8; A18: every card from the deck into a Hand) and the tiles a draw
    sets off (T3, T24) are pushed, oldest on top. Returns the card, or -1 (no card, R16).

    ``seat`` an int64 from every caller, and no ``rules`` (a draw reads none): numba compiled one
    copy for an int32 seat and one for an int64, and a call passes each array as seven words."""
    knew = 0
    if state[C.F_SEEN_TOTAL] or tile_on(state, T13):
        knew = seen_top(state)
    card = deck_take_inline(state, rng)
    if card < 0:
        return -1
    to_hand(state, seat, card)
    if knew:
        seen_give(state, card, knew, C.SEEN_HAND + seat)
    count(state, seat, C.C_CARDS_DRAWN, 1)
    if not (tile_on(state, T3) or tile_on(state, T24)):
        return card
    for slot in range(state[C.F_N_TILES] - 1, -1, -1):
        tile = state[C.F_TILES + slot]
        if (tile == 3 or tile == 24) and state[C.F_TILE_DOWN + slot] == 0:
            push(state, C.K_DRAWN, slot, seat, card)
    return card


@njit(**J)
def draw_step(state, rules, seat, rng):
    """A turn's draw as a step (R8, T36): a window follows the draw and its tiles (A17)."""
    push_window(state)
    draw(state, np.int64(seat), rng)


@njit(**J)
def triggers(state, rules, tile, card, under):
    """Does playing ``card`` onto ``under`` (-1: put in front, T38) trigger ``tile`` (A2, A20)?"""
    return triggers_mask(state, rules, tile, card, play_mask(state, rules, card), under)


@njit(**J)
def triggers_mask(state, rules, tile, card, m, under):
    """``triggers`` with the card's ``play_mask`` ``m`` given."""
    key = PLAY_KEY_TABLE[tile]
    if key >= 0:
        return m >> key & 1 == 1
    played = ONTO_PLAYED_TABLE[tile]
    if played >= 0:
        return (
            under >= 0
            and m >> played & 1 == 1
            and play_mask(state, rules, under) >> ONTO_UNDER_TABLE[tile] & 1 == 1
        )
    if tile == 11:
        return True  # T11 acts on every play (A27)
    if tile == 40:
        return is_solitary(state, card)
    return False


@njit(**J)
def do_play(state, rules, seat, card, pile, rng):
    """``do_play_inline`` as a call, for the extra plays (T8, T15, T26, T36)."""
    do_play_inline(state, rules, seat, card, pile, rng)


@njit(**INLINE_JIT)  # into task_main, inlined into advance: the call is ~0.8 a turn
def do_play_inline(state, rules, seat, card, pile, rng):
    """Play ``card`` onto ``pile`` (R7, R18) and push what follows (module docstring)."""
    from_hand(state, card)
    count(state, seat, C.C_CARDS_PLAYED, 1)
    state[C.F_TURN_PLAYS] += 1
    under = pile_top(state, pile)
    if tile_on(state, T38) and is_solitary(state, card):
        state[C.F_LOC + card] = C.LOC_FRONT + seat  # T38: in front of you instead (A29)
        refresh_fronts(state)
        under = -1
    else:
        pile_push(state, pile, card)
    state[C.F_PLAY_SEAT] = seat
    state[C.F_PLAY_CARD] = card
    state[C.F_PLAY_UNDER] = under
    state[C.F_PLAY_PILE] = pile
    if state[C.F_PENDING_EXTRA] > 0 or tile_on(state, T8) or tile_on(state, T15):
        # else the task would find no extra play granted: only T8 and T15 grant them (A21)
        push(state, C.K_OPT_EXTRAS, 0, 0, 0)
    m = play_mask(state, rules, card)
    if m & state[C.F_TRIGGERS]:  # else no face-up tile triggers on this card (sync_tiles)
        for slot in range(state[C.F_N_TILES] - 1, -1, -1):
            # a word per slot (F_SLOT_TRIGGERS), the tile's own test only for T2, T26 and T40:
            # the tests of triggers_mask for every slot were ~35 instructions a 4-player turn
            sets_off = state[as_index(C.F_SLOT_TRIGGERS + slot)]
            if sets_off & m and (
                sets_off & C.SLOT_CHECK == 0
                or triggers_mask(state, rules, state[C.F_TILES + slot], card, m, under)
            ):
                push_window(state)
                push(state, C.K_TILE, slot, 0, 0)
    push_window(state)


# Tiles in play -------------------------------------------------------------------------------------
@njit(**J)
def add_tile(state, tile, adder):
    """``tile`` comes into play as the newest tile (A2)."""
    slot = state[C.F_N_TILES]
    state[C.F_TILES + slot] = tile
    state[C.F_TILE_DOWN + slot] = 0
    state[C.F_TILE_ADDER + slot] = adder
    state[C.F_TILE_SLOT + tile] = slot
    state[C.F_TILE_WHERE + tile] = C.W_PLAY
    state[C.F_N_TILES] = slot + 1
    sync_tiles(state)


@njit(**J)
def remove_slot(state, slot):
    """R17: the tile in ``slot`` leaves the game; younger tiles keep their order."""
    n = state[C.F_N_TILES]
    tile = state[C.F_TILES + slot]
    state[C.F_TILE_WHERE + tile] = C.W_REMOVED
    state[C.F_REMOVED_TILES + (tile >> 5)] |= 1 << (tile & 31)
    state[C.F_TILE_SLOT + tile] = -1
    for s in range(slot, n - 1):
        moved = state[C.F_TILES + s + 1]
        state[C.F_TILES + s] = moved
        state[C.F_TILE_DOWN + s] = state[C.F_TILE_DOWN + s + 1]
        state[C.F_TILE_ADDER + s] = state[C.F_TILE_ADDER + s + 1]
        state[C.F_TILE_SLOT + moved] = s
    state[C.F_TILES + n - 1] = 0
    state[C.F_TILE_DOWN + n - 1] = 0
    state[C.F_TILE_ADDER + n - 1] = 0
    state[C.F_N_TILES] = n - 1
    sync_tiles(state)


@njit(**RULES_JIT)
def reuse_removed_tiles(state, rng):
    """A41's alternative: the Adventure pile runs short, so the tiles removed from the game (R17)
    join it, in tile order, and the whole pile is shuffled."""
    n = state[C.F_ADV_N]
    for tile in range(1, C.N_TILES + 1):
        if state[C.F_TILE_WHERE + tile] == C.W_REMOVED:
            state[C.F_TILE_WHERE + tile] = C.W_PILE
            state[C.F_ADV + n] = tile
            n += 1
    state[C.F_ADV_N] = n
    shuffle(rng, state[C.F_ADV : C.F_ADV + n], n)


@njit(**J)
def adventure_pop(state):
    n = state[C.F_ADV_N]
    if n == 0:
        return 0
    state[C.F_ADV_N] = n - 1
    return state[C.F_ADV + n - 1]


@njit(**J)
def adventure_bottom(state, tile):
    n = state[C.F_ADV_N]
    for i in range(n, 0, -1):
        state[C.F_ADV + i] = state[C.F_ADV + i - 1]
    state[C.F_ADV] = tile
    state[C.F_ADV_N] = n + 1
    state[C.F_TILE_WHERE + tile] = C.W_PILE


@njit(**J)
def to_map(state, seat, tile):
    """``tile`` becomes a piece of ``seat``'s Treasure Map (R5, R11), map side up: only ``seat``
    knows its face (F_MAP_BITS)."""
    state[C.F_TILE_WHERE + tile] = C.W_MAP + seat
    state[sf(seat, C.SH_MAPS)] += 1
    state[C.F_MAP_BITS + 2 * seat + (tile >> 5)] |= 1 << (tile & 31)


@njit(**J)
def tile_setup(state, rules, rng):
    """R2, R5, A9 (and a Cruise reset, A13): the fixed tiles, then ``start_tiles`` from the
    shuffled pile, then in Treasure Hunt one map piece per seat."""
    n_players = state[L.H_N_PLAYERS]
    for t in range(1, C.N_TILES + 1):
        state[C.F_TILE_WHERE + t] = C.W_OUT
        state[C.F_TILE_SLOT + t] = -1
    for s in range(C.N_TILES):
        state[C.F_TILES + s] = 0
        state[C.F_TILE_DOWN + s] = 0
        state[C.F_TILE_ADDER + s] = 0
    state[C.F_N_TILES] = 0
    for w in range(2):
        state[C.F_REMOVED_TILES + w] = 0
        for s in range(C.MAX_PLAYERS):
            state[C.F_MAP_BITS + 2 * s + w] = 0
    sync_tiles(state)
    for i in range(rules[R.R_N_FIXED]):
        add_tile(state, rules[R.R_FIXED + i], -1)
    n = rules[R.R_N_POOL]
    for i in range(n):
        state[C.F_ADV + i] = rules[R.R_POOL + i]
        state[C.F_TILE_WHERE + rules[R.R_POOL + i]] = C.W_PILE
    state[C.F_ADV_N] = n
    shuffle(rng, state[C.F_ADV : C.F_ADV + n], n)
    for _ in range(rules[R.R_START_TILES]):
        add_tile(state, adventure_pop(state), -1)
    for s in range(n_players):
        state[sf(s, C.SH_MAPS)] = 0
    for s in range(n_players):
        if not rules[R.R_CRUISE]:
            tile = adventure_pop(state)
            to_map(state, s, tile)


@njit(**J)
def turn_down(state, rules, slot, rng):
    """T27 turns the tile in ``slot`` face down; a tile with state loses it (A40)."""
    state[C.F_TILE_DOWN + slot] = 1
    sync_tiles(state)
    tile = state[C.F_TILES + slot]
    n_cards = state[C.F_N_CARDS]
    if tile == 22:
        state[C.F_T22_HOLDER] = -1
    elif tile == 40:
        state[C.F_GHOST] = -1
    elif tile == 37 and state[C.F_N_PILES] == 2:
        n = state[C.F_DECK_N]
        for i in range(state[C.F_PILE_N + 1]):
            card = state[C.F_PILE + C.MAX_CARDS + i]
            state[C.F_DECK + n] = card
            state[C.F_LOC + card] = C.LOC_DECK
            state[C.F_DECK_POOL + (card >> 5)] |= 1 << (card & 31)  # seen on the pile
            forget(state, card)
            n += 1
        state[C.F_PILE_N + 1] = 0
        state[C.F_N_PILES] = 1
        state[C.F_DECK_N] = n
        shuffle(rng, state[C.F_DECK : C.F_DECK + n], n)
        forget_deck(state)
    elif tile == 39:
        for s in range(state[L.H_N_PLAYERS]):
            for card in range(n_cards):
                if state[C.F_LOC + card] == C.LOC_VOODOO + s:
                    pn = state[C.F_PILE_N]
                    pile_insert(state, 0, pn - 1 if pn > 0 else 0, card)
        refresh_fronts(state)
    elif tile == 11:
        for card in range(n_cards):
            if state[C.F_LOC + card] == C.LOC_ASIDE:
                forget(state, card)  # its place in the deck is not followed (forget_deck)
                deck_put_bottom(state, card)
        clear_aside(state)


# Rounds ---------------------------------------------------------------------------------------------
@njit(**J)
def game_count(state, counter, amount):
    state[C.F_GAME_COUNTERS + counter] += amount


@njit(**J)
def new_round(state, rules, rng):
    """R12, A11: a fresh deal by the dealer; the player on the dealer's left plays first."""
    n_players = state[L.H_N_PLAYERS]
    n_cards = state[C.F_N_CARDS]
    state[C.F_DIR] = 1
    state[C.F_SKIP] = 0
    state[C.F_GHOST] = -1
    state[C.F_T22_HOLDER] = -1
    state[C.F_PENDING_EXTRA] = 0
    state[C.F_REVEALED] = -1
    clear_aside(state)  # every card goes back into the deck (below)
    state[C.F_DECK_POOL_ON] = 0  # a new deck: any card may lie in it
    forget_all(state)
    for s in range(state[C.F_N_TILES]):
        state[C.F_TILE_DOWN + s] = 0
    sync_tiles(state)
    for card in range(n_cards):
        state[C.F_DECK + card] = card
        state[C.F_LOC + card] = C.LOC_DECK
    state[C.F_DECK_N] = n_cards
    shuffle(rng, state[C.F_DECK : C.F_DECK + n_cards], n_cards)
    state[C.F_PILE_N] = 0
    state[C.F_PILE_N + 1] = 0
    state[C.F_N_PILES] = 2 if tile_on(state, T37) else 1
    empty_hands(state)
    for s in range(n_players):
        state[sf(s, C.SH_REVEALED)] = -1  # A15: reveals are public until the round ends
    first = (state[C.F_DEALER] + 1) % n_players
    # The deck's top cards one by one, as ``deck_take`` would give them: the Action piles are
    # empty, so its reshuffles (A7) would find no card and draw no random number. A call per card
    # dealt was 3% of the instructions of a 4-player random game (callgrind, 1,403 -> 1,361 a turn).
    n = state[C.F_DECK_N]
    for _ in range(rules[R.R_HAND_SIZE]):
        seat = first
        for _ in range(n_players):
            if n > 0:
                n -= 1
                to_hand(state, seat, state[C.F_DECK + n])
            seat = 0 if seat == n_players - 1 else seat + 1
    state[C.F_DECK_N] = n
    for pile in range(state[C.F_N_PILES]):
        card = deck_take(state, rng)
        if card >= 0:
            pile_push(state, pile, card)
    if tile_on(state, T39):  # A33: Voodoo cards, from the first player clockwise
        adder = state[C.F_TILE_ADDER + tile_age(state, T39)]
        for i in range(n_players):
            s = (first + i) % n_players
            if rules[R.R_VOODOO_ALL] or adder < 0 or s == adder:
                card = deck_take(state, rng)
                if card >= 0:
                    state[C.F_LOC + card] = C.LOC_VOODOO + s
        refresh_fronts(state)
    else:
        # every card went back into the deck (above) and only T39's Voodoo cards are dealt in
        # front of a player: no card in front, without refresh_fronts' pass over the cards
        no_fronts(state)
    state[C.F_ROUND_TURNS] = 0
    state[C.F_ROUND_FIRST] = first
    count(state, first, C.C_FIRST_PLAYER_ROUNDS, 1)
    r = state[C.F_ROUND]
    if r < C.ROUND_SLOTS:
        state[C.F_GAME_COUNTERS + C.G_TILES_ROUND + r] = state[C.F_N_TILES]
    state[C.F_ACTIVE] = first
    push(state, C.K_TURN_START, 0, 0, 0)


@njit(**J)
def finish_round(state, winner):
    """Round figures (counters); ``winner`` -1: ended by ``round_turn_cap`` (A16)."""
    r = state[C.F_ROUND]
    turns = state[C.F_ROUND_TURNS]
    state[C.F_ROUND] = r + 1
    game_count(state, C.G_ROUNDS, 1)
    if r < C.ROUND_SLOTS:
        state[C.F_GAME_COUNTERS + C.G_TURNS_ROUND + r] = turns
    if turns > state[C.F_GAME_COUNTERS + C.G_LONGEST]:
        state[C.F_GAME_COUNTERS + C.G_LONGEST] = turns
    if winner >= 0:
        state[sf(winner, C.SH_ROUNDS_WON)] += 1
        if winner == state[C.F_ROUND_FIRST]:
            game_count(state, C.G_FIRST_WINS, 1)
        game_count(state, C.G_TILES_AT_WINS, state[C.F_N_TILES])
    else:
        game_count(state, C.G_ROUNDS_CAPPED, 1)
    state[C.F_WINNER] = winner


@njit(**J)
def end_game(state, reason, winner):
    state[L.H_OVER] = 1
    state[L.H_END_REASON] = reason
    state[C.F_GAME_WINNER] = winner


@njit(**J)
def next_round(state, rules, rng):
    """After R11: the game ends (M1, M2) or the winner deals the next round (R12)."""
    winner = state[C.F_WINNER]
    if not rules[R.R_CRUISE]:
        if winner >= 0 and state[sf(winner, C.SH_MAPS)] >= 1 + rules[R.R_MAP_TO_WIN]:
            end_game(state, C.END_MAP, winner)  # M2, A42
            return
    else:
        if state[C.F_ROUND] >= rules[R.R_CRUISE_ROUNDS]:
            end_game(state, C.END_CRUISE, -1)
            return
        reset = rules[R.R_CRUISE_RESET]
        if reset > 0 and state[C.F_N_TILES] >= reset:  # M1, A13
            tile_setup(state, rules, rng)
            game_count(state, C.G_RESETS, 1)
    if winner >= 0:
        state[C.F_DEALER] = winner
    new_round(state, rules, rng)


@njit(**J)
def all_show(state, rules, seat, bit):
    for w in range(C.HAND_WORDS):
        x = hand_word(state, seat, w)
        while x:
            low = x & -x
            x ^= low
            if not held_mask(state, rules, w * 32 + low_bit_index(low)) >> bit & 1:
                return False
    return True


@njit(**J)
def plan_b(state, rules, seat):
    """T32, A31: exactly 3 cards showing an Octopus, a Walrus and a Crocodile."""
    if hand_n(state, seat) != 3:
        return False
    m0 = 0
    m1 = 0
    m2 = 0
    k = 0
    for w in range(C.HAND_WORDS):  # the Hand's cards in id order
        x = hand_word(state, seat, w)
        while x:
            low = x & -x
            x ^= low
            m = held_mask(state, rules, w * 32 + low_bit_index(low))
            if k == 0:
                m0 = m
            elif k == 1:
                m1 = m
            else:
                m2 = m
            k += 1
    o, w, c = C.OCTOPUS, C.WALRUS, C.CROCODILE
    if rules[R.R_PLAN_B_TWICE]:
        u = m0 | m1 | m2
        return u >> o & 1 == 1 and u >> w & 1 == 1 and u >> c & 1 == 1
    # three different cards each supply one of the pirates: some assignment works
    return (
        (m0 >> o & 1 and m1 >> w & 1 and m2 >> c & 1)
        or (m0 >> o & 1 and m2 >> w & 1 and m1 >> c & 1)
        or (m1 >> o & 1 and m0 >> w & 1 and m2 >> c & 1)
        or (m1 >> o & 1 and m2 >> w & 1 and m0 >> c & 1)
        or (m2 >> o & 1 and m0 >> w & 1 and m1 >> c & 1)
        or (m2 >> o & 1 and m1 >> w & 1 and m0 >> c & 1)
    ) != 0


@njit(**HOT_RULES_JIT)  # inlined: called once, from ``advance``, every turn
def turn_end(state, rules, rng):
    """R9, R10 (A5), T28, T32; the turn caps (A16, core); the next player (R9, T12)."""
    seat = state[C.F_ACTIVE]
    n_players = state[L.H_N_PLAYERS]
    winner = -1
    if hand_n(state, seat) == 0:
        winner = seat
    elif tile_on(state, T28) and all_show(state, rules, seat, C.RABBIT):
        winner = seat
    elif tile_on(state, T32) and plan_b(state, rules, seat):
        winner = seat
    if winner < 0 and rules[R.R_WIN_ANY]:
        for i in range(1, n_players):
            s = seat_after(state, seat, i)
            if hand_n(state, s) == 0:
                winner = s
                break
    state[L.H_TURNS] += 1
    state[C.F_ROUND_TURNS] += 1
    if winner >= 0:
        finish_round(state, winner)
        if not end_turn_cap_reached(state):
            push(state, C.K_ROUND_END, 0, 0, 0)
    elif end_turn_cap_reached(state):
        return
    elif state[C.F_ROUND_TURNS] >= rules[R.R_ROUND_CAP]:
        finish_round(state, -1)
        push(state, C.K_ROUND_END, 0, 0, 0)
    else:
        nxt = seat_after(state, seat, 1)
        skips = state[C.F_SKIP]  # T12: one skip, or one per Staredown under A44's alternative
        if skips:
            state[C.F_SKIP] = 0
            for _ in range(skips):
                count(state, nxt, C.C_TILES_AGAINST, 1)
                nxt = seat_after(state, nxt, 1)
        state[C.F_ACTIVE] = nxt
        start_turn(state)  # what K_TURN_START does, without the round trip through the stack


@njit(**J)
def start_turn(state):
    """A turn's tasks (module docstring). T26's and T36's TURN_EXTRAS only while one of them is
    face up: a tile turns face up only between rounds, so the task would do nothing."""
    state[C.F_MAIN_PLAYED] = 0
    state[C.F_PENDING_EXTRA] = 0
    state[C.F_TURN_PLAYS] = 0
    push(state, C.K_TURN_END, 0, 0, 0)
    if tile_on(state, T26) or tile_on(state, T36):
        push(state, C.K_TURN_EXTRAS, 0, 0, 0)
    push(state, C.K_MAIN, 0, 0, 0)
    push_window(state)


@njit(**J)
def cut_turn(state):
    """A16 safeguard for a turn that need never end: extra plays granted by T8 and T15 chain
    (A21) with no limit, and a Hand can stay the same size while they do (T8 with T11, T23 and T31
    and an empty deck: pina-pirata.md A16), so a bot that always takes them makes one
    endless turn. When a turn has made ``round_turn_cap`` plays and could make another extra
    play, the turn ends there and so does the round, with no winner, as when ``turn_end``
    reaches the cap (counted in ``rounds_capped``; the core's game turn cap first)."""
    state[C.F_SP] = 0
    state[L.H_TURNS] += 1
    state[C.F_ROUND_TURNS] += 1
    if end_turn_cap_reached(state):
        return
    finish_round(state, -1)
    push(state, C.K_ROUND_END, 0, 0, 0)


# Tasks: each runs (code < 0) until it needs a decision, returning the number of legal codes in
# ``out``, or applies decision ``code`` it asked for; 0 when it progressed without one. -----------
@njit(**J)
def decode_card(code):
    x = code - C.C_CARD
    return x % C.CARD_SPAN, x // C.CARD_SPAN


@njit(**INLINE_JIT)  # called from ``advance`` alone: inlined there, no copy (T35's windows)
def task_window(state, rules, rng, out, code):
    """T35, A17: every player holding exactly 5 cards may discard one, in turn order from the
    active player (only the active player with ``favorable_current_any_turn`` false)."""
    t = top_task(state)
    if not tile_on(state, T35):
        pop(state)
        return 0
    active = state[C.F_ACTIVE]
    i = state[as_index(t + 1)]
    if code >= 0:
        if code != C.C_PASS:
            card, pile = decode_card(code)
            discard(state, rules, card, pile)
        state[t + 1] = i + 1
        return 0
    # Most windows find no Hand of exactly 5 cards: one look at every Hand size first, without
    # the turn order's seat arithmetic per seat
    n_players = state[L.H_N_PLAYERS]
    five = False
    for s in range(n_players):
        if hand_n(state, s) == 5:
            five = True
    if not five:
        pop(state)
        return 0
    while i < n_players:
        s = seat_after(state, active, i)
        if (rules[R.R_CURRENT_ANY] or s == active) and hand_n(state, s) == 5:
            out[0] = C.C_PASS
            n = list_hand(state, rules, s, C.C_CARD, state[C.F_N_PILES], out, 1, 0)
            state[t + 1] = i
            ask(state, s, C.PH_T35, active, -1)
            return n
        i += 1
    pop(state)
    return 0


@njit(**J)
def apply_play_or_draw(state, rules, seat, code, rng):
    if code < C.C_DRAW:
        do_play(state, rules, seat, code % C.CARD_SPAN, code // C.CARD_SPAN, rng)
    elif code == C.C_DRAW:
        draw_step(state, rules, seat, rng)


@njit(**HOT_RULES_JIT)  # inlined: called once, from ``advance``, every turn
def task_main(state, rules, rng, out, code):
    """R7, R8 (A1; T38: a leader who cannot play may skip the draw, A29)."""
    seat = state[C.F_ACTIVE]
    if code >= 0:
        pop(state)
        if code < C.C_DRAW:  # apply_play_or_draw written out: one call less per turn
            state[C.F_MAIN_PLAYED] = 1
            do_play_inline(state, rules, seat, code % C.CARD_SPAN, code // C.CARD_SPAN, rng)
        elif code == C.C_DRAW:
            draw_step(state, rules, seat, rng)
        return 0
    n = list_plays_inline(state, rules, seat, out, 0)
    if n > 0:
        if not rules[R.R_MUST_PLAY]:
            out[as_index(n)] = C.C_DRAW  # n > 0 (bits_out)
            n += 1
        ask(state, seat, C.PH_MAIN, -1, -1)
        return n
    if tile_on(state, T38) and front_leader(state, rules, seat):
        out[0] = C.C_DRAW
        out[1] = C.C_PASS
        ask(state, seat, C.PH_T38_DRAW, -1, -1)
        return 2
    pop(state)
    draw_step(state, rules, seat, rng)
    return 0


# called from ``advance`` alone: inlined there, no copy (T8's and T15's extra plays)
@njit(**INLINE_JIT)
def task_opt_extras(state, rules, rng, out, code):
    """T8, T15: the optional extra plays granted, after the play's tiles resolved (A21)."""
    seat = state[C.F_ACTIVE]
    if code >= 0:
        pop(state)
        if code == C.C_PASS:
            state[C.F_PENDING_EXTRA] = 0
        else:
            state[C.F_PENDING_EXTRA] -= 1
            apply_play_or_draw(state, rules, seat, code, rng)
        return 0
    if state[C.F_PENDING_EXTRA] == 0:
        pop(state)
        return 0
    n = list_plays(state, rules, seat, out, 0)
    if n == 0:
        state[C.F_PENDING_EXTRA] = 0
        pop(state)
        return 0
    if state[C.F_TURN_PLAYS] >= rules[R.R_ROUND_CAP]:
        cut_turn(state)  # A16: an endless chain of extra plays
        return 0
    out[n] = C.C_PASS
    ask(state, seat, C.PH_EXTRA, -1, -1)
    return n + 1


@njit(**INLINE_JIT)  # called from ``advance`` alone: inlined there, no copy (T26's and T36's)
def task_turn_extras(state, rules, rng, out, code):
    """T26 (a front leader's optional extra play) and T36 (an extra attempt), once a turn each,
    in tile age order, after the normal step (A24, A29)."""
    t = top_task(state)
    seat = state[C.F_ACTIVE]
    if code >= 0:
        state[t + 1] += 1
        apply_play_or_draw(state, rules, seat, code, rng)
        return 0
    # every turn while T26 or T36 is face up
    for slot in range(state[as_index(t + 1)], state[C.F_N_TILES]):
        if state[as_index(C.F_TILE_DOWN + slot)]:
            continue
        tile = state[as_index(C.F_TILES + slot)]
        if tile == 26 and front_leader(state, rules, seat):
            n = list_plays(state, rules, seat, out, 0)
            if n > 0:
                out[n] = C.C_PASS
                state[t + 1] = slot
                ask(state, seat, C.PH_EXTRA, 26, -1)
                return n + 1
        elif tile == 36 and (state[C.F_MAIN_PLAYED] or rules[R.R_SAILS_AFTER_DRAW]):
            n = list_plays(state, rules, seat, out, 0)
            if n > 0:
                if not rules[R.R_MUST_PLAY]:
                    out[n] = C.C_DRAW
                    n += 1
                state[t + 1] = slot
                ask(state, seat, C.PH_FULL_SAILS, -1, -1)
                return n
            if hand_n(state, seat) > 0:
                state[t + 1] = slot + 1
                draw_step(state, rules, seat, rng)
                return 0
    pop(state)
    return 0


@njit(**J)
def task_drawn(state, rules, rng, out, code):
    """T3 (may discard a Penguin) and T24 (may give the drawn Turtle left), per card drawn."""
    t = top_task(state)
    slot = state[t + 1]
    seat = state[t + 2]
    card = state[t + 3]
    tile = state[C.F_TILES + slot]
    state[
        t + 3
    ] = -1  # the card drawn is private: no trace of it once the task is done (cards.F_STACK)
    if code >= 0:
        pop(state)
        if code != C.C_PASS:
            if tile == 3:
                c, pile = decode_card(code)
                discard(state, rules, c, pile)
            else:
                left = left_of(state, seat)
                give(state, card, left)
                seen_set(state, seat, card, C.SEEN_HAND + left)
        return 0
    if state[C.F_TILE_DOWN + slot]:
        pop(state)
        return 0
    if tile == 3:
        out[0] = C.C_PASS
        n = list_hand(state, rules, seat, C.C_CARD, state[C.F_N_PILES], out, 1, 1 << C.PENGUIN)
        if n > 1:
            state[t + 3] = card  # still asked
            ask(state, seat, C.PH_T3, card, -1)
            return n
    elif (
        state[C.F_LOC + card] == C.LOC_HAND + seat and held_mask(state, rules, card) >> C.TURTLE & 1
    ):
        out[0] = C.C_PASS
        out[1] = C.C_YES
        state[t + 3] = card  # still asked
        ask(state, seat, C.PH_T24, card, -1)
        return 2
    pop(state)
    return 0


@njit(**J)
def showing_word(state, rules, seat, w, bit):
    """Word ``w`` of the set of ``seat``'s Hand cards showing pirate ``bit`` in a Hand (any if
    -1), as ``held_mask`` reads them: printed with it; every Crocodile and Turtle card when T31
    joins the two for all purposes (A39) and ``bit`` is one of them; the solitary Walrus, every
    pirate, under T7 with ``solitary_walrus_scope`` everywhere (A38)."""
    x = hand_word(state, seat, w)
    if bit < 0:
        return x
    shows = state[C.F_PIRATE_BITS + bit * C.HAND_WORDS + w] & 0xFFFFFFFF
    every = all_pirates(rules)
    if rules[R.R_ALLIGATURTLE_ALL] and tile_on(state, T31) and (B_CROC_TURTLE & every) >> bit & 1:
        shows |= state[C.F_PIRATE_BITS + C.CROCODILE * C.HAND_WORDS + w] & 0xFFFFFFFF
        shows |= state[C.F_PIRATE_BITS + C.TURTLE * C.HAND_WORDS + w] & 0xFFFFFFFF
    if rules[R.R_WALRUS_EVERYWHERE] and tile_on(state, T7) and every >> bit & 1:
        shows |= solitary_walrus_word(state, w)
    return x & shows


@njit(**J)
def nth_card(state, seat, k, bit, rules):
    """The ``k``-th card (id order) of ``seat``'s Hand showing pirate ``bit`` (any if -1): the
    ``k``-th set bit of ``showing_word``, a popcount per word instead of a pass over every card."""
    for w in range(C.HAND_WORDS):
        x = showing_word(state, rules, seat, w, bit)
        c = popcount(x)
        if k >= c:
            k -= c
            continue
        for _ in range(k):
            x &= x - 1
        return w * 32 + low_bit_index(x & -x)
    return -1


@njit(**J)
def count_showing(state, rules, seat, bit):
    n = 0
    for w in range(C.HAND_WORDS):
        n += popcount(showing_word(state, rules, seat, w, bit))
    return n


@njit(**INLINE_JIT)  # tiny, and four calls in task_tile (each zero-fills two slots)
def give(state, card, seat):
    """``card`` from its Hand into ``seat``'s, face down: who saw it is said by the caller."""
    forget(state, card)
    from_hand(state, card)
    to_hand(state, seat, card)


@njit(**INLINE_JIT)  # called from ``advance`` alone (~0.9 a 4-player turn): inlined, no copy
def task_tile(state, rules, rng, out, code):
    """A triggered tile's effect (T-table), played by ``F_PLAY_SEAT``; sub-step in ``b``."""
    t = top_task(state)
    slot = state[as_index(t + 1)]
    sub = state[as_index(t + 2)]
    tile = state[as_index(C.F_TILES + slot)]
    seat = state[C.F_PLAY_SEAT]
    n_players = state[L.H_N_PLAYERS]
    pile = state[C.F_PLAY_PILE]
    under = state[C.F_PLAY_UNDER]
    # The tiles that list a Hand or draw a card do it through the one call at the end (``hand``:
    # whose Hand, ``piles``, ``bit``; ``chooser``, ``phase``, ``ctx_a``, ``ctx_b``: who decides and
    # what ``ask`` says; ``drawer``: who draws). numba zero-fills two stack slots per call site
    # each time a function is entered, and task_tile is entered for every tile resolved.
    hand = -1
    piles = 1
    bit = 0
    chooser = seat
    phase = 0
    ctx_a = -1
    ctx_b = -1
    drawer = -1
    if code < 0 and sub == 0:
        if state[as_index(C.F_TILE_DOWN + slot)]:  # A40: turned face down before it resolved
            pop(state)
            return 0
        count(state, seat, C.C_TILES_TRIGGERED, 1)
        sub = 1
        state[as_index(t + 2)] = 1
    if tile == 1:  # Follow the Penguin (A6, A23)
        state[C.F_DIR] = -state[C.F_DIR]
    elif tile == 2 or tile == 26:  # Turtleball, Rabbit Hunt: the card played onto (A25)
        if under >= 0 and state[C.F_LOC + under] == C.LOC_PILE + pile:
            pile_remove(state, pile, under)
            if tile == 2:
                right = right_of(state, seat)
                to_hand(state, right, under)
                seen_by_all(state, under, C.SEEN_HAND + right)  # taken from the Action pile
                count(state, right, C.C_TILES_AGAINST, 1)
            else:
                state[C.F_LOC + under] = C.LOC_FRONT + seat
                refresh_fronts(state)
            refill_piles(state, rng)
    elif tile == 4 or tile == 16 or tile == 21 and sub == 1:
        # Man Overboard: a card on top of the deck; Sabotage: a card to the left;
        # Stowaway: a card under the card just played, then a draw
        if code >= 0:
            card = code - C.C_CARD
            if tile == 4:
                forget(state, card)  # face down onto the deck: only its owner follows it
                from_hand(state, card)
                deck_put_top(state, card)
                seen_set(state, seat, card, C.SEEN_DECK + state[C.F_DECK_N] - 1)
            elif tile == 16:
                left = left_of(state, seat)
                give(state, card, left)
                seen_set(state, seat, card, C.SEEN_HAND + left)
                count(state, left, C.C_TILES_AGAINST, 1)
            else:
                from_hand(state, card)
                if pile >= state[C.F_N_PILES]:
                    pile = 0  # T37's second pile went back into the deck (T27, A40)
                pos = pile_position(state, pile, state[C.F_PLAY_CARD])
                if pos < 0:
                    pos = max(state[C.F_PILE_N + pile] - 1, 0)
                pile_insert(state, pile, pos, card)
                state[t + 2] = 2
                return 0
        elif hand_n(state, seat) > 0 and (tile != 21 or under >= 0):
            hand = seat
            phase = C.PH_T4 if tile == 4 else (C.PH_T16 if tile == 16 else C.PH_T21)
            ctx_a = state[C.F_PLAY_CARD] if tile == 21 else -1
        elif tile == 21:
            if hand_n(state, seat) == 0 and not rules[R.R_STOWAWAY_DRAWS]:
                pop(state)  # pina-pirata.md A43's alternative: no card to slip under, no draw
                return 0
            state[t + 2] = 2
            return 0
    elif tile == 21:  # Stowaway, sub-step 2: the draw
        pop(state)
        drawer = seat
    elif tile == 5:  # Go Fish (A36)
        if sub == 1:
            if code >= 0:
                state[t + 3] = code - C.C_NAME
                state[t + 2] = 2
                return 0
            n = 0
            for p in range(rules[R.R_PIRATE_TYPES]):
                for o in range(n_players):
                    if o != seat:
                        out[as_index(n)] = C.C_NAME + p * C.MAX_PLAYERS + o
                        n += 1
            ask(state, seat, C.PH_T5_NAME, -1, -1)
            return n
        pirate = state[t + 3] // C.MAX_PLAYERS
        opponent = state[t + 3] % C.MAX_PLAYERS
        if code >= 0:
            give(state, code - C.C_CARD, seat)
            seen_set(state, opponent, code - C.C_CARD, C.SEEN_HAND + seat)
            count(state, opponent, C.C_TILES_AGAINST, 1)
        else:
            k = count_showing(state, rules, opponent, pirate)
            if k > 0:
                chooser = rules[R.R_GO_FISH]
                if chooser == 2:
                    card = nth_card(state, opponent, randint(rng, k), pirate, rules)
                    give(state, card, seat)
                    seen_set(state, opponent, card, C.SEEN_HAND + seat)
                    count(state, opponent, C.C_TILES_AGAINST, 1)
                else:
                    hand = opponent
                    bit = 1 << pirate
                    chooser = opponent if chooser == 0 else seat
                    phase = C.PH_T5_GIVE
                    ctx_a = pirate
                    ctx_b = seat
    elif tile == 8:  # Walrus Attack (A21)
        state[C.F_PENDING_EXTRA] += 1
    elif tile == 10:  # Tick Tock
        left = left_of(state, seat)
        count(state, left, C.C_TILES_AGAINST, 1)
        pop(state)
        drawer = left
    elif tile == 11:  # Bayou (A27)
        if play_mask(state, rules, state[C.F_PLAY_CARD]) >> C.CROCODILE & 1:
            knew = seen_top(state)  # T13's face-up top, or a card it put or looked at there
            card = deck_take(state, rng)
            if card >= 0:
                set_aside(state, rules, seat, card, knew)
        elif state[C.F_ASIDE_N] > 0:  # T11 acts on every play: most find no card set aside
            setter_only = rules[R.R_BAYOU_SETTER_ONLY]  # A27's alternative
            for card in range(state[C.F_N_CARDS]):
                if state[C.F_LOC + card] == C.LOC_ASIDE and (
                    not setter_only or state[C.F_ASIDE_BY + card] == seat
                ):
                    take_aside(state, rules, seat, card)
    elif tile == 12:  # Staredown (A22, A44)
        state[C.F_SKIP] = state[C.F_SKIP] + 1 if rules[R.R_SKIPS_ADD_UP] else 1
    elif tile == 14:  # Bunny Checkpoint (A35): sub-step i = the i-th other player in turn order
        if code >= 0:
            s = seat_after(state, seat, sub)
            state[t + 2] = sub + 1
            if code == C.C_YES:
                state[sf(s, C.SH_REVEALED)] = C.REVEALED_RABBIT
            if code != C.C_PASS:
                return 0
            count(state, s, C.C_TILES_AGAINST, 1)
            drawer = s
        elif sub < n_players:
            s = seat_after(state, seat, sub)
            if count_showing(state, rules, s, C.RABBIT) > 0 and rules[R.R_RABBIT_COMPULSORY]:
                state[t + 2] = sub + 1  # A35's alternative: a Rabbit held must be revealed
                state[sf(s, C.SH_REVEALED)] = C.REVEALED_RABBIT
                return 0
            if count_showing(state, rules, s, C.RABBIT) > 0:
                out[0] = C.C_PASS
                out[1] = C.C_YES
                ask(state, s, C.PH_T14, seat, -1)
                return 2
            else:
                state[t + 2] = sub + 1
                count(state, s, C.C_TILES_AGAINST, 1)
                drawer = s
    elif tile == 15:  # Shipwreck (A21)
        if code < 0:
            out[0] = C.C_PASS
            out[1] = C.C_YES
            ask(state, seat, C.PH_T15, -1, -1)
            return 2
        pop(state)
        if code != C.C_YES:
            return 0
        drawer = seat  # a card drawn grants the extra play (below)
    elif tile == 17:  # Recruiting
        right = right_of(state, seat)
        if code >= 0:
            give(state, code - C.C_CARD, seat)
            seen_set(state, right, code - C.C_CARD, C.SEEN_HAND + seat)
            count(state, right, C.C_TILES_AGAINST, 1)
        elif hand_n(state, right) > 0:
            hand = right
            phase = C.PH_T17
            ctx_a = right
    elif tile == 18:  # Maelstrom: every Hand passes to the left
        for card in range(state[C.F_N_CARDS]):
            loc = state[C.F_LOC + card]
            if C.LOC_HAND <= loc < C.LOC_HAND + n_players:
                left = (loc - C.LOC_HAND + 1) % n_players
                state[C.F_LOC + card] = C.LOC_HAND + left
                pass_seen(state, card, loc - C.LOC_HAND, left)
                state[C.F_HAND_CARDS + (loc - C.LOC_HAND) * C.MAX_CARDS + card] = 0
                state[C.F_HAND_CARDS + left * C.MAX_CARDS + card] = 1
        last = hand_n(state, n_players - 1)
        for s in range(n_players - 1, 0, -1):
            state[sf(s, C.SH_HAND_N)] = hand_n(state, s - 1)
        state[sf(0, C.SH_HAND_N)] = last
        for w in range(C.HAND_WORDS):
            b = C.F_HAND_BITS + w
            last = state[b + (n_players - 1) * C.HAND_WORDS]
            for s in range(n_players - 1, 0, -1):
                state[b + s * C.HAND_WORDS] = state[b + (s - 1) * C.HAND_WORDS]
            state[b] = last
    elif tile == 19:  # Labyrinth (A25)
        if code >= 0:
            if code == C.C_YES:
                pile_remove(state, pile, under)
                to_hand(state, seat, under)
                seen_by_all(state, under, C.SEEN_HAND + seat)  # taken from the Action pile
                refill_piles(state, rng)
        elif under >= 0 and state[C.F_LOC + under] == C.LOC_PILE + pile:
            out[0] = C.C_PASS
            out[1] = C.C_YES
            ask(state, seat, C.PH_T19, under, -1)
            return 2
    elif tile == 20:  # Crystal Ball
        if sub == 1:
            if code >= 0:
                state[t + 3] = code - C.C_PIRATE
                state[t + 2] = 2
                return 0
            for p in range(rules[R.R_PIRATE_TYPES]):
                out[p] = C.C_PIRATE + p
            ask(state, seat, C.PH_T20_NAME, -1, -1)
            return rules[R.R_PIRATE_TYPES]
        if sub == 2:
            if state[C.F_DECK_N] == 0:
                reshuffle(state, rng)  # A7: T20's look
            n = state[C.F_DECK_N]
            if n > 0 and held_mask(state, rules, state[C.F_DECK + n - 1]) >> state[t + 3] & 1:
                state[C.F_REVEALED] = state[C.F_DECK + n - 1]
                seen_by_all(state, state[C.F_DECK + n - 1], C.SEEN_DECK + n - 1)  # revealed
                state[t + 2] = 3
                return 0
            if n > 0:  # looked at secretly and put back
                seen_set(state, seat, state[C.F_DECK + n - 1], C.SEEN_DECK + n - 1)
        elif code >= 0:
            card, p = decode_card(code)
            discard(state, rules, card, p)
        elif hand_n(state, seat) > 0:
            hand = seat
            piles = state[C.F_N_PILES]
            phase = C.PH_T20_DISCARD
            ctx_a = state[C.F_REVEALED]
    elif tile == 22:  # Fake Map (A26)
        state[C.F_T22_HOLDER] = seat
    elif tile == 23:  # Picky Cartographer: draw two, then discard one
        if sub <= 2:
            state[t + 2] = sub + 1
            drawer = seat
        elif code >= 0:
            card, p = decode_card(code)
            discard(state, rules, card, p)
        elif hand_n(state, seat) > 0:
            hand = seat
            piles = state[C.F_N_PILES]
            phase = C.PH_T23
    elif tile == 25:  # Disinformation (A3)
        card = deck_take(state, rng)
        if card >= 0:
            pile_push(state, pile if pile < state[C.F_N_PILES] else 0, card)
    elif tile == 27:  # Old Sea Dog (A40)
        if code >= 0:
            pop(state)
            if code != C.C_PASS:
                turn_down(state, rules, code - C.C_TILE, rng)
            return 0
        out[0] = C.C_PASS
        n = 1
        for s in range(state[C.F_N_TILES]):
            if state[C.F_TILE_DOWN + s] == 0 and state[C.F_TILES + s] != 27:
                out[n] = C.C_TILE + s
                n += 1
        if n > 1:
            ask(state, seat, C.PH_T27, -1, -1)
            return n
    elif tile == 30:  # The Tortoise and the Hare (A30, A37); c: 1 once a reveal was no Turtle
        # The opponents reveal one after the other within this one entry, up to the next that
        # chooses (A37): a reveal made goes straight on to the next opponent instead of back
        # through ``advance`` (each entry of task_tile zero-fills ~37 stack slots, numba's
        # call sites; T30 was ~0.25 entries a 4-player turn). Nothing happens in between.
        while sub < n_players:
            o = seat_after(state, seat, sub)
            if code >= 0:
                state[sf(o, C.SH_REVEALED)] = code - C.C_CARD
                seen_by_all(state, code - C.C_CARD, C.SEEN_HAND + o)  # revealed (A15)
                if not held_mask(state, rules, code - C.C_CARD) >> C.TURTLE & 1:
                    state[t + 3] = 1
                code = -1
            else:
                k = hand_n(state, o)
                if k == 0:
                    # A30: an empty Hand reveals no Turtle, unless the option ignores that opponent
                    if not rules[R.R_TORTOISE_SKIPS_EMPTY]:
                        state[t + 3] = 1
                elif rules[R.R_TORTOISE_RANDOM]:
                    card = nth_card(state, o, randint(rng, k), -1, rules)
                    state[sf(o, C.SH_REVEALED)] = card
                    seen_by_all(state, card, C.SEEN_HAND + o)  # revealed (A15)
                    if not held_mask(state, rules, card) >> C.TURTLE & 1:
                        state[t + 3] = 1
                else:
                    hand = o
                    chooser = o
                    phase = C.PH_T30
                    ctx_a = seat
                    break
            sub += 1
            state[t + 2] = sub
        if hand < 0 and state[t + 3] == 0 and n_players <= sub <= n_players + 1:
            state[t + 2] = sub + 1
            drawer = seat
    elif tile == 40:  # Ghost (A34)
        if code >= 0:
            state[C.F_GHOST] = code - C.C_PIRATE
        else:
            for p in range(rules[R.R_PIRATE_TYPES]):
                out[p] = C.C_PIRATE + p
            ask(state, seat, C.PH_T40, -1, -1)
            return rules[R.R_PIRATE_TYPES]
    if hand >= 0:
        n = list_hand(state, rules, hand, C.C_CARD, piles, out, 0, bit)
        if chooser != hand:
            seen_listed(state, chooser, hand, out, n)  # T5's taker, T17: it sees those cards
        ask(state, chooser, phase, ctx_a, ctx_b)
        return n
    if drawer >= 0:
        # pina-pirata.md T15, A21: Shipwreck's extra play comes with a card actually drawn
        if draw(state, np.int64(drawer), rng) >= 0 and tile == 15:
            state[C.F_PENDING_EXTRA] += 1
        return 0
    pop(state)
    return 0


@njit(**J)
def task_round_end(state, rules, rng, out, code):
    """R11 (A8, A41), R17 (A10), then M1/M2's end or the next round (R12). ``a``: sub-step; ``c``:
    the tile going into play."""
    t = top_task(state)
    sub = state[t + 1]
    winner = state[C.F_WINNER]
    if sub == 0:
        for s in range(state[C.F_N_TILES]):  # A40: face-down tiles turn up before R11
            state[C.F_TILE_DOWN + s] = 0
        sync_tiles(state)
        state[C.F_T22_HOLDER] = -1  # A26: Fake Map returns to the tiles in play
        state[t + 1] = 3
        if winner >= 0:
            if rules[R.R_REUSE_REMOVED] and state[C.F_ADV_N] < rules[R.R_TILES_DRAWN]:
                reuse_removed_tiles(state, rng)  # A41's alternative
            k = min(rules[R.R_TILES_DRAWN], state[C.F_ADV_N])
            for i in range(k):
                state[C.F_ROUND_END + i] = adventure_pop(state)
            if k > 0:
                state[t + 1] = 1
        return 0
    if sub == 1:
        k = 0
        for i in range(3):
            if state[C.F_ROUND_END + i] > 0:
                k += 1
        if code < 0:
            n = 0
            if k == 3:
                for p in range(3):
                    for m in range(3):
                        # A8's alternative: the winner picks only the play tile; the first drawn
                        # of the other two is the map piece
                        first_other = 1 if p == 0 else 0
                        if p != m and (not rules[R.R_PICK_PLAY_ONLY] or m == first_other):
                            out[n] = C.C_ASSIGN + p * 4 + m
                            n += 1
            elif k == 2:
                out[0] = C.C_ASSIGN + 1  # the first into play, the second a map piece
                out[1] = C.C_ASSIGN + 4
                n = 2
            else:
                out[0] = C.C_ASSIGN + 3  # the only tile into play, or (next) onto the map
                out[1] = C.C_ASSIGN + 12
                n = 2
            ask(state, winner, C.PH_ASSIGN, k, -1)
            return n
        p = (code - C.C_ASSIGN) // 4
        m = (code - C.C_ASSIGN) % 4
        state[t + 1] = 3
        for i in range(k):
            tile = state[C.F_ROUND_END + i]
            if i == m:
                to_map(state, winner, tile)
            elif i == p:
                if not rules[R.R_CRUISE] and state[C.F_N_TILES] >= rules[R.R_MAX_TILES]:
                    state[t + 3] = tile
                    state[t + 1] = 2
                else:
                    add_tile(state, tile, winner)
            else:
                adventure_bottom(state, tile)
        for i in range(3):  # public: only a tile still waiting for its place (R17)
            state[C.F_ROUND_END + i] = 0
        if state[t + 1] == 2:
            state[C.F_ROUND_END] = state[t + 3]
        return 0
    if sub == 2:
        if code < 0:
            for s in range(state[C.F_N_TILES]):
                out[s] = C.C_TILE + s
            ask(state, winner, C.PH_REPLACE, state[t + 3], -1)
            return state[C.F_N_TILES]
        remove_slot(state, code - C.C_TILE)
        add_tile(state, state[t + 3], winner)
        state[t + 1] = 3
        return 0
    for i in range(3):
        state[C.F_ROUND_END + i] = 0
    pop(state)
    next_round(state, rules, rng)
    return 0


@njit(**HOT_RULES_JIT)  # inlined: called once, from ``advance``, every turn
def show(state):
    """The public fields a bot reads that the rules derive (top cards, T13's deck top, T33's
    face-up cards) and the deciding seat's Hand (``F_ACTIVE_HAND``)."""
    state[C.F_TOP] = pile_top(state, 0)
    state[C.F_TOP + 1] = pile_top(state, 1) if state[C.F_N_PILES] == 2 else -1
    state[C.F_DECK_SHOWN] = deck_shown(state)
    seat = state[L.H_SEAT]
    for w in range(C.HAND_WORDS):
        state[C.F_SHOWN_BITS + w] = state[as_index(C.F_HAND_BITS + seat * C.HAND_WORDS + w)]
    # the seat's row of F_HAND_CARDS, kept by to_hand and from_hand: ~10 vector moves where
    # expanding the bits took ~150 instructions a decision (callgrind, 4 players, 2026-12-02)
    copy_within(state, C.F_ACTIVE_HAND, C.F_HAND_CARDS + seat * C.MAX_CARDS, C.MAX_CARDS)
    if tile_on(state, T33):  # else every SH_SHOWN is -1 already (sync_tiles)
        for s in range(state[L.H_N_PLAYERS]):
            state[sf(s, C.SH_SHOWN)] = -1
            if hand_n(state, s) == 1:  # T33: the only card of a one-card Hand, face up
                for w in range(C.HAND_WORDS):
                    x = hand_word(state, s, w)
                    if x:
                        card = w * 32 + low_bit_index(x & -x)
                        state[sf(s, C.SH_SHOWN)] = card
                        seen_by_all(state, card, C.SEEN_HAND + s)
    # what the seat has seen out of its sight (F_SEEN), copied only when its row or the last
    # one copied holds an entry; and its map tiles
    seen = state[as_index(C.F_SEEN_N + seat)]
    if seen or state[C.F_SEEN_VIEW_N]:
        copy_within(state, C.F_SEEN_VIEW, C.F_SEEN + seat * C.MAX_CARDS, C.MAX_CARDS)
        state[C.F_SEEN_VIEW_N] = seen
    state[C.F_OWN_MAPS] = state[as_index(C.F_MAP_BITS + 2 * seat)]
    state[C.F_OWN_MAPS + 1] = state[as_index(C.F_MAP_BITS + 2 * seat + 1)]


@njit(**INLINE_JIT)  # into ``step``, which the play loop inlines (and ``deal``, for tests)
def advance(state, rules, rng, out, code, observed):
    """Apply decision ``code`` to the top task (``code`` < 0: none pending, as after ``setup``)
    and advance to the next real decision (two or more legal codes; any decision with the
    internal ``R_STOP_FORCED`` set): their count, 0 at the end. ``observed``: bring the fields
    a bot reads up to date (``show``) at that decision; False for ``step_blind`` only.

    One loop for both: every task is called from here alone, always with an int64 ``code`` (numba
    compiles a function once per argument types, and a decision read from ``legal`` is int32, a
    ``-1`` in the source ``Literal[int](-1)``: each was a copy of every task), and a task that
    applies a decision returns 0, so a forced decision goes round the loop as the next ``code``.
    The commonest tasks first (a call passes each array as seven words).

    Inlined with ``step`` into the play loop (``run_block``): a call a decision passed four arrays
    as 29 words, and its entry stored ~20 values the loop reuses to the stack, ~140 instructions
    a decision (callgrind, 4-player random turn: 1,313 -> 1,201 instructions, 2026-12-02)."""
    while state[L.H_OVER] == 0:
        kind = state[as_index(top_task(state))]
        if kind == C.K_MAIN:
            n = task_main(state, rules, rng, out, code)
        elif kind == C.K_TURN_END:
            pop(state)
            turn_end(state, rules, rng)
            n = 0
        elif kind == C.K_TILE:
            n = task_tile(state, rules, rng, out, code)
        elif kind == C.K_WINDOW:
            n = task_window(state, rules, rng, out, code)
        elif kind == C.K_OPT_EXTRAS:
            n = task_opt_extras(state, rules, rng, out, code)
        elif kind == C.K_TURN_EXTRAS:
            n = task_turn_extras(state, rules, rng, out, code)
        elif kind == C.K_DRAWN:
            n = task_drawn(state, rules, rng, out, code)
        elif kind == C.K_TURN_START:
            pop(state)
            start_turn(state)
            n = 0
        else:
            n = task_round_end(state, rules, rng, out, code)
        code = -1
        if n == 1 and not rules[R.R_STOP_FORCED]:
            code = np.int64(out[0])
        elif n >= 1:
            if observed:
                show(state)
            return n
    return 0


@njit(**J)
def setup(state, rules, n_players, rng):
    """A new game (R1-R5) up to its first turn; ``state`` zeroed."""
    state[L.H_N_PLAYERS] = n_players
    state[L.H_END_REASON] = -1
    k = rules[R.R_PIRATE_TYPES]
    n = 0
    for a in range(k):
        for b in range(a + 1, k):
            state[C.F_MASKS + n] = (1 << a) | (1 << b)
            n += 1
    for p in range(k):
        for _ in range(rules[R.R_SOLITARY]):
            state[C.F_MASKS + n] = 1 << p
            n += 1
    state[C.F_N_CARDS] = n
    for card in range(n):
        m = state[C.F_MASKS + card]
        while m:  # the card's one or two pirates, not a test per pirate (once per game)
            low = m & -m
            m ^= low
            p = low_bit_index(low)
            state[C.F_PIRATE_BITS + p * C.HAND_WORDS + (card >> 5)] |= 1 << (card & 31)
    for card in range(C.MAX_CARDS):
        state[C.F_LOC + card] = C.LOC_NONE
    state[C.F_WINNER] = -1
    state[C.F_GAME_WINNER] = -1
    state[C.F_REVEALED] = -1
    dealer = rules[R.R_FIRST_DEALER]
    if dealer < 0:
        dealer = randint(rng, n_players)  # R3
    state[C.F_DEALER] = dealer
    tile_setup(state, rules, rng)
    new_round(state, rules, rng)
    state[L.H_FIRST] = state[C.F_ACTIVE]


@njit(**J)
def deal(state, rules, n_players, rng, out):
    setup(state, rules, n_players, rng)
    # ``advance`` with no decision pending, its ``code`` an int64 (not ``Literal[int](-1)``), as
    # ``step`` calls it: both inline the same compiled function
    return advance(state, rules, rng, out, np.int64(-1), True)


@njit(**J)
def begin(state, rules, n_players, rng, out):
    """The play loop's ``deal``: a new game up to its first turn (``setup``), the rest left to
    ``step``: one legal code, ``C_BEGIN`` (no decision), which the loop applies as it applies
    every single legal decision, without asking a bot (so the same games). The loop then holds
    one inlined copy of ``advance``, in ``step``: a second one in ``deal`` cost ~5-9 s of a cold
    compile (alternated with the first, 2026-12-02). ``deal`` lists the first decision itself,
    for tests and the engine's own callers."""
    setup(state, rules, n_players, rng)
    out[0] = C.C_BEGIN
    return 1


@njit(**INLINE_JIT)  # into the play loop, with ``advance``
def step(state, rules, decision, rng, out):
    return advance(state, rules, rng, out, np.int64(decision), True)


@njit(**INLINE_JIT)  # into the play loop of bots that read no observation (RULESET.blind_step)
def step_blind(state, rules, decision, rng, out):
    """``step`` without ``show``: the same game, but the fields only bots read (top cards,
    T13's and T33's face-up cards, the deciding Hand) are left as they were. The play loop plays
    it when no bot of the loop reads its observation (``random``): ~36 of ~880 instructions a
    4-player turn (callgrind, 2026-12-04)."""
    return advance(state, rules, rng, out, np.int64(decision), False)


@njit(**J)
def observe(state, seat, buf):
    return buf  # the observation is the state's prefix (obs_is_state_prefix)


@njit(**J)
def finalize(state, rules, game_row, seat_rows):
    """Scores (M2: map pieces; M1: rounds won), ranks, winners and counters of a finished game."""
    n_players = state[L.H_N_PLAYERS]
    cruise = rules[R.R_CRUISE]
    extra = len(L.SEAT_COLUMNS)
    for s in range(n_players):
        row = seat_rows[s]
        row[L.S_SCORE] = state[sf(s, C.SH_ROUNDS_WON)] if cruise else state[sf(s, C.SH_MAPS)]
        for c in range(C.N_COUNTERS):
            row[extra + c] = state[C.F_COUNTERS + s * C.N_COUNTERS + c]
        row[extra + C.C_ROUNDS_WON] = state[sf(s, C.SH_ROUNDS_WON)]
        row[extra + C.C_MAP_PIECES] = state[sf(s, C.SH_MAPS)]
    for s in range(n_players):
        better = 0
        for o in range(n_players):
            if seat_rows[o, L.S_SCORE] > seat_rows[s, L.S_SCORE]:
                better += 1
        seat_rows[s, L.S_RANK] = better + 1
        if cruise:
            seat_rows[s, L.S_WIN] = 1 if better == 0 and seat_rows[s, L.S_SCORE] > 0 else 0
        else:
            seat_rows[s, L.S_WIN] = 1 if s == state[C.F_GAME_WINNER] else 0
    g = len(L.GAME_COLUMNS)
    for c in range(C.N_GAME_COUNTERS):
        game_row[g + c] = state[C.F_GAME_COUNTERS + c]


PLAY_KERNELS = first_class_kernels(begin, step, observe, finalize)
"""(deal, step, observe, finalize) for ``cardsim.core.kernel``: ``begin`` deals."""
