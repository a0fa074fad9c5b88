"""Compiled Fruit Picking engine vs the plain-Python reference (``reference.py``) on seeded games.

Two layers:

- whole games with the built-in bots: the engine's outcome rows (``runner.iter_chunks``) must equal
  the reference's (``play_reference``), every column, on 2,000+ games covering 2-4 players, every
  variant (fruit-picking.md V1-V3) and the ambiguity options (A4, A8, A13-A16, A18, A19);
- lockstep: the engine's kernels and ``ReferenceGame`` driven by the same decisions, comparing the
  whole state (``cards.py`` layout: public part, stack order, counters, card owners), the legal
  decisions after every step and the whole outcome rows at the end;
- the rule options' defaults are the doc's Parameters table: tests/test_rule_defaults.py, which
  reads the table from fruit-picking.md (the reference derives every rule value from the options,
  so a wrong default in ``rules.py`` would otherwise pass unseen).
"""

from __future__ import annotations

import dataclasses
import random

import numpy as np
import pytest

from cardsim.core import kernel, runner
from cardsim.core import layout as L
from cardsim.core.outcomes import game_column_names, seat_column_names
from cardsim.core.reference import engine_check
from cardsim.core.rng import CHANCE_STREAM, stream_start
from cardsim.games.fruit_picking import cards as C
from cardsim.games.fruit_picking import engine, trace
from cardsim.games.fruit_picking import rules as R
from cardsim.games.fruit_picking.bots import BUILTIN
from cardsim.games.fruit_picking.reference import ReferenceGame, play_reference
from tests.option_effects import assert_options_took_effect

GAME = "fruit-picking"
G0 = len(L.GAME_COLUMNS)  # first game counter column
S0 = len(L.SEAT_COLUMNS)  # first seat counter column


def _game_col(name: str) -> int:
    return (list(L.GAME_COLUMNS) + list(C.GAME_COUNTERS)).index(name)


def _seat_col(name: str) -> int:
    return (list(L.SEAT_COLUMNS) + list(C.SEAT_COUNTERS)).index(name)


def _any_game(col: str, pred=lambda v: v != 0):
    """Coverage check: some game's ``col`` satisfies ``pred``."""
    return lambda games, seats: bool(np.any(pred(games[:, _game_col(col)])))


def _any_seat(col: str, pred=lambda v: v != 0):
    return lambda games, seats: bool(np.any(pred(seats[:, :, _seat_col(col)])))


def _end_reason(code: int):
    return _any_game("end_reason", lambda v: v == code)


def _tiebreak_differs(games, seats) -> bool:
    """tiebreak_fruits=set_cards (A9) changed what some seat's first tie-break counts."""
    fruits = seats[:, :, _seat_col("fruits")]
    return bool(np.any(seats[:, :, _seat_col("tiebreak_fruits")] != fruits))


