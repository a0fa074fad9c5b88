"""Compiled Pajarracos engine vs the plain-Python reference (``reference.py``) on seeded games.

Two layers:

- whole games with the built-in bots: the engine's outcome rows (``runner.iter_chunks``) must equal
  the reference's (``play_reference``), every column and counter, on 2,000+ games covering 3-6
  players, every built-in bot and every rule option of ``pajarracos.md`` (Parameters table);
- lockstep: the engine's ``deal``/``step`` kernels and ``ReferenceGame`` driven by the same random
  decisions, comparing the whole state (public part, hands, reserve pile, counters, tie fields),
  the observation and the legal decisions after every step, naming the field that differs.
"""

from __future__ import annotations

import dataclasses
import random

import numpy as np
import pytest

from cardsim.core import kernel, runner
from cardsim.core import layout as L
from cardsim.core.outcomes import game_column_names, seat_column_names
from cardsim.core.rng import CHANCE_STREAM, stream_start
from cardsim.games.pajarracos import RULESET, engine
from cardsim.games.pajarracos import cards as C
from cardsim.games.pajarracos import rules as R
from cardsim.games.pajarracos.lockstep import state_differences
from cardsim.games.pajarracos.reference import (
    EV_ATTRACT,
    EV_DISCARD,
    EV_EXTRA_TURN,
    EV_FRUIT,
    EV_PROTECT,
    EV_SHOO_OUT,
    EV_SHOO_TO,
    EV_TURN,
    ReferenceGame,
    play_reference,
)
from tests.option_effects import assert_lockstep_options_shown, assert_options_took_effect

GAME = "pajarracos"
G0 = len(L.GAME_COLUMNS)  # first game counter column
S0 = len(L.SEAT_COLUMNS)  # first seat counter column
SMALL_DECK = {"fruit_kinds": 2, "fruit_per_kind": 3, "lone_crows": 1, "flocks": 0, "scarecrows": 1}


def _game_col(name: str) -> int:
    return (list(L.GAME_COLUMNS) + list(C.GAME_COUNTERS)).index(name)


def _seat_col(name: str) -> int:
    return (list(L.SEAT_COLUMNS) + list(C.SEAT_COUNTERS)).index(name)


def _any_game(col: str, pred=lambda v: v != 0):
    """Coverage check: some game's ``col`` satisfies ``pred``."""
    return lambda games, seats, events: bool(np.any(pred(games[:, _game_col(col)])))


def _any_seat(col: str, pred=lambda v: v != 0):
    return lambda games, seats, events: bool(np.any(pred(seats[:, :, _seat_col(col)])))


def _no_seat(col: str):
    return lambda games, seats, events: not np.any(seats[:, :, _seat_col(col)])


def _split_fruit_play(games, seats, events) -> bool:
    """Some action put fruit into two orchards (A3 alternative): two fruit events in a row."""
    for log in events:
        for a, b in zip(log, log[1:], strict=False):
            if a["kind"] == b["kind"] == EV_FRUIT and a["tree"][0] != b["tree"][0]:
                return True
    return False


def _a_pass(games, seats, events) -> bool:
    """discard_min 0: some action discarded nothing (A12 alternative)."""
    return any(e["kind"] == EV_DISCARD and not e["cards"] for log in events for e in log)


def _shared_win(games, seats, events) -> bool:
    return bool(np.any(seats[:, :, L.S_WIN].sum(axis=1) >= 2))


def _extra_turn_after_eating(games, seats, events) -> bool:
    """extra_turn_separate: some extra turn began after a crow ate in the same turn (A10)."""
    for log in events:
        ate = False
        for e in log:
            if e["kind"] == "eat":
                ate = True
            elif e["kind"] == EV_TURN:
                if e["extra"] and ate:
                    return True
                if not e["extra"]:
                    ate = False
    return False


