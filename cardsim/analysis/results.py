"""The results of one run held in memory: the per-game DataFrame and the run's metadata.

``Results`` is what ``cardsim.simulate`` returns and what every balance metric, chart and report
reads. It saves to and loads from the same Parquet layout as ``cardsim run --out`` (one row per
game, ``cardsim.core.outcomes``; metadata as JSON, ``cardsim.core.dataset``), so a report can be made
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

from cardsim.analysis.values import Estimate, mean_estimate
from cardsim.core.errors import CardsimError

if TYPE_CHECKING:
    from cardsim.core.outcomes import Chunk
    from cardsim.core.registry import Ruleset


@dataclass(repr=False)
class Results:
    """One run: ``frame`` (one row per game, wide by seat) and ``metadata`` (see the module).

    ``summary()`` gives the run's balance tables as DataFrames; ``print(results)`` and a
    notebook show a short view of them (win rates, first-player advantage, length, end reasons)
    instead of the whole frame. The headline figures are one attribute each, as ``Estimate``s
    (a value, its 95% interval and its unit): ``first_player_advantage``, ``seat_win_rates``,
    ``position_win_rates``, ``mean_length``; ``seats`` is the games as a long frame (one row per
    game and seat).
    """

    frame: pd.DataFrame
    metadata: dict = field(default_factory=dict)

    def summary(self) -> dict[str, pd.DataFrame]:
        """The balance tables of the run, as DataFrames (a win shared by k players counts 1/k
        everywhere; rates are fractions of 1):

        - ``win_rates``: by turn-order position then by seat (``seats.seat_win_rates``);
        - ``first_player_advantage``: one row: rate (the starter's win rate), fair_rate, edge
          (rate - fair_rate), its interval ci_low .. ci_high, games: all fractions of 1;
        - ``bots``: win rate by bot, per seat played (``seats.bot_win_rates``);
        - ``winners``: games with one winner, a shared win, no winner;
        - ``length``: game length in turns, rounds and the game's own units (mean, spread,
          quantiles);
        - ``end_reasons``: why games ended, the turn cap included.
        """
        from cardsim.analysis.stats import length, scores, seats
        from cardsim.analysis.stats.summary import table_advantage

        rates = seats.seat_win_rates(self.frame)
        return {
            "win_rates": rates,
            "first_player_advantage": pd.DataFrame([table_advantage(rates)]),
            "bots": seats.bot_win_rates(self.frame),
            "winners": scores.winners(self.frame),
            "length": length.length_summary(self.frame, self.ruleset),
            "end_reasons": scores.end_reasons(self.frame),
        }

    def _headline(self) -> str:
        meta = self.metadata
        title = self.ruleset.title if self.ruleset is not None else meta.get("ruleset", "?")
        from cardsim.analysis.stats import frame as F

        seating = [F.seat_bot(self.frame, s) for s in range(self.n_players)]
        if all(b is not None for b in seating):
            bots = f"{seating[0]} in every seat" if len(set(seating)) == 1 else ", ".join(seating)
        else:  # seatings rotate (a comparison's combined games)
            bots = ", ".join(meta.get("bots", [])) or "?"
        return f"{title}: {self.games:,} games, {self.n_players} players, seed {self.seed}, {bots}"

    def _view(self) -> tuple[pd.DataFrame, str, str]:
        """The short view: win rate by position (and bot) as numbers, and two lines of
        figures."""
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
                "wins": rows["wins"].astype(float),
                "win rate": rows["win_rate"].astype(float),
                "95% low": rows["ci_low"].astype(float),
                "95% high": rows["ci_high"].astype(float),
            }
        )
        adv = tables["first_player_advantage"].iloc[0]
        turns = tables["length"].iloc[0]
        ends = tables["end_reasons"]
        figures = (
            f"first-player advantage {100 * adv['edge']:+.2f} points over the fair "
            f"{100 * adv['fair_rate']:.2f}% (95% interval {100 * adv['ci_low']:+.2f} .. "
            f"{100 * adv['ci_high']:+.2f})"
        )
        rest = f"mean length {turns['mean']:.1f} turns; ends: " + ", ".join(
            f"{r.reason} {100 * r.share:.1f}%" for r in ends.itertuples() if r.games
        )
        return view, figures, rest

    def __repr__(self) -> str:
        if not len(self.frame) or "n_players" not in self.metadata:
            return f"Results({len(self.frame):,} games)"
        from cardsim.analysis.stats.summary import wins_text

        view, figures, rest = self._view()
        shown = view.assign(
            **{
                "wins": view["wins"].map(wins_text),
                "win rate": view["win rate"].map(lambda x: f"{100 * x:.2f}%"),
                "95% low": view["95% low"].map(lambda x: f"{100 * x:.2f}%"),
                "95% high": view["95% high"].map(lambda x: f"{100 * x:.2f}%"),
            }
        )
        table = shown.to_string(index=False, justify="left")
        return "\n".join([f"Results: {self._headline()}", table, figures, rest])

    def _repr_html_(self) -> str:
        import html

        if not len(self.frame) or "n_players" not in self.metadata:
            return f"<p>Results ({len(self.frame):,} games)</p>"
        view, figures, rest = self._view()
        return (
            f"<p><b>{html.escape(self._headline())}</b></p>"
            + styled(view).to_html()
            + f"<p>{html.escape(figures)}<br>{html.escape(rest)}</p>"
        )

    # -- the headline figures, one attribute each ---------------------------------------------

    @cached_property
    def _rates(self) -> pd.DataFrame:
        from cardsim.analysis.stats import seats

        return seats.seat_win_rates(self.frame)

    def _estimates(self, kind: str) -> tuple[Estimate, ...]:
        rows = self._rates[self._rates["kind"] == kind]
        what = "win rate of position" if kind == "position" else "win rate of seat"
        return tuple(
            Estimate(f"{what} {r.index}", r.win_rate, r.ci_low, r.ci_high, "fraction", r.games)
            for r in rows.itertuples()
        )

    @property
    def first_player_advantage(self) -> Estimate:
        """The starting player's win rate minus the fair rate (1/K of the games somebody won),
        a fraction of 1 with its 95% interval: ``results.first_player_advantage.points()`` in
        percentage points; ``.detected`` when the interval excludes 0."""
        first = self._rates.iloc[0]
        fair = float(first["fair_rate"])
        return Estimate(
            "first-player advantage",
            float(first["win_rate"]) - fair,
            float(first["ci_low"]) - fair,
            float(first["ci_high"]) - fair,
            "fraction",
            int(first["games"]),
            difference=True,
        )

    @property
    def seat_win_rates(self) -> tuple[Estimate, ...]:
        """Win rate of every physical seat (seat 0 first) with its 95% Wilson interval; a win
        shared by k counts 1/k, turn-cap games are left out."""
        return self._estimates("seat")

    @property
    def position_win_rates(self) -> tuple[Estimate, ...]:
        """Win rate of every turn-order position (0 starts) with its 95% Wilson interval."""
        return self._estimates("position")

    @property
    def mean_length(self) -> Estimate:
        """Mean game length in turns with its 95% interval (every game, the turn cap's too)."""
        return mean_estimate("mean length", self.frame["turns"].to_numpy(), "turns")

    @cached_property
    def seats(self) -> pd.DataFrame:
        """The games as a long (tidy) frame, one row per game and seat (``seats.long_frame``):
        game, seat, position (turn order, 0 starts), bot, win, win_share (1/k of a win shared
        by k), score, rank, then the ruleset's per-seat counters and turn_cap_hit."""
        from cardsim.analysis.stats.seats import long_frame

        return long_frame(self.frame, self.seat_counters)

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
        layout of ``cardsim run --out``: ``cardsim.core.dataset``); returns the path."""
        from cardsim.core import dataset

        meta = dict(self.metadata)
        meta["games_done"] = len(self.frame)
        if self.ruleset is not None:
            meta.setdefault("seat_counters", list(self.ruleset.seat_counters))
        return dataset.write_results(path, self.frame, meta)

    @classmethod
    def load(cls, path: str | Path, columns: list[str] | None = None) -> Results:
        """Results from a dataset written by ``save`` or ``cardsim run --out``, or a single
        results file of an earlier version (one-line ``CardsimError`` for a missing, damaged or
        non-cardsim path). Integer columns take the smallest type that holds their values
        (``dataset.read_results``); ``columns`` reads only those (the figures need ``game``,
        ``first_seat``, ``turns``, ``turn_cap_hit``, ``end_reason`` and every seat's ``win``
        and ``bot``)."""
        from cardsim.core import dataset

        frame, meta = dataset.read_results(path, columns)
        return cls(frame, meta)


def styled(frame: pd.DataFrame):
    """A pandas ``Styler`` of a view: numbers stay numbers (sortable, copyable), shown as
    percentages in the rate columns, with a thousands separator elsewhere; text left, numbers
    right."""
    rates = [c for c in frame.columns if c in ("win rate", "95% low", "95% high")]
    numbers = [c for c in frame.select_dtypes("number").columns if c not in rates]
    styler = frame.style.hide(axis="index")
    styler = styler.format("{:.2%}", subset=rates, na_rep="n/a")
    styler = styler.format("{:,.6g}", subset=numbers, na_rep="n/a")
    return styler.set_properties(subset=rates + numbers, **{"text-align": "right"})


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
            from cardsim.core.dataset import empty_chunk
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
