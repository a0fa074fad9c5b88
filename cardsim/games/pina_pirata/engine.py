"""Piña Pirata compiled engine: deal, step, observe, finalize (``cardsim.core.kernel`` contract).

Every rule cites ``pina-pirata.md``; layout and codes are in ``cards.py``, the rules vector in
``rules.py``. A game is all its rounds (M1 Cruise: ``cruise_rounds`` rounds; M2 Treasure Hunt: until
a player holds 1 + ``map_pieces_to_win`` map pieces).

Resumable task stack. A play can set off several tiles (oldest first, R15), a tile can ask for
decisions (which card, which pirate, which opponent), draws set off T3/T24, and T35 opens a window
between every two steps. So the engine keeps a stack of tasks in the state (``K_*`` in cards.py,
four ints each): ``advance`` executes the top task until one needs a decision, lists its legal codes
and returns; ``step`` hands the decision to that same task and runs on (``advance`` again). A task
that needs sub-steps (T23's two draws, then a discard) records its sub-step, pushes the sub-tasks
above itself and yields to the loop. Single legal decisions are applied at once.

A turn (``start_turn``, or a TURN_START task at a round's start) pushes [WINDOW, MAIN, TURN_EXTRAS,
TURN_END] (a WINDOW only while T35 is face up, TURN_EXTRAS only while T26 or T36 is). A play
pushes, from the top: WINDOW (after the play), then for each tile it triggers, oldest first, TILE
and WINDOW, then OPT_EXTRAS (T8/T15 grants, A21; only while T8 or T15 is face up or a grant is
pending). Tiles turn face up only between rounds, so a task left out would have done nothing. A draw pushes its T3/T24 tasks (oldest first) then WINDOW.
TURN_EXTRAS gives T26's and T36's once-a-turn extra play in tile age order (A24, A29).

Chance (the game's ``rng`` stream), in order of use:

1. the first dealer, ``randint(n_players)``, when ``first_dealer`` is random (R3);
2. the Adventure pile: the pool's tiles minus the fixed ones, ascending, ``shuffle``d (R2); the top
   (last) tiles go into play after the fixed tiles, then one map piece per seat 0.. (M2, A9);
3. each round: card ids ``0..N-1`` ``shuffle``d into the deck (top = last); ``hand_size`` rounds of
   one card to each seat from the dealer's left clockwise (R4); the Action pile's card (and the
   second pile's, T37); T39's Voodoo cards from the first player clockwise (A33);
4. during play: reshuffles of the Action pile(s) into an empty deck (R8, A7), T5's and T30's random
   choices (A36, A37, ``randint`` over the candidate cards in id order), T27 on T37 (the second
   pile is shuffled into the deck, A40), Cruise tile resets (A13: like 2.).

Canonical orders of legal decisions: ascending code (cards.py ``C_*``).

Files, along the rules document: ``state.py`` (the table: Hands, piles, deck, what each seat has
seen), ``matching.py`` (what may be played onto what, with the match tiles), ``tiles.py`` (the
tiles in play, triggered oldest first), ``plays.py`` (a play and a draw), ``tile_effects.py``
(what each tile does), ``rounds.py`` (turns, rounds, the game modes); here the kernels (deal,
step, observe, finalize), ``advance`` over the task stack and scoring (``finalize``).
"""

import numpy as np
from numba import njit

from cardsim.core import layout as L
from cardsim.core.bits import as_index, copy_within, low_bit_index
from cardsim.core.jit import HOT_RULES_JIT, INLINE_JIT
from cardsim.core.kernel import first_class_kernels
from cardsim.core.rng import randint
from cardsim.games.pina_pirata import cards as C
from cardsim.games.pina_pirata import rules as R
from cardsim.games.pina_pirata.rounds import (
    new_round,
    start_turn,
    task_main,
    task_opt_extras,
    task_round_end,
    task_turn_extras,
    turn_end,
)
from cardsim.games.pina_pirata.state import (
    T33,
    J,
    deck_shown,
    hand_n,
    hand_word,
    pile_top,
    pop,
    seen_by_all,
    sf,
    tile_on,
    top_task,
)
from cardsim.games.pina_pirata.tile_effects import (
    task_drawn,
    task_tile,
    task_window,
)
from cardsim.games.pina_pirata.tiles import (
    tile_setup,
)


