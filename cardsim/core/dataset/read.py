"""Reading a results dataset (or a single results file of earlier versions): its metadata, its
parts checked against the run (validation), the games as one frame, in bounded-memory batches
in game order, or as runner chunks; and which game ranges are still missing (for a resume).
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from cardsim.core.dataset.format import (
    BATCH_ROWS,
    FORMAT,
    FORMAT_VERSION,
    LEGACY_METADATA_KEY,
    METADATA_FILE,
    NOT_COMPACTED,
    PART_KEY,
    PART_PATTERN,
    Part,
    check_columns,
    check_metadata,
    compact_dtype,
    compact_frame,
    os_problem,
    quote,
    run_key,
)
from cardsim.core.errors import CardsimError
from cardsim.core.lock import writer_of
from cardsim.core.outcomes import Chunk, chunk_frame, game_column_names, seat_column_names


def is_dataset(path: str | Path) -> bool:
    return (Path(path) / METADATA_FILE).is_file()


def _read_dataset_metadata(path: Path) -> dict:
    where = f"results dataset {quote(path)}"
    try:
        text = (path / METADATA_FILE).read_text()
    except OSError as exc:
        raise os_problem(f"cannot read {METADATA_FILE} of", path, exc) from None
    except UnicodeDecodeError:
        raise CardsimError(f"{where}: {METADATA_FILE} is not text") from None
    try:
        meta = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CardsimError(f"{where}: {METADATA_FILE} is not valid JSON ({exc.msg})") from None
    meta = check_metadata(meta, where)
    if meta.get("format") != FORMAT or meta.get("format_version") != FORMAT_VERSION:
        raise CardsimError(
            f"{where}: unknown format {meta.get('format')!r} version "
            f"{meta.get('format_version')!r} (this cardsim reads {FORMAT} {FORMAT_VERSION})"
        )
    return meta


def _read_legacy_metadata(path: Path) -> dict:
    where = f"results file {quote(path)}"
    try:
        schema = pq.read_schema(path)
        raw = schema.metadata or {}
    except (pa.ArrowException, OSError) as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise CardsimError(f"{quote(path)} is not a readable Parquet file: {first}") from None
    if LEGACY_METADATA_KEY not in raw:
        raise CardsimError(f"{quote(path)} is not a cardsim results file (no run metadata)")
    try:
        meta = json.loads(raw[LEGACY_METADATA_KEY])
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise CardsimError(f"{where}: its cardsim metadata is not valid JSON") from None
    meta = check_metadata(meta, where)
    check_columns(schema.names, meta, where)  # the schema is at hand: checked before any work
    return meta


def existing_results(path: str | Path, what: str = "results") -> Path:
    path = Path(path)
    if str(path) in ("", "."):
        raise CardsimError(f"{what}: no path given")
    if path.is_dir():
        if not is_dataset(path):
            writer = writer_of(path)
            if writer is not None:  # a new run holds the lock while its engine compiles
                raise CardsimError(
                    f"results dataset {quote(path)} has no game yet: a run is starting to "
                    f"write it ({writer})"
                )
            raise CardsimError(
                f"{quote(path)} is a directory but not a cardsim results dataset "
                f"(no {METADATA_FILE})"
            )
        return path
    if path.is_file():
        return path
    if path.exists():
        raise CardsimError(f"{quote(path)} is neither a file nor a directory")
    raise CardsimError(f"results {quote(path)}: no such file or directory (it does not exist)")


def read_metadata(path: str | Path) -> dict:
    """The run metadata of a results dataset or single file, with ``games_done`` (games on disk)
    and ``complete``, and ``writer`` (who: ``lock.writer_of``) while a run is still writing the
    dataset. Damaged or foreign input is a one-line ``CardsimError``."""
    path = existing_results(path)
    if path.is_dir():
        writer = writer_of(path)  # before the files: a run that ends meanwhile wrote them whole
        meta = _read_dataset_metadata(path)
        if writer is not None:
            meta["writer"] = writer
        parts = _checked_parts(path, meta)
        meta["games_done"] = sum(p.games for p in parts)
        covered = meta["games_done"] == meta["games"]
        if meta.get("complete") and not covered:
            gaps = gaps_between(parts, meta["first_game"], meta["first_game"] + meta["games"])
            raise CardsimError(
                f"results dataset {quote(path)} is damaged: it says complete but "
                f"{sum(b - a for a, b in gaps):,} games are missing (first: {gaps[0][0]})"
            )
        meta["complete"] = covered
        meta.pop("format", None)  # facts about the files, not the run: checked above
        meta.pop("format_version", None)
        return meta
    meta = _read_legacy_metadata(path)
    meta.setdefault("games_done", meta.get("games", 0))
    return meta


def _scan_parts(path: Path) -> list[Part]:
    parts = []
    for entry in os.scandir(path):
        match = PART_PATTERN.match(entry.name)
        if match:
            first, stop = int(match.group(1)), int(match.group(2))
            parts.append(Part(first, stop, Path(entry.path)))
    return sorted(parts, key=lambda p: (p.first, p.stop))


def _checked_parts(path: Path, meta: dict) -> list[Part]:
    """The parts of a dataset in game order, after checking names, ranges and overlaps."""
    where = f"results dataset {quote(path)}"
    lo = meta["first_game"]
    hi = lo + meta["games"]
    parts = _scan_parts(path)
    previous = None
    for part in parts:
        if not lo <= part.first < part.stop <= hi:
            raise CardsimError(
                f"{where}: {part.path.name} holds games outside the run's {lo}..{hi - 1}"
            )
        if previous is not None and part.first < previous.stop:
            raise CardsimError(
                f"{where}: {previous.path.name} and {part.path.name} overlap (damaged dataset)"
            )
        previous = part
    return parts


def list_parts(path: str | Path) -> list[Part]:
    """The checked parts of the dataset ``path``, in game order."""
    path = existing_results(path)
    return _checked_parts(path, _read_dataset_metadata(path))


def gaps_between(parts: Sequence[Part], lo: int, hi: int) -> list[tuple[int, int]]:
    gaps, at = [], lo
    for part in parts:
        if part.first > at:
            gaps.append((at, min(part.first, hi)))
        at = max(at, part.stop)
    if at < hi:
        gaps.append((at, hi))
    return [(a, b) for a, b in gaps if a < b]


def missing_ranges(path: str | Path, spec) -> list[tuple[int, int]]:
    """Game ranges ``[first, stop)`` of ``spec``'s run that no part of ``path`` holds yet (the
    whole run when ``path`` does not exist)."""
    lo, hi = spec.first_game, spec.first_game + spec.n_games
    path = Path(path)
    if not path.exists():
        return [(lo, hi)]
    return gaps_between(list_parts(path), lo, hi)


def _open_part(part: Part, meta: dict, key: str, where: str) -> pq.ParquetFile:
    """The part's Parquet file, after checking it belongs to this run and holds its range."""
    try:
        pf = pq.ParquetFile(part.path)
    except (pa.ArrowException, OSError) as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise CardsimError(f"{where}: {part.path.name} is not readable: {first}") from None
    raw = (pf.schema_arrow.metadata or {}).get(PART_KEY)
    try:
        info = json.loads(raw) if raw is not None else None
    except (json.JSONDecodeError, UnicodeDecodeError):
        info = None
    expected = {"first": part.first, "stop": part.stop, "run": key}
    if info != expected:
        raise CardsimError(f"{where}: {part.path.name} is not a part of this run (damaged dataset)")
    if pf.metadata.num_rows != part.games:
        raise CardsimError(
            f"{where}: {part.path.name} holds {pf.metadata.num_rows} rows, not {part.games}"
        )
    check_columns(pf.schema_arrow.names, meta, where)
    return pf


