"""``cardsim replay pajarracos --table``: the table lines read back equal the compiled engine's
state at that point (issue 34): the reserve pile's size, each hand's size and the followed hands'
cards, each orchard's trees (size, crow card, its sender, scarecrow)."""

from __future__ import annotations

import re

import pytest

from cardsim.core import layout as L
from cardsim.core import runner
from cardsim.core.table import TableView
from cardsim.games.pajarracos import cards as C
from cardsim.games.pajarracos import reference as REF
from cardsim.games.pajarracos import trace
from tests.replay_tables import assert_tables_match, play_recorded

GAME = "pajarracos"
TYPE = {C.card_type_name(t): t for t in range(C.N_TYPES)}
KIND = {name: k for k, name in enumerate(C.KIND_NAMES)}
CROW = {"lone crow": C.LONE, "flock of crows": C.FLOCK_ON}
HEADER = re.compile(r"Table at the start of Seat (\d+)'s turn: reserve pile: (\d+) cards?\.$")
SEAT = re.compile(r"Seat (\d+): hand: (\d+) cards?(?: \((.*?)\))?; orchard: (.*)\.$")
TREE = re.compile(r"(\w+) (\d+)(?: \[(.*?)\])?(?:, |$)")


def parse(block: list[str]) -> dict:
    seat, reserve = HEADER.match(block[0]).groups()
    seats = []
    for line in block[1:]:
        s, n, hand, orchard = SEAT.match(line).groups()
        assert int(s) == len(seats)
        held = None
        if hand is not None:
            held = [0] * C.N_TYPES
            for part in [] if hand == "none" else hand.split(", "):
                name, count = part.rsplit(" x", 1)
                held[TYPE[name]] = int(count)
        trees = {}
        for kind, size, marks in [] if orchard == "none" else TREE.findall(orchard):
            crow, sender, scarecrow = C.NO_CROW, -1, False
            for mark in marks.split(", ") if marks else []:
                if mark == "scarecrow":
                    scarecrow = True
                else:
                    what, by = mark.split(" sent by Seat ")
                    crow, sender = CROW[what], int(by)
            trees[KIND[kind]] = (int(size), crow, sender, scarecrow)
        seats.append((int(n), held, trees))
    return {"seat": int(seat), "reserve": int(reserve), "seats": seats}


def engine_table(state, view: TableView) -> dict:
    seats = []
    for s in range(state[L.H_N_PLAYERS]):
        b = C.seat_base(s)
        trees = {}
        for k in range(C.MAX_KINDS):
            tree = (
                int(state[b + C.TREE_SIZE + k]),
                int(state[b + C.TREE_CROW + k]),
                int(state[b + C.TREE_SENDER + k]),
                bool(state[b + C.TREE_SCARECROW + k]),
            )
            if tree[0] or tree[1] != C.NO_CROW or tree[3]:
                trees[k] = tree
        hand = [int(x) for x in state[C.F_HANDS + s * C.N_TYPES : C.F_HANDS + (s + 1) * C.N_TYPES]]
        seats.append((int(state[b + C.HAND_COUNT]), hand if view.shows_hand(s) else None, trees))
    return {"seat": int(state[L.H_SEAT]), "reserve": int(state[C.F_RESERVE_LEFT]), "seats": seats}


CASES = [
    (3, ["greedy", "random", "greedy"], {}),
    (4, ["random"], {}),
    (5, ["greedy"], {}),
]


@pytest.mark.parametrize("players, bots, rules", CASES)
def test_table_lines_read_back_equal_the_engine(players, bots, rules):
    spec = runner.make_spec(GAME, 1, players, bots, rules, seed=11)
    events, engine_states = play_recorded(spec, 0, REF.ReferenceGame, quiet=(REF.EV_TURN,))
    story = lambda view: trace._story(spec, 0, events, view)  # noqa: E731
    for view in (TableView(all_hands=True), TableView(seat=1)):
        assert_tables_match(story, events, engine_states, view, parse, engine_table)
    text = "\n".join(story(TableView()))
    assert any("sent by Seat" in line for line in text.splitlines())
