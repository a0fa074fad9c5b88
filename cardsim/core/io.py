"""Results on disk: the results dataset (write, resume, read), and the single files of before.

The contract (issue 9; cluster runs, issue 13, write the same format)
======================================================================

``cardsim run --out PATH`` writes a *results dataset*: a directory of Parquet part files and one
metadata file. Nothing is ever written in place: every file is written to a temporary name in
``PATH``, fsynced, renamed (``os.replace``, atomic) and the directory fsynced, so a file that
exists is complete, whatever moment the process is killed at (SIGKILL included)::

    PATH/
      _cardsim.json       the run's metadata (JSON object, below); written before the first part,
                          rewritten (atomically) when the run completes or is extended
      part-<first:012d>-<stop:012d>.parquet
                          games [first, stop) of the run, one row per game in game order
                          (``outcomes.chunk_frame`` columns), one part per chunk of the run
      .<name>.<pid>.<random>.tmp
                          a file being written; never read, removed by the next --resume

``_cardsim.json`` holds ``RunSpec.metadata()`` (ruleset, rules, n_players, bots, bot_params,
bot_param_names (the names of a bot's parameters, for bots that name them; datasets of earlier
versions lack it), seating, seed, first_game, games, version, variant), plus ``end_reasons`` and ``seat_counters``
(names of the coded columns), ``format`` = ``"cardsim-dataset"``, ``format_version`` = 1 and
``complete``: ``true`` once a part holds every game of ``[first_game, first_game + games)``.
The parts are the truth about which games are done: ``games done`` is the union of their ranges,
and ``complete`` only saves a reader the check (a dataset that says ``complete`` but misses games
is refused as damaged). Nothing about how the run went (time, threads, chunk size) is stored.

Every part's Parquet schema metadata has the key ``cardsim_part``: JSON
``{"first": f, "stop": s, "run": <run key>}``. The run key (``run_key``) is a hash of what makes
two runs the same games (``RESUME_KEYS``), so a part copied from another run is refused, not
mixed in. A part's bytes depend only on its range and the run (not on threads or machines), so a
retried task that rewrites a part writes the same name with the same bytes.

Reading (``read_results``, ``iter_batches``, ``read_metadata``, ``list_parts``) sorts the parts
by first game and refuses overlapping parts, parts outside the run, parts of another run and parts
whose row count disagrees with their name. Rows are the same whatever the thread count and
``--chunk-size`` (a part is a chunk, so the *files* are the same only for the same chunk size).

Resuming (``DatasetSink(path, spec, resume=True)``, ``missing_ranges``): every complete part is
kept and only the gaps are played, whatever chunk or task size wrote the parts; no saved game is
ever deleted or rewritten by a resume. ``--games`` may be raised to extend a finished run (the
metadata is rewritten with the new count before any new part).

Public functions and their roles: ``write_part`` (one part, atomic), ``write_metadata`` (atomic),
``missing_ranges``, ``read_metadata``, ``read_results`` (a dataset or a single file),
``iter_batches`` (bounded-memory streaming in game order), ``write_results`` (a whole frame as a
dataset, for ``Results.save``), ``DatasetSink`` (the runner's sink).

The single files of earlier versions (one Parquet file, the metadata as JSON under the schema
metadata key ``b"cardsim"``) are still read by every reader; they are no longer written.

No numba here: reading results must not need the compiler.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import secrets
import signal
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from cardsim.core.errors import CardsimError
from cardsim.core.outcomes import Chunk, chunk_frame, game_column_names, seat_column_names

FORMAT = "cardsim-dataset"
FORMAT_VERSION = 1
METADATA_FILE = "_cardsim.json"
PART_KEY = b"cardsim_part"
LEGACY_METADATA_KEY = b"cardsim"  # single files of earlier versions
COMPRESSION = "zstd"
PART_PATTERN = re.compile(r"^part-(\d{12,})-(\d{12,})\.parquet$")
TMP_SUFFIX = ".tmp"
BATCH_ROWS = 65536
# What must be equal for a dataset to be continued by a run (RunSpec.metadata() keys).
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
# Columns every results table has (besides the ruleset's counters); per seat: <name>_<seat>.
GAME_COLUMNS = ("game", "n_players", "first_seat", "turns", "end_reason")
SEAT_COLUMNS = ("bot", "score", "rank", "win")


def _json_ready(value: Any) -> Any:
    """Tuples to lists, as JSON would round-trip them (so metadata compares equal)."""
    return json.loads(json.dumps(value))


def _show(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def _quote(path: Path | str) -> str:
    return repr(str(path))


def run_key(meta: dict) -> str:
    """A short hash of what makes two runs the same games (``RESUME_KEYS`` of the metadata)."""
    canonical = json.dumps({k: meta.get(k) for k in RESUME_KEYS}, sort_keys=True)
    return hashlib.sha256(canonical.encode()).hexdigest()[:16]


def part_name(first: int, stop: int) -> str:
    return f"part-{first:012d}-{stop:012d}.parquet"


# -- atomic files ----------------------------------------------------------------------------------


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


def _os_problem(what: str, path: Path | str, exc: OSError) -> CardsimError:
    reason = exc.strerror or type(exc).__name__
    return CardsimError(f"{what} {_quote(path)}: {reason}")


# -- metadata ----------------------------------------------------------------------------------


def check_metadata(meta: Any, where: str) -> dict:
    """The metadata of a results file or dataset, checked enough to read its games; one-line
    ``CardsimError`` naming ``where`` otherwise."""
    if not isinstance(meta, dict):
        raise CardsimError(
            f"{where}: its cardsim metadata is a JSON {type(meta).__name__}, not an object"
        )
    problems = []
    if not isinstance(meta.get("ruleset"), str):
        problems.append("ruleset")
    players = meta.get("n_players")
    if not isinstance(players, int) or isinstance(players, bool) or not 1 <= players <= 64:
        problems.append("n_players")
    for key in ("bots", "end_reasons"):
        value = meta.get(key)
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            problems.append(key)
    for key in ("games", "seed", "first_game"):
        value = meta.get(key, 0)
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            problems.append(key)
    if problems:
        raise CardsimError(
            f"{where}: its cardsim metadata is damaged or not cardsim's "
            f"(missing or bad: {', '.join(problems)})"
        )
    return meta


def required_columns(meta: dict) -> list[str]:
    """Columns a results table of this run must have."""
    seats = [f"{name}_{s}" for s in range(meta["n_players"]) for name in SEAT_COLUMNS]
    return [*GAME_COLUMNS, *seats]


def _check_columns(names: Sequence[str], meta: dict, where: str) -> None:
    missing = [c for c in required_columns(meta) if c not in names]
    if missing:
        shown = ", ".join(missing[:4]) + (", ..." if len(missing) > 4 else "")
        raise CardsimError(f"{where}: not a cardsim results table (missing columns {shown})")


def write_metadata(path: str | Path, meta: dict) -> Path:
    """Write a dataset's ``_cardsim.json`` atomically; returns its path."""
    target = Path(path) / METADATA_FILE
    text = json.dumps(_json_ready(meta), indent=1) + "\n"  # key order kept: rules as listed
    _atomic_write(target, lambda tmp: tmp.write_text(text))
    return target


