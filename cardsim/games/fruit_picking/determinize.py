"""Fruit Picking's determinizer: a complete game state drawn from what one seat has observed.

What a seat knows (``fruit-picking.md`` A17: "only the order of the market stack is hidden"):
everything in the public prefix ``state[:PUBLIC_END]`` (``cards.py``): the farms and seeds of every
seat, the market, the bought cards (R17: face up beside their buyer, so which card each seat
bought is public, ``F_CARD_OWNER``), and under V2 the two drawn cards while the choice is pending
(shown to the table in the engine's reading, A14) and so the card put under the stack, in the
order of those puts (``F_CARD_OWNER`` <= -2, ``F_BOTTOM_PUTS``). The stack is then: every market
card that is in no slot, bought by nobody and not pending in a V2 choice; its bottom holds the
cards put under it that are still there (the latest put lowest), and its other cards are in an
order nobody has seen. ``determinize`` keeps all of that and shuffles those others uniformly.

The seat counters past the stack are outcome bookkeeping that no rule reads (cards.py
``F_COUNTERS``): they are reset to 0, as the determinizer contract allows.
"""

from numba import njit

from cardsim.core.jit import RULES_JIT
from cardsim.core.rng import shuffle
from cardsim.games.fruit_picking import cards as C
from cardsim.games.fruit_picking import rules as R


@njit(**RULES_JIT)
def in_view(view, card):
    """Is ``card`` somewhere the seat sees it: a market slot, bought (R17), or one of the two
    cards of a pending V2 choice (A14)?"""
    if view[C.F_CARD_OWNER + card] >= 0:
        return True
    for slot in range(C.MAX_SLOTS):
        if view[C.F_MARKET_CARD + slot] == card:
            return True
    return view[C.F_OP_CARD_A] == card or view[C.F_OP_CARD_B] == card


@njit(**RULES_JIT)
def put_under(view, card):
    """For a card in the stack: its V2 put number (0 for the first card ever put under the stack,
    A14), or -1 if it was never put there and its place is unknown."""
    mark = view[C.F_CARD_OWNER + card]
    return -2 - mark if mark <= -2 else -1


@njit(**RULES_JIT)
def determinize(view, rules, rng, state):
    """Write into ``state`` (int32[STATE_LEN]) a game consistent with ``view`` (int32[PUBLIC_END],
    the deciding seat's observation): the public prefix copied, the stack's known bottom cards
    in their known order, its other cards in a uniform random order drawn from ``rng``
    (``cardsim.core.rng``). Reads nothing but ``view`` and ``rules``."""
    for i in range(C.PUBLIC_END):
        state[i] = view[i]
    for i in range(C.PUBLIC_END, C.STATE_LEN):
        state[i] = 0  # the stack is written below; the counters are reset (module docstring)
    n_cards = C.N_FRUIT_KINDS * rules[R.R_PER_KIND]
    # the cards put under the stack and still in it, lowest the latest put (put_on_bottom)
    n_known = 0
    for card in range(n_cards):
        if not in_view(view, card) and put_under(view, card) >= 0:
            n_known += 1
    for card in range(n_cards):
        k = put_under(view, card)
        if k < 0 or in_view(view, card):
            continue
        later = 0  # known cards put under after this one lie below it
        for other in range(n_cards):
            if not in_view(view, other) and put_under(view, other) > k:
                later += 1
        state[C.F_STACK + later] = card
    # the rest of the stack, in an order the seat has never seen
    n_rest = 0
    for card in range(n_cards):
        if not in_view(view, card) and put_under(view, card) < 0:
            state[C.F_STACK + n_known + n_rest] = card
            n_rest += 1
    top = C.F_STACK + n_known + n_rest
    shuffle(rng, state[C.F_STACK + n_known : top], n_rest)
