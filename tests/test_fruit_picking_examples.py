"""The worked examples E1-E9 of ``fruit-picking.md``, on the compiled engine's kernels and on the
plain-Python reference.

Each scenario starts from a real setup (fixed farm order, seat 0 first) and then writes the seeds,
market, stack and collections the example describes into both the engine's state and the
reference's fields; both are checked to show the same public state before the example's decisions
are applied to each, and after every decision.

Farm used throughout (``FARM``), positions clockwise from the House::

    0 House | 1 cherry | 2 rain | 3 grapes | 4 strawberry | 5 pineapple | 6 banana
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pytest

from cardsim.core import layout as L
from cardsim.core.options import resolve_options
from cardsim.core.rng import CHANCE_STREAM, stream_start
from cardsim.games.fruit_picking import cards as C
from cardsim.games.fruit_picking import engine
from cardsim.games.fruit_picking import rules as R
from cardsim.games.fruit_picking.reference import (
    ReferenceGame,
    market_card_fruits,
    market_layout,
    sets_of,
)

SETUP, LEGAL, APPLY, OBSERVE, FINALIZE = engine.KERNELS
FARM = ("cherry", "rain", "grapes", "strawberry", "pineapple", "banana")
POS = {name: p + 1 for p, name in enumerate(FARM)}  # kind name -> farm position
PER_KIND = 6
SEEDS = 18


def card(kind: int, index: int = 1) -> int:
    """Market card id (cards.py: kind * per_kind + index); index 1 has no umbrella mark."""
    return kind * PER_KIND + index


@dataclass
class Scenario:
    """A position written over a real setup. ``seeds[seat]``: the 7 farm positions (storage gets
    the rest of the 18); ``market``: card per slot; ``stack_top``: cards on top of the stack
    (last = top); ``owned[seat]``: cards per kind already bought."""

    seeds: dict[int, list[int]]
    market: list[int] = field(
        default_factory=lambda: [card(C.PINEAPPLE), card(C.GRAPES), card(C.CHERRY), card(C.BANANA)]
    )
    stack_top: list[int] = field(default_factory=lambda: [card(C.STRAWBERRY)])
    owned: dict[int, list[int]] = field(default_factory=dict)
    n_players: int = 2
    rules: dict = field(default_factory=dict)


class Both:
    """The engine's state and a ReferenceGame holding the same scenario."""

    def __init__(self, sc: Scenario):
        given = {"farm_order": ",".join(FARM), "first_player": 0, **sc.rules}
        self.values = resolve_options(R.OPTIONS, given, "fruit-picking")
        self.rules = R.encode(self.values, sc.n_players)
        n = sc.n_players
        self.state = np.zeros(C.STATE_LEN, np.int32)
        self.state[L.H_CAP_TURNS] = self.values["turn_cap"] * n
        self.chance = np.array([stream_start(0, 0, CHANCE_STREAM)], np.uint64)
        SETUP(self.state, self.rules, n, self.chance)
        self.ref = ReferenceGame(self.values, n, 0, 0)
        assert self.state[L.H_SEAT] == 0 and self.state[L.H_PHASE] == C.PHASE_PLANT
        fruits = market_card_fruits(self.values)  # the reference's reading of the doc (A2, R15)
        _, surcharge = market_layout(self.values)
        st, ref = self.state, self.ref
        for seat, seeds in sc.seeds.items():
            b = C.seat_base(seat)
            st[b + C.SEAT_SEEDS : b + C.SEAT_SEEDS + 7] = seeds
            st[b + C.SEAT_STORAGE] = SEEDS - sum(seeds)
            ref.seeds[seat] = list(seeds)
            ref.storage[seat] = SEEDS - sum(seeds)
        for seat, owned in sc.owned.items():
            assert sets_of(owned) == 0  # every scenario starts without a set
            b = C.seat_base(seat)
            n_fruits = sum(n * fruits[card(k)] for k, n in enumerate(owned))
            st[b + C.SEAT_OWNED : b + C.SEAT_OWNED + 5] = owned
            st[b + C.SEAT_FRUITS] = n_fruits
            st[b + C.SEAT_N_CARDS] = sum(owned)
            ref.owned[seat], ref.fruits[seat], ref.n_cards[seat] = list(owned), n_fruits, sum(owned)
        used = set(sc.market) | set(sc.stack_top)
        stack = [c for c in range(5 * PER_KIND) if c not in used] + list(sc.stack_top)
        for slot, c in enumerate(sc.market):
            st[C.F_MARKET_CARD + slot] = c
            st[C.F_MARKET_KIND + slot] = c // PER_KIND if c >= 0 else -1
            st[C.F_MARKET_PRICE + slot] = fruits[c] + surcharge[slot] if c >= 0 else 0
        st[C.F_STACK : C.F_STACK + len(stack)] = stack
        st[C.F_STACK_LEFT] = len(stack)
        ref.market, ref.stack = list(sc.market), list(stack)
        self.check_same()

    def check_same(self) -> None:
        np.testing.assert_array_equal(self.state[: C.PUBLIC_END], self.ref.public_state())

    def legal(self) -> list[int]:
        buf = np.zeros(C.MAX_LEGAL, np.int32)
        n = LEGAL(self.state, buf)
        assert list(buf[:n]) == self.ref.legal()
        return list(buf[:n])

    def apply(self, decision: int) -> None:
        assert decision in self.legal()
        APPLY(self.state, self.rules, decision, self.chance)
        self.ref.apply(decision)
        self.check_same()

    def seat(self, seat: int, field_: int) -> int:
        return int(self.state[C.seat_base(seat) + field_])

    def seeds(self, seat: int) -> list[int]:
        b = C.seat_base(seat) + C.SEAT_SEEDS
        return [int(x) for x in self.state[b : b + 7]]

    def counter(self, seat: int, index: int) -> int:
        value = int(self.state[C.F_COUNTERS + seat * C.N_COUNTERS + index])
        assert value == self.ref.counters[seat][index]
        return value


