"""``cardsim replay fruit-picking --table``: the table lines read back equal the compiled
engine's state at that point (issue 34): each market slot's fruit and price, the stack's size,
each seat's seeds per farm position (House first), storage and market cards owned per fruit."""

from __future__ import annotations

import re

import pytest

from cardsim.core import layout as L
from cardsim.core import runner
from cardsim.core.table import TableView
from cardsim.games.fruit_picking import cards as C
from cardsim.games.fruit_picking import reference as REF
from cardsim.games.fruit_picking import trace
from tests.replay_tables import assert_tables_match, play_recorded

GAME = "fruit-picking"
KIND = {name: k for k, name in enumerate(C.KIND_NAMES)}
HEADER = re.compile(
    r"Table at the start of Seat (\d+)'s turn: market: (.*); stack: (\d+) cards?\.$"
)
SEAT = re.compile(r"Seat (\d+): farm, House first: ([\d ]+); storage: (\d+); cards: (.*)\.$")


def parse(block: list[str]) -> dict:
    seat, market, stack = HEADER.match(block[0]).groups()
    slots = []
    for slot in market.split(", "):
        if slot == "empty":
            slots.append(None)
        else:
            kind, price = slot.split(" for ")
            slots.append((KIND[kind], int(price)))
    seats = []
    for line in block[1:]:
        s, seeds, storage, cards = SEAT.match(line).groups()
        assert int(s) == len(seats)
        owned = [int(part.split(" ")[1]) for part in cards.split(", ")]
        seats.append(([int(x) for x in seeds.split()], int(storage), owned))
    return {"seat": int(seat), "market": slots, "stack": int(stack), "seats": seats}


def engine_table(state) -> dict:
    slots = []
    for i in range(state[C.F_N_SLOTS]):
        card = state[C.F_MARKET_CARD + i]
        kind, price = int(state[C.F_MARKET_KIND + i]), int(state[C.F_MARKET_PRICE + i])
        slots.append(None if card < 0 else (kind, price))
    seats = []
    for s in range(state[L.H_N_PLAYERS]):
        b = C.seat_base(s)
        seeds = [int(x) for x in state[b + C.SEAT_SEEDS : b + C.SEAT_SEEDS + C.N_POSITIONS]]
        owned = [int(x) for x in state[b + C.SEAT_OWNED : b + C.SEAT_OWNED + C.N_FRUIT_KINDS]]
        seats.append((seeds, int(state[b + C.SEAT_STORAGE]), owned))
    return {
        "seat": int(state[L.H_SEAT]),
        "market": slots,
        "stack": int(state[C.F_STACK_LEFT]),
        "seats": seats,
    }


CASES = [
    (2, ["greedy", "random"], {}),
    (4, ["planner", "greedy", "random", "greedy"], {"variant_market_operation": True}),
    (3, ["random"], {"variant_umbrella": True}),
]


@pytest.mark.parametrize("players, bots, rules", CASES)
def test_table_lines_read_back_equal_the_engine(players, bots, rules):
    spec = runner.make_spec(GAME, 1, players, bots, rules, seed=7)
    events, engine_states = play_recorded(spec, 0, REF.ReferenceGame, quiet=(REF.EV_TURN,))
    story = lambda view: trace._story(spec, 0, events, view)  # noqa: E731
    assert_tables_match(
        story, events, engine_states, TableView(), parse, lambda st, _: engine_table(st)
    )
