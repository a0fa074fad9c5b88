"""The batch runner: validates a run, plays it in chunks on all cores, and feeds each chunk to
sinks (summary counts, Parquet file, DataFrame) so memory stays bounded however many games.

Results depend only on (ruleset, rules, bots, seed, game indices): each game draws from its own
counter-based streams, so thread count and chunk size change the speed, never the outcome.
"""

from __future__ import annotations

import dataclasses
import math
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numba
import numpy as np

from cardsim import __version__
from cardsim.core import cache, kernel, registry, specialize
from cardsim.core.bots import (
    Bot,
    check_compiled,
    load_bot_file,
    load_bot_reference,
    params_matrix,
    with_params,
)
from cardsim.core.errors import CardsimError, StopNow  # noqa: F401  (runner.StopNow)
from cardsim.core.options import resolve_options
from cardsim.core.outcomes import Chunk, game_column_names, seat_column_names

DEFAULT_CHUNK = 1 << 16
# a run seating a search bot (a second or more a game) goes in chunks this small, so that its
# progress shows game by game (the chunk size never changes a result)
SEARCH_CHUNK = 4


def default_chunk(spec) -> int:
    """Games per chunk of ``spec`` when the caller names none."""
    return SEARCH_CHUNK if any(bot.search for bot in spec.bots) else DEFAULT_CHUNK


MAX_GAMES = 10**10


@dataclass(frozen=True)
class RunSpec:
    """A fully checked run: which games, which seats, which rules."""

    ruleset: registry.Ruleset
    n_games: int
    n_players: int
    bots: tuple[Bot, ...]  # distinct bots, indexed by seat_bot_table
    seat_bot_table: np.ndarray = field(
        repr=False
    )  # int16 (rows, n_players); game i uses row i % rows
    rules: dict = field(default_factory=dict)  # resolved rule option values
    seed: int = 0
    first_game: int = 0
    variant: dict | None = None  # Variant.metadata() of a --variant file, shown by reports
    # per bot: True unless it is one of the ruleset's built-in bots (kernel.py, the bot boundary)
    guarded: tuple[bool, ...] | None = None

    @property
    def bot_names(self) -> list[str]:
        return [b.name for b in self.bots]

    def seat_bots(self) -> list[str]:
        """Bot name per seat for the first row of the seating table."""
        return [self.bots[i].name for i in self.seat_bot_table[0]]

    def metadata(self) -> dict:
        """Everything needed to reproduce the run, stored with its outputs."""
        return {
            "ruleset": self.ruleset.name,
            "rules": {k: list(v) if isinstance(v, tuple) else v for k, v in self.rules.items()},
            "n_players": self.n_players,
            "bots": self.bot_names,
            "bot_params": {b.name: list(b.params) for b in self.bots},
            "bot_param_names": {b.name: list(b.param_names) for b in self.bots if b.param_names},
            "seating": self.seat_bot_table.tolist(),
            "seed": self.seed,
            "first_game": self.first_game,
            "games": self.n_games,
            "version": __version__,
            **({"variant": self.variant} if self.variant is not None else {}),
        }

    def guard_flags(self) -> tuple[bool, ...]:
        """Which bots play behind the guarded boundary: every bot but the ruleset's own."""
        if self.guarded is not None:
            return tuple(self.guarded)
        builtins = self.ruleset.bots()
        return tuple(not (b.name in builtins and builtins[b.name].fn is b.fn) for b in self.bots)

    def rules_vector(self) -> np.ndarray:
        return self.ruleset.encode_rules(self.rules, self.n_players)

    def turn_cap(self) -> int:
        return int(self.rules[self.ruleset.turn_cap_option])


def parse_count(text: str | int | float, what: str = "--games") -> int:
    """``"1e6"`` / ``"1000000"`` / ``"1_000_000"`` -> 1000000; positive whole numbers only."""
    try:
        value = float(str(text).replace("_", ""))
    except ValueError:
        raise CardsimError(f"{what} must be a positive whole number, got {text!r}") from None
    if not math.isfinite(value) or value < 1 or value != int(value) or value > MAX_GAMES:
        raise CardsimError(f"{what} must be a positive whole number up to 1e10, got {text!r}")
    return int(value)


def parse_index(text: str | int, what: str = "--game") -> int:
    """``"12345"`` / ``"1e6"`` / ``"1_000"`` -> a game index, 0 up to (not including) 1e10."""
    try:
        value = float(str(text).replace("_", ""))
    except ValueError:
        raise CardsimError(f"{what} must be a game index (0, 1, 2, ...), got {text!r}") from None
    if not math.isfinite(value) or value < 0 or value != int(value) or value >= MAX_GAMES:
        raise CardsimError(
            f"{what} must be a game index from 0 to {MAX_GAMES - 1:,} (1e10 - 1), got {text!r}"
        )
    return int(value)