def farm(house=0, **on) -> list[int]:
    """Seeds per position: ``farm(house=3, cherry=2)`` -> [3, 2, 0, 0, 0, 0, 0]."""
    out = [house] + [0] * 6
    for name, n in on.items():
        out[POS[name]] = n
    return out


def test_e1_planting():
    # fruit-picking.md E1 (R8, R9): 3 seeds on cherry go to rain, grapes and strawberry; the
    # strawberry card is the target.
    both = Both(Scenario(seeds={0: farm(house=0, cherry=3)}))
    both.apply(POS["cherry"])
    assert both.seeds(0) == farm(house=0, rain=1, grapes=1, strawberry=1)
    assert both.state[L.H_PHASE] == C.PHASE_TARGET
    assert both.state[C.F_TARGET] == POS["strawberry"]


@pytest.mark.parametrize(
    ("kind", "slot", "price"),
    [
        (C.STRAWBERRY, 0, 6),
        (C.STRAWBERRY, 1, 5),
        (C.STRAWBERRY, 2, 4),
        (C.STRAWBERRY, 3, 3),
        (C.BANANA, 0, 5),
        (C.BANANA, 1, 4),
        (C.BANANA, 2, 3),
        (C.BANANA, 3, 2),
        (C.CHERRY, 0, 5),
        (C.CHERRY, 1, 4),
        (C.CHERRY, 2, 3),
        (C.CHERRY, 3, 2),  # E2: +1 slot: 3
        (C.PINEAPPLE, 0, 4),
        (C.PINEAPPLE, 1, 3),
        (C.PINEAPPLE, 2, 2),
        (C.PINEAPPLE, 3, 1),
        (C.GRAPES, 0, 4),
        (C.GRAPES, 1, 3),
        (C.GRAPES, 2, 2),
        (C.GRAPES, 3, 1),
    ],
)
def test_e2_e4_price_table(kind, slot, price):
    # fruit-picking.md E2 (a cherry in the +1 slot costs 2 + 1 = 3) and E4 (R15 price table):
    # the engine's prices after real setups, for the first deal that shows `kind` in `slot`.
    values = resolve_options(R.OPTIONS, {}, "fruit-picking")
    rules = R.encode(values, 2)
    for game in range(2000):
        state = np.zeros(C.STATE_LEN, np.int32)
        state[L.H_CAP_TURNS] = 2000
        SETUP(state, rules, 2, np.array([stream_start(5, game, CHANCE_STREAM)], np.uint64))
        if state[C.F_MARKET_KIND + slot] == kind:
            assert state[C.F_MARKET_PRICE + slot] == price
            ref = ReferenceGame(values, 2, 5, game)
            assert ref.market[slot] // PER_KIND == kind and ref.price(slot) == price
            return
    pytest.fail(f"no deal with {C.KIND_NAMES[kind]} in slot {slot}")


