"""Pajarracos compiled engine: deal, legal decisions, apply, end of turn, observe, finalize.

Every rule cites ``pajarracos.md``. The state layout and decision codes are in ``cards.py``; the
rules vector in ``rules.py``; the play loop that calls these kernels is ``cardsim.core.kernel``.

Chance (the game's ``rng`` stream, ``cardsim.core.rng``), all of it at a deal:

1. the first player: ``randint(n_players)`` when ``first_player`` is random (R4, A15);
2. the deck: the card types in card-id order (``cards.py``: kind 0's juicy then ordinary cards,
   kind 1's, ..., then lone crows, flocks, scarecrows), ``shuffle``d; the result is the reserve
   pile from bottom (index 0) to top (last index) (R1, R3);
3. dealing: ``hand_size`` rounds of one card each, from the top of the pile, to the seats clockwise
   starting with the first player, while the pile lasts (R2).

A game replayed to break a final tie (``final_tie=replay``, A14) deals again the same way,
continuing the same stream.

Action decomposition. One action of R5 is a sequence of decisions, and every complete action the
rules allow is reachable. Several crows or scarecrows may be placed in any order (no canonical tree
order): an order such as "only trees with a higher index than the last" would make a random or
tie-breaking bot pile its later crows onto the higher seats, a seat bias that is not in the game.

- ACTION (a turn's action, or an extra turn's) lists, in ascending code order:
  ``cards.fruit_code(kind, seat, ordinary, juicy)`` for every orchard whose tree of that kind has
  no crow and no scarecrow (absent trees included) and every count of the kind's ordinary and
  juicy cards in hand with at least one card, and no juicy card without an ordinary one unless
  ``juicy_may_be_played_alone`` (R6-R9, A2: one decision, so a fruit play costs a bot one look);
  ``C_CROW + crow * 30 + tree`` (crow 0 lone, 1 flock, if in hand) for every existing tree of
  another player with no crow and no scarecrow (R11, A7);
  with a scarecrow in hand: ``C_PROTECT + kind`` for every own existing tree with no crow and no
  scarecrow (R16), ``C_SHOO_OUT + kind`` for every own attacked tree (R17), ``C_SHOO_TO + kind * 30
  + dest`` for every own attacked tree and every existing tree of another player with no crow and no
  scarecrow (R19, A9);
  ``C_DISCARD + type`` for every card type in hand; ``C_PASS`` when ``discard_min`` is 0 (R20, A12).
  In an extra turn that may be declined (``extra_turn_optional``, R18, A17) the list ends with
  ``C_DECLINE``: the turn then ends as usual (R21), so a bot weighs declining against every action.
- After a fruit play the cards join the tree (a new tree if none). If the play held a juicy card
  and crow cards lie on trees, one crow card (R10, A2) flies to the tree: JUICY_CROW lists
  ``C_JUICY_CROW + tree`` for every tree with a crow card (one crow: a forced decision); with
  ``juicy_attracts_own_crows`` false (A4 alternative) the player's own trees are left out, and a
  juicy card with crows only there counts as ordinary.
  With ``fruit_single_target`` false (A3 alternative), FRUIT_MORE follows: ``STOP`` or a fruit
  play of the same kind into an orchard not yet played into by this action (each part is checked
  like a fruit play of its own: A2 applies per part).
- CROW_MORE after a ``C_CROW``: ``STOP`` or another ``C_CROW`` as in ACTION (a tree that took a
  crow is no longer open to one).
- SCARECROW_MORE after a protect or a shoo-out: ``STOP`` or another scarecrow decision as in
  ACTION on an own tree not yet used by this action (``F_CTX_USED`` bit per kind; A8: one scarecrow
  per tree, each deals with one crow). A shoo-to ends the action and the turn at once (R19, A8,
  A11: ``shoo_to_ends_action``, the default), with no extra turn; under the old reading (false)
  SCARECROW_MORE follows it too, and the turn ends when the action stops. When the action stops
  with a shoo-out and no shoo-to, it earns one extra turn (R18); else the turn ends.
- DISCARD_MORE after a ``C_DISCARD``: ``STOP`` or ``C_DISCARD`` of a type not lower than the last
  (every multiset of cards once).

A phase with a single legal decision is applied at once without asking a bot (``core/kernel.py``).
After every decision the engine copies the hand of the seat to decide into ``F_ACTIVE_HAND``: a
bot's observation is the state's prefix up to it (A16: only one's own hand is private to see).

Extra turn (R18, A10): with the default reading the player acts again at once (no eating, no
drawing in between); with ``extra_turn_separate`` the end-of-turn steps 1-2 run first. An extra
turn that begins with an empty hand while the reserve pile is empty ends the game (R23, A10, A13:
``empty_extra_turn=ends_game``, end reason ``empty_hand_extra_turn``; crows do not eat again); with
``lost``, or while the pile lasts, it is lost and the turn ends (without the end-of-turn steps
again when they already ran). ``C_DECLINE`` ends the turn the same way (A17). ``extra_turns``
counts the extra turns taken: it is counted when one begins and moved to
``extra_turns_declined`` if the player declines it.

End of turn (R21): 1. every crow card on the active player's trees eats, trees in kind order (R12:
one fruit card, the crow leaves with the last; R13: the whole tree with the flock); 2. the player
draws up to ``hand_size`` from the top of the pile while it lasts (R22; the turn that empties it is
``reserve_out_turn``); 3. ``turns += 1``; the turn cap (kernel contract); the next seat clockwise.
Its turn starts: with no card in hand the game ends (R23): the crow cards on trees are counted
(``crows_left``), hands and crow and scarecrow cards go to the discard pile (R24), and the game is
scored (R25, R26).

A final tie with ``final_tie=replay`` (A14): the first game's scores, trees and counters are kept
(``F_SAVED``) and a new game is dealt; each replay is decided among the seats still tied (by R25,
R26 within them) until one is ahead. ``turns`` then counts the turns of every game played.

The trees are also kept as three bit sets (``F_FRUIT_TREES``, ``F_OPEN_TREES``,
``F_CROWED_TREES``: trees taking fruit, open to a crow card, with a crow card; cards.py), updated by
``sync_tree_bits`` wherever a tree's size, crow or scarecrow changes (or set to what it would
give, where the rules fix it: a fruit play, a crow card landing), so that a listing reads a
word where it read every tree (the reference derives them from its trees, and the lockstep test
compares them after every decision).

A state index computed from a seat, kind or card type is read through ``as_index``
(``core/bits.py``): none is negative, and numba's negative-index wraparound cost a compare and a
select at each such read or write.

Context fields ``F_CTX_*`` describe the action under way (``cards.py``); they are reset at the
start of every action. ``F_JUICY_OWN_CROWS`` and ``F_SHOO_TO_ENDS`` show the bots two rule
options (A4, A8) that change what a decision does.
"""