def _actions(log):
    """The events of each action: lists of consecutive events of one seat between turn starts."""
    action: list[dict] = []
    for e in log:
        if e["kind"] == EV_TURN:
            if action:
                yield action
            action = []
        else:
            action.append(e)
    if action:
        yield action


_SCARECROWS = (EV_PROTECT, EV_SHOO_OUT, EV_SHOO_TO)


def _scarecrow_after_shoo_to(games, seats, events) -> bool:
    """shoo_to_ends_action false (A8, A11 alternative): some action placed a scarecrow after a
    shoo-to (the new default forbids it)."""
    for log in events:
        for action in _actions(log):
            kinds = [e["kind"] for e in action if e["kind"] in _SCARECROWS]
            if EV_SHOO_TO in kinds[:-1]:
                return True
    return False


def _no_scarecrow_after_shoo_to(games, seats, events) -> bool:
    return not _scarecrow_after_shoo_to(games, seats, events)


def _lost_extra_turn_with_no_reserve(games, seats, events) -> bool:
    """empty_extra_turn=lost (A10 alternative): an extra turn lost with the reserve pile empty."""
    for log in events:
        out = False
        for e in log:
            if e["kind"] == "reserve_out":
                out = True
            elif e["kind"] == "deal":
                out = e["reserve_left"] == 0
            elif e["kind"] == EV_EXTRA_TURN and not e["taken"] and out:
                return True
    return False


def _attraction_off_own_tree(games, seats, events) -> bool:
    """A4 default: some juicy card pulled a crow card off its player's own tree."""
    return any(
        e["kind"] == EV_ATTRACT and e["source"][0] == e["seat"] for log in events for e in log
    )


def _no_attraction_off_own_tree(games, seats, events) -> bool:
    return not _attraction_off_own_tree(games, seats, events)


END_EXTRA = C.END_EMPTY_EXTRA_TURN
OLD_READINGS = {
    "shoo_to_ends_action": False,
    "extra_turn_optional": False,
    "empty_extra_turn": "lost",
}  # pajarracos.md A8, A10, A11, A17: the earlier defaults

