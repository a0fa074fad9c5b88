"""Invariants of the compiled Fruit Picking engine, checked after every step of hypothesis-driven
games (rule options drawn too): seeds and market cards are conserved, only legal decisions are
offered (and applied), and every game ends within the turn cap.
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
from cardsim.games.fruit_picking import cards as C
from cardsim.games.fruit_picking import engine
from cardsim.games.fruit_picking import reference as REF
from cardsim.games.fruit_picking import rules as R

SETUP, LEGAL, APPLY, OBSERVE, FINALIZE = engine.KERNELS
FARM_NAMES = ("rain", "pineapple", "grapes", "cherry", "banana", "strawberry")


@st.composite
def rule_options(draw) -> tuple[dict, int]:
    """Rule option values (variants on/off, ambiguity options, the list-valued options with
    values of their own) and a player count 2-4."""
    n = draw(st.integers(2, 4))
    per_kind = draw(st.integers(1, C.MAX_PER_KIND))
    setup = draw(st.lists(st.integers(0, 4), min_size=1, max_size=6))
    seeds = draw(st.integers(max(6, sum(setup)), 40))
    given = {
        "seeds_per_player": seeds,
        "setup_seeds": tuple(setup),
        "market_cards_per_kind": per_kind,
        "no_seed_refill": draw(st.integers(1, 6)),
        "no_seed_rule": draw(st.sampled_from(["2014", "2020"])),
        "tiebreak_fruits": draw(st.sampled_from(["all_cards", "set_cards"])),
        "farm_fruits": tuple(draw(st.lists(st.integers(0, 9), min_size=6, max_size=6))),
        "skip_origin_when_lapping": draw(st.booleans()),
        "no_set_winner": draw(st.sampled_from(["tiebreak", "none"])),
        "variant_umbrella": draw(st.booleans()),
        "umbrella_per_kind": draw(st.integers(0, min(per_kind, 6))),
        "umbrella_fires_on_any_draw": draw(st.booleans()),
        "variant_market_operation": draw(st.booleans()),
        "market_op_cost": draw(st.integers(0, 3)),
        "market_op_pays_from": draw(st.sampled_from(["house", "storage"])),
        "variant_beginners": draw(st.booleans()),
        "beginner_cards_to_end": draw(st.integers(1, 10)),
        "beginner_sets_end_game": draw(st.booleans()),
        "farm_order": draw(st.one_of(st.just("random"), st.permutations(FARM_NAMES).map(tuple))),
        "first_player": draw(st.one_of(st.just("random"), st.integers(0, n - 1))),
        "turn_cap": draw(st.integers(1, 120)),
    }
    slots = draw(st.sampled_from([None, 1, 2, 3, 4, 5, 6]))  # None: the default (4, or 3 in V3)
    if slots is not None:
        given["market_slots"] = slots
    if draw(st.booleans()):  # own surcharges, one per slot in play
        count = slots if slots is not None else (3 if given["variant_beginners"] else 4)
        given["slot_surcharge"] = tuple(
            draw(st.lists(st.integers(0, 9), min_size=count, max_size=count))
        )
    fruits = draw(st.sampled_from([None, "per kind", "per card"]))  # A2
    if fruits is not None:
        count = C.N_FRUIT_KINDS * (1 if fruits == "per kind" else per_kind)
        given["market_fruits"] = tuple(
            draw(st.lists(st.integers(0, 9), min_size=count, max_size=count))
        )
    return resolve_options(R.OPTIONS, given, "fruit-picking"), n


def _check_seeds(state, values, n) -> None:
    # fruit-picking.md R19 note: each player's seeds are on the farm, in storage, or (A14
    # option) paid out of play; never negative, never passed between players.
    for seat in range(C.MAX_PLAYERS):
        b = C.seat_base(seat)
        block = state[b : b + C.SEAT_LEN]
        if seat >= n:
            assert not block.any(), f"absent seat {seat} has state {block}"
            continue
        assert (block[: C.SEAT_OUT + 1] >= 0).all()
        total = int(block[C.SEAT_SEEDS : C.SEAT_SEEDS + 7].sum()) + int(block[C.SEAT_STORAGE])
        assert total + int(block[C.SEAT_OUT]) == values["seeds_per_player"]


def _check_farm(state, values) -> None:
    # R2, R12: the farm holds the House and the six other cards once each; watering a card adds
    # its fruits or raindrops (the reference's reading of the doc and of farm_fruits)
    kinds = [int(k) for k in state[C.F_FARM_KIND : C.F_FARM_KIND + 7]]
    assert kinds[0] == C.HOUSE and sorted(kinds[1:]) == sorted(C.FARM_CARDS)
    water = REF.farm_water(values)
    assert [int(w) for w in state[C.F_FARM_WATER : C.F_FARM_WATER + 7]] == [water[k] for k in kinds]


def _check_cards(state, values, n) -> None:
    # Components, R5, R17, R18, V2: every market card is in exactly one place: the stack, a market
    # slot, a collection (counted per kind), or the V2 pair drawn while the choice is pending.
    per_kind = values["market_cards_per_kind"]
    left = int(state[C.F_STACK_LEFT])
    places = [int(c) for c in state[C.F_STACK : C.F_STACK + left]]
    n_slots = int(state[C.F_N_SLOTS])
    # the reference's own reading of the doc and of the options (not rules.py's helpers)
    slots, surcharge = REF.market_layout(values)
    assert n_slots == slots
    fruits = REF.market_card_fruits(values)
    for slot in range(C.MAX_SLOTS):
        card = int(state[C.F_MARKET_CARD + slot])
        if card < 0:
            assert state[C.F_MARKET_KIND + slot] == -1 and state[C.F_MARKET_PRICE + slot] == 0
            continue
        assert slot < n_slots
        assert state[C.F_MARKET_KIND + slot] == card // per_kind
        assert state[C.F_MARKET_PRICE + slot] == fruits[card] + surcharge[slot]  # R15
        places.append(card)
    if state[L.H_PHASE] == C.PHASE_OP_CHOOSE and not state[L.H_OVER]:
        places += [int(state[C.F_OP_CARD_A]), int(state[C.F_OP_CARD_B])]
    assert len(places) == len(set(places)), f"a card is in two places: {sorted(places)}"
    assert all(0 <= c < 5 * per_kind for c in places)
    per_kind_count = np.bincount([c // per_kind for c in places], minlength=5)
    for seat in range(n):
        b = C.seat_base(seat)
        owned = state[b + C.SEAT_OWNED : b + C.SEAT_OWNED + 5]
        per_kind_count += owned
        assert state[b + C.SEAT_N_CARDS] == owned.sum()
    assert (per_kind_count == per_kind).all(), (
        f"cards per kind {per_kind_count}, expected {per_kind}"
    )


def _check_legal(state, legal, values) -> None:
    """The offered decisions are exactly what the rules allow, in canonical order (cards.py)."""
    phase, seat = int(state[L.H_PHASE]), int(state[L.H_SEAT])
    b = C.seat_base(seat)
    seeds = state[b + C.SEAT_SEEDS : b + C.SEAT_SEEDS + 7]
    if phase == C.PHASE_PLANT:  # R8: any non-House card with seeds
        assert legal == [p for p in range(1, 7) if seeds[p] > 0]
    elif phase == C.PHASE_TARGET:  # R11-R13, A5
        target = int(state[C.F_TARGET])
        assert 1 <= target <= 6
        kind = int(state[C.F_FARM_KIND + target])
        buys = [
            C.BUY_SLOT + s
            for s in range(int(state[C.F_N_SLOTS]))
            if kind < C.N_FRUIT_KINDS
            and state[C.F_MARKET_KIND + s] == kind
            and state[C.F_MARKET_PRICE + s] <= seeds[0]
        ]
        assert legal == [C.WATER] + buys
    elif phase == C.PHASE_MARKET_OP:
        # V2, A14: only with 2+ cards in the stack and the cost payable
        assert values["variant_market_operation"] and state[C.F_STACK_LEFT] >= 2
        paying = (
            state[b + C.SEAT_STORAGE] if values["market_op_pays_from"] == "storage" else seeds[0]
        )
        assert paying >= values["market_op_cost"]
        assert legal == [C.DECLINE, C.USE]
    else:
        assert phase == C.PHASE_OP_CHOOSE and legal == [0, 1]


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(options=rule_options(), game=st.integers(0, 10**6), data=st.data())
def test_invariants_hold_after_every_step(options, game, data):
    values, n = options
    rules = R.encode(values, n)
    cap_turns = values["turn_cap"] * n
    state = np.zeros(C.STATE_LEN, np.int32)
    state[L.H_CAP_TURNS] = cap_turns  # as the play loop does (kernel.py)
    chance = np.array([stream_start(0, game, CHANCE_STREAM)], np.uint64)
    SETUP(state, rules, n, chance)
    # Hypothesis picks the first decisions itself, then a generator it seeds picks the rest (games
    # run to hundreds of decisions: a draw per decision would overflow hypothesis' buffer).
    picks = data.draw(st.lists(st.integers(0, C.MAX_LEGAL - 1), max_size=40), label="first picks")
    rnd = random.Random(data.draw(st.integers(0, 2**32), label="seed of later picks"))
    # R10 note: a turn holds at most (seeds + 1) plantings, then a target and 2 V2 decisions.
    max_steps = cap_turns * (values["seeds_per_player"] + 4)
    buf = np.zeros(C.MAX_LEGAL, np.int32)
    steps = 0
    turns_before = 0
    while True:
        _check_seeds(state, values, n)
        _check_cards(state, values, n)
        _check_farm(state, values)
        assert state[L.H_TURNS] >= turns_before and state[L.H_TURNS] <= cap_turns  # A18
        turns_before = int(state[L.H_TURNS])
        if state[L.H_OVER]:
            break
        count = LEGAL(state, buf)
        assert 1 <= count <= C.MAX_LEGAL
        legal = [int(x) for x in buf[:count]]
        _check_legal(state, legal, values)
        i = picks[steps] % count if steps < len(picks) else rnd.randrange(count)
        APPLY(state, rules, legal[i], chance)
        kernel.end_turn_cap_reached(state)  # the loop's check after every decision
        steps += 1
        assert steps <= max_steps, "the game does not end within the turn cap"
    # the end: a trigger completed its round (R21), or the cap fired (A18)
    reason = int(state[L.H_END_REASON])
    assert reason in range(len(C.END_REASONS))
    if reason == L.END_TURN_CAP:
        assert state[L.H_TURNS] == cap_turns
    else:
        assert state[L.H_TRIGGERED] == 1 and state[C.F_TRIGGER_REASON] == reason
        assert state[L.H_TURNS] % n == 0  # every player has played the same number of turns
    game_row = np.zeros(len(L.GAME_COLUMNS) + len(C.GAME_COUNTERS), np.int32)
    # one row more than the players: finalize must leave rows of absent seats alone
    seat_rows = np.zeros((n + 1, len(L.SEAT_COLUMNS) + C.N_COUNTERS), np.int32)
    FINALIZE(state, rules, game_row, seat_rows)
    ranks = seat_rows[:n, L.S_RANK]
    assert ranks.min() == 1 and ranks.max() <= n
    wins = seat_rows[:n, L.S_WIN]
    assert set(np.unique(wins)) <= {0, 1}
    if values["no_set_winner"] == "tiebreak":
        assert wins.sum() >= 1  # R22, A8: somebody always wins under the default
    assert (wins == 0).all() or (ranks[wins == 1] == 1).all()  # winners share rank 1
    assert not seat_rows[n:].any()
