"""The search bot ``ismcts`` (core/ismcts.py), for every ruleset with a determinizer: the same
results for a seed whatever the threads and chunks, bad parameters refused before any game, no
hidden card leaking into its decision, and a real gain over random play. Tiny budgets: these
tests check behaviour, the benchmark and the strength study measure it."""

from __future__ import annotations

import os
import time
from pathlib import Path

import numba
import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from cardsim.cli.main import cli
from cardsim.core import dataset as io
from cardsim.core import ismcts, registry, runner, specialize
from cardsim.core import layout as L
from cardsim.core.bots import params_matrix
from cardsim.core.rng import CHANCE_STREAM, stream_start
from tests.test_faults import finish, start

SEARCHABLE = [g for g in registry.available() if registry.get(g).determinize is not None]
TINY = {"ismcts": {"iterations": "12"}}


def _spec(game: str, n_games: int, bots=("ismcts", "random"), params=TINY, seed=3):
    players = registry.get(game).min_players
    names = list(bots) + ["random"] * (players - len(bots))
    return runner.make_spec(
        game, n_games, players=players, bots=names, seed=seed, bot_params=params
    )


def _outcomes(spec, chunk_size: int) -> tuple[np.ndarray, np.ndarray]:
    chunks = list(runner.iter_chunks(spec, chunk_size))
    return (
        np.concatenate([c.game_out for c in chunks]),
        np.concatenate([c.seat_out for c in chunks]),
    )


def test_every_ruleset_with_a_determinizer_offers_ismcts():
    for game in registry.available():
        ruleset = registry.get(game)
        offered = "ismcts" in ruleset.bots()
        assert offered == (ruleset.determinize is not None)
        assert ("ismcts" in ruleset.bot_names) == offered
    assert "fruit-picking" in SEARCHABLE


def test_each_game_seats_ismcts_at_its_default_budget_and_rollout():
    # the per-game tables (ismcts.ITERATIONS, ismcts.ROLLOUTS) reach the seated bot, and every
    # rollout named there is one of the game's own bots
    for game in SEARCHABLE:
        ruleset = registry.get(game)
        bot = ruleset.bots()["ismcts"]
        budget = ismcts.ITERATIONS.get(game, ismcts.DEFAULT_ITERATIONS)
        assert bot.params[ismcts.P_ITERATIONS] == budget
        rollout = ismcts.rollout_names(ruleset)[int(bot.params[ismcts.P_ROLLOUT])]
        assert rollout == ismcts.ROLLOUTS.get(game, "random")
        assert f"{budget} iterations a decision, {rollout} rollouts" in bot.description
        priors = (ismcts.NO_PRIOR, *ismcts.rollout_names(ruleset))
        assert priors[int(bot.params[ismcts.P_PRIOR])] == ismcts.PRIORS.get(game, "none")
        opponents = ismcts.OPPONENTS[int(bot.params[ismcts.P_OPPONENTS])]
        assert opponents == ismcts.OPPONENT_MODELS.get(game, "tree")


def _on_one_thread_too(spec) -> tuple[np.ndarray, np.ndarray]:
    """``spec``'s outcomes in chunks of one game on all threads; asserts that one chunk on one
    thread gives the same."""
    game_out, seat_out = _outcomes(spec, 1)
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one_thread = _outcomes(spec, spec.n_games)
    finally:
        numba.set_num_threads(before)
    assert np.array_equal(game_out, one_thread[0]) and np.array_equal(seat_out, one_thread[1])
    return game_out, seat_out


@pytest.mark.parametrize("game", SEARCHABLE)
def test_same_results_whatever_threads_and_chunks(game):
    spec = _spec(game, 5)
    game_out, seat_out = _on_one_thread_too(spec)
    again = _outcomes(spec, 2)
    assert np.array_equal(game_out, again[0]) and np.array_equal(seat_out, again[1])
    assert game_out[:, 5].sum() > 0  # decisions were taken


