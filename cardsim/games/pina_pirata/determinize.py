"""Piña Pirata determinizer for search bots (ismcts): from one seat's observation, a complete
game state that seat cannot tell from the real one, its hidden cards and tiles dealt again.

What a seat knows, and so what is kept, is written down in ``docs/search.md`` ("Determinization:
Piña Pirata"), citing ``pina-pirata.md`` A15 (what is public) and the tiles that show a card to
some seats only (T4, T5, T16, T17, T18, T20, T24). In short, the observation ``view``
(``state[:OBS_LEN]``, cards.py) holds the whole table: the Action piles, the cards in front of
players, the count of cards in each Hand, in the deck and set aside (T11, by each setter), the
tiles in play, removed (R17) and drawn by a round winner, and the engine's task stack (what the
tiles still owe); then the seat's own view: its Hand, where it has seen each card now out of its
sight (``F_SEEN_VIEW``: in another Hand, at a place in the deck, set aside) and the tiles of its
own Treasure Map. Everything else (the other Hands, the deck's order, the set-aside cards unless
they lie face up under ``aside_face_up``, the Adventure pile, the other players' map tiles) is
dealt again here uniformly at random among the places the seat cannot see, with the counts the
table shows; after a reshuffle (R8, A7) the deck only from the pile's cards that went into it
(``F_DECK_POOL``), which everybody saw.

No allocation (``RULES_JIT``): the pools are gathered in ``state``'s hidden rows before they are
written (``_POOL``), and ``state`` is written whole.
"""

from numba import njit

from cardsim.core import layout as L
from cardsim.core.bits import low_bit_index, popcount
from cardsim.core.jit import RULES_JIT
from cardsim.core.rng import shuffle
from cardsim.games.pina_pirata import cards as C
from cardsim.games.pina_pirata import rules as R
from cardsim.games.pina_pirata.state import sf

UNPLACED = -1  # F_LOC of a card not yet placed
_POOL = C.F_HAND_CARDS  # scratch for the pool of unseen cards, then tiles (rebuilt after)


@njit(**RULES_JIT)
def determinize(view, rules, rng, state):
    """view: int32[::1] of length OBS_LEN, the observation of the seat view[H_SEAT] that is to decide
    (a trusted bot's `obs`); rules: the int32 rules vector; rng: a uint64[::1] stream of
    cardsim.core.rng; state: int32[::1] of STATE_LEN, written whole."""
    for i in range(C.STATE_LEN):
        state[i] = 0
    for i in range(C.OBS_LEN):
        state[i] = view[i]  # the table and the seat's own view, scratch room included
    deal_tiles(view, rules, rng, state)  # before the cards: both pool in _POOL, Hands built last
    deal_cards(view, rules, rng, state)
    copy_seen(view, state)
    # outcome counters (C_*, G_*): bookkeeping no rule reads, left at 0


@njit(**RULES_JIT)
def place(state, card, loc):
    state[C.F_LOC + card] = loc


@njit(**RULES_JIT)
def place_public(view, state):
    """The cards whose place everybody sees: the Action piles (A15: played and discarded face up,
    R18, R19), the cards in front of players (T26, T38, T39; R22) and, under ``aside_face_up``
    (A15's alternative), T11's set-aside cards with their setters."""
    for pile in range(view[C.F_N_PILES]):
        for i in range(view[C.F_PILE_N + pile]):
            place(state, view[C.F_PILE + pile * C.MAX_CARDS + i], C.LOC_PILE + pile)
    for s in range(view[L.H_N_PLAYERS]):
        for w in range(C.HAND_WORDS):
            x = view[C.F_FRONT_BITS + s * C.HAND_WORDS + w] & 0xFFFFFFFF
            voodoo = view[C.F_VOODOO_BITS + w] & 0xFFFFFFFF
            while x:
                low = x & -x
                x ^= low
                card = w * 32 + low_bit_index(low)
                place(state, card, (C.LOC_VOODOO if voodoo & low else C.LOC_FRONT) + s)
            x = view[C.F_ASIDE_UP + s * C.HAND_WORDS + w] & 0xFFFFFFFF  # face up (A15's option)
            while x:
                low = x & -x
                x ^= low
                card = w * 32 + low_bit_index(low)
                place(state, card, C.LOC_ASIDE)
                state[C.F_ASIDE_BY + card] = s