from numba import njit

from cardsim.core import layout as L
from cardsim.core.bits import as_index, copy_within, low_bit_index, popcount
from cardsim.core.jit import HOT_RULES_JIT, INLINE_JIT, RULES_JIT
from cardsim.core.kernel import end_turn_cap_reached, first_class_kernels
from cardsim.core.rng import randint, shuffle
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


# Dealing ---------------------------------------------------------------------------------------------


@njit(**RULES_JIT)
def stack_deck(state, rules):
    """The deck as card types in card-id order (cards.py) into the reserve area; its size. The
    deck holds at least one fruit card (fruit_kinds and fruit_per_kind are at least 1). Each
    card type's copies are one run, written by a loop LLVM vectorizes."""
    n = 0
    per_kind = rules[R.R_FRUIT_PER_KIND]
    juicy = min(rules[R.R_JUICY_PER_KIND], per_kind)  # the lowest indices of a kind (A1)
    for kind in range(rules[R.R_FRUIT_KINDS]):
        n = stack_copies(state, n, C.JUICY + kind, juicy)
        n = stack_copies(state, n, C.FRUIT + kind, per_kind - juicy)
    n = stack_copies(state, n, C.LONE_CROW, rules[R.R_LONE_CROWS])
    n = stack_copies(state, n, C.FLOCK, rules[R.R_FLOCKS])
    return stack_copies(state, n, C.SCARECROW, rules[R.R_SCARECROWS])


@njit(**HOT_RULES_JIT)
def stack_copies(state, n, card_type, copies):
    """``copies`` cards of ``card_type`` onto the deck of ``n`` cards (``stack_deck``)."""
    for i in range(copies):
        state[as_index(C.F_RESERVE + n + i)] = card_type
    return n + max(copies, 0)


@njit(**RULES_JIT)
def deal_table(state, rules, n_players, rng):
    """R1-R4: first player, shuffled deck as the reserve pile, hands dealt round by round."""
    state[L.H_END_REASON] = -1
    state[C.F_RESERVE_OUT_TURN] = -1
    state[C.F_JUICY_OWN_CROWS] = rules[R.R_JUICY_OWN_CROWS]  # for the bots (cards.py)
    state[C.F_SHOO_TO_ENDS] = rules[R.R_SHOO_TO_ENDS]
    reset_context(state)
    for seat in range(C.MAX_PLAYERS):
        for kind in range(C.MAX_KINDS):
            state[tree_at(seat, kind) + C.TREE_SENDER] = -1
    empty_table_bits(state)
    first = rules[R.R_FIRST_PLAYER]
    if first < 0:
        first = randint(rng, n_players)  # R4, A15
    state[L.H_FIRST] = first
    n = stack_deck(state, rules)
    shuffle(rng, state[C.F_RESERVE : C.F_RESERVE + n], n)  # R1
    state[C.F_RESERVE_LEFT] = n
    seat = first
    for _ in range(rules[R.R_HAND_SIZE] * n_players):  # R2: one card at a time, clockwise
        if state[C.F_RESERVE_LEFT] > 0:
            draw_card(state, seat, 0)  # emptied at the deal: turn 0
        seat = seat_after(seat, n_players)
    start_turn(state, rules, first, rng)


# Scoring ----------------------------------------------------------------------------------------------