# (id, players, bots, rule options, games, coverage checks on the reference rows and events). Each
# check makes sure the configuration really exercises the rule it is here for.
CONFIGS = [
    (
        "base-3p-random",
        3,
        ["random"],
        {},
        150,
        [_any_seat("juicy_attractions"), _any_seat("extra_turns_declined")],
    ),
    (
        "base-4p-greedy",
        4,
        ["greedy"],
        {},
        150,
        [_any_seat("fruit_lost"), _any_game("end_reason", lambda v: v == END_EXTRA)],
    ),
    (
        "base-5p-strategist",
        5,
        ["strategist"],
        {},
        100,
        [_any_seat("shoo_outs"), _no_scarecrow_after_shoo_to, _attraction_off_own_tree],
    ),
    ("base-6p-attacker", 6, ["crow-attacker"], {}, 80, [_any_seat("trees_wiped")]),
    ("base-4p-defender", 4, ["defender"], {}, 120, [_any_seat("extra_turns")]),
    (
        "mixed-5p",
        5,
        ["random", "greedy", "crow-attacker", "defender", "strategist"],
        {},
        100,
        [_any_seat("shoo_tos"), _any_seat("crows_redirected_onto")],
    ),
    (
        "mixed-6p-fixed-first",
        6,
        ["strategist", "random", "defender", "greedy", "crow-attacker", "random"],
        {"first_player": 4},
        80,
        [_any_game("first_seat", lambda v: v == 4)],
    ),
    ("hand-3-3p", 3, ["random"], {"hand_size": 3}, 80, [_any_seat("protects")]),
    # the earlier readings of A8/A11, A10/A13 and A17, alone and together
    (
        "old-readings-4p",
        4,
        ["random", "greedy", "defender", "strategist"],
        OLD_READINGS,
        120,
        [_scarecrow_after_shoo_to, _no_seat("extra_turns_declined")],
    ),
    (
        "shoo-to-goes-on-5p",
        5,
        ["random", "defender"] * 2 + ["crow-attacker"],
        {"shoo_to_ends_action": False, "scarecrows": 16, "lone_crows": 14},
        80,
        [_scarecrow_after_shoo_to, _any_seat("shoo_tos", lambda v: v >= 2)],
    ),
    (
        "extra-turn-compulsory-3p",
        3,
        ["random", "defender", "greedy"],
        {"extra_turn_optional": False},
        100,
        [_any_seat("extra_turns"), _no_seat("extra_turns_declined")],
    ),
    (
        "empty-extra-turn-lost-4p",
        4,
        ["random"],
        {"empty_extra_turn": "lost", "hand_size": 2, "scarecrows": 20, "lone_crows": 20},
        100,
        [
            _lost_extra_turn_with_no_reserve,
            _any_game("end_reason", lambda v: v != END_EXTRA),
            lambda g, s, e: not np.any(g[:, _game_col("end_reason")] == END_EXTRA),
        ],
    ),
    (
        "empty-extra-turn-ends-separate-4p",
        4,
        ["defender", "random"] * 2,
        {"extra_turn_separate": True, "scarecrows": 16, "hand_size": 3},
        100,
        [_any_game("end_reason", lambda v: v == END_EXTRA), _any_seat("extra_turns_declined")],
    ),
    (
        "juicy-not-own-crows-4p",
        4,
        ["random", "crow-attacker", "strategist", "random"],
        {"juicy_attracts_own_crows": False, "juicy_per_kind": 4},
        100,
        [_any_seat("juicy_attractions"), _no_attraction_off_own_tree],
    ),
    ("hand-9-4p", 4, ["greedy", "random"] * 2, {"hand_size": 9}, 60, []),
    (
        "few-kinds-3p",
        3,
        ["strategist", "random", "greedy"],
        {"fruit_kinds": 2, "fruit_per_kind": 12},
        80,
        [_any_seat("trees", lambda v: v == 2)],
    ),
    (
        "juicy-0-4p",
        4,
        ["random"],
        {"juicy_per_kind": 0, "fruit_per_kind": 6},
        80,
        [_no_seat("juicy_played")],
    ),
    (
        "juicy-3-4p",
        4,
        ["crow-attacker", "random"] * 2,
        {"juicy_per_kind": 3},
        80,
        [_any_seat("juicy_attractions", lambda v: v >= 2)],
    ),
    (
        "juicy-all-5p",
        5,
        ["random"],
        {"juicy_per_kind": 9, "juicy_may_be_played_alone": False},
        40,
        [_no_seat("juicy_played")],  # A2 alternative: no ordinary card exists to go with them
    ),
    (
        "juicy-not-alone-3p",
        3,
        ["random", "crow-attacker", "greedy"],
        {"juicy_may_be_played_alone": False, "juicy_per_kind": 2},
        80,
        [_any_seat("juicy_played")],
    ),
    (
        "no-lone-crows-4p",
        4,
        ["random", "defender"] * 2,
        {"lone_crows": 0},
        60,
        [_no_seat("crows_played"), _any_seat("flocks_played")],
    ),
    (
        "no-flocks-5p",
        5,
        ["random"],
        {"flocks": 0},
        60,
        [_no_seat("flocks_played"), _no_seat("trees_wiped")],
    ),
    (
        "no-scarecrows-3p",
        3,
        ["greedy", "random", "crow-attacker"],
        {"scarecrows": 0},
        60,
        [_no_seat("protects")],
    ),
    (
        "no-crows-at-all-6p",
        6,
        ["random", "greedy"] * 3,
        {"lone_crows": 0, "flocks": 0, "scarecrows": 0},
        60,
        [_no_seat("crows_received"), _any_seat("juicy_played")],
    ),
    (
        "many-crows-4p",
        4,
        ["random"],
        {"lone_crows": 20, "flocks": 10, "scarecrows": 20},
        50,
        [_any_seat("trees_wiped", lambda v: v >= 2)],
    ),
    (
        "split-fruit-4p",
        4,
        ["random"],
        {"fruit_single_target": False},
        100,
        [_split_fruit_play],
    ),
    (
        "split-fruit-juicy-3p",
        3,
        ["random", "strategist", "random"],
        {"fruit_single_target": False, "juicy_per_kind": 4},
        60,
        [_split_fruit_play, _any_seat("juicy_attractions")],
    ),
    (
        "extra-separate-4p",
        4,
        ["random", "defender"] * 2,
        {"extra_turn_separate": True},
        100,
        [_any_seat("extra_turns"), _extra_turn_after_eating],
    ),
    (
        "extra-separate-6p",
        6,
        ["defender"],
        {"extra_turn_separate": True, "hand_size": 2},
        60,
        [_any_seat("extra_turns")],
    ),
    (
        "discard-min-0-3p",
        3,
        ["random"],
        {"discard_min": 0},
        80,
        [_a_pass],
    ),
    (
        "shared-ties-small-deck-4p",
        4,
        ["random"],
        SMALL_DECK,
        100,
        [_shared_win],
    ),
    (
        "replay-ties-small-deck-3p",
        3,
        ["random"],
        {**SMALL_DECK, "final_tie": "replay"},
        120,
        [_any_game("tie_replays"), _any_game("tie_replays", lambda v: v >= 2)],
    ),
    (
        "replay-ties-cap-5p",
        5,
        ["random", "greedy", "random", "defender", "random"],
        {**SMALL_DECK, "final_tie": "replay", "turn_cap": 4},
        100,
        [_any_game("tie_replays"), _any_game("turn_cap_hit")],
    ),
    (
        "replay-ties-6p",
        6,
        ["greedy", "random"] * 3,
        {"final_tie": "replay", "fruit_kinds": 3, "fruit_per_kind": 3, "hand_size": 2},
        60,
        [_any_game("tie_replays")],
    ),
    ("turn-cap-4p", 4, ["random"], {"turn_cap": 3}, 60, [_any_game("turn_cap_hit")]),
    ("turn-cap-pass-5p", 5, ["random"], {"turn_cap": 6, "discard_min": 0}, 40, []),
    (
        "one-card-hands-6p",
        6,
        ["random"],
        {"hand_size": 1, "fruit_kinds": 1, "fruit_per_kind": 4},
        40,
        [],
    ),
]
assert sum(c[4] for c in CONFIGS) >= 2000
assert {p for c in CONFIGS for p in [c[1]]} == {3, 4, 5, 6}


