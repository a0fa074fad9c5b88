"""Paired differences between two runs played on the same seeds (two rule sets, or two bots).

Game ``i`` of run a and game ``i`` of run b share their random streams, so what they have in
common (the deal, the starting player) cancels in the per-game difference. The interval of the
mean difference is then narrower than the unpaired one: it only has to cover the part of the
games that the change actually moved.

Per metric, ``paired_diff`` compares per-game values over the games present in both runs:

- ``win rate <position>`` / ``win rate seat <s>``: the win share of that position or seat
  (shared wins split, ``frame.win_shares``), over the games neither run ended by the turn cap;
- ``first-player advantage``: the starter's win share minus the fair share (1/K of a decided
  game), over the same games;
- ``game length (turns)``: turns, over all games;
- the game's own length units (``Ruleset.length_counters``, e.g. Piña Pirata's ``rounds played
  (R10)``), over all games, under their labels;
- ``score spread``: highest minus lowest score of a game;
- ``winning margin``: the best winner's score minus the best score among the others (games with
  a winner and at least one loser).

Columns: metric (the label above), key (its snake_case name for scripts: ``win_rate_position_0``,
``win_rate_seat_1``, ``first_player_edge``, ``length_turns``, ``length_<counter>``,
``score_spread``, ``winning_margin``), games, a, b, diff (b - a), ci_low, ci_high (95% paired t interval of the mean
difference), p_value (paired t test) and p_holm, the p-value Holm-adjusted over all the metrics of
the table: with ten metrics, testing each at 5% would raise a false alarm in about every other
comparison of two identical rule sets, so conclusions (``cardsim diff``'s verdicts) use p_holm.
When every game differs by the same amount (0 for two identical runs) the interval is that one
value. ``cardsim diff`` prints exactly this table for the same runs.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from cardsim.analysis.stats import frame as F
from cardsim.analysis.stats.summary import CONFIDENCE
from cardsim.core.errors import CardsimError

COLUMNS = ["metric", "key", "games", "a", "b", "diff", "ci_low", "ci_high", "p_value", "p_holm"]


def score_spread(frame: pd.DataFrame) -> np.ndarray:
    """Per game: highest minus lowest score."""
    scores = F.seat_matrix(frame, "score", np.float64)
    return scores.max(axis=1) - scores.min(axis=1)


def winning_margin(frame: pd.DataFrame) -> np.ndarray:
    """Per game: best winner's score minus best other score (NaN if nobody or everybody won)."""
    scores = F.seat_matrix(frame, "score", np.float64)
    won = F.wins(frame)
    best_winner = np.where(won, scores, -np.inf).max(axis=1)
    best_other = np.where(~won, scores, -np.inf).max(axis=1)
    margin = best_winner - best_other
    return np.where(np.isfinite(margin), margin, np.nan)


def starter_edge(frame: pd.DataFrame) -> np.ndarray:
    """Per game: the starting player's win share minus 1/K if the game was decided (else 0)."""
    share = F.by_position(frame, F.win_shares(frame))
    decided = share.sum(axis=1) > 0
    return share[:, 0] - decided / F.seat_count(frame)


def _empty_row(metric: str, key: str, n: int) -> dict:
    row = {"metric": metric, "key": key, "games": n, "a": np.nan, "b": np.nan, "diff": np.nan}
    row.update(ci_low=np.nan, ci_high=np.nan, p_value=np.nan)
    return row


def paired_row(metric: str, a: np.ndarray, b: np.ndarray, key: str = "") -> dict:
    """Mean of a and b and the paired interval of the mean of b - a (NaN pairs dropped)."""
    keep = ~(np.isnan(a) | np.isnan(b))
    a, b = a[keep], b[keep]
    n = len(a)
    row = _empty_row(metric, key, n)
    if n == 0:
        return row
    d = b - a
    row.update(a=float(a.mean()), b=float(b.mean()), diff=float(d.mean()))
    if n > 1 and np.any(d != d[0]):
        test = stats.ttest_rel(b, a)
        ci = test.confidence_interval(CONFIDENCE)
        row.update(ci_low=float(ci.low), ci_high=float(ci.high), p_value=float(test.pvalue))
    else:  # every game moved by the same amount (0 for identical runs): no doubt about it
        row.update(ci_low=float(d[0]), ci_high=float(d[0]), p_value=1.0 if d[0] == 0 else 0.0)
    return row