@pytest.mark.parametrize("kind", range(5))
def test_e4_beginners_prices_have_no_surcharge(kind):
    # fruit-picking.md E4, V3: 3 slots and the price is the printed fruits only (E4's last column).
    values = resolve_options(R.OPTIONS, {"variant_beginners": True}, "fruit-picking")
    rules = R.encode(values, 3)
    v3_price = {C.STRAWBERRY: 3, C.BANANA: 2, C.CHERRY: 2, C.PINEAPPLE: 1, C.GRAPES: 1}
    seen = set()
    for game in range(300):
        state = np.zeros(C.STATE_LEN, np.int32)
        state[L.H_CAP_TURNS] = 3000
        SETUP(state, rules, 3, np.array([stream_start(9, game, CHANCE_STREAM)], np.uint64))
        assert state[C.F_N_SLOTS] == 3
        for slot in range(3):
            if state[C.F_MARKET_KIND + slot] == kind:
                assert state[C.F_MARKET_PRICE + slot] == v3_price[kind]
                seen.add(slot)
    assert seen == {0, 1, 2}


def test_e3_full_purchase():
    # fruit-picking.md E3 (R13-R18): market pineapple (+3), cherry (+2), cherry (+1), grapes (+0);
    # the player lands on cherry and buys the +1 cherry for 3; the pineapple and the other cherry
    # slide away from the stack and the top card, a strawberry, fills the +3 slot.
    sc = Scenario(
        seeds={0: farm(house=5, banana=2, cherry=1)},
        market=[card(C.PINEAPPLE), card(C.CHERRY, 1), card(C.CHERRY, 2), card(C.GRAPES)],
        stack_top=[card(C.STRAWBERRY)],
    )
    both = Both(sc)
    both.apply(POS["banana"])  # 2 seeds: one on the House, the last on cherry
    assert both.state[C.F_TARGET] == POS["cherry"]
    assert both.seeds(0)[0] == 6
    # either cherry may be bought (4 and 3 seeds); never the pineapple or grapes (R13)
    assert both.legal() == [C.WATER, C.BUY_SLOT + 1, C.BUY_SLOT + 2]
    storage_before = both.seat(0, C.SEAT_STORAGE)
    both.apply(C.BUY_SLOT + 2)
    assert both.seeds(0) == farm(house=6 - 3)  # price 2 + 1 = 3 from the House (R16)
    assert both.seat(0, C.SEAT_STORAGE) == storage_before + 3 + 2  # price + the cherry card's seeds
    assert both.seat(0, C.SEAT_OWNED + C.CHERRY) == 1 and both.seat(0, C.SEAT_N_CARDS) == 1
    m = both.state
    assert list(m[C.F_MARKET_CARD : C.F_MARKET_CARD + 4]) == [
        card(C.STRAWBERRY),
        card(C.PINEAPPLE),
        card(C.CHERRY, 1),
        card(C.GRAPES),
    ]
    assert list(m[C.F_MARKET_PRICE : C.F_MARKET_PRICE + 4]) == [6, 3, 3, 1]
    assert m[C.F_STACK_LEFT] == 25
    assert m[L.H_SEAT] == 1 and m[L.H_TURNS] == 1  # R18: the turn ends


def test_e3_price_must_be_payable_from_the_house():
    # fruit-picking.md E2, R13, A5: with 2 seeds on the House only the +0 cherry (2) is affordable.
    sc = Scenario(
        seeds={0: farm(house=1, banana=2)},
        market=[card(C.PINEAPPLE), card(C.CHERRY, 1), card(C.CHERRY, 2), card(C.CHERRY, 3)],
    )
    both = Both(sc)
    both.apply(POS["banana"])
    assert both.legal() == [C.WATER, C.BUY_SLOT + 3]


