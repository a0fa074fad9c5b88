"""Results on disk: a Parquet sink for the runner, resuming an interrupted run, reading results.

A run's file holds one row per game (``outcomes.chunk_frame``), one row group per chunk, and the
run's metadata as JSON under the key ``b"cardsim"`` of the Parquet schema metadata::

    spec.metadata()                      # ruleset, rules, bots, seating, seed, games asked for, ...
    + end_reasons                        # names of the end_reason codes
    + games_done, complete               # rows in the file; complete once games_done == games

Nothing about how the run went (time taken, threads) is stored: the same run gives the same file,
byte for byte, whatever the thread count (the summary printed by the run says how fast it was).

While a run is going the file is ``<path>.partial``; ``close()`` renames it to ``<path>``
(``os.replace``, atomic) once every game is in it. If the run is interrupted, ``close()`` still
writes a valid footer, so the partial file holds every completed chunk, and a later run with
``resume=True`` copies it and carries on from the next game. Memory stays bounded: the sink never
holds more than the chunk it is writing.

No numba here: reading results must not need the compiler.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import threading
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from cardsim.core.errors import CardsimError
from cardsim.core.outcomes import Chunk, chunk_frame, game_column_names, seat_column_names

METADATA_KEY = b"cardsim"
PARTIAL_SUFFIX = ".partial"
RESUMING_SUFFIX = ".resuming"  # an interrupted file being copied by a resume
COMPRESSION = "zstd"
# What must be equal for a file to be continued by a run (RunSpec.metadata() keys).
RESUME_KEYS = (
    "ruleset",
    "rules",
    "n_players",
    "bots",
    "bot_params",
    "seating",
    "seed",
    "first_game",
)


def partial_path(path: str | Path) -> Path:
    """Where a run writing ``path`` keeps its results until it is complete."""
    path = Path(path)
    return path.with_name(path.name + PARTIAL_SUFFIX)


def _resuming_path(path: Path) -> Path:
    return path.with_name(path.name + RESUMING_SUFFIX)


def _json_ready(value: Any) -> Any:
    """Tuples to lists, as JSON would round-trip them (so metadata compares equal)."""
    return json.loads(json.dumps(value))


class ParquetSink:
    """Runner sink writing every chunk as one row group of ``<path>.partial``.

    ``resume=True`` first copies the games already in ``<path>.partial`` (or in a complete
    ``<path>``) after checking that they come from the same run, and hands them to ``feed`` sinks
    as well (e.g. the summary), so the run continues with ``runner.run(..., start=sink.games)``.
    With nothing to resume it starts afresh. Without ``resume``, an existing partial file is an
    error rather than something to overwrite silently.
    """

    def __init__(
        self,
        path: str | Path,
        spec,
        resume: bool = False,
        feed: Iterable[Callable[[Chunk], None]] = (),
    ):
        self.path = Path(path)
        self.partial = partial_path(self.path)
        self.spec = spec
        self.games = 0  # games written so far
        self._closed = False
        if self.path.is_dir():
            raise CardsimError(f"--out {str(self.path)!r} is a directory")
        if not self.path.parent.is_dir():
            raise CardsimError(f"--out: directory {str(self.path.parent)!r} does not exist")
        source = self._resume_source() if resume else None
        if not resume and self.partial.exists():
            raise CardsimError(
                f"{str(self.partial)!r} holds an interrupted run: add --resume to continue it, "
                "or delete it"
            )
        if source is not None:
            self._check_resumable(source)
            moved = _resuming_path(self.path)
            if source != moved:
                os.replace(source, moved)
        self._schema = pa.Schema.from_pandas(self._frame(self._empty_chunk()), preserve_index=False)
        self._schema = self._schema.remove_metadata()
        # store_schema=False: the metadata added at close() is then the schema metadata readers see
        self._writer = pq.ParquetWriter(
            self.partial, self._schema, compression=COMPRESSION, store_schema=False
        )
        if source is not None:
            try:
                for chunk in read_chunks(moved, spec):
                    self(chunk)
                    for sink in feed:
                        sink(chunk)
            except BaseException:
                self._writer.close()
                os.replace(moved, self.partial)  # as it was before the resume
                raise
            moved.unlink()

    # -- writing ---------------------------------------------------------------------------------

    def __call__(self, chunk: Chunk) -> None:
        if self._closed:
            raise RuntimeError("ParquetSink is closed")
        if chunk.first_game != self.spec.first_game + self.games:
            expected = self.spec.first_game + self.games
            raise RuntimeError(f"chunk starts at game {chunk.first_game}, expected {expected}")
        table = pa.Table.from_pandas(self._frame(chunk), schema=self._schema, preserve_index=False)
        with _interrupts_deferred():  # a Ctrl-C must not cut a row group in half
            self._writer.write_table(table, row_group_size=max(len(chunk), 1))
            self.games += len(chunk)

    def close(self) -> Path:
        """Write the footer and metadata; rename to ``path`` once every game is in; the file."""
        if self._closed:
            return self.path if self.complete else self.partial
        meta = self.metadata()
        with _interrupts_deferred():
            self._writer.add_key_value_metadata({METADATA_KEY.decode(): json.dumps(meta)})
            self._writer.close()
            self._closed = True
            if self.complete:
                os.replace(self.partial, self.path)
        return self.path if self.complete else self.partial

    def abort(self) -> Path | None:
        """Close after a failed run: keep the partial file if it holds games, else remove it."""
        path = self.close()
        if self.games == 0 and path == self.partial:
            path.unlink(missing_ok=True)
            return None
        return path

    @property
    def complete(self) -> bool:
        return self.games >= self.spec.n_games

    def metadata(self) -> dict:
        """The JSON stored with the file (see the module docstring)."""
        meta = self.spec.metadata()
        meta["end_reasons"] = list(self.spec.ruleset.end_reasons)
        meta["games_done"] = self.games
        meta["complete"] = self.complete
        return meta

    # -- helpers ---------------------------------------------------------------------------------

    def _frame(self, chunk: Chunk) -> pd.DataFrame:
        spec = self.spec
        return chunk_frame(spec.ruleset, spec.n_players, spec.bot_names, chunk)

    def _empty_chunk(self) -> Chunk:
        return empty_chunk(self.spec.ruleset, 0, self.spec.n_players)

    def _resume_source(self) -> Path | None:
        for candidate in (_resuming_path(self.path), self.partial, self.path):
            if candidate.is_file():
                return candidate
        return None

    def _check_resumable(self, source: Path) -> None:
        meta = read_metadata(source)
        want = _json_ready(self.spec.metadata())
        for key in RESUME_KEYS:
            if meta.get(key) != want[key]:
                raise CardsimError(
                    f"cannot resume {str(source)!r}: it was made with "
                    f"{key}={_show(meta.get(key))}, "
                    f"this run has {key}={_show(want[key])}"
                )
        done = int(meta.get("games_done", 0))
        if done > self.spec.n_games:
            raise CardsimError(
                f"cannot resume {str(source)!r}: it already holds {done:,} games, "
                f"more than --games {self.spec.n_games:,}"
            )


def _show(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


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


# -- reading -------------------------------------------------------------------------------------


def read_metadata(path: str | Path) -> dict:
    """The run metadata stored in a results file."""
    path = Path(path)
    if not path.is_file():
        raise CardsimError(f"results file {str(path)!r} does not exist")
    try:
        raw = pq.read_schema(path).metadata or {}
    except (pa.ArrowInvalid, OSError) as exc:
        raise CardsimError(f"{str(path)!r} is not a readable Parquet file: {exc}") from None
    if METADATA_KEY not in raw:
        raise CardsimError(f"{str(path)!r} is not a cardsim results file (no run metadata)")
    return json.loads(raw[METADATA_KEY])


def _categorical_columns(meta: dict) -> dict[str, list[str]]:
    cats = {f"bot_{seat}": list(meta["bots"]) for seat in range(meta["n_players"])}
    cats["end_reason"] = list(meta["end_reasons"])
    return cats


def _restore_categories(df: pd.DataFrame, meta: dict) -> pd.DataFrame:
    """Categorical columns with the run's categories in their canonical order (codes as run)."""
    for col, cats in _categorical_columns(meta).items():
        df[col] = pd.Categorical(df[col], categories=cats)
    return df


