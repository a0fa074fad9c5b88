"""Built-in Piña Pirata bots: the captain beats the others in seat-rotated play, greedy beats
random, each bot plays the way its description says, and random bots show no seat bias."""

import dataclasses
import itertools

import numpy as np
import pytest

from cardsim.core import layout as L
from cardsim.core import runner
from cardsim.games.pina_pirata import bots as B
from cardsim.games.pina_pirata import cards as C
from tests.pina_table import Table, card

S0 = len(L.SEAT_COLUMNS)


def rotated(strong: str, weak: str, players: int, games: int, seed: int = 3, rules=None):
    """Win rate of ``strong`` seated once against ``players - 1`` copies of ``weak``, over every
    seat rotation (seat and turn order cancel out), and the chunks."""
    spec = runner.make_spec(
        GAME, games, players, [strong] + [weak] * (players - 1), rules or {}, seed
    )
    rows = sorted(set(itertools.permutations([0] + [1] * (players - 1))))
    spec = dataclasses.replace(spec, seat_bot_table=np.array(rows, np.int16))
    chunks = list(runner.iter_chunks(spec))
    wins = sum(
        int((c.seat_out[:, :players, L.S_WIN][c.seat_bot[:, :players] == 0] != 0).sum())
        for c in chunks
    )
    return wins / spec.n_games, chunks


GAME = "pina-pirata"


@pytest.mark.parametrize(
    "strong, weak, players",
    [
        ("captain", "random", 3),
        ("captain", "greedy", 3),
        ("captain", "greedy", 5),
        ("greedy", "random", 4),
    ],
)
def test_stronger_bots_win_more_than_their_fair_share(strong, weak, players):
    """Fair shares 1/3, 1/5, 1/4 (measured figures: README, `cardsim compare`)."""
    rate, _ = rotated(strong, weak, players, 1200)
    assert rate > 1.1 / players


def test_greedy_hurts_the_player_with_fewest_cards():
    """Go Fish (T5): greedy names the opponent with the fewest cards."""
    t = Table(
        players=4,
        tiles=(5,),
        hands={
            0: [card("Parrot", "Rat"), card("Parrot", "Tiger"), card("Monkey", "Walrus")],
            1: [card("Rabbit", "Monkey"), card("Rabbit", "Octopus"), card("Rabbit", "Tiger")],
            2: [card("Turtle", "Walrus")],
            3: [card("Penguin", "Rat"), card("Penguin", "Tiger")],
        },
        top=card("Parrot", "Octopus"),
    )
    t.play(card("Parrot", "Rat"))
    assert t.phase == C.PH_T5_NAME
    legal = np.array(t.legal + [0] * (C.MAX_LEGAL - len(t.legal)), np.int32)
    rng = np.array([7], np.uint64)
    params = np.array(B.GREEDY_PARAMS)
    i = B.weighted_bot(t.state[: C.OBS_LEN], legal, len(t.legal), params, rng)
    assert (t.legal[i] - C.C_NAME) % C.MAX_PLAYERS == 2


def test_greedy_plays_the_card_that_keeps_most_playable_cards():
    """Top Tiger/Rat: Tiger/Octopus leaves two Octopus cards that can follow it; Rat/Penguin
    leaves none."""
    t = Table(
        players=2,
        hands={0: [card("Tiger", "Octopus"), card("Rat", "Penguin"), card("Octopus", "Walrus"),
                   card("Octopus", "Monkey")]},
        top=card("Tiger", "Rat"),
    )  # fmt: skip
    legal = np.array(t.legal + [0] * (C.MAX_LEGAL - len(t.legal)), np.int32)
    rng = np.array([1], np.uint64)
    i = B.weighted_bot(t.state[: C.OBS_LEN], legal, len(t.legal), np.array(B.GREEDY_PARAMS), rng)
    assert t.legal[i] == C.C_PLAY + card("Tiger", "Octopus")


def test_random_bot_shows_no_seat_bias():
    """Random bots: every seat wins about 1/4 of 4,000 4-player games."""
    spec = runner.make_spec(GAME, 4000, 4, ["random"], {}, 8)
    wins = sum(c.seat_out[:, :, L.S_WIN].sum(axis=0) for c in runner.iter_chunks(spec))
    assert np.all(np.abs(wins / 4000 - 0.25) < 0.035), wins
