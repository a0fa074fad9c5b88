"""``cardsim replay pina-pirata --table``: the table lines read back into a table equal the
compiled engine's state at that point (replay-table issue 34): each Hand's size, the followed
Hands' cards, Moonlight's face-up card (T33), the tiles in play and which are face down, the
Action pile top(s), the deck's size, the cards in front of each seat, map pieces / rounds won."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from click.testing import CliRunner

from cardsim.cli.main import cli
from cardsim.core import runner
from cardsim.core.reference import ENGINE_AGREES
from cardsim.core.table import TABLE_MARK, TableView
from cardsim.games.pina_pirata import cards as C
from cardsim.games.pina_pirata import reference as REF
from cardsim.games.pina_pirata import reference_events as EV
from cardsim.games.pina_pirata import trace
from tests.replay_tables import assert_tables_match, play_recorded, table_blocks

GAME = "pina-pirata"
MASKS = C.card_masks(10, 1)
BY_NAME = {C.card_name(m): m for m in MASKS} | {"nothing": -1}

HEADER = re.compile(
    r"Table at the start of Seat (\d+)'s turn: Action piles?: (.*); tiles in play: (.*); "
    r"deck: (\d+) cards?\.$"
)
ASIDE = re.compile(r"Set aside by Bayou \(T11\): (\d+) cards?, face (?:down|up: (.*))\.$")
SEAT = re.compile(
    r"Seat (\d+): (\d+) cards?(?: \((.*?)\))?(?:, face up: (.*) \(Moonlight, T33\))?; "
    r"in front: (.*); (map pieces|rounds won): (\d+)\.$"
)


def _masks(names: str) -> Counter:
    return Counter() if names == "none" else Counter(BY_NAME[n] for n in names.split(", "))


def parse(block: list[str]) -> dict:
    """One table block back into its fields (cards as pirate masks, -1 for none)."""
    seat, tops, tiles, deck = HEADER.match(block[0]).groups()
    table = {
        "seat": int(seat),
        "tops": [BY_NAME[n] for n in tops.split(" and ")],
        "tiles": [
            (int(t), bool(down)) for t, down in re.findall(r"\(T(\d+)(, face down)?\)", tiles)
        ],
        "deck": int(deck),
        "seats": [],
        "aside": (0, None),
    }
    for line in block[1:]:
        aside = ASIDE.match(line)
        if aside:  # T11's set-aside cards: how many, their faces when face up (A15)
            n, up = aside.groups()
            table["aside"] = (int(n), None if up is None else _masks(up))
            continue
        s, n, hand, shown, front, _, count = SEAT.match(line).groups()
        table["seats"].append(
            {
                "n": int(n),
                "hand": None if hand is None else _masks(hand),
                "shown": BY_NAME[shown] if shown else -1,
                "front": _masks(front),
                "count": int(count),
            }
        )
        assert int(s) == len(table["seats"]) - 1
    return table


def engine_table(state, n_players: int, cruise: bool) -> dict:
    """The same fields from the compiled engine's state."""
    mask = lambda card: MASKS[card] if card >= 0 else -1  # noqa: E731
    n_tiles = state[C.F_N_TILES]
    loc = state[C.F_LOC : C.F_LOC + state[C.F_N_CARDS]]
    seats = []
    for s in range(n_players):
        field = lambda f: int(state[C.seat_field(s, f)])  # noqa: E731, B023
        seats.append(
            {
                "n": field(C.SH_HAND_N),
                "hand": Counter(MASKS[c] for c in range(len(loc)) if loc[c] == C.LOC_HAND + s),
                "shown": mask(field(C.SH_SHOWN)),
                "front": Counter(
                    MASKS[c]
                    for c in range(len(loc))
                    if loc[c] in (C.LOC_FRONT + s, C.LOC_VOODOO + s)
                ),
                "count": field(C.SH_ROUNDS_WON if cruise else C.SH_MAPS),
            }
        )
    return {
        "seat": int(state[C.F_ACTIVE]),
        "tops": [mask(state[C.F_TOP + p]) for p in range(state[C.F_N_PILES])],
        "tiles": [
            (int(state[C.F_TILES + i]), bool(state[C.F_TILE_DOWN + i])) for i in range(n_tiles)
        ],
        "deck": int(state[C.F_DECK_N]),
        "seats": seats,
        "aside": (int(state[C.F_ASIDE_N]), _face_up(state)),
    }


def _face_up(state):
    """The set-aside cards every seat observes face up (F_ASIDE_UP, A15's alternative), or
    None when it shows none."""
    bits = [
        int(w) & 0xFFFFFFFF
        for w in state[C.F_ASIDE_UP : C.F_ASIDE_UP + C.MAX_PLAYERS * C.HAND_WORDS]
    ]
    cards = [
        (i % C.HAND_WORDS) * 32 + b for i, w in enumerate(bits) for b in range(32) if w >> b & 1
    ]
    return Counter(MASKS[c] for c in cards) if cards else None


CASES = [
    (4, ["greedy", "random", "captain", "greedy"], {"fixed_tiles": "33,12,9,31,26", "start_tiles": 0}),
    (5, ["captain", "random"] * 2 + ["greedy"], {"fixed_tiles": "27,37,39,40,11,35", "start_tiles": 0}),
    (3, ["greedy"], {"mode": "cruise", "cruise_rounds": 2, "fixed_tiles": "38,33,13,34", "start_tiles": 0}),
    (4, ["random"], {}),
    (3, ["captain", "random", "greedy"], {"aside_face_up": True, "fixed_tiles": "11,31", "start_tiles": 0}),
]  # fmt: skip