def read_results(path: str | Path) -> tuple[pd.DataFrame, dict]:
    """``(games, metadata)`` of a results file (complete or ``.partial``)."""
    meta = read_metadata(path)
    cats = _categorical_columns(meta)
    table = pq.read_table(path, read_dictionary=list(cats))
    return _restore_categories(table.to_pandas(), meta), meta


def write_results(path: str | Path, games: pd.DataFrame, metadata: dict) -> Path:
    """Write a whole frame of games and its run metadata to ``path`` atomically.

    The same layout as a run's ``--out`` file (``read_results`` reads both): the frame as one
    Parquet file with ``metadata`` as JSON under ``b"cardsim"``. It is written to
    ``<path>.partial`` first and renamed, so ``path`` is never half written.
    """
    path = Path(path)
    if path.is_dir():
        raise CardsimError(f"{str(path)!r} is a directory")
    if not path.parent.is_dir():
        raise CardsimError(f"directory {str(path.parent)!r} does not exist")
    table = pa.Table.from_pandas(games, preserve_index=False)
    table = table.replace_schema_metadata({METADATA_KEY: json.dumps(_json_ready(metadata))})
    tmp = partial_path(path)
    pq.write_table(table, tmp, compression=COMPRESSION)
    os.replace(tmp, path)
    return path