@pytest.mark.parametrize(
    ("param", "value", "says"),
    [
        ("iterations", "0", "outside"),
        ("iterations", "2.5", "whole number"),
        ("c", "-1", "outside"),
        ("rollout", "nobody", "not one of"),
        ("reward", "points", "not one of"),
        ("final", "max", "not one of"),
        ("opponents", "everyone", "not one of"),
        ("prior", "nobody", "not one of"),
        ("bias", "-1", "outside"),
        ("depth", "3", "no parameter"),
    ],
)
def test_bad_parameters_are_one_line_and_exit_2(param, value, says):
    result = CliRunner().invoke(
        cli,
        [
            "run",
            "fruit-picking",
            "--players",
            "2",
            "--games",
            "1",
            "--bots",
            "ismcts",
            "--bot-param",
            f"ismcts.{param}={value}",
        ],
    )
    assert result.exit_code == 2
    message = result.output.strip()
    assert len(message.splitlines()) == 1 and says in message and "Traceback" not in message


def test_named_parameters_are_stored_as_their_index():
    bot = runner.make_spec(
        "fruit-picking",
        1,
        players=2,
        bots=["ismcts"],
        bot_params={"ismcts": {"rollout": "greedy", "reward": "margin", "final": "value"}},
    ).bots[0]
    names = ismcts.rollout_names(registry.get("fruit-picking"))
    assert bot.params[ismcts.P_ROLLOUT] == names.index("greedy")
    assert bot.params[ismcts.P_REWARD] == ismcts.REWARD_MARGIN
    assert bot.params[ismcts.P_FINAL] == ismcts.FINAL_VALUE


@pytest.mark.parametrize("game", SEARCHABLE)
def test_prior_and_opponent_model_keep_results_independent_of_threads(game):
    names = ismcts.rollout_names(registry.get(game))
    params = {"ismcts": {"iterations": "12", "prior": names[-1], "opponents": "rollout"}}
    game_out, _ = _on_one_thread_too(_spec(game, 3, params=params))
    assert game_out[:, 5].sum() > 0  # decisions were taken


def _tree_with_children(values: list[float], visits: int) -> tuple[np.ndarray, np.ndarray]:
    """A root (row 0) whose children 1.. are decisions 0.. of seat 0, phase 0, each visited
    ``visits`` times and available as often, with the given mean rewards."""
    tree = np.zeros((16, ismcts.T_FIELDS), np.int32)
    value = np.zeros(16, np.float64)
    ismcts.new_node(tree, value, 0, -1, -1, -1, 0)
    for i, mean in enumerate(values):
        ismcts.new_node(tree, value, i + 1, 0, 0, 0, i)
        tree[i + 1, ismcts.T_VISITS] = visits
        tree[i + 1, ismcts.T_AVAIL] = visits * len(values)
        value[i + 1] = mean * visits
    return tree, value


def _select(tree, value, n_nodes, legal, prior_k, bias):
    state = np.zeros(L.H_PHASE + 1, np.int32)  # seat 0, phase 0
    rng = np.array([1], np.uint64)
    return ismcts.select(tree, value, n_nodes, 0, state, legal, len(legal), 0.7, prior_k, bias, rng)


def test_the_prior_choice_is_expanded_first():
    """Progressive bias: among untried decisions the prior bot's is expanded, not a random one."""
    tree, value = _tree_with_children([], 0)
    legal = np.arange(6, dtype=np.int32)
    for prior_k in (0, 3, 5):
        k, child, n_nodes = _select(tree.copy(), value.copy(), 1, legal, prior_k, 1.0)
        assert (k, child, n_nodes) == (prior_k, 1, 2)


def test_the_bias_fades_with_visits():
    """Equal statistics: the biased decision wins; a better mean beats a bias worn down by
    visits, but not a fresh one."""
    legal = np.arange(3, dtype=np.int32)
    tree, value = _tree_with_children([0.5, 0.5, 0.5], 10)
    assert _select(tree, value, 4, legal, 2, 1.0)[0] == 2
    assert _select(tree, value, 4, legal, -1, 1.0)[0] == 0  # no prior: the first best
    tree, value = _tree_with_children([0.5, 0.7, 0.5], 100)
    assert _select(tree, value, 4, legal, 2, 1.0)[0] == 1  # 1/101 < 0.2
    tree, value = _tree_with_children([0.5, 0.7, 0.5], 2)
    assert _select(tree, value, 4, legal, 2, 1.0)[0] == 2  # 1/3 > 0.2


