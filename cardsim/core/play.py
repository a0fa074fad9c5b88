"""Playing a run on this machine: the run's games in chunks on all cores (``iter_chunks``), each
chunk's compiled call interruptible by Ctrl-C, and the run's timing figures (``RunStats``).

Results depend only on (ruleset, rules, bots, seed, game indices): each game draws from its own
counter-based streams, so thread count and chunk size change the speed, never the outcome. A
Dask worker plays its tasks with the same ``iter_chunks`` (``cluster.py``).
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import numba
import numpy as np

from cardsim.core import cache, kernel, specialize
from cardsim.core.bots import (
    bot_origin,
    params_matrix,
)
from cardsim.core.errors import CardsimError
from cardsim.core.game_pool import GamePool
from cardsim.core.interrupts import CtrlC
from cardsim.core.outcomes import Chunk, game_column_names, seat_column_names
from cardsim.core.spec import RunSpec

DEFAULT_CHUNK = 1 << 16
# a run seating a search bot (a tenth of a second to seconds a game) goes in chunks this many
# games a thread, so that its progress and its saved parts move every few games. Its threads no
# longer wait at a chunk's end (``game_pool``: 4 games a chunk on 2 threads had lost a fifth of
# the second thread, benchmarks/bench_search.py), so the size sets how often a chunk is saved,
# not the speed. The chunk size never changes a result.
SEARCH_GAMES_PER_THREAD = 8


def default_chunk(spec, threads: int | None = None) -> int:
    """Games per chunk of ``spec`` when the caller names none (``threads``: those that will play
    it, default numba's current setting)."""
    if not any(bot.search for bot in spec.bots):
        return DEFAULT_CHUNK
    return SEARCH_GAMES_PER_THREAD * (threads or numba.get_num_threads())


def available_threads() -> int:
    return numba.config.NUMBA_NUM_THREADS


def set_threads(threads: int | None) -> int:
    """Use ``threads`` worker threads (default: all cores) and return the number in use."""
    limit = available_threads()
    if threads is None:
        threads = limit
    if not 1 <= threads <= limit:
        raise CardsimError(
            f"--threads must be between 1 and {limit} on this machine, got {threads}"
        )
    numba.set_num_threads(threads)
    return threads


@dataclass
class RunStats:
    games: int
    decisions: int
    seconds: float
    threads: int
    workers: int = 0  # distinct cluster workers that played (0: this process)
    restarts: int = 0  # times one of them was restarted by its nanny during the run

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else float("inf")


_KERNEL_LOCK = threading.Lock()  # one chunk at a time: numba's thread pools are not reentrant


def call_interruptibly(fn: Callable, *args, notify: Callable[[str], None] | None = None):
    """``(fn(*args), interrupted)``: run ``fn`` (compiled, releasing the GIL) in a worker thread
    while the main thread keeps handling signals.

    A first Ctrl-C lets the call finish (its games are worth keeping) and reports it as
    ``interrupted``; if the call is still running a second later, ``notify`` says so. A second
    Ctrl-C raises ``StopNow`` at once, leaving the worker to finish in the background (a bot that
    loops forever must not make the process deaf to Ctrl-C). Off the main thread, ``fn`` is just
    called.
    """
    if threading.current_thread() is not threading.main_thread():
        with _KERNEL_LOCK:
            return fn(*args), False
    return _Call(fn, args).wait(notify)


class _Call:
    """``fn(*args)`` started at once in a worker thread (one at a time: ``_KERNEL_LOCK``), its
    result fetched later by ``wait`` (``call_interruptibly``), so that the main thread can do
    something else meanwhile (``iter_chunks`` with ``prefetch``)."""

    def __init__(self, fn: Callable, args: tuple) -> None:
        self.box: dict = {}
        # an Event, not Thread.join: after a Ctrl-C inside join, is_alive() was seen to say False
        # while the thread still ran (Python 3.11)
        self.done = threading.Event()

        def work() -> None:
            with _KERNEL_LOCK:
                try:
                    self.box["value"] = fn(*args)
                except BaseException as exc:  # handed to the main thread as it is
                    self.box["error"] = exc
                finally:
                    self.done.set()

        threading.Thread(target=work, name="cardsim-chunk", daemon=True).start()

    def wait(self, notify: Callable[[str], None] | None = None):
        """``(value, interrupted)``, as ``call_interruptibly`` says."""
        ctrl_c = CtrlC()
        while not self.done.is_set():
            try:
                self.done.wait(0.1)
                # inside the try: a second Ctrl-C that lands while the note is printed stops at
                # once like any other (CI saw it end the run as a plain interruption)
                ctrl_c.tick(notify)
            except KeyboardInterrupt:
                ctrl_c.heard()
        if "error" in self.box:
            raise self.box["error"]
        return self.box["value"], ctrl_c.interrupted


def iter_chunks(
    spec: RunSpec,
    chunk_size: int | None = None,
    start: int = 0,
    stats: RunStats | None = None,
    ranges: Sequence[tuple[int, int]] | None = None,
    notify: Callable[[str], None] | None = None,
    prefetch: bool = False,
    early: Callable[[Chunk], None] | None = None,
) -> Iterable[Chunk]:
    """Play the run's games from game ``first_game + start`` on, one chunk at a time (or the
    games of ``ranges``, ``[first, stop)`` pairs of game indices, e.g. the gaps of a resumed run).

    A Ctrl-C while a chunk is played lets it finish: the chunk is yielded (so it is saved) and
    ``KeyboardInterrupt`` is raised when the next one is asked for (see ``call_interruptibly``).

    ``prefetch``: the next chunk starts playing before a chunk is yielded, so that what the
    caller does with it (the sinks) runs while the cores play on instead of leaving them idle.
    The chunks are the same and come in the same order; a caller that stops early leaves the
    chunk in flight to finish in the background (``runner.run`` prefetches only when it
    cannot stop early). Only on the main thread (elsewhere each chunk is just called).

    ``early(chunk)``: a search run's later chunks, each as soon as it is played whole, while
    the run waits for a long game of the chunk due (``game_pool``); every chunk is still
    yielded in order. Only for a caller that can save chunks out of order (or keeps nothing
    across a kill) and will not stop early; other runs never call it.

    A bot's fault (an answer outside the legal decisions, an exception in a guarded bot) raises
    a one-line ``CardsimError`` naming the bot, the seat and the game; the chunks before it were
    already yielded.
    """
    ruleset = spec.ruleset
    loop = specialize.loop_for(spec)
    cache.mark_used()  # this source tree's compiled code is in use (old directories are pruned)
    cache.auto_prune()
    bot_code = specialize.loop_slots(spec)[2]  # which of the loop's functions each bot is
    params = params_matrix(list(spec.bots))
    rules = spec.rules_vector()
    n_game_cols = len(game_column_names(ruleset))
    n_seat_cols = len(seat_column_names(ruleset))
    n_threads = numba.get_num_threads()  # numba's setting is per calling thread: pass it on
    chunk_size = chunk_size or default_chunk(spec, n_threads)
    if chunk_size < 1:
        raise CardsimError(f"chunk size must be positive, got {chunk_size}")
    table = spec.seat_bot_table
    if ranges is None:
        ranges = [(spec.first_game + start, spec.first_game + spec.n_games)]
    prefetch = prefetch and threading.current_thread() is threading.main_thread()

    def starts() -> Iterable[tuple[int, int]]:
        for lo, hi in ranges:
            for first in range(lo, hi, chunk_size):
                yield first, min(chunk_size, hi - first)

    def outputs(first: int, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """A chunk's game rows, seat rows and a fault row per thread."""
        return (
            np.zeros((n, n_game_cols), np.int32),
            np.zeros((n, spec.n_players, n_seat_cols), np.int32),
            np.zeros((n_threads, len(kernel.FAULT_COLUMNS)), np.int64),
        )

    def launch(first: int, n: int):
        game_out, seat_out, faults = outputs(first, n)
        args = (
            loop,
            n_threads,
            table,
            bot_code,
            params,
            rules,
            spec.n_players,
            spec.turn_cap(),
            spec.seed,
            first,
            game_out,
            seat_out,
            faults,
        )
        call = _Call(specialize.run_chunk, args) if prefetch else None
        return first, n, game_out, seat_out, faults, args, call

    def seat_bots(first: int, n: int) -> np.ndarray:
        if len(table) == 1:  # one seating (a plain run): its row repeated, ~1 ms less a chunk
            return np.repeat(table, n, axis=0)
        return table[np.arange(first, first + n) % len(table)]

    if specialize.searches(loop):
        # seconds a game: threads that carry on across the chunks' ends (``game_pool``)
        common = (table, bot_code, params, rules, spec.n_players, spec.turn_cap(), spec.seed)

        def buffers(game_cols: int, seat_cols: int) -> tuple:
            return specialize.thread_buffers(loop, params, game_cols, seat_cols)

        def save_early(done) -> None:
            early(Chunk(done.first, done.game_out, done.seat_out, seat_bots(done.first, done.n)))

        pool = GamePool(loop.run_block, n_threads, common, buffers, starts(), outputs)
        for done, interrupted in pool.chunks(notify, save_early if early is not None else None):
            if done.faulted:
                raise CardsimError(_fault_message(spec, loop, bot_code, params, rules, done.faults))
            if stats is not None:
                stats.decisions += done.decisions
                stats.games += done.n
            yield Chunk(done.first, done.game_out, done.seat_out, seat_bots(done.first, done.n))
            if interrupted:
                raise KeyboardInterrupt
        return

    plan = iter(starts())
    following = next(plan, None)
    current = launch(*following) if following is not None else None
    while current is not None:
        first, n, game_out, seat_out, faults, args, call = current
        if call is not None:
            decisions, interrupted = call.wait(notify)
        else:
            decisions, interrupted = call_interruptibly(specialize.run_chunk, *args, notify=notify)
        if faults[:, 0].any():
            raise CardsimError(_fault_message(spec, loop, bot_code, params, rules, faults))
        following = next(plan, None)
        current = None
        if following is not None and prefetch and not interrupted:
            current = launch(*following)  # plays while the caller takes this chunk
        seat_bot = seat_bots(first, n)
        if stats is not None:
            stats.decisions += int(decisions)
            stats.games += n
        yield Chunk(first, game_out, seat_out, seat_bot)
        if interrupted:
            raise KeyboardInterrupt
        if current is None and following is not None:
            current = launch(*following)


def _fault_message(spec: RunSpec, loop, bot_code, params, rules, faults: np.ndarray) -> str:
    """One line about the chunk's first bot fault (each thread stops at its first one, so the
    smallest game among them is the first of the chunk, whatever the thread count)."""
    rows = faults[faults[:, 0] != kernel.FAULT_NONE]
    kind, bot, seat, game, value, n_legal = (int(v) for v in rows[np.argmin(rows[:, 3])])
    name = spec.bots[bot].name
    if kind == kernel.FAULT_BAD_ANSWER:
        return (
            f"bot {name!r} (seat {seat}) answered {value} in game {game}: "
            f"not an index of its {n_legal} legal decisions (0..{n_legal - 1})"
        )
    if kind == kernel.FAULT_NO_ANSWER:
        return (
            f"bot {name!r} (seat {seat}, {bot_origin(spec.bots[bot].fn)}) answered None in game "
            f"{game}: a bot answers an integer, the index of its choice in legal[:n_legal]"
        )
    row = spec.seat_bot_table[game % len(spec.seat_bot_table)]
    game_row = np.zeros(len(game_column_names(spec.ruleset)), np.int32)
    seat_rows = np.zeros((spec.n_players, len(seat_column_names(spec.ruleset))), np.int32)
    try:  # the same game again, outside the parallel loop, where the exception can come out
        loop.replay_raising(
            row,
            bot_code,
            params,
            rules,
            spec.n_players,
            spec.turn_cap(),
            spec.seed,
            game,
            game_row,
            seat_rows,
        )
    except Exception as exc:
        text = " ".join(str(exc).split()) or "no message"
        return f"bot {name!r} (seat {seat}) raised {type(exc).__name__} in game {game}: {text}"
    return f"bot {name!r} (seat {seat}) raised an exception in game {game}"


def warm(spec: RunSpec, notify: Callable[[str], None] | None = None) -> None:
    """Play the run's first game once, unrecorded, so that whatever is left to compile or load
    (the play loop with these bots) is done before a run's clock and progress bar start.
    ``notify`` as for ``run`` (a bot that never answers already hangs here)."""
    for _ in iter_chunks(dataclasses.replace(spec, n_games=1), notify=notify):
        pass