@njit(**HOT_RULES_JIT)
def orchard(state, seat):
    """(fruit cards, largest tree, trees) of a seat's orchard (R25, R26)."""
    fruit = 0
    largest = 0
    trees = 0
    for kind in range(C.MAX_KINDS):
        size = state[tree_at(seat, kind) + C.TREE_SIZE]
        fruit += size
        largest = max(largest, size)
        trees += size > 0
    return fruit, largest, trees


@njit(**HOT_RULES_JIT)
def score_key(state, seat):
    """R25 score and the R26 tie-break, as one comparable number."""
    fruit, largest, trees = orchard(state, seat)
    return (fruit + largest) * 8 + trees


@njit(**RULES_JIT)
def top_seats(state, mask):
    """Bits of the seats in ``mask`` with the best (score, trees) (R25, R26)."""
    best = -1
    top = 0
    for seat in range(state[L.H_N_PLAYERS]):
        if mask >> seat & 1:
            key = score_key(state, seat)
            if key > best:
                best = key
                top = 0
            if key == best:
                top |= 1 << seat
    return top


# End of the game ---------------------------------------------------------------------------------------


@njit(**RULES_JIT)
def clear_table(state):
    """R24: hands, crow and scarecrow cards to the discard pile; the orchards' final counters."""
    state[C.F_CROWS_LEFT] = state[C.F_CROWS_ON_TREES]
    state[C.F_CROWS_ON_TREES] = 0
    for seat in range(state[L.H_N_PLAYERS]):
        for card_type in range(C.N_TYPES):
            state[C.F_DISCARD + discard_class(card_type)] += state[hand_at(seat, card_type)]
            state[hand_at(seat, card_type)] = 0
        state[hand_count_at(seat)] = 0
        for kind in range(C.MAX_KINDS):
            t = tree_at(seat, kind)
            if state[t + C.TREE_CROW] != C.NO_CROW:
                discard_crow(state, lift_crow(state, seat, kind))
            state[C.F_DISCARD + C.D_SCARECROW] += state[t + C.TREE_SCARECROW]
            state[t + C.TREE_SCARECROW] = 0
        fruit, largest, trees = orchard(state, seat)
        state[counter_at(seat, C.C_FRUIT_CARDS)] = fruit
        state[counter_at(seat, C.C_LARGEST_TREE)] = largest
        state[counter_at(seat, C.C_TREES)] = trees
    bare_table_bits(state)


@njit(**RULES_JIT)
def save_first_game(state):
    """final_tie=replay (A14): keep the first game's results before a replay is dealt."""
    for seat in range(state[L.H_N_PLAYERS]):
        fruit, largest, trees = orchard(state, seat)
        base = C.F_SAVED + seat * C.SAVED_LEN
        state[base + C.SAVED_SCORE] = fruit + largest
        state[base + C.SAVED_TREES] = trees
        for c in range(C.N_COUNTERS):
            state[base + C.SAVED_COUNTERS + c] = state[counter_at(seat, c)]
    state[C.F_SAVED_RESERVE_OUT_TURN] = state[C.F_RESERVE_OUT_TURN]
    state[C.F_SAVED_CROWS_LEFT] = state[C.F_CROWS_LEFT]


@njit(**RULES_JIT)
def replay_tie(state, rules, rng, tied):
    """Deal a new game among the same players to break a final tie (A14)."""
    if state[C.F_TIE_MASK] == 0:
        save_first_game(state)
    replays = state[C.F_TIE_REPLAYS] + 1
    for i in range(C.F_RESERVE_LEFT, C.F_HANDS + C.MAX_PLAYERS * C.N_TYPES):
        state[i] = 0  # public table and hands
    state[C.F_TIE_MASK] = tied  # public (cards.py): set after the table is cleared
    state[C.F_TIE_REPLAYS] = replays
    state[C.F_CROWS_LEFT] = 0
    state[L.H_OVER] = 0
    state[L.H_TRIGGERED] = 0
    state[C.F_EXTRA_TURNS] = 0
    deal_table(state, rules, state[L.H_N_PLAYERS], rng)
    show_active_hand(state)


@njit(**RULES_JIT)
def end_game(state, rules, rng, reason):
    """The game ends (R23, or the turn cap): R24, then a tie replay when the rules ask for one."""
    state[L.H_OVER] = 1
    state[L.H_END_REASON] = reason
    clear_table(state)


@njit(**RULES_JIT)
def still_tied(state, rules):
    """Seats to replay a finished game among (R26, A14), 0 when the result stands: only with
    ``final_tie=replay``, after an R23 end, when two or more seats are still tied."""
    if state[L.H_END_REASON] == L.END_TURN_CAP or rules[R.R_REPLAY_TIES] == 0:
        return 0
    mask = state[C.F_TIE_MASK]
    if mask == 0:
        mask = (1 << state[L.H_N_PLAYERS]) - 1
    tied = top_seats(state, mask)
    return tied if tied & (tied - 1) else 0