def frame_chunk(ruleset, n_players: int, bot_names: list[str], df: pd.DataFrame) -> Chunk:
    """Inverse of ``outcomes.chunk_frame``: the raw arrays of a frame of consecutive games."""
    n = len(df)
    chunk = empty_chunk(ruleset, n, n_players)
    for j, name in enumerate(game_column_names(ruleset)):
        if name == "bad_bot_answers":
            continue  # not stored: a run with bad answers is refused
        col = df[name]
        values = col.cat.codes if name == "end_reason" else col
        chunk.game_out[:, j] = np.asarray(values, dtype=np.int32)
    for seat in range(n_players):
        bots = pd.Categorical(df[f"bot_{seat}"], categories=bot_names)
        chunk.seat_bot[:, seat] = bots.codes
        for j, name in enumerate(seat_column_names(ruleset)):
            chunk.seat_out[:, seat, j] = np.asarray(df[f"{name}_{seat}"], dtype=np.int32)
    chunk.first_game = int(df["game"].iloc[0]) if n else 0
    return chunk


def empty_chunk(ruleset, n: int, n_players: int, first_game: int = 0) -> Chunk:
    """A zeroed chunk of ``n`` games of ``n_players`` (seat_bot -1) with the ruleset's columns."""
    return Chunk(
        first_game,
        np.zeros((n, len(game_column_names(ruleset))), np.int32),
        np.zeros((n, n_players, len(seat_column_names(ruleset))), np.int32),
        np.full((n, n_players), -1, np.int16),
    )


def read_chunks(path: str | Path, spec) -> Iterator[Chunk]:
    """The games of a results file as raw chunks, one per row group (bounded memory)."""
    meta = read_metadata(path)
    cats = _categorical_columns(meta)
    pf = pq.ParquetFile(path, read_dictionary=list(cats))
    for i in range(pf.num_row_groups):
        df = _restore_categories(pf.read_row_group(i).to_pandas(), meta)
        if len(df):
            yield frame_chunk(spec.ruleset, spec.n_players, spec.bot_names, df)