def dataset_metadata(spec, complete: bool = False) -> dict:
    """The ``_cardsim.json`` of a run (see the module docstring)."""
    meta = spec.metadata()
    meta["end_reasons"] = list(spec.ruleset.end_reasons)
    meta["seat_counters"] = list(spec.ruleset.seat_counters)
    meta["format"] = FORMAT
    meta["format_version"] = FORMAT_VERSION
    meta["complete"] = complete
    return _json_ready(meta)


def is_dataset(path: str | Path) -> bool:
    return (Path(path) / METADATA_FILE).is_file()


def _read_dataset_metadata(path: Path) -> dict:
    where = f"results dataset {_quote(path)}"
    try:
        text = (path / METADATA_FILE).read_text()
    except OSError as exc:
        raise _os_problem(f"cannot read {METADATA_FILE} of", path, exc) from None
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
    where = f"results file {_quote(path)}"
    try:
        schema = pq.read_schema(path)
        raw = schema.metadata or {}
    except (pa.ArrowException, OSError) as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise CardsimError(f"{_quote(path)} is not a readable Parquet file: {first}") from None
    if LEGACY_METADATA_KEY not in raw:
        raise CardsimError(f"{_quote(path)} is not a cardsim results file (no run metadata)")
    try:
        meta = json.loads(raw[LEGACY_METADATA_KEY])
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise CardsimError(f"{where}: its cardsim metadata is not valid JSON") from None
    meta = check_metadata(meta, where)
    _check_columns(schema.names, meta, where)  # the schema is at hand: checked before any work
    return meta