# (id, players, bots, rule options, games, coverage checks on the reference rows). Each check makes
# sure the configuration really exercises the rule it is here for.
CONFIGS = [
    ("base-2p-random", 2, ["random"], {}, 100, [_end_reason(C.END_SET_COMPLETED)]),
    ("base-3p-greedy", 3, ["greedy"], {}, 100, [_any_seat("house_repeats")]),  # R10
    ("base-4p-planner", 4, ["planner"], {}, 100, [_any_seat("waterings")]),  # R12
    ("base-2p-planner", 2, ["planner"], {}, 40, [_any_seat("cards_bought")]),
    (
        "mixed-4p",
        4,
        ["random", "greedy", "planner", "greedy"],
        {},
        100,
        [_any_seat("set_completed")],
    ),
    ("mixed-3p-rotated", 3, ["planner", "random", "greedy"], {"first_player": 2}, 60, []),
    # V1 umbrella, firing on any draw (A13 default) and only on entering a slot
    (
        "umbrella-3p",
        3,
        ["greedy"],
        {"variant_umbrella": True},
        100,
        [_any_game("umbrella_triggers"), _any_seat("umbrella_seeds")],
    ),
    (
        "umbrella-on-entry-4p",
        4,
        ["random"],
        # A13: the readings differ only when V2 sends a drawn umbrella to the bottom of the stack
        {
            "variant_umbrella": True,
            "umbrella_fires_on_any_draw": False,
            "variant_market_operation": True,
        },
        100,
        [_any_game("umbrella_triggers")],
    ),
    (
        "umbrella-2-per-kind-2p",
        2,
        ["planner"],
        {"variant_umbrella": True, "umbrella_per_kind": 2},
        80,
        [_any_game("umbrella_triggers", lambda v: v >= 3)],
    ),
    # V2 market operation, paid from the House (A14 default) or storage, cost 1 or 0
    (
        "market-op-2p",
        2,
        ["random"],
        {"variant_market_operation": True},
        100,
        [_any_seat("market_ops")],
    ),
    (
        "market-op-storage-3p",
        3,
        ["random", "greedy", "random"],
        {"variant_market_operation": True, "market_op_pays_from": "storage"},
        100,
        [_any_seat("market_ops")],
    ),
    (
        "market-op-free-4p",
        4,
        ["random"],
        {"variant_market_operation": True, "market_op_cost": 0},
        100,
        [_any_seat("market_ops", lambda v: v >= 3)],
    ),
    (
        "market-op-umbrella-on-entry-3p",
        3,
        ["random"],
        {
            "variant_market_operation": True,
            "variant_umbrella": True,
            "umbrella_per_kind": 3,
            "umbrella_fires_on_any_draw": False,
        },
        80,
        [_any_seat("market_ops"), _any_game("umbrella_triggers")],
    ),
    (
        "market-op-umbrella-any-draw-2p",
        2,
        ["random"],
        {
            "variant_market_operation": True,
            "variant_umbrella": True,
            "umbrella_per_kind": 3,
            "market_op_cost": 0,
        },
        80,
        [_any_seat("market_ops"), _any_game("umbrella_triggers")],
    ),
    # V3 beginners, with and without sets ending the game (A15)
    (
        "beginners-2p",
        2,
        ["greedy"],
        {"variant_beginners": True},
        100,
        [_end_reason(C.END_CARDS_BOUGHT)],
    ),
    (
        "beginners-sets-4p",
        4,
        ["random"],
        {"variant_beginners": True, "beginner_sets_end_game": True},
        100,
        [_end_reason(C.END_SET_COMPLETED), _end_reason(C.END_CARDS_BOUGHT)],
    ),
    (
        "beginners-sets-3p",
        3,
        ["planner"],
        {
            "variant_beginners": True,
            "beginner_sets_end_game": True,
            "beginner_cards_to_end": 7,
        },
        80,
        [_any_seat("set_completed")],
    ),
    # A4: many seeds, so that plantings lap the farm
    (
        "skip-origin-3p",
        3,
        ["random"],
        {"skip_origin_when_lapping": True, "seeds_per_player": 30, "setup_seeds": (8, 8, 8)},
        100,
        [],
    ),
    # A8 alternative: nobody wins without a set (small stack, so that games end without one)
    (
        "no-set-winner-none-2p",
        2,
        ["greedy"],
        {"no_set_winner": "none", "market_cards_per_kind": 2},
        100,
        [
            _end_reason(C.END_STACK_EXHAUSTED),
            lambda g, s: bool(np.any(s[:, :2, L.S_WIN].sum(axis=1) == 0)),
        ],
    ),
    # A16, A19: fixed farm order and first player
    (
        "fixed-farm-first-4p",
        4,
        ["planner"],
        {
            "farm_order": ("strawberry", "banana", "cherry", "grapes", "pineapple", "rain"),
            "first_player": 3,
        },
        80,
        [_any_game("first_seat", lambda v: v == 3)],
    ),
    # A18: a small turn cap fires
    ("turn-cap-4p", 4, ["random"], {"turn_cap": 3}, 100, [_any_game("turn_cap_hit")]),
    (
        "turn-cap-none-2p",
        2,
        ["planner"],
        {"turn_cap": 6, "no_set_winner": "none"},
        60,
        [_any_game("turn_cap_hit")],
    ),
    # A6, A7: a small stack runs out (also during setup with 6 slots and 5 cards)
    (
        "small-stack-3p",
        3,
        ["random"],
        {"market_cards_per_kind": 2},
        100,
        [_end_reason(C.END_STACK_EXHAUSTED)],
    ),
    (
        "stack-empty-at-setup-2p",
        2,
        ["random"],
        {"market_cards_per_kind": 1, "market_slots": 6},
        40,
        [_any_game("trigger_seat", lambda v: v == -1)],
    ),
    # A2 per-card fruits, custom surcharges; R7/A3 with few seeds and seeds leaving play (A14)
    (
        "odd-prices-3p",
        3,
        ["greedy"],
        {"market_fruits": (3, 1, 2, 2, 1), "slot_surcharge": (0, 2, 4, 1)},
        60,
        [],
    ),
    # R12, A2: other fruits per farm card (market cards follow them by default)
    (
        "other-farm-fruits-3p",
        3,
        ["greedy", "planner", "random"],
        {"farm_fruits": (3, 2, 1, 1, 3, 2)},
        60,
        [_any_seat("waterings")],
    ),
    # A2: printed fruits per card (one value per card, kind by kind)
    (
        "fruits-per-card-3p",
        3,
        ["planner", "greedy", "random"],
        {"market_fruits": (1, 2, 3, 1, 2, 3) * 5},  # 6 cards of each of 5 kinds (R1)
        60,
        [_any_seat("cards_bought")],
    ),
    # A9: the first tie-break counts the cards of the best set only (with per-card fruits, so that
    # the choice of cards matters, and with V3's sets ending the game)
    (
        "tiebreak-set-cards-4p",
        4,
        ["planner", "random"] * 2,
        {"tiebreak_fruits": "set_cards"},
        100,
        [_tiebreak_differs],
    ),
    (
        "tiebreak-set-cards-per-card-3p",
        3,
        ["greedy", "planner", "random"],
        {"tiebreak_fruits": "set_cards", "market_fruits": (3, 1, 2, 2, 1, 1) * 5},
        80,
        [_tiebreak_differs],
    ),
    (
        "tiebreak-set-cards-beginners-2p",
        2,
        ["random"],
        {"tiebreak_fruits": "set_cards", "variant_beginners": True, "beginner_sets_end_game": True},
        60,
        [],
    ),
    # A11: the 2020 "no seeds" procedure (few seeds, so that it runs often and storage runs short)
    (
        "no-seed-2020-3p",
        3,
        ["random", "greedy", "planner"],
        {"no_seed_rule": "2020", "seeds_per_player": 7, "setup_seeds": (2, 1)},
        80,
        [_any_seat("no_seed_turns")],
    ),
    (
        "no-seed-2020-refill-5-2p",
        2,
        ["random"],
        {
            "no_seed_rule": "2020",
            "seeds_per_player": 6,
            "setup_seeds": (1, 1),
            "no_seed_refill": 5,
            "turn_cap": 100,
        },
        60,
        [_any_seat("no_seed_turns")],
    ),
    (
        "few-seeds-4p",
        4,
        ["random"],
        {
            "seeds_per_player": 6,
            "setup_seeds": (1, 1),
            "no_seed_refill": 2,
            "variant_market_operation": True,
            "market_op_pays_from": "storage",
            "market_op_cost": 3,
            "turn_cap": 150,
        },
        60,
        [_any_seat("no_seed_turns")],
    ),
]
assert sum(c[4] for c in CONFIGS) >= 2000
assert {b for c in CONFIGS for b in c[2]} >= {"random", "greedy", "planner"}