@njit(**RULES_JIT)
def game_over(state, rules, rng):
    """True once the game is over for good; a tie to replay deals the next game first (A14).
    (A loop, not a call from ``end_game``: numba compiles no mutual recursion.)"""
    while state[L.H_OVER]:
        tied = still_tied(state, rules)
        if tied == 0:
            return True
        replay_tie(state, rules, rng, tied)
    return False


# Turn flow ---------------------------------------------------------------------------------------------


@njit(**RULES_JIT)
def start_turn(state, rules, seat, rng):
    """A seat's turn begins; with no card in hand the game ends (R23)."""
    state[L.H_SEAT] = seat
    state[L.H_PHASE] = C.PHASE_ACTION
    reset_context(state)
    if state[as_index(hand_count_at(seat))] == 0:
        end_game(state, rules, rng, C.END_EMPTY_HAND)


@njit(**INLINE_JIT)  # into end_turn and finish_extra_turn: a call less per turn
def pass_turn(state, rules, rng):
    """R21 step 3: the turn is over; the cap safeguard, else the next seat clockwise."""
    state[L.H_TURNS] += 1
    state[C.F_EXTRA_TURNS] = 0
    reset_context(state)
    if end_turn_cap_reached(state):
        end_game(state, rules, rng, L.END_TURN_CAP)
        return
    start_turn(state, rules, seat_after(state[L.H_SEAT], state[L.H_N_PLAYERS]), rng)


@njit(**INLINE_JIT)  # into its callers (fruit_part_done and so step, stop, ...): 3 arrays a call
def end_turn(state, rules, rng):
    """R21: crows eat, the player draws, the turn passes."""
    seat = state[L.H_SEAT]
    crows_eat(state, seat)
    draw_up(state, rules, seat)
    pass_turn(state, rules, rng)


@njit(**RULES_JIT)
def extra_turn(state, rules, rng):
    """R18, A10, A13: a shoo-out earned the player a new action. Begun with an empty hand, it ends
    the game when the reserve pile is empty too (``empty_extra_turn=ends_game``, R23), else it is
    lost and the turn ends."""
    seat = state[L.H_SEAT]
    separate = rules[R.R_EXTRA_SEPARATE] != 0
    if separate:
        crows_eat(state, seat)
        draw_up(state, rules, seat)
    if state[as_index(hand_count_at(seat))] == 0:
        if rules[R.R_EMPTY_EXTRA_ENDS] and state[C.F_RESERVE_LEFT] == 0:
            end_game(state, rules, rng, C.END_EMPTY_EXTRA_TURN)  # R23: crows eat no more
        else:
            finish_extra_turn(state, rules, rng)
        return
    state[C.F_EXTRA_TURNS] += 1
    count(state, seat, C.C_EXTRA_TURNS, 1)
    reset_context(state)
    state[L.H_PHASE] = C.PHASE_ACTION


@njit(**RULES_JIT)
def finish_extra_turn(state, rules, rng):
    """The turn ends without (more of) the extra turn: R21, whose steps 1-2 already ran before
    it under ``extra_turn_separate``."""
    if rules[R.R_EXTRA_SEPARATE]:
        pass_turn(state, rules, rng)
    else:
        end_turn(state, rules, rng)


@njit(**RULES_JIT)
def decline_extra_turn(state, rules, rng):
    """R18, A17: the player declines the extra turn just begun; the turn ends as usual."""
    seat = state[L.H_SEAT]
    count(state, seat, C.C_EXTRA_TURNS, -1)
    count(state, seat, C.C_EXTRA_TURNS_DECLINED, 1)
    finish_extra_turn(state, rules, rng)


# Legal decisions ---------------------------------------------------------------------------------------


@njit(**INLINE_JIT)  # into list_action and legal's FRUIT_MORE
def list_fruit_plays(state, rules, seat, kinds, out, n):
    """Fruit play codes of the kinds in the bit set ``kinds`` (kinds the hand can play,
    ``playable_kinds``): every orchard taking the fruit and not yet used (R7, R8, A3), every
    count the hand allows (R6, R9, A2), ascending."""
    fruit_mask = state[C.F_FRUIT_TREES]
    used = state[C.F_CTX_USED]
    while kinds:
        kind = low_bit_index(kinds)  # the lowest kind left
        kinds &= kinds - 1
        orchards = kind_orchards(fruit_mask, used, kind)
        n = list_kind_plays(state, rules, seat, kind, orchards, out, n)
    return n


