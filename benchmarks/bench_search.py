"""Speed of the search bot ``ismcts`` per game, as figures and ratios taken in one run.

    python benchmarks/bench_search.py [--game NAME] [--players N] [--iterations 1000]
                                      [--decisions 20] [--games 4] [--no-compile] [--pool-only]

Per game (every ruleset with a determinizer unless ``--game``):

- iterations per second and engine turns per second inside the search, from ``--decisions``
  decisions of the search called on positions of seeded random games (the root's turn count,
  ``ismcts.T_ACTION`` of row 0, says how many engine turns the iterations played);
- the engine's own playing speed (turns per second of the same game with random bots, the rollout
  policy) and the share of the search's time that the engine's turns account for at that speed
  (the rest is determinizing, the tree and the bots);
- seconds per decision and per game at ``--iterations`` (ismcts in every seat, ``--games`` games);
- games per second on 1 (the games one at a time) and on 2 threads (the same games, played as
  ``cardsim run`` plays them, with nothing saved and saving a dataset) and their ratios; the
  longest game's share of the total, the best ratio any schedule of these games on 2 threads
  could reach (a game is one thread's from start to end: a run lasts at least its longest game)
  and what a run that takes the games in order reaches (each free thread the next game); beside
  it, on the same games (not with ``--pool-only``), 2 threads in chunks of 4 games, and 2
  threads chunk by chunk (each chunk's threads waiting for its last game:
  ``specialize.run_chunk``, how search runs played before ``game_pool``) in the run's own
  chunks;
- the cold compile of a loop seating ismcts (an empty cache, in a child process) and the warm start
  of a second process (which must load it, not compile).
"""

from __future__ import annotations

import argparse
import heapq
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numba
import numpy as np
from numba import njit

from cardsim.core import ismcts, kernel, play, registry, runner, specialize
from cardsim.core import layout as L
from cardsim.core.bots import params_matrix
from cardsim.core.dataset import DatasetSink
from cardsim.core.outcomes import game_column_names, seat_column_names
from cardsim.core.rng import CHANCE_STREAM, stream_start
from cardsim.core.search_replay import SearchDecider

SMALL_CHUNK = 4


def positions(spec, count: int, seed: int = 1):
    """(state, legal, n) at ``count`` real choices of seeded random games of ``spec``'s game."""
    deal, step, _, _ = spec.ruleset.kernels()
    rules = spec.rules_vector()
    out = []
    game = 0
    rnd = np.random.default_rng(seed)
    while len(out) < count:
        state = np.zeros(spec.ruleset.state_len, np.int32)
        state[L.H_CAP_TURNS] = spec.turn_cap() * spec.n_players
        legal = np.zeros(spec.ruleset.legal_len, np.int32)
        chance = np.array([stream_start(seed, game, CHANCE_STREAM)], np.uint64)
        n = deal(state, rules, spec.n_players, chance, legal)
        while state[L.H_OVER] == 0 and len(out) < count:
            if n > 1 and rnd.random() < 0.1:
                out.append((state.copy(), legal.copy(), n))
            n = step(state, rules, legal[int(rnd.integers(max(n, 1)))], chance, legal)
        game += 1
    return out


def search_speed(spec, count: int) -> dict:
    """Iterations and engine turns per second inside the search (module docstring)."""
    decider = SearchDecider(spec)
    params = np.ascontiguousarray(params_matrix(list(spec.bots))[0])
    spots = positions(spec, count)
    obs_len = spec.ruleset.obs_len
    decider(spots[0][0][:obs_len], spots[0][1], spots[0][2], params, np.zeros(1, np.uint64))
    turns = 0
    start = time.perf_counter()
    for i, (state, legal, n) in enumerate(spots):
        decider(state[:obs_len], legal, n, params, np.array([i], np.uint64))
        turns += int(decider.buffers[0][0, ismcts.T_ACTION])
    seconds = time.perf_counter() - start
    iterations = count * params[ismcts.P_ITERATIONS]
    return {"iterations/s": iterations / seconds, "turns/s": turns / seconds, "s": seconds}


@njit
def _determinize_many(determinize, view, rules, rng, state, times):
    for _ in range(times):
        determinize(view, rules, rng, state)


def determinize_seconds(spec, count: int = 20, times: int = 2000) -> float:
    """Seconds one determinization takes, averaged over positions of seeded random games."""
    determinize = spec.ruleset.determinize()
    rules = spec.rules_vector()
    state = np.zeros(spec.ruleset.state_len, np.int32)
    rng = np.ones(1, np.uint64)
    spots = positions(spec, count, seed=2)
    obs_len = spec.ruleset.obs_len
    _determinize_many(determinize, spots[0][0][:obs_len], rules, rng, state, 1)
    start = time.perf_counter()
    for real, _, _ in spots:
        _determinize_many(determinize, real[:obs_len], rules, rng, state, times)
    return (time.perf_counter() - start) / (count * times)


