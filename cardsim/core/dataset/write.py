"""Writing a results dataset: every file atomically (temporary name, fsync, rename), the parts of
a run as its chunks arrive (``DatasetSink``, the runner's sink; ``PartWriter`` on cluster
workers), resuming a run into the dataset it started, and a whole frame at once
(``write_results``, for ``Results.save``).
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import signal
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from cardsim.core.dataset.format import (
    BATCH_ROWS,
    COMPRESSION,
    FORMAT,
    FORMAT_VERSION,
    METADATA_FILE,
    PART_KEY,
    RESUME_KEYS,
    TMP_SUFFIX,
    check_columns,
    check_metadata,
    dataset_metadata,
    json_ready,
    os_problem,
    part_name,
    quote,
    run_key,
    show,
)
from cardsim.core.dataset.read import (
    existing_results,
    gaps_between,
    is_dataset,
    list_parts,
    read_chunks,
    read_metadata,
)
from cardsim.core.errors import CardsimError
from cardsim.core.lock import DatasetLock, is_lock_file, writer_of
from cardsim.core.outcomes import Chunk, chunk_frame


def _fsync_dir(directory: Path) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _temp_name(target: Path) -> Path:
    return target.with_name(f".{target.name}.{os.getpid()}.{secrets.token_hex(4)}{TMP_SUFFIX}")


def _atomic_write(target: Path, write: Callable[[Path], None]) -> None:
    """``write(tmp)`` then fsync, rename to ``target`` and fsync the directory; the temporary
    file is removed if anything fails, so ``target`` is either absent, as before, or complete."""
    tmp = _temp_name(target)
    try:
        with _interrupts_deferred():  # a Ctrl-C must not leave a half-renamed file behind
            write(tmp)
            fd = os.open(tmp, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
            os.replace(tmp, target)
            _fsync_dir(target.parent)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


@contextlib.contextmanager
def _interrupts_deferred() -> Iterator[None]:
    """Hold a SIGINT that arrives inside the block until the block is done (main thread only)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[tuple] = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: caught.append((signum, frame)))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        if caught:
            if callable(previous):
                previous(*caught[0])
            elif previous != signal.SIG_IGN:
                raise KeyboardInterrupt


def write_metadata(path: str | Path, meta: dict) -> Path:
    """Write a dataset's ``_cardsim.json`` atomically; returns its path."""
    target = Path(path) / METADATA_FILE
    text = json.dumps(json_ready(meta), indent=1) + "\n"  # key order kept: rules as listed
    _atomic_write(target, lambda tmp: tmp.write_text(text))
    return target


def _part_table(frame: pd.DataFrame, first: int, stop: int, key: str) -> pa.Table:
    table = pa.Table.from_pandas(frame, preserve_index=False)
    info = json.dumps({"first": first, "stop": stop, "run": key}, sort_keys=True)
    return table.replace_schema_metadata({PART_KEY: info})


def write_part(path: str | Path, frame: pd.DataFrame, meta: dict) -> Path:
    """Write the games of ``frame`` (consecutive ``game`` values, the run's columns) as one part
    of the dataset ``path`` whose metadata is ``meta``; atomic; returns the part's path.

    Writing the same range again writes the same bytes under the same name (harmless)."""
    if len(frame) == 0:
        raise ValueError("a part holds at least one game")
    games = frame["game"].to_numpy()
    first, stop = int(games[0]), int(games[-1]) + 1
    if stop - first != len(frame) or not np.all(np.diff(games) == 1):
        raise ValueError("a part holds consecutive games in order")
    target = Path(path) / part_name(first, stop)
    table = _part_table(frame, first, stop, run_key(meta))
    _atomic_write(
        target,
        lambda tmp: pq.write_table(table, tmp, compression=COMPRESSION, row_group_size=len(frame)),
    )
    return target


def remove_temporary_files(path: str | Path) -> int:
    """Remove files left half-written by a killed writer (``.<name>.tmp``); how many."""
    removed = 0
    for entry in os.scandir(path):
        if entry.name.startswith(".") and entry.name.endswith(TMP_SUFFIX):
            with contextlib.suppress(OSError):
                os.unlink(entry.path)
                removed += 1
    return removed