def test_every_builtin_bot_is_covered():
    heuristics = {n for n, b in RULESET.bots().items() if not b.search}  # not ismcts
    assert heuristics <= {b for c in CONFIGS for b in c[2]}


def _describe_diff(spec, game, eng_game, eng_seats, ref_game, ref_seats) -> str:
    gcols, scols = game_column_names(spec.ruleset), seat_column_names(spec.ruleset)
    out = [
        f"{gcols[j]}: engine {eng_game[j]}, reference {ref_game[j]}"
        for j in range(len(gcols))
        if eng_game[j] != ref_game[j]
    ]
    for s in range(len(eng_seats)):
        out += [
            f"seat {s} {scols[j]}: engine {eng_seats[s, j]}, reference {ref_seats[s, j]}"
            for j in range(len(scols))
            if eng_seats[s, j] != ref_seats[s, j]
        ]
    return f"game {game} (seed {spec.seed}, rules {spec.rules}): " + "; ".join(out)


@pytest.mark.parametrize(
    ("players", "bots", "rules", "games", "checks"),
    [c[1:] for c in CONFIGS],
    ids=[c[0] for c in CONFIGS],
)
def test_engine_matches_reference(players, bots, rules, games, checks):
    """Also each option the configuration sets took effect (``tests/option_effects.py``). Seen
    to fail on ``discard-min-0-3p`` as it was: its turn cap of 40 ended no game (the key was
    dropped)."""
    seed = 31 + games + players
    spec = runner.make_spec(GAME, games, players, bots, rules, seed=seed)
    rows = _assert_same_outcomes(spec, checks)
    assert_options_took_effect(GAME, rules, players, bots, games, seed, rows)