def _aligned(a, b) -> tuple[pd.DataFrame, pd.DataFrame]:
    fa, fb = getattr(a, "frame", a), getattr(b, "frame", b)
    if F.seat_count(fa) != F.seat_count(fb):
        raise CardsimError(f"cannot pair runs of {F.seat_count(fa)} and {F.seat_count(fb)} players")
    common = np.intersect1d(fa["game"].to_numpy(), fb["game"].to_numpy())
    if len(common) == 0:
        raise CardsimError("the two runs have no game index in common: nothing to pair")
    fa = fa.set_index("game", drop=False).loc[common].reset_index(drop=True)
    fb = fb.set_index("game", drop=False).loc[common].reset_index(drop=True)
    return fa, fb


def metric_values(
    fa: pd.DataFrame, fb: pd.DataFrame, length_counters=()
) -> list[tuple[str, str, np.ndarray, np.ndarray]]:
    """``(metric, key, a, b)`` per metric of the table, per game of two aligned frames (game i of
    ``fa`` is game i of ``fb``); win metrics over the games neither run ended by the turn cap.
    ``length_counters``: the ruleset's (name, label) pairs of game counters of length."""
    k = F.seat_count(fa)
    out = []
    done = ~(fa["turn_cap_hit"].to_numpy(bool) | fb["turn_cap_hit"].to_numpy(bool))
    wa, wb = fa[done], fb[done]
    share_a, share_b = F.win_shares(wa), F.win_shares(wb)
    pos_a, pos_b = F.by_position(wa, share_a), F.by_position(wb, share_b)
    for p in range(k):
        label = f"win rate {F.position_label(p)}"
        out.append((label, f"win_rate_position_{p}", pos_a[:, p], pos_b[:, p]))
    for s in range(k):
        out.append((f"win rate seat {s}", f"win_rate_seat_{s}", share_a[:, s], share_b[:, s]))
    edge = ("first-player advantage", "first_player_edge", starter_edge(wa), starter_edge(wb))
    out.append(edge)
    turns_a = fa["turns"].to_numpy(np.float64)
    out.append(("game length (turns)", "length_turns", turns_a, fb["turns"].to_numpy(np.float64)))
    for name, label in length_counters:
        if name in fa and name in fb:
            values = fa[name].to_numpy(np.float64), fb[name].to_numpy(np.float64)
            out.append((label, f"length_{name}", *values))
    out.append(("score spread", "score_spread", score_spread(fa), score_spread(fb)))
    out.append(("winning margin", "winning_margin", winning_margin(fa), winning_margin(fb)))
    return out


def metric_unit(key: str) -> str:
    """What a metric of the table is measured in, from its key: ``fraction`` (a share of 1:
    win rates and the first-player edge), ``turns``, ``count`` (a game's own length counter) or
    ``score`` (the game's score points)."""
    if key.startswith("win_rate_") or key == "first_player_edge":
        return "fraction"
    if key == "length_turns":
        return "turns"
    return "count" if key.startswith("length_") else "score"


def paired_diff(a, b) -> pd.DataFrame:
    """The change of every balance metric from run ``a`` to run ``b`` (``Results`` or frames),
    game by game over the game indices both hold; see the module docstring for the metrics (the
    game's own length units when ``a`` is a ``Results`` of a ruleset that has them)."""
    length_counters = getattr(getattr(a, "ruleset", None), "length_counters", ())
    fa, fb = _aligned(a, b)
    values = metric_values(fa, fb, length_counters)
    rows = [paired_row(metric, va, vb, key) for metric, key, va, vb in values]
    table = pd.DataFrame(rows, columns=COLUMNS)
    table["p_holm"] = holm(table["p_value"])
    return table