def write_results(path: str | Path, games: pd.DataFrame, metadata: dict) -> Path:
    """Write a whole frame of games and its run metadata as a results dataset at ``path``.

    ``path`` must not exist yet (or be an empty directory). The frame is cut into parts of at
    most ``BATCH_ROWS`` games (it must hold consecutive games); the metadata is written first and
    marked complete last, so an interrupted save is an incomplete dataset, never a wrong one."""
    path = Path(path)
    meta = json_ready(dict(metadata))
    meta.pop("games_done", None)
    meta.setdefault("first_game", int(games["game"].iloc[0]) if len(games) else 0)
    meta["games"] = len(games)
    meta["format"] = FORMAT
    meta["format_version"] = FORMAT_VERSION
    meta["complete"] = False
    meta.pop("writer", None)  # read_metadata's note about a run in progress, not the run
    check_metadata(meta, f"results {quote(path)}")
    check_columns(list(games.columns), meta, f"results {quote(path)}")
    _check_new_dataset(path, "results")  # nothing created for a path that cannot hold it
    with DatasetLock(path).acquire(create=True):
        prepare_new_dataset(path, "results")
        write_metadata(path, meta)
        for start in range(0, len(games), BATCH_ROWS):
            write_part(path, games.iloc[start : start + BATCH_ROWS], meta)
        meta["complete"] = True
        write_metadata(path, meta)
    return path


def check_out(path: str | Path, spec, resume: bool) -> None:
    """Everything ``DatasetSink(path, spec, resume)`` would refuse, checked without writing
    anything (so that a command can check it before any work)."""
    path = Path(path)
    if resume and DatasetSink.resumable(path):
        meta = read_metadata(existing_results(path))
        DatasetSink.check_resumable(path, meta, spec)
    else:
        _check_new_dataset(path)


def _check_new_dataset(path: Path, what: str = "--out") -> None:
    """The checks of ``prepare_new_dataset``, without creating anything."""
    if str(path) in ("", "."):
        raise CardsimError(f"{what} needs a path for the results directory")
    for parent in path.parents:
        if parent.exists() and not parent.is_dir():
            raise CardsimError(f"{what} {quote(path)}: {quote(parent)} is a file, not a directory")
    if not path.parent.is_dir():
        raise CardsimError(f"{what} {quote(path)}: directory {quote(path.parent)} does not exist")
    if path.is_dir():
        if is_dataset(path):
            hint = "add --resume to continue that run, or " if what == "--out" else ""
            raise CardsimError(
                f"{what} {quote(path)} already holds a results dataset: {hint}choose another path"
            )
        if _holds_files(path):
            raise CardsimError(
                f"{what} {quote(path)} is a directory that is not empty and not a results dataset"
            )
        return
    if path.exists():
        kind = "a file" if path.is_file() else "not a directory"
        raise CardsimError(
            f"{what} {quote(path)} is {kind}: results are a directory (a Parquet dataset); "
            "choose another path"
        )


def _holds_files(path: Path) -> bool:
    """Whether the directory ``path`` holds anything besides a dataset lock (``lock.py``)."""
    return any(not is_lock_file(entry.name) for entry in os.scandir(path))


def lock_out(path: str | Path, spec, resume: bool) -> DatasetLock:
    """The lock of the dataset ``spec``'s run will write at ``path``, held, after the checks of
    ``check_out`` (made again under the lock: another writer may have changed it meanwhile).

    A path that cannot hold the dataset, or a dataset a resume cannot continue, is refused
    before anything is created (no lock file either); a dataset another writer holds is refused
    naming it. The directory of a new dataset is made
    to hold the lock, and removed again by ``release()`` if nothing was written."""
    path = Path(path)
    if not (path.is_dir() and writer_of(path) is not None):
        check_out(path, spec, resume)  # only checks: refused input gets no lock file
    lock = DatasetLock(path).acquire(create=True)  # a writer at work: refused naming it
    try:
        check_out(path, spec, resume)
    except BaseException:
        lock.release()
        raise
    return lock