@njit(**HOT_RULES_JIT)  # inlined: called once, from ``advance``, every turn
def show(state):
    """The public fields a bot reads that the rules derive (top cards, T13's deck top, T33's
    face-up cards) and the deciding seat's Hand (``F_ACTIVE_HAND``)."""
    state[C.F_TOP] = pile_top(state, 0)
    state[C.F_TOP + 1] = pile_top(state, 1) if state[C.F_N_PILES] == 2 else -1
    state[C.F_DECK_SHOWN] = deck_shown(state)
    seat = state[L.H_SEAT]
    for w in range(C.HAND_WORDS):
        state[C.F_SHOWN_BITS + w] = state[as_index(C.F_HAND_BITS + seat * C.HAND_WORDS + w)]
    # the seat's row of F_HAND_CARDS, kept by to_hand and from_hand: ~10 vector moves where
    # expanding the bits took ~150 instructions a decision (callgrind, 4 players, 2026-12-02)
    copy_within(state, C.F_ACTIVE_HAND, C.F_HAND_CARDS + seat * C.MAX_CARDS, C.MAX_CARDS)
    if tile_on(state, T33):  # else every SH_SHOWN is -1 already (sync_tiles)
        for s in range(state[L.H_N_PLAYERS]):
            state[sf(s, C.SH_SHOWN)] = -1
            if hand_n(state, s) == 1:  # T33: the only card of a one-card Hand, face up
                for w in range(C.HAND_WORDS):
                    x = hand_word(state, s, w)
                    if x:
                        card = w * 32 + low_bit_index(x & -x)
                        state[sf(s, C.SH_SHOWN)] = card
                        seen_by_all(state, card, C.SEEN_HAND + s)
    # what the seat has seen out of its sight (F_SEEN), copied only when its row or the last
    # one copied holds an entry; and its map tiles
    seen = state[as_index(C.F_SEEN_N + seat)]
    if seen or state[C.F_SEEN_VIEW_N]:
        copy_within(state, C.F_SEEN_VIEW, C.F_SEEN + seat * C.MAX_CARDS, C.MAX_CARDS)
        state[C.F_SEEN_VIEW_N] = seen
    state[C.F_OWN_MAPS] = state[as_index(C.F_MAP_BITS + 2 * seat)]
    state[C.F_OWN_MAPS + 1] = state[as_index(C.F_MAP_BITS + 2 * seat + 1)]


@njit(**INLINE_JIT)  # into ``step``, which the play loop inlines (and ``deal``, for tests)
def advance(state, rules, rng, out, code, observed):
    """Apply decision ``code`` to the top task (``code`` < 0: none pending, as after ``setup``)
    and advance to the next real decision (two or more legal codes; any decision with the
    internal ``R_STOP_FORCED`` set): their count, 0 at the end. ``observed``: bring the fields
    a bot reads up to date (``show``) at that decision; False for ``step_blind`` only.

    One loop for both: every task is called from here alone, always with an int64 ``code`` (numba
    compiles a function once per argument types, and a decision read from ``legal`` is int32, a
    ``-1`` in the source ``Literal[int](-1)``: each was a copy of every task), and a task that
    applies a decision returns 0, so a forced decision goes round the loop as the next ``code``.
    The commonest tasks first (a call passes each array as seven words).

    Inlined with ``step`` into the play loop (``run_block``): a call a decision passed four arrays
    as 29 words, and its entry stored ~20 values the loop reuses to the stack, ~140 instructions
    a decision (callgrind, 4-player random turn: 1,313 -> 1,201 instructions, 2026-12-02)."""
    while state[L.H_OVER] == 0:
        kind = state[as_index(top_task(state))]
        if kind == C.K_MAIN:
            n = task_main(state, rules, rng, out, code)
        elif kind == C.K_TURN_END:
            pop(state)
            turn_end(state, rules, rng)
            n = 0
        elif kind == C.K_TILE:
            n = task_tile(state, rules, rng, out, code)
        elif kind == C.K_WINDOW:
            n = task_window(state, rules, rng, out, code)
        elif kind == C.K_OPT_EXTRAS:
            n = task_opt_extras(state, rules, rng, out, code)
        elif kind == C.K_TURN_EXTRAS:
            n = task_turn_extras(state, rules, rng, out, code)
        elif kind == C.K_DRAWN:
            n = task_drawn(state, rules, rng, out, code)
        elif kind == C.K_TURN_START:
            pop(state)
            start_turn(state)
            n = 0
        else:
            n = task_round_end(state, rules, rng, out, code)
        code = -1
        if n == 1 and not rules[R.R_STOP_FORCED]:
            code = np.int64(out[0])
        elif n >= 1:
            if observed:
                show(state)
            return n
    return 0


