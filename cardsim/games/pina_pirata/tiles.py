"""Piña Pirata's Adventure tiles in play (pina-pirata.md Adventures, R13-R17; Setup R2, R5): which
tiles a play triggers, oldest first (R15, A2, A20), the tiles coming into play, leaving it (R17,
A10) and turned face down by T27 Old Sea Dog (A40), the Adventure pile and the Treasure Maps (M2,
A9, A41).

Compiled helpers of ``engine.py``, whose docstring states the engine's contract (the task stack,
chance in order of use, canonical orders); every rule cites ``pina-pirata.md``.
"""

from numba import njit

from cardsim.core import layout as L
from cardsim.core.jit import RULES_JIT
from cardsim.core.rng import shuffle
from cardsim.games.pina_pirata import cards as C
from cardsim.games.pina_pirata import rules as R
from cardsim.games.pina_pirata.state import (
    ONTO_PLAYED_TABLE,
    ONTO_UNDER_TABLE,
    PLAY_KEY_TABLE,
    J,
    clear_aside,
    deck_put_bottom,
    forget,
    forget_deck,
    is_solitary,
    pile_insert,
    play_mask,
    refresh_fronts,
    sf,
    sync_tiles,
)


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