def _categorical_columns(meta: dict) -> dict[str, list[str]]:
    cats = {f"bot_{seat}": list(meta["bots"]) for seat in range(meta["n_players"])}
    cats["end_reason"] = list(meta["end_reasons"])
    return cats


def _to_frame(table: pa.Table, meta: dict) -> pd.DataFrame:
    """Categorical columns with the run's categories in their canonical order (codes as run)."""
    df = table.to_pandas()
    for col, cats in _categorical_columns(meta).items():
        if col in df.columns:
            df[col] = pd.Categorical(df[col], categories=cats)
    return df


def iter_batches(
    path: str | Path, columns: Sequence[str] | None = None, batch_rows: int = BATCH_ROWS
) -> Iterator[pd.DataFrame]:
    """The games of a results dataset (or single file) as DataFrames of at most ``batch_rows``
    rows, in game order, with categories restored: memory stays bounded whatever the run size.
    ``columns`` picks columns (all by default)."""
    path = existing_results(path)
    meta = read_metadata(path)
    cats = list(_categorical_columns(meta))
    cols = list(columns) if columns is not None else None
    if path.is_dir():
        where = f"results dataset {quote(path)}"
        key = run_key(meta)
        parts = _checked_parts(path, meta)
        for part in parts:  # every part checked before the first game is read...
            _open_part(part, meta, key, where).close()
        # ...then opened one at a time: a 1e8-game dataset has thousands of parts, more than
        # the open files a process may hold on many systems
        files = (_open_part(p, meta, key, where) for p in parts)
    else:
        files = iter([_legacy_file(path, meta, cats)])
    for pf in files:
        with contextlib.closing(pf):
            for batch in pf.iter_batches(batch_size=batch_rows, columns=cols):
                yield _to_frame(pa.Table.from_batches([batch]), meta)


