"""Invariants of Pajarracos checked after every step of hypothesis-driven games (seeds, player
counts and rule options drawn too), on the compiled engine (``deal``/``step``) and on the
plain-Python reference (its state encoded in the same ``cards.py`` layout):

- every card of the configured deck is conserved per class (fruit per kind, lone crows, flocks,
  scarecrows) across hands, reserve pile, discard pile and trees;
- at most one crow card per tree, none and no scarecrow on an absent tree, never a crow and a
  scarecrow on the same tree; no fruit added to an attacked or protected tree;
- the tree bit sets (trees taking fruit, open to a crow, crowed) agree with the trees;
- a crow card arrives only on another player's tree, except through a juicy card its owner
  played into their own orchard (pajarracos.md A5);
- every legal code decodes to an action the rules allow in the pending phase: no scarecrow after
  a shoo-to when it ends the action (A8, A11), a declined extra turn only at the start of an extra
  turn that may be declined (A17), a juicy card's crow off the player's own tree only when A4
  allows it;
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
from cardsim.games.pajarracos import cards as C
from cardsim.games.pajarracos import engine
from cardsim.games.pajarracos import rules as R
from cardsim.games.pajarracos.reference import ReferenceGame, decode

MULTI_PART = {
    C.PHASE_FRUIT_MORE: "fruit",
    C.PHASE_CROW_MORE: "crow",
    C.PHASE_SCARECROW_MORE: "scarecrow",
    C.PHASE_DISCARD_MORE: "discard",
}
SCARECROW_USES = ("protect", "shoo_out", "shoo_to")


@st.composite
def rule_options(draw) -> tuple[dict, int]:
    """Rule option values (pajarracos.md Parameters, ranges of rules.py) and a player count."""
    n = draw(st.integers(3, 6))
    per_kind = draw(st.integers(1, 12))
    given = {
        "hand_size": draw(st.integers(1, 10)),
        "fruit_kinds": draw(st.integers(1, 5)),
        "fruit_per_kind": per_kind,
        "juicy_per_kind": draw(st.integers(0, per_kind)),
        "lone_crows": draw(st.integers(0, 12)),
        "flocks": draw(st.integers(0, 4)),
        "scarecrows": draw(st.integers(0, 12)),
        "first_player": draw(st.one_of(st.just("random"), st.integers(0, n - 1))),
        "juicy_may_be_played_alone": draw(st.booleans()),
        "fruit_single_target": draw(st.booleans()),
        "juicy_attracts_own_crows": draw(st.booleans()),
        "shoo_to_ends_action": draw(st.booleans()),
        "extra_turn_separate": draw(st.booleans()),
        "empty_extra_turn": draw(st.sampled_from(["ends_game", "lost"])),
        "extra_turn_optional": draw(st.booleans()),
        "discard_min": draw(st.integers(0, 1)),
        "final_tie": draw(st.sampled_from(["shared", "replay"])),
        "turn_cap": draw(st.integers(1, 40)),
    }
    return resolve_options(R.OPTIONS, given, "pajarracos"), n


# Reading the state (cards.py layout) ------------------------------------------------------------
def tree(state, seat: int, kind: int) -> tuple[int, int, int, int]:
    """(size, crow, scarecrow, sender) of a tree."""
    b = C.seat_base(seat)
    return tuple(
        int(state[b + f + kind])
        for f in (C.TREE_SIZE, C.TREE_CROW, C.TREE_SCARECROW, C.TREE_SENDER)
    )


def hand(state, seat: int) -> list[int]:
    h = C.F_HANDS + seat * C.N_TYPES
    return [int(x) for x in state[h : h + C.N_TYPES]]


def is_open(state, seat: int, kind: int) -> bool:
    _, crow, scarecrow, _ = tree(state, seat, kind)
    return crow == C.NO_CROW and not scarecrow


def exists_open(state, seat: int, kind: int) -> bool:
    return tree(state, seat, kind)[0] > 0 and is_open(state, seat, kind)


# Invariants -------------------------------------------------------------------------------------
def check_cards(state, values, n) -> None:
    """pajarracos.md Components, R1-R3, R12, R13, R17, R19, R20, R24: the deck is conserved."""
    kinds, per_kind, juicy = (
        values["fruit_kinds"],
        values["fruit_per_kind"],
        values["juicy_per_kind"],
    )
    left = int(state[C.F_RESERVE_LEFT])
    assert 0 <= left <= C.MAX_DECK
    reserve = np.bincount(state[C.F_RESERVE : C.F_RESERVE + left], minlength=C.N_TYPES)
    hands = np.zeros(C.N_TYPES, np.int64)
    for seat in range(n):
        h = hand(state, seat)
        assert min(h) >= 0
        assert state[C.seat_base(seat) + C.HAND_COUNT] == sum(h)
        hands += h
    held = reserve + hands
    discard = state[C.F_DISCARD : C.F_DISCARD + C.N_DISCARD]
    assert (discard >= 0).all()
    on_trees = {C.LONE: 0, C.FLOCK_ON: 0, "scarecrow": 0}
    for k in range(C.MAX_KINDS):
        fruit = held[C.FRUIT + k] + held[C.JUICY + k] + discard[C.D_FRUIT + k]
        fruit += sum(tree(state, s, k)[0] for s in range(n))
        assert fruit == (per_kind if k < kinds else 0), f"fruit of kind {k}: {fruit}"
        # juicy status is kept only off the table (A16): never more than the deck holds
        assert held[C.JUICY + k] <= (juicy if k < kinds else 0)
        assert held[C.FRUIT + k] <= (per_kind - juicy if k < kinds else 0)
        for s in range(n):
            _, crow, scarecrow, _ = tree(state, s, k)
            if crow != C.NO_CROW:
                on_trees[crow] += 1
            on_trees["scarecrow"] += scarecrow
    assert held[C.LONE_CROW] + discard[C.D_LONE_CROW] + on_trees[C.LONE] == values["lone_crows"]
    assert held[C.FLOCK] + discard[C.D_FLOCK] + on_trees[C.FLOCK_ON] == values["flocks"]
    scarecrows = held[C.SCARECROW] + discard[C.D_SCARECROW] + on_trees["scarecrow"]
    assert scarecrows == values["scarecrows"]
    assert state[C.F_CROWS_ON_TREES] == on_trees[C.LONE] + on_trees[C.FLOCK_ON]
    if state[L.H_OVER]:  # R24: hands, crows and scarecrows are all on the discard pile
        assert hands.sum() == 0 and state[C.F_CROWS_ON_TREES] == 0 and on_trees["scarecrow"] == 0


def check_trees(state, n) -> None:
    """R8, R11, R16, A7: one crow card at most, only on an existing tree, never with a scarecrow;
    the crow's sender is a seat."""
    for seat in range(C.MAX_PLAYERS):
        for k in range(C.MAX_KINDS):
            size, crow, scarecrow, sender = tree(state, seat, k)
            assert crow in (C.NO_CROW, C.LONE, C.FLOCK_ON) and scarecrow in (0, 1)
            assert size >= 0
            if size == 0 or seat >= n:
                assert (size, crow, scarecrow, sender) == (0, C.NO_CROW, 0, -1)
            assert not (crow != C.NO_CROW and scarecrow), "a crow on a protected tree"
            assert (sender == -1) == (crow == C.NO_CROW)
            assert sender < n


