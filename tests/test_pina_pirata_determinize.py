"""Piña Pirata's determinizer (determinize.py; docs/search.md "Determinization: Piña Pirata").

At decision points of seeded games (several player counts, modes and tiles, including those that
show a card to some seats only: T4, T5, T11, T13, T16, T17, T18, T20, T24, T30, T33):

- what each seat has seen (F_SEEN) is true of the real state;
- a determinized state passes the invariant checks of test_pina_pirata_invariants (every card and
  tile in one place), shows the seat the same observation, allows the real legal decisions, and
  ``step`` plays it to the end with the game's bots;
- permuting the real state's cards the seat has not seen changes nothing the determinizer returns;
- on small positions the unseen cards are dealt uniformly (chi-square), and the cards the seat has
  seen stay where it saw them.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from scipy.stats import chisquare

from cardsim.core import layout as L
from cardsim.core.options import resolve_options
from cardsim.core.rng import BOT_STREAM, CHANCE_STREAM, stream_start
from cardsim.games.pina_pirata import RULESET, engine
from cardsim.games.pina_pirata import bots as B
from cardsim.games.pina_pirata import cards as C
from cardsim.games.pina_pirata.determinize import determinize
from cardsim.games.pina_pirata.state import to_hand
from tests.pina_table import Table, card, shows
from tests.test_pina_pirata_invariants import check_legal, check_state

GAME = "pina-pirata"
CONFIGS = [
    ({}, 4),
    ({}, 2),
    # the tiles that show cards to some seats only (docs/search.md), Cruise for room
    (
        {
            "mode": "cruise", "cruise_rounds": 2, "cruise_reset_at": 20, "start_tiles": 0,
            "fixed_tiles": "4,5,16,17,18,20,24,30", "go_fish_chooser": "taker",
        },
        3,
    ),
    ({"fixed_tiles": "2,11,13,19,3,33", "start_tiles": 0, "tortoise_reveal": "random"}, 5),
    (
        {
            "mode": "cruise", "cruise_rounds": 2, "cruise_reset_at": 20, "start_tiles": 0,
            "fixed_tiles": "26,38,39,37,27,14,21,23,25,35,11,4", "discard_to_top": False,
        },
        6,
    ),
    # T11's cards face up (A15's alternative), taken only by their setters (A27's)
    ({"fixed_tiles": "11,13,8", "start_tiles": 0, "aside_face_up": True, "bayou_setter_only": True}, 3),
]  # fmt: skip


def new_game(overrides, players, seed):
    values = resolve_options(RULESET.options, {"turn_cap": 60, **overrides}, GAME)
    rules = RULESET.encode_rules(values, players)
    state = np.zeros(C.STATE_LEN, np.int32)
    legal = np.zeros(C.MAX_LEGAL, np.int32)
    rng = np.array([stream_start(seed, 0, CHANCE_STREAM)], np.uint64)
    state[L.H_CAP_TURNS] = values["turn_cap"] * players
    n = engine.deal(state, rules, players, rng, legal)
    return values, rules, state, legal, rng, n


def decisions(overrides, players, seed, every):
    """(values, rules, state, legal, n) at every ``every``-th decision of a seeded random game."""
    values, rules, state, legal, rng, n = new_game(overrides, players, seed)
    pick = random.Random(seed)
    k = 0
    while n:
        if k % every == 0:
            yield values, rules, state, legal, n
        n = engine.step(state, rules, int(legal[pick.randrange(n)]), rng, legal)
        k += 1


def det(view, rules, seed):
    out = np.zeros(C.STATE_LEN, np.int32)
    determinize(view, rules, np.array([stream_start(seed, 0, BOT_STREAM)], np.uint64), out)
    return out


def check_seen_is_true(state):
    """Every F_SEEN entry of every seat names the card's real place (cards.SEEN_*), but for a
    card in a public place (the prefix shows it; its entry may be stale, engine.py)."""
    for s in range(state[L.H_N_PLAYERS]):
        for c in range(state[C.F_N_CARDS]):
            v = state[C.F_SEEN + s * C.MAX_CARDS + c]
            loc = state[C.F_LOC + c]
            if loc in (C.LOC_PILE, C.LOC_PILE + 1) or loc >= C.LOC_FRONT:
                continue
            if v >= C.SEEN_DECK:
                assert loc == C.LOC_DECK and state[C.F_DECK + v - C.SEEN_DECK] == c
            elif v:
                assert loc == v and v != C.SEEN_HAND + s, (s, c, v, loc)


def check_deck_pool(state):
    """While F_DECK_POOL is on, every card of the deck is one of the reshuffled pile's."""
    if state[C.F_DECK_POOL_ON]:
        for c in state[C.F_DECK : C.F_DECK + state[C.F_DECK_N]]:
            assert state[C.F_DECK_POOL + c // 32] >> (c % 32) & 1, c


def play_out(state, rules, values, code, seed):
    """``step`` from a determinized state with the real decision ``code``, then the greedy bot at
    every seat to the end; the invariants and every listed decision checked on the way."""
    legal = np.zeros(C.MAX_LEGAL, np.int32)
    rng = np.array([stream_start(seed, 1, CHANCE_STREAM)], np.uint64)
    bot_rng = np.array([stream_start(seed, 1, BOT_STREAM)], np.uint64)
    params = np.array(B.GREEDY_PARAMS, np.float64)
    n = engine.step(state, rules, code, rng, legal)
    steps = 0
    while n:
        check_legal(state, rules, legal, n)
        if steps % 25 == 0:
            check_state(state, values, state[L.H_N_PLAYERS])
        n = engine.step(
            state,
            rules,
            int(legal[B.weighted_bot(state[: C.OBS_LEN], legal, n, params, bot_rng)]),
            rng,
            legal,
        )
        steps += 1
        assert steps < 20_000, "the game does not end"
    assert state[L.H_OVER] == 1
    check_state(state, values, state[L.H_N_PLAYERS])


@pytest.mark.parametrize("overrides, players", CONFIGS)
def test_determinized_states_are_legal_look_the_same_and_play_on(overrides, players):
    seen = 0  # decisions at which the seat had seen a card now out of its sight
    pooled = 0  # decisions after a reshuffle (R8, A7)
    face_up = 0  # decisions with T11's cards face up (A15's alternative)
    for game in range(2):
        for k, (values, rules, state, legal, n) in enumerate(
            decisions(overrides, players, game, 9)
        ):
            check_seen_is_true(state)
            view = state[: C.OBS_LEN].copy()
            seen += np.any(view[C.F_SEEN_VIEW : C.F_SEEN_VIEW + C.MAX_CARDS] != 0)
            d = det(view, rules, 100 * game + k)
            check_state(d, values, players)
            check_seen_is_true(d)
            check_deck_pool(state)
            check_deck_pool(d)  # the deck is dealt from the reshuffled cards only
            pooled += view[C.F_DECK_POOL_ON]
            face_up += np.any(view[C.F_ASIDE_UP : C.F_ASIDE_UP + C.MAX_PLAYERS * C.HAND_WORDS])
            np.testing.assert_array_equal(d[: C.OBS_LEN], view)
            check_legal(d, rules, legal, n)  # the real decisions are legal there
            if k % 4 == 0:
                play_out(d, rules, values, int(legal[k % n]), 100 * game + k)
    assert seen > 0 or "fixed_tiles" not in overrides  # the tiles that show cards did
    assert pooled > 0 or players < 4  # 4 or more draw the deck out within these games
    assert face_up > 0 or not overrides.get("aside_face_up")


def unseen(state):
    """The cards the deciding seat has not seen: in another Hand, the deck or set aside, with no
    entry in its view and not face up (T13, T33)."""
    me = state[L.H_SEAT]
    out = []
    for c in range(state[C.F_N_CARDS]):
        loc = state[C.F_LOC + c]
        hidden = loc in (C.LOC_DECK, C.LOC_ASIDE) or (
            C.LOC_HAND <= loc < C.LOC_HAND + C.MAX_PLAYERS and loc != C.LOC_HAND + me
        )
        shown = c == state[C.F_DECK_SHOWN] or c in [
            state[C.seat_field(s, C.SH_SHOWN)] for s in range(state[L.H_N_PLAYERS])
        ]
        if hidden and not shown and state[C.F_SEEN_VIEW + c] == 0:
            out.append(c)
    return out


def permuted(state, cards, pick):
    """``state`` with the ``cards`` the deciding seat has not seen exchanged among their places."""
    me = state[L.H_SEAT]
    perm = dict(zip(cards, pick.sample(cards, len(cards)), strict=True))
    p = state.copy()
    for c, to in perm.items():
        p[C.F_LOC + to] = state[C.F_LOC + c]
        p[C.F_ASIDE_BY + to] = state[C.F_ASIDE_BY + c]  # a set-aside card's setter (T11)
        for s in range(state[L.H_N_PLAYERS]):
            if s != me:
                p[C.F_SEEN + s * C.MAX_CARDS + to] = state[C.F_SEEN + s * C.MAX_CARDS + c]
    for i in range(state[C.F_DECK_N]):
        p[C.F_DECK + i] = perm.get(int(state[C.F_DECK + i]), state[C.F_DECK + i])
    p[C.F_HAND_BITS : C.F_HAND_CARDS + C.MAX_PLAYERS * C.MAX_CARDS] = 0
    for c in range(state[C.F_N_CARDS]):
        loc = p[C.F_LOC + c]
        if C.LOC_HAND <= loc < C.LOC_HAND + C.MAX_PLAYERS:
            to_hand(p, loc - C.LOC_HAND, c)  # the bits and rows, not the count again
            p[C.seat_field(loc - C.LOC_HAND, C.SH_HAND_N)] -= 1
    return p


@pytest.mark.parametrize("overrides, players", CONFIGS[1:4])
def test_no_leak_an_unseen_permutation_changes_nothing(overrides, players):
    pick = random.Random(7)
    tried = 0
    for k, (values, rules, state, _legal, _n) in enumerate(decisions(overrides, players, 3, 11)):
        cards = unseen(state)
        p = permuted(state, cards, pick)
        check_state(p, values, players)
        check_seen_is_true(p)
        assert not np.array_equal(p, state) or len(cards) < 2
        np.testing.assert_array_equal(p[: C.OBS_LEN], state[: C.OBS_LEN])  # unobservable
        np.testing.assert_array_equal(
            det(p[: C.OBS_LEN].copy(), rules, k), det(state[: C.OBS_LEN].copy(), rules, k)
        )
        tried += 1
    assert tried >= 3


def test_the_state_is_written_whole():
    values, rules, state, legal, rng, n = new_game({}, 4, 5)
    view = state[: C.OBS_LEN].copy()
    dirty = np.full(C.STATE_LEN, 77, np.int32)
    determinize(view, rules, np.array([9], np.uint64), dirty)
    clean = np.zeros(C.STATE_LEN, np.int32)
    determinize(view, rules, np.array([9], np.uint64), clean)
    np.testing.assert_array_equal(dirty, clean)


def seen_view(state, seat):
    """What ``seat`` would observe now (engine.show for it), whoever is to decide."""
    s = state.copy()
    s[L.H_SEAT] = seat
    engine.show(s)
    return s[: C.OBS_LEN].copy()


def places(view, rules, cards, runs):
    """For each card of ``cards``, how often ``runs`` determinizations put it in each place
    (``F_LOC`` code, deck places as LOC_DECK)."""
    counts = {c: {} for c in cards}
    for r in range(runs):
        d = det(view, rules, r)
        for c in cards:
            loc = int(d[C.F_LOC + c])
            counts[c][loc] = counts[c].get(loc, 0) + 1
    return counts


def assert_uniform(counts, free, runs):
    """Each card's places against ``free`` (place -> free room): multinomial, chi-square."""
    total = sum(free.values())
    for c, seen in counts.items():
        assert set(seen) <= set(free), (c, seen)
        places_ = sorted(free)
        observed = [seen.get(p, 0) for p in places_]
        expected = [runs * free[p] / total for p in places_]
        assert chisquare(observed, expected).pvalue > 1e-3, (c, observed, expected)


def test_the_first_deal_is_dealt_again_uniformly():
    """2 players, the first decision (8 + 8 cards dealt, one on the Action pile, R4): the 46
    cards the seat has not seen lie in the other Hand or the deck; each one lies in the other
    Hand with probability (its size) / 46, and the deck's top card is any of the 46 alike."""
    values, rules, state, legal, rng, n = new_game({}, 2, 11)
    me = state[L.H_SEAT]
    view = state[: C.OBS_LEN].copy()
    cards = unseen(state)
    deck_n = int(view[C.F_DECK_N])
    free = {C.LOC_HAND + 1 - me: hand_sizes(view)[1 - me], C.LOC_DECK: deck_n}
    assert len(cards) == sum(free.values()) >= 40
    runs = 2000
    assert_uniform(places(view, rules, cards[:6], runs), free, runs)
    tops = [int(det(view, rules, 10_000 + r)[C.F_DECK + deck_n - 1]) for r in range(runs)]
    observed = [tops.count(c) for c in cards]
    assert sum(observed) == runs
    assert chisquare(observed).pvalue > 1e-3


MONKEY, TOP, X, Y = (
    card("Monkey", "Tiger"), card("Monkey", "Rat"), card("Parrot", "Octopus"), card("Rabbit", "Penguin"),
)  # fmt: skip


def hand_sizes(view):
    return [int(view[C.seat_field(s, C.SH_HAND_N)]) for s in range(view[L.H_N_PLAYERS])]


def test_a_card_given_away_stays_where_the_giver_saw_it_and_the_rest_is_uniform():
    """T16 Sabotage, 3 players: seat 0 plays the Monkey/Tiger and gives X to seat 1, its left
    (pina-pirata.md T16). The giver knows X is in seat 1's Hand: every determinization for it
    puts X there, and the 51 cards it has not seen fill the other free places uniformly. The
    third seat's view holds no entry for X; the receiver has it in its own Hand."""
    rest = [c for c in range(55) if c not in (MONKEY, TOP, X, Y)]
    hands = {0: [MONKEY, X, Y], 1: rest[:4], 2: rest[4:8]}
    t = Table(players=3, tiles=(16,), hands=hands, top=TOP, stop=True)
    t.play(MONKEY)
    assert t.phase == C.PH_T16 and t.seat == 0
    t.give(X)  # the engine stops at the next decision, forced ones too: X is still there
    assert X in t.hand(1)
    check_seen_is_true(t.state)
    view = seen_view(t.state, 0)
    assert view[C.F_SEEN_VIEW + X] == C.SEEN_HAND + 1
    assert seen_view(t.state, 2)[C.F_SEEN_VIEW + X] == 0
    assert seen_view(t.state, 1)[C.F_SEEN_VIEW + X] == 0  # its own Hand: F_ACTIVE_HAND
    sizes = hand_sizes(view)
    free = {
        C.LOC_HAND + 1: sizes[1] - 1,
        C.LOC_HAND + 2: sizes[2],
        C.LOC_DECK: int(view[C.F_DECK_N]),
    }
    cards = unseen(np.concatenate([view, t.state[C.OBS_LEN :]]))
    assert len(cards) == 51 == sum(free.values())
    runs = 2000
    counts = places(view, t.rules, [X, *cards[:5]], runs)
    assert counts.pop(X) == {C.LOC_HAND + 1: runs}
    assert_uniform(counts, free, runs)


def test_man_overboard_the_card_put_on_the_deck_is_followed_into_the_next_hand():
    """T4 Man Overboard, 3 players: seat 0 puts Y on top of the deck; only it knows (its view:
    the deck's top place; determinized, Y lies there). Seat 1 plays, seat 2 cannot and draws
    Y: seat 0 then knows Y is in seat 2's Hand, seat 1 knows nothing of it."""
    parrot, top, tiger1, tiger2 = (
        card("Parrot", "Tiger"), card("Parrot", "Rat"), card("Tiger", "Monkey"), card("Tiger", "Octopus"),
    )  # fmt: skip
    busy = {"Parrot", "Rat", "Tiger", "Monkey", "Octopus"}
    blocked = [c for c in range(55) if not any(shows(c, p) for p in busy) and c != Y]
    hands = {0: [parrot, Y, *blocked[:2]], 1: [tiger1, tiger2, blocked[2]], 2: blocked[3:6]}
    t = Table(players=3, tiles=(4,), hands=hands, top=top, stop=True)
    t.play(parrot)
    assert t.phase == C.PH_T4
    t.give(Y)
    assert t.seat == 1 and t.phase == C.PH_MAIN
    n = t.state[C.F_DECK_N]
    view = seen_view(t.state, 0)
    assert view[C.F_SEEN_VIEW + Y] == C.SEEN_DECK + n - 1
    assert seen_view(t.state, 1)[C.F_SEEN_VIEW + Y] == 0
    for r in range(20):
        assert det(view, t.rules, r)[C.F_DECK + n - 1] == Y
    t.play(tiger1)  # seat 2 cannot follow the Tiger/Monkey: it draws Y
    assert Y in t.hand(2)
    assert seen_view(t.state, 0)[C.F_SEEN_VIEW + Y] == C.SEEN_HAND + 2
    assert seen_view(t.state, 1)[C.F_SEEN_VIEW + Y] == 0
    check_seen_is_true(t.state)


def test_recruiting_then_maelstrom_the_seen_cards_move_on_with_the_hands():
    """T17 then T18 (oldest first, R15), 3 players: seat 0 plays the Monkey/Tiger, looks at
    seat 2's Hand (its right) and takes X: it has seen the rest of that Hand, and seat 2 knows
    where X went. Then Maelstrom passes every Hand left: seat 0 knows its former Hand (X with
    it) is seat 1's now, and the Hand it saw at seat 2 is its own."""
    rest = [c for c in range(55) if c not in (MONKEY, TOP, X, Y)]
    hands = {0: [MONKEY, Y, rest[8]], 1: rest[:4], 2: [X, *rest[4:8]]}
    t = Table(players=3, tiles=(17, 18), hands=hands, top=TOP, stop=True)
    t.play(MONKEY)
    assert t.phase == C.PH_T17 and t.seat == 0
    assert seen_view(t.state, 0)[C.F_SEEN_VIEW + rest[4]] == C.SEEN_HAND + 2  # it looks
    t.give(X)  # Maelstrom follows; the engine stops at the next decision (seat 1 may draw)
    assert {X, Y, rest[8]} <= set(t.hand(1)) and sorted(t.hand(0)) == rest[4:8]
    check_seen_is_true(t.state)
    mine, third, robbed = (seen_view(t.state, s) for s in range(3))
    assert [mine[C.F_SEEN_VIEW + c] for c in (X, Y, rest[8])] == [C.SEEN_HAND + 1] * 3
    assert not any(mine[C.F_SEEN_VIEW + c] for c in rest[4:8])  # its own Hand now
    assert robbed[C.F_SEEN_VIEW + X] == C.SEEN_HAND + 1  # X followed seat 0's Hand left
    assert [robbed[C.F_SEEN_VIEW + c] for c in rest[4:8]] == [C.SEEN_HAND + 0] * 4  # passed
    assert sorted(c for c in range(55) if robbed[C.F_SEEN_VIEW + c]) == sorted([X, *rest[4:8]])
    assert sorted(c for c in range(55) if third[C.F_SEEN_VIEW + c]) == rest[:4]  # passed on
    d = det(mine, t.rules, 1)
    assert all(d[C.F_LOC + c] == C.LOC_HAND + 1 for c in (X, Y, rest[8]))


CROC_RAT, CROC_TIGER, FIRST, SECOND = (
    card("Crocodile", "Rat"), card("Crocodile", "Tiger"), card("Turtle", "Walrus"), card("Parrot", "Penguin"),
)  # fmt: skip


def two_setters(rules):
    """T11, 3 players: seat 0 plays the Crocodile/Rat and sets FIRST aside, seat 1 the
    Crocodile/Tiger and sets SECOND aside (pina-pirata.md T11); seat 2 is to decide."""
    hands = {
        0: [CROC_RAT, X],
        1: [CROC_TIGER, Y],
        2: [card("Tiger", "Monkey"), card("Tiger", "Octopus")],
    }
    t = Table(players=3, tiles=(11,), hands=hands, top=card("Crocodile", "Octopus"), deck=[SECOND, FIRST],
              rules=rules, stop=True)  # fmt: skip
    t.play(CROC_RAT)
    t.play(CROC_TIGER)
    assert t.seat == 2 and t.state[C.F_ASIDE_N] == 2
    return t


def test_face_up_set_aside_cards_are_kept_with_their_setters():
    """A15's alternative (``aside_face_up``): the set-aside cards are public, so every
    determinization keeps them aside, each with the seat that set it aside (F_ASIDE_BY, read
    under A27's alternative); face down (default) they are dealt again with the unseen cards."""
    up = two_setters({"aside_face_up": True, "bayou_setter_only": True})
    view = seen_view(up.state, 2)
    for r in range(30):
        d = det(view, up.rules, r)
        assert d[C.F_LOC + FIRST] == d[C.F_LOC + SECOND] == C.LOC_ASIDE
        assert (d[C.F_ASIDE_BY + FIRST], d[C.F_ASIDE_BY + SECOND]) == (0, 1)
    down = two_setters({"bayou_setter_only": True})
    view = seen_view(down.state, 2)
    moved = 0
    for r in range(30):
        d = det(view, down.rules, r)
        moved += d[C.F_LOC + FIRST] != C.LOC_ASIDE
        aside = [c for c in range(55) if d[C.F_LOC + c] == C.LOC_ASIDE]
        assert len(aside) == 2  # the public count
    assert moved > 20  # FIRST is one of ~45 unseen cards: seldom dealt aside again


def test_face_down_set_aside_cards_keep_each_setters_public_count():
    """``bayou_setter_only`` (A27's alternative): a player takes only the cards it set aside, so
    who set them aside matters; everybody saw it (the Crocodiles were played), not which card is
    whose. Each determinization gives each setter its public count (SH_ASIDE_N), the two cards
    shared out between seats 0 and 1 both ways."""
    t = two_setters({"bayou_setter_only": True})
    view = seen_view(t.state, 2)
    assert [view[C.seat_field(s, C.SH_ASIDE_N)] for s in range(3)] == [1, 1, 0]
    first = set()
    for r in range(60):
        d = det(view, t.rules, r)
        aside = [c for c in range(55) if d[C.F_LOC + c] == C.LOC_ASIDE]
        setters = sorted(int(d[C.F_ASIDE_BY + c]) for c in aside)
        assert setters == [0, 1]
        first.add(int(d[C.F_ASIDE_BY + min(aside)]))
        check_state(d, t.values, 3)
    assert first == {0, 1}
