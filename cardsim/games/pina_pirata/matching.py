"""Piña Pirata: what may be played onto what, and the lists of legal plays (pina-pirata.md R7,
R18, R20, R21, A1, A4) under the *match* tiles: T6 Acrobats, T7 No Other Walrus, T9 Madness, T13
Mating Season, T29 Big Hug, T31 Alligaturtle, T34 Despair, T39 Voodoo, T40 Ghost (A20, A28, A33,
A34, A38, A39).

Compiled helpers of ``engine.py``, whose docstring states the engine's contract (the task stack,
chance in order of use, canonical orders); every rule cites ``pina-pirata.md``.
"""

import numpy as np
from numba import njit

from cardsim.core.bits import as_index, low_bit_index
from cardsim.core.jit import HOT_RULES_JIT, INLINE_JIT
from cardsim.games.pina_pirata import cards as C
from cardsim.games.pina_pirata import rules as R
from cardsim.games.pina_pirata.state import (
    B_CROC_TURTLE,
    B_WALRUS,
    T6,
    T7,
    T9,
    T13,
    T22,
    T29,
    T31,
    T34,
    T39,
    T40,
    J,
    all_pirates,
    deck_shown,
    front_mask,
    hand_n,
    hand_word,
    held_mask,
    pile_top,
    pirate_cards,
    play_mask,
    solitary_walrus_word,
    tile_age,
    tile_on,
)

# The tiles that change what may be played onto what (play_mask, can_play, list_plays): T6, T7,
# T9, T13, T22, T29, T31, T34, T39, T40, as bits of the two F_TILES_ON words.
MATCH_TILES = (6, 7, 9, 13, 22, 29, 31, 34, 39, 40)
MATCH_TILES_ON_0 = sum(1 << t for t in MATCH_TILES if t < 32)
MATCH_TILES_ON_1 = sum(1 << (t - 32) for t in MATCH_TILES if t >= 32)


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
