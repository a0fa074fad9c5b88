"""``cardsim replay piepmatz --table``: the table lines read back into a table equal the compiled
engine's state at that point (issue 34): the decks' sizes, seed and bad-card columns, queue,
rows, each seat's public hand size and followed hand, scoring pile size and squirrel losses, the
pile's seed cards as the followed seat knows them (piepmatz.md A22), collections."""

from __future__ import annotations

import re

import numpy as np
import pytest

from cardsim.core import layout as L
from cardsim.core import runner
from cardsim.core.table import TableView
from cardsim.games.piepmatz import cards as C
from cardsim.games.piepmatz import engine, trace
from cardsim.games.piepmatz import reference as REF
from tests.replay_tables import assert_tables_match, play_recorded

GAME = "piepmatz"
BIRD = {C.bird_name(b): b for b in range(C.N_BIRDS)}
FEEDER = {C.feeder_name(c): c for c in (C.CROW, C.SQUIRREL)} | {"empty place": C.NO_CARD}

HEADER = re.compile(
    r"Table at the start of Seat (\d+)'s turn: feeder deck: (\d+) cards?; bird deck: (\d+) "
    r"cards?; seed column: (.*); bad cards: (.*); queue: (.*)\.$"
)
ROW = re.compile(r"Row (\d+): perch (.*?); ground: (.*)\.$")
SEAT = re.compile(
    r"Seat (\d+): hand: (\d+) cards?(?: \((.*?)\))?; scoring pile: (\d+) cards?, (\d+) lost"
    r"(?: \[(seeds|entered) worth 1/2/3: (\d+)/(\d+)/(\d+)\])?; collection: (.*)\.$"
)


def _birds(names: str) -> list[int]:
    return [] if names in ("none", "empty") else [BIRD[n] for n in names.split(", ")]


def parse(block: list[str]) -> dict:
    seat, feeder, birds, column, bad, queue = HEADER.match(block[0]).groups()
    table = {
        "seat": int(seat),
        "feeder": int(feeder),
        "birds": int(birds),
        "column": [] if column == "empty" else [int(v) for v in column.split()],
        "bad": [] if bad == "empty" else [FEEDER[n] for n in bad.split(", ")],
        "queue": _birds(queue),
        "rows": [],
        "seats": [],
    }
    for line in block[1:]:
        if row := ROW.match(line):
            p, perch, ground = row.groups()
            assert int(p) == len(table["rows"]) + 1
            table["rows"].append([BIRD[perch], *_birds(ground)])
            continue
        s, n, hand, size, lost, how, *counts, collection = SEAT.match(line).groups()
        assert int(s) == len(table["seats"])
        table["seats"].append(
            {
                "n": int(n),
                "hand": None if hand is None else _birds(hand),
                "size": int(size),
                "lost": int(lost),
                "pile": None if how is None else (how, [int(c) for c in counts]),
                "collection": _birds(collection),
            }
        )
    return table


def engine_table(state: np.ndarray, view: TableView, public_piles: bool) -> dict:
    """The same fields from the compiled engine's state (``view`` picks the hands and piles)."""
    n = int(state[L.H_N_PLAYERS])
    known = None
    if view.seat is not None:
        obs = engine.observe(state.copy(), view.seat, np.zeros(C.OBS_LEN, np.int32))
        known = obs
    seats = []
    for s in range(n):
        b = C.seat_base(s)
        hand = state[
            C.F_HANDS + s * C.MAX_HAND : C.F_HANDS + s * C.MAX_HAND + state[C.F_HAND_LEN + s]
        ]
        collection = [
            k * C.BIRDS_PER_SPECIES + i
            for k in range(C.MAX_SPECIES)
            for i in range(C.BIRDS_PER_SPECIES)
            if state[b + C.COLLECTION + k] >> i & 1
        ]
        pile = None
        if view.all_hands:
            pile = ("seeds", [int(x) for x in state[C.F_PILES + 3 * s : C.F_PILES + 3 * s + 3]])
        elif known is not None and (known[C.F_ACTIVE_EXACT + s] or public_piles):
            how = "seeds" if known[C.F_ACTIVE_EXACT + s] else "entered"
            pile = (
                how,
                [int(x) for x in known[C.F_ACTIVE_PILES + 3 * s : C.F_ACTIVE_PILES + 3 * s + 3]],
            )
        seats.append(
            {
                "n": int(state[b + C.HAND_COUNT]),
                "hand": sorted(int(x) for x in hand) if view.shows_hand(s) else None,
                "size": int(state[b + C.PILE_SIZE]),
                "lost": int(state[b + C.PILE_LOST]),
                "pile": pile,
                "collection": collection,
            }
        )
    return {
        "seat": int(state[L.H_SEAT]),
        "feeder": int(state[C.F_FEEDER_LEFT]),
        "birds": int(state[C.F_BIRDS_LEFT]),
        "column": [
            int(v) - C.SEED for v in state[C.F_SEED_COL : C.F_SEED_COL + state[C.F_SEED_LEN]]
        ],
        "bad": [int(c) for c in state[C.F_BAD_COL : C.F_BAD_COL + state[C.F_BAD_LEN]]],
        "queue": [int(x) for x in state[C.F_QUEUE : C.F_QUEUE + state[C.F_QUEUE_LEN]]],
        "rows": [
            [int(x) for x in state[C.row_base(p) : C.row_base(p) + state[C.F_ROW_LEN + p]]]
            for p in range(state[C.F_PERCHES])
        ],
        "seats": seats,
    }


# A8's alternative with bad cards beyond a short seed column: empty places in the bad-card column
ATTACHED = {
    "bad_cards_attached": True,
    "crows": 6,
    "max_bad_cards_in_column": 6,
    "seed_column_size": 2,
}

CASES = [
    (3, ["planner", "greedy", "random"], {}),
    (4, ["random"], {"public_scoring_piles": True}),
    (2, ["greedy"], {"public_scoring_piles": True, "squirrel_reveal": "public"}),
    (3, ["random"], ATTACHED),
]


@pytest.mark.parametrize("players, bots, rules", CASES)
def test_table_lines_read_back_equal_the_engine(players, bots, rules):
    spec = runner.make_spec(GAME, 1, players, bots, rules, seed=5)
    events, engine_states = play_recorded(spec, 0, REF.ReferenceGame, quiet=(REF.EV_TURN,))
    story = lambda view: trace.story(spec, 0, events, view)  # noqa: E731
    public = spec.rules["public_scoring_piles"]
    for view in (TableView(all_hands=True), TableView(seat=1), TableView()):
        assert_tables_match(
            story, events, engine_states, view, parse, lambda st, v: engine_table(st, v, public)
        )


def test_an_empty_place_of_the_bad_card_column_is_on_the_table():
    """A8's alternative: the table names the empty places the attached bad cards leave, and the
    story says which bad cards stayed (the lines read back against the engine above)."""
    spec = runner.make_spec(GAME, 1, 3, ["random"], ATTACHED, seed=5)
    events, _ = play_recorded(spec, 0, REF.ReferenceGame, quiet=(REF.EV_TURN,))
    text = "\n".join(trace.story(spec, 0, events, TableView()))
    assert "empty place" in text and ("stays in place" in text or "stay in place" in text)
