"""Invariants of Piepmatz checked after every step of hypothesis-driven games (seeds, player
counts and rule options drawn too), on the compiled engine (``deal``/``step``):

- every bird of the game is conserved across bird deck, queue, hands, rows, collections, the
  crows' victims and the final discards; every feeder card across feeder deck, seed and bad-card
  columns, scoring piles, the squirrels' losses, the bad cards resolved and those the full column
  turned away (R27);
- the bad-card column is never longer than the seed column while the feeder deck is not empty
  (piepmatz.md, invariant under the pseudocode), and its cards fill positions 1.. without gaps;
- every legal code belongs to the pending phase, codes ascend and are distinct;
- the bot's observation does not change when the hidden information does (other hands, the
  decks' order): a bot sees what a player at the table sees (A15, A22);
- every game ends, within a bound of steps set by the turn cap.
"""

from __future__ import annotations

import random

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardsim.core import kernel
from cardsim.core import layout as L
from cardsim.core.options import resolve_options
from cardsim.core.rng import CHANCE_STREAM, stream_start
from cardsim.games.piepmatz import cards as C
from cardsim.games.piepmatz import engine
from cardsim.games.piepmatz import rules as R
from cardsim.games.piepmatz.reference import decode

PHASE_OF = {
    "play": C.PHASE_PLAY,
    "no_keep": C.PHASE_KEEP,
    "keep": C.PHASE_KEEP,
    "crow": C.PHASE_CROW,
    "draw": C.PHASE_DRAW,
    "draw_deck": C.PHASE_DRAW,
    "discard": C.PHASE_DISCARD,
}


@st.composite
def rule_options(draw) -> tuple[dict, int]:
    """Rule option values (piepmatz.md Parameters, ranges of rules.py) and a player count."""
    n = draw(st.integers(2, 4))
    hand = draw(st.integers(1, 6))  # with at least 30 birds: every drawn setup can be dealt
    given = {
        "perches": draw(st.one_of(st.just("auto"), st.integers(1, 4))),
        "species": draw(st.integers(4, 6)),
        "strengths": draw(st.integers(5, 6)),
        "hand_size": hand,
        "queue_size": draw(st.integers(0, 4)),
        "seed_column_size": draw(st.integers(1, 6)),
        "max_bad_cards_in_column": draw(st.integers(0, 6)),
        "seed_counts": ",".join(str(draw(st.integers(4, 20))) for _ in range(3)),
        "crows": draw(st.integers(2, 6)),
        "squirrels": draw(st.integers(0, 6)),
        "squirrel_steal": draw(st.integers(0, 4)),
        "final_discard": draw(st.integers(0, hand)),
        "take_lone_bad_card": draw(st.booleans()),
        "bad_cards_attached": draw(st.booleans()),
        "keep_option_after_chain": draw(st.booleans()),
        "promote_by": draw(st.sampled_from(["strength", "egg_value"])),
        "bird_exhaustion": draw(st.sampled_from(["play_on", "trigger_end"])),
        "end_trigger": draw(st.sampled_from(["attempted_draw", "deck_emptied"])),
        "pairs_count_for_majority": draw(st.booleans()),
        "public_scoring_piles": draw(st.booleans()),
        "squirrel_reveal": draw(st.sampled_from(["victim_and_drawer", "public"])),
        "first_player": draw(st.one_of(st.just("random"), st.integers(0, n - 1))),
        "turn_cap": draw(st.integers(1, 60)),
    }
    return given, n


def birds_in_game(rules) -> int:
    return (
        (rules[R.R_SPECIES] - (rules[R.R_REMOVED_SPECIES] != R.NO_REMOVAL))
        * 2
        * rules[R.R_STRENGTHS]
    )


def feeder_in_game(rules) -> int:
    return int(sum(rules[R.R_SEEDS : R.R_SEEDS + 3]) + rules[R.R_CROWS] + rules[R.R_SQUIRRELS])


def seat(state, s: int, field: int) -> int:
    return int(state[C.F_SEATS + s * C.SEAT_LEN + field])


def counter(state, s: int, name: str) -> int:
    return int(state[C.F_COUNTERS + s * C.N_COUNTERS + C.SEAT_COUNTERS.index(name)])


def birds_on_table(state, n: int) -> int:
    """Bird cards in the decks, queue, hands, rows and collections."""
    total = int(
        state[C.F_BIRDS_LEFT] + state[C.F_QUEUE_LEN] + state[C.F_HAND_LEN : C.F_HAND_LEN + n].sum()
    )
    for p in range(state[C.F_PERCHES]):
        row = state[C.row_base(p) : C.row_base(p) + state[C.F_ROW_LEN + p]]
        total += int((row >= 0).sum())
    for s in range(n):
        for species in range(C.MAX_SPECIES):
            total += bin(seat(state, s, C.COLLECTION + species)).count("1")
    return total