def engine_speed(game: str, players: int, games: int = 20000) -> float:
    """Turns per second of the game with random bots on one thread (the rollout policy)."""
    spec = runner.make_spec(game, games, players=players, bots=["random"], seed=5)
    list(runner.iter_chunks(runner.make_spec(game, 100, players=players, bots=["random"])))
    before = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        start = time.perf_counter()
        turns = sum(int(c.game_out[:, L.G_TURNS].sum()) for c in runner.iter_chunks(spec))
        return turns / (time.perf_counter() - start)
    finally:
        numba.set_num_threads(before)


def game_speed(
    game: str,
    players: int,
    iterations: int,
    games: int,
    threads: int,
    chunk: int | None = None,
    save: bool = False,
) -> tuple[float, float]:
    """Seconds per game and per decision of ismcts in every seat on ``threads`` threads, played as
    ``cardsim run`` plays them (``runner.run``; ``chunk`` games a chunk, default the run's own);
    ``save``: into a dataset, as with ``--out`` (each chunk saved as soon as it is played whole)."""
    spec = _search_spec(game, players, iterations, games)
    before = numba.get_num_threads()
    with tempfile.TemporaryDirectory() as tmp:
        sinks = [DatasetSink(Path(tmp) / "run", spec)] if save else []
        try:
            stats = runner.run(spec, sinks, threads, chunk)
        finally:
            numba.set_num_threads(before)
        for sink in sinks:
            sink.close()
    return stats.seconds / games, stats.seconds / max(stats.decisions, 1)


def _search_spec(game: str, players: int, iterations: int, games: int):
    """The benchmark's run: ismcts in every seat, ``games`` games of seed 9."""
    params = {"ismcts": {"iterations": str(iterations)}}
    return runner.make_spec(
        game, games, players=players, bots=["ismcts"], seed=9, bot_params=params
    )


def _play_alone(spec, threads: int):
    """A function playing games ``first .. first + n - 1`` of ``spec`` on their own with
    ``specialize.run_chunk``: its threads wait for the last of them before it returns."""
    loop = specialize.loop_for(spec)
    bot_code = specialize.loop_slots(spec)[2]
    matrix = params_matrix(list(spec.bots))
    rules = spec.rules_vector()
    game_cols = len(game_column_names(spec.ruleset))
    seat_cols = len(seat_column_names(spec.ruleset))

    def play_games(first: int, n: int) -> int:
        game_out = np.zeros((n, game_cols), np.int32)
        specialize.run_chunk(
            loop, threads, spec.seat_bot_table, bot_code, matrix, rules, spec.n_players,
            spec.turn_cap(), spec.seed, spec.first_game + first, game_out,
            np.zeros((n, spec.n_players, seat_cols), np.int32),
            np.zeros((threads, len(kernel.FAULT_COLUMNS)), np.int64),
        )  # fmt: skip
        return int(game_out[:, L.G_DECISIONS].sum())

    return play_games


def chunk_by_chunk_speed(game: str, players: int, iterations: int, games: int, threads: int):
    """Seconds per game as ``game_speed``, with each chunk (the run's own size) played on its own
    by ``specialize.run_chunk``: its threads wait for its last game before the next starts."""
    spec = _search_spec(game, players, iterations, games)
    play_games = _play_alone(spec, threads)
    chunk = play.default_chunk(spec, threads)
    start = time.perf_counter()
    for first in range(0, games, chunk):
        play_games(first, min(chunk, games - first))
    return (time.perf_counter() - start) / games


def game_seconds(game: str, players: int, iterations: int, games: int) -> tuple:
    """(each game's seconds, decisions of all games) on one thread, the games played one at a
    time (the same games as ``game_speed``)."""
    play_games = _play_alone(_search_spec(game, players, iterations, games), 1)
    seconds = np.zeros(games)
    decisions = 0
    for i in range(games):
        start = time.perf_counter()
        decisions += play_games(i, 1)
        seconds[i] = time.perf_counter() - start
    return seconds, decisions


def two_thread_bound(seconds: np.ndarray) -> float:
    """The best speed-up any schedule of these games on 2 threads can reach: a game is played by
    one thread from start to end, so the run lasts at least its longest game, and at least half
    of the games' total."""
    return float(seconds.sum() / max(seconds.sum() / 2, seconds.max()))