@pytest.fixture(scope="module")
def fruit_search():
    """A decision of ``ismcts`` called directly on a Fruit Picking state (the play loop's own
    step, determinizer, finalize and rollout bots), for the no-leak test."""
    from cardsim.games.fruit_picking import cards as C
    from cardsim.games.fruit_picking import engine

    spec = _spec("fruit-picking", 1, params={"ismcts": {"iterations": "60"}})
    loop = specialize.loop_for(spec)
    rules = spec.rules_vector()
    params = np.ascontiguousarray(params_matrix(list(spec.bots))[0])
    buffers = ismcts.search_buffers((C.STATE_LEN, C.MAX_LEGAL, 16, 32))

    def decide(state, legal, n, seed, opponents=ismcts.OPPONENTS_TREE):
        rng = np.array([seed], np.uint64)
        obs = state[: C.PUBLIC_END]
        these = params.copy()
        these[ismcts.P_OPPONENTS] = opponents
        return loop.search(rules, obs, legal, n, these, rng, *buffers)

    decide.tree = buffers[0]  # the last decision's tree
    return decide, rules, engine, C


def _tree_seats(tree) -> set[int]:
    """The deciding seats of every node below the root (following child and sibling links)."""
    seats, todo = set(), [int(tree[0, ismcts.T_CHILD])]
    while todo:
        node = todo.pop()
        if node < 0:
            continue
        seats.add(int(tree[node, ismcts.T_SEAT]))
        todo += [int(tree[node, ismcts.T_CHILD]), int(tree[node, ismcts.T_SIBLING])]
    return seats


@pytest.mark.parametrize("opponents", ismcts.OPPONENTS)
def test_the_opponent_model_decides_whose_decisions_are_in_the_tree(fruit_search, opponents):
    """``opponents=tree``: both seats' decisions are nodes (SO-ISMCTS); ``rollout``: only the
    searching seat's, the other seat plays its rollout bot."""
    decide, rules, engine, C = fruit_search
    setup, legal_of, _, _, _ = engine.KERNELS
    state = np.zeros(C.STATE_LEN, np.int32)
    state[L.H_CAP_TURNS] = 50 * 2
    setup(state, rules, 2, np.array([stream_start(1, 0, CHANCE_STREAM)], np.uint64))
    legal = np.zeros(C.MAX_LEGAL, np.int32)
    n = legal_of(state, legal)
    decide(state, legal, n, 7, opponents=ismcts.OPPONENTS.index(opponents))
    me = int(state[L.H_SEAT])
    assert _tree_seats(decide.tree) == ({0, 1} if opponents == "tree" else {me})


def test_no_leak_of_the_hidden_stack_into_the_decision(fruit_search):
    """fruit-picking.md A17: permuting the stack (hidden) leaves every decision the same."""
    decide, rules, engine, C = fruit_search
    setup, legal_of, apply, _, _ = engine.KERNELS
    state = np.zeros(C.STATE_LEN, np.int32)
    state[L.H_CAP_TURNS] = 50 * 2  # as the play loop does (kernel.py)
    setup(state, rules, 2, np.array([stream_start(1, 0, CHANCE_STREAM)], np.uint64))
    legal = np.zeros(C.MAX_LEGAL, np.int32)
    chance = np.array([5], np.uint64)
    for step in range(12):
        n = legal_of(state, legal)
        if n > 1:
            other = state.copy()
            left = int(state[C.F_STACK_LEFT])
            other[C.F_STACK : C.F_STACK + left] = state[C.F_STACK : C.F_STACK + left][::-1]
            assert decide(state, legal, n, 100 + step) == decide(other, legal, n, 100 + step)
        apply(state, rules, int(legal[step % n]), chance)