@pytest.mark.parametrize(
    ("target", "storage", "added"),
    [
        ("strawberry", 9, 3),  # fruit-picking.md E5: strawberry, 9 in storage: 3 seeds
        ("rain", 1, 1),  # E5: Rain with 1 seed in storage: 1 seed
        ("banana", 0, 0),  # E5: banana with an empty storage: nothing, and the turn ends
    ],
)
def test_e5_watering(target, storage, added):
    origin = POS[target] - 1  # one seed from the card before the target
    seeds = [0] * 7
    seeds[origin] = 1
    seeds[0] = SEEDS - storage - 1
    both = Both(Scenario(seeds={0: seeds}))
    both.apply(origin)
    assert both.state[C.F_TARGET] == POS[target]
    if target == "rain":
        assert both.legal() == [C.WATER]  # A5: on the Rain card the player must water
    both.apply(C.WATER)
    assert both.seeds(0)[POS[target]] == 1 + added
    assert both.seat(0, C.SEAT_STORAGE) == storage - added
    assert both.state[L.H_SEAT] == 1 and both.state[L.H_TURNS] == 1  # R12: the turn ends
    assert both.counter(0, C.C_WATERINGS) == 1


def test_e6_no_seeds():
    # fruit-picking.md E6 (R7, A11): seat 1 has only 2 seeds on its House (storage 16): both go to
    # storage (18), then 1 seed each on positions 1, 2, 3 (storage 15); its turn ends at once.
    both = Both(Scenario(seeds={0: farm(house=4, cherry=1), 1: farm(house=2)}))
    both.apply(POS["cherry"])  # seat 0 lands on rain and must water (A5)
    both.apply(C.WATER)
    assert both.seeds(1) == [0, 1, 1, 1, 0, 0, 0]
    assert both.seat(1, C.SEAT_STORAGE) == 15
    assert both.counter(1, C.C_NO_SEED_TURNS) == 1
    assert both.state[L.H_TURNS] == 2 and both.state[L.H_SEAT] == 0  # seat 0 plays again
    assert both.state[L.H_PHASE] == C.PHASE_PLANT


def test_a11_the_2020_no_seeds_procedure_on_e6():
    # fruit-picking.md A11 alternative (no_seed_rule=2020) on E6: no seed goes from the House to
    # storage; the three seeds come from storage: "it leaves the House at 2 and storage at 13"
    both = Both(
        Scenario(
            seeds={0: farm(house=4, cherry=1), 1: farm(house=2)}, rules={"no_seed_rule": "2020"}
        )
    )
    both.apply(POS["cherry"])
    both.apply(C.WATER)
    assert both.seeds(1) == [2, 1, 1, 1, 0, 0, 0]
    assert both.seat(1, C.SEAT_STORAGE) == 13
    assert both.state[L.H_TURNS] == 2 and both.state[L.H_SEAT] == 0


@pytest.mark.parametrize(("rule", "house", "storage"), [("2014", 14, 1), ("2020", 15, 0)])
def test_a11_storage_runs_short(rule, house, storage):
    # fruit-picking.md R7, A11: 17 seeds on the House, 1 in storage. 2014: 3 House seeds go to
    # storage (14, 4), then 3 go to positions 1-3 (storage 1). 2020: position 1's seed from
    # storage, those of positions 2 and 3 from the House (15, 0).
    both = Both(
        Scenario(
            seeds={0: farm(house=4, cherry=1), 1: farm(house=17)}, rules={"no_seed_rule": rule}
        )
    )
    both.apply(POS["cherry"])
    both.apply(C.WATER)
    assert both.seeds(1) == [house, 1, 1, 1, 0, 0, 0]
    assert both.seat(1, C.SEAT_STORAGE) == storage


