"""Pajarracos determinizer for search bots: a complete state drawn from what one seat knows.

What a seat knows (``docs/search.md``, "Determinization: Pajarracos"; pajarracos.md A16): the
whole table is public (trees, crow and scarecrow cards on them, the discard pile by class, every
hand's size, the reserve pile's size, the juicy cards seen leaving a hand, ``cards.F_JUICY_SEEN``),
and its own hand is its own. No card ever returns to a hand (R20-R24), so nothing else was ever
shown to it: the cards it has not seen are the deck (rules) minus the table minus its hand, and
they lie in the other hands and the reserve pile, in any order. ``determinize`` deals them there
again uniformly: every arrangement with the public hand sizes and reserve size equally likely.
"""

from numba import njit

from cardsim.core import layout as L
from cardsim.core.bits import as_index
from cardsim.core.jit import RULES_JIT
from cardsim.core.rng import shuffle
from cardsim.games.pajarracos import cards as C
from cardsim.games.pajarracos import rules as R
from cardsim.games.pajarracos.state import discard_class, hand_at, hand_count_at, tree_at


@njit(**RULES_JIT)
def determinize(view, rules, rng, state):
    """A complete state consistent with ``view``, the observation of the seat ``view[H_SEAT]``
    that is to decide: its public table and hand as in ``view``, the unseen cards dealt again
    uniformly among the other hands and the reserve pile. Reads nothing but ``view`` and
    ``rules``; ``state`` (int32 ``[STATE_LEN]``) is written whole. Outcome bookkeeping the rules
    never read (the seat counters, the first game's saved results under final_tie=replay) is
    reset."""
    for i in range(C.STATE_LEN):
        state[i] = 0
    for i in range(C.F_SCRATCH):  # the public table and the seat's hand; the bot's room stays 0
        state[i] = view[i]
    seat = view[L.H_SEAT]
    for card_type in range(C.N_TYPES):
        state[as_index(hand_at(seat, card_type))] = view[C.F_ACTIVE_HAND + card_type]
    unseen = stack_unseen(view, rules, state)
    shuffle(rng, state[C.F_RESERVE : C.F_RESERVE + unseen], unseen)
    deal_unseen(view, state, unseen)
    # bookkeeping the table implies: the turn the reserve ran out is not known, only that it did
    state[C.F_RESERVE_OUT_TURN] = -1 if view[C.F_RESERVE_LEFT] > 0 else view[L.H_TURNS]


@njit(**RULES_JIT)
def unseen_count(view, rules, card_type):
    """Cards of ``card_type`` the deciding seat has not seen: the deck's (rules) minus those on
    the table (trees, discard pile; juicy ones by ``F_JUICY_SEEN``) minus its own hand (A16)."""
    seat_hand = view[as_index(C.F_ACTIVE_HAND + card_type)]
    n_players = view[L.H_N_PLAYERS]
    if card_type < C.LONE_CROW:
        kind = card_type % C.JUICY
        if kind >= rules[R.R_FRUIT_KINDS]:
            return 0
        per_kind = rules[R.R_FRUIT_PER_KIND]
        juicy = min(rules[R.R_JUICY_PER_KIND], per_kind)
        juicy_seen = view[as_index(C.F_JUICY_SEEN + kind)]
        if card_type >= C.JUICY:
            return juicy - juicy_seen - seat_hand
        on_table = view[as_index(C.F_DISCARD + discard_class(card_type))]
        for owner in range(n_players):
            on_table += view[as_index(tree_at(owner, kind) + C.TREE_SIZE)]
        return per_kind - juicy - (on_table - juicy_seen) - seat_hand
    if card_type == C.SCARECROW:
        on_table = view[C.F_DISCARD + C.D_SCARECROW]
        for owner in range(n_players):
            for kind in range(C.MAX_KINDS):
                on_table += view[as_index(tree_at(owner, kind) + C.TREE_SCARECROW)]
        return rules[R.R_SCARECROWS] - on_table - seat_hand
    crow = C.LONE if card_type == C.LONE_CROW else C.FLOCK_ON
    in_box = rules[R.R_LONE_CROWS] if card_type == C.LONE_CROW else rules[R.R_FLOCKS]
    on_table = view[as_index(C.F_DISCARD + discard_class(card_type))]
    for owner in range(n_players):
        for kind in range(C.MAX_KINDS):
            on_table += view[as_index(tree_at(owner, kind) + C.TREE_CROW)] == crow
    return in_box - on_table - seat_hand


@njit(**RULES_JIT)
def stack_unseen(view, rules, state):
    """The unseen cards, as card types in type order, into ``state``'s reserve area; returns how
    many (``determinize`` shuffles them there)."""
    n = 0
    for card_type in range(C.N_TYPES):
        for _ in range(unseen_count(view, rules, card_type)):
            state[as_index(C.F_RESERVE + n)] = card_type
            n += 1
    return n


@njit(**RULES_JIT)
def deal_unseen(view, state, unseen):
    """The shuffled unseen cards (``state``'s reserve area, ``unseen`` of them): the first
    ``F_RESERVE_LEFT`` stay as the reserve pile, the rest fill the other seats' hands to their
    public sizes."""
    n_players = view[L.H_N_PLAYERS]
    seat = view[L.H_SEAT]
    taken = view[C.F_RESERVE_LEFT]
    for owner in range(n_players):
        if owner == seat:
            continue
        for _ in range(view[as_index(hand_count_at(owner))]):
            card_type = state[as_index(C.F_RESERVE + taken)]
            state[as_index(hand_at(owner, card_type))] += 1
            taken += 1
    for i in range(view[C.F_RESERVE_LEFT], unseen):
        state[as_index(C.F_RESERVE + i)] = 0