def _existing(path: str | Path, what: str = "results") -> Path:
    path = Path(path)
    if str(path) in ("", "."):
        raise CardsimError(f"{what}: no path given")
    if path.is_dir():
        if not is_dataset(path):
            raise CardsimError(
                f"{_quote(path)} is a directory but not a cardsim results dataset "
                f"(no {METADATA_FILE})"
            )
        return path
    if path.is_file():
        return path
    if path.exists():
        raise CardsimError(f"{_quote(path)} is neither a file nor a directory")
    raise CardsimError(f"results {_quote(path)}: no such file or directory (it does not exist)")


def read_metadata(path: str | Path) -> dict:
    """The run metadata of a results dataset or single file, with ``games_done`` (games on disk)
    and ``complete``. Damaged or foreign input is a one-line ``CardsimError``."""
    path = _existing(path)
    if path.is_dir():
        meta = _read_dataset_metadata(path)
        parts = _checked_parts(path, meta)
        meta["games_done"] = sum(p.games for p in parts)
        covered = meta["games_done"] == meta["games"]
        if meta.get("complete") and not covered:
            gaps = _gaps(parts, meta["first_game"], meta["first_game"] + meta["games"])
            raise CardsimError(
                f"results dataset {_quote(path)} is damaged: it says complete but "
                f"{sum(b - a for a, b in gaps):,} games are missing (first: {gaps[0][0]})"
            )
        meta["complete"] = covered
        meta.pop("format", None)  # facts about the files, not the run: checked above
        meta.pop("format_version", None)
        return meta
    meta = _read_legacy_metadata(path)
    meta.setdefault("games_done", meta.get("games", 0))
    return meta


# -- parts ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Part:
    """One part file: games ``[first, stop)``."""

    first: int
    stop: int
    path: Path

    @property
    def games(self) -> int:
        return self.stop - self.first


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
    where = f"results dataset {_quote(path)}"
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
    path = _existing(path)
    return _checked_parts(path, _read_dataset_metadata(path))


def _gaps(parts: Sequence[Part], lo: int, hi: int) -> list[tuple[int, int]]:
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
    return _gaps(list_parts(path), lo, hi)


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
    _check_columns(pf.schema_arrow.names, meta, where)
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
    path = _existing(path)
    meta = read_metadata(path)
    cats = list(_categorical_columns(meta))
    cols = list(columns) if columns is not None else None
    if path.is_dir():
        where = f"results dataset {_quote(path)}"
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
    path = _existing(path)
    if path.is_dir():
        return sum(p.games for p in list_parts(path))
    try:
        return pq.ParquetFile(path).metadata.num_rows
    except (pa.ArrowException, OSError) as exc:
        raise CardsimError(f"results file {_quote(path)} is not readable: {exc}") from None


def _legacy_file(path: Path, meta: dict, cats: list[str]) -> pq.ParquetFile:
    where = f"results file {_quote(path)}"
    try:
        _check_columns(pq.read_schema(path).names, meta, where)
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
    path = _existing(path)
    meta = read_metadata(path)
    cats = list(_categorical_columns(meta))
    cols = list(columns) if columns is not None else None
    if path.is_dir():
        where = f"results dataset {_quote(path)}"
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


def compact_dtype(dtype: np.dtype, low: int, high: int) -> np.dtype:
    """The smallest signed integer type holding ``low .. high`` (``dtype`` itself for other
    kinds, or when it is already smaller)."""
    dtype = np.dtype(dtype)
    if dtype.kind not in "iu":
        return dtype
    for candidate in (np.int8, np.int16, np.int32, np.int64):
        info = np.iinfo(candidate)
        if info.min <= low and high <= info.max:
            smaller = np.dtype(candidate)
            return smaller if smaller.itemsize < dtype.itemsize else dtype
    return dtype