def in_order_bound(seconds: np.ndarray, threads: int = 2) -> float:
    """The speed-up of ``threads`` threads that each take the next game in order when free, as a
    run must (a game's length is known only once it is played), from the one-thread timings:
    what a run of these games reaches without knowing their lengths beforehand."""
    free = [0.0] * threads  # when each thread is next free
    for game in seconds:
        heapq.heapreplace(free, free[0] + game)
    return float(seconds.sum() / max(free))


def cold_compile(game: str, players: int) -> tuple[float, float]:
    """Wall seconds of a first run seating ismcts from an empty cache, and of a second process."""
    command = [
        sys.executable,
        "-m",
        "cardsim.cli.main",
        "run",
        game,
        "--players",
        str(players),
        "--games",
        "1",
        "--bots",
        "ismcts",
        "--bot-param",
        "ismcts.iterations=5",
    ]
    with tempfile.TemporaryDirectory() as root:
        env = {**os.environ, "CARDSIM_CACHE_DIR": root}
        env.pop("NUMBA_CACHE_DIR", None)
        times = []
        for _ in range(2):
            start = time.perf_counter()
            subprocess.run(command, env=env, check=True, capture_output=True)
            times.append(time.perf_counter() - start)
    return times[0], times[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--iterations", type=int, default=None)
    parser.add_argument("--decisions", type=int, default=20)
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--no-compile", action="store_true")
    parser.add_argument(
        "--pool-only", action="store_true", help="skip the chunked runs and the cold compile"
    )
    args = parser.parse_args()
    games = args.game or [g for g in registry.available() if registry.get(g).determinize]
    print(
        f"# bench_search {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
        f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
    )
    for game in games:
        ruleset = registry.get(game)
        players = max(ruleset.min_players, min(args.players, ruleset.max_players))
        iterations = args.iterations or ismcts.ITERATIONS.get(game, ismcts.DEFAULT_ITERATIONS)
        params = {"ismcts": {"iterations": str(iterations)}}
        spec = runner.make_spec(
            game, 1, players=players, bots=["ismcts"], seed=1, bot_params=params
        )
        inside = search_speed(spec, args.decisions)
        own = engine_speed(game, players)
        share = inside["turns/s"] / own
        print(f"{game} {players}p, {iterations} iterations a decision:")
        print(
            f"  search: {inside['iterations/s']:,.0f} iterations/s, "
            f"{inside['turns/s']:,.0f} engine turns/s inside the search (1 thread)"
        )
        print(
            f"  engine alone (random bots, 1 thread): {own:,.0f} turns/s; the "
            f"search's turns at that speed take {share:.0%} of its time"
        )
        per_iteration = 1.0 / inside["iterations/s"]
        det = determinize_seconds(spec)
        print(
            f"  a determinization: {det * 1e6:.2f} us, {det / per_iteration:.0%} of an "
            f"iteration ({per_iteration * 1e6:.1f} us)"
        )
        seconds, decisions = game_seconds(game, players, iterations, args.games)
        one_game = seconds.mean()
        two_game, _ = game_speed(game, players, iterations, args.games, 2)
        saving, _ = game_speed(game, players, iterations, args.games, 2, save=True)
        bound = two_thread_bound(seconds)
        print(
            f"  ismcts in every seat: {seconds.sum() / decisions:.3f} s a decision, "
            f"{one_game:.1f} s a game on 1 thread; on 2, {two_game:.1f} s a game: "
            f"{one_game / two_game:.2f}x, and saving a dataset (--out) {saving:.1f} s: "
            f"{one_game / saving:.2f}x"
        )
        print(
            f"  the longest game: {seconds.max():.1f} s on 1 thread, {seconds.max() / seconds.sum():.1%}"
            f" of the {args.games} games' total; no schedule on 2 threads beats "
            f"{bound:.2f}x (the run: {one_game / two_game / bound:.0%} of that, saving "
            f"{one_game / saving / bound:.0%}); taking the games in order, as a run must, about "
            f"{in_order_bound(seconds):.2f}x"
        )
        if args.pool_only:
            continue
        # the same games in small chunks (the pool carries on across their ends), then chunk by
        # chunk as before the pool: the tail of each chunk is what the pool takes away
        small, _ = game_speed(game, players, iterations, args.games, 2, SMALL_CHUNK)
        by_chunk = chunk_by_chunk_speed(game, players, iterations, args.games, 2)
        print(
            f"  2 threads in chunks of {SMALL_CHUNK} games: {one_game / small:.2f}x; chunk by "
            f"chunk (threads waiting at each chunk's end): {one_game / by_chunk:.2f}x"
        )
        if not args.no_compile:
            cold, warm = cold_compile(game, players)
            print(
                f"  a first run seating ismcts from an empty cache: {cold:.0f} s; "
                f"a second process: {warm:.1f} s"
            )


if __name__ == "__main__":
    main()
