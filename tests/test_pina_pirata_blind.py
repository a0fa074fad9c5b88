"""The play loop of bots that read no observation plays ``engine.step_blind`` (``show`` left
out), and those are the same games as with ``step`` (core: ``specialize.plays_blind``,
``Bot.reads_observation``, ``Ruleset.blind_step``)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from cardsim.core import registry, runner, specialize
from cardsim.games.pina_pirata import engine

PINA = registry.get("pina-pirata")


def loop_step(spec):
    bots, flags, _ = specialize.loop_slots(spec)
    return specialize.loop_kernels(spec.ruleset, bots, flags)[1]


def test_only_a_loop_of_trusted_bots_that_read_no_observation_plays_blind():
    builtin = PINA.bots()
    assert not builtin["random"].reads_observation
    assert builtin["greedy"].reads_observation and builtin["captain"].reads_observation
    random_only = runner.make_spec("pina-pirata", 10, 4, ["random"])
    assert loop_step(random_only) is engine.step_blind
    assert loop_step(runner.make_spec("pina-pirata", 10, 4, ["greedy"])) is engine.step
    # a mixed seating's loop holds every built-in bot, greedy and captain read the observation
    assert (
        loop_step(runner.make_spec("pina-pirata", 10, 4, ["random", "greedy"] * 2)) is engine.step
    )
    # a bot behind the guarded boundary (a user's) always gets a fresh observation
    guarded = dataclasses.replace(random_only, guarded=(True,))
    assert loop_step(guarded) is engine.step
    seeing = dataclasses.replace(builtin["random"], reads_observation=True)
    spec = runner.make_spec("pina-pirata", 10, 4, seat_bots=[seeing] * 4)
    assert loop_step(spec) is engine.step
    # a ruleset without a blind step plays its step whatever the bots
    fruit = runner.make_spec("fruit-picking", 10, 2, ["random"])
    assert fruit.ruleset.blind_step is None
    assert loop_step(fruit) is fruit.ruleset.kernels()[1]


@pytest.mark.parametrize("players", [2, 4, 6])
def test_the_blind_step_plays_the_same_games(players):
    """The random bot seated as it is (the blind loop) and the same bot declared as reading its
    observation (the loop with ``step``): every outcome row equal, Treasure Hunt and Cruise."""
    seeing = dataclasses.replace(PINA.bots()["random"], reads_observation=True)
    for rules in ({}, {"mode": "cruise"}):
        blind = runner.make_spec("pina-pirata", 300, players, ["random"], rules, seed=11)
        shown = runner.make_spec(
            "pina-pirata", 300, players, rules=rules, seat_bots=[seeing] * players, seed=11
        )
        assert loop_step(blind) is engine.step_blind and loop_step(shown) is engine.step
        a = list(runner.iter_chunks(blind))
        b = list(runner.iter_chunks(shown))
        for x, y in zip(a, b, strict=True):
            np.testing.assert_array_equal(x.game_out, y.game_out)
            np.testing.assert_array_equal(x.seat_out, y.seat_out)