def count_games(path: str | Path) -> int:
    """Games stored in a results dataset (its parts) or single file (its footer), unread."""
    path = existing_results(path)
    if path.is_dir():
        return sum(p.games for p in list_parts(path))
    try:
        return pq.ParquetFile(path).metadata.num_rows
    except (pa.ArrowException, OSError) as exc:
        raise CardsimError(f"results file {quote(path)} is not readable: {exc}") from None


def _legacy_file(path: Path, meta: dict, cats: list[str]) -> pq.ParquetFile:
    where = f"results file {quote(path)}"
    try:
        check_columns(pq.read_schema(path).names, meta, where)
        return pq.ParquetFile(path, read_dictionary=cats)
    except (pa.ArrowException, OSError) as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise CardsimError(f"{where} is not readable: {first}") from None


def read_results(
    path: str | Path, columns: Sequence[str] | None = None, compact: bool = True
) -> tuple[pd.DataFrame, dict]:
    """``(games, metadata)`` of a results dataset (complete or not) or a single file;
    ``columns`` reads only those (``Results.load(path, columns=[...])``).

    With ``compact`` (the default) every integer column takes the smallest signed type that
    holds the values stored (``compact_dtype``: a Fruit Picking counter in 0..18 is int8, the
    game index int32), and a dataset's parts are read one at a time straight into the final
    arrays: 10M four-player Fruit Picking games take about a third of the memory of int32
    columns, and the peak stays close to the frame itself (docs/memory.md). Arithmetic that may
    leave the stored range needs a cast first (``frame["score_0"].astype("int64") * 1000``).
    """
    path = existing_results(path)
    meta = read_metadata(path)
    cats = list(_categorical_columns(meta))
    cols = list(columns) if columns is not None else None
    if path.is_dir():
        where = f"results dataset {quote(path)}"
        key = run_key(meta)
        parts = _checked_parts(path, meta)
        if not parts:
            return _empty_frame(meta, cols), meta
        if compact:
            return _read_compact(parts, meta, key, where, cols), meta
        tables = [_open_part(p, meta, key, where).read(columns=cols) for p in parts]
        table = pa.concat_tables(tables, promote_options="permissive")
    else:
        table = _legacy_file(path, meta, cats).read(columns=cols)
    frame = _to_frame(table, meta)
    return (compact_frame(frame) if compact else frame), meta


