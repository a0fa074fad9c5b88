"""Piepmatz's end (piepmatz.md End of the game, R29-R31, A16, A18; Scoring, R32-R36, A20): the
final discards, the game's end and its scores.

Compiled helpers of ``engine.py``, whose docstring states the engine's contract; every rule
cites ``piepmatz.md``.
"""

from numba import njit

from cardsim.core import layout as L
from cardsim.core.jit import HOT_RULES_JIT, RULES_JIT
from cardsim.games.piepmatz import cards as C
from cardsim.games.piepmatz import rules as R
from cardsim.games.piepmatz.state import (
    PAIR_BITS,
    collect,
    hand_card,
    hand_len,
    hand_remove,
    pair_mask,
    popcount,
    seat_at,
    whole,
)

# Scoring (R32-R36) ------------------------------------------------------------------------------------


@njit(**HOT_RULES_JIT)
def counted_mask(state, rules, seat, species):
    """The birds of a species that count for its majority (A20: all, or the unpaired ones)."""
    mask = state[seat_at(seat, C.COLLECTION + species)]
    if rules[R.R_PAIRS_IN_MAJORITY]:
        return mask
    return mask & ~pair_mask(mask)


@njit(**RULES_JIT)
def score_game(state, rules):
    """R32-R35 into the score and the final counters of every seat."""
    n_players = state[L.H_N_PLAYERS]
    for seat in range(n_players):
        seeds = 0
        for v in range(C.SEED_VALUES):
            seeds += (v + 1) * state[C.F_PILES + seat * C.SEED_VALUES + v]
        pairs = 0
        birds = 0
        for species in range(C.MAX_SPECIES):
            mask = state[seat_at(seat, C.COLLECTION + species)]
            pairs += popcount(mask & (mask >> 1) & PAIR_BITS)
            held = popcount(mask)
            birds += held
            state[C.F_COUNTERS + seat * C.N_COUNTERS + C.C_BIRDS_SPECIES + species] = held
        base = C.F_COUNTERS + seat * C.N_COUNTERS
        state[base + C.C_BIRDS] = birds
        state[base + C.C_PAIRS] = pairs
        state[base + C.C_POINTS_SEEDS] = seeds
        state[base + C.C_POINTS_PAIRS] = pairs * rules[R.R_PAIR_POINTS]
    for species in range(C.MAX_SPECIES):
        most = 0
        for seat in range(n_players):
            most = max(most, popcount(counted_mask(state, rules, seat, species)))
        if most == 0:
            continue
        for seat in range(n_players):
            mask = counted_mask(state, rules, seat, species)
            if popcount(mask) != most:
                continue
            points = 0
            for bit in range(C.BIRDS_PER_SPECIES):
                if mask >> bit & 1:
                    points += rules[R.R_BIRD_POINTS + bit // 2]
            base = C.F_COUNTERS + seat * C.N_COUNTERS
            state[base + C.C_MAJORITIES] += 1
            state[base + C.C_POINTS_MAJORITIES] += points
    for seat in range(n_players):
        base = C.F_COUNTERS + seat * C.N_COUNTERS
        state[C.F_SCORE + seat] = (
            state[base + C.C_POINTS_SEEDS]
            + state[base + C.C_POINTS_MAJORITIES]
            + state[base + C.C_POINTS_PAIRS]
        )


@njit(**RULES_JIT)
def finish_game(state, rules, reason):
    """R31 (the hands left after the discards join the collections), then scoring; game over."""
    for seat in range(state[L.H_N_PLAYERS]):
        for i in range(hand_len(state, seat)):
            collect(state, seat, hand_card(state, seat, i))
            state[C.F_HANDS + seat * C.MAX_HAND + i] = 0
        state[C.F_HAND_LEN + seat] = 0
        state[seat_at(seat, C.HAND_COUNT)] = 0
        for species in range(C.MAX_SPECIES):
            state[seat_at(seat, C.HAND_KNOWN + species)] = 0
    score_game(state, rules)
    state[L.H_OVER] = 1
    state[L.H_END_REASON] = reason


@njit(**HOT_RULES_JIT)
def discards_due(state, rules, seat):
    """R31, A16: cards ``seat`` still discards (it keeps hand_size - final_discard)."""
    keep = rules[R.R_HAND_SIZE] - rules[R.R_FINAL_DISCARD]
    return max(0, hand_len(state, seat) - keep)


@njit(**RULES_JIT)
def next_discarder(state, rules, reason, start):
    """The first seat from turn-order position ``start`` with discards due (a DISCARD decision),
    or, when none is left, the end of the game."""
    n_players = state[L.H_N_PLAYERS]
    for i in range(start, n_players):
        seat = (state[L.H_FIRST] + i) % n_players
        if discards_due(state, rules, seat) > 0:
            state[L.H_SEAT] = seat
            state[L.H_PHASE] = C.PHASE_DISCARD
            state[C.F_LAST_DISCARD] = -1
            for species in range(C.MAX_SPECIES):  # its own discards, none yet
                state[C.F_ACTIVE_DISCARDED + species] = 0
            return
    finish_game(state, rules, reason)


@njit(**RULES_JIT)
def end_reason_of(state):
    return C.END_BIRDS if state[C.F_TRIGGER] == C.TRIGGER_BIRDS else C.END_FEEDER


@njit(**RULES_JIT)
def discard(state, rules, bird):
    """R31: one card of the final discard, secret until every seat is done."""
    seat = whole(state[L.H_SEAT])
    hand_remove(state, seat, bird, False)
    state[C.F_DISCARDED] += 1
    state[C.F_LAST_DISCARD] = bird
    species = whole(bird) // C.BIRDS_PER_SPECIES  # the discarder's own view (R31)
    state[C.F_ACTIVE_DISCARDED + species] |= 1 << (whole(bird) % C.BIRDS_PER_SPECIES)
    if discards_due(state, rules, seat) == 0:
        position = (seat - state[L.H_FIRST]) % state[L.H_N_PLAYERS]
        next_discarder(state, rules, end_reason_of(state), position + 1)


@njit(**RULES_JIT)
def turn_cap_end(state, rules):
    """The safeguard ended the game: no bot is asked, each seat discards its lowest codes."""
    for seat in range(state[L.H_N_PLAYERS]):
        for _ in range(discards_due(state, rules, seat)):
            hand_remove(state, seat, hand_card(state, seat, 0), False)
            state[C.F_DISCARDED] += 1
    finish_game(state, rules, L.END_TURN_CAP)
