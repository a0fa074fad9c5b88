"""Pajarracos between the actions: the deal (pajarracos.md Setup, R1-R4), the end of a turn
and the extra turn (R18, R21, A10, A13, A17), the end of the game and scoring (End of the game
and Scoring: the game ends at a turn begun with no card in hand, R23; hands and crow cards go to
the discard pile, R24; orchards scored with the tie-break, R25, R26; a final tie replayed, A14).

Compiled helpers of ``engine.py`` (whose docstring states the engine's contract).
"""

from numba import njit

from cardsim.core import layout as L
from cardsim.core.bits import as_index, copy_within
from cardsim.core.jit import HOT_RULES_JIT, INLINE_JIT, RULES_JIT
from cardsim.core.kernel import end_turn_cap_reached
from cardsim.core.rng import randint, shuffle
from cardsim.games.pajarracos import cards as C
from cardsim.games.pajarracos import rules as R
from cardsim.games.pajarracos.state import (
    bare_table_bits,
    count,
    counter_at,
    crows_eat,
    discard_class,
    discard_crow,
    draw_card,
    draw_up,
    empty_table_bits,
    hand_at,
    hand_count_at,
    lift_crow,
    reset_context,
    seat_after,
    tree_at,
)

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


@njit(**HOT_RULES_JIT)
def show_active_hand(state):
    """The hand of the seat to decide, where its bot's observation ends (cards.py). One
    ``memcpy`` of 13 words, which LLVM writes as three moves: the loop it replaces stayed 26
    scalar loads and stores (the two ranges are in one array, so LLVM could not tell they do
    not overlap)."""
    copy_within(state, C.F_ACTIVE_HAND, hand_at(state[L.H_SEAT], 0), C.N_TYPES)