@njit(**INLINE_JIT)  # into list_fruit_plays
def list_kind_plays(state, rules, seat, kind, orchards, out, n):
    """Fruit play codes of ``kind``, a kind the hand can play: every orchard in the bit set
    ``orchards`` (bit per target seat), every count the hand allows (R6, R9, A2).

    The card counts of a play are bit sets too (bit ``c``: ``c`` cards), listed like the trees:
    a loop whose length LLVM cannot compute is not vectorized, where the loops over
    ``range(n_juicy + 1)`` were, with ~30 instructions of set-up for runs of one or two codes."""
    n_ordinary = state[as_index(hand_at(seat, C.FRUIT + kind))]
    n_juicy = state[as_index(hand_at(seat, C.JUICY + kind))]
    ordinary_counts = (2 << n_ordinary) - 2  # 1..n_ordinary
    if n_juicy == 0:  # the usual hand: one code per orchard and ordinary count
        while orchards:
            first = orchard_first_code(kind, orchards)
            orchards &= orchards - 1
            n = list_bits(ordinary_counts, first, C.COUNT_BASE, out, n)
        return n
    juicy_counts = (2 << n_juicy) - 1  # 0..n_juicy
    alone_counts = juicy_counts - 1 if rules[R.R_JUICY_ALONE] != 0 else 0  # A2: 1..n_juicy
    while orchards:
        first = orchard_first_code(kind, orchards)
        orchards &= orchards - 1
        n = list_bits(alone_counts, first, 1, out, n)  # juicy cards without an ordinary one
        for ordinary in range(1, n_ordinary + 1):
            n = list_bits(juicy_counts, first + ordinary * C.COUNT_BASE, 1, out, n)
    return n


@njit(**HOT_RULES_JIT)
def orchard_first_code(kind, orchards):
    """The fruit code of no card of ``kind`` into the lowest orchard of ``orchards``: a play's
    code adds its card counts (``cards.fruit_code``)."""
    return C.C_FRUIT + (kind * C.MAX_PLAYERS + low_bit_index(orchards)) * C.PLAY_SPAN


@njit(**HOT_RULES_JIT)
def others_open_trees(state, seat):
    """Bit per tree of another player than ``seat`` open to a crow card (R11, R19, A7, A9)."""
    return state[C.F_OPEN_TREES] & ~seat_trees(seat)


@njit(**HOT_RULES_JIT)
def kind_orchards(fruit_mask, used, kind):
    """The orchards (bit per target seat) a play of ``kind`` may go to: taking the fruit
    (``F_FRUIT_TREES``) and not yet used by this action (A3)."""
    return (fruit_mask >> (kind * C.MAX_PLAYERS)) & SEAT_BITS & ~used


@njit(**HOT_RULES_JIT)
def list_bits(mask, first, scale, out, n):
    """``first + i * scale`` for every bit ``i`` of ``mask`` (trees, card counts), ascending."""
    while mask:
        out[as_index(n)] = first + low_bit_index(mask) * scale  # the lowest bit left
        mask &= mask - 1
        n += 1
    return n


@njit(**RULES_JIT)
def list_crows(state, seat, open_mask, out, n):
    """``C_CROW`` codes: each crow card in hand onto each open tree of another player (R11, A7;
    ``open_mask`` from ``others_open_trees``)."""
    for crow in range(2):
        if state[as_index(hand_at(seat, C.LONE_CROW + crow))] > 0:
            n = list_bits(open_mask, C.C_CROW + crow * C.N_TREES, 1, out, n)
    return n


@njit(**INLINE_JIT)  # into list_action and legal's SCARECROW_MORE: the call passed 2 arrays
def list_scarecrows(state, seat, open_mask, out, n):
    """Scarecrow codes on own trees this action has not used (R16, R17, R19, A8, A9;
    ``open_mask`` from ``others_open_trees``)."""
    if state[as_index(hand_at(seat, C.SCARECROW))] == 0:
        return n
    own = seat * C.MAX_KINDS
    protectable = (state[C.F_OPEN_TREES] >> own) & KIND_BITS & ~state[C.F_CTX_USED]
    attacked = (state[C.F_CROWED_TREES] >> own) & KIND_BITS  # used trees have no crow left
    for kind in range(C.MAX_KINDS):  # R16
        out[as_index(n)] = C.C_PROTECT + kind  # kept only if legal (no branch)
        n += protectable >> kind & 1
    for kind in range(C.MAX_KINDS):  # R17
        out[as_index(n)] = C.C_SHOO_OUT + kind
        n += attacked >> kind & 1
    while attacked:  # R19, A9
        kind = low_bit_index(attacked)
        attacked &= attacked - 1
        n = list_bits(open_mask, C.C_SHOO_TO + kind * C.N_TREES, 1, out, n)
    return n


@njit(**RULES_JIT)
def list_discards(held, from_type, out, n):
    """``C_DISCARD`` codes for each type in hand (``held_types``) from ``from_type`` on (R20)."""
    for card_type in range(from_type, C.N_TYPES):
        out[as_index(n)] = C.C_DISCARD + card_type  # kept only if in hand (no branch)
        n += held >> card_type & 1
    return n


@njit(**INLINE_JIT)  # into legal (and so into step)
def list_action(state, rules, seat, out):
    """Every first part of an action (R5), ascending codes."""
    open_mask = others_open_trees(state, seat)
    held = held_types(state, seat)
    n = list_fruit_plays(state, rules, seat, playable_kinds(rules, held), out, 0)
    n = list_crows(state, seat, open_mask, out, n)
    n = list_scarecrows(state, seat, open_mask, out, n)
    n = list_discards(held, 0, out, n)
    if rules[R.R_DISCARD_MIN] == 0:
        out[as_index(n)] = C.C_PASS  # A12 alternative
        n += 1
    if state[C.F_EXTRA_TURNS] > 0 and rules[R.R_EXTRA_OPTIONAL]:
        out[as_index(n)] = C.C_DECLINE  # R18, A17: the extra turn is a right
        n += 1
    return n