@pytest.mark.parametrize(("origin", "seeds_on_origin"), [(6, 1), (5, 2)])
def test_e7_house_target_plants_again(origin, seeds_on_origin):
    # fruit-picking.md E7 (R10): planting from position 6 (1 seed) or 5 (2 seeds) ends on the
    # House: no watering or buying, the same player plants again in the same turn.
    seeds = farm(house=3, cherry=2)
    seeds[origin] = seeds_on_origin
    both = Both(Scenario(seeds={0: seeds}))
    both.apply(origin)
    after = both.seeds(0)
    assert after[0] == 4 and after[origin] == 0
    assert both.state[L.H_PHASE] == C.PHASE_PLANT and both.state[C.F_TARGET] == -1
    assert both.state[L.H_SEAT] == 0 and both.state[L.H_TURNS] == 0
    assert both.counter(0, C.C_HOUSE_REPEATS) == 1
    assert both.legal() == [p for p in range(1, 7) if after[p] > 0]


def test_a3_house_target_with_nothing_left_runs_the_no_seeds_rule():
    # fruit-picking.md A3 (with R7, R10): the repeat finds no seed outside the House.
    both = Both(Scenario(seeds={0: farm(house=4, banana=1)}))
    both.apply(POS["banana"])  # the only seed lands on the House (5 there)
    assert both.seeds(0) == [2, 1, 1, 1, 0, 0, 0]  # 3 to storage, then 1 on positions 1-3
    assert both.seat(0, C.SEAT_STORAGE) == SEEDS - 5
    assert both.counter(0, C.C_HOUSE_REPEATS) == 1 and both.counter(0, C.C_NO_SEED_TURNS) == 1
    assert both.state[L.H_SEAT] == 1 and both.state[L.H_TURNS] == 1


# fruit-picking.md E8 (R20): cards owned before the purchase, kind bought, sets afterwards.
E8_CASES = [
    ("greedy", [0, 0, 0, 0, 3], C.STRAWBERRY, C.SET_GREEDY),  # strawberry x4
    ("variety", [1, 1, 1, 1, 0], C.STRAWBERRY, C.SET_VARIETY),  # one of each kind
    ("smiley", [0, 0, 1, 2, 2], C.CHERRY, C.SET_SMILEY),  # strawberry, banana, cherry x2
    ("family", [0, 0, 0, 1, 3], C.BANANA, C.SET_FAMILY),  # strawberry x3, banana x2
    ("no-set", [0, 0, 0, 1, 2], C.STRAWBERRY, 0),  # strawberry x3, banana x1
]


@pytest.mark.parametrize(
    ("owned", "kind", "bits"), [c[1:] for c in E8_CASES], ids=[c[0] for c in E8_CASES]
)
def test_e8_sets_on_purchase(owned, kind, bits):
    target = POS[C.KIND_NAMES[kind]]
    seeds = farm(house=8)
    if target == 1:
        seeds[6] = 2  # one seed on the House, the last on position 1
    else:
        seeds[target - 1] = 1
    market = [card(C.PINEAPPLE), card(C.GRAPES), card(C.BANANA, 2), card(kind, 3)]
    both = Both(Scenario(seeds={0: seeds}, owned={0: owned}, market=market))
    both.apply(6 if target == 1 else target - 1)
    assert C.BUY_SLOT + 3 in both.legal()
    both.apply(C.BUY_SLOT + 3)
    assert both.seat(0, C.SEAT_SETS) == bits
    assert both.seat(0, C.SEAT_COMPLETED) == int(bits != 0)
    assert both.state[L.H_TRIGGERED] == int(bits != 0)  # R21: a completed set triggers the end
    if bits:
        assert both.state[C.F_TRIGGER_SEAT] == 0
        assert both.state[C.F_TRIGGER_REASON] == C.END_SET_COMPLETED
        assert both.counter(0, C.C_SET_TURN) == 1  # completed during the game's first turn


