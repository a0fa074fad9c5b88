"""Compiled Piña Pirata engine vs the plain-Python reference (``reference.py``) on seeded games.

- whole games: the engine's outcome rows (``runner.iter_chunks``) equal the reference's
  (``play_reference``), every column and counter, on 2,000+ games over 2-6 players, both modes,
  every built-in bot, every rule option (``DIFFERENTIAL_RULES``) and tile sets in which every tile
  T1-T40 is in play from the start (``fixed_tiles``) in at least 50 games;
- lockstep: the engine's ``deal``/``step`` kernels and ``ReferenceGame`` driven by the same random
  decisions, comparing the legal decisions and the observation (public prefix and the deciding
  seat's Hand) after every step, and the cards and tiles conserved.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from cardsim.core import layout as L
from cardsim.core import runner
from cardsim.core.rng import CHANCE_STREAM, stream_start
from cardsim.games.pina_pirata import RULESET, engine
from cardsim.games.pina_pirata import cards as C
from cardsim.games.pina_pirata.reference import ReferenceGame, play_reference
from tests.option_effects import assert_options_took_effect

GAME = "pina-pirata"
G0 = len(L.GAME_COLUMNS)
S0 = len(L.SEAT_COLUMNS)
SHORT = {"map_pieces_to_win": 1}  # two rounds or so: keeps the reference quick


def tile_set(t: int) -> str:
    """Tile ``t`` with two others, so that three configurations hold each tile."""
    return f"{t},{(t + 12) % 40 + 1},{(t + 25) % 40 + 1}"


def _game(col: str) -> int:
    return G0 + C.GAME_COUNTERS.index(col)


def _seat(col: str) -> int:
    return S0 + C.SEAT_COUNTERS.index(col)


# A16: Walrus chains under T8 and T9 with T23's draws, T11 and T31 refilling the Hand; with the
# round turn cap at 4 plays a turn often reaches it with another extra play open
CUT_RULES = {"fixed_tiles": "8,9,23,31,11", "round_turn_cap": 4, "turn_cap": 30, "start_tiles": 0}

# (rules, players, bots, games, what the configuration must show happening)
OPTION_CASES = [
    ({}, 2, ["random"], 60, None),
    ({}, 3, ["greedy"], 50, None),
    ({}, 4, ["captain", "random", "greedy", "random"], 50, None),
    ({}, 5, ["random"], 30, None),
    ({}, 6, ["captain", "greedy", "random", "captain", "greedy", "random"], 30, None),
    ({"mode": "cruise", "cruise_rounds": 4}, 4, ["greedy", "random", "captain", "random"], 40,
     lambda g, s: np.all(g[:, _game("rounds")] == 4)),
    ({"mode": "cruise", "cruise_rounds": 9, "cruise_reset_at": 4, "start_tiles": 1}, 3, ["random"], 25,
     lambda g, s: np.any(g[:, _game("tile_resets")] > 0)),
    ({"mode": "cruise", "cruise_rounds": 6, "cruise_reset_at": "never", "tile_pool": "1,4,8,10,12,16,18,20,23,25,30,33,36,40", "start_tiles": 3}, 2, ["random"], 30, None),
    ({"tiles_drawn_at_round_end": 2, "max_tiles_in_play": 3, "start_tiles": 3}, 4, ["captain"], 30, None),
    ({"map_pieces_to_win": 2, "start_tiles": 0, "first_dealer": 1}, 3, ["random"], 30,
     lambda g, s: np.all(g[:, L.G_FIRST_SEAT] == 2)),
    ({"start_tiles": 6, "hand_size_6p": 4, "round_turn_cap": 25}, 6, ["random"], 25,
     lambda g, s: np.any(g[:, _game("rounds_capped")] > 0)),
    ({"pirate_types": 5, "solitary_per_type": 3, "hand_size": 4, **SHORT}, 4, ["greedy"], 40, None),
    ({"pirate_types": 7, "solitary_per_type": 0, **SHORT}, 2, ["random"], 40, None),
    ({"turn_cap": 15}, 4, ["random"], 30, lambda g, s: np.all(g[:, L.G_TURN_CAP_HIT] == 1)),
    ({"must_play_if_able": False, "fixed_tiles": "36,38,26", **SHORT}, 3, ["random"], 40, None),
    ({"discard_to_top": False, "fixed_tiles": "23,35,3", **SHORT}, 4, ["random"], 40, None),
    ({"joker_on_top_matches_all": True, "fixed_tiles": "9,40,13,39", **SHORT}, 3, ["random"], 40, None),
    ({"win_check_any_player": True, "fixed_tiles": "18,5,17", **SHORT}, 4, ["random"], 40, None),
    ({"favorable_current_any_turn": False, "fixed_tiles": "35,23", **SHORT}, 5, ["greedy"], 30, None),
    ({"tile_conflict": "newest_wins", "fixed_tiles": "7,22,9,34", **SHORT}, 3, ["random"], 40, None),
    ({"full_sails_after_draw": False, "fixed_tiles": "36,8", **SHORT}, 4, ["random"], 40, None),
    ({"plan_b_duo_counts_twice": False, "fixed_tiles": "32,31", **SHORT}, 2, ["random"], 40, None),
    ({"go_fish_chooser": "taker", "fixed_tiles": "5,14", **SHORT}, 3, ["captain", "random", "random"], 30, None),
    ({"go_fish_chooser": "random", "fixed_tiles": "5", **SHORT}, 4, ["random"], 30, None),
    ({"tortoise_reveal": "random", "fixed_tiles": "30,29", **SHORT}, 4, ["random"], 30, None),
    ({"solitary_walrus_scope": "everywhere", "fixed_tiles": "7,32,28,24", **SHORT}, 3, ["random"], 40, None),
    ({"alligaturtle_scope": "matching_and_triggers", "fixed_tiles": "31,24,30,32,11", "start_tiles": 1, **SHORT}, 3, ["random"], 40, None),
    (CUT_RULES, 3, ["captain", "greedy", "random"], 30, None),
    ({"stowaway_empty_hand_draws": False, "fixed_tiles": "21,8", **SHORT}, 3, ["random"], 40, None),
    ({"front_ties_lead": True, "fixed_tiles": "38,26", **SHORT}, 3, ["random"], 40, None),
    # greedy bots: with random ones (as at 702bd53) A30's option changed no row of these games
    ({"tortoise_skips_empty_hands": True, "fixed_tiles": "30,21,18", **SHORT}, 4, ["greedy"], 40, None),
    ({"bayou_setter_only": True, "fixed_tiles": "11,31,8", **SHORT}, 3, ["random"], 40, None),
    ({"aside_face_up": True, "bayou_setter_only": True, "fixed_tiles": "11,13,8", **SHORT}, 3, ["captain", "random", "greedy"], 30, None),
    ({"staredown_skips_add_up": True, "fixed_tiles": "12,8,15", **SHORT}, 3, ["random"], 40, None),
    ({"winner_picks_play_tile_only": True, "map_pieces_to_win": 2, "start_tiles": 1}, 3, ["captain", "random", "greedy"], 30, None),
    ({"reuse_removed_tiles": True, "tile_pool": "1,4,8,10,12,16,18,20,23,25,30,33", "max_tiles_in_play": 2, "start_tiles": 0}, 3, ["random"], 30, None),
    ({"rabbit_reveal_compulsory": True, "fixed_tiles": "14,30", **SHORT}, 4, ["captain", "random", "greedy", "random"], 30, None),
    ({"voodoo_all_players": False, "mode": "cruise", "cruise_rounds": 5, "start_tiles": 0, "tile_pool": "39,37,38,33,27,26", "tiles_drawn_at_round_end": 2}, 3, ["random"], 30, None),
]  # fmt: skip

BOTS_CYCLE = (["random"], ["greedy"], ["captain"], ["captain", "random"])
TILE_CASES = []
for _t in range(1, C.N_TILES + 1):
    _players = 2 + _t % 5
    _bots = BOTS_CYCLE[_t % 4]
    _bots = (_bots * _players)[:_players] if len(_bots) > 1 else _bots
    _mode = {"mode": "cruise", "cruise_rounds": 2} if _t % 2 else dict(SHORT)
    TILE_CASES.append(({"fixed_tiles": tile_set(_t), **_mode}, _players, _bots, 25, None))

CASES = OPTION_CASES + TILE_CASES
DIFFERENTIAL_RULES = [rules for rules, *_ in CASES]


def test_the_cases_cover_every_tile_and_enough_games():
    in_play = {t: 0 for t in range(1, C.N_TILES + 1)}
    for rules, _, _, games, _ in CASES:
        if "fixed_tiles" in rules:
            for t in str(rules["fixed_tiles"]).split(","):
                in_play[int(t)] += games
    assert min(in_play.values()) >= 50, in_play
    assert sum(c[3] for c in CASES) >= 2000
    assert {p for _, p, *_ in CASES} == {2, 3, 4, 5, 6}
    heuristics = {n for n, b in RULESET.bots().items() if not b.search}  # not ismcts
    assert {b for c in CASES for b in c[2]} == heuristics


@pytest.mark.parametrize(
    "rules, players, bots, games, check", CASES, ids=[str(i) for i in range(len(CASES))]
)
def test_engine_matches_reference(rules, players, bots, games, check):
    spec = runner.make_spec(GAME, games, players, bots, rules, seed=17)
    chunk = next(iter(runner.iter_chunks(spec)))
    events = []
    for g in range(games):
        game_row, seat_rows, game_events = play_reference(spec, g)
        np.testing.assert_array_equal(chunk.game_out[g], game_row, err_msg=f"game {g}")
        np.testing.assert_array_equal(chunk.seat_out[g], seat_rows, err_msg=f"game {g} seats")
        events += game_events
    if check is not None:
        assert check(chunk.game_out, chunk.seat_out)
    rows = (chunk.game_out, chunk.seat_out)
    # seen to fail on case 10 as it was: its ``hand_size`` 5 changes nothing with 6 players (R4:
    # they are dealt ``hand_size_6p``), so the key was dropped from the case
    assert_options_took_effect(
        GAME, rules, players, bots, games, 17, rows, CONTEXT, OBSERVATION_ONLY, play_reference
    )
    _triggered_tiles_resolved(rules, events)


# What each configuration must show (issue 36): an option changes the games, a tile resolves ------
CONTEXT = {"fixed_tiles", "start_tiles", *SHORT}  # set up a case; not what the case tests
# Options that change only what a seat observes, not the rules: the heuristic bots of these cases
# do not read it, so their games cannot change; the check compares the observations handed to
# the bots instead (A15's alternative: T11's cards face up, F_ASIDE_UP)
OBSERVATION_ONLY = {"aside_face_up"}


def _triggered_tiles_resolved(rules, events):
    """In a tile case (``tile_set(t)``), tile ``t``, when it acts on a play (``C.PLAY_KEY``,
    ``C.PLAY_ONTO``), resolved at least once in the reference's games (an ``EV_TILE`` or a draw it
    caused); seen to fail on cases 34 and 61 when it required every fixed tile, companions too.
    The two companion tiles need not: T19's "you may take" was never taken in two cases
    that hold it as a companion. Tiles that only change matching or hold always (T6, T9, T29,
    T33-T37, ...) leave no event of their own and are not checked here."""
    t = int(str(rules.get("fixed_tiles", "0")).split(",")[0])
    if rules.get("fixed_tiles") != tile_set(t) or not (t in C.PLAY_KEY or t in C.PLAY_ONTO):
        return
    resolved = {e.get("tile") for e in events if e["kind"] in ("tile", "draw")}
    assert t in resolved, f"T{t} never resolved in these games"


def _engine_game(values, players, seed, game):
    rules = RULESET.encode_rules(values, players)
    state = np.zeros(C.STATE_LEN, np.int32)
    legal = np.zeros(C.MAX_LEGAL, np.int32)
    rng = np.array([stream_start(seed, game, CHANCE_STREAM)], np.uint64)
    state[L.H_CAP_TURNS] = values["turn_cap"] * players
    n = engine.deal(state, rules, players, rng, legal)
    return rules, state, legal, rng, n


def _conserved(state, ref):
    n_cards = state[C.F_N_CARDS]
    places = sorted(ref.card_places())
    assert places == list(range(n_cards)), "reference lost or doubled a card"
    loc = state[C.F_LOC : C.F_LOC + n_cards]
    assert np.all(loc != C.LOC_NONE), "engine lost a card"
    where = state[C.F_TILE_WHERE + 1 : C.F_TILE_WHERE + C.N_TILES + 1]
    assert list(where) == [ref.tile_where[t] for t in range(1, C.N_TILES + 1)], "tile places"
    assert sorted(ref.tile_where) == list(range(1, C.N_TILES + 1))


LOCKSTEP = [
    ({}, 4),
    (
        {
            "aside_face_up": True,
            "bayou_setter_only": True,
            "fixed_tiles": "11,13,31,8",
            "start_tiles": 0,
        },
        3,
    ),
    ({"fixed_tiles": "37,27,25,21,19,2", "start_tiles": 0}, 3),
    ({"fixed_tiles": "39,38,26,33,40,13", "start_tiles": 0}, 4),
    (
        {
            "fixed_tiles": "35,3,24,23,14,30",
            "mode": "cruise",
            "cruise_rounds": 3,
            "cruise_reset_at": 10,
        },
        5,
    ),
    (
        {
            "fixed_tiles": "18,17,16,5,4,10,11,12",
            "mode": "cruise",
            "cruise_reset_at": 12,
            "win_check_any_player": True,
        },
        6,
    ),
    ({"fixed_tiles": "22,8,15,36,1,20", "start_tiles": 0, "tile_conflict": "newest_wins"}, 2),
]


@pytest.mark.parametrize("overrides, players", LOCKSTEP)
def test_lockstep_legal_observation_and_conservation(overrides, players):
    from cardsim.core.options import resolve_options

    values = resolve_options(RULESET.options, overrides, GAME)
    pick = random.Random(5)
    for game in range(4):
        rules, state, legal, rng, n = _engine_game(values, players, 23, game)
        ref = ReferenceGame(values, players, 23, game)
        steps = 0
        while True:
            assert list(legal[:n]) == ref.legal(), f"game {game} step {steps}: legal"
            if n == 0:
                break
            obs = ref.observation()
            np.testing.assert_array_equal(
                state[: C.PUBLIC_END], obs[: C.PUBLIC_END], err_msg=f"game {game} step {steps}"
            )
            np.testing.assert_array_equal(
                state[C.OBS_HAND : C.OBS_HAND + C.MAX_CARDS],
                obs[C.OBS_HAND : C.OBS_HAND + C.MAX_CARDS],
            )
            _conserved(state, ref)
            code = int(legal[pick.randrange(n)])
            ref.apply(code)
            n = engine.step(state, rules, code, rng, legal)
            steps += 1
        assert ref.over and state[L.H_OVER] == 1
        game_row = np.zeros(G0 + C.N_GAME_COUNTERS, np.int32)
        seat_rows = np.zeros((players, S0 + C.N_COUNTERS), np.int32)
        engine.finalize(state, rules, game_row, seat_rows)
        ref_game, ref_seats = ref.outcome_rows()
        np.testing.assert_array_equal(game_row[G0:], ref_game[G0:])
        np.testing.assert_array_equal(seat_rows, ref_seats)


def test_turns_cut_by_the_round_turn_cap_happen_in_the_differential_games():
    """The CUT_RULES case above (engine = reference, game by game) holds turns that the round
    turn cap ends after ``round_turn_cap`` plays with another extra play open (A16)."""
    spec = runner.make_spec(GAME, 30, 3, ["captain", "greedy", "random"], CUT_RULES, seed=17)
    cuts = [
        e
        for g in range(10)
        for e in play_reference(spec, g)[2]
        if e["kind"] == "round_capped" and e["turn_plays"]
    ]
    assert cuts and all(e["turn_plays"] == 4 for e in cuts)
