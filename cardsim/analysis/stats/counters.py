"""Per-counter impact: does a seat that ends with more of some counter win more often?

A ruleset names the per-seat counters it records (``Ruleset.seat_counters``: cards bought, crows
played, ...); each is a ``<name>_<seat>`` column of the frame. For each counter:

- ``counter_win_rates``: the win rate of seat-games by the counter's final value, with 95% Wilson
  intervals; values are binned into at most ``max_bins`` ranges of about equal size when there are
  more;
- ``counter_effect``: a logistic regression of the win share on the counter with the turn-order
  position as a control (statsmodels GLM, binomial family; a shared win is a fractional outcome).
  The seats of one game are not independent (one of them wins), so the standard errors are
  robust and clustered by game. The effect size is the odds ratio of winning per unit
  and per standard deviation of the counter, with 95% intervals. A counter that decides who wins
  by itself (perfect separation) has no finite odds ratio and is flagged instead.

Games the turn cap ended are left out. A counter is an outcome of play, so these are
associations, not causes: a paired ablation (``cardsim.analysis.ablation``) measures causes.
"""

from __future__ import annotations

import gc
import warnings

import numpy as np
import pandas as pd

from cardsim.analysis.stats import frame as F
from cardsim.analysis.stats.summary import CONFIDENCE, wilson_interval

MAX_BINS = 10
MAX_REGRESSION_ROWS = 50_000  # seat-games (whole games): tight enough intervals, a second a fit
SEPARATION_NOTE = "decides who wins by itself (separation): no finite odds ratio"
EFFECT_COLUMNS = [
    "counter",
    "seat_games",
    "mean",
    "sd",
    "values",
    "odds_ratio",
    "or_low",
    "or_high",
    "odds_ratio_sd",
    "or_sd_low",
    "or_sd_high",
    "p_value",
    "note",
]
RATE_COLUMNS = [
    "counter",
    "value",
    "low",
    "high",
    "seat_games",
    "wins",
    "win_rate",
    "ci_low",
    "ci_high",
]


def seat_games(frame: pd.DataFrame, counters: list[str] | tuple[str, ...]) -> pd.DataFrame:
    """One row per seat of every finished game: game, seat, position, share (win share), and the
    ``counters``' values."""
    games = F.finished(frame)
    k = F.seat_count(frame)
    n = len(games)
    cols = {
        "game": np.repeat(games["game"].to_numpy(), k),
        "seat": np.tile(np.arange(k), n),
        "position": F.positions(games).ravel(),
        "share": F.win_shares(games).ravel(),
    }
    for name in counters:
        cols[name] = F.seat_matrix(games, name).ravel()
    return pd.DataFrame(cols)


def _bins(values: np.ndarray, max_bins: int) -> tuple[np.ndarray, list[tuple[float, float]]]:
    """Bin index per value and each bin's (lowest, highest) value: one bin per distinct value
    when there are at most ``max_bins``, else about equal-count ranges."""
    distinct = np.unique(values)
    if len(distinct) <= max_bins:
        index = np.searchsorted(distinct, values)
        return index, [(v, v) for v in distinct]
    edges = np.unique(np.quantile(values, np.linspace(0, 1, max_bins + 1)))
    index = np.clip(np.searchsorted(edges, values, side="right") - 1, 0, len(edges) - 2)
    used = np.unique(index)
    index = np.searchsorted(used, index)
    ranges = [(values[index == i].min(), values[index == i].max()) for i in range(len(used))]
    return index, ranges


def counter_win_rates(
    frame: pd.DataFrame, counter: str, max_bins: int = MAX_BINS, long: pd.DataFrame | None = None
) -> pd.DataFrame:
    """Win rate by the counter's final value (or value range). Columns: counter, value (label),
    low, high (the range), seat_games, wins (shared wins split), win_rate, ci_low, ci_high."""
    long = seat_games(frame, [counter]) if long is None else long
    values = long[counter].to_numpy()
    share = long["share"].to_numpy()
    rows = []
    if len(values):
        index, ranges = _bins(values, max_bins)
        wins = np.bincount(index, weights=share, minlength=len(ranges))
        count = np.bincount(index, minlength=len(ranges))
        for i, (lo, hi) in enumerate(ranges):
            ci = wilson_interval(float(wins[i]), int(count[i]))
            rows.append(
                {
                    "counter": counter,
                    "value": f"{lo:g}" if lo == hi else f"{lo:g}-{hi:g}",
                    "low": lo,
                    "high": hi,
                    "seat_games": int(count[i]),
                    "wins": float(wins[i]),
                    "win_rate": wins[i] / count[i],
                    "ci_low": ci[0],
                    "ci_high": ci[1],
                }
            )
    return pd.DataFrame(rows, columns=RATE_COLUMNS)