@njit(**RULES_JIT)
def list_juicy_crows(state, rules, out):
    """Every crow card on a tree may answer a juicy card (R10), except on the player's own trees
    when ``juicy_attracts_own_crows`` is false (A4)."""
    crowed = state[C.F_CROWED_TREES]
    if rules[R.R_JUICY_OWN_CROWS] == 0:
        crowed &= ~seat_trees(state[L.H_SEAT])
    return list_bits(crowed, C.C_JUICY_CROW, 1, out, 0)


@njit(**INLINE_JIT)  # into step and deal
def legal(state, rules, out):
    """The pending decision's legal codes in ``out``, ascending (STOP first); returns how many."""
    seat = state[L.H_SEAT]
    phase = state[L.H_PHASE]
    if phase == C.PHASE_ACTION:
        return list_action(state, rules, seat, out)
    if phase == C.PHASE_JUICY_CROW:
        return list_juicy_crows(state, rules, out)
    out[0] = C.STOP
    if phase == C.PHASE_FRUIT_MORE:
        held = held_types(state, seat)
        kind = playable_kinds(rules, held) & (1 << state[C.F_CTX_KIND])  # the action's
        return list_fruit_plays(state, rules, seat, kind, out, 1)
    if phase == C.PHASE_CROW_MORE:
        return list_crows(state, seat, others_open_trees(state, seat), out, 1)
    if phase == C.PHASE_SCARECROW_MORE:
        return list_scarecrows(state, seat, others_open_trees(state, seat), out, 1)
    held = held_types(state, seat)
    return list_discards(held, state[C.F_CTX_LAST], out, 1)  # PHASE_DISCARD_MORE


# Applying decisions ------------------------------------------------------------------------------------


@njit(**INLINE_JIT)  # into play_fruit (step) and attract_crow, with the end_turn inlined in it
def fruit_part_done(state, rules, rng):
    """After a fruit batch (and its crow): one tree per action (A3), else another orchard or stop."""
    if rules[R.R_SINGLE_TARGET]:
        end_turn(state, rules, rng)
    else:
        state[C.F_CTX_TARGET] = -1
        state[L.H_PHASE] = C.PHASE_FRUIT_MORE


@njit(**INLINE_JIT)  # into advance, its only caller: a call less per fruit play
def play_fruit(state, rules, rng, ordinary, juicy):
    """R6-R10: the cards join the target tree; a juicy card then attracts a crow card."""
    seat = state[L.H_SEAT]
    kind = state[C.F_CTX_KIND]
    target = state[C.F_CTX_TARGET]
    take_from_hand(state, seat, C.FRUIT + kind, ordinary)
    take_from_hand(state, seat, C.JUICY + kind, juicy)
    state[as_index(C.F_JUICY_SEEN + kind)] += juicy  # face up: every player saw them (A16)
    state[as_index(tree_at(target, kind) + C.TREE_SIZE)] += ordinary + juicy
    # the tree took fruit, so it has no crow and no scarecrow (R8): it exists now and is open to
    # crow cards (R11); taking fruit and crowed, it stays as it was (``sync_tree_bits``' result)
    state[C.F_OPEN_TREES] |= 1 << (target * C.MAX_KINDS + kind)
    count(state, seat, C.C_JUICY_PLAYED, juicy)
    if target == seat:
        count(state, seat, C.C_FRUIT_PLAYED_OWN, ordinary + juicy)
    else:
        count(state, seat, C.C_FRUIT_PLAYED_OTHERS, ordinary + juicy)
        count(state, target, C.C_FRUIT_RECEIVED, ordinary + juicy)
    if juicy > 0 and crows_attracted(state, rules, seat) > 0:
        state[L.H_PHASE] = C.PHASE_JUICY_CROW  # R10; one crow on trees is a forced decision
    else:
        fruit_part_done(state, rules, rng)