def test_every_builtin_bot_is_covered():
    assert set(BUILTIN) <= {b for c in CONFIGS for b in c[2]}


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
    to fail on three configurations as they were: ``umbrella-on-entry-4p`` without V2, where A13's
    two readings cannot differ (a drawn umbrella always enters a slot), ``fruits-per-card-3p``
    setting ``market_cards_per_kind`` to its default 6, and ``no-seed-2020-3p``'s turn cap of 150
    that no game reached; the first gained V2, the other two lost the key."""
    seed = 20260 + games + players
    spec = runner.make_spec(GAME, games, players, bots, rules, seed=seed)
    rows = _assert_same_outcomes(spec, checks)
    assert_options_took_effect(GAME, rules, players, bots, games, seed, rows)


def test_engine_matches_reference_with_rotated_seating():
    # a strategy comparison seats bots by row ``game % rows`` of the seating table
    table = np.array([[0, 1, 2], [1, 2, 0], [2, 0, 1]], np.int16)
    spec = runner.make_spec(
        GAME, 60, 3, ["random", "greedy", "planner"], {"turn_cap": 80}, seed=8, seat_bot_table=table
    )
    spec = dataclasses.replace(spec, first_game=1000)  # game indices 1000..1059
    _assert_same_outcomes(spec, [_any_seat("set_completed")])


def _assert_same_outcomes(spec, checks):
    games = spec.n_games
    chunks = list(runner.iter_chunks(spec))
    eng_games = np.concatenate([c.game_out for c in chunks])
    eng_seats = np.concatenate([c.seat_out for c in chunks])
    ref_games = np.zeros_like(eng_games)
    ref_seats = np.zeros_like(eng_seats)
    for g in range(games):
        ref_games[g], ref_seats[g], _ = play_reference(spec, spec.first_game + g)
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
        assert check(ref_games, ref_seats), f"configuration does not exercise {check}"
    return eng_games, eng_seats


# Lockstep: same decisions on both sides, state compared after every step ---------------------------
LOCKSTEP = [c for c in CONFIGS if c[0] not in ("mixed-3p-rotated", "base-2p-planner")]

DIFFERENTIAL_RULES = [c[3] for c in CONFIGS]
"""Every rule-override dict of the engine-vs-reference tests (tests/test_rule_coverage.py checks
that each option of fruit-picking.md Parameters takes a non-default value in one of them)."""


def _engine_setup(values, n_players, seed, game):
    rules = R.encode(values, n_players)
    state = np.zeros(C.STATE_LEN, np.int32)
    state[L.H_CAP_TURNS] = values["turn_cap"] * n_players  # as the play loop does (kernel.py)
    chance = np.array([stream_start(seed, game, CHANCE_STREAM)], np.uint64)
    engine.KERNELS[0](state, rules, n_players, chance)
    return state, rules, chance


def _field_name(i: int) -> str:
    names = {v: k for k, v in vars(L).items() if k.startswith("H_") and isinstance(v, int)}
    names.update({v: k for k, v in vars(C).items() if k.startswith("F_") and isinstance(v, int)})
    if i in names:
        return names[i]
    if C.F_SEATS <= i < C.F_MARKET_CARD:
        seat, off = divmod(i - C.F_SEATS, C.SEAT_LEN)
        return f"seat {seat} offset {off}"
    if C.F_COUNTERS <= i < C.STATE_LEN:
        seat, c = divmod(i - C.F_COUNTERS, C.N_COUNTERS)
        return f"seat {seat} counter {C.SEAT_COUNTERS[c]}"
    base = max(v for v in names if v <= i)
    return f"{names[base]}[{i - base}]"


def _state_diff(state: np.ndarray, ref_state: np.ndarray) -> list[str]:
    """Fields of the whole state (``cards.py`` layout) where the engine and the reference differ:
    everything but the stack past its top (left as it was)."""
    top = C.F_STACK + int(ref_state[C.F_STACK_LEFT])
    return [
        f"{_field_name(i)}: engine {state[i]}, reference {ref_state[i]}"
        for i in range(C.STATE_LEN)
        if state[i] != ref_state[i] and not top <= i < C.F_STACK + C.MAX_CARDS
    ]


def _loop_columns(state, decisions: int, game_row) -> None:
    """The game columns the play loop writes after ``finalize`` (core/kernel.py ``play_game``)."""
    game_row[L.G_N_PLAYERS] = state[L.H_N_PLAYERS]
    game_row[L.G_FIRST_SEAT] = state[L.H_FIRST]
    game_row[L.G_TURNS] = state[L.H_TURNS]
    game_row[L.G_END_REASON] = state[L.H_END_REASON]
    game_row[L.G_TURN_CAP_HIT] = int(state[L.H_END_REASON] == L.END_TURN_CAP)
    game_row[L.G_DECISIONS] = decisions
    game_row[L.G_BAD_BOT_ANSWERS] = 0


@pytest.mark.parametrize("rules", [c[3] for c in LOCKSTEP], ids=[c[0] for c in LOCKSTEP])
def test_lockstep_whole_state_legal_and_result(rules):
    """Random decisions; after each one the engine's whole state equals the reference's, and the
    finished game's whole outcome rows agree."""
    _, legal_fn, apply, _, finalize = engine.KERNELS
    pick = random.Random(7)
    for players in (2, 3, 4):
        if rules.get("first_player", "random") not in ("random", *range(players)):
            continue  # that seat does not exist with this many players
        values = runner.make_spec(GAME, 1, players, ["random"], rules).rules
        for game in range(4):
            state, rv, chance = _engine_setup(values, players, 31, game)
            ref = ReferenceGame(values, players, 31, game)
            buf = np.zeros(C.MAX_LEGAL, np.int32)
            step = decisions = 0
            while True:
                diff = _state_diff(state, ref.state_array())
                assert not diff, (
                    f"{players}p game {game} step {step} phase {state[L.H_PHASE]}: {diff}"
                )
                if state[L.H_OVER]:
                    break
                n = legal_fn(state, buf)
                assert list(buf[:n]) == ref.legal(), f"{players}p game {game} step {step}"
                decision = int(buf[pick.randrange(n)])
                decisions += n > 1  # the play loop counts real choices only
                apply(state, rv, decision, chance)
                kernel.end_turn_cap_reached(state)  # the loop's check after every decision
                ref.apply(decision)
                step += 1
            assert ref.is_over
            game_row = np.zeros(G0 + len(C.GAME_COUNTERS), np.int32)
            seat_rows = np.zeros((players, S0 + C.N_COUNTERS), np.int32)
            finalize(state, rv, game_row, seat_rows)
            _loop_columns(state, decisions, game_row)
            ref_game, ref_seats = ref.outcome_rows()
            np.testing.assert_array_equal(game_row, ref_game)  # the whole row
            np.testing.assert_array_equal(seat_rows, ref_seats)


