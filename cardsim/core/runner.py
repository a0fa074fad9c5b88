"""The batch runner: validates a run, plays it in chunks on all cores, and feeds each chunk to
sinks (summary counts, Parquet file, DataFrame) so memory stays bounded however many games.

``run`` plays on this machine (``play.py``) or on a Dask cluster (``cluster.py``); both take the
``RunSpec`` of ``spec.py``. This module is the public face of running a simulation: the names of
``spec`` and ``play`` that callers use (``runner.make_spec``, ``runner.iter_chunks``, ...) are
imported here and listed in ``__all__``.

Results depend only on (ruleset, rules, bots, seed, game indices): each game draws from its own
counter-based streams, so thread count and chunk size change the speed, never the outcome.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from cardsim.core import cluster as dask_cluster
from cardsim.core.errors import StopNow
from cardsim.core.outcomes import Chunk
from cardsim.core.play import (
    DEFAULT_CHUNK,
    SEARCH_GAMES_PER_THREAD,
    RunStats,
    available_threads,
    call_interruptibly,
    default_chunk,
    iter_chunks,
    set_threads,
    warm,
)
from cardsim.core.spec import (
    MAX_GAMES,
    RunSpec,
    check_players,
    check_seating,
    make_spec,
    parse_count,
    parse_index,
    resolve_bots,
)

__all__ = [
    "DEFAULT_CHUNK",
    "MAX_GAMES",
    "SEARCH_GAMES_PER_THREAD",
    "RunSpec",
    "RunStats",
    "StopNow",
    "available_threads",
    "call_interruptibly",
    "check_players",
    "check_seating",
    "default_chunk",
    "iter_chunks",
    "make_spec",
    "parse_count",
    "parse_index",
    "resolve_bots",
    "run",
    "set_threads",
    "warm",
]


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
    cluster_log: Callable[[str], None] | None = None,
) -> RunStats:
    """Play the whole run, handing every chunk to each sink; returns timing figures.

    A sink with ``save_early(chunk)`` (``DatasetSink``) may get a search run's chunk that way
    before its turn, then, in its turn, the usual call (``game_pool``: one long game does not
    hold the other threads).

    ``progress(n)`` is called with the number of games of each finished chunk. On an interrupt,
    every chunk already handed to the sinks stays with them. ``until()``, asked after each chunk,
    stops the run early when true (the games played are then those of a shorter run).
    ``ranges`` plays only those ``[first, stop)`` game ranges (a resume's gaps); ``notify``
    receives the note shown while a Ctrl-C waits for the chunk in flight.

    ``cluster``: a ``distributed.Client`` (or a ``--cluster`` text: ``local:N`` or a scheduler
    address) plays the run on a Dask cluster in tasks of ``task_size`` games instead
    (``cardsim.core.cluster``): the same games, the same rows, in the same order to the sinks;
    sinks with ``fresh()``/``merge()`` are filled on the workers and merged, so no game row
    travels unless another sink needs it. Dask's own log records go to ``cluster_log``, one line
    each, or nowhere (``None``).
    """
    if cluster is not None:
        with dask_cluster.session(cluster, log=cluster_log) as client:
            return dask_cluster.run(
                spec, client, sinks, chunk_size, task_size, progress, start, until, ranges
            )
    used = set_threads(threads)
    stats = RunStats(0, 0, 0.0, used)
    # a search run's chunks played past a long game are taken early, unless ``until`` may stop
    # the run before them
    early = _EarlySaver(sinks, progress) if until is None else None
    t0 = time.perf_counter()
    try:
        # the sinks take a chunk while the next one plays, unless ``until`` may stop the run
        chunks = iter_chunks(
            spec, chunk_size, start, stats, ranges, notify, until is None,
            early.save if early is not None else None,
        )  # fmt: skip
        for chunk in chunks:
            for sink in sinks:
                sink(chunk)
            counted = early is not None and early.counted(chunk)
            if progress is not None and not counted:
                progress(len(chunk))
            if until is not None and until():
                break
    finally:
        stats.seconds = time.perf_counter() - t0
    return stats


class _EarlySaver:
    """Takes a search run's chunks played whole ahead of their turn (``game_pool``), so that one
    long game does not hold the other threads: the sinks that keep games across a kill
    (``save_early``: ``DatasetSink``) save them at once; with no such sink there is nothing a
    kill could keep, and the chunks just wait in memory for their turn. The progress counts
    them when they are played."""

    def __init__(self, sinks: Sequence, progress: Callable[[int], None] | None) -> None:
        self.savers = [sink.save_early for sink in sinks if hasattr(sink, "save_early")]
        self.progress = progress
        self.done: set[int] = set()  # the first game of each chunk taken early

    def save(self, chunk: Chunk) -> None:
        for save in self.savers:
            save(chunk)
        self.done.add(chunk.first_game)
        if self.progress is not None:
            self.progress(len(chunk))

    def counted(self, chunk: Chunk) -> bool:
        """Whether ``chunk``, now in its turn, was taken (and counted) early."""
        if chunk.first_game in self.done:
            self.done.discard(chunk.first_game)
            return True
        return False