@pytest.mark.parametrize(
    ("owned", "bits"),
    [
        ([0, 0, 0, 0, 4], C.SET_GREEDY),
        ([1, 1, 1, 1, 1], C.SET_VARIETY),
        ([0, 0, 2, 2, 2], C.SET_SMILEY),
        ([0, 0, 0, 2, 3], C.SET_FAMILY),
        ([0, 0, 0, 1, 3], 0),
        ([0, 0, 3, 3, 0], C.SET_FAMILY),
        ([1, 1, 2, 2, 2], C.SET_VARIETY | C.SET_SMILEY),
    ],
)
def test_e8_set_definitions_in_the_reference(owned, bits):
    # fruit-picking.md E8, R20, A1: cards may count towards several sets.
    assert sets_of(owned) == bits


def _finished(
    owned: dict[int, list[int]],
    farm_seeds: dict[int, int],
    completed: dict[int, int],
    rules: dict | None = None,
    n_players: int = 2,
) -> tuple[np.ndarray, ReferenceGame]:
    """Engine seat rows from ``finalize`` and the reference, for a game ended as described."""
    sc = Scenario(
        seeds={s: [n, 0, 0, 0, 0, 0, 0] for s, n in farm_seeds.items()},
        owned={},
        rules=rules or {},
        n_players=n_players,
    )
    both = Both(sc)
    fruits = market_card_fruits(both.values)
    st, ref = both.state, both.ref
    taken = [0] * 5  # cards of each kind handed out so far: each seat gets the next ones
    ids: dict[int, list[int]] = {}
    for s, cards in owned.items():
        ids[s] = []
        for kind, n in enumerate(cards):
            ids[s] += [card(kind, (taken[kind] + i) % PER_KIND) for i in range(n)]
            taken[kind] += n
        for c in ids[s]:
            st[C.F_CARD_OWNER + c] = s
        ref.bought[s] = list(ids[s])
    if (rules or {}).get("tiebreak_fruits") == "set_cards":  # which card is whose matters (A9)
        assert max(taken) <= PER_KIND, "more cards of a kind than the deck holds"
    for s, cards in owned.items():
        b = C.seat_base(s)
        n_fruits = sum(fruits[c] for c in ids[s])
        st[b + C.SEAT_OWNED : b + C.SEAT_OWNED + 5] = cards
        st[b + C.SEAT_FRUITS] = n_fruits
        st[b + C.SEAT_N_CARDS] = sum(cards)
        st[b + C.SEAT_SETS] = sets_of(cards)
        st[b + C.SEAT_COMPLETED] = completed[s]
        st[C.F_COUNTERS + s * C.N_COUNTERS + C.C_CARDS_BOUGHT] = sum(cards)
        ref.owned[s], ref.fruits[s], ref.n_cards[s] = list(cards), n_fruits, sum(cards)
        ref.sets[s], ref.completed[s] = sets_of(cards), completed[s]
        ref.counters[s][C.C_CARDS_BOUGHT] = sum(cards)
    reason = C.END_SET_COMPLETED if any(completed.values()) else C.END_STACK_EXHAUSTED
    st[L.H_OVER], st[L.H_END_REASON], st[L.H_TRIGGERED] = 1, reason, 1
    ref.over, ref.end_reason, ref.triggered = True, reason, True
    game_row = np.zeros(len(L.GAME_COLUMNS) + len(C.GAME_COUNTERS), np.int32)
    seat_rows = np.zeros((ref.n, len(L.SEAT_COLUMNS) + C.N_COUNTERS), np.int32)
    FINALIZE(st, both.rules, game_row, seat_rows)
    np.testing.assert_array_equal(seat_rows, ref.outcome_rows()[1])
    return seat_rows, ref


def test_e9_tie_break_on_fruits():
    # fruit-picking.md E9 (R22, A9): A (strawberry x4, 12 fruits) beats B (one of each, 9 fruits),
    # although B has more seeds on its farm (the second tie-break only).
    rows, _ = _finished({0: [0, 0, 0, 0, 4], 1: [1, 1, 1, 1, 1]}, {0: 1, 1: 9}, {0: 1, 1: 1})
    assert list(rows[:2, L.S_SCORE]) == [12, 9]
    assert list(rows[:2, L.S_WIN]) == [1, 0]
    assert list(rows[:2, L.S_RANK]) == [1, 2]