def test_ismcts_beats_random_at_fruit_picking():
    """A small sample, both seatings on the same deals: the search wins clearly more than half."""
    spec = runner.make_spec(
        "fruit-picking",
        12,
        players=2,
        bots=["ismcts", "random"],
        seed=11,
        bot_params={"ismcts": {"iterations": "40"}},
        seat_bot_table=np.array([[0, 1], [1, 0]], np.int16),
    )
    game_out, seat_out = _outcomes(spec, 4)
    wins = sum(int(seat_out[g, g % 2, 2]) for g in range(12))  # ismcts: seat g % 2
    assert wins >= 9


def test_a_second_process_loads_the_compiled_search():
    """The loop seating ismcts is cached on disk with its search: another process loads it
    (numba's cache says "data loaded" for run_block) and compiles nothing of it."""
    import subprocess
    import sys

    spec = _spec("fruit-picking", 1)
    specialize.loop_for(spec)  # built (or loaded) here first
    code = (
        "from cardsim.core import runner\n"
        "spec = runner.make_spec('fruit-picking', 1, players=2, bots=['ismcts', 'random'], "
        "seed=3, bot_params={'ismcts': {'iterations': '12'}})\n"
        "list(runner.iter_chunks(spec))\n"
    )
    env = {**os.environ, "NUMBA_DEBUG_CACHE": "1"}
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    lines = [ln for ln in done.stdout.splitlines() if "run_block" in ln]
    assert any("data loaded" in ln for ln in lines), done.stdout[-2000:]
    assert not any("saved" in ln for ln in lines)


# -- a search run killed during a long game ------------------------------------------------------
# (here, not in test_game_pool.py: the Piña Pirata loop it runs is the one this file's tests have
# compiled, so that its command lines load it from the cache instead of compiling it again)

# Piña Pirata's game 9 of seed 34 takes 2,917 decisions against a median of about 100, and a
# search game's time grows faster than its length (each rollout plays to the end): 20 to 40 of
# the other games' time
LONG_RUN = ["run", "pina-pirata", "-n", "24", "-p", "2", "-b", "ismcts,random", "-s", "34"]
LONG_RUN += ["--bot-param", "ismcts.iterations=12", "--chunk-size", "4"]
LONG_GAME = 9


def saved_ranges(path: Path) -> list[tuple[int, int]]:
    """The ``[first, stop)`` game ranges of the parts on disk, in order (from their names)."""
    names = os.listdir(path) if path.is_dir() else []
    return sorted(tuple(map(int, m.groups())) for n in names if (m := io.PART_PATTERN.match(n)))


def saved_past_a_gap(path: Path) -> bool:
    """Whether a part on disk holds games after some game not yet saved."""
    at = 0
    for first, stop in saved_ranges(path):
        if first > at:
            return True
        at = stop
    return False


def test_a_kill_during_a_long_game_keeps_the_chunks_played_past_it_and_resume_fills_the_gap(
    tmp_path,
):
    code, out, err = finish(start(*LONG_RUN, "--out", str(tmp_path / "whole")), timeout=300)
    assert code == 0, err
    assert "Saved 24 games" in out  # each chunk saved early counted once, not again in its turn
    expected = io.read_results(tmp_path / "whole", compact=False)[0]
    decisions = expected.set_index("game")["decisions"]
    assert decisions[LONG_GAME] > 10 * decisions.median()  # the long game is still long
    path = tmp_path / "r"
    proc = start(*LONG_RUN, "--out", str(path), "-q")
    deadline = time.monotonic() + 120
    while not saved_past_a_gap(path):  # the other thread saved a chunk past the long game
        assert proc.poll() is None or saved_past_a_gap(path), "no chunk saved out of order"
        assert time.monotonic() < deadline, "no progress"
        time.sleep(0.002)
    proc.kill()  # SIGKILL: nothing of the run's own code runs after it
    proc.wait()
    saved = saved_ranges(path)
    assert not any(first <= LONG_GAME < stop for first, stop in saved), saved  # still playing
    assert saved[-1][0] > LONG_GAME  # but a chunk after it is kept
    code, _, err = finish(start(*LONG_RUN, "--out", str(path), "--resume", "-q"), timeout=300)
    assert code == 0, err
    df, meta = io.read_results(path, compact=False)
    assert meta["complete"] and df["game"].is_unique
    pd.testing.assert_frame_equal(df, expected)
