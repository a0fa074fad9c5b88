"""The worked examples E1-E9 of ``piepmatz.md``, on the compiled engine and on the reference.

Each scenario deals a game, writes the example's table into the reference game (rows, column,
hands, collections, piles: the deal in the test), copies the reference's state into the engine's
int32 state, applies the same decisions to both and checks the example's result on both, and that
the two states stay equal.
"""

from __future__ import annotations

import numpy as np
import pytest

from cardsim.core import layout as L
from cardsim.core import runner
from cardsim.games.piepmatz import cards as C
from cardsim.games.piepmatz import engine
from cardsim.games.piepmatz import reference as REF
from cardsim.games.piepmatz import rules as R
from cardsim.games.piepmatz.scoring import score_game

CHAFFINCH, SPARROW, BULLFINCH, BLACKBIRD, GREENFINCH = range(5)


def bird(species: int, strength: int, female: int = 0) -> int:
    return species * C.BIRDS_PER_SPECIES + (strength - 1) * 2 + female


class Table:
    """One scripted position on both implementations."""

    def __init__(self, players: int = 3, rules: dict | None = None, seed: int = 0):
        self.values = runner.make_spec("piepmatz", 1, players, ["random"], rules or {}).rules
        self.rules = R.encode(self.values, players)
        self.ref = REF.ReferenceGame(self.values, players, seed, 0)
        self.legal = np.zeros(C.MAX_LEGAL, np.int32)

    def sync(self) -> None:
        """The engine's state and chance stream from the reference (after the test's edits)."""
        self.state = self.ref.state_array()
        self.chance = np.array([self.ref.chance.state], np.uint64)

    def do(self, code: int) -> None:
        n = engine.step(self.state, self.rules, code, self.chance, self.legal)
        self.ref.apply(code)
        assert not REF.state_differences(self.state, self.ref.state_array())
        if not self.ref.is_over:
            assert [int(x) for x in self.legal[:n]] == self.ref.legal()

    def engine_field(self, field: int, seat: int = 0, width: int = 1) -> list[int]:
        return [int(x) for x in self.state[field + seat * width : field + seat * width + width]]


def _turn_of(t: Table, seat: int, hand: list[int]) -> None:
    t.ref.seat = seat
    t.ref.phase = C.PHASE_PLAY
    # the replaced hand goes back to the deck, the new one leaves it (bird deck: the draw pile)
    t.ref.bird_deck = [b for b in t.ref.bird_deck + t.ref.hands[seat] if b not in hand]
    t.ref.hands[seat] = sorted(hand)
    t.ref.hand_shown[seat] = len(hand)


@pytest.mark.parametrize("ground", [[3, 1], [1, 3]], ids=["3-1", "1-3"])
def test_e1_chain(ground):
    """E1: greenfinch 3 behind ground birds 3 and 1 under a chaffinch 5: two seed cards (positions
    2 then 1) and two birds (the chaffinch, the first 3); the greenfinch ends on the perch."""
    t = Table()
    perched = bird(CHAFFINCH, 5)
    row = [perched] + [bird(SPARROW, s) for s in ground]
    greenfinch = bird(GREENFINCH, 3)
    first_three = row[1 + ground.index(3)]
    t.ref.rows[0] = row
    t.ref.column = [1, 3, 2, 2]
    t.ref.bad_column = []
    _turn_of(t, 0, [greenfinch, bird(BLACKBIRD, 6), bird(BLACKBIRD, 5), bird(BULLFINCH, 6)])
    t.sync()
    t.do(C.play_code(greenfinch, 0))
    for piles, collection in (
        (t.ref.piles[0], t.ref.collections[0]),
        (t.engine_field(C.F_PILES, 0, 3), None),
    ):
        assert piles == [1, 0, 1]  # the 3-point card at position 2, then the 1 at position 1
        if collection is not None:
            assert collection == {perched, first_three}
    assert t.ref.rows[0] == [greenfinch, bird(SPARROW, 1)]
    assert t.state[C.F_ROWS : C.F_ROWS + 3].tolist() == [greenfinch, bird(SPARROW, 1), 0]
    assert t.ref.column == [2, 2]  # not refilled before phase C (R15)
    assert t.ref.phase == C.PHASE_DRAW
    t.do(C.C_DRAW_DECK)
    assert len(t.ref.column) == 4 and t.ref.column[:2] == [2, 2]  # R26