def check_tree_bits(state, n) -> None:
    """The engine's tree bit sets (cards.py ``F_FRUIT_TREES``, ``F_OPEN_TREES``,
    ``F_CROWED_TREES``), kept move by move, say what the seat blocks say: a tree takes fruit
    with no crow and no scarecrow (R8), is open to a crow card if it also exists (R11, R16, A7,
    A9), and is crowed with a crow card on it."""
    fruit = open_trees = crowed = 0
    for seat in range(n):
        for k in range(C.MAX_KINDS):
            size, crow, scarecrow, _ = tree(state, seat, k)
            if crow == C.NO_CROW and not scarecrow:
                fruit |= 1 << (k * C.MAX_PLAYERS + seat)
                if size > 0:
                    open_trees |= 1 << C.tree_index(seat, k)
            if crow != C.NO_CROW:
                crowed |= 1 << C.tree_index(seat, k)
    assert int(state[C.F_FRUIT_TREES]) == fruit, "F_FRUIT_TREES"
    assert int(state[C.F_OPEN_TREES]) == open_trees, "F_OPEN_TREES"
    assert int(state[C.F_CROWED_TREES]) == crowed, "F_CROWED_TREES"


def check_step(before, after, n) -> None:
    """Between two states: no fruit on an attacked or protected tree (R8); a scarecrow stays while
    the game runs (R16); a crow arrives on another player's tree (R11, R19, A9), or on the
    owner's own by a juicy card the owner played there (R10, A5)."""
    actor = int(before[L.H_SEAT])
    same_game = int(after[C.F_TIE_REPLAYS]) == int(before[C.F_TIE_REPLAYS])
    if not same_game:
        return  # a replay cleared the table (A14)
    for seat in range(n):
        for k in range(C.MAX_KINDS):
            size0, crow0, scare0, sender0 = tree(before, seat, k)
            size1, crow1, scare1, sender1 = tree(after, seat, k)
            if crow0 != C.NO_CROW or scare0:
                assert size1 <= size0, f"fruit added to attacked/protected tree {seat},{k}"
            if scare0 and not after[L.H_OVER]:
                assert scare1 == 1
            arrived = crow1 != C.NO_CROW and (crow1, sender1) != (crow0, sender0)
            if arrived and sender1 == seat:
                # A5: only the owner's own juicy play brings a crow onto their own tree
                assert seat == actor, f"crow sent onto own tree {seat},{k}"
                assert _counter(after, seat, C.C_JUICY_ATTRACTIONS) > _counter(
                    before, seat, C.C_JUICY_ATTRACTIONS
                )
                pending = before[L.H_PHASE] == C.PHASE_JUICY_CROW and (
                    before[C.F_CTX_TARGET],
                    before[C.F_CTX_KIND],
                ) == (seat, k)
                played = _counter(after, seat, C.C_FRUIT_PLAYED_OWN) > _counter(
                    before, seat, C.C_FRUIT_PLAYED_OWN
                )
                assert pending or played, f"crow on own tree {seat},{k} without an own play"