# the game index keeps int64: per-game streams and hashes are derived from it (core/rng.py)
NOT_COMPACTED = ("game",)


def compact_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` with every integer column but ``NOT_COMPACTED`` in its ``compact_dtype`` (in
    place)."""
    for name in frame.columns:
        column = frame[name]
        if column.dtype.kind in "iu" and len(column) and name not in NOT_COMPACTED:
            frame[name] = column.astype(compact_dtype(column.dtype, column.min(), column.max()))
    return frame


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


# -- writing parts -------------------------------------------------------------------------------


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
    meta = _json_ready(dict(metadata))
    meta.pop("games_done", None)
    meta.setdefault("first_game", int(games["game"].iloc[0]) if len(games) else 0)
    meta["games"] = len(games)
    meta["format"] = FORMAT
    meta["format_version"] = FORMAT_VERSION
    meta["complete"] = False
    check_metadata(meta, f"results {_quote(path)}")
    _check_columns(list(games.columns), meta, f"results {_quote(path)}")
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
        meta = read_metadata(_existing(path))
        DatasetSink.check_resumable(path, meta, spec)
    else:
        _check_new_dataset(path)


def _check_new_dataset(path: Path, what: str = "--out") -> None:
    """The checks of ``prepare_new_dataset``, without creating anything."""
    if str(path) in ("", "."):
        raise CardsimError(f"{what} needs a path for the results directory")
    for parent in path.parents:
        if parent.exists() and not parent.is_dir():
            raise CardsimError(
                f"{what} {_quote(path)}: {_quote(parent)} is a file, not a directory"
            )
    if not path.parent.is_dir():
        raise CardsimError(f"{what} {_quote(path)}: directory {_quote(path.parent)} does not exist")
    if path.is_dir():
        if is_dataset(path):
            hint = "add --resume to continue that run, or " if what == "--out" else ""
            raise CardsimError(
                f"{what} {_quote(path)} already holds a results dataset: {hint}choose another path"
            )
        if any(os.scandir(path)):
            raise CardsimError(
                f"{what} {_quote(path)} is a directory that is not empty and not a results dataset"
            )
        return
    if path.exists():
        kind = "a file" if path.is_file() else "not a directory"
        raise CardsimError(
            f"{what} {_quote(path)} is {kind}: results are a directory (a Parquet dataset); "
            "choose another path"
        )


def prepare_new_dataset(path: Path, what: str = "--out") -> None:
    """Create the directory of a new dataset (or accept an empty one); one-line errors for a path
    that cannot hold one."""
    _check_new_dataset(path, what)
    if path.is_dir():
        return
    try:
        path.mkdir()
    except OSError as exc:
        raise _os_problem(f"{what}: cannot create", path, exc) from None
    probe = path / f".write-test{TMP_SUFFIX}"
    try:
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as exc:
        with contextlib.suppress(OSError):
            path.rmdir()
        raise _os_problem(f"{what}: cannot write into", path, exc) from None


# -- the runner's sink -------------------------------------------------------------------------


class DatasetSink:
    """Runner sink writing every chunk as one part of the dataset ``path``.

    A new run creates the directory and writes its metadata before any part. ``resume=True``
    continues the dataset at ``path`` if there is one (after checking it is the same run), hands
    its saved games to the ``feed`` sinks (e.g. the summary) and leaves ``missing`` (the ranges
    to play: ``runner.run(..., ranges=sink.missing)``); with nothing at ``path`` it starts
    afresh and says so in ``note``. Without ``resume``, an existing dataset is an error, never
    overwritten.
    """

    def __init__(
        self,
        path: str | Path,
        spec,
        resume: bool = False,
        feed: Iterable[Callable[[Chunk], None]] = (),
    ):
        self.path = Path(path)
        self.spec = spec
        self.games = 0  # games on disk for this run
        self.note = ""  # a line for the user about what resume did
        self.missing: list[tuple[int, int]] = []
        if resume and self.resumable(self.path):
            self._resume(feed)
        else:
            if resume:
                self.note = f"nothing to resume at {_quote(self.path)}: starting the run afresh"
            prepare_new_dataset(self.path)
            self._write_metadata(complete=False)
            self.missing = [(spec.first_game, spec.first_game + spec.n_games)]

    # -- resuming --------------------------------------------------------------------------------

    @staticmethod
    def resumable(path: Path) -> bool:
        """Whether ``path`` holds something a resume continues (a one-line error if it holds
        something it cannot continue; ``False``: nothing there, start afresh)."""
        if str(path) in ("", "."):
            raise CardsimError("--out needs a path for the results directory")
        if path.is_file():
            raise CardsimError(
                f"cannot resume {_quote(path)}: it is a single results file of an earlier "
                "cardsim (complete as it is); --resume continues results datasets (directories)"
            )
        return path.is_dir() and (is_dataset(path) or any(os.scandir(path)))

    def _resume(self, feed: Iterable[Callable[[Chunk], None]]) -> None:
        meta = read_metadata(_existing(self.path))
        self.check_resumable(self.path, meta, self.spec)
        with contextlib.suppress(OSError):
            remove_temporary_files(self.path)
        parts = list_parts(self.path)
        want = dataset_metadata(self.spec)
        if meta["games"] != want["games"]:  # extended: the new count is on disk before any part
            self._write_metadata(complete=False)
        for chunk in read_chunks(self.path, self.spec):
            for sink in feed:
                sink(chunk)
        self.games = sum(p.games for p in parts)
        lo = self.spec.first_game
        self.missing = _gaps(parts, lo, lo + self.spec.n_games)
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
                    f"cannot resume {_quote(path)}: it was made with "
                    f"{key}={_show(meta.get(key))}, this run has {key}={_show(want[key])}"
                )
        done_to = max((p.stop for p in list_parts(path)), default=0)
        if done_to > want["first_game"] + want["games"]:
            raise CardsimError(
                f"cannot resume {_quote(path)}: it already holds games up to {done_to - 1:,}, "
                f"beyond --games {want['games']:,}"
            )

    # -- writing ---------------------------------------------------------------------------------

    def _write_metadata(self, complete: bool) -> None:
        try:
            write_metadata(self.path, dataset_metadata(self.spec, complete))
        except OSError as exc:
            raise _os_problem("cannot write the metadata of", self.path, exc) from None

    def __call__(self, chunk: Chunk) -> None:
        spec = self.spec
        frame = chunk_frame(spec.ruleset, spec.n_players, spec.bot_names, chunk)
        try:
            with _interrupts_deferred():  # a Ctrl-C after the rename must find the part counted
                write_part(self.path, frame, dataset_metadata(spec))
                self.games += len(chunk)
        except OSError as exc:
            raise _os_problem("cannot write a part of", self.path, exc) from None

    @property
    def complete(self) -> bool:
        return self.games >= self.spec.n_games

    def close(self) -> Path:
        """Mark the dataset complete when every game is in a part; the dataset's path."""
        if self.complete:
            self._write_metadata(complete=True)
        return self.path

    def abort(self) -> Path | None:
        """After a failed run: the dataset keeps every finished part (nothing to undo)."""
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
                f"--out {_quote(self.path)} is not a directory on this cluster worker: results "
                "of a cluster run must be on storage every worker can write, at the same path"
            )
        meta = self.meta
        ruleset = registry.get(meta["ruleset"])
        frame = chunk_frame(ruleset, meta["n_players"], meta["bots"], chunk)
        try:
            write_part(self.path, frame, meta)
        except OSError as exc:
            raise _os_problem("cannot write a part of", self.path, exc) from None


def read_chunks(path: str | Path, spec) -> Iterator[Chunk]:
    """The games of a results dataset as raw chunks, one per part, in game order."""
    for part_frame in _iter_part_frames(Path(path)):
        if len(part_frame):
            yield frame_chunk(spec.ruleset, spec.n_players, spec.bot_names, part_frame)


def _iter_part_frames(path: Path) -> Iterator[pd.DataFrame]:
    meta = read_metadata(path)
    where = f"results dataset {_quote(path)}"
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


__all__ = [
    "DatasetSink",
    "Part",
    "iter_batches",
    "list_parts",
    "missing_ranges",
    "read_metadata",
    "read_results",
    "write_metadata",
    "write_part",
    "write_results",
]