def test_e2_equal_or_less_option():
    """E2: sparrow 3 behind a chaffinch 5: no seed card, no bird; a hand card of strength <= 3 may
    join the collection, and then two cards are drawn (one otherwise)."""
    for use_option in (True, False):
        t = Table()
        t.ref.rows[0] = [bird(CHAFFINCH, 5)]
        sparrow = bird(SPARROW, 3)
        small, big = bird(BLACKBIRD, 2), bird(BLACKBIRD, 4)
        _turn_of(t, 0, [sparrow, small, big, bird(BULLFINCH, 3, 1)])
        t.sync()
        t.do(C.play_code(sparrow, 0))
        assert t.ref.piles[0] == [0, 0, 0] and not t.ref.collections[0]
        keeps = sorted([C.C_KEEP + small, C.C_KEEP + bird(BULLFINCH, 3, 1)])
        assert t.ref.legal() == [C.C_NO_KEEP, *keeps]  # strength <= 3 (A14)
        t.do(C.C_KEEP + small if use_option else C.C_NO_KEEP)
        assert t.ref.collections[0] == ({small} if use_option else set())
        draws = 0
        while t.ref.seat == 0 and t.ref.phase == C.PHASE_DRAW:
            t.do(C.C_DRAW_DECK)
            draws += 1
        assert draws == (2 if use_option else 1)


def test_e3_refilling_the_column():
    """E3: two seed cards left (the lowest worth 1); the feeder gives a 3-point seed card, a crow,
    a seed card: the 3 goes to position 3, the crow beside position 1, the seed card to 4."""
    t = Table()
    t.ref.rows[0] = [bird(CHAFFINCH, 6)]
    t.ref.column = [1, 2]
    t.ref.bad_column = []
    t.ref.feeder = [C.SEED + 2, C.SEED + 1, C.CROW, C.SEED + 3]  # top last
    played = bird(SPARROW, 1)
    _turn_of(t, 0, [played, bird(BLACKBIRD, 4), bird(BLACKBIRD, 5), bird(BULLFINCH, 6)])
    t.sync()
    t.do(C.play_code(played, 0))  # 1 <= 6 and no hand card of strength <= 1: phase C
    t.do(C.C_DRAW_DECK)
    assert t.ref.column == [1, 2, 3, 1] and t.ref.bad_column == [C.CROW]
    assert t.ref.feeder == [C.SEED + 2]  # drawing stops at four seed cards
    assert t.state[C.F_BAD_COL] == C.CROW and t.state[C.F_SEED_COL + 2] == C.SEED + 3


def _score(t: Table) -> None:
    t.sync()
    score_game(t.state, t.rules)
    t.ref._score()


def _seat_counter(t: Table, seat: int, name: str) -> tuple[int, int]:
    i = C.SEAT_COUNTERS.index(name)
    return int(t.state[C.F_COUNTERS + seat * C.N_COUNTERS + i]), t.ref.count[seat][name]


def test_e4_chaffinch_collection_worth_ten():
    t = Table()
    t.ref.collections[0] = {bird(CHAFFINCH, s) for s in (6, 5, 4, 3)}
    t.ref.collections[1] = {bird(CHAFFINCH, 2)}
    _score(t)
    assert _seat_counter(t, 0, "points_majorities") == (10, 10)
    assert _seat_counter(t, 1, "points_majorities") == (0, 0)