def _counter(state, seat: int, index: int) -> int:
    return int(state[C.F_COUNTERS + seat * C.N_COUNTERS + index])


def check_legal(state, legal, values) -> None:
    """Every legal code is an action the rules allow now (R5-R20, A2, A3, A7-A9, A12), in
    ascending order, each once; the phase's code kinds only."""
    n = int(state[L.H_N_PLAYERS])
    phase, seat = int(state[L.H_PHASE]), int(state[L.H_SEAT])
    h = hand(state, seat)
    assert len(legal) >= 2, "a forced decision was left to the bot"
    assert legal == sorted(set(legal))
    last = int(state[C.F_CTX_LAST])
    for code in legal:
        what, a, b = decode(code)
        if what == "stop":
            assert phase in MULTI_PART
            continue
        if phase in MULTI_PART:
            group = "scarecrow" if what in SCARECROW_USES else what
            assert group == MULTI_PART[phase], f"{what} in phase {phase}"
        if what == "fruit":  # R6-R8, A2, A3
            kind, target = a, b
            assert phase in (C.PHASE_ACTION, C.PHASE_FRUIT_MORE)
            assert kind < values["fruit_kinds"] and target < n
            assert is_open(state, target, kind)
            alone = values["juicy_may_be_played_alone"]
            assert h[C.FRUIT + kind] > 0 or (alone and h[C.JUICY + kind] > 0)
            if phase == C.PHASE_FRUIT_MORE:
                assert kind == state[C.F_CTX_KIND] and not state[C.F_CTX_USED] >> target & 1
            _, _, ordinary, juicy = C.fruit_play(code)  # R6, R9, A2: cards the hand holds
            assert ordinary <= h[C.FRUIT + kind] and juicy <= h[C.JUICY + kind]
            assert ordinary + juicy >= 1 and (ordinary >= 1 or juicy == 0 or alone)
        elif what == "juicy_crow":  # R10, A4
            assert phase == C.PHASE_JUICY_CROW
            assert tree(state, a // C.MAX_KINDS, a % C.MAX_KINDS)[1] != C.NO_CROW
            assert values["juicy_attracts_own_crows"] or a // C.MAX_KINDS != seat
        elif what == "decline":  # R18, A17: the first decision of an extra turn
            assert phase == C.PHASE_ACTION and values["extra_turn_optional"]
            assert state[C.F_EXTRA_TURNS] > 0 and sum(h) > 0
        elif what == "crow":  # R11, A7
            owner, kind = divmod(b, C.MAX_KINDS)
            assert h[C.CROW_TYPES[a]] > 0 and owner != seat and owner < n
            assert exists_open(state, owner, kind)
        elif what in SCARECROW_USES:  # R15-R19, A8, A9
            assert h[C.SCARECROW] > 0
            if phase == C.PHASE_SCARECROW_MORE:  # A8: one scarecrow per tree in an action
                assert not state[C.F_CTX_USED] >> a & 1
                # A8, A11: a shoo-to is the action's last scarecrow
                assert not (values["shoo_to_ends_action"] and state[C.F_CTX_SHOO_TO])
            if what == "protect":
                assert exists_open(state, seat, a)
            else:
                assert tree(state, seat, a)[1] != C.NO_CROW
            if what == "shoo_to":
                owner, kind = divmod(b, C.MAX_KINDS)
                assert owner != seat and owner < n and exists_open(state, owner, kind)
        elif what == "discard":  # R20
            assert h[a] > 0
            if phase == C.PHASE_DISCARD_MORE:
                assert a >= last
        else:
            assert what == "pass" and values["discard_min"] == 0 and phase == C.PHASE_ACTION


def step_bound(values, n) -> int:
    """Decisions a game can take: turns (turn cap) x actions per turn (one, plus an extra turn per
    scarecrow, R18) x decisions per action (a fruit action's parts, crows, discards)."""
    cap_turns = values["turn_cap"] * n
    return cap_turns * (1 + values["scarecrows"]) * (3 * values["hand_size"] + 3)


def check_state(state, values, n) -> None:
    check_cards(state, values, n)
    check_trees(state, n)
    check_tree_bits(state, n)
    assert 0 <= state[L.H_TURNS] <= values["turn_cap"] * n


def check_end(state, values, n, seat_rows) -> None:
    """The game ended by R23 (at a turn's or an extra turn's start) or the turn cap; somebody won,
    the winners share rank 1 (R26)."""
    reason = int(state[L.H_END_REASON])
    if reason == L.END_TURN_CAP:
        assert state[L.H_TURNS] == values["turn_cap"] * n
    elif reason == C.END_EMPTY_EXTRA_TURN:  # R23, A10: only by that reading, the pile empty
        assert values["empty_extra_turn"] == "ends_game" and state[C.F_RESERVE_LEFT] == 0
    else:
        assert reason == C.END_EMPTY_HAND
    ranks, wins = seat_rows[:n, L.S_RANK], seat_rows[:n, L.S_WIN]
    assert ranks.min() == 1 and ranks.max() <= n and wins.sum() >= 1  # R26, A14
    assert ((wins == 1) == (ranks == 1)).all()


def _picker(data):
    # Hypothesis picks the first decisions itself, then a generator it seeds picks the rest (a
    # draw per decision would overflow hypothesis' buffer on long games).
    picks = data.draw(st.lists(st.integers(0, C.MAX_LEGAL - 1), max_size=30), label="first picks")
    rnd = random.Random(data.draw(st.integers(0, 2**32), label="seed of later picks"))
    return lambda step, count: picks[step] % count if step < len(picks) else rnd.randrange(count)


SETTINGS = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(options=rule_options(), game=st.integers(0, 10**6), data=st.data())
def test_engine_invariants_hold_after_every_step(options, game, data):
    values, n = options
    rules = R.encode(values, n)
    state = np.zeros(C.STATE_LEN, np.int32)
    state[L.H_CAP_TURNS] = values["turn_cap"] * n  # as the play loop does (kernel.py)
    chance = np.array([stream_start(0, game, CHANCE_STREAM)], np.uint64)
    buf = np.zeros(C.MAX_LEGAL, np.int32)
    count = engine.deal(state, rules, n, chance, buf)
    pick = _picker(data)
    bound = step_bound(values, n)
    steps = 0
    while True:
        check_state(state, values, n)
        if state[L.H_OVER]:
            assert count == 0
            break
        legal = [int(x) for x in buf[:count]]
        check_legal(state, legal, values)
        before = state.copy()
        count = engine.step(state, rules, legal[pick(steps, count)], chance, buf)
        kernel.end_turn_cap_reached(state)  # the loop's check after every decision
        check_step(before, state, n)
        steps += 1
        assert steps <= bound, "the game does not end"
    game_row = np.zeros(len(L.GAME_COLUMNS) + len(C.GAME_COUNTERS), np.int32)
    # one row more than the players: finalize must leave rows of absent seats alone
    seat_rows = np.zeros((n + 1, len(L.SEAT_COLUMNS) + C.N_COUNTERS), np.int32)
    engine.finalize(state, rules, game_row, seat_rows)
    assert not seat_rows[n:].any()
    check_end(state, values, n, seat_rows)


@SETTINGS
@given(options=rule_options(), game=st.integers(0, 10**6), data=st.data())
def test_reference_invariants_hold_after_every_step(options, game, data):
    values, n = options
    ref = ReferenceGame(values, n, 0, game)
    pick = _picker(data)
    bound = step_bound(values, n)
    steps = 0
    state = ref.state_array()
    while True:
        check_state(state, values, n)
        if ref.is_over:
            break
        legal = ref.legal()
        check_legal(state, legal, values)
        ref.apply(legal[pick(steps, len(legal))])
        after = ref.state_array()
        check_step(state, after, n)
        state = after
        steps += 1
        assert steps <= bound, "the game does not end"
    check_end(state, values, n, ref.outcome_rows()[1])