@njit(**RULES_JIT)
def place_seen(view, state):
    """The cards the seat sees or has seen out of its sight: its Hand, T13's face-up deck top
    and T33's face-up last cards (public), and its ``F_SEEN_VIEW`` entries. Deck places it knows
    are written into ``F_DECK`` (``UNPLACED`` elsewhere)."""
    me = view[L.H_SEAT]
    for i in range(view[C.F_DECK_N]):
        state[C.F_DECK + i] = UNPLACED
    for card in range(view[C.F_N_CARDS]):
        if view[C.F_ACTIVE_HAND + card]:
            place(state, card, C.LOC_HAND + me)
    shown = view[C.F_DECK_SHOWN]  # T13
    if shown >= 0:
        state[C.F_DECK + view[C.F_DECK_N] - 1] = shown
        place(state, shown, C.LOC_DECK)
    for s in range(view[L.H_N_PLAYERS]):
        card = view[sf(s, C.SH_SHOWN)]  # T33
        if card >= 0 and state[C.F_LOC + card] == UNPLACED:
            place(state, card, C.LOC_HAND + s)
    for card in range(view[C.F_N_CARDS]):
        v = view[C.F_SEEN_VIEW + card]
        if v == 0 or state[C.F_LOC + card] != UNPLACED:
            continue
        if v >= C.SEEN_DECK:
            state[C.F_DECK + v - C.SEEN_DECK] = card
            place(state, card, C.LOC_DECK)
        else:
            place(state, card, v)  # SEEN_HAND + seat, SEEN_ASIDE: the LOC_* codes


@njit(**RULES_JIT)
def deal_cards(view, rules, rng, state):
    """Every card of the game placed once: public and seen cards where they are; then the
    deck's free places, from the bottom, take cards drawn uniformly from those that may lie
    there (after a reshuffle only the pile's cards, R8, A7: a public fact); then the rest,
    shuffled (``rng``), fill the other Hands up to their public sizes, seat by seat, and the
    set-aside cards (T11). Every choice of deck cards leaves the same number of completions, so
    the deal is uniform over the deals consistent with what the seat knows."""
    n_cards = view[C.F_N_CARDS]
    for card in range(C.MAX_CARDS):
        place(state, card, UNPLACED if card < n_cards else C.LOC_NONE)
    place_public(view, state)
    place_seen(view, state)
    # The deck's free places first, from the reshuffled cards when the deck is known to be made
    # of them (F_DECK_POOL): a uniform choice of those, then the rest dealt uniformly
    k = pool_unplaced(view, state, n_cards, True)
    shuffle(rng, state[_POOL : _POOL + k], k)
    for d in range(view[C.F_DECK_N]):
        if state[C.F_DECK + d] == UNPLACED:
            k -= 1
            card = state[_POOL + k]
            state[C.F_DECK + d] = card
            place(state, card, C.LOC_DECK)
    k = pool_unplaced(view, state, n_cards, False)
    shuffle(rng, state[_POOL : _POOL + k], k)
    i = 0
    for s in range(view[L.H_N_PLAYERS]):
        free = view[sf(s, C.SH_HAND_N)] - placed(state, n_cards, C.LOC_HAND + s)
        for _ in range(free):
            place(state, state[_POOL + i], C.LOC_HAND + s)
            i += 1
    for _ in range(view[C.F_ASIDE_N] - placed(state, n_cards, C.LOC_ASIDE)):
        place(state, state[_POOL + i], C.LOC_ASIDE)
        i += 1
    attribute_aside(view, rules, rng, state)
    build_hands(view, state)


@njit(**RULES_JIT)
def attribute_aside(view, rules, rng, state):
    """Who set aside each set-aside card (``F_ASIDE_BY``, read under A27's alternative,
    ``bayou_setter_only``): face-up cards are known (``place_public``); the others are shared out
    so that each setter has its public count (``SH_ASIDE_N``: everybody saw the Crocodiles
    played), uniformly under ``bayou_setter_only``, in card order else (no rule reads them). A
    card the seat saw set aside face down (T13's face-up deck top) is shared out with them: its
    view keeps where it is, not who set it aside."""
    n_cards = view[C.F_N_CARDS]
    free = _POOL + C.MAX_CARDS  # past the card pool, which is still being read
    k = 0
    for card in range(n_cards):
        if state[C.F_LOC + card] == C.LOC_ASIDE and not face_up(view, card):
            state[free + k] = card
            k += 1
    if rules[R.R_BAYOU_SETTER_ONLY]:
        shuffle(rng, state[free : free + k], k)
    i = 0
    for s in range(view[L.H_N_PLAYERS]):
        for _ in range(view[sf(s, C.SH_ASIDE_N)] - face_up_count(view, s)):
            state[C.F_ASIDE_BY + state[free + i]] = s
            i += 1


@njit(**RULES_JIT)
def face_up(view, card):
    """``card`` lies aside face up (``F_ASIDE_UP``, any setter)."""
    for s in range(view[L.H_N_PLAYERS]):
        if view[C.F_ASIDE_UP + s * C.HAND_WORDS + (card >> 5)] >> (card & 31) & 1:
            return True
    return False


@njit(**RULES_JIT)
def face_up_count(view, seat):
    n = 0
    for w in range(C.HAND_WORDS):
        n += popcount(view[C.F_ASIDE_UP + seat * C.HAND_WORDS + w] & 0xFFFFFFFF)
    return n


