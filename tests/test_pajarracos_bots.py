"""Built-in Pajarracos bots: the strategist beats each of the others in seat-rotated play, and each
bot plays the way its description says (measured through the per-seat counters)."""

import dataclasses
import itertools

import numpy as np
import pytest

from cardsim.core import layout as L
from cardsim.core import runner
from cardsim.games.pajarracos import cards as C

SEAT_COUNTERS = len(L.SEAT_COLUMNS)


def rotated(strong: str, weak: str, players: int, games: int, seed: int = 3):
    """Win rate of ``strong`` seated once against ``players - 1`` copies of ``weak``, over every
    seat rotation in turn (seat and turn order cancel out), and the run's chunks."""
    spec = runner.make_spec(
        "pajarracos", games, players, [strong] + [weak] * (players - 1), {}, seed=seed
    )
    rows = sorted(set(itertools.permutations([0] + [1] * (players - 1))))
    spec = dataclasses.replace(spec, seat_bot_table=np.array(rows, np.int16))
    chunks = list(runner.iter_chunks(spec))
    wins = sum(
        int((c.seat_out[:, :players, L.S_WIN][c.seat_bot[:, :players] == 0] != 0).sum())
        for c in chunks
    )
    return wins / spec.n_games, chunks


@pytest.mark.parametrize("weak", ["random", "greedy", "crow-attacker", "defender"])
@pytest.mark.parametrize("players", [3, 6])
def test_strategist_beats_every_other_bot(weak, players):
    """Fair shares are 1/3 and 1/6; measured (2,000 games, one strategist against the others):
    against crow-attacker 0.39 and 0.23, defender 0.59 and 0.22, greedy 0.70 and 0.28."""
    rate, _ = rotated("strategist", weak, players, 2000)
    assert rate > 1.1 / players


def _per_game(chunks, bot: int, counter: str) -> float:
    """Mean of a seat counter over the seats played by bot number ``bot``."""
    col = SEAT_COUNTERS + C.SEAT_COUNTERS.index(counter)
    total = seats = 0
    for c in chunks:
        n = c.seat_out.shape[1]
        mine = c.seat_bot[:, :n] == bot
        total += int(c.seat_out[:, :, col][mine].sum())
        seats += int(mine.sum())
    return total / seats


def test_bots_play_as_described():
    """crow-attacker's crows eat far more than those of greedy (which counts only its own score;
    measured 4.3 against 2.9 fruit cards a game), and it plays more of them; defender protects,
    shoos out and takes extra turns more than greedy."""
    _, attack = rotated("crow-attacker", "greedy", 4, 1000)
    eaten = "fruit_eaten_by_its_crows"
    assert _per_game(attack, 0, eaten) > 1.3 * _per_game(attack, 1, eaten)
    for counter in ("crows_played", "flocks_played"):
        assert _per_game(attack, 0, counter) > _per_game(attack, 1, counter), counter
    _, defend = rotated("defender", "greedy", 4, 1000)
    for counter in ("protects", "shoo_outs", "extra_turns"):
        assert _per_game(defend, 0, counter) > _per_game(defend, 1, counter), counter


def test_random_bot_shows_no_seat_bias():
    """Every seat has the same chances with random bots (the legal lists must not favour a
    seat number: several crows may be placed in any order)."""
    spec = runner.make_spec("pajarracos", 20000, 4, ["random"], {}, seed=9)
    wins = np.zeros(4)
    for c in runner.iter_chunks(spec):
        wins += (c.seat_out[:, :4, L.S_WIN] != 0).sum(axis=0)
    from scipy.stats import chisquare

    assert chisquare(wins).pvalue > 0.001