def test_f_target_is_minus_one_during_the_market_operation():
    # regression: the engine once kept the target position in F_TARGET during the V2 decisions
    # cards.py: F_TARGET is "target position while PHASE_TARGET, else -1"; the V2 decisions
    # (fruit-picking.md V2, A14) come after the purchase, when there is no target card any more.
    values = runner.make_spec(GAME, 1, 2, ["random"], {"variant_market_operation": True}).rules
    _, legal_fn, apply, _, _ = engine.KERNELS
    buf = np.zeros(C.MAX_LEGAL, np.int32)
    seen = {C.PHASE_MARKET_OP: [], C.PHASE_OP_CHOOSE: []}
    for game in range(3):
        state, rv, chance = _engine_setup(values, 2, 31, game)
        while not state[L.H_OVER]:
            if state[L.H_PHASE] in seen:
                seen[int(state[L.H_PHASE])].append(int(state[C.F_TARGET]))
            n = legal_fn(state, buf)
            # buy whenever possible and use the market operation, so that V2 phases come up
            apply(state, rv, int(buf[n - 1]), chance)
            kernel.end_turn_cap_reached(state)
    assert seen[C.PHASE_MARKET_OP] and seen[C.PHASE_OP_CHOOSE]
    assert set(seen[C.PHASE_MARKET_OP]) == {-1}, f"F_TARGET while MARKET_OP: {seen[2]}"
    assert set(seen[C.PHASE_OP_CHOOSE]) == {-1}, f"F_TARGET while OP_CHOOSE: {seen[3]}"