def resolve_bots(
    ruleset,
    names: Sequence[str],
    n_players: int,
    bot_files: Iterable[str] = (),
    bot_params: Mapping[str, Mapping[str, Any]] | None = None,
) -> list[Bot]:
    """Bot per seat from names: built-ins, then bots of ``bot_files``, then ``module:function``.

    One name fills every seat; otherwise exactly one name per seat. ``bot_params`` changes
    parameters by bot name (``bots.with_params``).
    """
    builtins = ruleset.bots()
    user: dict[str, Bot] = {}
    for path in bot_files:
        user.update(load_bot_file(path))
    names = [n.strip() for n in names if n.strip()] or list(ruleset.default_bots)
    if len(names) == 1:
        names = names * n_players
    if len(names) != n_players:
        raise CardsimError(f"--bots names {len(names)} bots for {n_players} players")
    out = []
    for name in names:
        if name in builtins:
            bot = builtins[name]
        elif name in user or name.replace("-", "_") in user:
            bot = user.get(name) or user[name.replace("-", "_")]
        elif ":" in name:
            bot = load_bot_reference(name)
        else:
            known = ", ".join(sorted(builtins) + sorted(user))
            raise CardsimError(f"unknown bot {name!r} for {ruleset.name} (known: {known})")
        out.append(bot)
    return with_params(out, bot_params) if bot_params else out


def check_players(ruleset, players: int | None) -> int:
    """The player count of a run (the ruleset's usual one when ``None``), checked."""
    n_players = ruleset.default_players if players is None else int(players)
    if not ruleset.min_players <= n_players <= ruleset.max_players:
        raise CardsimError(
            f"{ruleset.name} is for {ruleset.min_players}-{ruleset.max_players} players, "
            f"not {n_players}"
        )
    return n_players


def check_seating(seat_bot_table: np.ndarray, n_players: int, n_bots: int) -> None:
    """The play loop reads a game's bots from ``seat_bot_table`` without bounds checks: a row of
    another width than the player count, or a bot number past the run's bots, would read memory
    that is not the run's. One line instead."""
    if seat_bot_table.ndim != 2 or seat_bot_table.shape[1] != n_players:
        raise CardsimError(
            f"a {n_players}-player run needs a bot for each of its {n_players} seats, "
            f"got a seating table of shape {seat_bot_table.shape}"
        )
    if seat_bot_table.size and not (0 <= seat_bot_table.min() and seat_bot_table.max() < n_bots):
        raise CardsimError(f"a seating names a bot outside the run's {n_bots} bots")


def make_spec(
    game: str,
    games,
    players: int | None = None,
    bots: Sequence[str] = (),
    rules: dict | None = None,
    seed: int = 0,
    bot_files: Iterable[str] = (),
    seat_bot_table: np.ndarray | None = None,
    first_game: int = 0,
    seat_bots: Sequence[Bot] | None = None,
    bot_params: Mapping[str, Mapping[str, Any]] | None = None,
) -> RunSpec:
    """Check every input of a run and return its ``RunSpec`` (one-line errors on bad input)."""
    ruleset = registry.get(game)
    n_games = parse_count(games)
    n_players = check_players(ruleset, players)
    if not 0 <= int(seed) < 2**63:
        raise CardsimError(f"--seed must be a whole number in 0..2**63-1, got {seed}")
    values = resolve_options(ruleset.options, rules or {}, ruleset.name)
    ruleset.check_rules(values, n_players)
    per_seat = (
        list(seat_bots)
        if seat_bots is not None
        else resolve_bots(ruleset, bots, n_players, bot_files, bot_params)
    )
    distinct: list[Bot] = []
    for bot in per_seat:
        if bot.name not in [d.name for d in distinct]:
            distinct.append(bot)
    if len(distinct) > kernel.MAX_BOTS:
        raise CardsimError(f"a run seats at most {kernel.MAX_BOTS} different bots")
    if seat_bot_table is None:
        seat_bot_table = np.array(
            [[[d.name for d in distinct].index(b.name) for b in per_seat]], np.int16
        )
    check_seating(seat_bot_table, n_players, len(distinct))
    compiled = tuple(dataclasses.replace(b, fn=check_compiled(b.fn, b.name)) for b in distinct)
    spec = RunSpec(
        ruleset,
        n_games,
        n_players,
        compiled,
        np.ascontiguousarray(seat_bot_table, np.int16),
        values,
        int(seed),
        int(first_game),
    )
    specialize.check_bots(spec)
    return spec


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
    workers: int = 0  # cluster workers that played (0: this process)

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else float("inf")