def _column_ranges(parts, meta: dict, key: str, where: str, cols) -> dict[str, list[int]]:
    """Per integer column, the low and high value over every part, from the footers'
    row-group statistics (no data read); a column without statistics keeps its type."""
    ranges: dict[str, list[int]] = {}
    for part in parts:
        with contextlib.closing(_open_part(part, meta, key, where)) as pf:
            footer = pf.metadata
            schema = pf.schema_arrow
            for g in range(footer.num_row_groups):
                group = footer.row_group(g)
                for j in range(group.num_columns):
                    chunk = group.column(j)
                    name = chunk.path_in_schema
                    if (cols is not None and name not in cols) or name in NOT_COMPACTED:
                        continue
                    if not pa.types.is_integer(schema.field(name).type):
                        continue
                    stats = chunk.statistics
                    if stats is None or not stats.has_min_max:
                        ranges[name] = [None, None]
                        continue
                    lo, hi = ranges.setdefault(name, [stats.min, stats.max])
                    if lo is not None:
                        ranges[name] = [min(lo, stats.min), max(hi, stats.max)]
    return ranges


def _read_compact(parts, meta: dict, key: str, where: str, cols) -> pd.DataFrame:
    """The parts' games in one frame of compact integer columns, filled part by part (the peak
    is the frame plus one part, not every part twice)."""
    ranges = _column_ranges(parts, meta, key, where, cols)
    total = sum(p.games for p in parts)
    columns: dict[str, np.ndarray] = {}  # a categorical column's codes
    categories: dict[str, pd.Index] = {}
    start = 0
    for part in parts:
        with contextlib.closing(_open_part(part, meta, key, where)) as pf:
            piece = _to_frame(pf.read(columns=cols), meta)
        if not columns:  # the first part fixes the columns and their types
            for name in piece.columns:
                dtype = piece[name].dtype
                if isinstance(dtype, pd.CategoricalDtype):
                    categories[name] = dtype.categories
                    dtype = piece[name].cat.codes.dtype
                elif name in ranges and None not in ranges[name]:
                    dtype = compact_dtype(dtype, *ranges[name])
                columns[name] = np.empty(total, dtype)
        stop = start + len(piece)
        for name, out in columns.items():
            values = piece[name]
            out[start:stop] = values.cat.codes if name in categories else values.to_numpy()
        start = stop
        del piece
    for name, cats in categories.items():
        columns[name] = pd.Categorical.from_codes(columns[name], categories=cats)
    return pd.DataFrame(columns, copy=False)


def _empty_frame(meta: dict, columns: list[str] | None) -> pd.DataFrame:
    from cardsim.core import registry

    ruleset = registry.get(meta["ruleset"])
    chunk = empty_chunk(ruleset, 0, meta["n_players"])
    df = chunk_frame(ruleset, meta["n_players"], list(meta["bots"]), chunk)
    return df if columns is None else df[columns]


def read_chunks(path: str | Path, spec) -> Iterator[Chunk]:
    """The games of a results dataset as raw chunks, one per part, in game order."""
    for part_frame in _iter_part_frames(Path(path)):
        if len(part_frame):
            yield frame_chunk(spec.ruleset, spec.n_players, spec.bot_names, part_frame)


def _iter_part_frames(path: Path) -> Iterator[pd.DataFrame]:
    meta = read_metadata(path)
    where = f"results dataset {quote(path)}"
    key = run_key(meta)
    for part in _checked_parts(path, meta):
        yield _to_frame(_open_part(part, meta, key, where).read(), meta)


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