def holm(p_values: pd.Series) -> pd.Series:
    """Holm-adjusted p-values over the metrics of a table (NaN kept as NaN)."""
    from statsmodels.stats.multitest import multipletests

    p = p_values.astype(float)
    out = pd.Series(np.nan, index=p.index)
    known = p.notna()
    if known.any():
        out[known] = multipletests(p[known].to_numpy(), method="holm")[1]
    return out


class _Moments:
    """Count, sums of a and b, and the mean and sum of squared deviations of d = b - a of one
    metric, merged batch by batch (Chan et al.'s pairwise update: no cancellation however many
    games)."""

    __slots__ = ("n", "sum_a", "sum_b", "mean", "m2", "first", "constant")

    def __init__(self):
        self.n = 0
        self.sum_a = self.sum_b = self.mean = self.m2 = 0.0
        self.first = np.nan
        self.constant = True  # every d so far equals the first

    def add(self, a: np.ndarray, b: np.ndarray) -> None:
        keep = ~(np.isnan(a) | np.isnan(b))
        a, b = a[keep], b[keep]
        m = len(a)
        if m == 0:
            return
        d = b - a
        if self.n == 0:
            self.first = float(d[0])
        self.constant = self.constant and not np.any(d != self.first)
        mean = float(d.mean())
        m2 = float(((d - mean) ** 2).sum())
        total = self.n + m
        delta = mean - self.mean
        self.mean += delta * m / total
        self.m2 += m2 + delta * delta * self.n * m / total
        self.n = total
        self.sum_a += float(a.sum())
        self.sum_b += float(b.sum())

    def row(self, metric: str, key: str = "") -> dict:
        """``paired_row`` of the metric's games, from the moments: the same paired t test."""
        n = self.n
        row = _empty_row(metric, key, n)
        if n == 0:
            return row
        row.update(a=self.sum_a / n, b=self.sum_b / n, diff=self.mean)
        if n > 1 and not self.constant:
            se = np.sqrt(self.m2 / (n - 1) / n)
            t = self.mean / se
            half = stats.t.ppf(0.5 + CONFIDENCE / 2, n - 1) * se
            p = 2 * stats.t.sf(abs(t), n - 1)
            row.update(ci_low=self.mean - half, ci_high=self.mean + half, p_value=float(p))
        else:
            row.update(
                ci_low=self.first, ci_high=self.first, p_value=1.0 if self.first == 0 else 0.0
            )
        return row


class PairedStats:
    """``paired_diff`` of two runs read batch by batch: feed ``add(fa, fb)`` aligned batches
    (game i of ``fa`` is game i of ``fb``), in any number and size; ``table()`` is then
    ``paired_diff`` of all the games (the same numbers up to the last bits of a float sum), in
    memory that does not grow with the games."""

    def __init__(self, length_counters=()):
        self._moments: dict[str, _Moments] = {}
        self.games = 0
        self.length_counters = tuple(length_counters)  # ``Ruleset.length_counters``

    def add(self, fa: pd.DataFrame, fb: pd.DataFrame) -> None:
        if F.seat_count(fa) != F.seat_count(fb):
            raise CardsimError(
                f"cannot pair runs of {F.seat_count(fa)} and {F.seat_count(fb)} players"
            )
        if len(fa) != len(fb) or not np.array_equal(fa["game"].to_numpy(), fb["game"].to_numpy()):
            raise ValueError("paired batches must hold the same games in the same order")
        for metric, key, va, vb in metric_values(fa, fb, self.length_counters):
            self._moments.setdefault((metric, key), _Moments()).add(va, vb)
        self.games += len(fa)

    def table(self) -> pd.DataFrame:
        rows = [m.row(metric, key) for (metric, key), m in self._moments.items()]
        table = pd.DataFrame(rows, columns=COLUMNS)
        table["p_holm"] = holm(table["p_value"])
        return table
