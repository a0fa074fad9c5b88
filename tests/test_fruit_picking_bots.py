"""Built-in Fruit Picking bots: their strength order holds in seat-rotated play, and the planning
helpers agree with the engine's planting (fruit-picking.md R8, R9, A4)."""

import dataclasses
import itertools

import numpy as np
import pytest

from cardsim.core import layout as L
from cardsim.core import runner
from cardsim.core.rng import stream_start
from cardsim.games.fruit_picking import bots as B
from cardsim.games.fruit_picking import cards as C
from cardsim.games.fruit_picking import engine


def rotated_win_rate(strong: str, weak: str, players: int, games: int, seed: int = 7) -> float:
    """Win rate of ``strong`` seated once against ``players - 1`` copies of ``weak``, every seat
    rotation in turn (so seat and turn order cancel out)."""
    spec = runner.make_spec(
        "fruit-picking", games, players, [strong] + [weak] * (players - 1), {}, seed=seed
    )
    rows = [list(p) for p in set(itertools.permutations([0] + [1] * (players - 1)))]
    table = np.array(sorted(rows), np.int16)
    spec = dataclasses.replace(spec, seat_bot_table=table)
    wins = trials = 0
    for chunk in runner.iter_chunks(spec):
        strong_seat = chunk.seat_bot[:, :players] == 0
        wins += int((chunk.seat_out[:, :players, L.S_WIN][strong_seat] != 0).sum())
        trials += len(chunk)
    return wins / trials


@pytest.mark.parametrize(("players", "at_least"), [(2, 0.75), (4, 0.5)])
def test_planner_beats_greedy_clearly(players, at_least):
    """Fair shares are 1/2 and 1/4; the planner must win far more (measured: ~0.89 and ~0.8)."""
    assert rotated_win_rate("planner", "greedy", players, 4000) > at_least


@pytest.mark.parametrize(("strong", "weak"), [("greedy", "random"), ("planner", "random")])
def test_heuristics_beat_random(strong, weak):
    assert rotated_win_rate(strong, weak, 2, 2000) > 0.75


def _random_position(seed: int, skip_origin: bool):
    """A real mid-game state: a game played by random choices for a few dozen decisions."""
    spec = runner.make_spec(
        "fruit-picking", 1, 3, ["random"], {"skip_origin_when_lapping": str(skip_origin)}, seed
    )
    rules = spec.rules_vector()
    state = np.zeros(C.STATE_LEN, np.int32)
    state[L.H_CAP_TURNS] = 3000
    chance = np.array([stream_start(seed, 0, 0)], np.uint64)
    setup, legal_fn, apply, _, _ = engine.KERNELS
    setup(state, rules, 3, chance)
    legal = np.zeros(C.MAX_LEGAL, np.int32)
    pick = np.random.default_rng(seed)
    for _ in range(int(pick.integers(0, 80))):
        if state[L.H_OVER]:
            break
        n = legal_fn(state, legal)
        apply(state, rules, legal[int(pick.integers(0, n))], chance)
    return state, rules, chance


@pytest.mark.parametrize("skip_origin", [False, True])
def test_planting_previews_match_the_engine(skip_origin):
    """planting_end and seeds_after (used by the bots) predict exactly what the engine plants."""
    for seed in range(40):
        state, _, _ = _random_position(seed, skip_origin)
        if state[L.H_OVER] or state[L.H_PHASE] != C.PHASE_PLANT:
            continue
        seat = state[L.H_SEAT]
        base = C.F_SEATS + seat * C.SEAT_LEN + C.SEAT_SEEDS
        for origin in range(1, C.N_POSITIONS):
            if state[base + origin] == 0:
                continue
            expected = [B.seeds_after(state, seat, origin, p) for p in range(C.N_POSITIONS)]
            target, gain = B.preview_planting(state, seat, origin)
            after = state.copy()
            got_target = engine.plant(after, origin, int(skip_origin), seat)
            assert got_target == target
            assert after[base] - state[base] == gain
            assert list(after[base + 1 : base + C.N_POSITIONS]) == expected[1:]


def test_distance_to_set_counts_missing_cards():
    """R20: the four sets, on collections of E8 (fruit-picking.md)."""
    obs = np.zeros(C.PUBLIC_END, np.int32)
    owned = C.F_SEATS + C.SEAT_OWNED

    def distance(counts, extra=-1):
        obs[owned : owned + 5] = counts
        return B.distance_to_set(obs, 0, extra)[0]

    assert distance([0, 0, 0, 0, 4]) == 0  # Greedy
    assert distance([1, 1, 1, 1, 1]) == 0  # Variety
    assert distance([0, 0, 2, 2, 2]) == 0  # Smiley
    assert distance([0, 0, 0, 2, 3]) == 0  # Family
    assert distance([0, 0, 0, 1, 3]) == 1  # one more banana: Family; one more strawberry: Greedy
    assert distance([0, 0, 0, 1, 2], extra=C.STRAWBERRY) == 1