def check_state(state, rules, n: int) -> None:
    discarded = int(state[C.F_DISCARDED])
    crows = sum(counter(state, s, "crows_taken") for s in range(n))
    if state[L.H_PHASE] == C.PHASE_CROW and not state[L.H_OVER]:
        crows -= 1  # the pending crow has not chosen its bird yet
    assert birds_on_table(state, n) + crows + discarded == birds_in_game(rules)
    bad_len = int(state[C.F_BAD_LEN])
    places = [int(c) for c in state[C.F_BAD_COL : C.F_BAD_COL + bad_len]]
    feeder = int(state[C.F_FEEDER_LEFT] + state[C.F_SEED_LEN]) + sum(c != C.NO_CARD for c in places)
    for s in range(n):
        feeder += seat(state, s, C.PILE_SIZE) + seat(state, s, C.PILE_LOST)
        feeder += seat(state, s, C.CROWS_TAKEN) + seat(state, s, C.SQUIRRELS_TAKEN)
        assert seat(state, s, C.PILE_SIZE) == int(
            state[C.F_PILES + 3 * s : C.F_PILES + 3 * s + 3].sum()
        )
    assert feeder + state[C.F_BAD_REMOVED] == feeder_in_game(rules)
    # empty places below the top bad card only where bad cards stay attached (A8's option)
    empty = (C.NO_CARD,) if rules[R.R_BAD_ATTACHED] else ()
    assert all(c in (C.CROW, C.SQUIRREL, *empty) for c in places[:-1])
    assert all(c in (C.CROW, C.SQUIRREL) for c in places[-1:])
    assert sum(c != C.NO_CARD for c in places) <= rules[R.R_MAX_BAD]
    assert all(state[C.F_BAD_COL + i] == 0 for i in range(bad_len, C.MAX_COLUMN))
    if state[C.F_FEEDER_LEFT] > 0 and rules[R.R_MAX_BAD] <= rules[R.R_COLUMN_SIZE]:
        assert bad_len <= state[C.F_SEED_LEN]  # piepmatz.md: the invariant for tests
    assert state[C.F_SEED_LEN] <= rules[R.R_COLUMN_SIZE]


def check_legal(state, legal, n_legal) -> None:
    codes = [int(x) for x in legal[:n_legal]]
    assert codes == sorted(set(codes)) and codes
    for code in codes:
        assert PHASE_OF[decode(code)[0]] == state[L.H_PHASE]


def check_hidden(state, n: int, rng: random.Random) -> None:
    """Scramble what the deciding seat cannot know; its observation stays the same."""
    me = int(state[L.H_SEAT])
    before = engine.observe(state, me, np.zeros(C.OBS_LEN, np.int32)).copy()
    other = state.copy()
    for s in range(n):
        if s != me:
            h = C.F_HANDS + s * C.MAX_HAND
            other[h : h + C.MAX_HAND] = [rng.randrange(C.N_BIRDS) for _ in range(C.MAX_HAND)]
    other[C.F_FEEDER : C.F_FEEDER + C.MAX_FEEDER] = rng.randrange(1, 6)
    other[C.F_BIRD_DECK : C.F_BIRD_DECK + C.N_BIRDS] = rng.randrange(C.N_BIRDS)
    after = engine.observe(other, me, np.zeros(C.OBS_LEN, np.int32))
    np.testing.assert_array_equal(before, after)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rule_options(), st.integers(0, 2**32), st.integers(0, 10_000))
def test_invariants_after_every_step(options, seed, game):
    given_values, n = options
    values = resolve_options(R.OPTIONS, given_values, "piepmatz")
    rules = R.encode(values, n)
    state = np.zeros(C.STATE_LEN, np.int32)
    state[L.H_CAP_TURNS] = values["turn_cap"] * n
    chance = np.array([stream_start(seed, game, CHANCE_STREAM)], np.uint64)
    legal = np.zeros(C.MAX_LEGAL, np.int32)
    pick = random.Random(seed)
    n_legal = engine.deal(state, rules, n, chance, legal)
    steps = 0
    while not state[L.H_OVER]:
        check_state(state, rules, n)
        if state[L.H_PHASE] == C.PHASE_DISCARD:  # secret: the public hand counts do not move
            assert (
                sum(seat(state, s, C.HAND_COUNT) for s in range(n))
                == state[C.F_HAND_LEN : C.F_HAND_LEN + n].sum() + state[C.F_DISCARDED]
            )

        check_legal(state, legal, n_legal)
        check_hidden(state, n, pick)
        n_legal = engine.step(state, rules, int(legal[pick.randrange(n_legal)]), chance, legal)
        kernel.end_turn_cap_reached(state)
        steps += 1
        assert steps < 40 * values["turn_cap"] * n + 200, "the game does not end"
    check_state(state, rules, n)
    assert state[C.F_DISCARDED] <= n * values["final_discard"]
    assert state[L.H_END_REASON] in range(len(C.END_REASONS))
    if state[L.H_END_REASON] in (C.END_FEEDER, C.END_BIRDS):
        assert state[L.H_TRIGGERED] and state[C.F_TRIGGER] != C.TRIGGER_NONE
        assert state[L.H_TURNS] % n == 0  # R30: the round is completed