def test_engine_matches_reference_with_rotated_seating():
    # a strategy comparison seats bots by row ``game % rows`` of the seating table
    table = np.array([[0, 1, 2, 3], [1, 2, 3, 0], [2, 3, 0, 1], [3, 0, 1, 2]], np.int16)
    spec = runner.make_spec(
        GAME,
        40,
        4,
        ["random", "greedy", "defender", "strategist"],
        {},
        seed=8,
        seat_bot_table=table,
    )
    spec = dataclasses.replace(spec, first_game=1000)  # game indices 1000..1039
    _assert_same_outcomes(spec, [_any_seat("extra_turns")])


def _assert_same_outcomes(spec, checks):
    games = spec.n_games
    chunks = list(runner.iter_chunks(spec))
    eng_games = np.concatenate([c.game_out for c in chunks])
    eng_seats = np.concatenate([c.seat_out for c in chunks])
    ref_games = np.zeros_like(eng_games)
    ref_seats = np.zeros_like(eng_seats)
    events = []
    for g in range(games):
        ref_games[g], ref_seats[g], log = play_reference(spec, spec.first_game + g)
        events.append(log)
        if not (
            np.array_equal(eng_games[g], ref_games[g])
            and np.array_equal(eng_seats[g], ref_seats[g])
        ):
            pytest.fail(
                _describe_diff(
                    spec,
                    spec.first_game + g,
                    eng_games[g],
                    eng_seats[g],
                    ref_games[g],
                    ref_seats[g],
                )
            )
    for check in checks:
        assert check(ref_games, ref_seats, events), f"configuration does not exercise {check}"
    return eng_games, eng_seats


# Lockstep: same decisions on both sides, state compared after every step --------------------------
LOCKSTEP = [
    ("base", {}),
    ("old-readings", {**OLD_READINGS, "scarecrows": 16, "lone_crows": 14}),
    ("juicy-not-own-crows", {"juicy_attracts_own_crows": False, "juicy_per_kind": 4}),
    (
        "separate-lost",
        {"extra_turn_separate": True, "empty_extra_turn": "lost", "scarecrows": 16},
    ),
    ("small-hand-many-scarecrows", {"hand_size": 2, "scarecrows": 18, "lone_crows": 16}),
    ("split-fruit", {"fruit_single_target": False, "juicy_per_kind": 3}),
    ("juicy-not-alone", {"juicy_may_be_played_alone": False, "juicy_per_kind": 2}),
    ("extra-separate", {"extra_turn_separate": True, "lone_crows": 14, "scarecrows": 16}),
    ("discard-min-0", {"discard_min": 0, "turn_cap": 12}),
    ("replay-ties", {**SMALL_DECK, "final_tie": "replay", "turn_cap": 30}),
    ("no-crows", {"lone_crows": 0, "flocks": 0, "hand_size": 7}),
    ("small-cap-fixed-first", {"turn_cap": 5, "first_player": 2}),
]


def test_every_option_of_a_lockstep_case_is_shown_to_take_effect_in_whole_games():
    """Seen to fail with ``first_player`` planted out of the whole-game configurations."""
    assert_lockstep_options_shown([r for _, r in LOCKSTEP], [c[3] for c in CONFIGS])


DIFFERENTIAL_RULES = [c[3] for c in CONFIGS] + [c[1] for c in LOCKSTEP]
"""Every rule-override dict of the engine-vs-reference tests (tests/test_rule_coverage.py checks
that each option of pajarracos.md Parameters takes a non-default value in one of them)."""


