"""Built-in Piepmatz bots: the planner beats greedy and random in seat-rotated play, greedy beats
random, and each bot decides the way its description says in scripted positions."""

import dataclasses
import itertools

import numpy as np
import pytest

from cardsim.core import layout as L
from cardsim.core import runner
from cardsim.games.piepmatz import bots as B
from cardsim.games.piepmatz import cards as C
from tests.test_piepmatz_examples import BLACKBIRD, BULLFINCH, CHAFFINCH, SPARROW, Table, bird

PLANNER = np.array(B.PLANNER_PARAMS)
GREEDY = np.array(B.GREEDY_PARAMS)


def rotated(strong: str, weak: str, players: int, games: int, seed: int = 3) -> float:
    """Win share of ``strong`` seated once against ``players - 1`` copies of ``weak``, over every
    seat rotation (seat and turn order cancel out); a shared win counts as a share."""
    spec = runner.make_spec("piepmatz", games, players, [strong] + [weak] * (players - 1), {}, seed)
    rows = sorted(set(itertools.permutations([0] + [1] * (players - 1))))
    spec = dataclasses.replace(spec, seat_bot_table=np.array(rows, np.int16))
    share = 0.0
    for c in runner.iter_chunks(spec):
        wins = c.seat_out[:, :players, L.S_WIN].astype(float)
        wins /= wins.sum(axis=1, keepdims=True)
        share += wins[c.seat_bot[:, :players] == 0].sum()
    return share / spec.n_games


@pytest.mark.parametrize(
    ("strong", "weak"), [("planner", "greedy"), ("planner", "random"), ("greedy", "random")]
)
@pytest.mark.parametrize("players", [2, 4])
def test_stronger_bots_win_more_than_their_share(strong, weak, players):
    """One ``strong`` bot against copies of ``weak``: more than the fair share (1/2, 1/4)."""
    assert rotated(strong, weak, players, 1200) > 1.1 / players


def _choose(t: Table, params) -> int:
    """The code the weighted bot picks for the engine state of ``t``."""
    legal = t.ref.legal()
    buf = np.zeros(C.MAX_LEGAL, np.int32)
    buf[: len(legal)] = legal
    obs = t.state[: C.OBS_LEN].copy()
    rng = np.array([1], np.uint64)
    return legal[B.weighted_bot(obs, buf, len(legal), np.asarray(params, np.float64), rng)]


def test_greedy_takes_the_best_seed_card():
    """Column 1, 3, 1, 1 and perches of strength 2 and 3: greedy plays its sparrow 4 on the 2 for
    the 3-point seed card at position 2."""
    t = Table(players=3)
    t.ref.rows[0] = [bird(CHAFFINCH, 2)]
    t.ref.rows[1] = [bird(CHAFFINCH, 3)]
    t.ref.column = [1, 3, 1, 1]
    t.ref.bad_column = []
    hand = [bird(SPARROW, 3), bird(SPARROW, 4, 1), bird(BULLFINCH, 6), bird(BULLFINCH, 6, 1)]
    t.ref.hands[0] = hand
    t.ref.seat = 0
    t.sync()
    choice = _choose(t, GREEDY)
    perch = choice % C.MAX_PERCHES
    ground = C.strength_of(choice // C.MAX_PERCHES)
    d = ground - (2 if perch == 0 else 3)
    assert d == 2, f"greedy played for position {d}"


def test_the_crow_takes_the_cheapest_bird_of_the_largest_species():
    t = Table(players=3)
    t.ref.collections[0] = {bird(BLACKBIRD, 6), bird(BLACKBIRD, 1), bird(BLACKBIRD, 4)}
    t.ref.phase = C.PHASE_CROW
    t.ref.seat = 0
    t.ref.played_perch = 0
    t.sync()
    for params in (GREEDY, PLANNER):
        assert _choose(t, params) == C.C_CROW + bird(BLACKBIRD, 1)


def test_the_final_discard_keeps_the_pair():
    t = Table(players=2, rules={"two_player_removed_species": 5})
    t.ref.collections[0] = {bird(SPARROW, 5)}
    t.ref.hands[0] = sorted(
        [bird(SPARROW, 5, 1), bird(CHAFFINCH, 1), bird(BULLFINCH, 1), bird(BLACKBIRD, 2)]
    )
    t.ref.phase = C.PHASE_DISCARD
    t.ref.seat = 0
    t.ref.last_discard = -1
    t.ref._discarded = []
    t.sync()
    for params in (GREEDY, PLANNER):
        assert _choose(t, params) != C.C_DISCARD + bird(SPARROW, 5, 1)


def test_random_picks_every_legal_decision():
    legal = np.arange(7, dtype=np.int32)
    obs = np.zeros(C.OBS_LEN, np.int32)
    rng = np.array([5], np.uint64)
    picks = [B.random_bot(obs, legal, 7, np.zeros(1), rng) for _ in range(700)]
    counts = np.bincount(picks, minlength=7)
    assert counts.min() > 60 and counts.sum() == 700


def test_the_planner_finds_no_bad_card_at_an_empty_place_of_the_column():
    """A8's alternative (``bad_cards_attached``) can leave an empty place in the bad-card column
    (piepmatz.md A8): the planner's chain simulation takes no bad card there, and the crow and
    squirrel above it where they lie (R14)."""
    obs = np.zeros(C.OBS_LEN, np.int32)
    obs[C.F_COLUMN_SIZE] = 4
    obs[C.F_SEED_LEN] = 3
    obs[C.F_SEED_COL : C.F_SEED_COL + 3] = [C.SEED + 1, C.SEED + 2, C.SEED + 3]
    obs[C.F_BAD_LEN] = 3
    obs[C.F_BAD_COL : C.F_BAD_COL + 3] = [C.NO_CARD, C.CROW, C.SQUIRREL]
    column, bad_col = B.packed_column(obs), B.packed_bad_column(obs)
    params = np.array(B.PLANNER_PARAMS, np.float64)
    taken = [B.take_at(obs, params, column, 3, bad_col, 3, d)[-1] for d in (1, 2, 3)]
    assert taken == [C.NO_CARD, C.CROW, C.SQUIRREL]
    _, got, column, seeds, bad_col, bads, bad = B.take_at(obs, params, column, 3, bad_col, 3, 2)
    assert (got, bad, seeds, bads) == (2, C.CROW, 2, 2)
    # the columns close up (the slide of A8's default): the squirrel is at position 2 now
    assert B.take_at(obs, params, column, seeds, bad_col, bads, 2)[-1] == C.SQUIRREL