def _separates(x: np.ndarray, share: np.ndarray) -> bool:
    """The counter splits winners from losers at a threshold (quasi-complete separation): every
    seat-game below it lost, every one above it won (or the reverse). The maximum-likelihood odds
    ratio is then infinite, so there is none to report."""
    won, lost = share > 0, share < 1
    if not won.any() or not lost.any():
        return True
    return bool(x[lost].max() <= x[won].min() or x[won].max() <= x[lost].min())


def game_hash(games: np.ndarray, seed: int = 0) -> np.ndarray:
    """A fixed pseudo-random uint64 per game index (splitmix64 of ``game`` and ``seed``): games
    sorted by it are a uniform random order that any reader of the games finds the same."""
    with np.errstate(over="ignore"):
        z = np.asarray(games, np.int64).astype(np.uint64) + np.uint64(0x9E3779B97F4A7C15)
        z ^= np.uint64(seed) * np.uint64(0xD1B54A32D192ED03)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return z ^ (z >> np.uint64(31))


def _regression_rows(long: pd.DataFrame, max_rows: int, seed: int) -> pd.DataFrame:
    """At most ``max_rows`` seat-games, whole games: those with the smallest ``game_hash``, a
    uniform sample without replacement that a stream of the games can draw too (``GameSample``)."""
    if len(long) <= max_rows:
        return long
    games = long["game"].unique()
    k = len(long) // len(games)
    keep = max(max_rows // max(k, 1), 1)
    chosen = games[np.argsort(game_hash(games, seed), kind="stable")[:keep]]
    return long[long["game"].isin(chosen)]


class GameSample:
    """The seat-games (``seat_games`` rows) of the ``size`` games with the smallest
    ``game_hash`` seen so far: ``_regression_rows``' sample, drawn from a stream of batches."""

    def __init__(self, size: int, seed: int = 0):
        self.size = max(int(size), 1)
        self.seed = seed
        self._rows: pd.DataFrame | None = None
        self._hashes = np.zeros(0, np.uint64)  # per game in the sample

    def add(self, finished: pd.DataFrame, counters) -> None:
        """Offer a batch of finished games."""
        if not len(finished):
            return
        hashes = game_hash(finished["game"].to_numpy(), self.seed)
        if len(self._hashes) >= self.size:
            keep = hashes < self._hashes.max()
            if not keep.any():
                return
            finished, hashes = finished[keep], hashes[keep]
        rows = seat_games(finished, list(counters))
        merged_hashes = np.concatenate([self._hashes, hashes])
        rows = rows if self._rows is None else pd.concat([self._rows, rows], ignore_index=True)
        if len(merged_hashes) > self.size:
            cut = np.sort(merged_hashes)[self.size - 1]
            chosen = merged_hashes <= cut
            k = len(rows) // len(merged_hashes)
            rows = rows[np.repeat(chosen, k)].reset_index(drop=True)
            merged_hashes = merged_hashes[chosen]
        self._rows, self._hashes = rows, merged_hashes

    @property
    def rows(self) -> pd.DataFrame:
        """The sampled seat-games in game order."""
        if self._rows is None:
            return seat_games(pd.DataFrame({"game": [], "first_seat": []}), [])
        return self._rows.sort_values(["game", "seat"], kind="stable").reset_index(drop=True)


def counter_effect(
    frame: pd.DataFrame,
    counter: str,
    long: pd.DataFrame | None = None,
    max_rows: int = MAX_REGRESSION_ROWS,
    seed: int = 0,
) -> dict:
    """Logistic-regression effect of ``counter`` on winning, turn-order position held fixed.

    Returns counter, seat_games, mean, sd, values (distinct), odds_ratio (per unit) with
    or_low/or_high, odds_ratio_sd (per standard deviation) with or_sd_low/or_sd_high, p_value,
    and note (why there is no estimate, if there is none).
    """
    long = seat_games(frame, [counter]) if long is None else long
    x = long[counter].to_numpy(np.float64)
    summary = {
        "seat_games": len(x),
        "mean": float(x.mean()) if len(x) else np.nan,
        "sd": float(x.std(ddof=1)) if len(x) > 1 else np.nan,
        "values": int(len(np.unique(x))),
    }
    separates = summary["values"] >= 2 and _separates(x, long["share"].to_numpy(np.float64))
    sample = _regression_rows(long, max_rows, seed)
    return effect_row(counter, summary, separates, sample, len(long))


def effect_row(
    counter: str, summary: dict, separates: bool, data: pd.DataFrame, total: int
) -> dict:
    """The ``counter_effect`` row from the counter's description over all seat-games
    (``summary``: seat_games, mean, sd, values), whether it separates winners from losers, and the
    seat-games ``data`` (all ``total`` of them, or a sample) the regression is fitted on."""
    import statsmodels.api as sm
    from statsmodels.tools.sm_exceptions import PerfectSeparationWarning

    row = {"counter": counter, **summary}
    for key in ("odds_ratio", "or_low", "or_high", "odds_ratio_sd", "or_sd_low", "or_sd_high"):
        row[key] = np.nan
    row.update(p_value=np.nan, note="")
    if row["values"] < 2:
        row["note"] = "constant: no effect to measure"
        return row
    if separates:
        row["note"] = SEPARATION_NOTE
        return row
    k = int(data["position"].max()) + 1
    pos = data["position"].to_numpy()
    design = np.column_stack(
        [np.ones(len(data)), data[counter].to_numpy(np.float64)]
        + [(pos == p).astype(np.float64) for p in range(1, k)]
    )
    y = data["share"].to_numpy(np.float64)
    with warnings.catch_warnings():
        warnings.simplefilter("error", PerfectSeparationWarning)
        try:
            fit = sm.GLM(y, design, family=sm.families.Binomial()).fit(
                cov_type="cluster", cov_kwds={"groups": data["game"].to_numpy()}
            )
        except (PerfectSeparationWarning, np.linalg.LinAlgError, ValueError):
            row["note"] = SEPARATION_NOTE
            return row
    converged = fit.converged
    beta = float(fit.params[1])
    lo, hi = (float(v) for v in fit.conf_int(1 - CONFIDENCE)[1])
    p = float(fit.pvalues[1])
    # statsmodels' results and model refer to each other: their arrays (~20 MB a fit of 50,000
    # seat-games) wait for the cyclic collector, and a report fits one per counter. Collected
    # now, a Pajarracos report peaks at one fit's memory, not twenty (benchmarks/bench_memory.py)
    del fit
    gc.collect()
    if not converged:
        row["note"] = "the regression did not converge: no odds ratio"
        return row
    sd = row["sd"]
    row.update(
        odds_ratio=np.exp(beta),
        or_low=np.exp(lo),
        or_high=np.exp(hi),
        odds_ratio_sd=np.exp(beta * sd),
        or_sd_low=np.exp(lo * sd),
        or_sd_high=np.exp(hi * sd),
        p_value=p,
    )
    if len(data) < total:
        row["note"] = f"fitted on {len(data):,} of {total:,} seat-games"
    return row


def order_effects(table: pd.DataFrame) -> pd.DataFrame:
    """Strongest association first (by |log odds ratio per sd|), separating counters first."""
    if not len(table):
        return pd.DataFrame(columns=EFFECT_COLUMNS)
    strength = np.abs(np.log(table["odds_ratio_sd"].astype(float)))
    separated = table["note"] == SEPARATION_NOTE
    order = np.lexsort((-strength.fillna(-1).to_numpy(), ~separated.to_numpy()))
    return table.iloc[order].reset_index(drop=True)


def counter_impact(
    frame: pd.DataFrame, counters: list[str] | tuple[str, ...], max_bins: int = MAX_BINS
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Every counter at once: ``(effects, win_rates)`` — one ``counter_effect`` row per counter
    (strongest association first, by |log odds ratio per sd|), and the ``counter_win_rates`` rows
    of all counters together."""
    base = seat_games(frame, [])
    games = F.finished(frame)
    effects, rates = [], []
    for name in counters:  # one counter column at a time: memory stays at one extra column
        sub = base.assign(**{name: F.seat_matrix(games, name).ravel()})
        effects.append(counter_effect(frame, name, long=sub))
        rates.append(counter_win_rates(frame, name, max_bins, long=sub))
    table = order_effects(pd.DataFrame(effects))
    if not rates:
        return table, pd.DataFrame(columns=RATE_COLUMNS)
    return table, pd.concat(rates, ignore_index=True)