def test_r22_qualifier_beats_more_fruits():
    # fruit-picking.md R22: only a player who completed a set can win.
    rows, _ = _finished({0: [0, 0, 0, 0, 3], 1: [0, 0, 0, 0, 4]}, {0: 5, 1: 0}, {0: 0, 1: 1})
    assert list(rows[:2, L.S_WIN]) == [0, 1] and list(rows[:2, L.S_RANK]) == [2, 1]


def test_r22_farm_seeds_then_shared_win():
    # fruit-picking.md R22, A10: equal fruits -> most seeds on the farm (House included); equal
    # again -> the tied players all win.
    rows, _ = _finished({0: [0, 0, 0, 0, 4], 1: [0, 0, 0, 3, 2]}, {0: 3, 1: 4}, {0: 1, 1: 1})
    assert list(rows[:2, L.S_WIN]) == [0, 1]
    rows, _ = _finished({0: [0, 0, 0, 0, 4], 1: [0, 0, 0, 3, 2]}, {0: 4, 1: 4}, {0: 1, 1: 1})
    assert list(rows[:2, L.S_WIN]) == [1, 1] and list(rows[:2, L.S_RANK]) == [1, 1]


@pytest.mark.parametrize(("no_set_winner", "wins"), [("tiebreak", [1, 0, 0]), ("none", [0, 0, 0])])
def test_a8_no_set_winner(no_set_winner, wins):
    # fruit-picking.md A8: no completed set -> tie-breaks among all players, or nobody wins.
    rows, _ = _finished(
        {0: [1, 0, 0, 0, 2], 1: [0, 0, 0, 2, 0], 2: [0, 0, 1, 0, 0]},
        {0: 2, 1: 8, 2: 0},
        {0: 0, 1: 0, 2: 0},
        rules={"no_set_winner": no_set_winner},
        n_players=3,
    )
    assert list(rows[:3, L.S_WIN]) == wins
    assert list(rows[:3, L.S_RANK]) == [1, 2, 3]


@pytest.mark.parametrize(("tiebreak", "wins"), [("all_cards", [1, 0]), ("set_cards", [0, 1])])
def test_a9_which_fruits_the_first_tie_break_counts(tiebreak, wins):
    # fruit-picking.md R22, A9. A holds one card of each kind (Variety) plus 2 pineapples, a
    # grape and a cherry: 14 fruits on all cards, but its best set is Variety, 9 fruits (its
    # Smiley, pineapple/grapes/cherry pairs, has 8). B holds 4 strawberries (Greedy): 12 on all
    # cards and in its set. By default A wins on 14 against 12; counting set cards, B does.
    rows, ref = _finished(
        {0: [3, 2, 2, 1, 1], 1: [0, 0, 0, 0, 4]},
        {0: 2, 1: 2},
        {0: 1, 1: 1},
        rules={"tiebreak_fruits": tiebreak},
    )
    assert list(rows[:2, L.S_SCORE]) == [14, 12]  # the score is the fruits on all cards
    tiebreak_col = len(L.SEAT_COLUMNS) + C.C_TIEBREAK_FRUITS
    assert list(rows[:2, tiebreak_col]) == ([14, 12] if tiebreak == "all_cards" else [9, 12])
    assert list(rows[:2, L.S_WIN]) == wins


def test_a9_set_cards_picks_the_richest_cards_of_a_kind():
    # A9 alternative with printed fruits per card (A2): a Greedy of 5 cherries counts its 4
    # richest cards; a player without a completed set counts all their cards (A8)
    per_card = (1,) * 6 + (1,) * 6 + (2, 2, 3, 1, 5, 1) + (2,) * 6 + (3,) * 6
    rows, _ = _finished(
        {0: [0, 0, 5, 0, 0], 1: [0, 0, 0, 3, 0]},
        {0: 0, 1: 0},
        {0: 1, 1: 0},
        rules={"tiebreak_fruits": "set_cards", "market_fruits": per_card},
    )
    tiebreak_col = len(L.SEAT_COLUMNS) + C.C_TIEBREAK_FRUITS
    assert list(rows[:2, L.S_SCORE]) == [2 + 2 + 3 + 1 + 5, 6]
    assert list(rows[:2, tiebreak_col]) == [2 + 2 + 3 + 5, 6]
