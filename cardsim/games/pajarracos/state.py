"""Pajarracos state moves: where things are in the state vector (``cards.py``), the tree bit
sets, and the small moves every rule is made of (take a card from a hand, land or lift a crow
card R11, draw up R22, crows eat R12-R13).

Compiled helpers of ``engine.py`` (whose docstring states the engine's contract); every rule
cites ``pajarracos.md``.
"""

from numba import njit

from cardsim.core import layout as L
from cardsim.core.bits import as_index, low_bit_index, popcount
from cardsim.core.jit import HOT_RULES_JIT, INLINE_JIT, RULES_JIT
from cardsim.games.pajarracos import cards as C
from cardsim.games.pajarracos import rules as R

KIND_BITS = (1 << C.MAX_KINDS) - 1

"""Every kind in a bit set of kinds."""


SEAT_BITS = (1 << C.MAX_PLAYERS) - 1

"""The orchards of one kind in an orchard bit set (``F_FRUIT_TREES``: bit kind * MAX_PLAYERS +
seat)."""


FRUIT_OFFSET_MASK = (1 << (C.C_CROW - C.C_FRUIT).bit_length()) - 1

"""Covers every fruit code's offset ``code - C_FRUIT`` (``advance``)."""


# Where things are ----------------------------------------------------------------------------------


@njit(**HOT_RULES_JIT)
def tree_at(seat, kind):
    """Index of the first field (TREE_SIZE) of ``seat``'s tree of ``kind``; add TREE_CROW etc."""
    return C.F_SEATS + seat * C.SEAT_LEN + kind


@njit(**HOT_RULES_JIT)
def hand_at(seat, card_type):
    return C.F_HANDS + seat * C.N_TYPES + card_type


@njit(**HOT_RULES_JIT)
def hand_count_at(seat):
    return C.F_SEATS + seat * C.SEAT_LEN + C.HAND_COUNT


@njit(**HOT_RULES_JIT)
def counter_at(seat, counter):
    return C.F_COUNTERS + seat * C.N_COUNTERS + counter


@njit(**HOT_RULES_JIT)
def seat_after(seat, n_players):
    """The next seat clockwise (R2, R21 step 3): a compare and a select, where
    ``% n_players`` was a division (~25 cycles) and its sign fix-up."""
    return 0 if seat + 1 >= n_players else seat + 1


@njit(**HOT_RULES_JIT)
def count(state, seat, counter, amount):
    state[as_index(C.F_COUNTERS + seat * C.N_COUNTERS + counter)] += amount


@njit(**HOT_RULES_JIT)
def held_types(state, seat):
    """Bit per card type the seat holds, read once for the listings of an action (fruit plays,
    discards): without branches, as which cards a hand holds is a coin toss for the branch
    predictor."""
    held = 0
    for card_type in range(C.N_TYPES):
        held |= (1 << card_type) * (state[as_index(hand_at(seat, card_type))] > 0)
    return held


@njit(**HOT_RULES_JIT)
def playable_kinds(rules, held):
    """Bit per kind the hand (``held_types``) holds a fruit play of: an ordinary card, or a juicy
    one when it may be played alone (R6, R9, A2)."""
    juicy_alone = (held >> C.JUICY) * (rules[R.R_JUICY_ALONE] != 0)
    return (held | juicy_alone) & KIND_BITS


@njit(**HOT_RULES_JIT)
def crows_attracted(state, rules, seat):
    """How many crow cards a juicy card played by ``seat`` could attract (R10, A4)."""
    if rules[R.R_JUICY_OWN_CROWS] == 0:
        return popcount(state[C.F_CROWED_TREES] & ~seat_trees(seat))
    return state[C.F_CROWS_ON_TREES]


@njit(**HOT_RULES_JIT)
def seat_trees(seat):
    """The bits of ``seat``'s trees in a tree bit set (``F_OPEN_TREES``, ``F_CROWED_TREES``)."""
    return KIND_BITS << (seat * C.MAX_KINDS)