@njit(**J)
def setup(state, rules, n_players, rng):
    """A new game (R1-R5) up to its first turn; ``state`` zeroed."""
    state[L.H_N_PLAYERS] = n_players
    state[L.H_END_REASON] = -1
    k = rules[R.R_PIRATE_TYPES]
    n = 0
    for a in range(k):
        for b in range(a + 1, k):
            state[C.F_MASKS + n] = (1 << a) | (1 << b)
            n += 1
    for p in range(k):
        for _ in range(rules[R.R_SOLITARY]):
            state[C.F_MASKS + n] = 1 << p
            n += 1
    state[C.F_N_CARDS] = n
    for card in range(n):
        m = state[C.F_MASKS + card]
        while m:  # the card's one or two pirates, not a test per pirate (once per game)
            low = m & -m
            m ^= low
            p = low_bit_index(low)
            state[C.F_PIRATE_BITS + p * C.HAND_WORDS + (card >> 5)] |= 1 << (card & 31)
    for card in range(C.MAX_CARDS):
        state[C.F_LOC + card] = C.LOC_NONE
    state[C.F_WINNER] = -1
    state[C.F_GAME_WINNER] = -1
    state[C.F_REVEALED] = -1
    dealer = rules[R.R_FIRST_DEALER]
    if dealer < 0:
        dealer = randint(rng, n_players)  # R3
    state[C.F_DEALER] = dealer
    tile_setup(state, rules, rng)
    new_round(state, rules, rng)
    state[L.H_FIRST] = state[C.F_ACTIVE]


@njit(**J)
def deal(state, rules, n_players, rng, out):
    setup(state, rules, n_players, rng)
    # ``advance`` with no decision pending, its ``code`` an int64 (not ``Literal[int](-1)``), as
    # ``step`` calls it: both inline the same compiled function
    return advance(state, rules, rng, out, np.int64(-1), True)


@njit(**J)
def begin(state, rules, n_players, rng, out):
    """The play loop's ``deal``: a new game up to its first turn (``setup``), the rest left to
    ``step``: one legal code, ``C_BEGIN`` (no decision), which the loop applies as it applies
    every single legal decision, without asking a bot (so the same games). The loop then holds
    one inlined copy of ``advance``, in ``step``: a second one in ``deal`` cost ~5-9 s of a cold
    compile (alternated with the first, 2026-12-02). ``deal`` lists the first decision itself,
    for tests and the engine's own callers."""
    setup(state, rules, n_players, rng)
    out[0] = C.C_BEGIN
    return 1


@njit(**INLINE_JIT)  # into the play loop, with ``advance``
def step(state, rules, decision, rng, out):
    return advance(state, rules, rng, out, np.int64(decision), True)


@njit(**INLINE_JIT)  # into the play loop of bots that read no observation (RULESET.blind_step)
def step_blind(state, rules, decision, rng, out):
    """``step`` without ``show``: the same game, but the fields only bots read (top cards,
    T13's and T33's face-up cards, the deciding Hand) are left as they were. The play loop plays
    it when no bot of the loop reads its observation (``random``): ~36 of ~880 instructions a
    4-player turn (callgrind, 2026-12-04)."""
    return advance(state, rules, rng, out, np.int64(decision), False)


@njit(**J)
def observe(state, seat, buf):
    return buf  # the observation is the state's prefix (obs_is_state_prefix)


@njit(**J)
def finalize(state, rules, game_row, seat_rows):
    """Scores (M2: map pieces; M1: rounds won), ranks, winners and counters of a finished game."""
    n_players = state[L.H_N_PLAYERS]
    cruise = rules[R.R_CRUISE]
    extra = len(L.SEAT_COLUMNS)
    for s in range(n_players):
        row = seat_rows[s]
        row[L.S_SCORE] = state[sf(s, C.SH_ROUNDS_WON)] if cruise else state[sf(s, C.SH_MAPS)]
        for c in range(C.N_COUNTERS):
            row[extra + c] = state[C.F_COUNTERS + s * C.N_COUNTERS + c]
        row[extra + C.C_ROUNDS_WON] = state[sf(s, C.SH_ROUNDS_WON)]
        row[extra + C.C_MAP_PIECES] = state[sf(s, C.SH_MAPS)]
    for s in range(n_players):
        better = 0
        for o in range(n_players):
            if seat_rows[o, L.S_SCORE] > seat_rows[s, L.S_SCORE]:
                better += 1
        seat_rows[s, L.S_RANK] = better + 1
        if cruise:
            seat_rows[s, L.S_WIN] = 1 if better == 0 and seat_rows[s, L.S_SCORE] > 0 else 0
        else:
            seat_rows[s, L.S_WIN] = 1 if s == state[C.F_GAME_WINNER] else 0
    g = len(L.GAME_COLUMNS)
    for c in range(C.N_GAME_COUNTERS):
        game_row[g + c] = state[C.F_GAME_COUNTERS + c]


PLAY_KERNELS = first_class_kernels(begin, step, observe, finalize)
"""(deal, step, observe, finalize) for ``cardsim.core.kernel``: ``begin`` deals."""
