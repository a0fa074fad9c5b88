"""The results of one run held in memory: the per-game DataFrame and the run's metadata.

``Results`` is what ``cardsim.simulate`` returns and what every balance metric, chart and report
reads. It saves to and loads from the same Parquet layout as ``cardsim run --out`` (one row per
game, ``cardsim.core.outcomes``; metadata as JSON, ``cardsim.core.io``), so a report can be made
from either. ``FrameSink`` is the runner sink that collects a run's chunks as DataFrames.

Metadata keys: everything of ``RunSpec.metadata()`` (ruleset, rules, n_players, bots, bot_params,
seating, seed, first_game, games, version), plus ``end_reasons``, ``games_done``, ``complete``,
and, for a run made in this process, ``games_per_second`` and ``threads`` (a run's ``--out`` file
does not store how fast it went, so those are absent from results loaded from one).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd

from cardsim.core.errors import CardsimError

if TYPE_CHECKING:
    from cardsim.core.outcomes import Chunk
    from cardsim.core.registry import Ruleset


@dataclass
class Results:
    """One run: ``frame`` (one row per game, wide by seat) and ``metadata`` (see the module)."""

    frame: pd.DataFrame
    metadata: dict = field(default_factory=dict)

    @property
    def n_players(self) -> int:
        return int(self.metadata["n_players"])

    @property
    def games(self) -> int:
        return len(self.frame)

    @property
    def seed(self) -> int:
        return int(self.metadata.get("seed", 0))

    @cached_property
    def ruleset(self) -> Ruleset | None:
        """The registered ruleset the run was made with (``None`` if it is not registered here:
        a results file from a ruleset defined elsewhere still reports, with fewer labels)."""
        from cardsim.core import registry

        try:
            return registry.get(self.metadata["ruleset"])
        except (CardsimError, KeyError, ImportError):
            return None

    @property
    def seat_counters(self) -> tuple[str, ...]:
        """Names of the per-seat counters the ruleset records (``<name>_<seat>`` columns)."""
        if self.ruleset is not None:
            names = self.ruleset.seat_counters
        else:
            names = tuple(self.metadata.get("seat_counters", ()))
        return tuple(n for n in names if f"{n}_0" in self.frame.columns)

    def save(self, path: str | Path) -> Path:
        """Write the games and metadata as a results dataset at ``path`` (a new directory, the
        layout of ``cardsim run --out``: ``cardsim.core.io``); returns the path."""
        from cardsim.core import io

        meta = dict(self.metadata)
        meta["games_done"] = len(self.frame)
        if self.ruleset is not None:
            meta.setdefault("seat_counters", list(self.ruleset.seat_counters))
        return io.write_results(path, self.frame, meta)

    @classmethod
    def load(cls, path: str | Path) -> Results:
        """Results from a dataset written by ``save`` or ``cardsim run --out``, or a single
        results file of an earlier version (one-line ``CardsimError`` for a missing, damaged or
        non-cardsim path)."""
        from cardsim.core import io

        frame, meta = io.read_results(path)
        return cls(frame, meta)


class FrameSink:
    """Runner sink keeping every chunk as a DataFrame (``frame()`` joins them).

    Memory grows with the run: about 4 bytes per column per game (a two-player Fruit Picking
    game is ~150 bytes), so keep runs you want in memory to a few million games, or write them
    with ``--out`` and read them back.
    """

    def __init__(self, spec):
        self.spec = spec
        self._frames: list[pd.DataFrame] = []

    def __call__(self, chunk: Chunk) -> None:
        from cardsim.core.outcomes import chunk_frame

        spec = self.spec
        self._frames.append(chunk_frame(spec.ruleset, spec.n_players, spec.bot_names, chunk))

    @property
    def games(self) -> int:
        return sum(len(f) for f in self._frames)

    def frame(self) -> pd.DataFrame:
        """All games collected so far, in order, as one frame (the chunks are released)."""
        if not self._frames:
            from cardsim.core.io import empty_chunk
            from cardsim.core.outcomes import chunk_frame

            spec = self.spec
            empty = empty_chunk(spec.ruleset, 0, spec.n_players)
            return chunk_frame(spec.ruleset, spec.n_players, spec.bot_names, empty)
        if len(self._frames) > 1:
            # a resumed run may fill its gaps out of order: the frame is in game order
            self._frames.sort(key=lambda f: int(f["game"].iloc[0]) if len(f) else -1)
            self._frames = [pd.concat(self._frames, ignore_index=True)]
        return self._frames[0]


def run_metadata(spec, stats=None, games_done: int | None = None) -> dict:
    """The metadata of a run (``RunSpec.metadata()`` plus what ``Results`` adds)."""
    meta = spec.metadata()
    meta["end_reasons"] = list(spec.ruleset.end_reasons)
    meta["seat_counters"] = list(spec.ruleset.seat_counters)
    done = spec.n_games if games_done is None else games_done
    meta["games_done"] = done
    meta["complete"] = done >= spec.n_games
    if stats is not None and stats.games > 0 and stats.seconds > 0:
        meta["games_per_second"] = stats.games_per_second
        meta["threads"] = stats.threads
    return meta