@njit(**RULES_JIT)
def pool_unplaced(view, state, n_cards, for_deck):
    """Gather the cards not placed yet in ``_POOL``, their count returned; ``for_deck``: only
    those that may lie in the deck (``F_DECK_POOL`` while it is on)."""
    only = for_deck and view[C.F_DECK_POOL_ON] == 1
    k = 0
    for card in range(n_cards):
        if state[C.F_LOC + card] != UNPLACED:
            continue
        if only and not (view[C.F_DECK_POOL + (card >> 5)] >> (card & 31)) & 1:
            continue
        state[_POOL + k] = card
        k += 1
    return k


@njit(**RULES_JIT)
def placed(state, n_cards, loc):
    n = 0
    for card in range(n_cards):
        if state[C.F_LOC + card] == loc:
            n += 1
    return n


@njit(**RULES_JIT)
def build_hands(view, state):
    """``F_HAND_BITS`` and ``F_HAND_CARDS`` (the engine's two copies of each Hand) from F_LOC."""
    for i in range(C.MAX_PLAYERS * C.MAX_CARDS):
        state[C.F_HAND_CARDS + i] = 0
    for card in range(view[C.F_N_CARDS]):
        loc = state[C.F_LOC + card]
        if C.LOC_HAND <= loc < C.LOC_HAND + C.MAX_PLAYERS:
            s = loc - C.LOC_HAND
            state[C.F_HAND_BITS + s * C.HAND_WORDS + (card >> 5)] |= 1 << (card & 31)
            state[C.F_HAND_CARDS + s * C.MAX_CARDS + card] = 1


@njit(**RULES_JIT)
def tile_bit(words, base, tile):
    return words[base + (tile >> 5)] >> (tile & 31) & 1 == 1


@njit(**RULES_JIT)
def deal_tiles(view, rules, rng, state):
    """Every tile of the pool placed once (pina-pirata.md R2, R11, R17, A9): in play, removed and
    drawn by a round winner (public), the seat's own map tiles (it has looked at them); the
    others shuffled and dealt to the Adventure pile (``F_ADV_N`` of them) and then to the other
    players' maps (``SH_MAPS`` each). The tile a winner put under the pile is not followed: it
    joins the others (docs/search.md)."""
    me = view[L.H_SEAT]
    for t in range(1, C.N_TILES + 1):
        state[C.F_TILE_WHERE + t] = C.W_OUT
    for i in range(rules[R.R_N_POOL]):
        state[C.F_TILE_WHERE + rules[R.R_POOL + i]] = UNPLACED
    for i in range(rules[R.R_N_FIXED]):
        state[C.F_TILE_WHERE + rules[R.R_FIXED + i]] = UNPLACED
    for slot in range(view[C.F_N_TILES]):
        state[C.F_TILE_WHERE + view[C.F_TILES + slot]] = C.W_PLAY
    for i in range(3):
        t = view[C.F_ROUND_END + i]
        if t > 0:
            state[C.F_TILE_WHERE + t] = C.W_PILE  # drawn by the round winner (R11), not placed yet
    for t in range(1, C.N_TILES + 1):
        if tile_bit(view, C.F_REMOVED_TILES, t):
            state[C.F_TILE_WHERE + t] = C.W_REMOVED
        elif tile_bit(view, C.F_OWN_MAPS, t):
            state[C.F_TILE_WHERE + t] = C.W_MAP + me
    k = 0
    for t in range(1, C.N_TILES + 1):
        if state[C.F_TILE_WHERE + t] == UNPLACED:
            state[_POOL + k] = t
            k += 1
    shuffle(rng, state[_POOL : _POOL + k], k)
    for i in range(view[C.F_ADV_N]):
        t = state[_POOL + i]
        state[C.F_ADV + i] = t
        state[C.F_TILE_WHERE + t] = C.W_PILE
    i = view[C.F_ADV_N]
    for s in range(view[L.H_N_PLAYERS]):
        if s == me:
            continue
        for _ in range(view[sf(s, C.SH_MAPS)]):
            state[C.F_TILE_WHERE + state[_POOL + i]] = C.W_MAP + s
            i += 1
    for t in range(1, C.N_TILES + 1):
        where = state[C.F_TILE_WHERE + t]
        if where >= C.W_MAP:
            state[C.F_MAP_BITS + 2 * (where - C.W_MAP) + (t >> 5)] |= 1 << (t & 31)


@njit(**RULES_JIT)
def copy_seen(view, state):
    """The seat's ``F_SEEN`` row is its view's (what the engine shows it next); the other
    seats' rows are left empty: no rule reads them, and what they saw is hidden from this seat."""
    me = view[L.H_SEAT]
    n = 0
    for card in range(C.MAX_CARDS):
        v = view[C.F_SEEN_VIEW + card]
        state[C.F_SEEN + me * C.MAX_CARDS + card] = v
        if v != 0:
            n += 1
    state[C.F_SEEN_N + me] = n
    state[C.F_SEEN_TOTAL] = n
    state[C.F_SEEN_VIEW_N] = n