@njit(**RULES_JIT)
def attract_crow(state, rules, rng, source):
    """R10: the chosen crow card flies from its tree to the tree the juicy card was played on."""
    seat = state[L.H_SEAT]
    crow = lift_crow(state, source // C.MAX_KINDS, source % C.MAX_KINDS)
    land_crow(state, crow, seat, state[C.F_CTX_TARGET], state[C.F_CTX_KIND])
    count(state, seat, C.C_JUICY_ATTRACTIONS, 1)
    fruit_part_done(state, rules, rng)


@njit(**RULES_JIT)
def play_crow(state, code):
    """R11: a crow card from the hand onto another player's tree."""
    seat = state[L.H_SEAT]
    crow = (code - C.C_CROW) // C.N_TREES
    tree = (code - C.C_CROW) % C.N_TREES
    take_from_hand(state, seat, C.LONE_CROW + crow, 1)
    land_crow(state, C.LONE + crow, seat, tree // C.MAX_KINDS, tree % C.MAX_KINDS)
    state[C.F_CROWS_ON_TREES] += 1
    count(state, seat, C.C_CROWS_PLAYED if crow == 0 else C.C_FLOCKS_PLAYED, 1)
    state[C.F_CTX_LAST] = tree
    state[L.H_PHASE] = C.PHASE_CROW_MORE


@njit(**RULES_JIT)
def play_scarecrow(state, rules, rng, code):
    """R15-R19: one scarecrow onto an own tree, to protect it, shoo out or shoo to; a shoo-to ends
    the action and the turn at once (R19, A8, A11) unless ``shoo_to_ends_action`` is false."""
    seat = state[L.H_SEAT]
    take_from_hand(state, seat, C.SCARECROW, 1)
    if code < C.C_SHOO_OUT:  # R16: it stays on the tree
        kind = code - C.C_PROTECT
        state[as_index(tree_at(seat, kind) + C.TREE_SCARECROW)] = 1
        sync_tree_bits(state, seat, kind)
        count(state, seat, C.C_PROTECTS, 1)
    elif code < C.C_SHOO_TO:  # R17: scarecrow and crow card to the discard pile
        kind = code - C.C_SHOO_OUT
        discard_crow(state, lift_crow(state, seat, kind))
        state[C.F_CROWS_ON_TREES] -= 1
        state[C.F_DISCARD + C.D_SCARECROW] += 1
        state[C.F_CTX_SHOO_OUT] = 1
        count(state, seat, C.C_SHOO_OUTS, 1)
    else:  # R19: the crow card moves to another player's tree; the scarecrow is discarded
        kind = (code - C.C_SHOO_TO) // C.N_TREES
        dest = (code - C.C_SHOO_TO) % C.N_TREES
        owner = dest // C.MAX_KINDS
        land_crow(state, lift_crow(state, seat, kind), seat, owner, dest % C.MAX_KINDS)
        state[C.F_DISCARD + C.D_SCARECROW] += 1
        state[C.F_CTX_SHOO_TO] = 1
        count(state, seat, C.C_SHOO_TOS, 1)
        count(state, owner, C.C_CROWS_REDIRECTED_ONTO, 1)
        if rules[R.R_SHOO_TO_ENDS]:
            end_turn(state, rules, rng)  # R19: no scarecrow after it, no extra turn; R21 follows
            return
    state[C.F_CTX_LAST] = kind
    state[C.F_CTX_USED] |= 1 << kind
    state[L.H_PHASE] = C.PHASE_SCARECROW_MORE


@njit(**RULES_JIT)
def discard_card(state, code):
    """R20: one hand card to the discard pile."""
    seat = state[L.H_SEAT]
    card_type = code - C.C_DISCARD
    take_from_hand(state, seat, card_type, 1)
    state[as_index(C.F_DISCARD + discard_class(card_type))] += 1
    if C.JUICY <= card_type < C.LONE_CROW:  # the discard pile is public (A16)
        state[as_index(C.F_JUICY_SEEN + card_type - C.JUICY)] += 1
    count(state, seat, C.C_CARDS_DISCARDED, 1)
    state[C.F_CTX_LAST] = card_type
    state[L.H_PHASE] = C.PHASE_DISCARD_MORE


@njit(**RULES_JIT)
def stop(state, rules, rng):
    """STOP ends a multi-part action; a scarecrow action may earn an extra turn (R18, R19)."""
    if state[L.H_PHASE] == C.PHASE_SCARECROW_MORE:
        if state[C.F_CTX_SHOO_OUT] and not state[C.F_CTX_SHOO_TO]:
            extra_turn(state, rules, rng)
            return
    end_turn(state, rules, rng)


@njit(**HOT_RULES_JIT)
def show_active_hand(state):
    """The hand of the seat to decide, where its bot's observation ends (cards.py). One
    ``memcpy`` of 13 words, which LLVM writes as three moves: the loop it replaces stayed 26
    scalar loads and stores (the two ranges are in one array, so LLVM could not tell they do
    not overlap)."""
    copy_within(state, C.F_ACTIVE_HAND, hand_at(state[L.H_SEAT], 0), C.N_TYPES)


@njit(**INLINE_JIT)  # into step
def apply(state, rules, code, rng):
    """Apply one legal decision and advance the game to the next pending decision."""
    advance(state, rules, code, rng)
    show_active_hand(state)


@njit(**INLINE_JIT)  # into apply (and so into step)
def advance(state, rules, code, rng):
    """``apply`` without refreshing the active hand."""
    if code == C.STOP or code == C.C_PASS:
        stop(state, rules, rng)
    elif code < C.C_CROW:  # a fruit play: kind, orchard, ordinary and juicy cards
        # the mask changes no fruit code's offset but tells LLVM it is not negative, so the
        # divisions below compile without Python's floor fix-ups for a negative dividend
        orchard, cards = divmod((code - C.C_FRUIT) & FRUIT_OFFSET_MASK, C.PLAY_SPAN)
        target = orchard % C.MAX_PLAYERS
        state[C.F_CTX_KIND] = orchard // C.MAX_PLAYERS
        state[C.F_CTX_TARGET] = target
        state[C.F_CTX_USED] |= 1 << target
        play_fruit(state, rules, rng, cards // C.COUNT_BASE, cards % C.COUNT_BASE)
    elif code < C.C_PROTECT:
        play_crow(state, code)
    elif code < C.C_DISCARD:
        play_scarecrow(state, rules, rng, code)
    elif code < C.C_PASS:
        discard_card(state, code)
    elif code < C.C_DECLINE:
        attract_crow(state, rules, rng, code - C.C_JUICY_CROW)
    else:
        decline_extra_turn(state, rules, rng)


# The kernel contract ---------------------------------------------------------------------------------


@njit(**RULES_JIT)
def setup(state, rules, n_players, rng):
    """Deal a new game into a zeroed ``state`` (R1-R4)."""
    state[L.H_N_PLAYERS] = n_players
    deal_table(state, rules, n_players, rng)
    show_active_hand(state)


@njit(**RULES_JIT)
def deal(state, rules, n_players, rng, out):
    """``setup``, then the legal decisions of the first real choice (core loop contract)."""
    setup(state, rules, n_players, rng)
    if state[L.H_OVER] and game_over(state, rules, rng):
        return 0
    n = legal(state, rules, out)
    return n if n > 1 else step(state, rules, out[0], rng, out)


@njit(**INLINE_JIT)  # into the play loop (and deal): the call passed four arrays
def step(state, rules, decision, rng, out):
    """``apply``, then forced decisions until the next real choice (core loop contract)."""
    while True:
        apply(state, rules, decision, rng)
        # the game runs on (the usual case) without a call: game_over loops only while it is over
        if state[L.H_OVER] and game_over(state, rules, rng):
            return 0
        n = legal(state, rules, out)
        if n > 1:
            return n
        decision = out[0]


@njit(**RULES_JIT)
def observe(state, seat, buf):
    """The public table (A16) and the seat's own hand, into ``buf`` (for tools: the play loop
    hands bots the state's prefix, whose active hand is the deciding seat's)."""
    for i in range(C.PUBLIC_END):
        buf[i] = state[i]
    for card_type in range(C.N_TYPES):
        buf[C.OBS_HAND + card_type] = state[hand_at(seat, card_type)]
    return buf


@njit(**RULES_JIT)
def finalize(state, rules, game_row, seat_rows):
    """Scores, ranks, winners (R25, R26, A14) and counters of a finished game."""
    n_players = state[L.H_N_PLAYERS]
    replays = state[C.F_TIE_REPLAYS]
    seat_extra = len(L.SEAT_COLUMNS)
    for seat in range(n_players):
        row = seat_rows[seat]
        if replays == 0:
            fruit, largest, trees = orchard(state, seat)
            row[L.S_SCORE] = fruit + largest
            for c in range(C.N_COUNTERS):
                row[seat_extra + c] = state[counter_at(seat, c)]
        else:  # the first game's results; the replays only decide the win
            base = C.F_SAVED + seat * C.SAVED_LEN
            row[L.S_SCORE] = state[base + C.SAVED_SCORE]
            for c in range(C.N_COUNTERS):
                row[seat_extra + c] = state[base + C.SAVED_COUNTERS + c]
    for seat in range(n_players):  # rank: 1 + seats with a better (score, trees) pair (R26)
        key = seat_rows[seat, L.S_SCORE] * 8 + seat_rows[seat, seat_extra + C.C_TREES]
        better = 0
        for other in range(n_players):
            if seat_rows[other, L.S_SCORE] * 8 + seat_rows[other, seat_extra + C.C_TREES] > key:
                better += 1
        seat_rows[seat, L.S_RANK] = better + 1
        seat_rows[seat, L.S_WIN] = 1 if better == 0 else 0
    extra = len(L.GAME_COLUMNS)
    if replays == 0:
        game_row[extra + 0] = state[C.F_RESERVE_OUT_TURN]
        game_row[extra + 1] = state[C.F_CROWS_LEFT]
    else:
        game_row[extra + 0] = state[C.F_SAVED_RESERVE_OUT_TURN]
        game_row[extra + 1] = state[C.F_SAVED_CROWS_LEFT]
        winners = state[C.F_TIE_MASK]
        if state[L.H_END_REASON] != L.END_TURN_CAP:  # an R23 end: the replay decides
            winners = top_seats(state, winners)
        n_winners = 0
        for seat in range(n_players):
            n_winners += winners >> seat & 1
        for seat in range(n_players):
            if winners >> seat & 1:
                seat_rows[seat, L.S_RANK] = 1
                seat_rows[seat, L.S_WIN] = 1
            elif seat_rows[seat, L.S_RANK] == 1:
                seat_rows[seat, L.S_RANK] = n_winners + 1
                seat_rows[seat, L.S_WIN] = 0
    game_row[extra + 2] = replays


PLAY_KERNELS = first_class_kernels(deal, step, observe, finalize)
"""(deal, step, observe, finalize) for ``cardsim.core.kernel``."""

KERNELS = (setup, legal, apply, observe, finalize)
"""The rules one call at a time, for tests and tools that drive a game from Python."""
