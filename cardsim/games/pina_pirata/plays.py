"""Piña Pirata: a play and a draw (pina-pirata.md R7, R8, R18, A18), each pushing the tasks of
the tiles it sets off (the *play*, *play onto* and *draw* tiles, R15) and T35's window (A17).

Compiled helpers of ``engine.py``, whose docstring states the engine's contract (the task stack,
chance in order of use, canonical orders); every rule cites ``pina-pirata.md``.
"""

import numpy as np
from numba import njit

from cardsim.core.bits import as_index
from cardsim.core.jit import INLINE_JIT
from cardsim.games.pina_pirata import cards as C
from cardsim.games.pina_pirata.state import (
    T3,
    T8,
    T13,
    T15,
    T24,
    T38,
    J,
    count,
    deck_take_inline,
    from_hand,
    is_solitary,
    pile_push,
    pile_top,
    play_mask,
    push,
    push_window,
    refresh_fronts,
    seen_give,
    seen_top,
    tile_on,
    to_hand,
)
from cardsim.games.pina_pirata.tiles import (
    triggers_mask,
)


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


@njit(**J)
def apply_play_or_draw(state, rules, seat, code, rng):
    if code < C.C_DRAW:
        do_play(state, rules, seat, code % C.CARD_SPAN, code // C.CARD_SPAN, rng)
    elif code == C.C_DRAW:
        draw_step(state, rules, seat, rng)
