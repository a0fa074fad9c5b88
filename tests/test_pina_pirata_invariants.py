"""Invariants of Piña Pirata checked after every step of hypothesis-driven games (seeds, player
counts, modes, tiles and rule options drawn too), on the compiled engine (``deal``/``step``):

- every card of the game (55 with the defaults) is in exactly one place: deck, an Action pile, a
  Hand, in front of a player (T26, T38, T39) or set aside (T11); the public Hand sizes agree;
- all 40 tiles are conserved: each is in the Adventure pile (or drawn by the round winner), in
  play, on a map or removed (or out of this game's pool), and each place agrees with the pile,
  the list in play and the map counts;
- never more tiles in play than ``max_tiles_in_play`` in Treasure Hunt (R17);
- every legal decision is one the pending phase allows (a play is a card of the deciding seat's
  Hand that may go onto that pile);
- every round and every game ends: rounds within ``round_turn_cap`` turns, the game within the
  core's turn cap, in a bounded number of steps.
"""

from __future__ import annotations

import random

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardsim.core import layout as L
from cardsim.core.options import resolve_options
from cardsim.core.rng import CHANCE_STREAM, stream_start
from cardsim.games.pina_pirata import RULESET, engine
from cardsim.games.pina_pirata import cards as C
from cardsim.games.pina_pirata.matching import can_play


@st.composite
def setups(draw) -> tuple[dict, int]:
    players = draw(st.integers(2, 6))
    treasure = draw(st.booleans())
    fixed = draw(st.lists(st.integers(1, 40), min_size=0, max_size=4, unique=True))
    given = {
        "mode": "treasure_hunt" if treasure else "cruise",
        "cruise_rounds": draw(st.integers(1, 4)),
        "map_pieces_to_win": draw(st.integers(1, 2)),
        "fixed_tiles": ",".join(map(str, fixed)) or "none",
        "start_tiles": draw(st.integers(0, 2)),
        "must_play_if_able": draw(st.booleans()),
        "discard_to_top": draw(st.booleans()),
        "win_check_any_player": draw(st.booleans()),
        "tile_conflict": draw(st.sampled_from(["prohibition_wins", "newest_wins"])),
        "go_fish_chooser": draw(st.sampled_from(["giver", "taker", "random"])),
        "round_turn_cap": draw(st.sampled_from([60, 2000])),
        "turn_cap": 400,
    }
    return given, players


def check_state(state, values, players):
    n_cards = state[C.F_N_CARDS]
    loc = state[C.F_LOC : C.F_LOC + n_cards]
    assert n_cards == 55 or values["pirate_types"] != 10
    places = np.zeros(n_cards, np.int32)
    deck = state[C.F_DECK : C.F_DECK + state[C.F_DECK_N]]
    places[deck] += 1
    assert np.all(loc[deck] == C.LOC_DECK)
    for pile in range(state[C.F_N_PILES]):
        cards = state[
            C.F_PILE + pile * C.MAX_CARDS : C.F_PILE + pile * C.MAX_CARDS + state[C.F_PILE_N + pile]
        ]
        places[cards] += 1
        assert np.all(loc[cards] == C.LOC_PILE + pile)
    others = (loc >= C.LOC_HAND) | (loc == C.LOC_ASIDE)
    places[others] += 1
    assert np.all(places == 1), "a card is lost or in two places"
    for s in range(players):
        assert state[C.seat_field(s, C.SH_HAND_N)] == np.sum(loc == C.LOC_HAND + s)
    check_aside(state, values, players, loc)
    where = state[C.F_TILE_WHERE + 1 : C.F_TILE_WHERE + C.N_TILES + 1]
    in_play = [int(t) for t in state[C.F_TILES : C.F_TILES + state[C.F_N_TILES]]]
    pile = [int(t) for t in state[C.F_ADV : C.F_ADV + state[C.F_ADV_N]]]
    pile += [int(t) for t in state[C.F_ROUND_END : C.F_ROUND_END + 3] if t]  # drawn (R11)
    assert sorted(in_play) == [t + 1 for t in np.flatnonzero(where == C.W_PLAY)]
    assert sorted(pile) == [t + 1 for t in np.flatnonzero(where == C.W_PILE)]
    assert len(set(in_play) | set(pile)) == len(in_play) + len(pile)
    for s in range(players):
        assert state[C.seat_field(s, C.SH_MAPS)] == np.sum(where == C.W_MAP + s)
    assert np.all((where <= C.W_OUT) | ((where >= C.W_MAP) & (where < C.W_MAP + players)))
    if values["mode"] == "treasure_hunt":
        assert len(in_play) <= values["max_tiles_in_play"]
    assert state[C.F_ROUND_TURNS] <= values["round_turn_cap"]