@njit(**HOT_RULES_JIT)
def sync_tree_bits(state, seat, kind):
    """After a change to a tree's size, crow or scarecrow: its bits of ``F_FRUIT_TREES``,
    ``F_OPEN_TREES`` and ``F_CROWED_TREES`` (cards.py) from those fields: it takes fruit with no
    crow and no scarecrow (R8), is open to a crow card if it also exists (R11, R16, A7, A9).
    Without branches."""
    t = tree_at(seat, kind)
    crowed = state[as_index(t + C.TREE_CROW)] != C.NO_CROW
    free = (state[as_index(t + C.TREE_CROW)] == C.NO_CROW) & (
        state[as_index(t + C.TREE_SCARECROW)] == 0
    )
    is_open = free & (state[as_index(t + C.TREE_SIZE)] > 0)
    fruit_bit = 1 << (kind * C.MAX_PLAYERS + seat)
    tree_bit = 1 << (seat * C.MAX_KINDS + kind)
    state[C.F_FRUIT_TREES] = (state[C.F_FRUIT_TREES] & ~fruit_bit) | (fruit_bit * free)
    state[C.F_OPEN_TREES] = (state[C.F_OPEN_TREES] & ~tree_bit) | (tree_bit * is_open)
    state[C.F_CROWED_TREES] = (state[C.F_CROWED_TREES] & ~tree_bit) | (tree_bit * crowed)


@njit(**HOT_RULES_JIT)
def empty_table_bits(state):
    """The tree bit sets of a table without trees (a deal): every tree takes fruit (R8), none is
    open to a crow card or crowed (``bare_table_bits`` of an empty table)."""
    seats = (1 << state[L.H_N_PLAYERS]) - 1
    fruit = 0
    for kind in range(C.MAX_KINDS):
        fruit |= seats << (kind * C.MAX_PLAYERS)
    state[C.F_FRUIT_TREES] = fruit
    state[C.F_OPEN_TREES] = 0
    state[C.F_CROWED_TREES] = 0


@njit(**RULES_JIT)
def bare_table_bits(state):
    """The three tree bit sets once no crow or scarecrow is left on any tree (R24, the end of a
    game): every tree takes fruit (R8), an existing one is open to a crow card, none is crowed:
    what ``sync_tree_bits`` of every tree gives then, without its pass."""
    empty_table_bits(state)
    trees = 0
    for seat in range(state[L.H_N_PLAYERS]):
        for kind in range(C.MAX_KINDS):
            exists = state[as_index(tree_at(seat, kind) + C.TREE_SIZE)] > 0
            trees |= (1 << (seat * C.MAX_KINDS + kind)) * exists
    state[C.F_OPEN_TREES] = trees


@njit(**HOT_RULES_JIT)
def reset_context(state):
    """No action under way: the start of every action."""
    state[C.F_CTX_KIND] = -1
    state[C.F_CTX_TARGET] = -1
    state[C.F_CTX_LAST] = -1
    state[C.F_CTX_USED] = 0
    state[C.F_CTX_SHOO_OUT] = 0
    state[C.F_CTX_SHOO_TO] = 0


# Moving cards ----------------------------------------------------------------------------------------


@njit(**HOT_RULES_JIT)
def take_from_hand(state, seat, card_type, n):
    state[as_index(hand_at(seat, card_type))] -= n
    state[as_index(hand_count_at(seat))] -= n


@njit(**HOT_RULES_JIT)
def discard_class(card_type):
    """The discard pile class (D_*) of a hand card: a juicy card is a fruit of its kind (A16)."""
    if card_type < C.LONE_CROW:
        return C.D_FRUIT + card_type % C.JUICY
    return C.D_LONE_CROW + card_type - C.LONE_CROW


@njit(**HOT_RULES_JIT)
def discard_crow(state, crow):
    """A crow card (LONE or FLOCK_ON) to the discard pile."""
    state[C.F_DISCARD + (C.D_LONE_CROW if crow == C.LONE else C.D_FLOCK)] += 1


