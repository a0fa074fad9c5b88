"""The Piepmatz determinizer (``games/piepmatz/determinize.py``, docs/search.md): a state drawn from
one seat's observation is a legal state that seat cannot tell from the real one (piepmatz.md A15,
A22), its unseen cards dealt uniformly, and it plays on to a legal end.

Games are seeded engine games with random decisions; the determinizer is asked at decision points
of several player counts and rule options (public and private scoring piles, both squirrel
reveals, the final discard).
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from functools import partial

import numpy as np
import pytest
from scipy import stats

from cardsim.core import layout as L
from cardsim.core.options import resolve_options
from cardsim.core.registry import get
from cardsim.games.piepmatz import cards as C
from cardsim.games.piepmatz import engine
from cardsim.games.piepmatz import rules as R
from cardsim.games.piepmatz.determinize import determinize
from tests import determinize_games as G
from tests.test_piepmatz_invariants import check_legal, check_state, seat

CASES = [  # (players, rule overrides)
    (2, {}),
    (3, {"public_scoring_piles": False, "squirrels": 6, "crows": 6}),
    (4, {"squirrel_reveal": "public", "squirrels": 6, "take_lone_bad_card": True}),
    (4, {"keep_option_after_chain": True, "max_bad_cards_in_column": 1, "squirrels": 5}),
    (
        3,
        {
            "bird_exhaustion": "trigger_end",
            "species": 2,
            "hand_size": 5,
            "final_discard": 3,
            "end_trigger": "deck_emptied",
        },
    ),
]


def values_of(overrides: dict) -> dict:
    return resolve_options(R.OPTIONS, {"turn_cap": 60, **overrides}, "piepmatz")


Game = partial(G.EngineGame, engine, C, R)
legal_codes = partial(G.legal_codes, engine, C)
drawn = partial(G.drawn, determinize, C)


def decision_states(values: dict, players: int, games: int, every: int = 2):
    return G.decision_states(engine, C, R, values, players, games, every)


def hand_of(state, s: int) -> list[int]:
    h = C.F_HANDS + s * C.MAX_HAND
    return [int(b) for b in state[h : h + state[C.F_HAND_LEN + s]]]


def known_of(state, s: int) -> set[int]:
    return {
        species * C.BIRDS_PER_SPECIES + bit
        for species in range(C.MAX_SPECIES)
        for bit in range(C.BIRDS_PER_SPECIES)
        if seat(state, s, C.HAND_KNOWN + species) >> bit & 1
    }


def play_out(state, rules, n, pick: random.Random) -> None:
    """``step`` plays the state to the end; the invariants hold at every step."""
    G.play_out(
        engine,
        C,
        state,
        rules,
        pick,
        lambda st: check_state(st, rules, n),
        lambda st, legal: check_legal(st, np.array(legal), len(legal)),
    )
    assert state[L.H_END_REASON] in range(len(C.END_REASONS))


@pytest.mark.parametrize("players,overrides", CASES)
def test_determinized_state_is_legal_same_view_and_plays_on(players, overrides):
    """The table and the seat's view are kept (A22), every card is somewhere once (check_state:
    birds and feeder cards conserved), the same decisions are pending, known hand cards stay in
    their hands (R25), and ``step`` plays the state to a legal end."""
    values = values_of(overrides)
    pick = random.Random(11)
    checked = discards = 0
    for real, rules in decision_states(values, players, games=3):
        out = drawn(real, rules, checked)
        check_state(out, rules, players)
        np.testing.assert_array_equal(out[: C.F_SCRATCH], real[: C.F_SCRATCH])
        assert not out[C.F_SCRATCH : C.OBS_LEN].any()
        me = int(real[L.H_SEAT])
        assert hand_of(out, me) == hand_of(real, me)
        for s in range(players):
            assert hand_of(out, s) == sorted(hand_of(out, s))
            if real[L.H_PHASE] != C.PHASE_DISCARD:
                assert len(hand_of(out, s)) == seat(real, s, C.HAND_COUNT)
                assert known_of(real, s) <= set(hand_of(out, s))
        assert legal_codes(out, rules) == legal_codes(real, rules)
        # the seat's view, as the engine writes it, of the drawn state is the real one's
        mine = engine.observe(out, me, np.zeros(C.OBS_LEN, np.int32)).copy()
        theirs = engine.observe(real, me, np.zeros(C.OBS_LEN, np.int32))
        np.testing.assert_array_equal(mine, theirs)
        discards += real[L.H_PHASE] == C.PHASE_DISCARD
        if checked % 3 == 0:
            play_out(out, rules, players, pick)
        checked += 1
    assert checked >= 20 and discards > 0


def hidden_permuted(real, rng: random.Random) -> np.ndarray:
    """``real`` with what the deciding seat cannot observe shuffled: the other hands' cards not
    taken from the queue and the bird deck among themselves, the feeder deck's order."""
    st = real.copy()
    n, me = int(st[L.H_N_PLAYERS]), int(st[L.H_SEAT])
    left = int(st[C.F_BIRDS_LEFT])
    birds = [int(b) for b in st[C.F_BIRD_DECK : C.F_BIRD_DECK + left]]
    others = [s for s in range(n) if s != me]
    known = {s: known_of(st, s) for s in others}
    for s in others:
        birds += [b for b in hand_of(st, s) if b not in known[s]]
    rng.shuffle(birds)
    st[C.F_BIRD_DECK : C.F_BIRD_DECK + left] = birds[:left]
    taken = left
    for s in others:
        size = int(st[C.F_HAND_LEN + s])
        free = size - len(known[s] & set(hand_of(st, s)))
        hand = sorted([b for b in hand_of(st, s) if b in known[s]] + birds[taken : taken + free])
        taken += free
        st[C.F_HANDS + s * C.MAX_HAND : C.F_HANDS + s * C.MAX_HAND + size] = hand
    feeder = int(st[C.F_FEEDER_LEFT])
    deck = st[C.F_FEEDER : C.F_FEEDER + feeder].copy()
    rng.shuffle(deck)
    st[C.F_FEEDER : C.F_FEEDER + feeder] = deck
    return st