def check_legal(state, rules, legal, n):
    seat = state[L.H_SEAT]
    phase = state[L.H_PHASE]
    assert n >= 2 and len(set(legal[:n])) == n and list(legal[:n]) == sorted(legal[:n])
    for code in legal[:n]:
        if code < C.C_DRAW:
            card, pile = code % C.CARD_SPAN, code // C.CARD_SPAN
            assert phase in (C.PH_MAIN, C.PH_EXTRA, C.PH_FULL_SAILS)
            assert state[C.F_LOC + card] == C.LOC_HAND + seat
            assert can_play(state, rules, seat, card, pile)
        elif code >= C.C_CARD and code < C.C_NAME and phase not in (C.PH_T17, C.PH_T5_GIVE):
            assert state[C.F_LOC + (code - C.C_CARD) % C.CARD_SPAN] == C.LOC_HAND + seat


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=setups(), seed=st.integers(0, 2**31), picks=st.integers(0, 2**31))
def test_cards_and_tiles_are_conserved_and_every_game_ends(setup, seed, picks):
    given_values, players = setup
    values = resolve_options(RULESET.options, given_values, "pina-pirata")
    rules = RULESET.encode_rules(values, players)
    state = np.zeros(C.STATE_LEN, np.int32)
    legal = np.zeros(C.MAX_LEGAL, np.int32)
    rng = np.array([stream_start(seed, 0, CHANCE_STREAM)], np.uint64)
    state[L.H_CAP_TURNS] = values["turn_cap"] * players
    pick = random.Random(picks)
    n = engine.deal(state, rules, players, rng, legal)
    steps = 0
    while n:
        check_state(state, values, players)
        check_legal(state, rules, legal, n)
        n = engine.step(state, rules, int(legal[pick.randrange(n)]), rng, legal)
        steps += 1
        assert steps < 40 * values["turn_cap"] * players, "the game does not end"
    assert state[L.H_OVER] == 1 and state[L.H_END_REASON] >= 0
    check_state(state, values, players)
    assert state[L.H_TURNS] <= values["turn_cap"] * players


def test_an_endless_turn_ends_the_round_by_the_round_turn_cap():
    """A16: with T8, T11, T23 and T31 in play and the deck empty, a Walrus chain never ends the
    turn: the Crocodile/Walrus (a Turtle under T31) draws back the cards under it by T23, and T11
    sets it aside to be taken back by the Penguin/Walrus played next, each a Walrus play that
    grants T8's extra play. The round turn cap also caps the plays of a turn: after
    ``round_turn_cap`` plays the round ends with no winner (counted in ``rounds_capped``). Before
    the cap covered plays, this turn went on for ever (a 4-player ``captain`` game of the
    tile-impact study, seed 2026, game 3515, stalled the same way)."""
    from tests.pina_table import Table, card

    cw, pw, walrus, other = (
        card("Crocodile", "Walrus"),
        card("Penguin", "Walrus"),
        card("Walrus"),
        card("Rabbit", "Parrot"),
    )
    rest = [c for c in range(55) if c not in (cw, pw, walrus, other)]
    t = Table(
        players=3,
        tiles=(31, 23, 8, 11),
        hands={0: [cw, pw, other], 1: rest[:25], 2: rest[25:]},
        top=walrus,
        rules={"round_turn_cap": 6},
    )
    plays = 0
    while t.state[C.F_ROUND] == 0:
        assert plays <= 6, "the turn did not end at the cap"
        assert t.active == 0 and t.phase in (C.PH_MAIN, C.PH_EXTRA, C.PH_T23)
        if t.phase == C.PH_T23:
            t.give(walrus)  # T23's discard: the solitary Walrus goes back on top
        else:
            chain = [c for c in (cw, pw) if C.C_PLAY + c in t.legal]
            assert len(chain) == (2 if t.phase == C.PH_MAIN else 1)
            assert t.phase == C.PH_MAIN or C.C_PASS in t.legal  # the extra plays are optional
            t.play(chain[0])
            plays += 1
    g = C.F_GAME_COUNTERS
    assert plays == 6 and t.turns == 1
    assert t.state[g + C.G_ROUNDS_CAPPED] == 1 and t.state[g + C.G_TURNS_ROUND] == 1
    assert t.state[C.F_ROUND_TURNS] == 0 and t.state[L.H_OVER] == 0  # the next round is dealt


def check_aside(state, values, players, loc):
    """T11's set-aside cards: their count, each setter's public share (SH_ASIDE_N, from
    F_ASIDE_BY) and, face up only (A15's alternative), each setter's cards (F_ASIDE_UP)."""
    aside = np.flatnonzero(loc == C.LOC_ASIDE)
    assert state[C.F_ASIDE_N] == len(aside)
    by = state[C.F_ASIDE_BY + aside]
    assert np.all((by >= 0) & (by < players))
    for s in range(players):
        assert state[C.seat_field(s, C.SH_ASIDE_N)] == np.sum(by == s)
        words = state[C.F_ASIDE_UP + s * C.HAND_WORDS : C.F_ASIDE_UP + (s + 1) * C.HAND_WORDS]
        up = {w * 32 + b for w in range(C.HAND_WORDS) for b in range(32) if int(words[w]) >> b & 1}
        assert up == (set(aside[by == s].tolist()) if values["aside_face_up"] else set())
