"""Fruit Picking's determinizer (``games/fruit_picking/determinize.py``): a determinized state is a
legal game whose observation is the seat's, its stack holds the same cards as the real one with
the known bottom kept (fruit-picking.md A17, R17, V2/A14), the unknown order is uniform, and
nothing hidden leaks into it."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest
from scipy import stats

from cardsim.core import kernel
from cardsim.core import layout as L
from cardsim.core.options import resolve_options
from cardsim.core.rng import CHANCE_STREAM, stream_start
from cardsim.games.fruit_picking import cards as C
from cardsim.games.fruit_picking import engine
from cardsim.games.fruit_picking import rules as R
from cardsim.games.fruit_picking.determinize import determinize
from tests.test_fruit_picking_invariants import _check_cards, _check_farm, _check_seeds

SETUP, LEGAL, APPLY, _, _ = engine.KERNELS

# (rule options, players): the default, V1 and V2 with their options, per-card fruits and the
# set-cards tie-break (A9 reads who owns which card), a short stack
CONFIGS = [
    ({}, 2),
    ({}, 4),
    ({"variant_market_operation": True, "market_op_cost": 0}, 3),
    ({"variant_market_operation": True, "market_op_pays_from": "storage"}, 2),
    ({"variant_umbrella": True, "umbrella_per_kind": 2, "tiebreak_fruits": "set_cards"}, 3),
    ({"market_fruits": tuple(range(1, 7)) * 5, "variant_market_operation": True}, 4),
    ({"market_cards_per_kind": 2, "variant_beginners": True}, 2),
]


def _rng(seed: int) -> np.ndarray:
    return np.array([stream_start(seed, 0, CHANCE_STREAM)], np.uint64)


def _new_game(given: dict, n: int, game: int):
    values = resolve_options(R.OPTIONS, given, "fruit-picking")
    rules = R.encode(values, n)
    state = np.zeros(C.STATE_LEN, np.int32)
    state[L.H_CAP_TURNS] = values["turn_cap"] * n
    chance = np.array([stream_start(7, game, CHANCE_STREAM)], np.uint64)
    SETUP(state, rules, n, chance)
    return values, rules, state, chance


def _stack(state) -> list[int]:
    return [int(c) for c in state[C.F_STACK : C.F_STACK + state[C.F_STACK_LEFT]]]


def _known_bottom(state) -> int:
    """How many cards at the bottom of the real stack were put there by V2 (A14)."""
    count = 0
    for card in _stack(state):
        if state[C.F_CARD_OWNER + card] > -2:
            break
        count += 1
    return count


def _play_out(state, rules, chance, values, n, rnd) -> None:
    """``step`` the determinized state to the end with random decisions, checking it on the way."""
    buf = np.zeros(C.MAX_LEGAL, np.int32)
    while not state[L.H_OVER]:
        count = LEGAL(state, buf)
        assert count >= 1
        APPLY(state, rules, int(buf[rnd.randrange(count)]), chance)
        kernel.end_turn_cap_reached(state)
        _check_seeds(state, values, n)
        _check_cards(state, values, n)


def _decision_points(given, n, game, rnd):
    """The states of a seeded random game at each of its real choices."""
    values, rules, state, chance = _new_game(given, n, game)
    buf = np.zeros(C.MAX_LEGAL, np.int32)
    while not state[L.H_OVER]:
        count = LEGAL(state, buf)
        if count > 1:
            yield values, rules, state.copy(), buf[:count].copy()
        APPLY(state, rules, int(buf[rnd.randrange(count)]), chance)
        kernel.end_turn_cap_reached(state)


@pytest.mark.parametrize(("given", "n"), CONFIGS)
def test_determinized_states_are_legal_and_look_the_same(given, n):
    rnd = random.Random(3)
    out = np.zeros(C.STATE_LEN, np.int32)
    buf = np.zeros(C.MAX_LEGAL, np.int32)
    checked = 0
    for game in range(2):
        for i, (values, rules, real, legal) in enumerate(_decision_points(given, n, game, rnd)):
            determinize(real[: C.PUBLIC_END].copy(), rules, _rng(i), out)
            np.testing.assert_array_equal(out[: C.PUBLIC_END], real[: C.PUBLIC_END])
            _check_seeds(out, values, n)
            _check_cards(out, values, n)  # conservation: every card in one place
            _check_farm(out, values)
            # A17: the stack holds the same cards; V2's known bottom is where it was (A14)
            assert sorted(_stack(out)) == sorted(_stack(real))
            known = _known_bottom(real)
            assert _stack(out)[:known] == _stack(real)[:known]
            count = LEGAL(out, buf)
            assert buf[:count].tolist() == legal.tolist()
            if i % 25 == 0:  # step plays it on to the end like a real game
                _play_out(out.copy(), rules, _rng(i), values, n, rnd)
            checked += 1
    assert checked > 30


def test_v2_games_put_known_cards_under_the_stack():
    """The V2 configurations above do reach positions with a known bottom (else the test of the
    known bottom would check nothing)."""
    rnd = random.Random(3)
    most = 0
    for given, n in CONFIGS[2:4]:
        for game in range(3):
            for *_, real, _ in _decision_points(given, n, game, rnd):
                most = max(most, _known_bottom(real))
    assert most >= 2


def _small_position(given: dict) -> tuple:
    """A 2-player game with one market slot and one card per kind: 4 cards in the stack."""
    base = {"market_cards_per_kind": 1, "market_slots": 1, **given}
    values, rules, state, _ = _new_game(base, 2, 5)
    return rules, state


def test_unknown_stack_order_is_uniform():
    """Every order of a 4-card stack is equally likely (chi-square over the 24 orders)."""
    rules, real = _small_position({})
    assert real[C.F_STACK_LEFT] == 4
    cards = sorted(_stack(real))
    orders = {perm: i for i, perm in enumerate(itertools.permutations(cards))}
    counts = np.zeros(len(orders), np.int64)
    out = np.zeros(C.STATE_LEN, np.int32)
    view = real[: C.PUBLIC_END].copy()
    rng = _rng(11)
    for _ in range(4800):
        determinize(view, rules, rng, out)
        counts[orders[tuple(_stack(out))]] += 1
    assert stats.chisquare(counts).pvalue > 1e-3


def test_known_bottom_stays_and_the_rest_is_uniform():
    """A card put under the stack by V2 (A14) stays at the bottom; the others are shuffled."""
    rules, real = _small_position({"variant_market_operation": True})
    stack = _stack(real)
    bottom = stack[0]
    real[C.F_CARD_OWNER + bottom] = -2  # the first card put under the stack
    real[C.F_BOTTOM_PUTS] = 1
    rest = sorted(stack[1:])
    orders = {perm: i for i, perm in enumerate(itertools.permutations(rest))}
    counts = np.zeros(len(orders), np.int64)
    out = np.zeros(C.STATE_LEN, np.int32)
    rng = _rng(12)
    for _ in range(1200):
        determinize(real[: C.PUBLIC_END].copy(), rules, rng, out)
        got = _stack(out)
        assert got[0] == bottom
        counts[orders[tuple(got[1:])]] += 1
    assert stats.chisquare(counts).pvalue > 1e-3


@pytest.mark.parametrize(("given", "n"), CONFIGS[:3])
def test_no_leak_of_the_hidden_stack_order(given, n):
    """Permuting the real stack's unknown part changes nothing the determinizer writes."""
    rnd = random.Random(5)
    a = np.zeros(C.STATE_LEN, np.int32)
    b = np.zeros(C.STATE_LEN, np.int32)
    for i, (_, rules, real, _) in enumerate(_decision_points(given, n, 1, rnd)):
        other = real.copy()
        known = _known_bottom(real)
        left = int(real[C.F_STACK_LEFT])
        hidden = other[C.F_STACK + known : C.F_STACK + left]
        hidden[:] = hidden[::-1]  # the seat cannot tell this order from the real one
        other[C.F_COUNTERS :] = rnd.randrange(100)  # nor the counters
        determinize(real[: C.PUBLIC_END].copy(), rules, _rng(i), a)
        determinize(other[: C.PUBLIC_END].copy(), rules, _rng(i), b)
        np.testing.assert_array_equal(a, b)
