"""Pajarracos compiled engine: deal, legal decisions, apply, end of turn, observe, finalize.

Every rule cites ``pajarracos.md``. The state layout and decision codes are in ``cards.py``; the
rules vector in ``rules.py``; the play loop that calls these kernels is ``cardsim.core.kernel``.
Here: the kernels and the decisions of an action (what is legal, applying it, R5-R20); the
state moves every rule is made of are in ``state.py``, the deal, the end of a turn and the end of
the game with its scoring (R1-R4, R18, R21-R26) in ``turns.py``.

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
from cardsim.core.bits import as_index, low_bit_index
from cardsim.core.jit import HOT_RULES_JIT, INLINE_JIT, RULES_JIT
from cardsim.core.kernel import first_class_kernels
from cardsim.games.pajarracos import cards as C
from cardsim.games.pajarracos import rules as R
from cardsim.games.pajarracos.state import (
    FRUIT_OFFSET_MASK,
    KIND_BITS,
    SEAT_BITS,
    count,
    counter_at,
    crows_attracted,
    discard_class,
    discard_crow,
    hand_at,
    held_types,
    land_crow,
    lift_crow,
    playable_kinds,
    seat_trees,
    sync_tree_bits,
    take_from_hand,
    tree_at,
)
from cardsim.games.pajarracos.turns import (
    deal_table,
    decline_extra_turn,
    end_turn,
    extra_turn,
    game_over,
    orchard,
    show_active_hand,
    top_seats,
)

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
