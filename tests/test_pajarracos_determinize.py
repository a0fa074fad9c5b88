"""The Pajarracos determinizer (``games/pajarracos/determinize.py``, docs/search.md): a state drawn
from one seat's observation is a legal state that seat cannot tell from the real one, its unseen
cards dealt uniformly (pajarracos.md A16), and it plays on to a legal end.

Games are seeded engine games with random decisions; the determinizer is asked at decision points
of several player counts and rule options.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from functools import partial

import numpy as np
import pytest
from scipy import stats

from cardsim.core import layout as L
from cardsim.core.options import resolve_options
from cardsim.core.registry import get
from cardsim.games.pajarracos import cards as C
from cardsim.games.pajarracos import engine
from cardsim.games.pajarracos import rules as R
from cardsim.games.pajarracos.determinize import determinize
from tests import determinize_games as G
from tests.test_pajarracos_invariants import check_legal, check_state, hand

CASES = [  # (players, rule overrides)
    (3, {}),
    (4, {"extra_turn_optional": False, "shoo_to_ends_action": False}),
    (5, {"juicy_per_kind": 3, "fruit_single_target": False, "juicy_attracts_own_crows": False}),
    (6, {"extra_turn_separate": True, "discard_min": 0, "empty_extra_turn": "lost"}),
    (
        3,
        {
            "fruit_kinds": 2,
            "fruit_per_kind": 3,
            "lone_crows": 1,
            "flocks": 0,
            "scarecrows": 1,
            "final_tie": "replay",
            "hand_size": 2,
        },
    ),
]


def values_of(players: int, overrides: dict) -> dict:
    return resolve_options(R.OPTIONS, {"turn_cap": 60, **overrides}, "pajarracos")


Game = partial(G.EngineGame, engine, C, R)
legal_codes = partial(G.legal_codes, engine, C)
drawn = partial(G.drawn, determinize, C)


def decision_states(values: dict, players: int, games: int, every: int = 3):
    return G.decision_states(engine, C, R, values, players, games, every)


def play_out(state, rules, values, n, pick: random.Random) -> None:
    """``step`` plays the state to the end, legal at every step (tests/test_pajarracos_invariants)."""
    G.play_out(
        engine,
        C,
        state,
        rules,
        pick,
        lambda st: check_state(st, values, n),
        lambda st, legal: check_legal(st, legal, values),
    )


@pytest.mark.parametrize("players,overrides", CASES)
def test_determinized_state_is_legal_same_view_and_plays_on(players, overrides):
    """A16: the table and the seat's hand are kept, the state passes the
    invariant checks (every card once: check_cards), the same decisions are pending, and ``step``
    plays it to a legal end."""
    values = values_of(players, overrides)
    pick = random.Random(11)
    checked = 0
    for real, rules in decision_states(values, players, games=3):
        out = drawn(real, rules, checked)
        check_state(out, values, players)
        np.testing.assert_array_equal(out[: C.F_SCRATCH], real[: C.F_SCRATCH])
        assert not out[C.F_SCRATCH : C.OBS_LEN].any()
        seat = int(real[L.H_SEAT])
        assert hand(out, seat) == hand(real, seat)
        assert legal_codes(out, rules) == legal_codes(real, rules)
        if checked % 4 == 0:
            play_out(out, rules, values, players, pick)
        checked += 1
    assert checked >= 5


def hidden_permuted(real, rng: random.Random) -> np.ndarray:
    """``real`` with its unseen cards (the other hands and the reserve) shuffled among those
    places, sizes kept: a change the deciding seat cannot observe."""
    st = real.copy()
    n, seat = int(st[L.H_N_PLAYERS]), int(st[L.H_SEAT])
    left = int(st[C.F_RESERVE_LEFT])
    cards = list(st[C.F_RESERVE : C.F_RESERVE + left])
    others = [s for s in range(n) if s != seat]
    for s in others:
        for t, k in enumerate(hand(st, s)):
            cards += [t] * k
    rng.shuffle(cards)
    st[C.F_RESERVE : C.F_RESERVE + left] = cards[:left]
    taken = left
    for s in others:
        size = int(st[C.seat_base(s) + C.HAND_COUNT])
        h = Counter(cards[taken : taken + size])
        taken += size
        st[C.F_HANDS + s * C.N_TYPES : C.F_HANDS + (s + 1) * C.N_TYPES] = [
            h[t] for t in range(C.N_TYPES)
        ]
    return st


def test_no_leak_permuting_unseen_cards_changes_nothing():
    """Same rng seed, a real state whose unseen cards were permuted: the same drawn state."""
    values = values_of(4, {})
    shuffler = random.Random(3)
    changed = 0
    for real, rules in decision_states(values, 4, games=2, every=5):
        other = hidden_permuted(real, shuffler)
        np.testing.assert_array_equal(other[: C.OBS_LEN], real[: C.OBS_LEN])
        changed += not np.array_equal(other, real)
        np.testing.assert_array_equal(drawn(other, rules, 42), drawn(real, rules, 42))
    assert changed > 5


def multiset_probability(hand_counts: dict, pool: Counter, size: int) -> float:
    """Multivariate hypergeometric: a hand of ``size`` drawn from ``pool`` is ``hand_counts``."""
    total = sum(pool.values())
    ways = math.prod(math.comb(pool[t], hand_counts.get(t, 0)) for t in pool)
    return ways / math.comb(total, size)


def test_unseen_cards_are_dealt_uniformly():
    """A small position (3 players, 2-card hands, a 10-card deck): an opponent's hand follows the
    multivariate hypergeometric law of the unseen cards, and so does the reserve's top card
    (chi-square, 4,000 draws)."""
    values = values_of(
        3,
        {
            "fruit_kinds": 2,
            "fruit_per_kind": 3,
            "juicy_per_kind": 1,
            "lone_crows": 2,
            "flocks": 1,
            "scarecrows": 1,
            "hand_size": 2,
        },
    )
    g = Game(values, 3, 0)
    g.step(random.Random(1))  # one decision played: a card on the table, a draw
    real, rules = g.state.copy(), g.rules
    seat = int(real[L.H_SEAT])
    opponent = (seat + 1) % 3
    first = drawn(real, rules, 0)
    pool = Counter()  # the unseen cards: the other hands and the reserve, as drawn
    left = int(real[C.F_RESERVE_LEFT])
    pool.update(int(t) for t in first[C.F_RESERVE : C.F_RESERVE + left])
    for s in range(3):
        if s != seat:
            pool.update({t: k for t, k in enumerate(hand(first, s)) if k})
    size = int(real[C.seat_base(opponent) + C.HAND_COUNT])
    hands, tops = Counter(), Counter()
    draws = 4000
    for i in range(draws):
        out = drawn(real, rules, 1000 + i)
        hands[tuple(hand(out, opponent))] += 1
        tops[int(out[C.F_RESERVE + left - 1])] += 1
    observed, expected = [], []
    for key, k in hands.items():
        observed.append(k)
        expected.append(draws * multiset_probability(dict(enumerate(key)), pool, size))
    assert abs(sum(expected) - draws) < 1e-6 * draws, "a drawn hand the law does not allow"
    assert stats.chisquare(observed, expected).pvalue > 1e-3
    total = sum(pool.values())
    types = sorted(pool)
    top_expected = [draws * pool[t] / total for t in types]
    assert stats.chisquare([tops[t] for t in types], top_expected).pvalue > 1e-3


def test_juicy_cards_seen_are_not_dealt_again():
    """F_JUICY_SEEN: a juicy card played or discarded face up is no longer unseen (A16), so the
    drawn hands and reserve hold exactly the juicy cards nobody has seen."""
    values = values_of(4, {"juicy_per_kind": 4})
    seen_some = 0
    for real, rules in decision_states(values, 4, games=2, every=2):
        seen_some += int(real[C.F_JUICY_SEEN : C.F_JUICY_SEEN + C.MAX_KINDS].sum() > 0)
        out = drawn(real, rules, 5)
        for kind in range(C.MAX_KINDS):
            assert unseen_juicy(out, kind) == unseen_juicy(real, kind)
    assert seen_some > 5


def unseen_juicy(state, kind: int) -> int:
    """Juicy cards of ``kind`` in the hands and the reserve pile."""
    reserve = state[C.F_RESERVE : C.F_RESERVE + int(state[C.F_RESERVE_LEFT])]
    held = sum(hand(state, s)[C.JUICY + kind] for s in range(int(state[L.H_N_PLAYERS])))
    return held + int((reserve == C.JUICY + kind).sum())


def test_registered_for_search_bots():
    assert get("pajarracos").determinize() is determinize