def test_no_leak_permuting_unseen_cards_changes_nothing():
    """Same rng seed, a real state whose unseen cards were permuted: the same drawn state."""
    values = values_of({})
    shuffler = random.Random(3)
    changed = 0
    for real, rules in decision_states(values, 4, games=2, every=3):
        if real[L.H_PHASE] == C.PHASE_DISCARD:
            continue  # the hidden hand sizes differ from the public ones there
        other = hidden_permuted(real, shuffler)
        np.testing.assert_array_equal(other[: C.OBS_LEN], real[: C.OBS_LEN])
        changed += not np.array_equal(other, real)
        np.testing.assert_array_equal(drawn(other, rules, 42), drawn(real, rules, 42))
    assert changed > 5


def test_unseen_cards_are_dealt_uniformly():
    """A small position (3 players, one species of 12 birds, 2-card hands, a 1-card queue): the
    next seat's hand is any 2 of the 7 unseen birds alike, and the feeder deck's top card follows
    the deck's unseen composition (chi-square, 4,200 draws)."""
    values = values_of({"species": 1, "hand_size": 2, "queue_size": 1})
    g = Game(values, 3, 0)
    real, rules = g.state.copy(), g.rules
    me = int(real[L.H_SEAT])
    opponent = (me + 1) % 3
    first = drawn(real, rules, 0)
    unseen = sorted(
        [b for s in range(3) if s != me for b in hand_of(first, s)]
        + [int(b) for b in first[C.F_BIRD_DECK : C.F_BIRD_DECK + int(real[C.F_BIRDS_LEFT])]]
    )
    assert len(unseen) == 7
    hands, tops = Counter(), Counter()
    draws = 4200
    feeder = int(real[C.F_FEEDER_LEFT])
    for i in range(draws):
        out = drawn(real, rules, 1000 + i)
        hands[tuple(hand_of(out, opponent))] += 1
        tops[int(out[C.F_FEEDER + feeder - 1])] += 1
    pairs = list(itertools.combinations(unseen, 2))
    assert set(hands) <= set(pairs)
    observed = [hands[p] for p in pairs]
    assert stats.chisquare(observed).pvalue > 1e-3  # uniform over the 21 hands
    deck = Counter(int(c) for c in first[C.F_FEEDER : C.F_FEEDER + feeder])
    codes = sorted(deck)
    expected = [draws * deck[c] / feeder for c in codes]
    assert stats.chisquare([tops[c] for c in codes], expected).pvalue > 1e-3


def test_private_piles_deal_the_other_piles_from_the_unseen_seeds():
    """public_scoring_piles=false (A22): another seat's pile is drawn from the unseen seed cards
    (its size kept), so its values vary between draws; the seat's own pile never does."""
    values = values_of({"public_scoring_piles": False})
    real, rules = next(
        (state, rules)
        for state, rules in decision_states(values, 3, games=1, every=1)
        if seat(state, (int(state[L.H_SEAT]) + 1) % 3, C.PILE_SIZE) >= 2 and state[L.H_TURNS] > 6
    )
    me = int(real[L.H_SEAT])
    other = (me + 1) % 3
    piles = set()
    for i in range(40):
        out = drawn(real, rules, i)
        pile = out[C.F_PILES + 3 * other : C.F_PILES + 3 * other + 3]
        assert pile.sum() == seat(real, other, C.PILE_SIZE)
        piles.add(tuple(pile))
        mine = out[C.F_PILES + 3 * me : C.F_PILES + 3 * me + 3]
        np.testing.assert_array_equal(mine, real[C.F_PILES + 3 * me : C.F_PILES + 3 * me + 3])
    assert len(piles) > 1


def test_registered_for_search_bots():
    assert get("piepmatz").determinize() is determinize


def test_a_squirrel_takes_only_cards_already_in_the_pile():
    """Public piles, a pile the seat knows only by the cards seen entering it (A22): the drawn
    pile holds every card that entered after its last squirrel (F_SQUIRREL_LOG, R21), at most
    what entered, and its public size."""
    values = values_of({"squirrels": 6, "seed_counts": "6,6,6"})
    replayed = 0
    for real, rules in decision_states(values, 4, games=4, every=1):
        if not real[C.F_SQUIRRELS_LOGGED]:
            continue
        out = drawn(real, rules, replayed)
        for owner in range(4):
            if real[C.F_ACTIVE_EXACT + owner]:
                continue
            entered = real[C.F_ACTIVE_ENTERED + 3 * owner : C.F_ACTIVE_ENTERED + 3 * owner + 3]
            pile = out[C.F_PILES + 3 * owner : C.F_PILES + 3 * owner + 3]
            last = np.zeros(3, np.int32)
            for i in range(int(real[C.F_SQUIRRELS_LOGGED])):
                entry = C.F_SQUIRREL_LOG + i * C.SQUIRREL_ENTRY
                if real[entry + C.SQ_OWNER] == owner:
                    last = real[entry + C.SQ_ENTERED : entry + C.SQ_ENTERED + 3]
                    replayed += 1
            assert (pile >= entered - last).all() and (pile <= entered).all()
            assert pile.sum() == seat(real, owner, C.PILE_SIZE)
    assert replayed > 10