@pytest.mark.parametrize("players, bots, rules", CASES)
def test_table_lines_read_back_equal_the_engine(players, bots, rules):
    spec = runner.make_spec(GAME, 1, players, bots, rules, seed=3)
    events, engine_states = play_recorded(spec, 0, REF.ReferenceGame)
    cruise = spec.rules["mode"] == "cruise"

    def engine_view(state, view):
        want = engine_table(state, players, cruise)
        for s, seat in enumerate(want["seats"]):
            seat["hand"] = seat["hand"] if view.shows_hand(s) else None
        return want

    story = lambda view: trace._story(spec, 0, events, view)  # noqa: E731
    for view in (TableView(all_hands=True), TableView(seat=1)):
        told = assert_tables_match(story, events, engine_states, view, parse, engine_view, share=4)
        for table in told:  # every block, compared with the engine or not: the hands shown
            shown = [seat["hand"] is not None for seat in table["seats"]]
            assert shown == [view.shows_hand(s) for s in range(players)]


def test_moonlight_face_up_cards_are_on_the_table():
    """T33: a one-card Hand's card is face up; the table names it (engine-checked above)."""
    spec = runner.make_spec(GAME, 1, *CASES[0], seed=3)
    events, _ = play_recorded(spec, 0, REF.ReferenceGame)
    text = "\n".join(trace._story(spec, 0, events, TableView()))
    assert "(Moonlight, T33)" in text
    assert all(" cards (" not in line and " card (" not in line for line in text.splitlines()
               if line.startswith(TABLE_MARK + "Seat"))  # fmt: skip


def test_a_rounds_turn_count_names_the_skipped_turns_it_leaves_out():
    """T12 skips are not turns played: the reference's and engine's round counter
    (``F_ROUND_TURNS``) leaves them out, and the line says so."""
    spec = runner.make_spec(GAME, 1, 3, ["greedy"], {}, 0)
    skip = {"kind": EV.EV_SKIP, "seat": 2}
    won = {"kind": EV.EV_WIN, "round": 1, "turns": 9, "seat": 1, "active": 1, "how": "empty_hand"}
    capped = {"kind": EV.EV_CAPPED, "round": 2, "turns": 30, "turn_plays": 0}
    new_round = {"kind": EV.EV_ROUND, "round": 1, "dealer": 0, "first": 1, "tiles": [],
                 "tops": [0], "voodoo": [[], [], []]}  # fmt: skip
    lines = trace._story(spec, 0, [skip, skip, won, new_round, skip, capped])
    assert (
        lines[3]
        == "Seat 1 wins round 1 after 9 turns, not counting 2 skipped turns: its Hand is empty."
    )
    assert (
        lines[-1]
        == "Round 2 reaches the round turn cap (30 turns, not counting 1 skipped turn): no winner."
    )


def test_joker_notes_cite_only_the_tile_the_play_needed():
    """With Madness (T9, Walruses are Jokers) and Alligaturtle (T31) both in play, a play that
    either would allow cites the one that made it legal (``ReferenceGame.allowed_by``)."""
    spec = runner.make_spec(GAME, 1, *CASES[0], seed=3)
    events, _ = play_recorded(spec, 0, REF.ReferenceGame)
    notes = [ev["allowed_by"] for ev in events if ev["kind"] == EV.EV_PLAY and ev["allowed_by"]]
    assert notes and all(len(tiles) == 1 for tiles in notes)


@pytest.mark.parametrize(
    "args, says",
    [
        (["--seat", "1"], "add --table"),
        (["--all-hands"], "add --table"),
        (["--table", "--seat", "3"], "--seat 3: the seats are 0 to 2"),
    ],
)
def test_replay_table_options_checked(args, says):
    result = CliRunner().invoke(cli, ["replay", GAME, "--game", "0", "-p", "3", *args])
    assert result.exit_code == 2, result.output
    assert says in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_replay_table_from_the_command_line():
    """``--table --all-hands``: every seat's Hand is listed; the story ends with the check."""
    result = CliRunner().invoke(
        cli, ["replay", GAME, "--game", "1", "-p", "3", "--table", "--all-hands"]
    )
    assert result.exit_code == 0, result.output
    blocks = table_blocks(result.stdout)
    assert blocks and all(
        parse(block)["seats"][s]["hand"] is not None for block in blocks for s in range(3)
    )
    assert result.stdout.strip().endswith(ENGINE_AGREES)


def test_set_aside_cards_are_on_the_table_face_up_only_under_the_option():
    """T11 (A15): the table names the set-aside cards only when they lie face up
    (``aside_face_up``; engine-checked above), else it counts them face down."""
    for rules, says in (({}, "face down."), ({"aside_face_up": True}, "face up: ")):
        given = {"fixed_tiles": "11,31", "start_tiles": 0, **rules}
        spec = runner.make_spec(GAME, 1, 3, ["captain", "random", "greedy"], given, seed=3)
        events, _ = play_recorded(spec, 0, REF.ReferenceGame)
        lines = [
            ln for ln in trace._story(spec, 0, events, TableView()) if "Set aside by Bayou" in ln
        ]
        assert lines and all(says in ln for ln in lines)
