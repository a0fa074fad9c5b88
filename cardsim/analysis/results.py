"""The results of one run held in memory: the per-game DataFrame and the run's metadata.

``Results`` is what ``cardsim.simulate`` returns and what every balance metric, chart and report
reads. It saves to and loads from the same Parquet layout as ``cardsim run --out`` (one row per
game, ``cardsim.core.outcomes``; metadata as JSON, ``cardsim.core.io``), so a report can be made
from either. ``FrameSink`` is the runner sink that collects a run's chunks as DataFrames.

Metadata keys: everything of ``RunSpec.metadata()`` (ruleset, rules, n_players, bots, bot_params,
bot_param_names, seating, seed, first_game, games, version), plus ``end_reasons``,
``games_done``, ``complete``, and, for a run made in this process, ``games_per_second`` and ``threads`` (a run's ``--out`` file
does not store how fast it went, so those are absent from results loaded from one).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd

from cardsim.core.errors import CardsimError

if TYPE_CHECKING:
    from cardsim.core.outcomes import Chunk
    from cardsim.core.registry import Ruleset


@dataclass(repr=False)
class Results:
    """One run: ``frame`` (one row per game, wide by seat) and ``metadata`` (see the module).

    ``summary()`` gives the run's balance tables as DataFrames; ``print(results)`` and a
    notebook show a short view of them (win rates, first-player advantage, length, end reasons)
    instead of the whole frame.
    """

    frame: pd.DataFrame
    metadata: dict = field(default_factory=dict)

    def summary(self) -> dict[str, pd.DataFrame]:
        """The balance tables of the run, as DataFrames (a win shared by k players counts 1/k
        everywhere; rates are fractions of 1):

        - ``win_rates``: by turn-order position then by seat (``seats.seat_win_rates``);
        - ``first_player_advantage``: one row: rate, fair, points, low, high, games;
        - ``bots``: win rate by bot, per seat played (``seats.bot_win_rates``);
        - ``winners``: games with one winner, a shared win, no winner;
        - ``length``: game length in turns, rounds and the game's own units (mean, spread,
          quantiles);
        - ``end_reasons``: why games ended, the turn cap included.
        """
        from dataclasses import asdict

        from cardsim.analysis import length, scores, seats

        return {
            "win_rates": seats.seat_win_rates(self.frame),
            "first_player_advantage": pd.DataFrame(
                [asdict(seats.first_player_advantage(self.frame))]
            ),
            "bots": seats.bot_win_rates(self.frame),
            "winners": scores.winners(self.frame),
            "length": length.length_summary(self.frame, self.ruleset),
            "end_reasons": scores.end_reasons(self.frame),
        }

    def _headline(self) -> str:
        meta = self.metadata
        title = self.ruleset.title if self.ruleset is not None else meta.get("ruleset", "?")
        from cardsim.analysis import frame as F

        seating = [F.seat_bot(self.frame, s) for s in range(self.n_players)]
        if all(b is not None for b in seating):
            bots = f"{seating[0]} in every seat" if len(set(seating)) == 1 else ", ".join(seating)
        else:  # seatings rotate (a comparison's combined games)
            bots = ", ".join(meta.get("bots", [])) or "?"
        return f"{title}: {self.games:,} games, {self.n_players} players, seed {self.seed}, {bots}"

    def _view(self) -> tuple[pd.DataFrame, str, str]:
        """The short view: win rate by position (and bot), and two lines of figures."""
        from cardsim.analysis.summary import wins_text

        tables = self.summary()
        rates = tables["win_rates"]
        rows = rates[rates["kind"] == "position"]
        bots = tables["bots"]
        if len(bots) > 1:
            rows = pd.concat(
                [rows, bots.rename(columns={"bot": "label", "seat_games": "games"})],
                ignore_index=True,
            )
        view = pd.DataFrame(
            {
                "": rows["label"].astype(str),
                "wins": rows["wins"].map(wins_text),
                "win rate": rows["win_rate"].map(lambda x: f"{100 * x:.2f}%"),
                "95% interval": [
                    f"[{100 * a:.2f}%, {100 * b:.2f}%]"
                    for a, b in zip(rows["ci_low"], rows["ci_high"], strict=True)
                ],
            }
        )
        adv = tables["first_player_advantage"].iloc[0]
        turns = tables["length"].iloc[0]
        ends = tables["end_reasons"]
        figures = (
            f"first-player advantage {adv['points']:+.2f} points over the fair "
            f"{100 * adv['fair']:.2f}% (95% interval {adv['low']:+.2f} .. {adv['high']:+.2f})"
        )
        rest = f"mean length {turns['mean']:.1f} turns; ends: " + ", ".join(
            f"{r.reason} {100 * r.share:.1f}%" for r in ends.itertuples() if r.games
        )
        return view, figures, rest

    def __repr__(self) -> str:
        if not len(self.frame) or "n_players" not in self.metadata:
            return f"Results({len(self.frame):,} games)"
        view, figures, rest = self._view()
        table = view.to_string(index=False, justify="left")
        return "\n".join([f"Results: {self._headline()}", table, figures, rest])

    def _repr_html_(self) -> str:
        import html

        if not len(self.frame) or "n_players" not in self.metadata:
            return f"<p>Results ({len(self.frame):,} games)</p>"
        view, figures, rest = self._view()
        return (
            f"<p><b>{html.escape(self._headline())}</b></p>"
            + view.to_html(index=False, escape=True)
            + f"<p>{html.escape(figures)}<br>{html.escape(rest)}</p>"
        )

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
        # A speed means little without the machine's load: reports print it beside the figure.
        meta["load_average"] = round(os.getloadavg()[0], 2)
    return meta
