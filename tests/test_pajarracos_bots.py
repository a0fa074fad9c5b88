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
    """crow-attacker's crows eat more than those of greedy (which counts only its own score;
    measured 3.5 against 2.8 fruit cards a game; 4.1 against 2.9 under the earlier reading that
    let one action shoo several crows onto opponents, shoo_to_ends_action=false), and it plays
    more of them; defender protects, shoos out and takes extra turns more than greedy."""
    _, attack = rotated("crow-attacker", "greedy", 4, 1000)
    eaten = "fruit_eaten_by_its_crows"
    assert _per_game(attack, 0, eaten) > 1.15 * _per_game(attack, 1, eaten)
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


# Declining an extra turn (pajarracos.md R18, A17) ------------------------------------------------
def _extra_turn_choice(bot_name: str, hand_cards: dict, trees: dict) -> int:
    """The code ``bot_name`` picks as the first decision of the extra turn Seryozha (seat 0) earns
    by shooing the flock off his cherries, holding ``hand_cards`` besides the scarecrow
    (scenario helpers of tests/test_pajarracos_examples.py)."""
    from cardsim.games.pajarracos import bots as B
    from tests.test_pajarracos_examples import OTHERS, Both, flock, hand

    trees = {(0, 0): flock(2, sender=1), **trees}
    both = Both(hands={0: hand(scarecrow=1, **hand_cards), **OTHERS}, trees=trees)
    both.apply(C.C_SHOO_OUT + 0)  # the last scarecrow: the action stops, an extra turn begins
    assert both.state[C.F_EXTRA_TURNS] == 1 and both.ref.legal()[-1] == C.C_DECLINE
    legal = np.array(both.ref.legal(), np.int32)
    obs = both.state[: C.OBS_LEN].copy()
    bot = B.BUILTIN[bot_name]
    params = np.array(bot.params, np.float64)
    pick = bot.fn(obs, legal, len(legal), params, np.array([12345], np.uint64))
    return int(legal[pick])


@pytest.mark.parametrize("bot", ["greedy", "crow-attacker", "defender", "strategist"])
def test_weighted_bots_take_an_extra_turn_that_grows_their_own_tree(bot):
    # two apples in hand and an open apple tree of its own: a fruit play is worth more than
    # nothing, so the extra turn is taken
    from tests.test_pajarracos_examples import Tree

    assert _extra_turn_choice(bot, {"apples": 2}, {(0, 1): Tree(size=3)}) != C.C_DECLINE


@pytest.mark.parametrize("bot", ["greedy", "crow-attacker", "defender", "strategist"])
def test_weighted_bots_decline_an_extra_turn_that_only_costs_cards(bot):
    # one grape in hand and its own grape tree protected: the grape can only go onto another
    # player's orchard (a gift) or be discarded; declining keeps it (pajarracos.md A17)
    from tests.test_pajarracos_examples import Tree

    trees = {(0, 4): Tree(size=2, scarecrow=True)}
    assert _extra_turn_choice(bot, {"grapes": 1}, trees) == C.C_DECLINE


_DECLINE_COUNTS = []


def _declines_by_legal_count(games: int) -> dict[int, list[int]]:
    """{number of legal decisions: [extra turns begun with that many, declines]} over ``games``
    4-player games of the random bot (seed 5), in a loop compiled on first use that asks the bot
    as the play loop does (a Python loop over the steps would take a minute)."""
    if not _DECLINE_COUNTS:
        from numba import njit

        from cardsim.core import kernel
        from cardsim.core.rng import BOT_STREAM, CHANCE_STREAM, stream_start
        from cardsim.games.pajarracos import bots as B
        from cardsim.games.pajarracos import engine as E

        @njit
        def count(n_games, rules, turn_cap, out):
            state = np.zeros(C.STATE_LEN, np.int32)
            legal = np.zeros(C.MAX_LEGAL, np.int32)
            params = np.zeros(0, np.float64)
            chance = np.zeros(1, np.uint64)
            rng = np.zeros(1, np.uint64)
            for game in range(n_games):
                chance[0] = stream_start(5, game, CHANCE_STREAM)
                rng[0] = stream_start(5, game, BOT_STREAM)
                state[:] = 0
                state[L.H_CAP_TURNS] = turn_cap * 4
                n = E.deal(state, rules, 4, chance, legal)
                while state[L.H_OVER] == 0:
                    pick = 0
                    if n > 1:  # the play loop asks a bot only for a real choice
                        pick = B.random_bot(state[: C.OBS_LEN], legal, n, params, rng)
                        if legal[n - 1] == C.C_DECLINE:  # listed last (bots.py, A17)
                            out[n, 0] += 1
                            out[n, 1] += legal[pick] == C.C_DECLINE
                    n = E.step(state, rules, legal[pick], chance, legal)
                    kernel.end_turn_cap_reached(state)

        _DECLINE_COUNTS.append(count)
    from cardsim.games.pajarracos import rules as R

    values = runner.make_spec("pajarracos", 1, 4, ["random"], {}).rules
    out = np.zeros((C.MAX_LEGAL + 1, 2), np.int64)
    _DECLINE_COUNTS[0](games, R.encode(values, 4), values["turn_cap"], out)
    return {n: [int(t), int(d)] for n, (t, d) in enumerate(out) if t}