_KERNEL_LOCK = threading.Lock()  # one chunk at a time: numba's thread pools are not reentrant
NOTE_AFTER_SECONDS = 1.0


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
        done = self.done
        interrupted_at = None
        noted = False
        while not done.is_set():
            try:
                done.wait(0.1)
            except KeyboardInterrupt:
                if interrupted_at is not None:
                    raise StopNow from None
                interrupted_at = time.monotonic()
            if (
                interrupted_at is not None
                and not noted
                and notify is not None
                and time.monotonic() - interrupted_at > NOTE_AFTER_SECONDS
            ):
                noted = True
                notify(
                    "interrupted: saving the games in flight first (Ctrl-C again to stop at once)"
                )
        if "error" in self.box:
            raise self.box["error"]
        return self.box["value"], interrupted_at is not None


def iter_chunks(
    spec: RunSpec,
    chunk_size: int | None = None,
    start: int = 0,
    stats: RunStats | None = None,
    ranges: Sequence[tuple[int, int]] | None = None,
    notify: Callable[[str], None] | None = None,
    prefetch: bool = False,
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
    chunk_size = chunk_size or default_chunk(spec)
    if chunk_size < 1:
        raise CardsimError(f"chunk size must be positive, got {chunk_size}")
    table = spec.seat_bot_table
    n_threads = numba.get_num_threads()  # numba's setting is per calling thread: pass it on
    if ranges is None:
        ranges = [(spec.first_game + start, spec.first_game + spec.n_games)]
    prefetch = prefetch and threading.current_thread() is threading.main_thread()

    def starts() -> Iterable[tuple[int, int]]:
        for lo, hi in ranges:
            for first in range(lo, hi, chunk_size):
                yield first, min(chunk_size, hi - first)

    def launch(first: int, n: int):
        game_out = np.zeros((n, n_game_cols), np.int32)
        seat_out = np.zeros((n, spec.n_players, n_seat_cols), np.int32)
        faults = np.zeros((n_threads, len(kernel.FAULT_COLUMNS)), np.int64)
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
        if len(table) == 1:  # one seating (a plain run): its row repeated, ~1 ms less a chunk
            seat_bot = np.repeat(table, n, axis=0)
        else:
            seat_bot = table[np.arange(first, first + n) % len(table)]
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


def run(
    spec: RunSpec,
    sinks: Sequence[Callable[[Chunk], None]] = (),
    threads: int | None = None,
    chunk_size: int | None = None,
    progress: Callable[[int], None] | None = None,
    start: int = 0,
    until: Callable[[], bool] | None = None,
    ranges: Sequence[tuple[int, int]] | None = None,
    notify: Callable[[str], None] | None = None,
    cluster=None,
    task_size: int | None = None,
) -> RunStats:
    """Play the whole run, handing every chunk to each sink; returns timing figures.

    ``progress(n)`` is called with the number of games of each finished chunk. On an interrupt,
    every chunk already handed to the sinks stays with them. ``until()``, asked after each chunk,
    stops the run early when true (the games played are then those of a shorter run).
    ``ranges`` plays only those ``[first, stop)`` game ranges (a resume's gaps); ``notify``
    receives the note shown while a Ctrl-C waits for the chunk in flight.

    ``cluster``: a ``distributed.Client`` (or a ``--cluster`` text: ``local:N`` or a scheduler
    address) plays the run on a Dask cluster in tasks of ``task_size`` games instead
    (``cardsim.core.cluster``): the same games, the same rows, in the same order to the sinks;
    sinks with ``fresh()``/``merge()`` are filled on the workers and merged, so no game row
    travels unless another sink needs it.
    """
    if cluster is not None:
        from cardsim.core import cluster as dask_cluster

        with dask_cluster.session(cluster) as client:
            return dask_cluster.run(
                spec, client, sinks, chunk_size, task_size, progress, start, until, ranges
            )
    used = set_threads(threads)
    stats = RunStats(0, 0, 0.0, used)
    t0 = time.perf_counter()
    try:
        # the sinks take a chunk while the next one plays, unless ``until`` may stop the run
        chunks = iter_chunks(spec, chunk_size, start, stats, ranges, notify, until is None)
        for chunk in chunks:
            for sink in sinks:
                sink(chunk)
            if progress is not None:
                progress(len(chunk))
            if until is not None and until():
                break
    finally:
        stats.seconds = time.perf_counter() - t0
    return stats