# The replay (trace.py) is told from the reference's events and checked against the engine -------
@pytest.mark.parametrize(
    "rules, end, winner",
    [
        ({}, "a set was completed (R21)", "completed a set, R22"),
        ({"variant_beginners": True},
         "a player owns the cards that end a beginners' game (V3, A15)", "owns 5 market cards, A15"),
    ],
)  # fmt: skip
def test_trace_replay_says_why_the_game_ended_and_who_could_win_in_words(rules, end, winner):
    spec = runner.make_spec(GAME, 5, 3, ["greedy"], rules, seed=0)
    lines = trace.replay(spec, 4).splitlines()
    assert any(line.startswith("Game over after ") and line.endswith(f": {end}.") for line in lines)
    assert any(f"WINS ({winner}); " in line for line in lines)
    assert not any(reason in line for line in lines for reason in C.END_REASONS)  # no raw keys
    assert trace.END_WORDS.keys() == set(range(len(C.END_REASONS)))


def test_trace_replay_tells_the_game_and_confirms_the_engine():
    """Restored: its ``def`` line was lost in 2b987eb, so this body ran twice inside the
    parametrized test above under that test's name. Seen to fail with ``engine_check`` planted to
    return ``ENGINE_AGREES`` whatever the rows (the wrong row is no longer reported)."""
    rules = {"variant_umbrella": True, "variant_market_operation": True}
    spec = runner.make_spec(GAME, 5, 3, ["random", "greedy", "planner"], rules, seed=3)
    text = trace.replay(spec, 4)
    lines = text.splitlines()
    assert lines[-1] == "Engine check: the compiled engine's outcome row equals the reference's."
    assert "Turn 1: Seat" in text and "Plants" in text and "Winner(s): " in text
    assert all(
        f"Seat {s} ({name})" in text for s, name in enumerate(["random", "greedy", "planner"])
    )
    game_row, seat_rows, _ = play_reference(spec, 4)
    seat_rows[0, L.S_SCORE] += 1  # a wrong row must be reported, naming the column
    warning = engine_check(spec, 4, game_row, seat_rows)
    assert warning.startswith("WARNING") and "seat 0 score" in warning