class Lockstep:
    """The engine's kernels and a ReferenceGame playing the same game."""

    def __init__(self, values: dict, players: int, seed: int, game: int):
        self.label = f"{players}p seed {seed} game {game}"
        self.rules = R.encode(values, players)
        self.state = np.zeros(C.STATE_LEN, np.int32)
        self.state[L.H_CAP_TURNS] = values["turn_cap"] * players  # as the play loop does
        self.chance = np.array([stream_start(seed, game, CHANCE_STREAM)], np.uint64)
        self.legal = np.zeros(C.MAX_LEGAL, np.int32)
        self.obs = np.zeros(C.OBS_LEN, np.int32)
        self.n = engine.deal(self.state, self.rules, players, self.chance, self.legal)
        self.ref = ReferenceGame(values, players, seed, game)
        self.steps = 0
        self.decisions = 0  # real choices, as the play loop counts them (kernel.py)

    def check(self) -> None:
        where = f"{self.label} step {self.steps} phase {self.ref.phase}"
        diff = state_differences(self.state, self.ref.state_array())
        assert not diff, f"{where}: {diff}"
        assert bool(self.state[L.H_OVER]) == self.ref.is_over
        if self.ref.is_over:
            assert self.n == 0, where
            return
        assert [int(x) for x in self.legal[: self.n]] == self.ref.legal(), where
        seat = self.ref.seat
        seen = C.OBS_HAND + C.N_TYPES  # the public state and the seat's hand
        obs = engine.observe(self.state, seat, self.obs)
        np.testing.assert_array_equal(obs[:seen], self.ref.observation(seat)[:seen], err_msg=where)

    def step(self, decision: int) -> None:
        self.decisions += self.n > 1
        self.n = engine.step(self.state, self.rules, decision, self.chance, self.legal)
        kernel.end_turn_cap_reached(self.state)  # the loop's check after every decision
        self.ref.apply(decision)
        self.steps += 1

    def finish(self) -> None:
        players = self.ref.n
        game_row = np.zeros(G0 + len(C.GAME_COUNTERS), np.int32)
        seat_rows = np.zeros((players, S0 + C.N_COUNTERS), np.int32)
        engine.finalize(self.state, self.rules, game_row, seat_rows)
        loop_columns(self.state, self.decisions, game_row)
        ref_game, ref_seats = self.ref.outcome_rows()
        np.testing.assert_array_equal(game_row, ref_game, err_msg=self.label)  # the whole row
        np.testing.assert_array_equal(seat_rows, ref_seats, err_msg=self.label)


def loop_columns(state, decisions: int, game_row) -> None:
    """The game columns the play loop writes after ``finalize`` (core/kernel.py ``play_game``)."""
    game_row[L.G_N_PLAYERS] = state[L.H_N_PLAYERS]
    game_row[L.G_FIRST_SEAT] = state[L.H_FIRST]
    game_row[L.G_TURNS] = state[L.H_TURNS]
    game_row[L.G_END_REASON] = state[L.H_END_REASON]
    game_row[L.G_TURN_CAP_HIT] = int(state[L.H_END_REASON] == L.END_TURN_CAP)
    game_row[L.G_DECISIONS] = decisions
    game_row[L.G_BAD_BOT_ANSWERS] = 0


@pytest.mark.parametrize("rules", [c[1] for c in LOCKSTEP], ids=[c[0] for c in LOCKSTEP])
def test_lockstep_state_legal_and_result(rules):
    """Random decisions; after each one the engine's state equals the reference's."""
    pick = random.Random(7)
    for players in (3, 4, 5, 6):
        if rules.get("first_player", "random") not in ("random", *range(players)):
            continue
        values = runner.make_spec(GAME, 1, players, ["random"], rules).rules
        for game in range(3):
            both = Lockstep(values, players, 41, game)
            while True:
                both.check()
                if both.ref.is_over:
                    break
                both.step(int(both.legal[pick.randrange(both.n)]))
            both.finish()
