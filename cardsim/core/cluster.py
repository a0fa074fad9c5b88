"""Runs on a Dask cluster: one run split into tasks of contiguous game ranges.

A game depends only on (seed, game index) (``cardsim.core.rng``), so a run shards perfectly: task
``[first, stop)`` plays exactly the games a local run plays there, with the same kernel
(``play.iter_chunks`` on that range), and the result does not depend on how many workers there
are, how big the tasks are, or which worker plays which task.

What travels:

- to a worker, a ``SpecRecipe``: plain data (ruleset name, rules, seating, seed, and where each
  bot comes from: a built-in name, a bot file's path, or ``package.module:function``). A worker
  rebuilds the ``RunSpec`` once per run and keeps it (``_spec_of``), so it compiles (loads from
  numba's on-disk cache) once, not once per task;
- back to the client, per task, a fresh copy of every *mergeable* sink (one with ``fresh()`` and
  ``merge(other)``, such as ``SummaryAccumulator``) fed with the task's chunks: a few arrays, not
  game rows. Only sinks that need the rows (a ``FrameSink``, a Parquet file written by the client)
  make the task send its chunks back as well.

The client merges results in game order (so ordered sinks and ``until`` see what a local run
would) and shows progress per finished task. A task whose worker dies is run again by the
scheduler on another worker (Dask's own fault tolerance): its range is played again from its
seeds, so the result is the same.

``--cluster ADDRESS`` connects to a running scheduler (``tcp://host:8786``); ``--cluster local:N``
starts a ``LocalCluster`` of N worker processes on this machine for the time of the command.
Dask is an optional extra (``pip install 'cardsim[dask]'``): it is imported only here and only when
a cluster is asked for.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import logging
import os
import re
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from cardsim.core.errors import CardsimError

LOCAL_PREFIX = "local:"
MAX_LOCAL_WORKERS = 256
CONNECT_TIMEOUT = "10s"
TASKS_PER_WORKER = 8  # default task size: enough tasks to balance the load and show progress
MAX_TASK_GAMES = 1 << 21  # and no task longer than ~20 s of one core, so a lost task costs little
IN_FLIGHT_PER_WORKER = 4  # tasks submitted ahead of the oldest unmerged one: bounds the buffer


# -- the cluster option ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ClusterAddress:
    """What ``--cluster`` names: ``local_workers`` processes on this machine, or a scheduler."""

    text: str
    local_workers: int | None = None  # local:N
    scheduler: str | None = None  # tcp://host:port


def parse_cluster(text: str) -> ClusterAddress:
    """``"local:4"`` or a scheduler address (``tcp://10.0.0.5:8786``, ``10.0.0.5:8786``)."""
    text = str(text).strip()
    if text.lower().startswith(LOCAL_PREFIX):
        count = text[len(LOCAL_PREFIX) :]
        if not count.isdigit() or not 1 <= int(count) <= MAX_LOCAL_WORKERS:
            raise CardsimError(
                f"--cluster local:N needs N worker processes, 1 to {MAX_LOCAL_WORKERS}, got {text!r}"
            )
        return ClusterAddress(text, local_workers=int(count))
    address = text if "://" in text else f"tcp://{text}"
    if not re.fullmatch(r"[a-z]+://[^\s/]+:\d+", address):
        raise CardsimError(
            "--cluster must be local:N or a Dask scheduler address with its port "
            f"(tcp://host:8786), got {text!r}"
        )
    return ClusterAddress(text, scheduler=address)


def require_dask() -> None:
    """One-line error now, rather than after a run is set up, if Dask is missing."""
    _distributed()


def _distributed():
    try:
        import distributed
    except ImportError:
        raise CardsimError(
            "--cluster needs Dask: pip install 'cardsim[dask]' (dask[distributed])"
        ) from None
    return distributed


@contextlib.contextmanager
def session(cluster: Any, log: Callable[[str], None] | None = None) -> Iterator[Any]:
    """A ``distributed.Client`` for ``cluster``: a ``--cluster`` text (connected here and closed
    on exit, a local cluster started and stopped), a ``ClusterAddress``, or a client already open
    (passed through, left open). Meanwhile Dask's own log records of this process go to ``log``
    as one line each, or nowhere (``None``: quiet means quiet; ``dask_logs_to``)."""
    if cluster is None:
        yield None
        return
    distributed = _distributed()
    with dask_logs_to(log):
        yield from _session(distributed, cluster)


def _session(distributed, cluster: Any) -> Iterator[Any]:
    if isinstance(cluster, distributed.Client):
        yield cluster
        return
    address = cluster if isinstance(cluster, ClusterAddress) else parse_cluster(cluster)
    if address.local_workers is not None:
        with _local_cluster(distributed, address.local_workers) as local:
            with distributed.Client(local) as client:
                yield client
        return
    try:
        client = distributed.Client(address.scheduler, timeout=CONNECT_TIMEOUT)
    except (OSError, TimeoutError, ValueError) as exc:
        raise CardsimError(
            f"cannot reach the Dask scheduler at {address.scheduler}: {exc}"
        ) from None
    with client:
        yield client


DASK_LOGGERS = ("distributed", "dask")


class _OneLine(logging.Handler):
    """Dask's records of WARNING and above as one line each (their first), to ``log``."""

    def __init__(self, log: Callable[[str], None] | None):
        super().__init__(logging.WARNING)
        self.log = log

    def emit(self, record: logging.LogRecord) -> None:
        if self.log is None:
            return
        with contextlib.suppress(Exception):  # a log line must never stop a run
            lines = record.getMessage().strip().splitlines() or [""]
            self.log(f"dask {record.levelname.lower()}: {lines[0]}")


@contextlib.contextmanager
def dask_logs_to(log: Callable[[str], None] | None) -> Iterator[None]:
    """Route the records of Dask's loggers (``DASK_LOGGERS``: the scheduler and nannies of a
    local cluster run in this process) through ``_OneLine`` instead of Dask's own handlers,
    which print multi-line "ERROR" records on stderr (a worker killed: "Couldn't gather keys"),
    even under ``--quiet``. Worker processes keep their logs to themselves
    (``_local_cluster``)."""
    handler = _OneLine(log)
    saved = []
    for name in DASK_LOGGERS:
        logger = logging.getLogger(name)
        saved.append((logger, logger.handlers[:], logger.propagate))
        logger.handlers = [handler]
        logger.propagate = False
    try:
        yield
    finally:
        for logger, handlers, propagate in saved:
            logger.handlers = handlers
            logger.propagate = propagate


@contextlib.contextmanager
def _local_cluster(distributed, workers: int):
    """N worker processes of one thread each (a task uses its share of the cores through
    numba's threads, see ``_numba_threads``); no dashboard, quiet logs.

    Without a dashboard the scheduler still serves HTTP (health checks) on 8787 by default, and
    warns "Port 8787 is already in use" when another cluster (a parallel test, another command)
    holds it: it listens on a free port instead (``:0``). Its worker processes log nothing below
    CRITICAL: what goes wrong there reaches this process as a task's error or a lost worker."""
    cluster = distributed.LocalCluster(
        n_workers=workers,
        threads_per_worker=1,
        processes=True,
        dashboard_address=None,
        worker_dashboard_address=None,
        scheduler_kwargs={"dashboard": False, "dashboard_address": ":0"},
        silence_logs=logging.CRITICAL,
    )
    try:
        yield cluster
    finally:
        cluster.close()


# -- what a worker needs to rebuild a run ---------------------------------------------------------


@dataclass(frozen=True)
class BotSource:
    """Where a worker finds a bot: ``kind`` is ``builtin`` (``ref`` = registry name), ``file``
    (``ref`` = path of the bot file, ``attr`` = function) or ``module`` (``ref`` =
    ``package.module:function``)."""

    name: str
    kind: str
    ref: str
    attr: str = ""
    params: tuple[float, ...] = ()
    description: str = ""
    param_names: tuple[str, ...] = ()


@dataclass(frozen=True)
class SpecRecipe:
    """A ``RunSpec`` as plain data (picklable, no compiled function)."""

    ruleset: str
    n_games: int
    n_players: int
    bots: tuple[BotSource, ...]
    seat_bot_table: list
    rules: dict
    seed: int
    first_game: int
    variant: dict | None = None
    key: str = field(default="", compare=False)  # identifies the run: the workers' cache key


def bot_source(ruleset, bot) -> BotSource:
    """How a worker finds ``bot`` (see ``BotSource``)."""
    extra = {"params": tuple(bot.params), "description": bot.description}
    extra["param_names"] = tuple(bot.param_names)
    fn = getattr(bot.fn, "py_func", bot.fn)
    builtin = ruleset.bots().get(bot.name)
    if builtin is not None and getattr(builtin.fn, "py_func", builtin.fn) is fn:
        return BotSource(bot.name, "builtin", bot.name, **extra)
    module = getattr(fn, "__module__", "") or ""
    if module.startswith("cardsim_user_bots_"):  # core.bots.load_bot_file's modules
        return BotSource(bot.name, "file", fn.__code__.co_filename, fn.__name__, **extra)
    return BotSource(bot.name, "module", f"{module}:{fn.__qualname__}", **extra)


def recipe(spec) -> SpecRecipe:
    """The plain-data form of ``spec`` that workers rebuild it from."""
    bots = tuple(bot_source(spec.ruleset, b) for b in spec.bots)
    key = json.dumps(
        [spec.metadata(), [dataclasses.astuple(b) for b in bots]], sort_keys=True, default=str
    )
    return SpecRecipe(
        spec.ruleset.name,
        spec.n_games,
        spec.n_players,
        bots,
        spec.seat_bot_table.tolist(),
        dict(spec.rules),
        spec.seed,
        spec.first_game,
        spec.variant,
        key,
    )


def _load_bot(source: BotSource, ruleset):
    from cardsim.core.bots import Bot, compile_bot, load_bot_file, load_bot_reference

    reads_observation = True
    if source.kind == "builtin":
        builtin = ruleset.bots()[source.ref]
        if builtin.search:  # compiled with its loop (core/ismcts.py), never on its own
            return dataclasses.replace(
                builtin,
                name=source.name,
                params=source.params,
                description=source.description,
                param_names=source.param_names,
            )
        fn = builtin.fn
        reads_observation = builtin.reads_observation
    elif source.kind == "file":
        if not os.path.isfile(source.ref):
            raise CardsimError(
                f"bot file {source.ref!r} is not on this worker: bot files must be at the same "
                "path on every machine of the cluster"
            )
        fn = load_bot_file(source.ref)[source.attr].fn
    else:
        fn = load_bot_reference(source.ref).fn
    return Bot(
        source.name,
        compile_bot(fn, source.name),
        source.params,
        source.description,
        source.param_names,
        reads_observation,
    )


def build_spec(r: SpecRecipe):
    """The ``RunSpec`` of a recipe (compiles its bots here)."""
    from cardsim.core import registry
    from cardsim.core.spec import RunSpec

    ruleset = registry.get(r.ruleset)
    bots = tuple(_load_bot(b, ruleset) for b in r.bots)
    table = np.ascontiguousarray(np.array(r.seat_bot_table, np.int16))
    return RunSpec(
        ruleset, r.n_games, r.n_players, bots, table, dict(r.rules), r.seed, r.first_game, r.variant
    )


_SPECS: dict[str, Any] = {}  # per worker process: recipe key -> RunSpec (compiled once)
_SPECS_KEPT = 16
_PLAY_LOCK = threading.Lock()  # one parallel kernel at a time per process, whatever its threads


def _spec_of(r: SpecRecipe):
    spec = _SPECS.get(r.key)
    if spec is None:
        spec = build_spec(r)
        if len(_SPECS) >= _SPECS_KEPT:
            _SPECS.pop(next(iter(_SPECS)))
        _SPECS[r.key] = spec
    return spec


# -- one task -------------------------------------------------------------------------------------


@dataclass
class TaskResult:
    """What a task sends back: its range, counts, its mergeable sink parts, and its chunks only
    when the client asked for rows."""

    first: int  # games [first, stop): the game indices of its first and after its last piece
    stop: int
    decisions: int
    seconds: float
    threads: int
    parts: list
    chunks: list | None = None
    worker: str = ""  # address of the worker that played it
    name: str = ""  # its name: a worker restarted by its nanny keeps the name, not the address

    @property
    def games(self) -> int:
        return self.stop - self.first


def _worker_address() -> str:
    return _worker_identity()[0]


def _worker_identity() -> tuple[str, str]:
    """(address, name) of the Dask worker running this task; empty outside one."""
    with contextlib.suppress(ImportError, ValueError):
        from distributed import get_worker

        worker = get_worker()
        return worker.address, str(worker.name)
    return "", ""


def _numba_threads(processes_per_host: dict[str, int]) -> int:
    """This worker's share of its machine's cores: cores over the worker processes on it."""
    import numba

    host = _worker_address().split("://")[-1].rsplit(":", 1)[0]
    share = numba.config.NUMBA_NUM_THREADS // max(1, processes_per_host.get(host, 1))
    return max(1, share)


def play_task(
    r: SpecRecipe,
    pieces: list[tuple[int, int]],
    parts: Sequence[Any],
    want_rows: bool,
    processes_per_host: dict[str, int],
) -> TaskResult:
    """Play the games of ``pieces`` (``[first, stop)`` game indices, each at most one chunk) on
    this worker, feeding each chunk to every part (fresh mergeable sinks, part writers)."""
    import numba

    from cardsim.core import play

    spec = _spec_of(r)
    chunks = [] if want_rows else None
    stats = play.RunStats(0, 0, 0.0, 0)
    longest = max(stop - first for first, stop in pieces)
    with _PLAY_LOCK:
        threads = _numba_threads(processes_per_host)
        numba.set_num_threads(threads)
        t0 = time.perf_counter()
        for chunk in play.iter_chunks(spec, longest, stats=stats, ranges=pieces):
            for part in parts:
                part(chunk)
            if chunks is not None:
                chunks.append(chunk)
        seconds = time.perf_counter() - t0
    first, stop = pieces[0][0], pieces[-1][1]
    address, name = _worker_identity()
    return TaskResult(
        first, stop, stats.decisions, seconds, threads, list(parts), chunks, address, name
    )


# -- the client side ------------------------------------------------------------------------------


def _cut(lo: int, hi: int, origin: int, size: int) -> list[tuple[int, int]]:
    """``[lo, hi)`` cut at ``origin + k * size``: pieces that never cross a grid line."""
    out = []
    while lo < hi:
        line = origin + ((lo - origin) // size + 1) * size
        out.append((lo, min(line, hi)))
        lo = min(line, hi)
    return out


def task_ranges(
    ranges: Sequence[tuple[int, int]], origin: int, task_size: int, chunk_size: int
) -> list[list[tuple[int, int]]]:
    """The tasks that play ``ranges`` (game indices): each a list of pieces of at most one chunk.

    Tasks and chunks sit on fixed grids from the run's first game ``origin`` (task lines every
    ``task_size`` games, chunk lines every ``chunk_size``), so whatever gaps a resume leaves,
    a part file written for a range is always the same range: a task played twice (a retried
    task, a resumed run) rewrites the same parts with the same bytes, never overlapping ones.
    """
    if task_size < 1:
        raise CardsimError(f"task size must be positive, got {task_size}")
    tasks = []
    for lo, hi in ranges:
        for a, b in _cut(lo, hi, origin, task_size):
            tasks.append(_cut(a, b, origin, chunk_size))
    return tasks


def default_task_size(games: int, workers: int, chunk_size: int) -> int:
    """About ``TASKS_PER_WORKER`` tasks per worker, whole chunks, at most ``MAX_TASK_GAMES``."""
    per_task = -(-games // max(1, workers * TASKS_PER_WORKER))
    chunks = max(1, -(-per_task // chunk_size))
    return max(1, min(chunks * chunk_size, max(MAX_TASK_GAMES, chunk_size)))


def _is_mergeable(sink) -> bool:
    return callable(getattr(sink, "fresh", None)) and callable(getattr(sink, "merge", None))


def _writes_on_workers(sink) -> bool:
    return callable(getattr(sink, "part_writer", None))


def _processes_per_host(client) -> tuple[dict[str, int], int]:
    workers = client.scheduler_info(n_workers=-1)["workers"]
    hosts = Counter(w["host"] for w in workers.values())
    return dict(hosts), len(workers)


def wait_for_workers(client, timeout: float = 60.0) -> int:
    """The number of workers, after waiting (up to ``timeout``) for at least one."""
    try:
        client.wait_for_workers(1, timeout=timeout)
    except (TimeoutError, OSError):
        raise CardsimError(
            f"the Dask scheduler has no worker after {timeout:.0f} s: start some with "
            "`dask worker SCHEDULER_ADDRESS`"
        ) from None
    return _processes_per_host(client)[1]


def run(
    spec,
    client,
    sinks: Sequence[Callable] = (),
    chunk_size: int | None = None,
    task_size: int | None = None,
    progress: Callable[[int], None] | None = None,
    start: int = 0,
    until: Callable[[], bool] | None = None,
    ranges: Sequence[tuple[int, int]] | None = None,
    stats=None,
):
    """Play ``spec``'s games from offset ``start`` (or the game ranges ``ranges``, a resume's
    gaps) on the cluster of ``client``.

    Three kinds of sinks: mergeable ones (``fresh()``/``merge()``, such as the summary) are filled
    on the workers and merged here; ones with ``part_writer()`` (a results dataset) have their
    parts written by the workers themselves, then ``parts_written(games)`` called here; any other
    sink gets every chunk here (the tasks then send their rows back). Everything is merged in
    game order. ``until()`` is asked after each task is merged and stops the run when true (the
    games merged are then those of a shorter run: tasks are one chunk each then, and a dataset's
    parts are written here, so that no part lies beyond the stop). Returns ``play.RunStats``
    (``workers``: distinct workers that played, by name: a worker restarted by its nanny keeps
    its name; ``restarts``: worker processes that died during the run, ``workers_lost``;
    ``threads``: numba threads summed over the workers).
    """
    from distributed import as_completed

    from cardsim.core import play

    chunk_size = chunk_size or play.default_chunk(spec)
    wait_for_workers(client)
    lost_before = workers_lost(client)
    hosts, n_workers = _processes_per_host(client)
    if ranges is None:
        ranges = [(spec.first_game + start, spec.first_game + spec.n_games)]
    ranges = [(lo, hi) for lo, hi in ranges if hi > lo]
    todo = sum(hi - lo for lo, hi in ranges)
    if until is not None:
        task_size = chunk_size
    task_size = task_size or default_task_size(todo, n_workers, chunk_size)
    mergeable = [s for s in sinks if _is_mergeable(s)]
    writers = [s for s in sinks if _writes_on_workers(s) and until is None]
    ordered = [s for s in sinks if not _is_mergeable(s) and s not in writers]
    part_writers = [w.part_writer() for w in writers]
    want_rows = bool(ordered)
    r = recipe(spec)  # a few hundred bytes: sent with every task, rebuilt once per worker
    stats = stats if stats is not None else play.RunStats(0, 0, 0.0, 0)
    tasks = task_ranges(ranges, spec.first_game, task_size, chunk_size)
    window = max(2, IN_FLIGHT_PER_WORKER * n_workers)
    results: dict[int, TaskResult] = {}
    threads_of: dict[str, int] = {}  # worker name -> numba threads it played with
    addresses: dict[str, set[str]] = {}  # worker name -> the addresses it played from
    futures = as_completed()
    submitted: dict[Any, int] = {}
    token = _token(r.key)

    def submit(i: int) -> None:
        pieces = tasks[i]
        fresh = [s.fresh() for s in mergeable] + part_writers
        key = f"cardsim-play-{token}-{pieces[0][0]}-{pieces[-1][1]}"
        fut = client.submit(play_task, r, pieces, fresh, want_rows, hosts, key=key, pure=False)
        submitted[fut] = i
        futures.add(fut)

    t0 = time.perf_counter()
    next_task = 0  # the first task not merged yet
    stopped = False
    try:
        for i in range(min(window, len(tasks))):
            submit(i)
        queued = min(window, len(tasks))
        for fut in futures:
            result: TaskResult = fut.result()
            results[submitted.pop(fut)] = result
            fut.release()
            name = result.name or result.worker
            threads_of[name] = result.threads
            addresses.setdefault(name, set()).add(result.worker)
            if progress is not None:
                progress(result.games)
            while next_task in results and not stopped:
                task = results.pop(next_task)
                _merge(task, mergeable, writers, ordered, stats)
                next_task += 1
                stopped = until is not None and until()
            if stopped:
                break
            if queued < len(tasks):
                submit(queued)
                queued += 1
    finally:
        stats.seconds = time.perf_counter() - t0
        unfinished = [f for f in submitted if not f.done()]
        if unfinished:
            client.cancel(unfinished)
    stats.threads = sum(threads_of.values())
    stats.workers = len(threads_of)
    moved = sum(len(seen) - 1 for seen in addresses.values())  # came back at a new address
    stats.restarts = max(moved, workers_lost(client) - lost_before)
    return stats


def workers_lost(client) -> int:
    """Workers the scheduler has removed without being asked to (their process died), from its
    event log ("remove-worker", not "expected"); 0 if it cannot tell."""
    try:
        events = client.get_events("all")
    except Exception:  # an older scheduler, a closed connection: no count
        return 0
    return sum(
        1
        for _, event in events
        if isinstance(event, dict)
        and event.get("action") == "remove-worker"
        and not event.get("expected")
    )


def _merge(task: TaskResult, mergeable, writers, ordered, stats) -> None:
    for sink, part in zip(mergeable, task.parts, strict=False):
        sink.merge(part)
    for sink in writers:
        sink.parts_written(task.games)
    for chunk in task.chunks or ():
        for sink in ordered:
            sink(chunk)
    stats.games += task.games
    stats.decisions += task.decisions


def _token(key: str) -> str:
    import hashlib

    return hashlib.sha1(key.encode()).hexdigest()[:16]
