"""Seeded engine games for the determinizer tests (tests/test_<game>_determinize.py): a game's
compiled ``deal``/``step`` driven from Python with random decisions, the real states at its
decision points, and the determinizer asked for a state from one of them."""

from __future__ import annotations

import random

import numpy as np

from cardsim.core import kernel
from cardsim.core import layout as L
from cardsim.core.rng import CHANCE_STREAM, stream_start


class EngineGame:
    """One engine game (``engine``, ``cards`` and ``rules_module`` of a ruleset) with random
    decisions."""

    def __init__(self, engine, cards, rules_module, values: dict, players: int, game: int):
        self.engine = engine
        self.rules = rules_module.encode(values, players)
        self.state = np.zeros(cards.STATE_LEN, np.int32)
        self.state[L.H_CAP_TURNS] = values["turn_cap"] * players  # as the play loop does
        self.chance = np.array([stream_start(5, game, CHANCE_STREAM)], np.uint64)
        self.legal = np.zeros(cards.MAX_LEGAL, np.int32)
        self.count = engine.deal(self.state, self.rules, players, self.chance, self.legal)

    def step(self, pick: random.Random) -> None:
        code = int(self.legal[pick.randrange(self.count)])
        self.count = self.engine.step(self.state, self.rules, code, self.chance, self.legal)
        kernel.end_turn_cap_reached(self.state)  # the loop's check after every decision


def legal_codes(engine, cards, state, rules) -> list[int]:
    """The pending decision's legal codes in ``state``."""
    out = np.zeros(cards.MAX_LEGAL, np.int32)
    return [int(x) for x in out[: engine.legal(state, rules, out)]]


def decision_states(engine, cards, rules_module, values, players: int, games: int, every: int):
    """(real state copy, rules) at every ``every``-th decision of seeded random games."""
    pick = random.Random(players)
    for game in range(games):
        g = EngineGame(engine, cards, rules_module, values, players, game)
        k = 0
        while g.count:
            if k % every == 0:
                yield g.state.copy(), g.rules
            g.step(pick)
            k += 1


def drawn(determinize, cards, state, rules, seed: int) -> np.ndarray:
    """The determinizer's state from ``state``'s observation (its prefix, as a bot sees it); the
    output starts filled with -7 so that a field it forgets to write shows."""
    out = np.full(cards.STATE_LEN, -7, np.int32)
    rng = np.array([stream_start(seed, 0, 1)], np.uint64)
    determinize(state[: cards.OBS_LEN].copy(), rules, rng, out)
    return out


def play_out(engine, cards, state, rules, pick: random.Random, check_state, check_legal) -> None:
    """``step`` plays ``state`` to its end with random decisions; ``check_state(state)`` before
    every decision and at the end, ``check_legal(state, legal)`` on every list of legal codes."""
    chance = np.array([stream_start(9, 1, CHANCE_STREAM)], np.uint64)
    buf = np.zeros(cards.MAX_LEGAL, np.int32)
    legal = legal_codes(engine, cards, state, rules)
    for _ in range(100_000):
        check_state(state)
        if state[L.H_OVER]:
            return
        check_legal(state, legal)
        count = engine.step(state, rules, legal[pick.randrange(len(legal))], chance, buf)
        kernel.end_turn_cap_reached(state)
        legal = [int(x) for x in buf[:count]]
    raise AssertionError("the game does not end")