@njit(**HOT_RULES_JIT)
def land_crow(state, crow, sender, seat, kind):
    """A crow card arrives on ``seat``'s tree of ``kind``, sent by ``sender``."""
    t = tree_at(seat, kind)
    state[as_index(t + C.TREE_CROW)] = crow
    state[as_index(t + C.TREE_SENDER)] = sender
    # a crow card lands only on a tree with none and no scarecrow (R10, R11, R19): crowed now, it
    # takes no fruit and is open to no crow card (``sync_tree_bits``' result, without its reads)
    tree_bit = 1 << (seat * C.MAX_KINDS + kind)
    state[C.F_CROWED_TREES] |= tree_bit
    state[C.F_OPEN_TREES] &= ~tree_bit
    state[C.F_FRUIT_TREES] &= ~(1 << (kind * C.MAX_PLAYERS + seat))
    count(state, seat, C.C_CROWS_RECEIVED, 1)


@njit(**HOT_RULES_JIT)
def lift_crow(state, seat, kind):
    """Take the crow card off a tree; returns it (LONE or FLOCK_ON)."""
    t = tree_at(seat, kind)
    crow = state[as_index(t + C.TREE_CROW)]
    state[as_index(t + C.TREE_CROW)] = C.NO_CROW
    state[as_index(t + C.TREE_SENDER)] = -1
    sync_tree_bits(state, seat, kind)
    return crow


@njit(**HOT_RULES_JIT)
def draw_card(state, seat, out_turn):
    """The top card of the pile to ``seat``'s hand; the draw that empties the pile records
    ``out_turn`` as the game's reserve-out turn (R22)."""
    state[C.F_RESERVE_LEFT] -= 1
    card_type = state[as_index(C.F_RESERVE + state[C.F_RESERVE_LEFT])]
    state[as_index(hand_at(seat, card_type))] += 1
    state[as_index(hand_count_at(seat))] += 1
    if state[C.F_RESERVE_LEFT] == 0:
        state[L.H_TRIGGERED] = 1
        state[C.F_RESERVE_OUT_TURN] = out_turn


@njit(**RULES_JIT)
def draw_up(state, rules, seat):
    """R21 step 2, R22: draw from the top of the pile up to the hand size while it lasts."""
    hand = as_index(hand_count_at(seat))
    while state[hand] < rules[R.R_HAND_SIZE] and state[C.F_RESERVE_LEFT] > 0:
        draw_card(state, seat, state[L.H_TURNS])


@njit(**INLINE_JIT)  # into end_turn and extra_turn: most turns end with no crow on the trees
def crows_eat(state, seat):
    """R21 step 1: every crow card on ``seat``'s trees eats, in kind order (R12, R13)."""
    attacked = (state[C.F_CROWED_TREES] >> (seat * C.MAX_KINDS)) & KIND_BITS
    if attacked:
        crows_eat_trees(state, seat, attacked)


@njit(**RULES_JIT)
def crows_eat_trees(state, seat, attacked):
    """``crows_eat`` on the kinds in the bit set ``attacked``, lowest first (R12, R13)."""
    while attacked:
        kind = low_bit_index(attacked)  # the lowest kind left
        attacked &= attacked - 1
        t = tree_at(seat, kind)
        crow = state[as_index(t + C.TREE_CROW)]
        sender = state[as_index(t + C.TREE_SENDER)]
        eaten = 1 if crow == C.LONE else state[as_index(t + C.TREE_SIZE)]
        state[as_index(t + C.TREE_SIZE)] -= eaten
        state[as_index(C.F_DISCARD + C.D_FRUIT + kind)] += eaten
        count(state, seat, C.C_FRUIT_LOST, eaten)
        count(state, sender, C.C_FRUIT_EATEN_BY_ITS_CROWS, eaten)
        if crow == C.FLOCK_ON:
            count(state, seat, C.C_TREES_WIPED, 1)
        if state[as_index(t + C.TREE_SIZE)] == 0:  # the tree is gone, and its crow with it
            discard_crow(state, lift_crow(state, seat, kind))
            state[C.F_CROWS_ON_TREES] -= 1
