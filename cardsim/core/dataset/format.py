"""The results dataset's format contract: file names, metadata keys, the run key of a part, the
columns every results table has, and the checks that a metadata record is cardsim's.

The layout itself is described in the package docstring (``cardsim.core.dataset``); the writer
(``write.py``) and the reader (``read.py``) both follow what is defined here and nothing else.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from cardsim.core.errors import CardsimError

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


def json_ready(value: Any) -> Any:
    """Tuples to lists, as JSON would round-trip them (so metadata compares equal)."""
    return json.loads(json.dumps(value))


def show(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def quote(path: Path | str) -> str:
    return repr(str(path))


def run_key(meta: dict) -> str:
    """A short hash of what makes two runs the same games (``RESUME_KEYS`` of the metadata)."""
    canonical = json.dumps({k: meta.get(k) for k in RESUME_KEYS}, sort_keys=True)
    return hashlib.sha256(canonical.encode()).hexdigest()[:16]


def part_name(first: int, stop: int) -> str:
    return f"part-{first:012d}-{stop:012d}.parquet"


def os_problem(what: str, path: Path | str, exc: OSError) -> CardsimError:
    reason = exc.strerror or type(exc).__name__
    return CardsimError(f"{what} {quote(path)}: {reason}")


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


def check_columns(names: Sequence[str], meta: dict, where: str) -> None:
    missing = [c for c in required_columns(meta) if c not in names]
    if missing:
        shown = ", ".join(missing[:4]) + (", ..." if len(missing) > 4 else "")
        raise CardsimError(f"{where}: not a cardsim results table (missing columns {shown})")


def dataset_metadata(spec, complete: bool = False) -> dict:
    """The ``_cardsim.json`` of a run (see the module docstring)."""
    meta = spec.metadata()
    meta["end_reasons"] = list(spec.ruleset.end_reasons)
    meta["seat_counters"] = list(spec.ruleset.seat_counters)
    meta["format"] = FORMAT
    meta["format_version"] = FORMAT_VERSION
    meta["complete"] = complete
    return json_ready(meta)


@dataclass(frozen=True)
class Part:
    """One part file: games ``[first, stop)``."""

    first: int
    stop: int
    path: Path

    @property
    def games(self) -> int:
        return self.stop - self.first


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