def prepare_new_dataset(path: Path, what: str = "--out") -> None:
    """Create the directory of a new dataset (or accept an empty one); one-line errors for a path
    that cannot hold one."""
    _check_new_dataset(path, what)
    if path.is_dir():
        return
    try:
        path.mkdir()
    except OSError as exc:
        raise os_problem(f"{what}: cannot create", path, exc) from None
    probe = path / f".write-test{TMP_SUFFIX}"
    try:
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as exc:
        with contextlib.suppress(OSError):
            path.rmdir()
        raise os_problem(f"{what}: cannot write into", path, exc) from None


class DatasetSink:
    """Runner sink writing every chunk as one part of the dataset ``path``.

    A new run creates the directory and writes its metadata before any part. ``resume=True``
    continues the dataset at ``path`` if there is one (after checking it is the same run), hands
    its saved games to the ``feed`` sinks (e.g. the summary) and leaves ``missing`` (the ranges
    to play: ``runner.run(..., ranges=sink.missing)``); with nothing at ``path`` it starts
    afresh and says so in ``note``. Without ``resume``, an existing dataset is an error, never
    overwritten.

    The sink holds the dataset's lock (``lock.py``) from its creation to ``close()`` or
    ``abort()``: ``lock`` is one taken already (``lock_out``), else the sink takes it before it
    looks at ``path``; a dataset another process writes is refused in one line naming it.
    """

    def __init__(
        self,
        path: str | Path,
        spec,
        resume: bool = False,
        feed: Iterable[Callable[[Chunk], None]] = (),
        lock: DatasetLock | None = None,
    ):
        self.path = Path(path)
        self.spec = spec
        self.games = 0  # games on disk for this run
        self.saved_early: set[int] = set()  # the first game of each chunk saved before its turn
        self.note = ""  # a line for the user about what resume did
        self.missing: list[tuple[int, int]] = []
        self.lock = lock if lock is not None else lock_out(self.path, spec, resume)
        try:
            self._start(resume, feed)
        except BaseException:
            self.lock.release()
            raise

    def _start(self, resume: bool, feed: Iterable[Callable[[Chunk], None]]) -> None:
        if resume and self.resumable(self.path):
            self._resume(feed)
        else:
            if resume:
                self.note = f"nothing to resume at {quote(self.path)}: starting the run afresh"
            prepare_new_dataset(self.path)
            self._write_metadata(complete=False)
            lo = self.spec.first_game
            self.missing = [(lo, lo + self.spec.n_games)]

    # -- resuming --------------------------------------------------------------------------------

    @staticmethod
    def resumable(path: Path) -> bool:
        """Whether ``path`` holds something a resume continues (a one-line error if it holds
        something it cannot continue; ``False``: nothing there, start afresh)."""
        if str(path) in ("", "."):
            raise CardsimError("--out needs a path for the results directory")
        if path.is_file():
            raise CardsimError(
                f"cannot resume {quote(path)}: it is a single results file of an earlier "
                "cardsim (complete as it is); --resume continues results datasets (directories)"
            )
        return path.is_dir() and (is_dataset(path) or _holds_files(path))

    def _resume(self, feed: Iterable[Callable[[Chunk], None]]) -> None:
        """Continue the dataset: every check first (metadata, run, each part read whole), and
        only then anything written (a refused resume leaves the dataset as it was)."""
        meta = read_metadata(existing_results(self.path))
        self.check_resumable(self.path, meta, self.spec)
        parts = list_parts(self.path)
        for chunk in read_chunks(self.path, self.spec):  # a damaged part is refused here
            for sink in feed:
                sink(chunk)
        with contextlib.suppress(OSError):  # ours to remove: no other writer holds the lock
            remove_temporary_files(self.path)
        if meta["games"] != dataset_metadata(self.spec)["games"]:
            self._write_metadata(complete=False)  # extended: the new count before any part
        self.games = sum(p.games for p in parts)
        lo = self.spec.first_game
        self.missing = gaps_between(parts, lo, lo + self.spec.n_games)
        if not self.missing and not meta.get("complete"):
            self._write_metadata(complete=True)

    @staticmethod
    def check_resumable(path: Path, meta: dict, spec) -> None:
        """A one-line error unless the dataset at ``path`` (metadata ``meta``) is ``spec``'s
        run with no game beyond ``spec``'s count."""
        want = dataset_metadata(spec)
        for key in RESUME_KEYS:
            if meta.get(key) != want[key]:
                raise CardsimError(
                    f"cannot resume {quote(path)}: it was made with "
                    f"{key}={show(meta.get(key))}, this run has {key}={show(want[key])}"
                )
        done_to = max((p.stop for p in list_parts(path)), default=0)
        if done_to > want["first_game"] + want["games"]:
            raise CardsimError(
                f"cannot resume {quote(path)}: it already holds games up to {done_to - 1:,}, "
                f"beyond --games {want['games']:,}"
            )

    # -- writing ---------------------------------------------------------------------------------

    def _write_metadata(self, complete: bool) -> None:
        try:
            write_metadata(self.path, dataset_metadata(self.spec, complete))
        except OSError as exc:
            raise os_problem("cannot write the metadata of", self.path, exc) from None

    def __call__(self, chunk: Chunk) -> None:
        if chunk.first_game in self.saved_early:  # its part is on disk already
            self.saved_early.discard(chunk.first_game)
            return
        self._write(chunk)

    def save_early(self, chunk: Chunk) -> None:
        """Save a chunk before its turn (a search run's threads played past a long game:
        ``game_pool``); when it comes in order it is not written again. The parts on disk may
        then leave a gap, which a killed run's ``--resume`` fills."""
        if chunk.first_game not in self.saved_early:
            self._write(chunk, early=True)

    def _write(self, chunk: Chunk, early: bool = False) -> None:
        spec = self.spec
        frame = chunk_frame(spec.ruleset, spec.n_players, spec.bot_names, chunk)
        try:
            with _interrupts_deferred():  # a Ctrl-C after the rename must find the part counted
                write_part(self.path, frame, dataset_metadata(spec))
                self.games += len(chunk)
                if early:
                    self.saved_early.add(chunk.first_game)
        except OSError as exc:
            raise os_problem("cannot write a part of", self.path, exc) from None

    @property
    def complete(self) -> bool:
        return self.games >= self.spec.n_games

    def close(self) -> Path:
        """Mark the dataset complete when every game is in a part, and let go of its lock; the
        dataset's path."""
        try:
            if self.complete:
                self._write_metadata(complete=True)
        finally:
            self.lock.release()
        return self.path

    def abort(self) -> Path | None:
        """After a failed run: the dataset keeps every finished part (nothing to undo); its lock
        is let go."""
        self.lock.release()
        return self.path

    def metadata(self) -> dict:
        meta = dataset_metadata(self.spec, self.complete)
        meta["games_done"] = self.games
        return meta

    # -- a cluster run: the workers write the parts (cardsim.core.cluster) ----------------------

    def part_writer(self) -> PartWriter:
        """What a cluster worker calls with each chunk it plays, instead of sending it here."""
        return PartWriter(str(self.path.resolve()), dataset_metadata(self.spec))

    def parts_written(self, games: int) -> None:
        """``games`` more games are in parts written by the workers."""
        self.games += games


@dataclass(frozen=True)
class PartWriter:
    """Writes chunks as parts of the dataset at ``path`` (``write_part``), wherever it runs: a
    cluster worker holds one, so the games go straight to storage and not through the client.
    ``path`` must be a directory this process can write: storage every worker can reach, at the
    same path on every machine."""

    path: str
    meta: dict

    def __call__(self, chunk: Chunk) -> None:
        from cardsim.core import registry

        if not os.path.isdir(self.path):
            raise CardsimError(
                f"--out {quote(self.path)} is not a directory on this cluster worker: results "
                "of a cluster run must be on storage every worker can write, at the same path"
            )
        meta = self.meta
        ruleset = registry.get(meta["ruleset"])
        frame = chunk_frame(ruleset, meta["n_players"], meta["bots"], chunk)
        try:
            write_part(self.path, frame, meta)
        except OSError as exc:
            raise os_problem("cannot write a part of", self.path, exc) from None
