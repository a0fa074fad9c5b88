"""The search runs' game pool (cardsim/core/game_pool.py): threads that carry on across the chunks'
ends and still hand the chunks back whole and in order; every game once, whatever the threads and
chunks; at most one unsaved chunk opened ahead of the caller, so that a caller saving only in
order holds the threads at a long game and one that saves chunks early lets them play past it
(within a bound on the chunks held); a bot's fault or an error stops it; a caller that leaves
stops its threads; and a search run interrupted with Ctrl-C, or killed during a long game, keeps
its saved games and resumes to the rows of a whole run.

The pool's unit tests play a stand-in for a play loop's ``run_block``: each game sleeps a set
time and writes its own index, and every game's start is logged."""

import shutil
import signal
import threading
import time

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from cardsim.cli import run as run_command
from cardsim.cli.main import cli
from cardsim.core import dataset as io
from cardsim.core import game_pool, runner
from cardsim.core.game_pool import AHEAD, GamePool
from tests.test_faults import finish, parts_on_disk, start, stopped

FAULT_ROW = 6


class StandIn:
    """A play loop's ``run_block``: game ``g`` sleeps ``seconds(g)``, writes ``g`` and 2 * g, and
    faults (returns -1, its game in the fault row) when ``g`` is in ``faults``."""

    def __init__(self, seconds=lambda g: 0.001, faults=(), raises=()):
        self.seconds = seconds
        self.faults = set(faults)
        self.raises = set(raises)
        self.started: dict[int, float] = {}
        self.lock = threading.Lock()

    def __call__(self, first, lo, hi, game_out, seat_out, fault_row, buffer):
        assert buffer == "buffers"
        for row in range(lo, hi):
            game = first + row
            with self.lock:
                assert game not in self.started, f"game {game} played twice"
                self.started[game] = time.monotonic()
            if game in self.raises:
                raise ValueError(f"game {game} raised")
            if game in self.faults:
                fault_row[:] = [1, 0, 0, game, 0, 0]
                return -1
            time.sleep(self.seconds(game))
            game_out[row, 0] = game
            seat_out[row, :, 0] = 2 * game
        return hi - lo


def outputs(first: int, n: int, threads: int = 2):
    return np.zeros((n, 1), np.int32), np.zeros((n, 2, 1), np.int32), np.zeros((threads, 6))


def plan(games: int, chunk: int, first: int = 0):
    return ((g, min(chunk, first + games - g)) for g in range(first, first + games, chunk))


def pool_of(stand_in: StandIn, games: int, chunk: int, threads: int = 2, first: int = 0):
    return GamePool(
        stand_in,
        threads,
        (),
        lambda game_cols, seat_cols: ("buffers",),
        plan(games, chunk, first),
        lambda f, n: outputs(f, n, threads),
    )


def pool_threads() -> int:
    return sum(t.name == "cardsim-pool" and t.is_alive() for t in threading.enumerate())


@pytest.mark.parametrize("threads", [1, 2, 3])
@pytest.mark.parametrize("chunk", [1, 3, 8])
def test_every_game_once_and_the_chunks_whole_and_in_order(threads, chunk):
    stand_in = StandIn(seconds=lambda g: 0.002 * (g % 3))
    pool = pool_of(stand_in, 20, chunk, threads, first=100)
    got = [c for c, interrupted in pool.chunks() if not interrupted]
    assert [c.first for c in got] == list(range(100, 120, chunk))
    games = np.concatenate([c.game_out[:, 0] for c in got])
    assert list(games) == list(range(100, 120))  # every game once, in its own row
    assert all((c.seat_out[:, :, 0] == 2 * c.game_out).all() for c in got)
    assert [c.decisions for c in got] == [c.n for c in got]
    assert sorted(stand_in.started) == list(range(100, 120))


def test_threads_carry_on_across_a_chunks_end_but_no_further_than_the_window():
    # chunk 0's last game is long: the other thread plays chunk 1 meanwhile (chunk by chunk it
    # would wait), but not chunk 2 until the caller is done with chunk 0
    assert AHEAD == 1
    stand_in = StandIn(seconds=lambda g: 0.4 if g == 3 else 0.005)
    pool = pool_of(stand_in, 16, 4)
    handed, back = [], []
    for chunk, _ in pool.chunks():
        handed.append(time.monotonic())
        if chunk.first == 0:
            time.sleep(0.2)  # the caller saves chunk 0
        back.append(time.monotonic())
    started = stand_in.started
    assert all(started[g] < handed[0] for g in range(4, 8))  # chunk 1 played beside game 3
    assert all(started[g] > back[0] for g in range(8, 16))  # chunk 2 waited for the caller


def test_with_an_early_saver_the_threads_play_past_a_long_game_and_save_each_chunk_whole():
    # game 3 waits until every later chunk is saved: without ``early`` (or with the window
    # counting saved chunks) the other thread would stop after chunk 1 and game 3 time out
    every_later_chunk_saved = threading.Event()
    saved = {}

    def game_seconds(game: int) -> float:
        if game == 3:
            assert every_later_chunk_saved.wait(10), f"only chunks {sorted(saved)} were saved"
        return 0.002

    def early(chunk) -> None:
        saved[chunk.first] = list(chunk.game_out[:, 0])  # whole when saved
        if len(saved) == 9:
            every_later_chunk_saved.set()

    pool = pool_of(StandIn(seconds=game_seconds), 40, 4)
    got = [(c.first, list(c.game_out[:, 0])) for c, _ in pool.chunks(early=early)]
    assert got == [(first, list(range(first, first + 4))) for first in range(0, 40, 4)]
    assert saved == dict(got[1:])  # every chunk but the long game's, each once