@pytest.mark.parametrize(("strength", "points"), [(1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (6, 3)])
def test_e5_point_values(strength, points):
    t = Table()
    t.ref.collections[0] = {bird(SPARROW, strength)}
    _score(t)
    assert _seat_counter(t, 0, "points_majorities") == (points, points)


def test_e6_pairs_and_the_tie_break():
    t = Table(players=2, rules={"two_player_removed_species": 5})
    t.ref.collections[0] = {bird(CHAFFINCH, 4, 0), bird(CHAFFINCH, 4, 1)}  # a pair
    t.ref.collections[1] = {bird(BULLFINCH, 4, 0), bird(SPARROW, 4, 1)}  # same strength, no pair
    t.ref.piles[0] = [1, 0, 0]
    t.ref.piles[1] = [0, 0, 2]
    _score(t)
    assert _seat_counter(t, 0, "pairs") == (1, 1)
    assert _seat_counter(t, 0, "points_pairs") == (5, 5)
    assert _seat_counter(t, 1, "pairs") == (0, 0)
    # seat 0: 5 (pair) + 4 (two chaffinches) + 1 seed = 10; seat 1: 2 + 2 + 6 = 10: tied on points
    assert t.ref.scores == [10, 10] and t.state[C.F_SCORE : C.F_SCORE + 2].tolist() == [10, 10]
    t.ref.over = True
    game_row, seat_rows = t.ref.outcome_rows()
    eng_game = np.zeros_like(game_row)
    eng_seats = np.zeros_like(seat_rows)
    engine.finalize(t.state, t.rules, eng_game, eng_seats)
    for rows in (seat_rows, eng_seats):
        assert rows[:, L.S_WIN].tolist() == [1, 0]  # R36: more pairs wins the tie
        assert rows[:, L.S_RANK].tolist() == [1, 2]


@pytest.mark.parametrize(("trigger_seat", "then_play"), [(1, [2]), (2, []), (0, [1, 2])])
def test_e7_final_round(trigger_seat, then_play):
    """E7: seats 0 (start player), 1, 2; the end triggered in a seat's turn: the round is completed
    up to seat 2, the player to the right of the start player."""
    t = Table(players=3, rules={"first_player": 0})
    # play on until it is the trigger seat's turn, then empty the feeder deck
    while t.ref.seat != trigger_seat or t.ref.phase != C.PHASE_PLAY:
        t.ref.apply(t.ref.legal()[0])
    t.ref.feeder = []
    t.ref.column = t.ref.column[:3]  # phase C must draw from the empty deck (R28)
    t.ref.bad_column = t.ref.bad_column[:3]
    t.sync()
    played = []
    while not t.ref.is_over and t.ref.phase != C.PHASE_DISCARD:
        if t.ref.phase == C.PHASE_PLAY:
            played.append(t.ref.seat)
        t.do(t.ref.legal()[0])
    assert t.ref.triggered and t.ref.trigger_how == C.TRIGGER_REFILL
    assert played == [trigger_seat, *then_play]
    while not t.ref.is_over:
        t.do(t.ref.legal()[0])
    assert t.ref.end_reason == C.END_FEEDER
    for seat in range(3):  # R31: hands of 4 keep 2
        assert t.ref.hands[seat] == []


def _squirrel_turn(t: Table, pile: list[int], from_deck: bool) -> None:
    """Seat 0 plays so that its chain's first step takes a squirrel (with the seed card beside it
    at position 1, or from the feeder deck with d = 5)."""
    t.ref.piles[0] = list(pile)
    if from_deck:
        t.ref.rows[0] = [bird(CHAFFINCH, 1), bird(SPARROW, 1)]
        played = bird(BLACKBIRD, 5)  # ground 6 against 1: d = 5
        t.ref.feeder.append(C.SQUIRREL)
    else:
        t.ref.rows[0] = [bird(CHAFFINCH, 2)]
        played = bird(BLACKBIRD, 3)  # d = 1
        t.ref.column = [3, 1, 1, 1]
        t.ref.bad_column = [C.SQUIRREL]
    _turn_of(t, 0, [played, bird(BULLFINCH, 6), bird(BULLFINCH, 5), bird(BULLFINCH, 4, 1)])
    t.sync()
    t.do(C.play_code(played, 0))


def test_e8_squirrel_edge_cases():
    t = Table()  # a pile of 1 card loses it: here the seed card taken with the squirrel
    _squirrel_turn(t, [0, 0, 0], from_deck=False)
    assert t.ref.piles[0] == [0, 0, 0] and t.ref.count[0]["squirrel_cards_lost"] == 1
    assert _seat_counter(t, 0, "squirrel_points_lost") == (3, 3)
    t = Table()  # an empty pile loses nothing (the squirrel came from the deck, d >= 5)
    _squirrel_turn(t, [0, 0, 0], from_deck=True)
    assert t.ref.count[0]["squirrels_taken"] == 1
    assert _seat_counter(t, 0, "squirrel_cards_lost") == (0, 0)
    t = Table()  # a larger pile loses two of its cards, the new seed card among the candidates
    _squirrel_turn(t, [2, 1, 0], from_deck=False)
    assert sum(t.ref.piles[0]) == 2 and _seat_counter(t, 0, "squirrel_cards_lost") == (2, 2)


def test_e9_majority_tie():
    """E9: A holds 3 blackbirds worth 2 + 2 + 3, B 3 worth 1 + 1 + 3, C 1: A 7, B 5, C 0."""
    t = Table()
    t.ref.collections[0] = {bird(BLACKBIRD, 3), bird(BLACKBIRD, 4), bird(BLACKBIRD, 5)}
    t.ref.collections[1] = {bird(BLACKBIRD, 1), bird(BLACKBIRD, 2), bird(BLACKBIRD, 6)}
    t.ref.collections[2] = {bird(BLACKBIRD, 6, 1)}
    _score(t)
    assert [_seat_counter(t, s, "points_majorities") for s in range(3)] == [(7, 7), (5, 5), (0, 0)]


def test_a20_pairs_excluded_from_majorities():
    """A20 alternative: paired birds neither count nor score in a majority."""
    t = Table(rules={"pairs_count_for_majority": False})
    t.ref.collections[0] = {bird(SPARROW, 6, 0), bird(SPARROW, 6, 1), bird(SPARROW, 1)}
    t.ref.collections[1] = {bird(SPARROW, 2), bird(SPARROW, 3)}
    _score(t)
    assert _seat_counter(t, 0, "points_majorities") == (0, 0)
    assert _seat_counter(t, 1, "points_majorities") == (3, 3)
    assert _seat_counter(t, 0, "points_pairs") == (5, 5)


def _lone_bad_position(rules: dict) -> Table:
    """The feeder deck is empty; the column holds one seed card and two bad cards (possible only
    after the deck ran out, piepmatz.md invariant). Seat 0 plays for d = 2: no seed card there."""
    t = Table(rules=rules)
    t.ref.feeder = []
    t.ref.triggered = True  # (as it would be: the deck ran out earlier)
    t.ref.trigger_how = C.TRIGGER_REFILL
    t.ref.trigger_turn = 0
    t.ref.column = [2]
    t.ref.bad_column = [C.SQUIRREL, C.CROW]
    t.ref.rows[0] = [bird(CHAFFINCH, 1)]
    played = bird(SPARROW, 3)  # ground 3 against 1: d = 2
    _turn_of(t, 0, [played, bird(BLACKBIRD, 6), bird(BLACKBIRD, 5), bird(BULLFINCH, 6)])
    t.sync()
    t.do(C.play_code(played, 0))
    return t


def test_a7_a_lone_bad_card_stays_by_default():
    t = _lone_bad_position({})
    assert t.ref.bad_column == [C.SQUIRREL, C.CROW] and t.ref.column == [2]
    assert t.ref.collections[0] == {bird(CHAFFINCH, 1)}  # steps 2-5 still follow (A6)
    assert t.ref.count[0]["crows_taken"] == 0 and t.ref.piles[0] == [0, 0, 0]


def test_a7_take_lone_bad_card_takes_it():
    t = _lone_bad_position({"take_lone_bad_card": True})
    assert t.ref.bad_column == [C.SQUIRREL] and t.ref.count[0]["crows_taken"] == 1
    assert t.ref.phase in (C.PHASE_DRAW, C.PHASE_CROW)  # one bird: the crow's choice is forced
    assert _seat_counter(t, 0, "crows_taken") == (1, 1)
    assert not t.ref.collections[0]  # the crow chased the only bird, the chaffinch just taken


def test_a9_a_deck_draw_from_an_empty_feeder_triggers_the_end_and_the_chain_goes_on():
    """R17, A9: d >= 5 with an empty feeder deck: nothing, the end is triggered, and the perched
    bird still joins the collection."""
    t = Table(rules={"first_player": 0})
    t.ref.feeder = []
    t.ref.rows[0] = [bird(CHAFFINCH, 1), bird(SPARROW, 1)]
    played = bird(BLACKBIRD, 5)  # ground 6 against 1: d = 5
    _turn_of(t, 0, [played, bird(BULLFINCH, 6), bird(BULLFINCH, 5), bird(BULLFINCH, 4, 1)])
    t.sync()
    t.do(C.play_code(played, 0))
    assert t.ref.triggered and t.ref.trigger_how == C.TRIGGER_CHAIN_DRAW
    assert t.state[C.F_TRIGGER] == C.TRIGGER_CHAIN_DRAW and t.state[L.H_TRIGGERED] == 1
    assert bird(CHAFFINCH, 1) in t.ref.collections[0] and t.ref.piles[0] == [0, 0, 0]


def test_r27_a_fifth_bad_card_leaves_the_game():
    t = Table()
    t.ref.rows[0] = [bird(CHAFFINCH, 6)]
    t.ref.column = [1, 2, 3]
    t.ref.bad_column = [C.CROW, C.CROW, C.SQUIRREL, C.SQUIRREL]
    t.ref.feeder = [C.SEED + 2, C.SEED + 3, C.CROW]  # top last: a fifth bad card, then a seed
    played = bird(SPARROW, 1)
    _turn_of(t, 0, [played, bird(BLACKBIRD, 4), bird(BLACKBIRD, 5), bird(BULLFINCH, 6)])
    t.sync()
    t.do(C.play_code(played, 0))
    t.do(C.C_DRAW_DECK)
    assert t.ref.column == [1, 2, 3, 3] and len(t.ref.bad_column) == 4
    assert t.ref.bad_removed == 1 and t.state[C.F_BAD_REMOVED] == 1


def _from_deck(t: Table, strength: int, n: int = 1) -> list[int]:
    """``n`` birds of ``strength`` from the bird deck (in nobody's hand, row or queue yet)."""
    found = [b for b in t.ref.bird_deck if C.strength_of(b) == strength][:n]
    assert len(found) == n
    return found


def _bad_places(t: Table) -> tuple[list[int], list[int]]:
    """The bad-card column, place by place (NO_CARD: an empty place), reference and engine."""
    n = int(t.state[C.F_BAD_LEN])
    return list(t.ref.bad_column), [int(c) for c in t.state[C.F_BAD_COL : C.F_BAD_COL + n]]


def _a8_game(rules: dict) -> Table:
    """piepmatz.md A8 (with R27, R28), 3 players, played turn by turn on both implementations:
    turn 1: seat 0's quiet play leaves the column short; the refill lays a squirrel beside seed
    card 1, a squirrel beside seed card 2 and a crow at position 3, beside no seed card, and
    empties the feeder deck (the end is triggered). Turn 2: seat 1 plays for d = 1 and takes
    seed card 1 with its squirrel: the seed card above slides down to position 1."""
    t = Table(rules={"first_player": 0, **rules})
    t.ref.rows[0] = [bird(CHAFFINCH, 6)]
    t.ref.column = [1, 2]
    t.ref.bad_column = []
    t.ref.feeder = [C.CROW, C.SQUIRREL, C.SQUIRREL]  # top last
    played = bird(SPARROW, 1)
    _turn_of(t, 0, [played, bird(BLACKBIRD, 4), bird(BLACKBIRD, 5), bird(BULLFINCH, 6)])
    t.sync()
    t.do(C.play_code(played, 0))  # 1 <= 6, no hand card of strength <= 1: phase C
    t.do(C.C_DRAW_DECK)
    assert t.ref.feeder == [] and t.state[C.F_FEEDER_LEFT] == 0 and t.ref.triggered
    assert _bad_places(t) == ([C.SQUIRREL, C.SQUIRREL, C.CROW],) * 2
    assert t.ref.column == [1, 2]
    perched, two = _from_deck(t, 1)[0], _from_deck(t, 2)[0]
    t.ref.rows[1] = [perched]
    _turn_of(t, 1, [two, *_from_deck(t, 6, 3)])
    t.sync()
    t.do(C.play_code(two, 1))  # 2 against 1: d = 1, seed card 1 and the squirrel beside it
    assert t.ref.column == [2] and t.ref.rows[1] == [two]
    t.do(C.C_DRAW_DECK)
    return t


def _lone_crow_turn(t: Table) -> None:
    """Turn 3: seat 2 plays for d = 2 onto the perched 2: no seed card at position 2 (A6, A7)."""
    four = _from_deck(t, 4)[0]
    _turn_of(t, 2, [four, *_from_deck(t, 6, 3)])
    t.sync()
    t.do(C.play_code(four, 1))


def test_a8_bad_cards_attached_stay_beside_their_seed_cards_after_the_feeder_deck_ran_out():
    """piepmatz.md A8: once the feeder deck is empty, a bad card can lie beside no seed card (the
    crow at position 3). When seed card 1 is taken, both columns close up by default: the crow
    slides to position 2. With ``bad_cards_attached`` the seed card above slides down with its
    squirrel, the crow stays at position 3, and position 2 is left empty."""
    default, attached = _a8_game({}), _a8_game({"bad_cards_attached": True})
    assert _bad_places(default) == ([C.SQUIRREL, C.CROW],) * 2
    assert _bad_places(attached) == ([C.SQUIRREL, C.NO_CARD, C.CROW],) * 2
    stayed = [e for e in attached.ref.events if e["kind"] == REF.EV_STAYED]
    assert stayed == [{"kind": REF.EV_STAYED, "cards": [C.CROW], "positions": [3]}]
    assert not [e for e in default.ref.events if e["kind"] == REF.EV_STAYED]


def test_a8_the_readings_differ_in_play_only_when_a_lone_bad_card_is_taken():
    """Turn 3 plays for d = 2. With A7's default a lone bad card is never taken, so both A8
    readings give the same turn (no crow); with ``take_lone_bad_card`` the default reading takes
    the crow that slid to position 2, the attached reading finds an empty place there."""
    for lone in (False, True):
        default = _a8_game({"take_lone_bad_card": lone})
        attached = _a8_game({"take_lone_bad_card": lone, "bad_cards_attached": True})
        for t in (default, attached):
            _lone_crow_turn(t)
        crows = [_seat_counter(t, 2, "crows_taken") for t in (default, attached)]
        assert crows == ([(1, 1), (0, 0)] if lone else [(0, 0), (0, 0)])
    assert _bad_places(default) == ([C.SQUIRREL],) * 2
    assert _bad_places(attached) == ([C.SQUIRREL, C.NO_CARD, C.CROW],) * 2
