"""Every figure of the balance report, accumulated batch by batch: the report of a run of any size
in bounded memory.

``BalanceStats`` takes the games in batches (frames with the columns of
``cardsim.core.outcomes``, in game order) and keeps only counts: win counts by position, seat
and bot split by how many winners a game had, and ``IntHistogram``s of turns, scores, margins,
spreads and counters by group. Its tables are the same as those of ``seats``, ``length``,
``scores`` and ``counters`` computed on the whole frame (same columns, same numbers: integer
statistics exactly, win-share sums to the last bits of a float sum), whatever the batch size. Memory
grows with the range of values (turns, scores, counter values), not with the number of games.

Counter regressions are fitted, like ``counters.counter_effect``, on at most
``counters.MAX_REGRESSION_ROWS`` seat-games of whole games: the games with the smallest
``counters.game_hash``, which a stream keeps as it goes (the same games as in memory), and the
table says so in its note.

``BalanceStats.from_frame`` (a run in memory) and ``BalanceStats.from_batches`` (a results file
or dataset read batch by batch) feed the same report (``balance.report_from_stats``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from functools import cached_property

import numpy as np
import pandas as pd

from cardsim.analysis.stats import counters as C
from cardsim.analysis.stats import frame as F
from cardsim.analysis.stats.histogram import IntHistogram, describe, quantile
from cardsim.analysis.stats.seats import EqualSeatsTest, FirstPlayerAdvantage
from cardsim.analysis.stats.summary import wilson_interval
from cardsim.core.errors import CardsimError

BATCH_GAMES = 1 << 16


class BalanceStats:
    """Counts behind the balance report of one run (see the module docstring).

    ``metadata``: the run's metadata (``n_players``, ``bots``, ``end_reasons``, ...);
    ``counters``: the per-seat counters to study (``Results.seat_counters``).
    """

    def __init__(self, metadata: dict, counters: Iterable[str] = ()):
        self.metadata = metadata
        self.k = k = int(metadata["n_players"])
        self.counter_names = tuple(counters)
        self.bot_names = list(metadata.get("bots", []))
        self.end_reason_names = list(metadata.get("end_reasons", []))
        self.games = 0
        self.finished = 0
        # [position or seat, c]: finished games where it won with c winners (c = 0: did not win)
        self.by_position = np.zeros((k, k + 1), np.int64)
        self.by_seat = np.zeros((k, k + 1), np.int64)
        self.by_bot = np.zeros((len(self.bot_names), k + 1), np.int64)
        self.bot_order: list[int] = []  # bots in order of first appearance in a finished game
        self.seat_bots = np.zeros((k, len(self.bot_names)), bool)  # bots seen in each seat
        self.winner_counts = np.zeros(k + 1, np.int64)  # finished games by number of winners
        self.end_reasons = np.zeros(len(self.end_reason_names), np.int64)
        # turns by group: 0..k-1 the only winner's position, k shared, k+1 nobody, k+2 turn cap
        self.turns = IntHistogram(k + 3)
        # the game's own length units (``Ruleset.length_counters``), where the run has them
        self.length_labels = dict(getattr(self.ruleset, "length_counters", ()))
        self.length_counters = {name: IntHistogram() for name in self.length_labels}
        self.scores = IntHistogram(k)  # by position, every game
        self.margins = IntHistogram(k + 1)  # by the only winner's position; k: shared wins
        self.spreads = IntHistogram()
        self.counters = {name: IntHistogram(k + 1) for name in self.counter_names}
        self._sample = C.GameSample(C.MAX_REGRESSION_ROWS // max(k, 1))

    # -- feeding ---------------------------------------------------------------------------------

    @classmethod
    def from_frame(
        cls, frame: pd.DataFrame, metadata: dict, counters=(), batch: int = BATCH_GAMES
    ) -> BalanceStats:
        """The counts of a frame of games (taken ``batch`` games at a time)."""
        stats = cls(metadata, counters)
        for start in range(0, len(frame), batch):
            stats.add(frame.iloc[start : start + batch])
        return stats

    @classmethod
    def from_batches(
        cls,
        batches: Iterable[pd.DataFrame],
        metadata: dict,
        counters=(),
        progress: Callable[[int], None] | None = None,
    ) -> BalanceStats:
        """The counts of frames of games read one at a time (``progress(n)`` after each)."""
        stats = cls(metadata, counters)
        for batch in batches:
            stats.add(batch)
            if progress is not None:
                progress(len(batch))
        return stats

    def add(self, frame: pd.DataFrame) -> None:
        """Count a batch of games (consecutive games of the run, in order)."""
        k = self.k
        if F.seat_count(frame) != k:
            raise CardsimError(f"a batch of {F.seat_count(frame)} players in a {k}-player run")
        n = len(frame)
        if n == 0:
            return
        wins = F.wins(frame)
        winners = wins.sum(axis=1)
        cap = frame["turn_cap_hit"].to_numpy(bool)
        done = ~cap
        # c per seat: the number of winners if the seat won, else 0
        seat_c = np.where(wins, winners[:, None], 0)
        pos_c = F.by_position(frame, seat_c)
        self._count_rows(self.by_seat, seat_c[done])
        self._count_rows(self.by_position, pos_c[done])
        self._count_bots(frame, seat_c, done)
        self.winner_counts += np.bincount(winners[done], minlength=k + 1)
        codes = frame["end_reason"]
        codes = codes.cat.codes if hasattr(codes, "cat") else codes
        self.end_reasons += np.bincount(
            np.asarray(codes, np.int64), minlength=len(self.end_reasons)
        )[: len(self.end_reasons)]
        self._count_lengths(frame, pos_c, winners, cap)
        self._count_scores(frame, wins, winners, done)
        self._count_counters(frame, seat_c, done)
        self._sample.add(frame[done], self.counter_names)
        self.games += n
        self.finished += int(done.sum())

    @staticmethod
    def _count_rows(table: np.ndarray, c: np.ndarray) -> None:
        """``table[i, c] += 1`` for every row's column i."""
        width = table.shape[1]
        index = c + width * np.arange(c.shape[1])[None, :]
        table += np.bincount(index.ravel(), minlength=table.size).reshape(table.shape)

    def _bot_codes(self, frame: pd.DataFrame) -> np.ndarray:
        cols = []
        for s in range(self.k):
            col = frame[f"bot_{s}"]
            if not (hasattr(col, "cat") and list(col.cat.categories) == self.bot_names):
                col = pd.Categorical(col.astype(str), categories=self.bot_names)
                codes = np.asarray(col.codes)
            else:
                codes = np.asarray(col.cat.codes)
            cols.append(codes)
        return np.column_stack(cols).astype(np.int64).reshape(len(frame), self.k)

    def _count_bots(self, frame: pd.DataFrame, seat_c: np.ndarray, done: np.ndarray) -> None:
        bots = self._bot_codes(frame)
        if (bots < 0).any():
            raise CardsimError("a game seats a bot that the run's metadata does not name")
        for s in range(self.k):
            self.seat_bots[s, np.unique(bots[:, s])] = True
        played = bots[done]
        width = self.k + 1
        index = played.ravel() * width + seat_c[done].ravel()
        self.by_bot += np.bincount(index, minlength=self.by_bot.size).reshape(self.by_bot.shape)
        seen, first = np.unique(played.ravel(), return_index=True)
        for code in seen[np.argsort(first)]:
            if int(code) not in self.bot_order:
                self.bot_order.append(int(code))

    def _count_lengths(self, frame, pos_c, winners, cap) -> None:
        k = self.k
        turns = frame["turns"].to_numpy(np.int64)
        only = np.argmax(pos_c == 1, axis=1)  # position of the only winner (when there is one)
        group = np.where(winners == 1, only, np.where(winners > 1, k, k + 1))
        self.turns.add(turns, np.where(cap, k + 2, group))
        for name, histogram in self.length_counters.items():
            if name in frame:
                histogram.add(frame[name].to_numpy(np.int64))

    def _count_scores(self, frame, wins, winners, done) -> None:
        k = self.k
        scores = F.seat_matrix(frame, "score", np.int64)
        self.scores.add(F.by_position(frame, scores).ravel(), np.tile(np.arange(k), len(frame)))
        self.spreads.add(scores.max(axis=1) - scores.min(axis=1))
        low = np.iinfo(np.int64).min
        best_winner = np.where(wins, scores, low).max(axis=1)
        best_other = np.where(~wins, scores, low).max(axis=1)
        has_margin = done & (winners > 0) & (winners < k)
        only = np.argmax(F.by_position(frame, wins), axis=1)
        group = np.where(winners == 1, only, k)
        self.margins.add((best_winner - best_other)[has_margin], group[has_margin])

    def _count_counters(self, frame, seat_c, done) -> None:
        if not self.counter_names:
            return
        games = frame[done]
        c = seat_c[done].ravel()
        for name in self.counter_names:
            self.counters[name].add(F.seat_matrix(games, name, np.int64).ravel(), c)

    # -- the tables of seats -----------------------------------------------------------------------

    @property
    def decided(self) -> int:
        return int(self.winner_counts[1:].sum())

    @property
    def fair_rate(self) -> float:
        """``seats.fair_rate``: the share of finished games with a winner, over K."""
        if not self.finished:
            return math.nan
        return (self.decided / self.finished) / self.k

    def _shares(self, table: np.ndarray) -> np.ndarray:
        """Win shares per row: a win with c winners counts 1/c."""
        return (table[:, 1:] / np.arange(1, self.k + 1)[None, :]).sum(axis=1)

    def seat_bot(self, seat: int) -> str | None:
        """``frame.seat_bot``: the bot in ``seat`` if it is the same in every game."""
        seen = np.flatnonzero(self.seat_bots[seat])
        return self.bot_names[seen[0]] if len(seen) == 1 else None

    def _rate_rows(self, kind: str, labels: list[str], table: np.ndarray) -> list[dict]:
        n = self.finished
        fair = self.fair_rate
        rows = []
        for i, (label, wins) in enumerate(zip(labels, self._shares(table), strict=True)):
            lo, hi = wilson_interval(float(wins), n)
            outright = int(table[i, 1])
            rows.append(
                {
                    "kind": kind,
                    "index": i,
                    "label": label,
                    "games": n,
                    "wins": float(wins),
                    "outright_wins": outright,
                    "shared_wins": int(table[i, 2:].sum()),
                    "win_rate": wins / n if n else np.nan,
                    "ci_low": lo,
                    "ci_high": hi,
                    "fair_rate": fair,
                }
            )
        return rows

    def seat_win_rates(self) -> pd.DataFrame:
        """``seats.seat_win_rates``."""
        k = self.k
        rows = self._rate_rows(
            "position", [F.position_label(p) for p in range(k)], self.by_position
        )
        labels = []
        for s in range(k):
            bot = self.seat_bot(s)
            labels.append(f"seat {s}" + (f" ({bot})" if bot is not None else ""))
        rows += self._rate_rows("seat", labels, self.by_seat)
        table = pd.DataFrame(rows)
        table["vs_fair"] = table["win_rate"] - table["fair_rate"]
        return table

    def first_player_advantage(self) -> FirstPlayerAdvantage:
        """``seats.first_player_advantage``."""
        row = self.seat_win_rates().iloc[0]
        fair = float(row["fair_rate"])
        return FirstPlayerAdvantage(
            rate=float(row["win_rate"]),
            fair=fair,
            points=100 * (float(row["win_rate"]) - fair),
            low=100 * (float(row["ci_low"]) - fair),
            high=100 * (float(row["ci_high"]) - fair),
            games=int(row["games"]),
        )

    def seats_equal_test(self, by: str = "position") -> EqualSeatsTest:
        """``seats.seats_equal_test``."""
        from scipy import stats

        if by not in ("position", "seat"):
            raise ValueError(f"by must be 'position' or 'seat', not {by!r}")
        k = self.k
        if self.decided == 0:
            return EqualSeatsTest(by, float("nan"), k - 1, float("nan"), 0)
        observed = self._shares(self.by_position if by == "position" else self.by_seat)
        result = stats.chisquare(observed, np.full(k, observed.sum() / k))
        return EqualSeatsTest(
            by, float(result.statistic), k - 1, float(result.pvalue), self.decided
        )

    def bot_win_rates(self) -> pd.DataFrame:
        """``seats.bot_win_rates``."""
        fair = self.fair_rate
        shares = self._shares(self.by_bot)
        rows = []
        for code in self.bot_order:
            n = int(self.by_bot[code].sum())
            wins = float(shares[code])
            lo, hi = wilson_interval(wins, n)
            rows.append(
                {
                    "bot": self.bot_names[code],
                    "seat_games": n,
                    "wins": wins,
                    "outright_wins": int(self.by_bot[code, 1]),
                    "win_rate": wins / n,
                    "ci_low": lo,
                    "ci_high": hi,
                    "fair_rate": fair,
                }
            )
        cols = ["bot", "seat_games", "wins", "outright_wins", "win_rate", "ci_low", "ci_high"]
        return pd.DataFrame(rows, columns=[*cols, "fair_rate"])

    def winners(self) -> pd.DataFrame:
        """``scores.winners``."""
        n = self.games
        counts = self.winner_counts
        rows = [
            ("one winner", int(counts[1])),
            ("shared win (2+ winners)", int(counts[2:].sum())),
            ("no winner", int(counts[0])),
            ("ended by the turn cap", n - self.finished),
        ]
        table = pd.DataFrame(rows, columns=["outcome", "games"])
        table["share"] = table["games"] / n if n else np.nan
        return table

    # -- length ------------------------------------------------------------------------------------

    @property
    def turn_cap_games(self) -> int:
        return self.games - self.finished

    def length_summary(self) -> pd.DataFrame:
        """``length.length_summary``."""
        values, counts = self.turns.column()
        k = self.k
        rows = {
            "turns": describe(values, counts),
            f"{self.table_rounds} (turns / {k})": describe(values, counts, scale=k),
        }
        for name, histogram in self.length_counters.items():
            if histogram.counts.sum():
                rows[self.length_labels[name]] = describe(*histogram.column())
        table = pd.DataFrame(rows).T
        table.insert(0, "games", self.games)
        return table

    def length_histogram(self) -> pd.DataFrame:
        """``length.length_histogram``."""
        values, counts = self.turns.column()
        capped_all = self.turns.counts[:, self.k + 2]
        capped = capped_all[self.turns.counts.sum(axis=1) > 0]
        return pd.DataFrame(
            {
                "turns": values,
                "games": counts,
                "share": counts / max(self.games, 1),
                "turn_cap_games": capped,
            }
        )

    def length_by_winner(self) -> pd.DataFrame:
        """``length.length_by_winner``."""
        k = self.k
        labels = [F.position_label(p) for p in range(k)]
        labels += ["shared win", "no winner", "turn cap"]
        rows = []
        for group, label in enumerate(labels):
            values, counts = self.turns.column(group)
            d = describe(values, counts)
            rows.append(
                {
                    "winner": label,
                    "games": int(counts.sum()),
                    "mean": d["mean"],
                    "median": d["median"],
                    "p05": d["p05"],
                    "p95": d["p95"],
                }
            )
        table = pd.DataFrame(rows)
        keep = table["games"] > 0
        keep[:k] = True
        return table[keep].reset_index(drop=True)

    # -- scores ------------------------------------------------------------------------------------

    def score_distribution(self) -> pd.DataFrame:
        """``scores.score_distribution(frame, "position")``."""
        rows = []
        for p in range(self.k):
            values, counts = self.scores.column(p)
            rows.append(
                {"label": F.position_label(p), "games": self.games, **describe(values, counts)}
            )
        return pd.DataFrame(rows)

    def margin_by_winner(self) -> pd.DataFrame:
        """``scores.margin_by_winner``."""
        k = self.k
        groups = [(F.position_label(p), p) for p in range(k)]
        groups.append(("all decided games", None))
        rows = []
        for label, column in groups:
            values, counts = self.margins.column(column)
            d = describe(values, counts)
            n = int(counts.sum())
            ties = float(counts[values <= 0].sum() / n) if n else np.nan
            rows.append(
                {
                    "winner": label,
                    "games": n,
                    "mean": d["mean"],
                    "median": d["median"],
                    "p05": d["p05"],
                    "p95": d["p95"],
                    "score_ties": ties,
                }
            )
        return pd.DataFrame(rows)

    def spread_summary(self) -> dict:
        """``scores.spread_summary``."""
        return describe(*self.spreads.column())

    def end_reason_table(self) -> pd.DataFrame:
        """``scores.end_reasons``."""
        n = self.games
        return pd.DataFrame(
            {
                "reason": list(self.end_reason_names),
                "games": self.end_reasons.astype(np.int64),
                "share": self.end_reasons.astype(np.float64) / n if n else np.nan,
            }
        )

    # -- counters ----------------------------------------------------------------------------------

    def counter_win_rates(self, name: str, max_bins: int = C.MAX_BINS) -> pd.DataFrame:
        """``counters.counter_win_rates``."""
        hist = self.counters[name]
        present = hist.counts.sum(axis=1) > 0
        values = hist.values[present]
        table = hist.counts[present]
        if not len(values):
            return pd.DataFrame([], columns=C.RATE_COLUMNS)
        counts = table.sum(axis=1)
        shares = (table[:, 1:] / np.arange(1, self.k + 1)[None, :]).sum(axis=1)
        if len(values) <= max_bins:
            index = np.arange(len(values))
        else:
            edges = np.unique(quantile(values, counts, np.linspace(0, 1, max_bins + 1)))
            index = np.clip(np.searchsorted(edges, values, side="right") - 1, 0, len(edges) - 2)
            index = np.searchsorted(np.unique(index), index)
        rows = []
        for i in range(int(index.max()) + 1):
            mine = index == i
            lo, hi = values[mine].min(), values[mine].max()
            n, wins = int(counts[mine].sum()), float(shares[mine].sum())
            ci = wilson_interval(wins, n)
            rows.append(
                {
                    "counter": name,
                    "value": f"{lo:g}" if lo == hi else f"{lo:g}-{hi:g}",
                    "low": lo,
                    "high": hi,
                    "seat_games": n,
                    "wins": wins,
                    "win_rate": wins / n,
                    "ci_low": ci[0],
                    "ci_high": ci[1],
                }
            )
        return pd.DataFrame(rows, columns=C.RATE_COLUMNS)

    def counter_effect(self, name: str) -> dict:
        """``counters.counter_effect``, its regression on the sampled games."""
        hist = self.counters[name]
        values, counts = hist.column()
        table = hist.counts[hist.counts.sum(axis=1) > 0]
        won = table[:, 1:].sum(axis=1) > 0  # some seat-game with this value won
        lost = (table[:, 0] + table[:, 2:].sum(axis=1)) > 0  # ... or had a share below 1
        d = describe(values, counts)
        n = int(counts.sum())
        summary = {
            "seat_games": n,
            "mean": d["mean"],
            "sd": d["sd"],
            "values": int(len(values)),
        }
        separates = (
            not won.any()
            or not lost.any()
            or values[lost].max() <= values[won].min()
            or values[won].max() <= values[lost].min()
        )
        return C.effect_row(name, summary, separates, self.regression_rows(), n)

    def regression_rows(self) -> pd.DataFrame:
        """The sampled seat-games the counter regressions are fitted on."""
        return self._sample.rows

    def counter_impact(self) -> tuple[pd.DataFrame, pd.DataFrame]:
        """``counters.counter_impact`` of every counter."""
        effects = [self.counter_effect(name) for name in self.counter_names]
        rates = [self.counter_win_rates(name) for name in self.counter_names]
        table = C.order_effects(pd.DataFrame(effects))
        if not rates:
            return table, pd.DataFrame(columns=C.RATE_COLUMNS)
        return table, pd.concat(rates, ignore_index=True)

    @property
    def table_rounds(self) -> str:
        """What turns / players is called in this game (``Ruleset.table_rounds``)."""
        return getattr(self.ruleset, "table_rounds", "rounds")

    @cached_property
    def ruleset(self):
        """The registered ruleset of the run, or ``None`` (as ``Results.ruleset``)."""
        from cardsim.core import registry

        try:
            return registry.get(self.metadata["ruleset"])
        except (CardsimError, KeyError, ImportError):
            return None