def test_chunks_saved_early_are_held_in_memory_no_further_than_the_bound(monkeypatch):
    monkeypatch.setattr(game_pool, "HELD_GAMES", 12)  # chunks 0 to 2 (4 games each)
    chunk_2_saved = threading.Event()

    def game_seconds(game: int) -> float:
        if game == 3:
            assert chunk_2_saved.wait(10)
            return 0.2  # time enough for the other thread to open chunk 3, were it allowed
        return 0.002

    def early(chunk) -> None:
        if chunk.first == 8:
            chunk_2_saved.set()

    stand_in = StandIn(seconds=game_seconds)
    handed = [
        time.monotonic() for _ in game_pool.GamePool.chunks(pool_of(stand_in, 40, 4), None, early)
    ]
    assert max(g for g, at in stand_in.started.items() if at < handed[0]) < 12


def test_a_fault_stops_the_pool_after_the_faulted_chunk():
    stand_in = StandIn(seconds=lambda g: 0.02, faults={6})
    pool = pool_of(stand_in, 40, 4)
    got = list(pool.chunks())
    assert [c.first for c, _ in got] == [0, 4]
    first, faulted = got[0][0], got[1][0]
    assert not first.faulted and list(first.game_out[:, 0]) == [0, 1, 2, 3]
    assert faulted.faulted and (faulted.faults[:, 3] == 6).any()
    assert max(stand_in.started) <= 7  # no thread took a game of a later chunk
    time.sleep(0.1)
    assert pool_threads() == 0


def test_an_error_in_a_thread_reaches_the_caller():
    pool = pool_of(StandIn(raises={5}), 40, 4)
    with pytest.raises(ValueError, match="game 5 raised"):
        list(pool.chunks())


def test_a_caller_that_leaves_stops_the_threads():
    stand_in = StandIn(seconds=lambda g: 0.01)
    pool = pool_of(stand_in, 1000, 4)
    for _ in pool.chunks():
        break  # closes the iterator
    deadline = time.monotonic() + 5
    while pool_threads() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert pool_threads() == 0
    assert max(stand_in.started) < 4 + 4 * (1 + AHEAD)  # at most the chunks opened by then


def test_a_search_run_takes_chunks_early_unless_it_may_stop_early(monkeypatch):
    # with --until-ci a chunk past the stopping point must not be saved; otherwise the chunks
    # are taken early, saved by a dataset or, with none, just let the threads play on
    taken_early = []
    chunks = GamePool.chunks

    def spy(self, notify=None, early=None):
        taken_early.append(early is not None)
        return chunks(self, notify, early)

    monkeypatch.setattr(GamePool, "chunks", spy)
    spec = runner.make_spec(
        "fruit-picking", 4, players=2, bots=["ismcts", "greedy"], seed=5,
        bot_params={"ismcts": {"iterations": "40"}},
    )  # fmt: skip
    runner.run(spec, [])
    runner.run(spec, [], until=lambda: False)
    assert taken_early == [True, False]


# -- a search run interrupted ---------------------------------------------------------------------

SEARCH_GAMES = 48
SEARCH_CHUNK = 4
SEARCH_RUN = ["run", "fruit-picking", "-n", str(SEARCH_GAMES), "-p", "2", "-b", "ismcts,greedy"]
SEARCH_RUN += ["--bot-param", "ismcts.iterations=40", "-s", "5", "--chunk-size", str(SEARCH_CHUNK)]


def test_ctrl_c_in_a_search_run_keeps_whole_chunks_and_resumes_to_the_same_rows(tmp_path):
    whole = tmp_path / "whole"
    result = CliRunner().invoke(cli, [*SEARCH_RUN, "--out", str(whole), "-q"])
    assert result.exit_code == 0, result.output
    expected = io.read_results(whole, compact=False)[0]
    path = tmp_path / "r"
    for _ in range(3):  # a run too near its end when signalled is started again
        proc = start(*SEARCH_RUN, "--out", str(path), "-q")
        deadline = time.monotonic() + 120
        while parts_on_disk(path) < 2 and proc.poll() is None:
            assert time.monotonic() < deadline, "no progress"
            time.sleep(0.002)
        proc.send_signal(signal.SIGSTOP)
        # the Ctrl-C lets the chunk being saved and the one waited for end: with fewer than 3
        # chunks left (a slow test machine polls late) that is the whole run, exit 0 (seen in CI)
        mid_run = stopped(proc) and parts_on_disk(path) <= SEARCH_GAMES // SEARCH_CHUNK - 3
        if mid_run:
            proc.send_signal(signal.SIGINT)
        proc.send_signal(signal.SIGCONT)
        code, _, err = finish(proc)
        if mid_run:
            break
        shutil.rmtree(path, ignore_errors=True)
    assert mid_run, "every run finished before it could be interrupted"
    assert code == run_command.EXIT_INTERRUPTED and "--resume" in err, err
    saved = io.read_metadata(path)["games_done"]
    assert saved % SEARCH_CHUNK == 0 and 2 * SEARCH_CHUNK <= saved < SEARCH_GAMES
    code, _, err = finish(start(*SEARCH_RUN, "--out", str(path), "--resume", "-q"))
    assert code == 0, err
    df, meta = io.read_results(path, compact=False)
    assert meta["complete"] and df["game"].is_unique
    pd.testing.assert_frame_equal(df, expected)