def test_random_bot_declines_as_often_as_it_picks_any_other_decision():
    """The random bot treats declining an extra turn as one more legal decision (bots.py
    docstring; pajarracos.md R18, A17): where n decisions are legal, it declines with chance 1/n.
    A chi-square over the legal counts seen compares the declines with that share. Seen to fail
    with the random bot planted to skip the last legal decision (``randint(rng, n_legal - 1)``:
    it never declines) and planted to decline half the time whenever it may."""
    from scipy.stats import chi2

    seen = _declines_by_legal_count(20000)
    begun = sum(t for t, _ in seen.values())
    assert begun > 5000 and len(seen) >= 3, seen
    stat = sum((d - t / n) ** 2 / (t * (1 / n) * (1 - 1 / n)) for n, (t, d) in seen.items())
    assert chi2.sf(stat, df=len(seen)) > 0.001, seen


# The weighted bot's shortcuts (bots.best_decision) -----------------------------------------------
def _every_code_kernels():
    """(reference bot, comparing game loop), compiled on first use: the reference values every
    legal code with ``decision_value`` on the whole projected table, ties broken by reservoir
    sampling in list order (the weighted bots' definition, bots.py docstring)."""
    from numba import njit

    from cardsim.core.rng import BOT_STREAM, CHANCE_STREAM, stream_start
    from cardsim.games.pajarracos import bots as B
    from cardsim.games.pajarracos import engine as E

    @njit
    def every_code_bot(obs, legal, n_legal, params, rng):
        table = obs[C.OBS_SCRATCH : C.OBS_SCRATCH + B.T_LEN]
        B.project_rest(obs, table, 0)
        me = obs[L.H_SEAT]
        leader = -1
        if params[B.W_HARM_LEADER] != params[B.W_HARM_OTHERS]:
            leader = B.leader_of(table, me, obs[L.H_N_PLAYERS])
        best, best_value, ties = 0, -1e18, 0
        for i in range(n_legal):
            value = B.decision_value(obs, table, params, legal[i], me, leader)
            best, best_value, ties = B.consider(value, i, best, best_value, ties, rng)
        return best

    @njit
    def first_difference(n_games, n_players, rules, params, seed, turn_cap):
        """(game, decision) of the first decision where the two bots choose or draw differently,
        else (-1, decisions compared)."""
        state = np.zeros(C.STATE_LEN, np.int32)
        legal = np.zeros(C.MAX_LEGAL, np.int32)
        copy = np.zeros(C.OBS_LEN, np.int32)
        chance = np.zeros(1, np.uint64)
        rng = np.zeros(1, np.uint64)
        rng_copy = np.zeros(1, np.uint64)
        decisions = 0
        for game in range(n_games):
            chance[0] = stream_start(seed, game, CHANCE_STREAM)
            rng[0] = stream_start(seed, game, BOT_STREAM)
            state[:] = 0
            state[L.H_CAP_TURNS] = turn_cap * n_players
            n = E.deal(state, rules, n_players, chance, legal)
            while state[L.H_OVER] == 0:
                choice = 0
                if n > 1:
                    copy[:] = state[: C.OBS_LEN]
                    rng_copy[0] = rng[0]
                    expected = every_code_bot(copy, legal, n, params, rng_copy)
                    choice = B.weighted_bot(state[: C.OBS_LEN], legal, n, params, rng)
                    if choice != expected or rng[0] != rng_copy[0]:
                        return game, decisions
                    decisions += 1
                n = E.step(state, rules, legal[choice], chance, legal)
        return -1, decisions

    return first_difference


_EVERY_CODE = []


@pytest.mark.parametrize("bot", ["greedy", "crow-attacker", "defender", "strategist"])
@pytest.mark.parametrize(
    "players, rules",
    [
        (4, {}),
        (3, {"juicy_attracts_own_crows": False}),
        (6, {"shoo_to_ends_action": False, "discard_min": 0}),
        (4, {"fruit_single_target": False, "juicy_may_be_played_alone": False}),
        (5, {"extra_turn_optional": False, "hand_size": 10}),
    ],
)
def test_weighted_bot_chooses_and_draws_as_valuing_every_code(bot, players, rules):
    """``best_decision`` values the fruit plays from a few integers, skips runs that cannot tie
    and draws once per tie of a run: at every decision of these games it picks the same code and
    leaves the bot stream where the plain definition (every code valued) does."""
    if not _EVERY_CODE:
        _EVERY_CODE.append(_every_code_kernels())
    spec = runner.make_spec("pajarracos", 150, players, [bot], rules, seed=11)
    params = np.array(spec.bots[0].params, np.float64)
    game, decisions = _EVERY_CODE[0](
        150, players, spec.rules_vector(), params, spec.seed, spec.turn_cap()
    )
    assert game == -1, f"game {game}, after {decisions} decisions"
    assert decisions > 150 * 10
